/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iohook.h - in-kernel API of iohook, the register override facility.
 *
 * An override makes some bits of a device register read as a value kept
 * in RAM, with hardware-like behaviour (ro, rw, rc, wc), so that a real
 * driver takes an event path without special hardware. See
 * Documentation/PCI/iohook.rst.
 */
#ifndef _LINUX_IOHOOK_H
#define _LINUX_IOHOOK_H

#include <linux/errno.h>
#include <linux/types.h>
#include <linux/iohook_access.h>
#ifdef CONFIG_IOHOOK
#include <linux/jump_label.h>
#endif

struct pci_bus;
struct notifier_block;

/**
 * enum iohook_space - the address spaces an override can live in
 * @IOHOOK_SPACE_PCI: PCI configuration space, addressed by iohook_pci_addr()
 * @IOHOOK_SPACE_MEM: physical memory (MMIO) addresses
 * @IOHOOK_SPACE_IO: x86 I/O ports, 0 to 0xffff
 * @IOHOOK_NR_SPACES: number of spaces
 */
enum iohook_space {
	IOHOOK_SPACE_PCI,
	IOHOOK_SPACE_MEM,
	IOHOOK_SPACE_IO,
	IOHOOK_NR_SPACES,
};

/**
 * enum iohook_attr - how the overridden bits behave
 * @IOHOOK_RO: read-only: writes are ignored
 * @IOHOOK_RW: read-write: writes set the bits
 * @IOHOOK_RC: read-to-clear: a read returns the bits, then clears them
 * @IOHOOK_WC: write-1-to-clear, like RW1C status bits
 * @IOHOOK_NR_ATTRS: number of attributes
 */
enum iohook_attr {
	IOHOOK_RO,
	IOHOOK_RW,
	IOHOOK_RC,
	IOHOOK_WC,
	IOHOOK_NR_ATTRS,
};

/* Lengths above this are byte-filled read-only ranges. */
#define IOHOOK_MAX_MASKED_LEN	8

/* Largest offset in a PCI function's (extended) config space. */
#define IOHOOK_PCI_CFG_MAX	0xfff
#define IOHOOK_IO_MAX		0xffff

/**
 * struct iohook_cond - the condition of a selector-indexed override
 * @width: selector width in bytes: 1, 2, 4 or 8; 0 for no condition
 * @sel: selector address, in the override's space (for PCI config, in the
 *       same function)
 * @mask: the selector bits the condition compares
 * @value: the override applies only while the last value written to the
 *         selector, ANDed with @mask, equals @value
 *
 * Before the first write iohook records after an arm, the selector's
 * value is unknown and no condition on it holds.
 */
struct iohook_cond {
	u32 width;
	u64 sel;
	u64 mask;
	u64 value;
};

/**
 * struct iohook_policy - which of the accesses an override applies to
 * @skip: the first @skip accesses that touch it pass through
 * @count: then it applies to @count accesses and is exhausted; 0: no limit
 * @prob_num: it applies to an access with probability @prob_num/@prob_den
 * @prob_den: 0 for no probability policy
 * @seed: seeds the choices of the probability policy: the choice for the
 *        Nth access depends only on @seed and N
 *
 * Counting restarts at every iohook_arm().
 */
struct iohook_policy {
	u64 skip;
	u64 count;
	u32 prob_num;
	u32 prob_den;
	u64 seed;
};

/**
 * struct iohook_spec - description of one override, and its current state
 * @space: address space
 * @addr: first address (for PCI config, from iohook_pci_addr())
 * @len: length in bytes, at least 1
 * @value: current emulated value (the fill byte when @len > 8)
 * @mask: overridden bits of the @len little-endian bytes (0xff when @len > 8)
 * @attr: behaviour of the overridden bits
 * @cond: condition on a selector register (@cond.width 0: none)
 * @policy: counted, delayed and probabilistic application
 * @hits: accesses served since it was added (filled in by lookups)
 * @seen: accesses that touched it since the last arm (filled in by lookups)
 * @applied: of those, the accesses it applied to (filled in by lookups)
 * @recorded: the selector's recorded value (filled in by lookups)
 * @recorded_known: whether @recorded holds a written value
 * @flags: IOHOOK_F_* flags
 *
 * iohook_add() ignores the fields that lookups fill in.
 */
struct iohook_spec {
	enum iohook_space space;
	u64 addr;
	u32 len;
	u64 value;
	u64 mask;
	enum iohook_attr attr;
	struct iohook_cond cond;
	struct iohook_policy policy;
	u64 hits;
	u64 seen;
	u64 applied;
	u64 recorded;
	bool recorded_known;
	unsigned int flags;
};

/* Whether an override's @count policy is used up (it then acts as absent). */
static inline bool iohook_spec_exhausted(const struct iohook_spec *spec)
{
	return spec->policy.count && spec->applied >= spec->policy.count;
}

/*
 * No sysfs directory for this override: for in-kernel users that add
 * thousands of overrides (benchmarks), which sysfs users never see.
 */
#define IOHOOK_F_NO_SYSFS	0x1

/**
 * enum iohook_event - what an iohook notifier is told
 * @IOHOOK_EVENT_PREPARE: an override is about to be added; a notifier may
 *	refuse with notifier_from_errno() (the add then fails, and those
 *	that prepared are told IOHOOK_EVENT_ABORT): it is where a listener
 *	allocates what it needs, so that an add is all or nothing
 * @IOHOOK_EVENT_ABORT: an add was refused after IOHOOK_EVENT_PREPARE
 * @IOHOOK_EVENT_ADD: an override was added
 * @IOHOOK_EVENT_REMOVE: an override was removed
 *
 * The data is always the override's struct iohook_spec.
 */
enum iohook_event {
	IOHOOK_EVENT_PREPARE,
	IOHOOK_EVENT_ABORT,
	IOHOOK_EVENT_ADD,
	IOHOOK_EVENT_REMOVE,
};

/**
 * iohook_pci_addr() - the PCI-space address of a config register
 * @domain: PCI domain (segment)
 * @bus: bus number
 * @devfn: device and function
 * @offset: offset in the function's config space, 0 to 0xfff
 *
 * Return: the key under which iohook stores config-space overrides.
 */
static inline u64 iohook_pci_addr(u32 domain, u8 bus, u8 devfn, u16 offset)
{
	return ((u64)domain << 32) | ((u64)bus << 20) | ((u64)devfn << 12) |
	       (offset & IOHOOK_PCI_CFG_MAX);
}

#define IOHOOK_PCI_DOMAIN(a)	((u32)((a) >> 32))
#define IOHOOK_PCI_BUS(a)	((u8)((a) >> 20))
#define IOHOOK_PCI_DEVFN(a)	((u8)((a) >> 12))
#define IOHOOK_PCI_OFFSET(a)	((u16)((a) & IOHOOK_PCI_CFG_MAX))

#ifdef CONFIG_IOHOOK

int iohook_validate(const struct iohook_spec *spec);
int iohook_add(const struct iohook_spec *spec);
int iohook_add_many(const struct iohook_spec *specs, unsigned int n);
/*
 * @when names which override at @addr a verb acts on: NULL for the
 * unconditional one (for iohook_remove(), every one there), else the
 * condition value of a conditional one.
 */
int iohook_remove(enum iohook_space space, u64 addr, const u64 *when);
int iohook_remove_range(enum iohook_space space, u64 first, u64 last);
int iohook_lookup(enum iohook_space space, u64 addr, const u64 *when,
		  struct iohook_spec *out);
int iohook_set_value(enum iohook_space space, u64 addr, const u64 *when,
		     u64 value);
int iohook_for_each(enum iohook_space space, u64 first, u64 last,
		    int (*fn)(const struct iohook_spec *spec, void *data),
		    void *data);
void iohook_arm(void);
void iohook_disarm(void);
bool iohook_is_armed(void);
int iohook_register_notifier(struct notifier_block *nb);
int iohook_unregister_notifier(struct notifier_block *nb);

/*
 * Config-space slow paths, called from drivers/pci/access.c; not __cold,
 * for the reason <linux/iohook_access.h> gives.
 */
DECLARE_STATIC_KEY_FALSE(iohook_pci_key);
int iohook_pci_read(struct pci_bus *bus, unsigned int devfn, int pos,
		    int len, u32 *val);
int iohook_pci_write(struct pci_bus *bus, unsigned int devfn, int pos,
		     int len, u32 val);
#define iohook_pci_active()	static_branch_unlikely(&iohook_pci_key)

/* From arch/x86/mm/ioremap.c: the ioremap() mappings. */
void iohook_ioremap_added(void __iomem *addr, u64 phys, u64 size);
void iohook_ioremap_removed(unsigned long addr);

#else

static inline void iohook_ioremap_added(void __iomem *addr, u64 phys,
					u64 size)
{
}

static inline void iohook_ioremap_removed(unsigned long addr)
{
}

#define iohook_pci_active()	false

static inline int iohook_pci_read(struct pci_bus *bus, unsigned int devfn,
				  int pos, int len, u32 *val)
{
	return -ENODEV;
}

static inline int iohook_pci_write(struct pci_bus *bus, unsigned int devfn,
				   int pos, int len, u32 val)
{
	return -ENODEV;
}

#endif /* CONFIG_IOHOOK */

#endif /* _LINUX_IOHOOK_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private declarations shared by the iohook source files.
 */
#ifndef _DRIVERS_PCI_IOHOOK_INTERNAL_H
#define _DRIVERS_PCI_IOHOOK_INTERNAL_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/iohook.h>
#include <linux/list.h>
#include <linux/maple_tree.h>
#include <linux/rcupdate.h>

/*
 * One override as the store keeps it. Everything but @value and @hits is
 * fixed at creation, so lockless readers need no more than RCU. @value
 * changes with atomic64 operations only, which makes rc and wc updates
 * atomic with respect to accesses on other CPUs.
 */
struct iohook_override {
	enum iohook_space space;
	enum iohook_attr attr;
	u64 start;
	u32 len;
	u64 mask;
	atomic64_t value;
	atomic64_t hits;
	unsigned int flags;
	struct list_head dead;	/* on a list of removed overrides */
};

/*
 * What one override contributes to one access, in the access's bit
 * positions (bit 0 is the lowest-addressed byte's bit 0).
 */
struct iohook_contrib {
	u64 mask;	/* bits of the access this override decides */
	u64 value;	/* their values */
};

/* emulate.c: pure bit semantics, no locking, no I/O. */
u64 iohook_width_mask(unsigned int width);
bool iohook_emul_overlaps(u64 start, u32 len, u64 addr, unsigned int width);
struct iohook_contrib iohook_emul_read(u64 start, u32 len, u64 mask,
				       u64 value, u64 addr,
				       unsigned int width);
u64 iohook_emul_read_clears(u64 start, u32 len, u64 mask,
			    enum iohook_attr attr, u64 addr,
			    unsigned int width);
u64 iohook_emul_write(u64 start, u32 len, u64 mask, enum iohook_attr attr,
		      u64 value, u64 addr, unsigned int width, u64 data);
u64 iohook_hw_write_value(u64 data, u64 cover);
u64 iohook_merge(u64 hw, u64 mask, u64 value);

/*
 * store.c: the trees, read by the access paths under rcu_read_lock(), and
 * the counting filter in front of them (see there).
 */
extern struct maple_tree iohook_trees[IOHOOK_NR_SPACES];
/*
 * Whether overrides take effect: written under the store's mutex, read
 * by the slow paths inside their RCU read section (see hook.c).
 */
extern bool iohook_armed;
#define IOHOOK_FILTER_BITS	12
extern u32 iohook_filter[IOHOOK_NR_SPACES][1 << IOHOOK_FILTER_BITS];
extern const u8 iohook_granule_shift[IOHOOK_NR_SPACES];

/*
 * False when no override can overlap the access, so the access path can
 * skip the tree: one hash and one load (two if the access crosses a
 * granule). Lockless; inline because every armed access pays it.
 */
static inline bool iohook_store_may_cover(enum iohook_space space, u64 addr,
					  unsigned int width)
{
	unsigned int shift = iohook_granule_shift[space];
	u64 g = addr >> shift, g2 = (addr + width - 1) >> shift;

	if (READ_ONCE(iohook_filter[space][hash_64(g, IOHOOK_FILTER_BITS)]))
		return true;
	return g2 != g &&
	       READ_ONCE(iohook_filter[space][hash_64(g2, IOHOOK_FILTER_BITS)]);
}

/* hook.c: the space-independent core of an overridden access. */
bool iohook_access_read(enum iohook_space space, u64 addr,
			unsigned int width, u64 *mask, u64 *value);
bool iohook_access_write(enum iohook_space space, u64 addr,
			 unsigned int width, u64 data, u64 *mask);

/* store_test.c: every KUnit suite's exit. */
void iohook_kunit_clear(void);

extern const char * const iohook_attr_names[IOHOOK_NR_ATTRS];
extern const char * const iohook_space_names[IOHOOK_NR_SPACES];

#endif /* _DRIVERS_PCI_IOHOOK_INTERNAL_H */

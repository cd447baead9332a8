// SPDX-License-Identifier: GPL-2.0
/*
 * Extended capabilities a function lacks, made up in its config space.
 *
 * "add DDDD:BB:DD.F TYPE [at=OFFSET] [OPTIONS]" in /sys/kernel/iohook/caps
 * appends a capability of TYPE (dpc.c: Downstream Port Containment) to
 * the function's extended capability list. Two C register models do it:
 * one answers for the capability's own registers, a register file with
 * read-only, read-write and write-1-to-clear bits as the PCIe Base
 * Specification gives them, plus what its type does on a write; the
 * other answers for the dword of the list's last header, whose next
 * pointer it changes to name the new capability. Like every override
 * they act while iohook is armed, and "remove DDDD:BB:DD.F TYPE" puts
 * the function back as it was.
 *
 * The PCI core reads capabilities once, when it enumerates a function:
 * pci_dpc_init() caches dpc_cap, pci_aer_init() aer_cap, and the port
 * driver makes its services from those. A rebind alone would make a DPC
 * service whose dpc_cap is 0, which then reads and writes the Command
 * and Status registers as DPC's. So a capability stays hidden from the
 * function that exists when it is added, until that function is
 * removed: a remove and rescan enumerates it again, capability and all,
 * and a rebind alone finds nothing new. The state is kept by address, so
 * it outlives the pci_dev it was added for.
 */
#include <linux/bitfield.h>
#include <linux/ctype.h>
#include <linux/init.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ext-cap.h"

/* Serialises adding, removing and finding capabilities, and triggers. */
DEFINE_MUTEX(iohook_cap_mutex);
LIST_HEAD(iohook_caps);

/*
 * Advanced Error Reporting for an endpoint that lacks it (QEMU's nvme):
 * status write-1-to-clear, mask and severity read-write with the
 * specification's default severities, no ECRC, the header log
 * read-only. iohook aer and aer_inject then have registers to name, and
 * the kernel's AER driver reads them when the port reports the device.
 */
#define AER_UNCOR_BITS	0x07fff030	/* Uncorrectable Error Status, 4..26 */
#define AER_COR_BITS	0x0000f1c1	/* Correctable Error Status */

static int iohook_aer_init(struct iohook_cap *cap, char *opts)
{
	if (*opts)
		return -EINVAL;
	cap->len = PCI_ERR_HEADER_LOG + 16;
	cap->w1c[PCI_ERR_UNCOR_STATUS / 4] = AER_UNCOR_BITS;
	cap->rw[PCI_ERR_UNCOR_MASK / 4] = AER_UNCOR_BITS;
	cap->rw[PCI_ERR_UNCOR_SEVER / 4] = AER_UNCOR_BITS;
	cap->regs[PCI_ERR_UNCOR_SEVER / 4] = 0x00462030;
	cap->w1c[PCI_ERR_COR_STATUS / 4] = AER_COR_BITS;
	cap->rw[PCI_ERR_COR_MASK / 4] = AER_COR_BITS;
	cap->regs[PCI_ERR_COR_MASK / 4] = PCI_ERR_COR_ADV_NFAT;
	return 0;
}

static const struct iohook_cap_type iohook_cap_aer = {
	.name = "aer",
	.id = PCI_EXT_CAP_ID_ERR,
	.version = 1,
	.init = iohook_aer_init,
};

static const struct iohook_cap_type *const iohook_cap_types[] = {
	&iohook_cap_dpc,
	&iohook_cap_aer,
};

#define to_regs_cap(ops) container_of(ops, struct iohook_cap, regs_model)
#define to_link_cap(ops) container_of(ops, struct iohook_cap, link_model)

static u32 iohook_cap_width_mask(unsigned int width)
{
	return width >= 4 ? ~0U : BIT(8 * width) - 1;
}

static int iohook_cap_regs_read(struct iohook_model_ctx *ctx)
{
	struct iohook_cap *cap = to_regs_cap(ctx->model->ops);
	unsigned int reg = ctx->offset / 4, shift = (ctx->offset & 3) * 8;
	unsigned long flags;
	u32 val;

	if (!READ_ONCE(cap->visible))
		return IOHOOK_MODEL_PASS;
	raw_spin_lock_irqsave(&cap->lock, flags);
	val = cap->regs[reg];
	if (cap->type->read)
		val = cap->type->read(cap, reg, val);
	raw_spin_unlock_irqrestore(&cap->lock, flags);
	bpf_iohook_set_value(ctx, val >> shift);
	return IOHOOK_MODEL_DONE;
}

/* Config accesses are naturally aligned: one dword holds each. */
static int iohook_cap_regs_write(struct iohook_model_ctx *ctx)
{
	struct iohook_cap *cap = to_regs_cap(ctx->model->ops);
	unsigned int reg = ctx->offset / 4, shift = (ctx->offset & 3) * 8;
	u32 mask = iohook_cap_width_mask(ctx->width) << shift;
	u32 val = (u32)ctx->val << shift;
	unsigned long flags;
	u32 old, new;

	if (!READ_ONCE(cap->visible))
		return IOHOOK_MODEL_PASS;
	raw_spin_lock_irqsave(&cap->lock, flags);
	old = cap->regs[reg];
	new = (old & ~(cap->rw[reg] & mask)) | (val & cap->rw[reg] & mask);
	new &= ~(val & cap->w1c[reg] & mask);
	cap->regs[reg] = new;
	if (cap->type->write)
		cap->type->write(cap, reg, old, new, val & mask);
	raw_spin_unlock_irqrestore(&cap->lock, flags);
	return IOHOOK_MODEL_DONE;
}

/* The last header's next pointer (bits 31:20) names the capability. */
static int iohook_cap_link_read(struct iohook_model_ctx *ctx)
{
	struct iohook_cap *cap = to_link_cap(ctx->model->ops);
	unsigned int shift = (ctx->offset & 3) * 8;
	u32 field = (u32)cap->offset << 20, fmask = GENMASK(31, 20);
	u32 val;

	if (!READ_ONCE(cap->visible))
		return IOHOOK_MODEL_PASS;
	val = bpf_iohook_hw_read(ctx);
	val = (val & ~(fmask >> shift)) | ((field & fmask) >> shift);
	bpf_iohook_set_value(ctx, val);
	return IOHOOK_MODEL_DONE;
}

static u64 iohook_cap_addr(const struct iohook_cap *cap, u16 offset)
{
	return iohook_pci_addr(cap->domain, cap->bus, cap->devfn, offset);
}

/**
 * iohook_cap_find() - the emulated capability of a function, by ID
 * @domain: the function's domain
 * @bus: its bus
 * @devfn: its device and function
 * @id: the extended capability ID
 *
 * Context: iohook_cap_mutex held.
 * Return: the capability, or NULL.
 */
struct iohook_cap *iohook_cap_find(u32 domain, u8 bus, u8 devfn, u16 id)
{
	struct iohook_cap *cap;

	lockdep_assert_held(&iohook_cap_mutex);
	list_for_each_entry(cap, &iohook_caps, node)
		if (cap->domain == domain && cap->bus == bus &&
		    cap->devfn == devfn && cap->type->id == id)
			return cap;
	return NULL;
}

/**
 * iohook_cap_device() - the function a capability is for, if present
 * @cap: the capability
 *
 * Return: the pci_dev with a reference (pci_dev_put() it), or NULL.
 */
struct pci_dev *iohook_cap_device(const struct iohook_cap *cap)
{
	return pci_get_domain_bus_and_slot(cap->domain, cap->bus, cap->devfn);
}

/**
 * iohook_cap_parse_bdf() - a function's address, "DDDD:BB:DD.F" or "BB:DD.F"
 * @s: the whole string
 * @domain: its domain (0 if not given)
 * @bus: its bus
 * @devfn: its device and function
 *
 * Return: 0, or -EINVAL.
 */
int iohook_cap_parse_bdf(const char *s, u32 *domain, u8 *bus, u8 *devfn)
{
	unsigned int d = 0, b, dev, fn;
	int n = 0;

	if (sscanf(s, "%x:%x:%x.%x%n", &d, &b, &dev, &fn, &n) != 4 ||
	    s[n]) {
		d = 0;
		n = 0;
		if (sscanf(s, "%x:%x.%x%n", &b, &dev, &fn, &n) != 3 || s[n])
			return -EINVAL;
	}
	if (b > 0xff || dev > 0x1f || fn > 7)
		return -EINVAL;
	*domain = d;
	*bus = b;
	*devfn = PCI_DEVFN(dev, fn);
	return 0;
}

/* Split "WORD REST" in place: the first word, NUL-ended; @rest after it. */
static char *iohook_cap_word(char **rest)
{
	char *s = skip_spaces(*rest), *w = s;

	while (*s && !isspace(*s))
		s++;
	if (*s)
		*s++ = '\0';
	*rest = skip_spaces(s);
	return w;
}

/**
 * iohook_cap_parse_target() - the function and type a caps line names
 * @rest: the line after its verb; advanced past "BDF TYPE"
 * @domain: the function's domain
 * @bus: its bus
 * @devfn: its device and function
 * @type: the capability type
 *
 * Return: 0, or -EINVAL.
 */
static int iohook_cap_parse_target(char **rest, u32 *domain, u8 *bus,
				   u8 *devfn, const struct iohook_cap_type **type)
{
	const char *bdf = iohook_cap_word(rest);
	const char *name = iohook_cap_word(rest);
	size_t i;

	if (iohook_cap_parse_bdf(bdf, domain, bus, devfn))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(iohook_cap_types); i++) {
		if (!strcmp(name, iohook_cap_types[i]->name)) {
			*type = iohook_cap_types[i];
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * Where the new capability goes: after the list's last header, at
 * @want or else at the first 64-byte boundary past it, where the
 * hardware has nothing (every dword reads 0). Sets @cap->prev,
 * @cap->prev_next and @cap->offset.
 */
static int iohook_cap_place(struct iohook_cap *cap, struct pci_dev *pdev,
			    u16 want)
{
	int ttl = (PCI_CFG_SPACE_EXP_SIZE - PCI_CFG_SPACE_SIZE) / 8;
	u16 pos = PCI_CFG_SPACE_SIZE, last = 0, off, i;
	u32 header;

	if (pci_read_config_dword(pdev, pos, &header))
		return -EIO;
	if (PCI_POSSIBLE_ERROR(header))
		return -EIO;
	while (header && ttl-- > 0) {
		if (PCI_EXT_CAP_ID(header) == cap->type->id)
			return -EEXIST;	/* the hardware has one */
		last = pos;
		pos = PCI_EXT_CAP_NEXT(header);
		if (pos < PCI_CFG_SPACE_SIZE)
			break;
		if (pci_read_config_dword(pdev, pos, &header))
			return -EIO;
	}
	if (!last) {
		/* An empty list: the capability is the list. */
		if (want && want != PCI_CFG_SPACE_SIZE)
			return -ERANGE;
		off = PCI_CFG_SPACE_SIZE;
	} else {
		if (pci_read_config_dword(pdev, last, &header))
			return -EIO;
		off = want ?: round_up(last + 4, 0x40);
		if (off <= last || off % 4)
			return -ERANGE;
	}
	if (off + cap->len > PCI_CFG_SPACE_EXP_SIZE)
		return -ERANGE;
	for (i = last ? off : off + 4; i < off + cap->len; i += 4) {
		u32 v;

		if (pci_read_config_dword(pdev, i, &v))
			return -EIO;
		if (v)
			return -EBUSY;	/* the hardware uses that space */
	}
	cap->prev = last;
	cap->prev_next = last ? PCI_EXT_CAP_NEXT(header) : 0;
	cap->offset = off;
	return 0;
}

static int iohook_cap_bind(struct iohook_cap *cap)
{
	int ret;

	ret = iohook_model_register(&cap->regs_model);
	if (ret)
		return ret;
	ret = iohook_model_bind(cap->regs_model.name, IOHOOK_SPACE_PCI,
				iohook_cap_addr(cap, cap->offset),
				iohook_cap_addr(cap, cap->offset + cap->len - 1),
				NULL, &cap->owner, cap->type->name);
	if (ret)
		goto regs;
	if (!cap->prev)
		return 0;
	ret = iohook_model_register(&cap->link_model);
	if (ret)
		goto regs;
	ret = iohook_model_bind(cap->link_model.name, IOHOOK_SPACE_PCI,
				iohook_cap_addr(cap, cap->prev),
				iohook_cap_addr(cap, cap->prev + 3), NULL,
				&cap->owner, "next");
	if (!ret)
		return 0;
	iohook_model_unregister(&cap->link_model);
regs:
	iohook_model_unregister(&cap->regs_model);
	return ret;
}

/* Take the capability off the access path: no op of it runs after this. */
static void iohook_cap_unbind(struct iohook_cap *cap)
{
	if (cap->prev)
		iohook_model_unregister(&cap->link_model);
	iohook_model_unregister(&cap->regs_model);
}

/**
 * iohook_cap_add() - make up a capability: "DDDD:BB:DD.F TYPE [at=OFF] ..."
 * @line: the caps line after "add", NUL-terminated; parsed in place
 *
 * Every check comes before any change: on error nothing was added.
 *
 * Return: 0; -EINVAL (malformed), -ENODEV (no such function), -ENXIO (it
 * has no extended config space), -EEXIST (it has the capability, made
 * up or real), -ERANGE or -EBUSY (no room at the offset asked for or
 * found), -EIO, or -ENOMEM.
 */
int iohook_cap_add(char *line)
{
	const struct iohook_cap_type *type;
	struct pci_dev *pdev = NULL;
	struct iohook_cap *cap;
	char *rest = strim(line), *opts;
	unsigned int want = 0;
	u32 domain;
	u8 bus, devfn;
	int ret;

	ret = iohook_cap_parse_target(&rest, &domain, &bus, &devfn, &type);
	if (ret)
		return ret;
	/* "at=OFFSET" may come anywhere; the type takes one word more. */
	opts = "";
	while (*rest) {
		char *w = iohook_cap_word(&rest);

		if (!strncmp(w, "at=", 3)) {
			ret = kstrtouint(w + 3, 16, &want);
			if (!ret && (!want || want > 0xffc))
				ret = -EINVAL;
		} else if (!*opts) {
			opts = w;
		} else {
			ret = -EINVAL;
		}
		if (ret)
			return ret;
	}
	cap = kzalloc(sizeof(*cap), GFP_KERNEL);
	if (!cap)
		return -ENOMEM;
	cap->type = type;
	cap->domain = domain;
	cap->bus = bus;
	cap->devfn = devfn;
	snprintf(cap->name, sizeof(cap->name), "%04x:%02x:%02x.%d", domain,
		 bus, PCI_SLOT(devfn), PCI_FUNC(devfn));
	raw_spin_lock_init(&cap->lock);
	cap->regs_model.read = iohook_cap_regs_read;
	cap->regs_model.write = iohook_cap_regs_write;
	snprintf(cap->regs_model.name, sizeof(cap->regs_model.name), "%s@%s",
		 type->name, cap->name);
	cap->link_model.read = iohook_cap_link_read;
	snprintf(cap->link_model.name, sizeof(cap->link_model.name),
		 "%s-next@%s", type->name, cap->name);
	cap->regs[0] = FIELD_PREP(GENMASK(15, 0), type->id) |
		       FIELD_PREP(GENMASK(19, 16), type->version);
	ret = type->init(cap, opts);
	if (ret)
		goto free_cap;

	mutex_lock(&iohook_cap_mutex);
	pdev = pci_get_domain_bus_and_slot(domain, bus, devfn);
	ret = -ENODEV;
	if (!pdev)
		goto unlock;
	ret = -ENXIO;
	if (pdev->cfg_size <= PCI_CFG_SPACE_SIZE)
		goto unlock;
	ret = -EEXIST;
	if (iohook_cap_find(domain, bus, devfn, type->id))
		goto unlock;
	ret = iohook_cap_place(cap, pdev, want);
	if (ret)
		goto unlock;
	/* Enumerated without it: hidden until the function is removed. */
	cap->visible = false;
	ret = iohook_cap_bind(cap);
	if (ret)
		goto unlock;
	list_add_tail(&cap->node, &iohook_caps);
	cap = NULL;
unlock:
	mutex_unlock(&iohook_cap_mutex);
	pci_dev_put(pdev);
	if (cap && type->destroy)
		type->destroy(cap);
free_cap:
	kfree(cap);
	return ret;
}

/**
 * iohook_cap_remove() - take a made-up capability away: "DDDD:BB:DD.F TYPE"
 * @line: the caps line after "remove"; parsed in place
 *
 * The function's cached view of it stays until it is enumerated again.
 *
 * Return: 0, -EINVAL (malformed) or -ENOENT (no such capability).
 */
int iohook_cap_remove(char *line)
{
	const struct iohook_cap_type *type;
	struct iohook_cap *cap;
	char *rest = strim(line);
	u32 domain;
	u8 bus, devfn;
	int ret;

	ret = iohook_cap_parse_target(&rest, &domain, &bus, &devfn, &type);
	if (!ret && *rest)
		ret = -EINVAL;
	if (ret)
		return ret;
	mutex_lock(&iohook_cap_mutex);
	cap = iohook_cap_find(domain, bus, devfn, type->id);
	if (cap) {
		list_del(&cap->node);
		iohook_cap_unbind(cap);
		if (type->destroy)
			type->destroy(cap);
	}
	mutex_unlock(&iohook_cap_mutex);
	kfree(cap);
	return cap ? 0 : -ENOENT;
}

/**
 * iohook_cap_show() - the made-up capabilities, a line each
 * @buf: a sysfs page
 *
 * "DDDD:BB:DD.F TYPE OFFSET LEN prev=OFFSET state=STATE", where STATE is
 * "pending" (hidden until the function is removed and rescanned) or
 * "visible".
 *
 * Return: the length written.
 */
ssize_t iohook_cap_show(char *buf)
{
	struct iohook_cap *cap;
	ssize_t n = 0;

	mutex_lock(&iohook_cap_mutex);
	list_for_each_entry(cap, &iohook_caps, node)
		n += sysfs_emit_at(buf, n, "%s %s %03x %x prev=%03x state=%s\n",
				   cap->name, cap->type->name, cap->offset,
				   cap->len, cap->prev,
				   READ_ONCE(cap->visible) ? "visible" :
							     "pending");
	mutex_unlock(&iohook_cap_mutex);
	return n;
}

/* A function went away: enumerated again, it finds its capabilities. */
static int iohook_cap_pci_notify(struct notifier_block *nb,
				 unsigned long action, void *data)
{
	struct pci_dev *pdev = to_pci_dev(data);
	struct iohook_cap *cap;

	if (action != BUS_NOTIFY_DEL_DEVICE)
		return NOTIFY_DONE;
	mutex_lock(&iohook_cap_mutex);
	list_for_each_entry(cap, &iohook_caps, node)
		if (cap->domain == pci_domain_nr(pdev->bus) &&
		    cap->bus == pdev->bus->number && cap->devfn == pdev->devfn)
			WRITE_ONCE(cap->visible, true);
	mutex_unlock(&iohook_cap_mutex);
	return NOTIFY_OK;
}

static struct notifier_block iohook_cap_nb = {
	.notifier_call = iohook_cap_pci_notify,
};

static int __init iohook_cap_init(void)
{
	return bus_register_notifier(&pci_bus_type, &iohook_cap_nb);
}
device_initcall(iohook_cap_init);

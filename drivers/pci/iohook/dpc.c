// SPDX-License-Identifier: GPL-2.0
/*
 * Downstream Port Containment for ports whose hardware has none.
 *
 * "add PORT dpc [rpext]" in the caps file (ext-cap.c) gives a root or
 * switch downstream port a DPC capability: Capability read-only
 * (interrupt message 0, software triggering, and with "rpext" the RP
 * Extensions and an RP PIO log of 4 dwords), Control read-write with the
 * software trigger reading 0, Status write-1-to-clear in Trigger Status
 * and Interrupt Status, read-only elsewhere, Source ID read-only, and the
 * RP PIO registers. Once the port was enumerated again with it, the
 * kernel's DPC service binds and enables it.
 *
 * "trigger PORT REASON [source=BB:DD.F] [busy=MS]" in the dpc file, or a
 * write of Control's software trigger, contains the port as hardware
 * does:
 * - the port's secondary side is fenced: config space of every bus below
 *   it and its I/O and memory windows read all ones and drop writes, and
 *   its Link Status reads Data Link Layer Link Active clear. Fences are
 *   C register models bound over those ranges while contained;
 * - the link's loss resets what is below: a secondary bus reset pulse,
 *   which the fence hides, so the devices come back as after a link
 *   reset (QEMU resets them);
 * - Status gets Trigger Status, the reason (and its extension), Interrupt
 *   Status if Control enables the interrupt, the first error pointer for
 *   RP PIO; Source ID the device named; RP Busy reads set for MS ms;
 * - the port's interrupt fires (its MSI-X or MSI vector 0) if enabled.
 * The error is not also logged in the port's AER registers: they are
 * untouched. Containment ends when software clears Trigger Status (the
 * kernel's dpc_reset_link()): the fences open at that write, so the
 * devices answer the kernel's next read, and a work item unbinds them.
 */
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/pci.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ext-cap.h"
#include "irq.h"

/* Dword indexes of the DPC registers. */
#define DPC_CAP_CTL		1	/* Capability (15:0), Control (31:16) */
#define DPC_STS_SRC		2	/* Status (15:0), Source ID (31:16) */
#define DPC_PIO_STATUS		3
#define DPC_PIO_MASK		4
#define DPC_PIO_SEVERITY	5
#define DPC_PIO_SYSERROR	6
#define DPC_PIO_EXCEPTION	7
#define DPC_PIO_LOG		8	/* 4 dwords of TLP header */

/* Control bits a write sets: trigger enable, completion control,
 * interrupt enable, ERR_COR enable. Poisoned TLP blocking and DL_Active
 * ERR_COR are not offered; the software trigger reads 0.
 */
#define DPC_CTL_RW		0x001f
#define DPC_CTL_SW_TRIGGER	0x0040
#define DPC_RP_PIO_BITS		0x00070707	/* the defined RP PIO errors */
#define DPC_LOG_SIZE		4
#define DPC_CTL_EN		(PCI_EXP_DPC_CTL_EN_FATAL | \
				 PCI_EXP_DPC_CTL_EN_NONFATAL)

/* Status's trigger reasons (6.1's pci_regs.h has only the masks). */
#define DPC_RSN_UNCOR		0x0000	/* an unmasked uncorrectable error */
#define DPC_RSN_NFE		0x0002	/* ERR_NONFATAL received */
#define DPC_RSN_FE		0x0004	/* ERR_FATAL received */
#define DPC_RSN_IN_EXT		0x0006	/* see the extension, bits 6:5 */
#define DPC_RSN_RP_PIO		(DPC_RSN_IN_EXT | 0x0000)
#define DPC_RSN_SW_TRIGGER	(DPC_RSN_IN_EXT | 0x0020)

enum iohook_dpc_fence_kind {
	DPC_FENCE_CFG,		/* config space of the buses below */
	DPC_FENCE_IO,		/* the I/O window */
	DPC_FENCE_MEM,		/* the memory window */
	DPC_FENCE_PREF,		/* the prefetchable memory window */
	DPC_FENCE_LINK,		/* the port's Link Status */
	DPC_NR_FENCES,
};

static const char *const iohook_dpc_fence_names[DPC_NR_FENCES] = {
	"cfg", "io", "mem", "pref", "link",
};

struct iohook_dpc;

/**
 * struct iohook_dpc_fence - a model in front of one range while contained
 * @ops: the model, named "dpc-KIND@PORT"
 * @dpc: its port
 * @bound: registered and bound
 */
struct iohook_dpc_fence {
	struct iohook_model_ops ops;
	struct iohook_dpc *dpc;
	bool bound;
};

/**
 * struct iohook_dpc_req - what a trigger asks for
 * @reason: Status bits 2:1 and 6:5 (DPC_RSN_*)
 * @source: the Source ID, for ERR_FATAL and ERR_NONFATAL
 * @busy_ms: how long RP Busy reads set
 */
struct iohook_dpc_req {
	u16 reason;
	u16 source;
	unsigned int busy_ms;
};

/**
 * struct iohook_dpc - the DPC of one port
 * @cap: its capability
 * @rpext: RP Extensions are offered
 * @contained: the fences answer for the hardware (read on the access path)
 * @busy_until: local_clock() until which RP Busy reads set
 * @mutex: serialises triggers and the fences' binding
 * @fence: the fences, bound while contained
 * @sw_trigger: a Control write's software trigger, from process context
 * @release: unbinds the fences once Trigger Status was cleared
 * @triggers: containments so far
 * @releases: containments ended by software
 */
struct iohook_dpc {
	struct iohook_cap *cap;
	bool rpext;
	bool contained;
	u64 busy_until;
	struct mutex mutex;	/* see above */
	struct iohook_dpc_fence fence[DPC_NR_FENCES];
	struct work_struct sw_trigger;
	struct work_struct release;
	unsigned long triggers;
	unsigned long releases;
};

#define to_fence(o) container_of(o, struct iohook_dpc_fence, ops)

/* Below a contained port nothing answers: all ones, writes dropped. */
static int iohook_dpc_fence_read(struct iohook_model_ctx *ctx)
{
	struct iohook_dpc_fence *f = to_fence(ctx->model->ops);

	if (!READ_ONCE(f->dpc->contained))
		return IOHOOK_MODEL_PASS;
	bpf_iohook_set_value(ctx, ~0ULL);
	return IOHOOK_MODEL_DONE;
}

static int iohook_dpc_fence_write(struct iohook_model_ctx *ctx)
{
	struct iohook_dpc_fence *f = to_fence(ctx->model->ops);

	return READ_ONCE(f->dpc->contained) ? IOHOOK_MODEL_DONE :
					      IOHOOK_MODEL_PASS;
}

/* The link is down: Link Status's DLLLA (bit 13) reads clear. */
static int iohook_dpc_link_read(struct iohook_model_ctx *ctx)
{
	struct iohook_dpc_fence *f = to_fence(ctx->model->ops);
	u64 val;

	if (!READ_ONCE(f->dpc->contained))
		return IOHOOK_MODEL_PASS;
	val = bpf_iohook_hw_read(ctx);
	if (ctx->offset == 0)
		val &= ~(u64)PCI_EXP_LNKSTA_DLLLA;
	else if (ctx->offset == 1)
		val &= ~(u64)(PCI_EXP_LNKSTA_DLLLA >> 8);
	bpf_iohook_set_value(ctx, val);
	return IOHOOK_MODEL_DONE;
}

static void iohook_dpc_unfence(struct iohook_dpc *dpc)
{
	int i;

	lockdep_assert_held(&dpc->mutex);
	for (i = 0; i < DPC_NR_FENCES; i++) {
		if (!dpc->fence[i].bound)
			continue;
		iohook_model_unregister(&dpc->fence[i].ops);
		dpc->fence[i].bound = false;
	}
}

static int iohook_dpc_fence_one(struct iohook_dpc *dpc,
				enum iohook_dpc_fence_kind kind,
				enum iohook_space space, u64 first, u64 last)
{
	struct iohook_dpc_fence *f = &dpc->fence[kind];
	int ret;

	f->dpc = dpc;
	memset(&f->ops, 0, sizeof(f->ops));
	f->ops.read = kind == DPC_FENCE_LINK ? iohook_dpc_link_read :
					       iohook_dpc_fence_read;
	if (kind != DPC_FENCE_LINK)
		f->ops.write = iohook_dpc_fence_write;
	snprintf(f->ops.name, sizeof(f->ops.name), "dpc-%s@%s",
		 iohook_dpc_fence_names[kind], dpc->cap->name);
	ret = iohook_model_register(&f->ops);
	if (ret)
		return ret;
	ret = iohook_model_bind(f->ops.name, space, first, last, NULL,
				&dpc->cap->owner, "dpc");
	if (ret) {
		iohook_model_unregister(&f->ops);
		return ret;
	}
	f->bound = true;
	return 0;
}

/* A bridge window, if it is assigned. */
static bool iohook_dpc_window(struct pci_dev *port, int i, u64 *first,
			      u64 *last)
{
	struct resource *res = &port->resource[PCI_BRIDGE_RESOURCES + i];

	if (!res->flags || (res->flags & (IORESOURCE_UNSET |
					  IORESOURCE_DISABLED)) ||
	    res->end <= res->start)
		return false;
	*first = res->start;
	*last = res->end;
	return true;
}

/* Fence off everything below @port. */
static int iohook_dpc_fence(struct iohook_dpc *dpc, struct pci_dev *port)
{
	static const struct {
		enum iohook_dpc_fence_kind kind;
		enum iohook_space space;
	} windows[] = {
		{ DPC_FENCE_IO, IOHOOK_SPACE_IO },
		{ DPC_FENCE_MEM, IOHOOK_SPACE_MEM },
		{ DPC_FENCE_PREF, IOHOOK_SPACE_MEM },
	};
	u32 domain = pci_domain_nr(port->bus);
	u16 lnksta = port->pcie_cap + PCI_EXP_LNKSTA;
	struct pci_bus *sub = port->subordinate;
	u64 first, last;
	int i, ret;

	ret = iohook_dpc_fence_one(dpc, DPC_FENCE_LINK, IOHOOK_SPACE_PCI,
				   iohook_pci_addr(domain, port->bus->number,
						   port->devfn, lnksta),
				   iohook_pci_addr(domain, port->bus->number,
						   port->devfn, lnksta + 1));
	if (ret || !sub)
		return ret;
	ret = iohook_dpc_fence_one(dpc, DPC_FENCE_CFG, IOHOOK_SPACE_PCI,
				   iohook_pci_addr(domain, sub->number, 0, 0),
				   iohook_pci_addr(domain, sub->busn_res.end,
						   0xff, IOHOOK_PCI_CFG_MAX));
	for (i = 0; !ret && i < ARRAY_SIZE(windows); i++)
		if (iohook_dpc_window(port, i, &first, &last))
			ret = iohook_dpc_fence_one(dpc, windows[i].kind,
						   windows[i].space, first,
						   last);
	return ret;
}

/* The link's loss resets what is below it: a secondary bus reset pulse. */
static void iohook_dpc_reset_below(struct pci_dev *port)
{
	u16 ctl;

	pci_read_config_word(port, PCI_BRIDGE_CONTROL, &ctl);
	pci_write_config_word(port, PCI_BRIDGE_CONTROL,
			      ctl | PCI_BRIDGE_CTL_BUS_RESET);
	usleep_range(2000, 3000);
	pci_write_config_word(port, PCI_BRIDGE_CONTROL, ctl);
}

/* Whether Control lets @reason trigger containment. */
static bool iohook_dpc_enabled(u16 ctl, u16 reason)
{
	u16 en = ctl & DPC_CTL_EN;

	switch (reason) {
	case DPC_RSN_FE:
	case DPC_RSN_UNCOR:
		return en == PCI_EXP_DPC_CTL_EN_FATAL ||
		       en == PCI_EXP_DPC_CTL_EN_NONFATAL;
	case DPC_RSN_NFE:
		return en == PCI_EXP_DPC_CTL_EN_NONFATAL;
	default:	/* software trigger, RP PIO */
		return true;
	}
}

/*
 * Contain @dpc's port as hardware does (see the top of this file).
 * Return: 0; -ENODEV (no port), -EAGAIN (the port was not enumerated
 * with the capability: remove and rescan it), -EBUSY (contained), -EPERM
 * (Control does not enable this trigger).
 */
static int iohook_dpc_contain(struct iohook_dpc *dpc,
			      const struct iohook_dpc_req *req)
{
	struct iohook_cap *cap = dpc->cap;
	unsigned long flags;
	struct pci_dev *port;
	unsigned int irq;
	u16 ctl, sts;
	u32 val;
	int ret;

	port = iohook_cap_device(cap);
	if (!port)
		return -ENODEV;
	mutex_lock(&dpc->mutex);
	ret = -EAGAIN;
	if (!READ_ONCE(cap->visible))
		goto out;
#ifdef CONFIG_PCIE_DPC
	if (port->dpc_cap != cap->offset)
		goto out;
#endif
	raw_spin_lock_irqsave(&cap->lock, flags);
	ctl = cap->regs[DPC_CAP_CTL] >> 16;
	sts = cap->regs[DPC_STS_SRC];
	raw_spin_unlock_irqrestore(&cap->lock, flags);
	ret = -EBUSY;
	if (sts & PCI_EXP_DPC_STATUS_TRIGGER)
		goto out;
	/* Released, and the release work has not unbound the fences yet. */
	if (!READ_ONCE(dpc->contained))
		iohook_dpc_unfence(dpc);
	ret = -EPERM;
	if (!iohook_dpc_enabled(ctl, req->reason))
		goto out;

	WRITE_ONCE(dpc->contained, true);
	ret = iohook_dpc_fence(dpc, port);
	if (ret) {
		WRITE_ONCE(dpc->contained, false);
		iohook_dpc_unfence(dpc);
		goto out;
	}
	iohook_dpc_reset_below(port);

	raw_spin_lock_irqsave(&cap->lock, flags);
	ctl = cap->regs[DPC_CAP_CTL] >> 16;
	val = PCI_EXP_DPC_STATUS_TRIGGER | req->reason;
	if (ctl & PCI_EXP_DPC_CTL_INT_EN)
		val |= PCI_EXP_DPC_STATUS_INTERRUPT;
	if (req->reason == DPC_RSN_RP_PIO && dpc->rpext) {
		/* A memory request that got an Unsupported Request. */
		val |= FIELD_PREP(PCI_EXP_DPC_RP_PIO_FEP, 16);
		cap->regs[DPC_PIO_STATUS] |= BIT(16);
		cap->regs[DPC_PIO_LOG] = 0x20000001;	/* MRd, 64-bit, 1 DW */
		cap->regs[DPC_PIO_LOG + 1] = req->source << 16 | 0x0f;
		cap->regs[DPC_PIO_LOG + 2] = 0;
		cap->regs[DPC_PIO_LOG + 3] = 0;
	}
	cap->regs[DPC_STS_SRC] = val | (u32)req->source << 16;
	dpc->busy_until = req->busy_ms ?
		local_clock() + (u64)req->busy_ms * NSEC_PER_MSEC : 0;
	dpc->triggers++;
	raw_spin_unlock_irqrestore(&cap->lock, flags);

	if (val & PCI_EXP_DPC_STATUS_INTERRUPT)
		iohook_fire_pci_vector(port, cap->regs[DPC_CAP_CTL] &
				       PCI_EXP_DPC_IRQ, &irq);
	ret = 0;
out:
	mutex_unlock(&dpc->mutex);
	pci_dev_put(port);
	return ret;
}

static void iohook_dpc_sw_trigger(struct work_struct *work)
{
	struct iohook_dpc *dpc = container_of(work, struct iohook_dpc,
					      sw_trigger);
	const struct iohook_dpc_req req = {
		.reason = DPC_RSN_SW_TRIGGER,
	};

	iohook_dpc_contain(dpc, &req);
}

static void iohook_dpc_release(struct work_struct *work)
{
	struct iohook_dpc *dpc = container_of(work, struct iohook_dpc,
					      release);

	mutex_lock(&dpc->mutex);
	if (!READ_ONCE(dpc->contained))
		iohook_dpc_unfence(dpc);
	mutex_unlock(&dpc->mutex);
}

/* RP Busy reads set until busy_until. */
static u32 iohook_dpc_read(struct iohook_cap *cap, unsigned int reg, u32 val)
{
	struct iohook_dpc *dpc = cap->dpc;

	if (reg == DPC_STS_SRC && dpc->busy_until &&
	    local_clock() < dpc->busy_until)
		val |= PCI_EXP_DPC_RP_BUSY;
	return val;
}

/* Called with cap->lock held, from any context. */
static void iohook_dpc_write(struct iohook_cap *cap, unsigned int reg,
			     u32 old, u32 val, u32 written)
{
	struct iohook_dpc *dpc = cap->dpc;

	if (reg == DPC_CAP_CTL &&
	    (written & ((u32)DPC_CTL_SW_TRIGGER << 16)) &&
	    !(cap->regs[DPC_STS_SRC] & PCI_EXP_DPC_STATUS_TRIGGER))
		schedule_work(&dpc->sw_trigger);
	if (reg == DPC_STS_SRC && (old & PCI_EXP_DPC_STATUS_TRIGGER) &&
	    !(val & PCI_EXP_DPC_STATUS_TRIGGER)) {
		/* Released: the link comes back, the devices answer. */
		cap->regs[DPC_STS_SRC] &= ~(PCI_EXP_DPC_STATUS_TRIGGER_RSN |
					    PCI_EXP_DPC_STATUS_TRIGGER_RSN_EXT |
					    PCI_EXP_DPC_RP_PIO_FEP);
		dpc->busy_until = 0;
		dpc->releases++;
		WRITE_ONCE(dpc->contained, false);
		schedule_work(&dpc->release);
	}
}

/* "[rpext]": the registers as the specification lays them out. */
static int iohook_dpc_init(struct iohook_cap *cap, char *opts)
{
	struct iohook_dpc *dpc;
	u16 capreg = PCI_EXP_DPC_CAP_SW_TRIGGER;	/* message number 0 */
	bool rpext = false;

	if (!strcmp(opts, "rpext"))
		rpext = true;
	else if (*opts)
		return -EINVAL;
	dpc = kzalloc(sizeof(*dpc), GFP_KERNEL);
	if (!dpc)
		return -ENOMEM;
	dpc->cap = cap;
	dpc->rpext = rpext;
	mutex_init(&dpc->mutex);
	INIT_WORK(&dpc->sw_trigger, iohook_dpc_sw_trigger);
	INIT_WORK(&dpc->release, iohook_dpc_release);
	cap->dpc = dpc;
	cap->len = 0x0c;
	if (rpext) {
		capreg |= PCI_EXP_DPC_CAP_RP_EXT |
			  FIELD_PREP(PCI_EXP_DPC_RP_PIO_LOG_SIZE, DPC_LOG_SIZE);
		cap->len = (DPC_PIO_LOG + DPC_LOG_SIZE) * 4;
		cap->w1c[DPC_PIO_STATUS] = DPC_RP_PIO_BITS;
		cap->rw[DPC_PIO_MASK] = DPC_RP_PIO_BITS;
		cap->rw[DPC_PIO_SEVERITY] = DPC_RP_PIO_BITS;
		cap->rw[DPC_PIO_SYSERROR] = DPC_RP_PIO_BITS;
		cap->rw[DPC_PIO_EXCEPTION] = DPC_RP_PIO_BITS;
	}
	cap->regs[DPC_CAP_CTL] = capreg;
	cap->rw[DPC_CAP_CTL] = (u32)DPC_CTL_RW << 16;
	cap->w1c[DPC_STS_SRC] = PCI_EXP_DPC_STATUS_TRIGGER |
				PCI_EXP_DPC_STATUS_INTERRUPT;
	return 0;
}

/* Off the access path already: end any containment, then free. */
static void iohook_dpc_destroy(struct iohook_cap *cap)
{
	struct iohook_dpc *dpc = cap->dpc;

	cancel_work_sync(&dpc->sw_trigger);
	cancel_work_sync(&dpc->release);
	mutex_lock(&dpc->mutex);
	WRITE_ONCE(dpc->contained, false);
	iohook_dpc_unfence(dpc);
	mutex_unlock(&dpc->mutex);
	mutex_destroy(&dpc->mutex);
	kfree(dpc);
	cap->dpc = NULL;
}

const struct iohook_cap_type iohook_cap_dpc = {
	.name = "dpc",
	.id = PCI_EXT_CAP_ID_DPC,
	.version = 1,
	.init = iohook_dpc_init,
	.read = iohook_dpc_read,
	.write = iohook_dpc_write,
	.destroy = iohook_dpc_destroy,
};

static const struct {
	const char *name;
	u16 reason;
} iohook_dpc_reasons[] = {
	{ "uncor", DPC_RSN_UNCOR },
	{ "nonfatal", DPC_RSN_NFE },
	{ "fatal", DPC_RSN_FE },
	{ "rp-pio", DPC_RSN_RP_PIO },
	{ "software", DPC_RSN_SW_TRIGGER },
};

/* "REASON [source=BB:DD.F] [busy=MS]" after the port. */
static int iohook_dpc_parse(char *s, struct iohook_dpc *dpc,
			    struct iohook_dpc_req *req)
{
	bool have_reason = false;
	char *tok;
	size_t i;

	while ((tok = strsep(&s, " \t\n"))) {
		unsigned int b, d, f, ms;
		int n = 0;

		if (!*tok)
			continue;
		if (sscanf(tok, "source=%x:%x.%x%n", &b, &d, &f, &n) == 3 &&
		    !tok[n]) {
			if (b > 0xff || d > 0x1f || f > 7)
				return -EINVAL;
			req->source = b << 8 | PCI_DEVFN(d, f);
			continue;
		}
		if (sscanf(tok, "busy=%u%n", &ms, &n) == 1 && !tok[n]) {
			if (!dpc->rpext || ms > 60000)
				return -EINVAL;
			req->busy_ms = ms;
			continue;
		}
		for (i = 0; !have_reason && i < ARRAY_SIZE(iohook_dpc_reasons);
		     i++) {
			if (!strcmp(tok, iohook_dpc_reasons[i].name)) {
				req->reason = iohook_dpc_reasons[i].reason;
				have_reason = true;
				break;
			}
		}
		if (i == ARRAY_SIZE(iohook_dpc_reasons) || !have_reason)
			return -EINVAL;
	}
	if (!have_reason)
		return -EINVAL;
	if (req->reason == DPC_RSN_RP_PIO && !dpc->rpext)
		return -EINVAL;
	return 0;
}

/**
 * iohook_dpc_trigger_line() - "trigger PORT REASON [source=..] [busy=MS]"
 * @line: the dpc file's line, NUL-terminated; parsed in place
 *
 * REASON: uncor, nonfatal, fatal, rp-pio (needs rpext), software. The
 * source defaults to device 0 of the port's secondary bus.
 *
 * Return: 0; -EINVAL (malformed), -ENODEV (no DPC made up there, or no
 * port), -EAGAIN (the port must be removed and rescanned first), -EBUSY
 * (contained already), -EPERM (DPC Control does not enable the trigger),
 * or -ENOMEM.
 */
int iohook_dpc_trigger_line(char *line)
{
	char *s = strim(line), *verb, *port;
	struct iohook_dpc_req req = { };
	struct iohook_cap *cap;
	struct pci_dev *pdev;
	u32 domain;
	u8 bus, devfn;
	int ret;

	verb = strsep(&s, " ");
	port = strsep(&s, " ");
	if (strcmp(verb, "trigger") || !port || !s ||
	    iohook_cap_parse_bdf(port, &domain, &bus, &devfn))
		return -EINVAL;

	mutex_lock(&iohook_cap_mutex);
	cap = iohook_cap_find(domain, bus, devfn, PCI_EXT_CAP_ID_DPC);
	ret = -ENODEV;
	if (cap) {
		ret = iohook_dpc_parse(s, cap->dpc, &req);
		if (!ret && !req.source) {
			pdev = iohook_cap_device(cap);
			if (pdev && pdev->subordinate)
				req.source = pdev->subordinate->number << 8;
			pci_dev_put(pdev);
		}
		if (!ret)
			ret = iohook_dpc_contain(cap->dpc, &req);
	}
	mutex_unlock(&iohook_cap_mutex);
	return ret;
}

/**
 * iohook_dpc_show() - the made-up DPC of each port, a line each
 * @buf: a sysfs page
 *
 * "PORT control=XXXX status=XXXX source=XXXX contained=0|1 triggers=N
 * releases=N".
 *
 * Return: the length written.
 */
ssize_t iohook_dpc_show(char *buf)
{
	struct iohook_cap *cap;
	ssize_t n = 0;

	mutex_lock(&iohook_cap_mutex);
	list_for_each_entry(cap, &iohook_caps, node) {
		struct iohook_dpc *dpc = cap->dpc;
		unsigned long flags;
		u32 ctl, sts;

		if (cap->type != &iohook_cap_dpc)
			continue;
		raw_spin_lock_irqsave(&cap->lock, flags);
		ctl = cap->regs[DPC_CAP_CTL] >> 16;
		sts = iohook_dpc_read(cap, DPC_STS_SRC, cap->regs[DPC_STS_SRC]);
		raw_spin_unlock_irqrestore(&cap->lock, flags);
		n += sysfs_emit_at(buf, n,
				   "%s control=%04x status=%04x source=%04x contained=%d triggers=%lu releases=%lu\n",
				   cap->name, ctl, sts & 0xffff, sts >> 16,
				   READ_ONCE(dpc->contained), dpc->triggers,
				   dpc->releases);
	}
	mutex_unlock(&iohook_cap_mutex);
	return n;
}

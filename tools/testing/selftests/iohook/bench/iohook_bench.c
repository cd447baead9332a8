// SPDX-License-Identifier: GPL-2.0
/*
 * iohook_bench - in-kernel benchmarks of iohook, for "make bench" only.
 *
 * Every comparison is measured side by side in the same boot, with the
 * same loop and data: the two variants alternate, repetition by
 * repetition, and each figure is the median (with min and max) of
 * IOHOOK_BENCH_REPS repetitions, in nanoseconds per operation.
 * Results are printed as "iohook_bench: RESULT name median min max"
 * lines, which scripts/bench turns into a table and a JSON file.
 *
 *   off     hooked accessor, nothing armed, against the raw instruction
 *   miss    armed, N overrides elsewhere in the space, against disarmed
 *           (a kernel buffer, the e1000e's BAR0, a root port's config)
 *   hit     an overridden read as N grows
 *   lookup  maple tree against the 2013 design's linked list
 *   cond    a conditional override's hit against an unconditional one's,
 *           and the write path's selector recording
 *   model   a register model's access (the pass-through model, which the
 *           guest loads before this module) against a static override's hit
 */
#include <linux/io.h>
#include <linux/iohook.h>
#include <linux/iohook_model.h>
#include <linux/ktime.h>
#include <linux/maple_tree.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "bench_harness.h"

#define BATCH			256
/* Far from any RAM or BAR; PCI domain 0xabcd has no device. */
#define MEM_BASE		0x000a000000000000ULL
#define PCI_BASE		(0xabcdULL << 32)

enum op {
	OP_READL_HOOKED, OP_READL_RAW, OP_INB_HOOKED, OP_INB_RAW,
	OP_CFG_HOOKED, OP_CFG_RAW, OP_WRITEL_HOOKED,
};

struct target {
	void __iomem *addr;
	u16 port;
	struct pci_dev *pdev;
};

static DEFINE_RAW_SPINLOCK(bench_lock);

/*
 * The raw config read: what pci_bus_read_config_dword() does (a raw
 * spinlock with interrupts saved, then bus->ops->read()), without the
 * static branch.
 */
static noinline int raw_cfg_read(struct pci_dev *dev, u32 *v)
{
	unsigned long flags;
	int ret;

	raw_spin_lock_irqsave(&bench_lock, flags);
	ret = dev->bus->ops->read(dev->bus, dev->devfn, 0, 4, v);
	raw_spin_unlock_irqrestore(&bench_lock, flags);
	return ret;
}

BENCH_LOOP(readl_hooked, v = readl(t->addr))
BENCH_LOOP(readl_raw, v = raw_readl(t->addr))
BENCH_LOOP(inb_hooked, v = inb(t->port))
BENCH_LOOP(inb_raw, v = __inb(t->port))
BENCH_LOOP(cfg_hooked, pci_read_config_dword(t->pdev, 0, &v))
BENCH_LOOP(cfg_raw, raw_cfg_read(t->pdev, &v))
BENCH_LOOP(writel_hooked, writel(i & 0xff00, t->addr))

static u64 (*const loops[])(const struct target *, unsigned long) = {
	[OP_READL_HOOKED] = loop_readl_hooked,
	[OP_READL_RAW] = loop_readl_raw,
	[OP_INB_HOOKED] = loop_inb_hooked,
	[OP_INB_RAW] = loop_inb_raw,
	[OP_CFG_HOOKED] = loop_cfg_hooked,
	[OP_CFG_RAW] = loop_cfg_raw,
	[OP_WRITEL_HOOKED] = loop_writel_hooked,
};

static u64 run_op(enum op op, const struct target *t, unsigned long iters)
{
	return bench_time(loops[op], t, iters);
}

/*
 * Two variants measured alternately, repetition by repetition, each on
 * its own target.
 */
static void pair2(const char *name_a, enum op a, const struct target *ta,
		  const char *name_b, enum op b, const struct target *tb,
		  void (*between)(bool first))
{
	u64 va[IOHOOK_BENCH_REPS], vb[IOHOOK_BENCH_REPS];
	unsigned long iters = bench_iters(loops[a], ta);
	int r;

	for (r = 0; r < IOHOOK_BENCH_REPS; r++) {
		if (between)
			between(true);
		va[r] = run_op(a, ta, iters);
		if (between)
			between(false);
		vb[r] = run_op(b, tb, iters);
	}
	bench_report(name_a, va);
	bench_report(name_b, vb);
}

static void pair(const char *name_a, enum op a, const char *name_b, enum op b,
		 const struct target *t, void (*between)(bool first))
{
	pair2(name_a, a, t, name_b, b, t, between);
}

/* N overrides at other addresses of @space (none at the target). */
static int fill(enum iohook_space space, unsigned int n, unsigned int skip)
{
	struct iohook_spec *specs;
	unsigned int i, done = 0;
	int ret = 0;

	specs = kcalloc(BATCH, sizeof(*specs), GFP_KERNEL);
	if (!specs)
		return -ENOMEM;
	while (!ret && done < n) {
		unsigned int b = min_t(unsigned int, BATCH, n - done);

		for (i = 0; i < b; i++) {
			u64 k = done + i + skip;

			specs[i] = (struct iohook_spec) {
				.space = space, .len = 4, .mask = 0xffffffff,
				.attr = IOHOOK_RO, .flags = IOHOOK_F_NO_SYSFS,
				.addr = space == IOHOOK_SPACE_PCI ?
					PCI_BASE + ((k / 1024) << 12) + (k % 1024) * 4 :
					MEM_BASE + k * 16,
			};
		}
		ret = iohook_add_many(specs, b);
		done += b;
	}
	kfree(specs);
	return ret;
}

static void clear(void)
{
	iohook_disarm();
	iohook_remove_range(IOHOOK_SPACE_MEM, MEM_BASE, MEM_BASE + (1ULL << 32));
	iohook_remove_range(IOHOOK_SPACE_PCI, PCI_BASE, PCI_BASE + (1ULL << 32) - 1);
	iohook_remove_range(IOHOOK_SPACE_MEM, 0, MEM_BASE - 1);
}

static void arm_second(bool first)
{
	if (first)
		iohook_disarm();
	else
		iohook_arm();
}

static const unsigned int miss_n[] = { 1, 100, 10000, 100000 };

static void bench_off(struct target *kbuf, struct target *bar,
		      struct target *port, struct target *cfg)
{
	clear();
	pair("off.readl_kbuf.hooked", OP_READL_HOOKED,
	     "off.readl_kbuf.raw", OP_READL_RAW, kbuf, NULL);
	if (bar->addr)
		pair("off.readl_bar.hooked", OP_READL_HOOKED,
		     "off.readl_bar.raw", OP_READL_RAW, bar, NULL);
	pair("off.inb.hooked", OP_INB_HOOKED, "off.inb.raw", OP_INB_RAW,
	     port, NULL);
	if (cfg->pdev)
		pair("off.cfg_dword.hooked", OP_CFG_HOOKED,
		     "off.cfg_dword.raw", OP_CFG_RAW, cfg, NULL);
}

static void bench_miss(struct target *kbuf, struct target *bar,
		       struct target *cfg)
{
	char a[48], b[48];
	unsigned int i, have = 0;

	clear();
	for (i = 0; i < ARRAY_SIZE(miss_n); i++) {
		if (fill(IOHOOK_SPACE_PCI, miss_n[i] - have, have))
			return;
		have = miss_n[i];
		snprintf(a, sizeof(a), "miss.cfg_dword.disarmed.%u", have);
		snprintf(b, sizeof(b), "miss.cfg_dword.armed.%u", have);
		if (cfg->pdev)
			pair(a, OP_CFG_HOOKED, b, OP_CFG_HOOKED, cfg, arm_second);
	}
	clear();
	have = 0;
	for (i = 0; i < ARRAY_SIZE(miss_n); i++) {
		if (fill(IOHOOK_SPACE_MEM, miss_n[i] - have, have))
			return;
		have = miss_n[i];
		snprintf(a, sizeof(a), "miss.readl_kbuf.disarmed.%u", have);
		snprintf(b, sizeof(b), "miss.readl_kbuf.armed.%u", have);
		pair(a, OP_READL_HOOKED, b, OP_READL_HOOKED, kbuf, arm_second);
		if (!bar->addr)
			continue;
		snprintf(a, sizeof(a), "miss.readl_bar.disarmed.%u", have);
		snprintf(b, sizeof(b), "miss.readl_bar.armed.%u", have);
		pair(a, OP_READL_HOOKED, b, OP_READL_HOOKED, bar, arm_second);
	}
	clear();
}

static void bench_hit(struct target *kbuf)
{
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_MEM, .len = 4, .mask = 0xffffffff,
		.attr = IOHOOK_RO, .value = 0x5a5a5a5a,
		.flags = IOHOOK_F_NO_SYSFS,
		.addr = virt_to_phys((void __force *)kbuf->addr),
	};
	u64 v[IOHOOK_BENCH_REPS];
	unsigned int i, have = 1;
	char name[48];
	int r;

	clear();
	if (iohook_add(&spec))
		return;
	iohook_arm();
	for (i = 0; i < ARRAY_SIZE(miss_n); i++) {
		if (miss_n[i] > have && fill(IOHOOK_SPACE_MEM, miss_n[i] - have, have))
			break;
		have = miss_n[i];
		for (r = 0; r < IOHOOK_BENCH_REPS; r++)
			v[r] = run_op(OP_READL_HOOKED, kbuf, 20000);
		snprintf(name, sizeof(name), "hit.readl_kbuf.%u", have);
		bench_report(name, v);
	}
	clear();
}

/*
 * Conditional overrides and selectors, on two pages of RAM: page 0 holds
 * an unconditional override (+0), a conditional one (+0x40) and its
 * selector (+0x80); page 1 an unconditional override (+0) and a written
 * address next to it (+0x20) that no selector shares a page with.
 */
static struct iohook_spec cond_spec;

static void cond_toggle(bool first)
{
	if (first) {
		iohook_remove(IOHOOK_SPACE_MEM, cond_spec.addr,
			      &cond_spec.cond.value);
	} else {
		iohook_add(&cond_spec);
		/* Record the selector, so the condition holds. */
		writel(1, (void __iomem __force *)phys_to_virt(cond_spec.cond.sel));
	}
}

static void bench_cond(void)
{
	u8 *pages = (u8 *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, 1);
	struct target uncond = {}, cond = {}, sel = {}, plain = {};
	struct iohook_spec specs[2] = {
		{ .space = IOHOOK_SPACE_MEM, .len = 4, .mask = 0xffffffff,
		  .attr = IOHOOK_RO, .value = 0x5a, .flags = IOHOOK_F_NO_SYSFS },
		{ .space = IOHOOK_SPACE_MEM, .len = 4, .mask = 0xffffffff,
		  .attr = IOHOOK_RO, .value = 0x5a, .flags = IOHOOK_F_NO_SYSFS },
	};

	if (!pages)
		return;
	clear();
	uncond.addr = (void __iomem __force *)pages;
	cond.addr = (void __iomem __force *)(pages + 0x40);
	sel.addr = (void __iomem __force *)(pages + 0x80);
	plain.addr = (void __iomem __force *)(pages + PAGE_SIZE + 0x20);
	specs[0].addr = virt_to_phys(pages);
	specs[1].addr = virt_to_phys(pages + PAGE_SIZE);
	cond_spec = specs[0];
	cond_spec.addr = virt_to_phys(pages + 0x40);
	cond_spec.cond = (struct iohook_cond){
		.width = 4, .sel = virt_to_phys(pages + 0x80), .mask = 0xff,
		.value = 1,
	};
	if (iohook_add_many(specs, 2) || iohook_add(&cond_spec))
		goto out;
	iohook_arm();
	writel(1, sel.addr);
	pair2("cond.hit.readl.unconditional", OP_READL_HOOKED, &uncond,
	      "cond.hit.readl.conditional", OP_READL_HOOKED, &cond, NULL);
	/* A write to the selector records; the other walks the tree only. */
	pair2("cond.rec.writel.selector", OP_WRITEL_HOOKED, &sel,
	      "cond.rec.writel.override_page", OP_WRITEL_HOOKED, &plain, NULL);
	/* The same write, with and without a selector in the space. */
	pair("cond.rec.writel.no_selector", OP_WRITEL_HOOKED,
	     "cond.rec.writel.selector_elsewhere", OP_WRITEL_HOOKED, &plain,
	     cond_toggle);
out:
	clear();
	free_pages((unsigned long)pages, 1);
}

/* The two lookup structures over the same entries. */
struct entry {
	u64 start;
	u32 len;
	struct list_head node;
};

static void bench_lookup(void)
{
	static const unsigned int ns[] = { 10, 1000, 10000 };
	unsigned int i, k, lookups;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		u64 vm[IOHOOK_BENCH_REPS], vl[IOHOOK_BENCH_REPS];
		struct entry *e = kvcalloc(ns[i], sizeof(*e), GFP_KERNEL);
		struct maple_tree mt;
		LIST_HEAD(list);
		char name[48];
		int r;

		if (!e)
			return;
		mt_init(&mt);
		for (k = 0; k < ns[i]; k++) {
			e[k].start = MEM_BASE + k * 16;
			e[k].len = 4;
			list_add_tail(&e[k].node, &list);
			mtree_insert_range(&mt, e[k].start, e[k].start + 3, &e[k],
					   GFP_KERNEL);
		}
		lookups = ns[i] >= 10000 ? 2000 : 20000;
		for (r = 0; r < IOHOOK_BENCH_REPS; r++) {
			u32 seed = 12345;
			u64 t0, t1, t2, acc = 0;
			unsigned long j;

			t0 = ktime_get_ns();
			rcu_read_lock();
			for (j = 0; j < lookups; j++) {
				u64 a = MEM_BASE + (seed % ns[i]) * 16 + 2;

				seed = seed * 1103515245 + 12345;
				acc += (unsigned long)mtree_load(&mt, a);
			}
			rcu_read_unlock();
			t1 = ktime_get_ns();
			seed = 12345;
			for (j = 0; j < lookups; j++) {
				u64 a = MEM_BASE + (seed % ns[i]) * 16 + 2;
				struct entry *p;

				seed = seed * 1103515245 + 12345;
				list_for_each_entry(p, &list, node)
					if (a >= p->start && a < p->start + p->len) {
						acc += (unsigned long)p;
						break;
					}
			}
			t2 = ktime_get_ns();
			bench_sink = acc;
			vm[r] = div64_u64((t1 - t0) * 1000, lookups);
			vl[r] = div64_u64((t2 - t1) * 1000, lookups);
		}
		snprintf(name, sizeof(name), "lookup.maple.%u", ns[i]);
		bench_report(name, vm);
		snprintf(name, sizeof(name), "lookup.list.%u", ns[i]);
		bench_report(name, vl);
		mtree_destroy(&mt);
		kvfree(e);
	}
}

/*
 * The pass-through model (tools/pci/iohook/models/passthrough.bpf.c,
 * registered unbound by "iohook model load" before insmod) bound to the
 * buffer, alternating with a static override on the same bytes: what a
 * model adds to an access that reaches it, BPF trampoline and program
 * and the hardware read included, against an override that answers
 * from RAM.
 */
#define BENCH_MODEL	"passthrough"
static struct iohook_spec model_spec;

static void model_toggle(bool first)
{
	u64 a = model_spec.addr;

	if (first) {
		iohook_model_detach(BENCH_MODEL);
		iohook_add(&model_spec);
	} else {
		iohook_remove(IOHOOK_SPACE_MEM, a, NULL);
		iohook_model_attach(BENCH_MODEL, IOHOOK_SPACE_MEM, a, a + 3);
	}
}

static void bench_model(struct target *kbuf)
{
	model_spec = (struct iohook_spec) {
		.space = IOHOOK_SPACE_MEM, .len = 4, .mask = 0xffffffff,
		.attr = IOHOOK_RO, .value = 0x5a5a5a5a,
		.flags = IOHOOK_F_NO_SYSFS,
		.addr = virt_to_phys((void __force *)kbuf->addr),
	};
	clear();
	if (iohook_model_attach(BENCH_MODEL, IOHOOK_SPACE_MEM, model_spec.addr,
				model_spec.addr + 3)) {
		pr_info("iohook_bench: no %s model registered: model.* not measured\n",
			BENCH_MODEL);
		return;
	}
	iohook_arm();
	pair("model.readl_kbuf.static_hit", OP_READL_HOOKED,
	     "model.readl_kbuf.passthrough", OP_READL_HOOKED, kbuf, model_toggle);
	iohook_model_detach(BENCH_MODEL);
	clear();
}

static int __init iohook_bench_init(void)
{
	struct target kbuf = {}, bar = {}, port = { .port = 0x80 }, cfg = {};
	struct pci_dev *nic, *rp = NULL;
	u32 *buf = kzalloc(64, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	kbuf.addr = (void __iomem __force *)buf;
	nic = pci_get_device(PCI_VENDOR_ID_INTEL, 0x10d3, NULL);
	if (nic)
		bar.addr = pci_iomap(nic, 0, 0);
	if (bar.addr)
		bar.addr += 8;		/* STATUS */
	while ((rp = pci_get_class(PCI_CLASS_BRIDGE_PCI << 8, rp)))
		if (pci_is_pcie(rp) && pci_pcie_type(rp) == PCI_EXP_TYPE_ROOT_PORT)
			break;
	cfg.pdev = rp;

	pr_info("iohook_bench: start\n");
	bench_off(&kbuf, &bar, &port, &cfg);
	bench_miss(&kbuf, &bar, &cfg);
	bench_hit(&kbuf);
	bench_lookup();
	bench_cond();
	bench_model(&kbuf);
	pr_info("iohook_bench: done\n");

	clear();
	if (bar.addr)
		pci_iounmap(nic, bar.addr - 8);
	pci_dev_put(nic);
	pci_dev_put(rp);
	kfree(buf);
	return 0;
}

static void __exit iohook_bench_exit(void)
{
}

module_init(iohook_bench_init);
module_exit(iohook_bench_exit);
MODULE_DESCRIPTION("iohook benchmarks (make bench)");
MODULE_LICENSE("GPL");

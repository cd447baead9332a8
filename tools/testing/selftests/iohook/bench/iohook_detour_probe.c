// SPDX-License-Identifier: GPL-2.0
/*
 * iohook_detour_probe - "make bench-probe": what an armed MMIO miss costs
 * today, against the hand-written per-site detours of detour_probe.h,
 * each beside the raw instruction it stands for.
 *
 * A module of its own, not a mode of iohook_bench.ko: under TCG a figure
 * depends on which guest page each loop and each stub lands in, so
 * adding code to iohook_bench.ko would move its loops and change the
 * figures "make bench" compares with earlier runs.
 *
 * Results are "iohook_detour_probe: RESULT name median min max" lines
 * (bench_harness.h), each variant's and its raw loop's (name.raw),
 * measured in alternation; scripts/bench-probe prints them as a table.
 */
#include <linux/hash.h>
#include <linux/io.h>
#include <linux/iohook.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "bench_harness.h"
#include "detour_probe.h"

#define MEM_BASE	0x000a000000000000ULL	/* far from RAM and BARs */

/* detour_probe.h's filter, always empty, and hash_64()'s multiplier. */
u32 probe_filter[1 << PROBE_FILTER_BITS];
const u64 probe_golden = GOLDEN_RATIO_64;

static __always_inline void raw_writel(u32 val, volatile void __iomem *addr)
{
	asm volatile("movl %0,%1" : : "r" (val),
		     "m" (*(volatile u32 __force *)addr) : "memory");
}

struct target {
	void __iomem *addr;
};

/* The loops near the detours (in their page) or far (in another). */
#define NEAR	__section(PROBE_NEAR)
#define FAR	__section(PROBE_FAR)

/* Each section page-aligned, whatever comes first in it. */
asm(".pushsection " PROBE_NEAR ", \"ax\"\n.balign 4096\n.popsection\n"
	".pushsection " PROBE_FAR ", \"ax\"\n.balign 4096\n.popsection\n");

BENCH_LOOP(raw, v = raw_readl(t->addr))
BENCH_LOOP(hooked, v = readl(t->addr))
BENCH_LOOP_IN(thunk, FAR, v = thunk_readl(t->addr))
BENCH_LOOP_IN(push1, NEAR, v = push1_readl(t->addr))
BENCH_LOOP_IN(carry, NEAR, carry_readl(t->addr, &v))
BENCH_LOOP_IN(branch, NEAR, branch_readl(t->addr, &v))
BENCH_LOOP_IN(branch_far, FAR, branch_readl(t->addr, &v))
BENCH_LOOP_IN(nofix, NEAR, nofix_readl(t->addr, &v))
BENCH_LOOP_IN(nofix_far, FAR, nofix_readl(t->addr, &v))
BENCH_LOOP(raw_w, raw_writel(i & 0xff00, t->addr))
BENCH_LOOP(hooked_w, writel(i & 0xff00, t->addr))
BENCH_LOOP_IN(branch_w, NEAR, branch_writel(i & 0xff00, t->addr))
BENCH_LOOP_IN(branch_w_far, FAR, branch_writel(i & 0xff00, t->addr))

static const struct {
	const char *name;
	bench_loop_fn loop, raw;
	bool armed;		/* iohook armed while it runs: today's path */
	bool ram_only;		/* a write, not for the NIC's STATUS */
} probes[] = {
	{ "readl.hooked_armed_miss", loop_hooked, loop_raw, true },
	{ "readl.call_ret_thunk.far", loop_thunk, loop_raw },
	{ "readl.detour_push1_fix_sbb.near", loop_push1, loop_raw },
	{ "readl.detour_push0_fix_adc.near", loop_carry, loop_raw },
	{ "readl.detour_push0_fix_branch.near", loop_branch, loop_raw },
	{ "readl.detour_push0_fix_branch.far", loop_branch_far, loop_raw },
	{ "readl.detour_push0_no_fix.near", loop_nofix, loop_raw },
	{ "readl.detour_push0_no_fix.far", loop_nofix_far, loop_raw },
	{ "writel.hooked_armed_miss", loop_hooked_w, loop_raw_w, true, true },
	{ "writel.detour_push1_fix_branch.near", loop_branch_w, loop_raw_w,
	  false, true },
	{ "writel.detour_push1_fix_branch.far", loop_branch_w_far, loop_raw_w,
	  false, true },
};

/* One variant and its raw loop, alternating, about 10 ms each time. */
static void probe_pair(const char *target, unsigned int i, void __iomem *addr)
{
	struct target t = { .addr = addr };
	unsigned long iters = bench_iters(probes[i].raw, &t);
	u64 va[IOHOOK_BENCH_REPS], vr[IOHOOK_BENCH_REPS];
	char name[64];
	int r;

	for (r = 0; r < IOHOOK_BENCH_REPS; r++) {
		if (probes[i].armed)
			iohook_arm();
		va[r] = bench_time(probes[i].loop, &t, iters);
		if (probes[i].armed)
			iohook_disarm();
		vr[r] = bench_time(probes[i].raw, &t, iters);
	}
	snprintf(name, sizeof(name), "%s.%s", target, probes[i].name);
	bench_report(name, va);
	snprintf(name, sizeof(name), "%s.%s.raw", target, probes[i].name);
	bench_report(name, vr);
}

static int __init probe_init(void)
{
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_MEM, .len = 4, .mask = 0xffffffff,
		.attr = IOHOOK_RO, .flags = IOHOOK_F_NO_SYSFS, .addr = MEM_BASE,
	};
	void __iomem *bar = NULL;
	struct pci_dev *nic;
	unsigned int i;
	u32 *buf;
	int ret;

	buf = kzalloc(64, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	/* One override elsewhere, so that "armed" means a miss. */
	ret = iohook_add(&spec);
	if (ret)
		goto out;
	nic = pci_get_device(PCI_VENDOR_ID_INTEL, 0x10d3, NULL);
	if (nic)
		bar = pci_iomap(nic, 0, 0);
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		probe_pair("ram", i, (void __iomem __force *)buf);
		/* STATUS, read-only: the register "make bench" reads */
		if (bar && !probes[i].ram_only)
			probe_pair("bar", i, bar + 8);
	}
	pr_info("iohook_detour_probe: done\n");
	if (bar)
		pci_iounmap(nic, bar);
	pci_dev_put(nic);
	iohook_disarm();
	iohook_remove_range(IOHOOK_SPACE_MEM, MEM_BASE, MEM_BASE + 3);
out:
	kfree(buf);
	return ret;
}

static void __exit probe_exit(void)
{
}

module_init(probe_init);
module_exit(probe_exit);
MODULE_DESCRIPTION("iohook: the cost of per-site MMIO detours (make bench-probe)");
MODULE_LICENSE("GPL");

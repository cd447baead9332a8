// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests through the real accessors: pci_{read,write}_config_word()
 * on a PCIe root port, readl() on the e1000e's BAR0 through an
 * ioremapped address, readl() on a kernel buffer, inb()/outb() on a
 * port. Devices are found at run time; a case skips when its device is
 * absent. One case arms and disarms while another CPU reads in a loop
 * from two accessor sites far apart in the kernel image; one enters the
 * idle loop's RCU state; one writes a real write-1-to-clear register.
 */
#include <kunit/test.h>
#include <linux/context_tracking.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/kthread.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "kunit_ram.h"
#include "mmio.h"

static void access_exit(struct kunit *test)
{
	iohook_kunit_clear();
}

static struct pci_dev *find_root_port(void)
{
	struct pci_dev *dev = NULL;

	while ((dev = pci_get_class(PCI_CLASS_BRIDGE_PCI << 8, dev)))
		if (pci_is_pcie(dev) &&
		    pci_pcie_type(dev) == PCI_EXP_TYPE_ROOT_PORT)
			return dev;
	return NULL;
}

static void iohook_test_pci_config_word(struct kunit *test)
{
	struct pci_dev *rp = find_root_port();
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_PCI, .len = 1, .value = 0x5a,
		.mask = 0xff, .attr = IOHOOK_RW,
	};
	u16 real, val;

	if (!rp)
		kunit_skip(test, "no PCIe root port");
	/* Interrupt Line (RW scratch for the OS) and Interrupt Pin (RO). */
	pci_read_config_word(rp, PCI_INTERRUPT_LINE, &real);
	spec.addr = iohook_pci_addr(pci_domain_nr(rp->bus), rp->bus->number,
				    rp->devfn, PCI_INTERRUPT_LINE);
	KUNIT_ASSERT_EQ(test, iohook_add(&spec), 0);

	/* Staged, not armed: the hardware view. */
	pci_read_config_word(rp, PCI_INTERRUPT_LINE, &val);
	KUNIT_EXPECT_EQ(test, val, real);

	iohook_arm();
	pci_read_config_word(rp, PCI_INTERRUPT_LINE, &val);
	KUNIT_EXPECT_EQ(test, val, (u16)((real & 0xff00) | 0x5a));

	/* rw: the override takes the low byte. The partly overridden word
	 * reaches the hardware with 0 in the overridden byte, never a
	 * value read back from it.
	 */
	pci_write_config_word(rp, PCI_INTERRUPT_LINE, (real & 0xff00) | 0xa5);
	pci_read_config_word(rp, PCI_INTERRUPT_LINE, &val);
	KUNIT_EXPECT_EQ(test, val, (u16)((real & 0xff00) | 0xa5));

	iohook_disarm();
	pci_read_config_word(rp, PCI_INTERRUPT_LINE, &val);
	KUNIT_EXPECT_EQ(test, val, (u16)(real & 0xff00));

	/* Re-armed: the emulated view with its current value. */
	iohook_arm();
	pci_read_config_byte(rp, PCI_INTERRUPT_LINE, (u8 *)&val);
	KUNIT_EXPECT_EQ(test, val & 0xff, 0xa5);

	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_PCI, spec.addr, NULL), 0);
	pci_write_config_word(rp, PCI_INTERRUPT_LINE, real);
	pci_read_config_word(rp, PCI_INTERRUPT_LINE, &val);
	KUNIT_EXPECT_EQ(test, val, real);
	pci_dev_put(rp);
}

static void iohook_test_e1000e_bar0(struct kunit *test)
{
	struct pci_dev *pdev = pci_get_device(PCI_VENDOR_ID_INTEL, 0x10d3, NULL);
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_MEM, .len = 4, .mask = BIT(31),
		.attr = IOHOOK_RO,
	};
	void __iomem *bar;
	u64 phys;
	u32 real;

	if (!pdev)
		kunit_skip(test, "no e1000e (8086:10d3)");
	bar = pci_iomap(pdev, 0, 0);
	KUNIT_ASSERT_TRUE(test, bar);

	/* ioremap gives a vmalloc-area address: the page walk must find
	 * the BAR, which virt_to_phys() would not.
	 */
	KUNIT_ASSERT_TRUE(test, iohook_virt_to_phys(bar + 8, 4, &phys));
	KUNIT_EXPECT_EQ(test, phys, (u64)pci_resource_start(pdev, 0) + 8);

	/* STATUS at 0x8: flip bit 31 against what the hardware says. */
	real = readl(bar + 8);
	spec.addr = phys;
	spec.value = ~real & BIT(31);
	KUNIT_ASSERT_EQ(test, iohook_add(&spec), 0);
	iohook_arm();
	KUNIT_EXPECT_EQ(test, readl(bar + 8) & BIT(31), ~real & BIT(31));
	KUNIT_EXPECT_EQ(test, ioread32(bar + 8) & BIT(31), ~real & BIT(31));
	KUNIT_EXPECT_EQ(test, readb(bar + 11) & BIT(7), (~real >> 24) & BIT(7));
	iohook_disarm();
	KUNIT_EXPECT_EQ(test, readl(bar + 8) & BIT(31), real & BIT(31));
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, phys, NULL), 0);
	pci_iounmap(pdev, bar);
	pci_dev_put(pdev);
}

static void iohook_test_kernel_buffer(struct kunit *test)
{
	u32 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_MEM, .len = 2, .value = 0xbeef,
		.mask = 0xffff, .attr = IOHOOK_RW,
	};

	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf[0] = 0x11223344;
	spec.addr = virt_to_phys(buf) + 2;
	KUNIT_ASSERT_EQ(test, iohook_add(&spec), 0);
	iohook_arm();
	KUNIT_EXPECT_EQ(test, readl((void __iomem *)buf), 0xbeef3344U);
	/* A fully overridden write does not reach memory. */
	writew(0x5555, (void __iomem *)buf + 2);
	KUNIT_EXPECT_EQ(test, readl((void __iomem *)buf), 0x55553344U);
	KUNIT_EXPECT_EQ(test, buf[0], 0x11223344U);
	iohook_disarm();
	KUNIT_EXPECT_EQ(test, readl((void __iomem *)buf), 0x11223344U);
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, spec.addr, NULL), 0);
}

static void iohook_test_port(struct kunit *test)
{
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_IO, .addr = 0x80, .len = 1,
		.value = 0x02, .mask = 0x0f, .attr = IOHOOK_RO,
	};
	u8 hw;

	/* Port 0x80 is the POST port: harmless to read and write. */
	hw = inb(0x80);
	KUNIT_ASSERT_EQ(test, iohook_add(&spec), 0);
	iohook_arm();
	KUNIT_EXPECT_EQ(test, inb(0x80), (u8)((hw & 0xf0) | 0x02));
	outb(0x0f, 0x80);	/* ro: the override ignores it */
	KUNIT_EXPECT_EQ(test, inb(0x80) & 0x0f, 0x02);
	iohook_disarm();
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_IO, 0x80, NULL), 0);
}

/*
 * Each width has its own entry point (iohook_readb() to iohook_outl()):
 * every one must do its own width, hit and miss. The override covers
 * the first 8 bytes of a buffer; the next 8 and a second page are
 * misses, which must reach memory at their width and no other.
 */
static void iohook_test_mem_every_width(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u8 *far = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_MEM, .len = 8,
		.value = 0x1122334455667788ULL, .mask = ~0ULL,
		.attr = IOHOOK_RW,
	};
	void __iomem *ov, *miss[2];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, far);
	memset(buf, 0xee, 16);
	ov = (void __iomem *)buf;
	miss[0] = (void __iomem *)buf + 8;
	miss[1] = (void __iomem *)far;
	spec.addr = virt_to_phys(buf);
	KUNIT_ASSERT_EQ(test, iohook_add(&spec), 0);
	iohook_arm();

	KUNIT_EXPECT_EQ(test, readb(ov + 1), 0x77);
	KUNIT_EXPECT_EQ(test, readw(ov + 2), 0x5566);
	KUNIT_EXPECT_EQ(test, readl(ov + 4), 0x11223344U);
	KUNIT_EXPECT_EQ(test, readq(ov), 0x1122334455667788ULL);
	/* rw: each write lands in the override, none in memory. */
	writeb(0xa1, ov);
	writew(0xb2b3, ov + 2);
	writel(0xc4c5c6c7, ov + 4);
	KUNIT_EXPECT_EQ(test, readq(ov), 0xc4c5c6c7b2b377a1ULL);
	writeq(0x0102030405060708ULL, ov);
	KUNIT_EXPECT_EQ(test, readq(ov), 0x0102030405060708ULL);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], 0xee, "byte %d", i);

	for (i = 0; i < ARRAY_SIZE(miss); i++) {
		writeq(0x8877665544332211ULL, miss[i]);
		writeb(0xa1, miss[i]);
		writew(0xb2b3, miss[i] + 2);
		writel(0xc4c5c6c7, miss[i] + 4);
		KUNIT_EXPECT_EQ_MSG(test, readq(miss[i]),
				    0xc4c5c6c7b2b322a1ULL, "miss %d", i);
		KUNIT_EXPECT_EQ_MSG(test, readl(miss[i] + 4), 0xc4c5c6c7U,
				    "miss %d", i);
		KUNIT_EXPECT_EQ_MSG(test, readw(miss[i] + 2), 0xb2b3,
				    "miss %d", i);
		KUNIT_EXPECT_EQ_MSG(test, readb(miss[i] + 1), 0x22,
				    "miss %d", i);
	}
	iohook_disarm();
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, spec.addr, NULL), 0);
}

/*
 * inb() to outl() through one override that covers ports 0x80-0x83
 * whole: no access reaches the hardware (0x81-0x83 are DMA page
 * registers), so every width sees only the override.
 */
static void iohook_test_port_every_width(struct kunit *test)
{
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_IO, .addr = 0x80, .len = 4,
		.value = 0x44332211, .mask = 0xffffffff, .attr = IOHOOK_RW,
	};

	KUNIT_ASSERT_EQ(test, iohook_add(&spec), 0);
	iohook_arm();
	KUNIT_EXPECT_EQ(test, inb(0x81), 0x22);
	KUNIT_EXPECT_EQ(test, inw(0x82), 0x4433);
	KUNIT_EXPECT_EQ(test, inl(0x80), 0x44332211U);
	outb(0xa1, 0x80);
	outw(0xb2b3, 0x82);
	KUNIT_EXPECT_EQ(test, inl(0x80), 0xb2b322a1U);
	outl(0xc4c5c6c7, 0x80);
	KUNIT_EXPECT_EQ(test, inl(0x80), 0xc4c5c6c7U);
	KUNIT_EXPECT_EQ(test, inw(0x80), 0xc6c7);
	iohook_disarm();
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_IO, 0x80, NULL), 0);
}

struct race_reader {
	u32 *buf;
	u32 real;
	u32 emulated;
	unsigned long reads;
	unsigned long bad;
	u32 bad_value;
};

/*
 * The reader runs the slow path's core (the armed flag, the tree walk,
 * the two overrides' contributions) rather than readl(): a CPU spinning
 * on a static-branch site while text_poke_bp() patches it takes a stray
 * int3 under QEMU TCG on 6.12 (see iohook_test_arm_sites), which crashed
 * this test in one boot of about fifteen. The sites themselves are
 * checked by iohook_test_arm_sites, between flips.
 */
static int race_reader_fn(void *data)
{
	struct race_reader *r = data;

	while (!kthread_should_stop()) {
		u32 v = iohook_readl((void __iomem __force *)r->buf);

		if (v != r->real && v != r->emulated) {
			r->bad++;
			r->bad_value = v;
		}
		r->reads++;
		cond_resched();
	}
	return 0;
}

static void iohook_test_arm_race(struct kunit *test)
{
	u32 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct race_reader r = { .buf = buf, .real = 0x55555555,
				 .emulated = 0xaaaaaaaa };
	/* Two overrides, so a read spans two lookups. */
	struct iohook_spec specs[2] = {
		{ .space = IOHOOK_SPACE_MEM, .len = 2, .value = 0xaaaa,
		  .mask = 0xffff, .attr = IOHOOK_RO },
		{ .space = IOHOOK_SPACE_MEM, .len = 2, .value = 0xaaaa,
		  .mask = 0xffff, .attr = IOHOOK_RO },
	};
	struct task_struct *t;
	int i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf[0] = r.real;
	specs[0].addr = virt_to_phys(buf);
	specs[1].addr = virt_to_phys(buf) + 2;
	KUNIT_ASSERT_EQ(test, iohook_add_many(specs, 2), 0);

	t = kthread_run(race_reader_fn, &r, "iohook-race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (i = 0; i < 100; i++) {
		iohook_arm();
		usleep_range(50, 100);
		iohook_disarm();
		usleep_range(50, 100);
	}
	kthread_stop(t);
	KUNIT_EXPECT_GT(test, r.reads, 0UL);
	KUNIT_EXPECT_EQ_MSG(test, r.bad, 0UL, "mixed value %#x", r.bad_value);
	KUNIT_EXPECT_EQ(test, iohook_remove_range(IOHOOK_SPACE_MEM,
						  specs[0].addr,
						  specs[1].addr), 2);
}

/*
 * Two readl() sites far apart: one here, one in lib/iomap.c (ioread32()).
 * The static key's sites are patched in batches sorted by address, so
 * these two flip in different batches; the armed flag must switch both
 * at once, and when arm or disarm returns both must agree.
 *
 * The checks run on this CPU between flips, not from a reader spinning
 * on the sites during them: under QEMU TCG, a CPU executing a site in a
 * loop while text_poke_bp() patched it took an int3 after the patching
 * had finished ("Oops: int3" at the site +1; four boots of six on 6.12,
 * with the reader spinning or sleeping 20-40 us between reads, and once
 * in the earlier single-site race test). The
 * kernel's int3 protocol relies on no CPU executing the old int3 after
 * the final sync, which real CPUs honour, so this is the emulator's
 * cross-modifying-code handling. iohook_test_arm_race races a reader
 * against the flips through the slow path's core instead.
 */
static noinline u32 site_near(u32 *buf)
{
	u32 v = READ_ONCE(buf[2]);	/* the site is not the first insn */

	return readl((void __iomem *)buf) + v;
}

static void iohook_test_arm_sites(struct kunit *test)
{
	u32 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct iohook_spec ro = {
		.space = IOHOOK_SPACE_MEM, .len = 4, .value = 0x22222222,
		.mask = 0xffffffff, .attr = IOHOOK_RO,
	};
	struct iohook_spec rc = {
		.space = IOHOOK_SPACE_MEM, .len = 4, .value = 0,
		.mask = 0xffffffff, .attr = IOHOOK_RC,
	};
	unsigned long mixed = 0, late = 0;
	struct iohook_spec out;
	u32 a, b;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf[0] = 0x11111111;
	ro.addr = virt_to_phys(buf);
	rc.addr = virt_to_phys(buf) + 4;
	KUNIT_ASSERT_EQ(test, iohook_add(&ro), 0);
	KUNIT_ASSERT_EQ(test, iohook_add(&rc), 0);
	for (i = 0; i < 20; i++) {
		iohook_arm();
		a = site_near(buf);
		b = ioread32((void __iomem *)buf);
		if (a != 0x22222222 || b != 0x22222222)
			mixed++;
		iohook_disarm();
		a = site_near(buf);
		b = ioread32((void __iomem *)buf);
		if (a != 0x11111111 || b != 0x11111111)
			mixed++;
		/*
		 * Disarmed: reads of the rc register reach the hardware and
		 * leave the override's value alone.
		 */
		iohook_set_value(IOHOOK_SPACE_MEM, rc.addr, NULL, 0xffffffff);
		readl((void __iomem *)buf + 4);
		ioread32((void __iomem *)buf + 4);
		if (iohook_lookup(IOHOOK_SPACE_MEM, rc.addr, NULL, &out) ||
		    out.value != 0xffffffff)
			late++;
	}
	KUNIT_EXPECT_EQ(test, mixed, 0UL);
	KUNIT_EXPECT_EQ(test, late, 0UL);
}

/*
 * The idle loop reads ports and MMIO after ct_idle_enter(), where RCU
 * does not watch the CPU: those accesses must get the hardware view and
 * never touch the store (a debug kernel reports any RCU use there).
 */
static void iohook_test_rcu_idle(struct kunit *test)
{
	u32 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct iohook_spec port = {
		.space = IOHOOK_SPACE_IO, .addr = 0x80, .len = 1,
		.mask = 0xff, .attr = IOHOOK_RO,
	};
	struct iohook_spec mem = {
		.space = IOHOOK_SPACE_MEM, .len = 4, .value = 0x5a5a5a5a,
		.mask = 0xffffffff, .attr = IOHOOK_RC,
	};
	u8 hw, idle_port, live_port;
	unsigned long flags;
	u32 idle_mem;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf[0] = 0x12345678;
	hw = inb(0x80);
	port.value = (u8)~hw;
	mem.addr = virt_to_phys(buf);
	KUNIT_ASSERT_EQ(test, iohook_add(&port), 0);
	KUNIT_ASSERT_EQ(test, iohook_add(&mem), 0);
	iohook_arm();
	live_port = inb(0x80);

	local_irq_save(flags);
	ct_idle_enter();
	idle_port = inb(0x80);
	idle_mem = readl((void __iomem *)buf);
	ct_idle_exit();
	local_irq_restore(flags);

	KUNIT_EXPECT_EQ(test, live_port, (u8)~hw);
	KUNIT_EXPECT_EQ(test, idle_port, hw);
	KUNIT_EXPECT_EQ(test, idle_mem, 0x12345678U);
	/* The rc override was not read, so not cleared, by the idle CPU. */
	KUNIT_EXPECT_EQ(test, readl((void __iomem *)buf), 0x5a5a5a5aU);
}

/*
 * A real write-1-to-clear register: the e1000e's ICR (QEMU models ICR
 * as write-1-to-clear, and ICS sets its bits). An override hides a
 * pending link-status-change; the driver then acknowledges another
 * cause. The hidden event must survive: the old read-modify-write sent
 * the pending bit back as 1, which cleared it.
 */
#define E1000_ICR	0xc0
#define E1000_ICS	0xc8
#define E1000_IMS	0xd0
#define E1000_ICR_TXDW	BIT(0)
#define E1000_ICR_LSC	BIT(2)

static void iohook_test_rw1c_partial_write(struct kunit *test)
{
	struct pci_dev *pdev = pci_get_device(PCI_VENDOR_ID_INTEL, 0x10d3, NULL);
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_MEM, .len = 4, .value = 0,
		.mask = E1000_ICR_LSC, .attr = IOHOOK_RO,
	};
	void __iomem *bar;
	u32 icr;

	if (!pdev)
		kunit_skip(test, "no e1000e (8086:10d3)");
	bar = pci_iomap(pdev, 0, 0);
	KUNIT_ASSERT_TRUE(test, bar);
	if (readl(bar + E1000_IMS)) {
		pci_iounmap(pdev, bar);
		pci_dev_put(pdev);
		kunit_skip(test, "e1000e interrupts enabled: its driver owns ICR");
	}
	readl(bar + E1000_ICR);			/* clears ICR (IMS is 0) */
	writel(E1000_ICR_LSC, bar + E1000_ICS);	/* a real pending event */
	KUNIT_ASSERT_TRUE(test, iohook_virt_to_phys(bar + E1000_ICR, 4,
						    &spec.addr));
	KUNIT_ASSERT_EQ(test, iohook_add(&spec), 0);
	iohook_arm();
	writel(E1000_ICR_TXDW, bar + E1000_ICR);	/* ack another cause */
	iohook_disarm();
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, spec.addr, NULL), 0);
	icr = readl(bar + E1000_ICR);
	KUNIT_EXPECT_TRUE_MSG(test, icr & E1000_ICR_LSC,
			      "hidden LSC was cleared: ICR %#x", icr);
	pci_iounmap(pdev, bar);
	pci_dev_put(pdev);
}

/*
 * Offsets a config space does not have (0x1000 and above, negative) go
 * to the hardware exactly as without iohook: they never alias into the
 * function's 4 KiB.
 */
static void iohook_test_pci_out_of_range(struct kunit *test)
{
	struct pci_dev *rp = find_root_port();
	struct iohook_spec specs[2] = {
		{ .space = IOHOOK_SPACE_PCI, .len = 4, .value = 0x5a5a5a5a,
		  .mask = 0xffffffff, .attr = IOHOOK_RO },
		{ .space = IOHOOK_SPACE_PCI, .len = 4, .value = 0xa5a5a5a5,
		  .mask = 0xffffffff, .attr = IOHOOK_RO },
	};
	static const int pos[] = { 0x1000, 0x1ffc, -4 };
	u32 raw[ARRAY_SIZE(pos)], val;
	int rraw[ARRAY_SIZE(pos)], r, i;

	if (!rp)
		kunit_skip(test, "no PCIe root port");
	for (i = 0; i < ARRAY_SIZE(pos); i++)
		rraw[i] = pci_bus_read_config_dword(rp->bus, rp->devfn, pos[i],
						    &raw[i]);
	specs[0].addr = iohook_pci_addr(pci_domain_nr(rp->bus),
					rp->bus->number, rp->devfn, 0);
	specs[1].addr = specs[0].addr + 0xffc;
	KUNIT_ASSERT_EQ(test, iohook_add_many(specs, 2), 0);
	iohook_arm();
	for (i = 0; i < ARRAY_SIZE(pos); i++) {
		r = pci_bus_read_config_dword(rp->bus, rp->devfn, pos[i], &val);
		KUNIT_EXPECT_EQ_MSG(test, r, rraw[i], "pos %d", pos[i]);
		KUNIT_EXPECT_EQ_MSG(test, val, raw[i], "pos %d", pos[i]);
	}
	/* In range, the same overrides do apply. */
	pci_read_config_dword(rp, 0, &val);
	KUNIT_EXPECT_EQ(test, val, 0x5a5a5a5aU);
	iohook_disarm();
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_PCI, specs[0].addr, NULL), 0);
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_PCI, specs[1].addr, NULL), 0);
	pci_dev_put(rp);
}

/*
 * The config access path whole, through iohook_pci_read() and
 * iohook_pci_write() (what pci_bus_read_config_*() call while the key is
 * on) onto a bus whose config space is RAM: the overridden bits, what
 * the hardware is sent, and an access the hardware fails, which changes
 * nothing (the rc bits stay set for the next read).
 */
static void iohook_test_config_ram(struct kunit *test)
{
	struct iohook_ram_bus *rb = iohook_ram_bus_new(test);
	u64 base = iohook_pci_addr(IOHOOK_RAM_DOMAIN, 0, 1, 0);
	struct iohook_spec specs[2] = {
		{ .space = IOHOOK_SPACE_PCI, .addr = base + 0x42, .len = 2,
		  .value = 0x1234, .mask = 0xffff, .attr = IOHOOK_RW },
		{ .space = IOHOOK_SPACE_PCI, .addr = base + 0x48, .len = 1,
		  .value = 0x81, .mask = 0x81, .attr = IOHOOK_RC },
	};
	struct iohook_spec out;
	u32 v, hw;

	memcpy(&rb->cfg[1][0x40], "\x11\x22\x33\x44", 4);
	KUNIT_ASSERT_EQ(test, iohook_add_many(specs, 2), 0);
	iohook_arm();
	KUNIT_EXPECT_EQ(test, iohook_pci_read(&rb->bus, 1, 0x40, 4, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x12342211U);
	/* Another function of the same bus is not overridden. */
	KUNIT_EXPECT_EQ(test, iohook_pci_read(&rb->bus, 0, 0x40, 4, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0xeeeeeeeeU);
	/* rw takes bytes 2-3; the hardware gets 0 there, the rest as written. */
	KUNIT_EXPECT_EQ(test, iohook_pci_write(&rb->bus, 1, 0x40, 4, 0xaabbccdd), 0);
	memcpy(&hw, &rb->cfg[1][0x40], sizeof(hw));
	KUNIT_EXPECT_EQ(test, hw, 0x0000ccddU);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_PCI, specs[0].addr, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.value, 0xaabbULL);
	/* A read the hardware fails leaves the rc bits set. */
	rb->fail = true;
	KUNIT_EXPECT_NE(test, iohook_pci_read(&rb->bus, 1, 0x48, 1, &v), 0);
	rb->fail = false;
	KUNIT_EXPECT_EQ(test, iohook_pci_read(&rb->bus, 1, 0x48, 1, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0xefU);	/* 0xee with bits 0 and 7 overridden */
	KUNIT_EXPECT_EQ(test, iohook_pci_read(&rb->bus, 1, 0x48, 1, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x6eU);	/* now cleared */
}

/*
 * A config access the hardware fails (a removed device) did not happen:
 * it uses up no count=N policy, skips no skip=N access, and moves no
 * selector, so the next access that succeeds is the one they judge.
 */
static void iohook_test_config_failed_changes_nothing(struct kunit *test)
{
	struct iohook_ram_bus *rb = iohook_ram_bus_new(test);
	u64 base = iohook_pci_addr(IOHOOK_RAM_DOMAIN, 0, 1, 0);
	struct iohook_spec specs[3] = {
		/* Bit 0 only, so that every read and write reaches the bus. */
		{ .space = IOHOOK_SPACE_PCI, .addr = base + 0x48, .len = 1,
		  .value = 0x01, .mask = 0x01, .attr = IOHOOK_RO,
		  .policy = { .count = 1 } },
		{ .space = IOHOOK_SPACE_PCI, .addr = base + 0x4c, .len = 1,
		  .value = 0x01, .mask = 0x01, .attr = IOHOOK_RW,
		  .policy = { .skip = 1 } },
		/* Applies while the selector at 0x50 was last written 5. */
		{ .space = IOHOOK_SPACE_PCI, .addr = base + 0x54, .len = 1,
		  .value = 0x01, .mask = 0x01, .attr = IOHOOK_RO,
		  .cond = { .width = 4, .sel = base + 0x50, .mask = 0xff,
			    .value = 5 } },
	};
	struct iohook_spec out;
	u32 v;

	memset(&rb->cfg[1][0x40], 0, 0x20);
	KUNIT_ASSERT_EQ(test, iohook_add_many(specs, 3), 0);
	iohook_arm();
	KUNIT_ASSERT_EQ(test, iohook_pci_write(&rb->bus, 1, 0x50, 4, 5), 0);

	rb->fail = true;
	KUNIT_EXPECT_NE(test, iohook_pci_read(&rb->bus, 1, 0x48, 1, &v), 0);
	KUNIT_EXPECT_NE(test, iohook_pci_write(&rb->bus, 1, 0x4c, 1, 0), 0);
	KUNIT_EXPECT_NE(test, iohook_pci_write(&rb->bus, 1, 0x50, 4, 7), 0);
	rb->fail = false;

	/* count=1: not used up by the failed read, so this read applies. */
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_PCI, specs[0].addr, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.seen, 0ULL);
	KUNIT_EXPECT_EQ(test, out.applied, 0ULL);
	KUNIT_EXPECT_EQ(test, iohook_pci_read(&rb->bus, 1, 0x48, 1, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x01U);
	KUNIT_EXPECT_EQ(test, iohook_pci_read(&rb->bus, 1, 0x48, 1, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x00U);
	/* skip=1: the failed write was not the skipped one; this is. */
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_PCI, specs[1].addr, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.seen, 0ULL);
	KUNIT_EXPECT_EQ(test, iohook_pci_read(&rb->bus, 1, 0x4c, 1, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x00U);
	KUNIT_EXPECT_EQ(test, iohook_pci_read(&rb->bus, 1, 0x4c, 1, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x01U);
	/* The selector still holds the 5 the device saw, not the 7. */
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_PCI, specs[2].addr,
					    &specs[2].cond.value, &out), 0);
	KUNIT_EXPECT_TRUE(test, out.recorded_known);
	KUNIT_EXPECT_EQ(test, out.recorded, 5ULL);
	KUNIT_EXPECT_EQ(test, iohook_pci_read(&rb->bus, 1, 0x54, 1, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x01U);
}

static struct kunit_case iohook_access_cases[] = {
	KUNIT_CASE(iohook_test_pci_config_word),
	KUNIT_CASE(iohook_test_e1000e_bar0),
	KUNIT_CASE(iohook_test_kernel_buffer),
	KUNIT_CASE(iohook_test_port),
	KUNIT_CASE(iohook_test_mem_every_width),
	KUNIT_CASE(iohook_test_port_every_width),
	KUNIT_CASE(iohook_test_arm_race),
	KUNIT_CASE(iohook_test_arm_sites),
	KUNIT_CASE(iohook_test_rcu_idle),
	KUNIT_CASE(iohook_test_rw1c_partial_write),
	KUNIT_CASE(iohook_test_pci_out_of_range),
	KUNIT_CASE(iohook_test_config_ram),
	KUNIT_CASE(iohook_test_config_failed_changes_nothing),
	{}
};

static struct kunit_suite iohook_access_suite = {
	.name = "iohook_access",
	.exit = access_exit,
	.test_cases = iohook_access_cases,
};

kunit_test_suite(iohook_access_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests through the real accessors: pci_{read,write}_config_word()
 * on a PCIe root port, readl() on the e1000e's BAR0 through an
 * ioremapped address, readl() on a kernel buffer, inb()/outb() on a
 * port. Devices are found at run time; a case skips when its device is
 * absent. One case arms and disarms while another CPU reads in a loop.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/kthread.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "internal.h"
#include "mmio.h"

static void access_exit(struct kunit *test)
{
	iohook_disarm();
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
	 * reaches the hardware with its own low byte kept (read-modify-
	 * write), so the real Interrupt Line never changes.
	 */
	pci_write_config_word(rp, PCI_INTERRUPT_LINE, (real & 0xff00) | 0xa5);
	pci_read_config_word(rp, PCI_INTERRUPT_LINE, &val);
	KUNIT_EXPECT_EQ(test, val, (u16)((real & 0xff00) | 0xa5));

	iohook_disarm();
	pci_read_config_word(rp, PCI_INTERRUPT_LINE, &val);
	KUNIT_EXPECT_EQ(test, val, real);

	/* Re-armed: the emulated view with its current value. */
	iohook_arm();
	pci_read_config_byte(rp, PCI_INTERRUPT_LINE, (u8 *)&val);
	KUNIT_EXPECT_EQ(test, val & 0xff, 0xa5);

	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_PCI, spec.addr), 0);
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
	KUNIT_ASSERT_TRUE(test, iohook_virt_to_phys(bar + 8, &phys));
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
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, phys), 0);
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
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, spec.addr), 0);
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
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_IO, 0x80), 0);
}

struct race_reader {
	u32 *buf;
	u32 real;
	u32 emulated;
	unsigned long reads;
	unsigned long bad;
	u32 bad_value;
};

static int race_reader_fn(void *data)
{
	struct race_reader *r = data;

	while (!kthread_should_stop()) {
		u32 v = readl((void __iomem *)r->buf);

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

static struct kunit_case iohook_access_cases[] = {
	KUNIT_CASE(iohook_test_pci_config_word),
	KUNIT_CASE(iohook_test_e1000e_bar0),
	KUNIT_CASE(iohook_test_kernel_buffer),
	KUNIT_CASE(iohook_test_port),
	KUNIT_CASE(iohook_test_arm_race),
	{}
};

static struct kunit_suite iohook_access_suite = {
	.name = "iohook_access",
	.exit = access_exit,
	.test_cases = iohook_access_cases,
};

kunit_test_suite(iohook_access_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the MMIO miss path's virtual filter (mappings.c),
 * through real readl() on the e1000e's BAR0: mappings made after the
 * override, unmapped and made again at another address, two mappings of
 * the same page at once (pci_iomap() and ioremap_wc()), one unmapped
 * while armed; the linear kernel addresses that need no filter; and
 * accesses that cross into an overridden page; memory hot-added
 * between an override's add and its remove.
 */
#include <kunit/test.h>
#include <linux/io.h>
#include <linux/pci.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "kunit_ram.h"
#include "space.h"
#include "mmio.h"

#define E1000_STATUS	0x8

struct mappings_ctx {
	struct pci_dev *pdev;
	u64 bar;
	u32 real;
	struct iohook_spec spec;
};

/* Override STATUS bit 31 against what the hardware says, armed. */
static int mappings_setup(struct kunit *test, struct mappings_ctx *c)
{
	void __iomem *p;

	c->pdev = pci_get_device(PCI_VENDOR_ID_INTEL, 0x10d3, NULL);
	if (!c->pdev)
		return -ENODEV;
	c->bar = pci_resource_start(c->pdev, 0);
	p = ioremap(c->bar, PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, (void __force *)p);
	c->real = readl(p + E1000_STATUS);
	iounmap(p);
	c->spec = (struct iohook_spec){
		.space = IOHOOK_SPACE_MEM, .addr = c->bar + E1000_STATUS,
		.len = 4, .mask = BIT(31), .value = ~c->real & BIT(31),
		.attr = IOHOOK_RO,
	};
	KUNIT_ASSERT_EQ(test, iohook_add(&c->spec), 0);
	iohook_arm();
	return 0;
}

static bool overridden(struct mappings_ctx *c, void __iomem *base)
{
	return (readl(base + E1000_STATUS) & BIT(31)) == (~c->real & BIT(31));
}

/* A mapping made after the override, unmapped, made again elsewhere. */
static void iohook_test_map_after_and_remap(struct kunit *test)
{
	struct mappings_ctx c;
	void __iomem *a, *b;

	if (mappings_setup(test, &c))
		kunit_skip(test, "no e1000e (8086:10d3)");
	a = ioremap(c.bar, PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, (void __force *)a);
	KUNIT_EXPECT_TRUE(test, overridden(&c, a));
	/* Map again while the first exists, so the address must differ. */
	b = ioremap(c.bar, 2 * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, (void __force *)b);
	KUNIT_EXPECT_PTR_NE(test, (void __force *)a, (void __force *)b);
	iounmap(a);
	KUNIT_EXPECT_TRUE(test, overridden(&c, b));
	a = ioremap(c.bar, PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, (void __force *)a);
	KUNIT_EXPECT_TRUE(test, overridden(&c, a));
	iounmap(b);
	KUNIT_EXPECT_TRUE(test, overridden(&c, a));
	iohook_disarm();
	KUNIT_EXPECT_FALSE(test, overridden(&c, a));
	iounmap(a);
	pci_dev_put(c.pdev);
}

/* pci_iomap() and ioremap_wc() of the same page; one goes while armed. */
static void iohook_test_two_mappings(struct kunit *test)
{
	struct mappings_ctx c;
	void __iomem *p, *w;

	if (mappings_setup(test, &c))
		kunit_skip(test, "no e1000e (8086:10d3)");
	p = pci_iomap(c.pdev, 0, 0);
	w = ioremap_wc(c.bar, PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, (void __force *)p);
	KUNIT_ASSERT_NOT_NULL(test, (void __force *)w);
	KUNIT_EXPECT_TRUE(test, overridden(&c, p));
	KUNIT_EXPECT_TRUE(test, overridden(&c, w));
	iounmap(w);
	KUNIT_EXPECT_TRUE(test, overridden(&c, p));
	KUNIT_EXPECT_FALSE(test, iohook_mmio_miss(p + E1000_STATUS));
	KUNIT_EXPECT_EQ(test, iohook_mmio_phys(p + E1000_STATUS, 4), c.bar + E1000_STATUS);
	/* The override goes: the virtual filter forgets the page. */
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, c.spec.addr, NULL), 0);
	KUNIT_EXPECT_TRUE(test, iohook_mmio_miss(p + E1000_STATUS));
	KUNIT_EXPECT_EQ(test, readl(p + E1000_STATUS), c.real);
	/* Added back, the live mapping is counted again. */
	KUNIT_EXPECT_EQ(test, iohook_add(&c.spec), 0);
	KUNIT_EXPECT_TRUE(test, overridden(&c, p));
	pci_iounmap(c.pdev, p);
	pci_dev_put(c.pdev);
}

/* Other pages of the BAR are filter misses: no walk, no lookup. */
static void iohook_test_miss_needs_no_walk(struct kunit *test)
{
	struct mappings_ctx c;
	void __iomem *p;

	if (mappings_setup(test, &c))
		kunit_skip(test, "no e1000e (8086:10d3)");
	p = pci_iomap(c.pdev, 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, (void __force *)p);
	if (pci_resource_len(c.pdev, 0) > PAGE_SIZE)
		KUNIT_EXPECT_TRUE(test, iohook_mmio_miss(p + PAGE_SIZE));
	KUNIT_EXPECT_FALSE(test, iohook_mmio_miss(p + E1000_STATUS));
	pci_iounmap(c.pdev, p);
	pci_dev_put(c.pdev);
}

/* The direct map and the kernel image translate by arithmetic. */
static u32 image_buf[16];

static void iohook_test_linear_addresses(struct kunit *test)
{
	u32 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	u64 phys;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, iohook_mmio_phys((void __iomem *)buf, 4),
			(u64)virt_to_phys(buf));
	/* Nothing overridden there: a miss by the physical filter. */
	KUNIT_EXPECT_TRUE(test, iohook_mmio_miss((void __iomem *)buf));
	KUNIT_EXPECT_EQ(test, iohook_mmio_phys((void __iomem *)image_buf, 4),
			(u64)__pa_symbol(image_buf));
	/* And agree with the page-table walk. */
	KUNIT_EXPECT_TRUE(test, iohook_virt_to_phys((void __iomem *)image_buf, 4, &phys));
	KUNIT_EXPECT_EQ(test, phys, (u64)__pa_symbol(image_buf));
}

/*
 * An access that starts on the page below an override and ends in it:
 * the filter is asked for the first byte's page only, which counts the
 * override because ranges are counted from 7 bytes below their start.
 */
static void iohook_test_access_into_next_page(struct kunit *test)
{
	struct page *pages = alloc_pages(GFP_KERNEL, 1);
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_MEM, .len = 1, .value = 0x5a,
		.mask = 0xff, .attr = IOHOOK_RO,
	};
	void __iomem *edge;
	u8 *buf;

	KUNIT_ASSERT_NOT_NULL(test, pages);
	buf = page_address(pages);
	memset(buf, 0x11, 2 * PAGE_SIZE);
	edge = (void __iomem *)buf + PAGE_SIZE;
	/* Nothing counted yet: the first page is a miss. */
	KUNIT_EXPECT_TRUE(test, iohook_mmio_miss(edge - 7));
	spec.addr = page_to_phys(pages) + PAGE_SIZE;
	if (iohook_add(&spec)) {
		__free_pages(pages, 1);
		KUNIT_FAIL(test, "iohook_add() failed");
		return;
	}
	iohook_arm();
	KUNIT_EXPECT_FALSE(test, iohook_mmio_miss(edge - 7));
	KUNIT_EXPECT_EQ(test, readq(edge - 7), 0x5a11111111111111ULL);
	KUNIT_EXPECT_EQ(test, readl(edge - 2), 0x115a1111U);
	KUNIT_EXPECT_EQ(test, readw(edge - 1), 0x5a11U);
	iohook_disarm();
	KUNIT_EXPECT_EQ(test, readl(edge - 2), 0x11111111U);
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, spec.addr, NULL), 0);
	__free_pages(pages, 1);
}

/*
 * Memory hot-added between an override's add and its remove (simulated
 * by raising max_pfn_mapped, as hot-add does): the remove must uncount
 * exactly what the add counted in the virtual filter, or it takes
 * counts from buckets that other overrides' pages share.
 */
static void iohook_test_hot_add_between_add_and_remove(struct kunit *test)
{
	u32 *before = kunit_kmalloc(test, sizeof(iohook_vfilter), GFP_KERNEL);
	unsigned long saved = max_pfn_mapped;
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_MEM, .len = 4, .value = 0x5a,
		.mask = 0xff, .attr = IOHOOK_RO,
	};
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, before);
	/* 64 MiB above the mapped memory: where hot-added memory would go. */
	spec.addr = ((u64)max_pfn_mapped << PAGE_SHIFT) + SZ_64M;
	memcpy(before, iohook_vfilter, sizeof(iohook_vfilter));
	KUNIT_ASSERT_EQ(test, iohook_add(&spec), 0);
	max_pfn_mapped += SZ_128M >> PAGE_SHIFT;
	ret = iohook_remove(IOHOOK_SPACE_MEM, spec.addr, NULL);
	max_pfn_mapped = saved;
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, memcmp(before, iohook_vfilter,
				     sizeof(iohook_vfilter)), 0);
}

static void mappings_exit(struct kunit *test)
{
	iohook_kunit_clear();
}

static struct kunit_case iohook_mappings_cases[] = {
	KUNIT_CASE(iohook_test_map_after_and_remap),
	KUNIT_CASE(iohook_test_two_mappings),
	KUNIT_CASE(iohook_test_miss_needs_no_walk),
	KUNIT_CASE(iohook_test_linear_addresses),
	KUNIT_CASE(iohook_test_access_into_next_page),
	KUNIT_CASE(iohook_test_hot_add_between_add_and_remove),
	{}
};

static struct kunit_suite iohook_mappings_suite = {
	.name = "iohook_mappings",
	.exit = mappings_exit,
	.test_cases = iohook_mappings_cases,
};

kunit_test_suite(iohook_mappings_suite);

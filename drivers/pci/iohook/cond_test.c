// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of conditional (selector-indexed) overrides: validation,
 * which overrides may share bytes, the recorded selector value before
 * the first write, across arm, disarm and removal, a register that is
 * its own selector, and an arm race. Through the real MMIO access path
 * onto a RAM stand-in (kunit_ram.h), through readl()/writel() on a
 * kernel buffer, and through the real CMOS index/data ports.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/kthread.h>
#include <linux/mc146818rtc.h>
#include <linux/slab.h>

#include "kunit_ram.h"
#include "space.h"

/*
 * Validation only: far above any RAM or BAR of the test machine, below
 * the 52-bit limit.
 */
#define V_BASE		0x000b000000000000ULL
#define V_SEL		(V_BASE + 0x10)
#define V_DATA		(V_BASE + 0x14)

/* Accesses: the stand-in of the current case, made by cond_init(). */
static struct iohook_ram c_ram;
#define C_BASE		(c_ram.phys)
#define C_SEL		(C_BASE + 0x10)
#define C_DATA		(C_BASE + 0x14)
/* Domain 0xabcd, bus 0, devfn 0: no such device. */
#define PCI0(off)	((0xabcdULL << 32) | (off))

#define COND(s, a, l, v, m, at, sa, sw, sm, sv) \
	{ .space = (s), .addr = (a), .len = (l), .value = (v), .mask = (m), \
	  .attr = (at), .cond = { .width = (sw), .sel = (sa), .mask = (sm), \
	  .value = (sv) } }
/* A 4-byte ro override at C_DATA, selected by byte 0 of C_SEL == @v. */
#define DATA_IF(val, v) \
	COND(IOHOOK_SPACE_MEM, C_DATA, 4, val, 0xffffffff, IOHOOK_RO, \
	     C_SEL, 4, 0xff, v)

struct cond_case {
	const char *desc;
	struct iohook_spec spec;
	int expect;
};

static const struct cond_case cond_cases[] = {
	{ "selector ok",
	  COND(IOHOOK_SPACE_MEM, V_DATA, 4, 1, 0xffffffff, IOHOOK_RO, V_SEL, 4, 0xff, 1), 0 },
	{ "selector 8 bytes ok",
	  COND(IOHOOK_SPACE_MEM, V_DATA, 4, 0, 1, IOHOOK_RO, V_BASE + 8, 8, ~0ULL, 5), 0 },
	{ "selector wider than 8",
	  COND(IOHOOK_SPACE_MEM, V_DATA, 4, 0, 1, IOHOOK_RO, V_BASE, 16, 1, 1), -E2BIG },
	{ "selector width 3",
	  COND(IOHOOK_SPACE_MEM, V_DATA, 4, 0, 1, IOHOOK_RO, V_SEL, 3, 1, 1), -EINVAL },
	{ "selector unaligned",
	  COND(IOHOOK_SPACE_MEM, V_DATA, 4, 0, 1, IOHOOK_RO, V_SEL + 2, 4, 1, 1), -EINVAL },
	{ "selector mask 0",
	  COND(IOHOOK_SPACE_MEM, V_DATA, 4, 0, 1, IOHOOK_RO, V_SEL, 4, 0, 0), -EINVAL },
	{ "selector mask wider than selector",
	  COND(IOHOOK_SPACE_MEM, V_DATA, 4, 0, 1, IOHOOK_RO, V_SEL, 1, 0x100, 0), -EINVAL },
	{ "value outside selector mask",
	  COND(IOHOOK_SPACE_MEM, V_DATA, 4, 0, 1, IOHOOK_RO, V_SEL, 4, 0xf0, 0x1), -ERANGE },
	{ "selector past 0xffff",
	  COND(IOHOOK_SPACE_IO, 0x71, 1, 0, 1, IOHOOK_RO, 0x10000, 1, 1, 1), -ERANGE },
	{ "selector in another function",
	  COND(IOHOOK_SPACE_PCI, PCI0(0x44), 1, 0, 1, IOHOOK_RO, PCI0(0x1040), 4, 1, 1),
	  -EXDEV },
	{ "selector in the same function ok",
	  COND(IOHOOK_SPACE_PCI, PCI0(0x44), 1, 0, 1, IOHOOK_RO, PCI0(0x40), 4, 1, 1), 0 },
};

static void cond_case_desc(const struct cond_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iohook_cond_validate, cond_cases, cond_case_desc);

static void iohook_test_cond_validate(struct kunit *test)
{
	const struct cond_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, iohook_validate(&c->spec), c->expect);
}

static int count_cb(const struct iohook_spec *spec, void *data)
{
	(*(int *)data)++;
	return 0;
}

static int count_range(void)
{
	int n = 0;

	iohook_for_each(IOHOOK_SPACE_MEM, C_BASE, C_BASE + 0xfff, count_cb, &n);
	return n;
}

/*
 * Read the data register through the access path. Return: whether an
 * override applied: the stand-in holds IOHOOK_RAM_FILL there, which no
 * data override's value is.
 */
static bool read_data(u64 *value)
{
	*value = iohook_ram_read(&c_ram, C_DATA - C_BASE, 4);
	return *value != iohook_ram_peek(&c_ram, C_DATA - C_BASE, 4);
}

/* Write to the selector through the access path, @width bytes at @off. */
static void write_sel(u64 off, unsigned int width, u64 val)
{
	iohook_ram_write(&c_ram, C_SEL - C_BASE + off, width, val);
}

/* Write @v to the selector and read the data register, armed. */
static bool sel_then_read(u64 sel_val, u64 *value)
{
	write_sel(0, 4, sel_val);
	return read_data(value);
}

static void iohook_test_cond_coexist(struct kunit *test)
{
	struct iohook_spec a = DATA_IF(0xa, 1), b = DATA_IF(0xb, 2), x;
	struct iohook_spec out;

	KUNIT_ASSERT_EQ(test, iohook_add(&a), 0);
	KUNIT_ASSERT_EQ(test, iohook_add(&b), 0);
	KUNIT_EXPECT_EQ(test, count_range(), 2);
	/* The same condition value twice. */
	x = (struct iohook_spec)DATA_IF(0xc, 2);
	KUNIT_EXPECT_EQ(test, iohook_add(&x), -EEXIST);
	/* Another selector mask: both could hold at once. */
	x.cond.mask = 0xf;
	x.cond.value = 3;
	KUNIT_EXPECT_EQ(test, iohook_add(&x), -EEXIST);
	/* Other bytes. */
	x = (struct iohook_spec)DATA_IF(0xc, 3);
	x.len = 2;
	x.mask = 0xffff;
	KUNIT_EXPECT_EQ(test, iohook_add(&x), -EEXIST);
	/* Unconditional on the same bytes. */
	x = (struct iohook_spec)DATA_IF(0xc, 3);
	x.cond.width = 0;
	KUNIT_EXPECT_EQ(test, iohook_add(&x), -EEXIST);
	/* A selector overlapping another without being the same bytes. */
	x = (struct iohook_spec)DATA_IF(0xc, 3);
	x.addr = C_BASE + 0x20;
	x.cond.width = 2;
	x.cond.sel = C_SEL + 2;
	KUNIT_EXPECT_EQ(test, iohook_add(&x), -EEXIST);
	KUNIT_EXPECT_EQ(test, count_range(), 2);

	/* Each is named by its condition value. */
	KUNIT_EXPECT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, C_DATA, NULL, &out), -ENOENT);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, C_DATA, &(u64){2}, &out), 0);
	KUNIT_EXPECT_EQ(test, out.value, 0xbULL);
	KUNIT_EXPECT_EQ(test, out.cond.sel, C_SEL);
	KUNIT_EXPECT_EQ(test, out.cond.mask, 0xffULL);
	KUNIT_EXPECT_EQ(test, iohook_set_value(IOHOOK_SPACE_MEM, C_DATA, &(u64){1}, 0x1a), 0);
	KUNIT_EXPECT_EQ(test, iohook_set_value(IOHOOK_SPACE_MEM, C_DATA, &(u64){7}, 1), -ENOENT);

	/* Removing one leaves the other; removing the bytes removes all. */
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, C_DATA, &(u64){1}), 0);
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, C_DATA, &(u64){1}), -ENOENT);
	KUNIT_EXPECT_EQ(test, count_range(), 1);
	KUNIT_ASSERT_EQ(test, iohook_add(&a), 0);
	x = (struct iohook_spec)DATA_IF(0xc, 3);
	KUNIT_ASSERT_EQ(test, iohook_add(&x), 0);
	KUNIT_EXPECT_EQ(test, count_range(), 3);
	/* The head of the chain can go too. */
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, C_DATA, &(u64){2}), 0);
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, C_DATA, NULL), 0);
	KUNIT_EXPECT_EQ(test, count_range(), 0);
	/* The selector went with its last override. */
	KUNIT_EXPECT_FALSE(test, iohook_filter_hit(iohook_spaces[IOHOOK_SPACE_MEM].sel_filter,
						   IOHOOK_SPACE_MEM, C_SEL, 4));
	KUNIT_EXPECT_FALSE(test, iohook_store_may_cover(IOHOOK_SPACE_MEM, C_SEL, 4));
}

static void iohook_test_cond_batch(struct kunit *test)
{
	struct iohook_spec specs[3] = { DATA_IF(0xa, 1), DATA_IF(0xb, 2), DATA_IF(0xc, 2) };
	u64 v;

	/* Two with the same value in one batch: none is added. */
	KUNIT_EXPECT_EQ(test, iohook_add_many(specs, 3), -EEXIST);
	KUNIT_EXPECT_EQ(test, count_range(), 0);
	specs[2].cond.value = 3;
	KUNIT_ASSERT_EQ(test, iohook_add_many(specs, 3), 0);
	KUNIT_EXPECT_EQ(test, count_range(), 3);
	iohook_arm();
	KUNIT_EXPECT_TRUE(test, sel_then_read(3, &v));
	KUNIT_EXPECT_EQ(test, v, 0xcULL);
	KUNIT_EXPECT_TRUE(test, sel_then_read(1, &v));
	KUNIT_EXPECT_EQ(test, v, 0xaULL);
}

static void iohook_test_cond_selects(struct kunit *test)
{
	struct iohook_spec specs[2] = { DATA_IF(0xa, 1), DATA_IF(0xb, 2) };
	struct iohook_spec out;
	u64 v;

	KUNIT_ASSERT_EQ(test, iohook_add_many(specs, 2), 0);
	iohook_arm();
	/* Before the first write the selector is unknown: nothing applies. */
	KUNIT_EXPECT_FALSE(test, read_data(&v));
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, C_DATA, &(u64){1}, &out), 0);
	KUNIT_EXPECT_FALSE(test, out.recorded_known);

	KUNIT_EXPECT_TRUE(test, sel_then_read(1, &v));
	KUNIT_EXPECT_EQ(test, v, 0xaULL);
	KUNIT_EXPECT_TRUE(test, sel_then_read(2, &v));
	KUNIT_EXPECT_EQ(test, v, 0xbULL);
	/* Only the masked bits count. */
	KUNIT_EXPECT_TRUE(test, sel_then_read(0xff01, &v));
	KUNIT_EXPECT_EQ(test, v, 0xaULL);
	KUNIT_EXPECT_FALSE(test, sel_then_read(3, &v));
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, C_DATA, &(u64){1}, &out), 0);
	KUNIT_EXPECT_TRUE(test, out.recorded_known);
	KUNIT_EXPECT_EQ(test, out.recorded, 3ULL);

	/* A byte write changes that byte of the recorded value only. */
	write_sel(0, 1, 2);
	KUNIT_EXPECT_TRUE(test, read_data(&v));
	KUNIT_EXPECT_EQ(test, v, 0xbULL);
	write_sel(1, 1, 0x77);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, C_DATA, &(u64){1}, &out), 0);
	KUNIT_EXPECT_EQ(test, out.recorded, 0x7702ULL);
	/* A write that ends in the selector's first byte. */
	write_sel(-3, 4, 0x01000000);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, C_DATA, &(u64){1}, &out), 0);
	KUNIT_EXPECT_EQ(test, out.recorded, 0x7701ULL);

	/* Hits count per override. */
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, C_DATA, &(u64){2}, &out), 0);
	KUNIT_EXPECT_EQ(test, out.hits, 2ULL);
}

static void iohook_test_cond_arm_disarm(struct kunit *test)
{
	struct iohook_spec a = DATA_IF(0xa, 1), out;
	u64 v;

	KUNIT_ASSERT_EQ(test, iohook_add(&a), 0);
	/* Not armed: nothing is recorded. */
	write_sel(0, 4, 1);
	iohook_arm();
	KUNIT_EXPECT_FALSE(test, read_data(&v));
	KUNIT_EXPECT_TRUE(test, sel_then_read(1, &v));
	/* Arming again while armed keeps the recorded value. */
	iohook_arm();
	KUNIT_EXPECT_TRUE(test, read_data(&v));
	/* Disarm, then arm: writes made meanwhile were not seen, so unknown. */
	iohook_disarm();
	write_sel(0, 4, 2);
	iohook_arm();
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, C_DATA, &(u64){1}, &out), 0);
	KUNIT_EXPECT_FALSE(test, out.recorded_known);
	KUNIT_EXPECT_FALSE(test, read_data(&v));
	/* Removing the last override forgets the selector; a new one is unknown. */
	KUNIT_EXPECT_TRUE(test, sel_then_read(1, &v));
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, C_DATA, NULL), 0);
	KUNIT_ASSERT_EQ(test, iohook_add(&a), 0);
	KUNIT_EXPECT_FALSE(test, read_data(&v));
}

/*
 * A register that is its own selector, like the e1000e's MDIC: bits
 * 16-20 select the PHY register, bits 0-15 carry its data. The command
 * write is recorded before the overrides judge it.
 */
static void iohook_test_cond_self_selector(struct kunit *test)
{
	struct iohook_spec bmsr = COND(IOHOOK_SPACE_MEM, C_SEL, 4, 0, 0x4, IOHOOK_RO,
				       C_SEL, 4, 0x1f0000, 0x10000);
	u64 v;

	KUNIT_ASSERT_EQ(test, iohook_add(&bmsr), 0);
	iohook_arm();
	/*
	 * Select register 1: bit 2 is overridden, for the write too: the
	 * hardware gets it as 0, and a read gives the override's 0.
	 */
	write_sel(0, 4, 0x0801000c);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&c_ram, C_SEL - C_BASE, 4), 0x08010008ULL);
	iohook_ram_poke(&c_ram, C_SEL - C_BASE, 4, 0xffffffff);
	v = iohook_ram_read(&c_ram, C_SEL - C_BASE, 4);
	KUNIT_EXPECT_EQ(test, v, 0xfffffffbULL);
	/* Register 2: untouched, both ways. */
	write_sel(0, 4, 0x0802000c);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&c_ram, C_SEL - C_BASE, 4), 0x0802000cULL);
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&c_ram, C_SEL - C_BASE, 4), 0x0802000cULL);
}

/* Through readl()/writel() on a kernel buffer: the real MMIO hooks. */
static void iohook_test_cond_mmio_accessors(struct kunit *test)
{
	u32 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	void __iomem *io = (void __iomem *)buf;
	struct iohook_spec specs[2] = {
		{ .space = IOHOOK_SPACE_MEM, .len = 4, .value = 0xaaaa0000,
		  .mask = 0xffff0000, .attr = IOHOOK_RO,
		  .cond = { .width = 4, .mask = 0xf, .value = 1 } },
		{ .space = IOHOOK_SPACE_MEM, .len = 4, .value = 0xbbbb0000,
		  .mask = 0xffff0000, .attr = IOHOOK_RO,
		  .cond = { .width = 4, .mask = 0xf, .value = 2 } },
	};

	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf[1] = 0x12345678;
	specs[0].addr = virt_to_phys(&buf[1]);
	specs[1].addr = specs[0].addr;
	specs[0].cond.sel = virt_to_phys(&buf[0]);
	specs[1].cond.sel = specs[0].cond.sel;
	KUNIT_ASSERT_EQ(test, iohook_add_many(specs, 2), 0);
	iohook_arm();
	KUNIT_EXPECT_EQ(test, readl(io + 4), 0x12345678U);
	writel(1, io);
	KUNIT_EXPECT_EQ(test, readl(io + 4), 0xaaaa5678U);
	/* The selector write reached memory: it is not overridden. */
	KUNIT_EXPECT_EQ(test, buf[0], 1U);
	writel(0x12, io);
	KUNIT_EXPECT_EQ(test, readl(io + 4), 0xbbbb5678U);
	writeb(3, io);
	KUNIT_EXPECT_EQ(test, readl(io + 4), 0x12345678U);
	iohook_disarm();
}

/*
 * The CMOS index/data pair, under rtc_lock like every CMOS user: the
 * override of port 0x71 applies only while index 0x0e (NMI bit masked
 * off) is selected, so register 0x0f reads the hardware.
 */
static void iohook_test_cond_cmos(struct kunit *test)
{
	struct iohook_spec diag = COND(IOHOOK_SPACE_IO, RTC_PORT(1), 1, 0xa5, 0xff,
				       IOHOOK_RO, RTC_PORT(0), 1, 0x7f, 0x0e);
	unsigned long flags;
	u8 real_e, real_f, e, f;

	spin_lock_irqsave(&rtc_lock, flags);
	real_e = CMOS_READ(0x0e);
	real_f = CMOS_READ(0x0f);
	spin_unlock_irqrestore(&rtc_lock, flags);
	if (real_e == 0xa5)
		diag.value = 0x5a;
	KUNIT_ASSERT_EQ(test, iohook_add(&diag), 0);
	iohook_arm();
	spin_lock_irqsave(&rtc_lock, flags);
	e = CMOS_READ(0x0e);
	f = CMOS_READ(0x0f);
	spin_unlock_irqrestore(&rtc_lock, flags);
	iohook_disarm();
	KUNIT_EXPECT_EQ(test, e, (u8)diag.value);
	KUNIT_EXPECT_EQ(test, f, real_f);
	spin_lock_irqsave(&rtc_lock, flags);
	e = CMOS_READ(0x0e);
	spin_unlock_irqrestore(&rtc_lock, flags);
	KUNIT_EXPECT_EQ(test, e, real_e);
}

struct cond_racer {
	unsigned long rounds, wrong;
	u64 wrong_value;
};

/*
 * Select 1, read; select 2, read; while the other CPU arms and disarms.
 * Each read must be the hardware view (nothing applied) or the selected
 * override, never the other one's value.
 */
static int cond_racer_fn(void *data)
{
	struct cond_racer *r = data;

	while (!kthread_should_stop()) {
		u64 sel;

		for (sel = 1; sel <= 2; sel++) {
			u64 v;

			if (sel_then_read(sel, &v) && v != 0xa + sel - 1) {
				r->wrong++;
				r->wrong_value = v;
			}
		}
		r->rounds++;
		cond_resched();
	}
	return 0;
}

static void iohook_test_cond_arm_race(struct kunit *test)
{
	struct iohook_spec specs[2] = { DATA_IF(0xa, 1), DATA_IF(0xb, 2) };
	struct cond_racer r = {};
	struct task_struct *t;
	int i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_ASSERT_EQ(test, iohook_add_many(specs, 2), 0);
	t = kthread_run(cond_racer_fn, &r, "iohook-cond-race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (i = 0; i < 40; i++) {
		iohook_arm();
		usleep_range(50, 100);
		iohook_disarm();
		usleep_range(50, 100);
	}
	kthread_stop(t);
	KUNIT_EXPECT_GT(test, r.rounds, 0UL);
	KUNIT_EXPECT_EQ_MSG(test, r.wrong, 0UL, "read %#llx", r.wrong_value);
}

static int cond_init(struct kunit *test)
{
	iohook_ram_init(test, &c_ram);
	return 0;
}

static void cond_exit(struct kunit *test)
{
	iohook_kunit_clear();
}

static struct kunit_case iohook_cond_cases[] = {
	KUNIT_CASE_PARAM(iohook_test_cond_validate, iohook_cond_validate_gen_params),
	KUNIT_CASE(iohook_test_cond_coexist),
	KUNIT_CASE(iohook_test_cond_batch),
	KUNIT_CASE(iohook_test_cond_selects),
	KUNIT_CASE(iohook_test_cond_arm_disarm),
	KUNIT_CASE(iohook_test_cond_self_selector),
	KUNIT_CASE(iohook_test_cond_mmio_accessors),
	KUNIT_CASE(iohook_test_cond_cmos),
	KUNIT_CASE(iohook_test_cond_arm_race),
	{}
};

static struct kunit_suite iohook_cond_suite = {
	.name = "iohook_cond",
	.init = cond_init,
	.exit = cond_exit,
	.test_cases = iohook_cond_cases,
};

kunit_test_suite(iohook_cond_suite);

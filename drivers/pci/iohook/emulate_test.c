// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of emulate.c: each rule of the override semantics, as a
 * table of cases run through the pure functions.
 */
#include <kunit/test.h>

#include "emulate.h"

struct iohook_read_case {
	const char *desc;
	u64 start;
	u32 len;
	u64 mask;
	u64 value;
	u64 addr;
	unsigned int width;
	u64 hw;
	u64 expect;
	bool touches_hw;
};

static const struct iohook_read_case read_cases[] = {
	{ "w1 full mask hides hw", 0x6e, 1, 0xff, 0x48, 0x6e, 1, 0x00, 0x48, false },
	{ "w1 single bit", 0x6e, 1, 0x08, 0x08, 0x6e, 1, 0xf0, 0xf8, true },
	{ "w1 single bit cleared", 0x6e, 1, 0x08, 0x00, 0x6e, 1, 0xff, 0xf7, true },
	{ "w2 over low byte", 0x6e, 1, 0xff, 0x48, 0x6e, 2, 0x1234, 0x1248, true },
	{ "w2 unaligned over high byte", 0x6f, 1, 0xff, 0xab, 0x6e, 2, 0x1234, 0xab34, true },
	{ "w4 over upper word", 0x132, 2, 0xffff, 0x0100, 0x130, 4, 0xdeadbeef, 0x0100beef, true },
	{ "w4 full mask", 0x130, 4, 0xffffffff, 0x12345678, 0x130, 4, 0, 0x12345678, false },
	{ "w8 full mask",
	  0x1000, 8, ~0ULL, 0x0123456789abcdefULL, 0x1000, 8, 0, 0x0123456789abcdefULL, false },
	{ "w8 top bit only",
	  0x1000, 8, 1ULL << 63, 1ULL << 63, 0x1000, 8, 1, (1ULL << 63) | 1, true },
	{ "w1 inside a 4-byte override",
	  0x100, 4, 0x00ff0000, 0x00550000, 0x102, 1, 0x00, 0x55, false },
	{ "w1 inside, bits not masked",
	  0x100, 4, 0x00ff0000, 0x00550000, 0x101, 1, 0x33, 0x33, true },
	{ "w4 straddles override start", 0x101, 1, 0xff, 0x77, 0x100, 4, 0, 0x7700, true },
	{ "w4 unaligned over 8-byte",
	  0x200, 8, ~0ULL, 0x8877665544332211ULL, 0x203, 4, 0, 0x77665544, false },
	{ "no overlap", 0x10, 1, 0xff, 0xff, 0x11, 1, 0x5a, 0x5a, true },
	{ "byte-filled w4", 0x0, 0x1000, 0xff, 0xff, 0x40, 4, 0x12345678, 0xffffffff, false },
	{ "byte-filled w8", 0x0, 0x1000, 0xff, 0xa5, 0xff8, 8, 0, 0xa5a5a5a5a5a5a5a5ULL, false },
	{ "byte-filled end straddled",
	  0x100, 16, 0xff, 0xaa, 0x10e, 4, 0x11223344, 0x1122aaaa, true },
};

static void read_case_desc(const struct iohook_read_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iohook_read, read_cases, read_case_desc);

static void iohook_test_read(struct kunit *test)
{
	const struct iohook_read_case *c = test->param_value;
	struct iohook_contrib r;

	r = iohook_emul_read(c->start, c->len, c->mask, c->value, c->addr,
			     c->width);
	KUNIT_EXPECT_EQ(test, iohook_merge(c->hw, r.mask, r.value), c->expect);
	KUNIT_EXPECT_EQ(test, r.mask != iohook_width_mask(c->width),
			c->touches_hw);
	KUNIT_EXPECT_EQ(test, r.mask & ~iohook_width_mask(c->width), 0ULL);
}

struct iohook_write_case {
	const char *desc;
	u64 start;
	u32 len;
	u64 mask;
	enum iohook_attr attr;
	u64 value;
	u64 addr;
	unsigned int width;
	u64 data;
	u64 expect;
};

static const struct iohook_write_case write_cases[] = {
	{ "rw takes value", 0x10, 1, 0x0f, IOHOOK_RW, 0x05, 0x10, 1, 0x0a, 0x0a },
	{ "rw only masked bits", 0x10, 1, 0x0f, IOHOOK_RW, 0x05, 0x10, 1, 0xff, 0x0f },
	{ "rw single bit", 0x10, 1, 0x80, IOHOOK_RW, 0x00, 0x10, 1, 0xff, 0x80 },
	{ "rw w2 into upper half of w4",
	  0x100, 4, 0xffffffff, IOHOOK_RW, 0x11223344, 0x102, 2, 0xaabb, 0xaabb3344 },
	{ "rw w8 full", 0x0, 8, ~0ULL, IOHOOK_RW, 0, 0x0, 8, ~0ULL, ~0ULL },
	{ "wc 1 clears", 0x6e, 1, 0xff, IOHOOK_WC, 0x48, 0x6e, 1, 0x08, 0x40 },
	{ "wc 0 keeps", 0x6e, 1, 0xff, IOHOOK_WC, 0x48, 0x6e, 1, 0x00, 0x48 },
	{ "wc w2 over 1-byte override", 0x6e, 1, 0xff, IOHOOK_WC, 0x48, 0x6e, 2, 0x0148, 0x00 },
	{ "wc w1 at high byte", 0x6e, 2, 0xffff, IOHOOK_WC, 0x0108, 0x6f, 1, 0x01, 0x0008 },
	{ "wc unmasked bit ignored", 0x6e, 1, 0x08, IOHOOK_WC, 0x08, 0x6e, 1, 0xf7, 0x08 },
	{ "ro ignores writes", 0x10, 4, 0xffff, IOHOOK_RO, 0x1234, 0x10, 4, 0, 0x1234 },
	{ "rc ignores writes", 0x10, 1, 0xff, IOHOOK_RC, 0x80, 0x10, 1, 0xff, 0x80 },
	{ "no overlap", 0x10, 1, 0xff, IOHOOK_RW, 0x80, 0x11, 1, 0x00, 0x80 },
	{ "byte-filled never changes", 0x0, 0x1000, 0xff, IOHOOK_RO, 0xff, 0x0, 4, 0, 0xff },
};

static void write_case_desc(const struct iohook_write_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iohook_write, write_cases, write_case_desc);

static void iohook_test_write(struct kunit *test)
{
	const struct iohook_write_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, iohook_emul_write(c->start, c->len, c->mask,
						c->attr, c->value, c->addr,
						c->width, c->data),
			c->expect);
}

static void iohook_test_read_clears(struct kunit *test)
{
	/* rc: the overridden bits the read returned, and only those. */
	KUNIT_EXPECT_EQ(test, iohook_emul_read_clears(0x100, 4, 0xffff,
						      IOHOOK_RC, 0x100, 1),
			0xffULL);
	KUNIT_EXPECT_EQ(test, iohook_emul_read_clears(0x100, 4, 0xffff,
						      IOHOOK_RC, 0x101, 1),
			0xff00ULL);
	KUNIT_EXPECT_EQ(test, iohook_emul_read_clears(0x100, 4, 0xffff,
						      IOHOOK_RC, 0x100, 4),
			0xffffULL);
	KUNIT_EXPECT_EQ(test, iohook_emul_read_clears(0x100, 4, 0x0100,
						      IOHOOK_RC, 0x100, 8),
			0x0100ULL);
	KUNIT_EXPECT_EQ(test, iohook_emul_read_clears(0x100, 4, 0xffff,
						      IOHOOK_RC, 0x104, 1),
			0ULL);
	/* Only rc changes on a read. */
	KUNIT_EXPECT_EQ(test, iohook_emul_read_clears(0x100, 4, 0xffff,
						      IOHOOK_WC, 0x100, 4),
			0ULL);
	KUNIT_EXPECT_EQ(test, iohook_emul_read_clears(0x100, 4, 0xffff,
						      IOHOOK_RW, 0x100, 4),
			0ULL);
	KUNIT_EXPECT_EQ(test, iohook_emul_read_clears(0x100, 4, 0xffff,
						      IOHOOK_RO, 0x100, 4),
			0ULL);
}

static void iohook_test_width_mask(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, iohook_width_mask(1), 0xffULL);
	KUNIT_EXPECT_EQ(test, iohook_width_mask(2), 0xffffULL);
	KUNIT_EXPECT_EQ(test, iohook_width_mask(4), 0xffffffffULL);
	/* The 2013 code overflowed here: (1 << 8 * 8) - 1. */
	KUNIT_EXPECT_EQ(test, iohook_width_mask(8), ~0ULL);
}

static void iohook_test_partial_write(struct kunit *test)
{
	/*
	 * Every covered bit reaches the hardware as 0, whatever the
	 * attribute; the caller's bits elsewhere. Never a read-back value.
	 */
	/* Slot Control: PCC emulated (rw), the rest from the driver. */
	KUNIT_EXPECT_EQ(test, iohook_hw_write_value(0x07f1, 0x0400), 0x03f1ULL);
	/* Slot Status: PDC emulated (wc), DLLSC to hardware. */
	KUNIT_EXPECT_EQ(test, iohook_hw_write_value(0x0108, 0x0008), 0x0100ULL);
	/* An ro bit hiding a pending RW1C event is not written as 1. */
	KUNIT_EXPECT_EQ(test, iohook_hw_write_value(0x0001, 0x0004), 0x0001ULL);
	KUNIT_EXPECT_EQ(test, iohook_hw_write_value(~0ULL, 1ULL << 63), ~0ULL >> 1);
}

static struct kunit_case iohook_emulate_cases[] = {
	KUNIT_CASE(iohook_test_partial_write),
	KUNIT_CASE_PARAM(iohook_test_read, iohook_read_gen_params),
	KUNIT_CASE_PARAM(iohook_test_write, iohook_write_gen_params),
	KUNIT_CASE(iohook_test_read_clears),
	KUNIT_CASE(iohook_test_width_mask),
	{}
};

static struct kunit_suite iohook_emulate_suite = {
	.name = "iohook_emulate",
	.test_cases = iohook_emulate_cases,
};

kunit_test_suite(iohook_emulate_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the store (store.c, validate.c, arm.c): validation,
 * overlaps, all-or-nothing adds, removal, arming and the filter, on a
 * physical range no device decodes, so nothing real is disturbed; and
 * accesses that span several overrides, read-to-clear and
 * write-1-to-clear, through the real MMIO access path onto a RAM
 * stand-in (kunit_ram.h).
 */
#include <kunit/test.h>
#include <linux/jump_label.h>

#include "emulate.h"
#include "kunit_ram.h"
#include "space.h"

/* Far above any RAM or BAR of the test machine, below the 52-bit limit. */
#define T_BASE		0x000a000000000000ULL
#define T_LAST		(T_BASE + 0xffffff)

struct iohook_validate_case {
	const char *desc;
	struct iohook_spec spec;
	int expect;
};

#define SPEC(s, a, l, v, m, at) \
	{ .space = (s), .addr = (a), .len = (l), .value = (v), .mask = (m), \
	  .attr = (at) }
/* Domain 0xabcd, bus 0, devfn 0: no such device. */
#define PCI0(off)	((0xabcdULL << 32) | (off))

static const struct iohook_validate_case validate_cases[] = {
	{ "w1 ok", SPEC(IOHOOK_SPACE_IO, 0x620, 1, 0x04, 0x04, IOHOOK_WC), 0 },
	{ "w8 full mask ok", SPEC(IOHOOK_SPACE_MEM, T_BASE, 8, 1, ~0ULL, IOHOOK_RW), 0 },
	{ "zero length", SPEC(IOHOOK_SPACE_IO, 0x620, 0, 0, 0xff, IOHOOK_RO), -EINVAL },
	{ "zero mask", SPEC(IOHOOK_SPACE_IO, 0x620, 1, 0, 0, IOHOOK_RO), -EINVAL },
	{ "mask wider than length", SPEC(IOHOOK_SPACE_IO, 0x620, 1, 0, 0x100, IOHOOK_RO), -EINVAL },
	{ "value outside mask", SPEC(IOHOOK_SPACE_IO, 0x620, 1, 0x3, 0x1, IOHOOK_RO), -EINVAL },
	{ "bad attribute", SPEC(IOHOOK_SPACE_IO, 0x620, 1, 0, 1, IOHOOK_NR_ATTRS), -EINVAL },
	{ "bad space", SPEC(IOHOOK_NR_SPACES, 0x620, 1, 0, 1, IOHOOK_RO), -EINVAL },
	{ "byte-filled ro ok", SPEC(IOHOOK_SPACE_PCI, PCI0(0), 0x1000, 0xff, 0xff, IOHOOK_RO), 0 },
	{ "byte-filled rw", SPEC(IOHOOK_SPACE_PCI, PCI0(0), 16, 0xff, 0xff, IOHOOK_RW), -EINVAL },
	{ "byte-filled value > byte",
	  SPEC(IOHOOK_SPACE_PCI, PCI0(0), 16, 0x100, 0xff, IOHOOK_RO), -EINVAL },
	{ "byte-filled past 0xfff",
	  SPEC(IOHOOK_SPACE_PCI, PCI0(0x10), 0x1000, 0xff, 0xff, IOHOOK_RO), -ERANGE },
	{ "config last byte ok", SPEC(IOHOOK_SPACE_PCI, PCI0(0xfff), 1, 0, 1, IOHOOK_RO), 0 },
	{ "config past 0xfff", SPEC(IOHOOK_SPACE_PCI, PCI0(0xfff), 2, 0, 1, IOHOOK_RO), -ERANGE },
	{ "port 0xffff ok", SPEC(IOHOOK_SPACE_IO, 0xffff, 1, 0, 1, IOHOOK_RO), 0 },
	{ "port past 0xffff", SPEC(IOHOOK_SPACE_IO, 0xffff, 2, 0, 1, IOHOOK_RO), -ERANGE },
	{ "port 0x10000", SPEC(IOHOOK_SPACE_IO, 0x10000, 1, 0, 1, IOHOOK_RO), -ERANGE },
	{ "memory past 52 bits", SPEC(IOHOOK_SPACE_MEM, 1ULL << 52, 1, 0, 1, IOHOOK_RO), -ERANGE },
};

static void validate_case_desc(const struct iohook_validate_case *c,
			       char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iohook_validate, validate_cases, validate_case_desc);

static void iohook_test_validate(struct kunit *test)
{
	const struct iohook_validate_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, iohook_validate(&c->spec), c->expect);
}

static int store_init(struct kunit *test)
{
	iohook_remove_range(IOHOOK_SPACE_MEM, T_BASE, T_LAST);
	return 0;
}

/**
 * iohook_kunit_clear() - leave the store as the tests found it
 *
 * Every suite's exit calls it, so a failed case never leaves overrides
 * behind to go live at the user's next arm: KUnit runs at boot, before
 * any user could have added one.
 */
void iohook_kunit_clear(void)
{
	int i;

	iohook_disarm();
	for (i = 0; i < IOHOOK_NR_SPACES; i++)
		iohook_remove_range(i, 0, ULONG_MAX);
}

static void store_exit(struct kunit *test)
{
	iohook_kunit_clear();
}

static int count_cb(const struct iohook_spec *spec, void *data)
{
	(*(int *)data)++;
	return 0;
}

static int count_test_range(void)
{
	int n = 0;

	iohook_for_each(IOHOOK_SPACE_MEM, T_BASE, T_LAST, count_cb, &n);
	return n;
}

static void iohook_test_overlap(struct kunit *test)
{
	struct iohook_spec a = SPEC(IOHOOK_SPACE_MEM, T_BASE + 0x10, 4, 0, 0xff, IOHOOK_RO);
	struct iohook_spec b = a;

	KUNIT_ASSERT_EQ(test, iohook_add(&a), 0);
	KUNIT_EXPECT_EQ(test, iohook_add(&a), -EEXIST);
	b.addr = T_BASE + 0x13;		/* last byte of a */
	KUNIT_EXPECT_EQ(test, iohook_add(&b), -EEXIST);
	b.addr = T_BASE + 0x0d;		/* ends on the first byte of a */
	KUNIT_EXPECT_EQ(test, iohook_add(&b), -EEXIST);
	b.addr = T_BASE + 0x14;		/* adjacent above */
	KUNIT_EXPECT_EQ(test, iohook_add(&b), 0);
	b.addr = T_BASE + 0x0c;		/* adjacent below */
	KUNIT_EXPECT_EQ(test, iohook_add(&b), 0);
	KUNIT_EXPECT_EQ(test, count_test_range(), 3);
}

static void iohook_test_add_all_or_nothing(struct kunit *test)
{
	struct iohook_spec specs[3] = {
		SPEC(IOHOOK_SPACE_MEM, T_BASE + 0x100, 1, 1, 1, IOHOOK_RW),
		SPEC(IOHOOK_SPACE_MEM, T_BASE + 0x200, 1, 1, 1, IOHOOK_RW),
		SPEC(IOHOOK_SPACE_MEM, T_BASE + 0x300, 1, 3, 1, IOHOOK_RW),
	};

	/* Third entry invalid: nothing is added. */
	KUNIT_EXPECT_EQ(test, iohook_add_many(specs, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, count_test_range(), 0);
	/* Third overlaps the first: nothing is added. */
	specs[2] = specs[0];
	KUNIT_EXPECT_EQ(test, iohook_add_many(specs, 3), -EEXIST);
	KUNIT_EXPECT_EQ(test, count_test_range(), 0);
	/* Third overlaps an existing override: nothing is added. */
	specs[2].addr = T_BASE + 0x400;
	KUNIT_ASSERT_EQ(test, iohook_add(&specs[2]), 0);
	KUNIT_EXPECT_EQ(test, iohook_add_many(specs, 3), -EEXIST);
	KUNIT_EXPECT_EQ(test, count_test_range(), 1);
	KUNIT_EXPECT_EQ(test, iohook_add_many(specs, 2), 0);
	KUNIT_EXPECT_EQ(test, count_test_range(), 3);
}

static void iohook_test_remove_lookup(struct kunit *test)
{
	struct iohook_spec a = SPEC(IOHOOK_SPACE_MEM, T_BASE + 0x20, 2, 0x0100, 0xff00, IOHOOK_WC);
	struct iohook_spec out;

	KUNIT_ASSERT_EQ(test, iohook_add(&a), 0);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, a.addr, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.len, 2U);
	KUNIT_EXPECT_EQ(test, out.mask, 0xff00ULL);
	KUNIT_EXPECT_EQ(test, out.value, 0x0100ULL);
	KUNIT_EXPECT_EQ(test, (int)out.attr, (int)IOHOOK_WC);
	/* Only the start names an override. */
	KUNIT_EXPECT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, a.addr + 1, NULL, &out), -ENOENT);
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, a.addr + 1, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, iohook_set_value(IOHOOK_SPACE_MEM, a.addr, NULL, 0x1), -EINVAL);
	KUNIT_EXPECT_EQ(test, iohook_set_value(IOHOOK_SPACE_MEM, a.addr, NULL, 0x8000), 0);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, a.addr, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.value, 0x8000ULL);
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, a.addr, NULL), 0);
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, a.addr, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, a.addr, NULL, &out), -ENOENT);
}

static void iohook_test_arming_keys(struct kunit *test)
{
	struct iohook_spec a = SPEC(IOHOOK_SPACE_MEM, T_BASE, 1, 1, 1, IOHOOK_RO);

	iohook_disarm();
	KUNIT_ASSERT_EQ(test, iohook_add(&a), 0);
	/* Staged: the key stays off until armed. */
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&iohook_mem_key));
	iohook_arm();
	KUNIT_EXPECT_TRUE(test, iohook_is_armed());
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&iohook_mem_key));
	/* An armed but empty space keeps its key off. */
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&iohook_io_key));
	iohook_disarm();
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&iohook_mem_key));
	iohook_arm();
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&iohook_mem_key));
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, a.addr, NULL), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&iohook_mem_key));
}

static void iohook_test_spanning_access(struct kunit *test)
{
	struct iohook_spec specs[2] = {
		/* byte 0: bit 7 only; byte 2-3: full */
		SPEC(IOHOOK_SPACE_MEM, 0x40, 1, 0x80, 0x80, IOHOOK_RO),
		SPEC(IOHOOK_SPACE_MEM, 0x42, 2, 0xabcd, 0xffff, IOHOOK_RW),
	};
	struct iohook_spec out;
	struct iohook_ram ram;

	iohook_ram_init(test, &ram);
	iohook_ram_poke(&ram, 0x40, 4, 0x11223344);
	iohook_arm();
	KUNIT_ASSERT_EQ(test, iohook_ram_add(&ram, specs, 2), 0);
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&ram, 0x40, 4), 0xabcd33c4ULL);
	/*
	 * A write across both: rw takes bytes 2-3, ro ignores, and every
	 * covered bit goes to the hardware as 0, ro and rw too.
	 */
	iohook_ram_write(&ram, 0x40, 4, 0x12345678);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&ram, 0x40, 4), 0x5678ULL);
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&ram, 0x42, 2), 0x1234ULL);
	/* A gap between overrides reads the hardware, and hits nothing. */
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&ram, 0x41, 1), 0x56ULL);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, specs[0].addr, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.hits, 2ULL);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, specs[1].addr, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.hits, 3ULL);
}

static void iohook_test_rc_wc_hits(struct kunit *test)
{
	struct iohook_spec specs[2] = {
		SPEC(IOHOOK_SPACE_MEM, 0x80, 4, 0x00000104, 0x0000ffff, IOHOOK_RC),
		SPEC(IOHOOK_SPACE_MEM, 0x90, 2, 0x0108, 0x0108, IOHOOK_WC),
	};
	struct iohook_spec out;
	struct iohook_ram ram;

	iohook_ram_init(test, &ram);
	iohook_ram_poke(&ram, 0x80, 4, 0);
	iohook_ram_poke(&ram, 0x90, 2, 0);
	iohook_arm();
	KUNIT_ASSERT_EQ(test, iohook_ram_add(&ram, specs, 2), 0);
	/* rc: a byte read clears that byte's bits only. */
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&ram, 0x80, 1), 0x04ULL);
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&ram, 0x80, 4), 0x0100ULL);
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&ram, 0x80, 4), 0ULL);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, specs[0].addr, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.hits, 3ULL);
	/* wc: writing 1 clears, 0 keeps; wc bits reach the hardware as 0. */
	iohook_ram_write(&ram, 0x90, 2, 0x00f8);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&ram, 0x90, 2), 0x00f0ULL);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, specs[1].addr, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.value, 0x0100ULL);
	iohook_ram_write(&ram, 0x91, 1, 0x01);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&ram, 0x91, 1), 0ULL);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, specs[1].addr, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.value, 0ULL);
	KUNIT_EXPECT_EQ(test, out.hits, 2ULL);
}

static void iohook_test_filter(struct kunit *test)
{
	struct iohook_spec a = SPEC(IOHOOK_SPACE_MEM, T_BASE + 0x5000, 4, 0, 1, IOHOOK_RO);
	struct iohook_spec big = SPEC(IOHOOK_SPACE_MEM, T_BASE + 0x100000, 0x2000000, 0, 0xff,
				      IOHOOK_RO);

	/* No override: the filter rules the access out. */
	KUNIT_EXPECT_FALSE(test, iohook_store_may_cover(IOHOOK_SPACE_MEM, T_BASE + 0x5000, 4));
	KUNIT_ASSERT_EQ(test, iohook_add(&a), 0);
	KUNIT_EXPECT_TRUE(test, iohook_store_may_cover(IOHOOK_SPACE_MEM, T_BASE + 0x5000, 4));
	/* An access that ends in the override's page. */
	KUNIT_EXPECT_TRUE(test, iohook_store_may_cover(IOHOOK_SPACE_MEM, T_BASE + 0x4ffc, 8));
	/* Wider than the filter: counted in every bucket, and back out. */
	KUNIT_ASSERT_EQ(test, iohook_add(&big), 0);
	KUNIT_EXPECT_TRUE(test, iohook_store_may_cover(IOHOOK_SPACE_MEM, T_BASE + 0x2000000, 1));
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, big.addr, NULL), 0);
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, a.addr, NULL), 0);
	KUNIT_EXPECT_FALSE(test, iohook_store_may_cover(IOHOOK_SPACE_MEM, T_BASE + 0x5000, 4));
	KUNIT_EXPECT_FALSE(test, iohook_store_may_cover(IOHOOK_SPACE_MEM, T_BASE + 0x2000000, 1));
}

static struct kunit_case iohook_store_cases[] = {
	KUNIT_CASE_PARAM(iohook_test_validate, iohook_validate_gen_params),
	KUNIT_CASE(iohook_test_overlap),
	KUNIT_CASE(iohook_test_add_all_or_nothing),
	KUNIT_CASE(iohook_test_remove_lookup),
	KUNIT_CASE(iohook_test_arming_keys),
	KUNIT_CASE(iohook_test_spanning_access),
	KUNIT_CASE(iohook_test_rc_wc_hits),
	KUNIT_CASE(iohook_test_filter),
	{}
};

static struct kunit_suite iohook_store_suite = {
	.name = "iohook_store",
	.init = store_init,
	.exit = store_exit,
	.test_cases = iohook_store_cases,
};

kunit_test_suite(iohook_store_suite);

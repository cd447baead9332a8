// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of parse.c, the text format of an override entry: every
 * character of a location is checked, so that a typo never names
 * another device, BAR or offset.
 */
#include <kunit/test.h>
#include <linux/pci.h>

#include "parse.h"

struct iohook_loc_case {
	const char *text;
	int expect;
	enum iohook_loc kind;
	u32 domain;
	u8 bus;
	u8 devfn;
	unsigned int bar;
	u64 offset;
};

#define LOC_OK(t, k, d, b, df, br, o) \
	{ .text = (t), .kind = (k), .domain = (d), .bus = (b), .devfn = (df), \
	  .bar = (br), .offset = (o) }
#define LOC_BAD(t)	{ .text = (t), .expect = -EINVAL }

static const struct iohook_loc_case loc_cases[] = {
	LOC_OK("6e", IOHOOK_LOC_ADDR, 0, 0, 0, 0, 0x6e),
	LOC_OK("0x6E", IOHOOK_LOC_ADDR, 0, 0, 0, 0, 0x6e),
	LOC_OK("bar0+8", IOHOOK_LOC_BAR, 0, 0, 0, 0, 8),
	LOC_OK("bar5+0x1f", IOHOOK_LOC_BAR, 0, 0, 0, 5, 0x1f),
	LOC_OK("0000:00:1c.0+6e", IOHOOK_LOC_PCI, 0, 0, PCI_DEVFN(0x1c, 0), 0, 0x6e),
	LOC_OK("abcd:ff:1f.7+fff", IOHOOK_LOC_PCI, 0xabcd, 0xff, PCI_DEVFN(0x1f, 7), 0, 0xfff),
	/* VMD domains print with five digits: their names must parse. */
	LOC_OK("10000:e1:00.0+10", IOHOOK_LOC_PCI, 0x10000, 0xe1, 0, 0, 0x10),
	LOC_BAD(""),
	LOC_BAD("+6e"),			/* no sign */
	LOC_BAD("0x+6e"),
	LOC_BAD("6e+"),
	LOC_BAD("zz"),
	LOC_BAD("bar0++8"),		/* sign on the offset */
	LOC_BAD("bar6+0"),
	LOC_BAD("bar0+"),
	LOC_BAD("bar+0"),
	LOC_BAD("bar00+0"),
	LOC_BAD("0000:0x:1c.0+6e"),	/* "0x" inside a field */
	LOC_BAD("0000:00:0x.0+6e"),
	LOC_BAD("0000:00:1x.0+6e"),	/* only the first digit checked */
	LOC_BAD("0000:00:1c.x+6e"),
	LOC_BAD("000:00:1c.0+6e"),	/* short domain */
	LOC_BAD("0000:0:1c.0+6e"),
	LOC_BAD("0000:00:1c.00+6e"),
	LOC_BAD("0000:00:20.0+6e"),	/* device 0x20 */
	LOC_BAD("0000:00:1c.8+6e"),	/* function 8 */
	LOC_BAD("123456789:00:1c.0+6e"),	/* nine-digit domain */
	LOC_BAD("0000:00:1c.0+-1"),
	LOC_BAD("0000:00:1c.0"),
};

static void loc_case_desc(const struct iohook_loc_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->text);
}

KUNIT_ARRAY_PARAM(iohook_loc, loc_cases, loc_case_desc);

static void iohook_test_parse_location(struct kunit *test)
{
	const struct iohook_loc_case *c = test->param_value;
	struct iohook_location loc;
	int ret = iohook_parse_location(c->text, &loc);

	KUNIT_ASSERT_EQ(test, ret, c->expect);
	if (ret)
		return;
	KUNIT_EXPECT_EQ(test, (int)loc.kind, (int)c->kind);
	KUNIT_EXPECT_EQ(test, loc.domain, c->domain);
	KUNIT_EXPECT_EQ(test, loc.bus, c->bus);
	KUNIT_EXPECT_EQ(test, loc.devfn, c->devfn);
	KUNIT_EXPECT_EQ(test, loc.bar, c->bar);
	KUNIT_EXPECT_EQ(test, loc.offset, c->offset);
}

static void iohook_test_parse_entry(struct kunit *test)
{
	static const char * const bad[] = {
		"6e 1 48 ff",		/* missing attribute */
		"6e 1 48 ff wc x",	/* trailing garbage */
		"6e +1 48 ff wc",	/* sign */
		"6e 0 48 ff wc",	/* zero length */
		"6e 1 48 ff WC",
		"6e 1 0x ff wc",
		"6e 100000000 0 ff ro",	/* length past 32 bits */
	};
	struct iohook_entry e;
	char line[64];
	int i;

	strscpy(line, "6e 1 48 ff wc", sizeof(line));
	KUNIT_ASSERT_EQ(test, iohook_parse_entry(line, &e), 0);
	KUNIT_EXPECT_EQ(test, e.loc.offset, 0x6eULL);
	KUNIT_EXPECT_EQ(test, e.len, 1U);
	KUNIT_EXPECT_EQ(test, e.value, 0x48ULL);
	KUNIT_EXPECT_EQ(test, e.mask, 0xffULL);
	KUNIT_EXPECT_EQ(test, (int)e.attr, (int)IOHOOK_WC);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		strscpy(line, bad[i], sizeof(line));
		KUNIT_EXPECT_EQ_MSG(test, iohook_parse_entry(line, &e), -EINVAL,
				    "\"%s\"", bad[i]);
	}
}

/* The options: a condition and the fault policies. */
static void iohook_test_parse_options(struct kunit *test)
{
	static const struct {
		const char *text;
		int expect;
	} bad[] = {
		{ "bar0+20 4 0 4 ro sel=bar0+20=1", -EINVAL },	/* no width */
		{ "bar0+20 4 0 4 ro sel=bar0+20:4&0=1", -EINVAL },	/* mask 0 */
		{ "bar0+20 4 0 4 ro sel=bar0+20:0=1", -EINVAL },
		{ "bar0+20 4 0 4 ro sel=bar0+20:4&=1", -EINVAL },
		{ "bar0+20 4 0 4 ro sel=bar0+20:4=", -EINVAL },
		{ "bar0+20 4 0 4 ro sel=:4=1", -EINVAL },
		{ "bar0+20 4 0 4 ro skip=1 skip=2", -EINVAL },	/* twice */
		{ "bar0+20 4 0 4 ro count=0", -EINVAL },
		{ "bar0+20 4 0 4 ro count=-1", -EINVAL },
		{ "bar0+20 4 0 4 ro count=1x", -EINVAL },
		{ "bar0+20 4 0 4 ro seed=1", -EINVAL },		/* no prob */
		{ "bar0+20 4 0 4 ro prob=1", -EINVAL },
		{ "bar0+20 4 0 4 ro prob=1/0", -ERANGE },
		{ "bar0+20 4 0 4 ro prob=1/4294967296", -EINVAL },
		{ "bar0+20 4 0 4 ro when=1", -EINVAL },		/* unknown */
		{ "bar0+20 4 0 4 ro skip", -EINVAL },
		{ "bar0+20 4 0 4 ro skip=1 count=1 prob=1/2 seed=1 sel=0:1=0 x=1",
		  -EINVAL },
	};
	struct iohook_entry e;
	char line[96];
	int i;

	strscpy(line, "bar0+20 4 0 4 ro sel=bar0+20:4&3ff0000=210000", sizeof(line));
	KUNIT_ASSERT_EQ(test, iohook_parse_entry(line, &e), 0);
	KUNIT_EXPECT_TRUE(test, e.has_cond);
	KUNIT_EXPECT_EQ(test, (int)e.sel_loc.kind, (int)IOHOOK_LOC_BAR);
	KUNIT_EXPECT_EQ(test, e.sel_loc.offset, 0x20ULL);
	KUNIT_EXPECT_EQ(test, e.sel_width, 4ULL);
	KUNIT_EXPECT_EQ(test, e.sel_mask, 0x3ff0000ULL);
	KUNIT_EXPECT_EQ(test, e.cond_value, 0x210000ULL);

	/* A PCI name holds colons: the width is after the last one. */
	strscpy(line, "0000:00:02.0+44 1 0 1 ro sel=0000:00:02.0+40:4=7", sizeof(line));
	KUNIT_ASSERT_EQ(test, iohook_parse_entry(line, &e), 0);
	KUNIT_EXPECT_EQ(test, (int)e.sel_loc.kind, (int)IOHOOK_LOC_PCI);
	KUNIT_EXPECT_EQ(test, e.sel_loc.offset, 0x40ULL);
	KUNIT_EXPECT_EQ(test, e.sel_mask, 0ULL);	/* the whole width */
	KUNIT_EXPECT_EQ(test, e.cond_value, 7ULL);

	/* Policy numbers are counts: decimal unless "0x". */
	strscpy(line, "70 1 0 1 ro count=10 skip=0x10 prob=1/1000 seed=5", sizeof(line));
	KUNIT_ASSERT_EQ(test, iohook_parse_entry(line, &e), 0);
	KUNIT_EXPECT_FALSE(test, e.has_cond);
	KUNIT_EXPECT_EQ(test, e.policy.count, 10ULL);
	KUNIT_EXPECT_EQ(test, e.policy.skip, 16ULL);
	KUNIT_EXPECT_EQ(test, e.policy.prob_num, 1U);
	KUNIT_EXPECT_EQ(test, e.policy.prob_den, 1000U);
	KUNIT_EXPECT_EQ(test, e.policy.seed, 5ULL);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		strscpy(line, bad[i].text, sizeof(line));
		KUNIT_EXPECT_EQ_MSG(test, iohook_parse_entry(line, &e), bad[i].expect,
				    "\"%s\"", bad[i].text);
	}
}

static void iohook_test_parse_name(struct kunit *test)
{
	struct iohook_location loc;
	char tok[32];
	bool has;
	u64 when;

	strscpy(tok, "bar0+20@210000", sizeof(tok));
	KUNIT_ASSERT_EQ(test, iohook_parse_name(tok, &loc, &has, &when), 0);
	KUNIT_EXPECT_TRUE(test, has);
	KUNIT_EXPECT_EQ(test, when, 0x210000ULL);
	KUNIT_EXPECT_EQ(test, loc.offset, 0x20ULL);
	strscpy(tok, "6e", sizeof(tok));
	KUNIT_ASSERT_EQ(test, iohook_parse_name(tok, &loc, &has, &when), 0);
	KUNIT_EXPECT_FALSE(test, has);
	strscpy(tok, "6e@", sizeof(tok));
	KUNIT_EXPECT_EQ(test, iohook_parse_name(tok, &loc, &has, &when), -EINVAL);
	strscpy(tok, "6e@1@2", sizeof(tok));
	KUNIT_EXPECT_EQ(test, iohook_parse_name(tok, &loc, &has, &when), -EINVAL);
}

/* The integer files' numbers: one spelling each. */
static void iohook_test_parse_dec(struct kunit *test)
{
	static const char * const bad[] = {
		"", "\n", "+1", "-1", "01", "0001", "010", "0x1", " 1", "1 ",
		"1\n\n", "4294967296", "1x",
	};
	unsigned int v, i;

	KUNIT_EXPECT_EQ(test, iohook_parse_dec("0", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0U);
	KUNIT_EXPECT_EQ(test, iohook_parse_dec("1\n", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1U);
	KUNIT_EXPECT_EQ(test, iohook_parse_dec("4294967295", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 4294967295U);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, iohook_parse_dec(bad[i], &v), -EINVAL,
				    "\"%s\"", bad[i]);
}

static struct kunit_case iohook_parse_cases[] = {
	KUNIT_CASE_PARAM(iohook_test_parse_location, iohook_loc_gen_params),
	KUNIT_CASE(iohook_test_parse_entry),
	KUNIT_CASE(iohook_test_parse_options),
	KUNIT_CASE(iohook_test_parse_name),
	KUNIT_CASE(iohook_test_parse_dec),
	{}
};

static struct kunit_suite iohook_parse_suite = {
	.name = "iohook_parse",
	.test_cases = iohook_parse_cases,
};

kunit_test_suite(iohook_parse_suite);

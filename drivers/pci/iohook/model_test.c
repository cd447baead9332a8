// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of register models without BPF: a model whose ops are C
 * functions, registered as the struct_ops glue registers a BPF one, and
 * bound to the RAM stand-in (kunit_ram.h), which plays the hardware.
 * They check what the access path makes of each answer (PASS, DONE, a
 * failure), the kfuncs' effect on the hardware, the order against
 * overrides on the same bits, arming, and the binding's errors.
 */
#include <kunit/test.h>
#include <linux/iohook_model.h>
#include <linux/gfp.h>
#include <linux/string.h>

#include "kunit_ram.h"
#include "model.h"

static struct iohook_ram m_ram;

/* What the test model does, set by each case. */
enum mt_mode { MT_PASS, MT_VALUE, MT_DONE_EMPTY, MT_FAIL, MT_HW_PLUS_ONE,
	       MT_HW_WRITE, MT_CHANGE, MT_NESTED };

static enum mt_mode mt_mode;
static unsigned int mt_calls, mt_attaches;
static bool mt_refuse;
/* What the kfuncs answered attach, which has no access. */
static int mt_attach_fire, mt_attach_write;
static u64 mt_attach_read;

static int mt_attach(struct iohook_model_ctx *ctx)
{
	mt_attaches++;
	mt_attach_fire = bpf_iohook_fire_irq(ctx, 0);
	mt_attach_write = bpf_iohook_hw_write(ctx, 0);
	mt_attach_read = bpf_iohook_hw_read(ctx);
	return mt_refuse ? -EPERM : 0;
}

static int mt_read(struct iohook_model_ctx *ctx)
{
	mt_calls++;
	switch (mt_mode) {
	case MT_VALUE:
		bpf_iohook_set_value(ctx, 0x11223300 + ctx->offset);
		return IOHOOK_MODEL_DONE;
	case MT_DONE_EMPTY:
		return IOHOOK_MODEL_DONE;
	case MT_FAIL:
		return -EIO;
	case MT_HW_PLUS_ONE:
		bpf_iohook_set_value(ctx, bpf_iohook_hw_read(ctx) + 1);
		return IOHOOK_MODEL_DONE;
	case MT_NESTED:
		/* A helper that reaches a hooked register: its own, here. */
		bpf_iohook_set_value(ctx, iohook_ram_read(&m_ram, ctx->offset,
							  ctx->width) + 2);
		return IOHOOK_MODEL_DONE;
	default:
		return IOHOOK_MODEL_PASS;
	}
}

static int mt_write(struct iohook_model_ctx *ctx)
{
	mt_calls++;
	switch (mt_mode) {
	case MT_VALUE:
		return IOHOOK_MODEL_DONE;	/* swallowed */
	case MT_FAIL:
		return -EIO;
	case MT_HW_WRITE:
		bpf_iohook_hw_write(ctx, ctx->val | 0x100);
		return IOHOOK_MODEL_PASS;
	case MT_CHANGE:
		bpf_iohook_set_value(ctx, ctx->val ^ 0xff);
		return IOHOOK_MODEL_PASS;
	default:
		return IOHOOK_MODEL_PASS;
	}
}

static struct iohook_model_ops mt_ops = {
	.attach = mt_attach,
	.read = mt_read,
	.write = mt_write,
	.name = "kunit_model",
};

static struct iohook_model_ops mt_other = {
	.name = "kunit_other",
};

/* A counter of @name's line in the models list ("errors", ...), or -1. */
static long long mt_count(const char *name, const char *counter)
{
	char *buf = (char *)get_zeroed_page(GFP_KERNEL), *p, *line, key[24];
	size_t n = strlen(name);
	long long v = -1;

	if (!buf)
		return -1;
	iohook_model_show(buf, NULL);
	snprintf(key, sizeof(key), " %s=", counter);
	p = buf;
	while ((line = strsep(&p, "\n"))) {
		if (strncmp(line, name, n) || line[n] != ' ')
			continue;
		line = strstr(line, key);
		if (line && sscanf(line + strlen(key), "%lld", &v) != 1)
			v = -1;
	}
	free_page((unsigned long)buf);
	return v;
}

static int model_init(struct kunit *test)
{
	iohook_ram_init(test, &m_ram);
	mt_mode = MT_PASS;
	mt_calls = 0;
	mt_attaches = 0;
	mt_refuse = false;
	KUNIT_ASSERT_EQ(test, iohook_model_register(&mt_ops), 0);
	return 0;
}

static void model_exit(struct kunit *test)
{
	iohook_model_unregister(&mt_ops);
	iohook_model_unregister(&mt_other);
	iohook_kunit_clear();
}

/* Bind the test model to the stand-in's first 16 bytes and arm. */
static void mt_bind(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, iohook_model_attach("kunit_model", IOHOOK_SPACE_MEM,
						  m_ram.phys, m_ram.phys + 15), 0);
	iohook_arm();
}

static void iohook_test_model_read_answers(struct kunit *test)
{
	iohook_ram_poke(&m_ram, 0, 4, 0xaabbccdd);
	iohook_ram_poke(&m_ram, 16, 4, 0x01020304);
	mt_bind(test);

	mt_mode = MT_PASS;
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 4), 0xaabbccddULL);
	mt_mode = MT_VALUE;
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 4, 4), 0x11223304ULL);
	/* Cut to the access's width. */
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 4, 1), 0x04ULL);
	mt_mode = MT_HW_PLUS_ONE;
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 4), 0xaabbccdeULL);
	/* Failures: the hardware answers, and they count. */
	mt_mode = MT_DONE_EMPTY;
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 4), 0xaabbccddULL);
	mt_mode = MT_FAIL;
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 2), 0xccddULL);
	KUNIT_EXPECT_EQ(test, mt_count("kunit_model", "errors"), 2LL);
	KUNIT_EXPECT_EQ(test, mt_count("kunit_model", "reads"), 6LL);
	/* Outside the range: the hardware, and the model never called. */
	mt_calls = 0;
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 16, 4), 0x01020304ULL);
	KUNIT_EXPECT_EQ(test, mt_calls, 0U);
	/* Disarmed: the hardware. */
	iohook_disarm();
	mt_mode = MT_VALUE;
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 4), 0xaabbccddULL);
	KUNIT_EXPECT_EQ(test, mt_calls, 0U);
}

static void iohook_test_model_write_answers(struct kunit *test)
{
	mt_bind(test);

	mt_mode = MT_PASS;
	iohook_ram_write(&m_ram, 0, 4, 0x12345678);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&m_ram, 0, 4), 0x12345678ULL);
	mt_mode = MT_VALUE;		/* swallowed */
	iohook_ram_write(&m_ram, 0, 4, 0x0badf00d);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&m_ram, 0, 4), 0x12345678ULL);
	mt_mode = MT_CHANGE;
	iohook_ram_write(&m_ram, 0, 1, 0x0f);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&m_ram, 0, 1), 0xf0ULL);
	mt_mode = MT_HW_WRITE;		/* the model's write, and only it */
	iohook_ram_write(&m_ram, 4, 2, 0x0042);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&m_ram, 4, 2), 0x0142ULL);
	mt_mode = MT_FAIL;		/* the driver's value reaches the hardware */
	iohook_ram_write(&m_ram, 8, 4, 0xcafe);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&m_ram, 8, 4), 0xcafeULL);
	KUNIT_EXPECT_EQ(test, mt_count("kunit_model", "writes"), 5LL);
	KUNIT_EXPECT_EQ(test, mt_count("kunit_model", "errors"), 1LL);
}

/* Overrides apply on top of a model as on top of the hardware. */
static void iohook_test_model_under_override(struct kunit *test)
{
	struct iohook_spec s = { .space = IOHOOK_SPACE_MEM, .addr = 0, .len = 1,
				 .value = 0x5a, .mask = 0xff, .attr = IOHOOK_RO };

	KUNIT_ASSERT_EQ(test, iohook_ram_add(&m_ram, &s, 1), 0);
	mt_bind(test);
	mt_mode = MT_VALUE;
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 4), 0x1122335aULL);
	KUNIT_EXPECT_EQ(test, mt_calls, 1U);
	/* A read the override covers whole never reaches the model. */
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 1), 0x5aULL);
	KUNIT_EXPECT_EQ(test, mt_calls, 1U);
	/* A write: the overridden byte reaches the model as 0, as a device. */
	mt_mode = MT_PASS;
	iohook_ram_write(&m_ram, 0, 2, 0x7777);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&m_ram, 0, 2), 0x7700ULL);
}

static void iohook_test_model_binding(struct kunit *test)
{
	u64 a = m_ram.phys;

	KUNIT_EXPECT_EQ(test, iohook_model_attach("nosuch", IOHOOK_SPACE_MEM, a, a),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, iohook_model_register(&mt_ops), -EEXIST);
	mt_refuse = true;
	KUNIT_EXPECT_EQ(test, iohook_model_attach("kunit_model", IOHOOK_SPACE_MEM,
						  a, a + 7), -ECANCELED);
	mt_refuse = false;
	KUNIT_ASSERT_EQ(test, iohook_model_attach("kunit_model", IOHOOK_SPACE_MEM,
						  a, a + 7), 0);
	KUNIT_EXPECT_EQ(test, iohook_model_attach("kunit_model", IOHOOK_SPACE_MEM,
						  a + 8, a + 9), -EBUSY);
	KUNIT_ASSERT_EQ(test, iohook_model_register(&mt_other), 0);
	/* Overlapping another model's range, by one byte. */
	KUNIT_EXPECT_EQ(test, iohook_model_attach("kunit_other", IOHOOK_SPACE_MEM,
						  a + 7, a + 9), -EBUSY);
	KUNIT_EXPECT_EQ(test, iohook_model_attach("kunit_other", IOHOOK_SPACE_MEM,
						  a + 8, a + 9), 0);
	/* Unregistering a bound model unbinds it: the hardware answers. */
	iohook_ram_poke(&m_ram, 0, 4, 0x600df00d);
	iohook_arm();
	mt_mode = MT_VALUE;
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 4), 0x11223300ULL);
	iohook_model_unregister(&mt_ops);
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 4), 0x600df00dULL);
	KUNIT_EXPECT_EQ(test, iohook_model_detach("kunit_other"), 0);
	KUNIT_EXPECT_EQ(test, iohook_model_detach("kunit_other"), -ENOENT);
	KUNIT_EXPECT_EQ(test, mt_count("kunit_other", "reads"), -1LL);
}

/*
 * An access a model's op makes to a hooked register -- its own, as a
 * clock read is when the model sits on the clocksource -- goes to the
 * hardware and counts as nested: the model is not entered again.
 */
static void iohook_test_model_nested_access(struct kunit *test)
{
	iohook_ram_poke(&m_ram, 0, 4, 0x10);
	mt_bind(test);
	mt_mode = MT_NESTED;
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 4), 0x12ULL);
	KUNIT_EXPECT_EQ(test, mt_calls, 1U);
	KUNIT_EXPECT_EQ(test, mt_count("kunit_model", "nested"), 1LL);
	KUNIT_EXPECT_EQ(test, mt_count("kunit_model", "reads"), 2LL);
	/* Once the op returned, the next access reaches the model again. */
	KUNIT_EXPECT_EQ(test, iohook_ram_read(&m_ram, 0, 4), 0x12ULL);
	KUNIT_EXPECT_EQ(test, mt_calls, 2U);
}

/* attach has no access: the kfuncs refuse, and nothing is queued. */
static void iohook_test_model_kfuncs_need_access(struct kunit *test)
{
	mt_bind(test);
	KUNIT_EXPECT_EQ(test, mt_attach_fire, -EINVAL);
	KUNIT_EXPECT_EQ(test, mt_attach_write, -EINVAL);
	KUNIT_EXPECT_EQ(test, mt_attach_read, ~0ULL);
}

/* Refused bindings never run the attach op: all is checked before. */
static void iohook_test_model_bind_checks_first(struct kunit *test)
{
	struct iohook_model_owner owner = {};
	u64 a = m_ram.phys;

	KUNIT_ASSERT_EQ(test, iohook_model_register(&mt_other), 0);
	KUNIT_ASSERT_EQ(test, iohook_model_attach("kunit_other", IOHOOK_SPACE_MEM,
						  a + 4, a + 5), 0);
	KUNIT_EXPECT_EQ(test, iohook_model_attach("kunit_model", IOHOOK_SPACE_MEM,
						  a, a + 4), -EBUSY);
	KUNIT_EXPECT_EQ(test, iohook_model_attach("kunit_model", IOHOOK_SPACE_MEM,
						  a + 8, a + 7), -EINVAL);
	/* A closed owner (its device going away) binds nothing. */
	iohook_model_close_owner(&owner);
	KUNIT_EXPECT_EQ(test, iohook_model_bind("kunit_model", IOHOOK_SPACE_MEM,
						a, a, NULL, &owner, "0"), -ENODEV);
	KUNIT_EXPECT_EQ(test, mt_attaches, 0U);
	KUNIT_EXPECT_EQ(test, iohook_model_detach("kunit_other"), 0);
}

static struct kunit_case iohook_model_cases[] = {
	KUNIT_CASE(iohook_test_model_read_answers),
	KUNIT_CASE(iohook_test_model_write_answers),
	KUNIT_CASE(iohook_test_model_under_override),
	KUNIT_CASE(iohook_test_model_binding),
	KUNIT_CASE(iohook_test_model_nested_access),
	KUNIT_CASE(iohook_test_model_kfuncs_need_access),
	KUNIT_CASE(iohook_test_model_bind_checks_first),
	{}
};

static struct kunit_suite iohook_model_suite = {
	.name = "iohook_model",
	.init = model_init,
	.exit = model_exit,
	.test_cases = iohook_model_cases,
};

kunit_test_suite(iohook_model_suite);

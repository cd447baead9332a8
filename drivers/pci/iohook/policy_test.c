// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of fault policies: the exact access numbers skip and count
 * apply to, exhaustion and its reset at arm, the probability policy's
 * reproducibility and rate, policies behind a condition, validation, and
 * count under two CPUs at once. Every access goes through the real MMIO
 * access path onto a RAM stand-in (kunit_ram.h).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>

#include "kunit_ram.h"
#include "policy.h"

/* The stand-in of the current case, made by policy_init(). */
static struct iohook_ram p_ram;
#define P_BASE		(p_ram.phys)

#define POL(a, sk, cn, pn, pd, sd) \
	{ .space = IOHOOK_SPACE_MEM, .addr = (a), .len = 4, .value = 0x5a, \
	  .mask = 0xff, .attr = IOHOOK_RO, \
	  .policy = { .skip = (sk), .count = (cn), .prob_num = (pn), \
		      .prob_den = (pd), .seed = (sd) } }

/* Whether a read at @addr applied the override: its byte is 0x5a. */
static bool read_applied(u64 addr)
{
	return (iohook_ram_read(&p_ram, addr - P_BASE, 4) & 0xff) == 0x5a;
}

/* Read @n times; bit i of the result says whether access i + 1 applied. */
static u64 read_pattern(u64 addr, unsigned int n)
{
	u64 pattern = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (read_applied(addr))
			pattern |= BIT_ULL(i);
	return pattern;
}

static void iohook_test_policy_skip_count(struct kunit *test)
{
	struct iohook_spec s = POL(P_BASE, 2, 3, 0, 0, 0), out;

	KUNIT_ASSERT_EQ(test, iohook_add(&s), 0);
	iohook_arm();
	/* Accesses 3, 4 and 5 apply: reads and writes count alike. */
	KUNIT_EXPECT_EQ(test, read_pattern(P_BASE, 3), 0x4ULL);
	/* Applied, the write's overridden byte reaches the hardware as 0. */
	iohook_ram_write(&p_ram, 0, 4, 0xffffffff);
	KUNIT_EXPECT_EQ(test, iohook_ram_peek(&p_ram, 0, 4), 0xffffff00ULL);
	KUNIT_EXPECT_EQ(test, read_pattern(P_BASE, 6), 0x1ULL);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, P_BASE, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.seen, 10ULL);
	KUNIT_EXPECT_EQ(test, out.applied, 3ULL);
	KUNIT_EXPECT_EQ(test, out.hits, 3ULL);
	KUNIT_EXPECT_TRUE(test, iohook_spec_exhausted(&out));

	/* Exhausted, it stays listed until removed or re-armed. */
	iohook_disarm();
	iohook_arm();
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, P_BASE, NULL, &out), 0);
	KUNIT_EXPECT_FALSE(test, iohook_spec_exhausted(&out));
	KUNIT_EXPECT_EQ(test, out.seen, 0ULL);
	KUNIT_EXPECT_EQ(test, read_pattern(P_BASE, 8), 0x1cULL);
	/* hits keep counting across arms. */
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, P_BASE, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.hits, 6ULL);
}

static void iohook_test_policy_count_only(struct kunit *test)
{
	struct iohook_spec s = POL(P_BASE, 0, 1, 0, 0, 0);

	KUNIT_ASSERT_EQ(test, iohook_add(&s), 0);
	iohook_arm();
	KUNIT_EXPECT_EQ(test, read_pattern(P_BASE, 4), 0x1ULL);
}

static void iohook_test_policy_skip_only(struct kunit *test)
{
	struct iohook_spec s = POL(P_BASE, 5, 0, 0, 0, 0);

	KUNIT_ASSERT_EQ(test, iohook_add(&s), 0);
	iohook_arm();
	KUNIT_EXPECT_EQ(test, read_pattern(P_BASE, 8), 0xe0ULL);
}

/* The choices are iohook_policy_pick()'s, a function of seed and number. */
static void iohook_test_policy_prob_reproducible(struct kunit *test)
{
	struct iohook_spec s = POL(P_BASE, 0, 0, 1, 3, 42);
	u64 first, again, expect = 0;
	unsigned int i;

	for (i = 0; i < 64; i++)
		if (iohook_policy_pick(42, i + 1, 1, 3))
			expect |= BIT_ULL(i);
	KUNIT_ASSERT_EQ(test, iohook_add(&s), 0);
	iohook_arm();
	first = read_pattern(P_BASE, 64);
	KUNIT_EXPECT_EQ(test, first, expect);
	/* Re-armed: the same sequence again. */
	iohook_arm();
	again = read_pattern(P_BASE, 64);
	KUNIT_EXPECT_EQ(test, again, first);
	/* Another seed, another sequence. */
	KUNIT_EXPECT_EQ(test, iohook_remove(IOHOOK_SPACE_MEM, P_BASE, NULL), 0);
	s.policy.seed = 43;
	KUNIT_ASSERT_EQ(test, iohook_add(&s), 0);
	iohook_arm();
	KUNIT_EXPECT_NE(test, read_pattern(P_BASE, 64), first);
}

static void iohook_test_policy_prob_rate(struct kunit *test)
{
	unsigned int i, hits = 0, all = 0, none = 0;

	for (i = 1; i <= 40000; i++) {
		hits += iohook_policy_pick(7, i, 1, 4);
		all += iohook_policy_pick(7, i, 5, 5);
		none += iohook_policy_pick(7, i, 0, 5);
	}
	/* 10000 expected; 5 sigma is about 430. */
	KUNIT_EXPECT_GT(test, hits, 9500U);
	KUNIT_EXPECT_LT(test, hits, 10500U);
	KUNIT_EXPECT_EQ(test, all, 40000U);
	KUNIT_EXPECT_EQ(test, none, 0U);
}

static void iohook_test_policy_prob_count(struct kunit *test)
{
	struct iohook_spec s = POL(P_BASE, 0, 3, 1, 2, 9), out;

	KUNIT_ASSERT_EQ(test, iohook_add(&s), 0);
	iohook_arm();
	read_pattern(P_BASE, 64);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, P_BASE, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.applied, 3ULL);
	KUNIT_EXPECT_EQ(test, out.seen, 64ULL);
}

/* Only accesses while the condition holds count. */
static void iohook_test_policy_with_cond(struct kunit *test)
{
	struct iohook_spec s = POL(P_BASE + 4, 1, 1, 0, 0, 0), out;

	s.cond = (struct iohook_cond){ .width = 4, .sel = P_BASE, .mask = 0xff,
				       .value = 7 };
	KUNIT_ASSERT_EQ(test, iohook_add(&s), 0);
	iohook_arm();
	iohook_ram_write(&p_ram, 0, 4, 6);
	KUNIT_EXPECT_EQ(test, read_pattern(P_BASE + 4, 4), 0ULL);
	iohook_ram_write(&p_ram, 0, 4, 7);
	KUNIT_EXPECT_EQ(test, read_pattern(P_BASE + 4, 4), 0x2ULL);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, P_BASE + 4, &(u64){7}, &out), 0);
	KUNIT_EXPECT_EQ(test, out.seen, 4ULL);
}

static void iohook_test_policy_validate(struct kunit *test)
{
	struct iohook_spec s = POL(P_BASE, 0, 0, 0, 0, 0);

	KUNIT_EXPECT_EQ(test, iohook_validate(&s), 0);
	s.policy.prob_num = 1;
	KUNIT_EXPECT_EQ(test, iohook_validate(&s), -ERANGE);	/* den 0 */
	s.policy.prob_den = 1;
	KUNIT_EXPECT_EQ(test, iohook_validate(&s), 0);
	s.policy.prob_num = 2;
	KUNIT_EXPECT_EQ(test, iohook_validate(&s), -ERANGE);	/* > 1 */
	s.policy.prob_num = 0;
	KUNIT_EXPECT_EQ(test, iohook_validate(&s), -ERANGE);	/* 0 */
}

struct count_racer {
	u64 addr;
	unsigned int applied;
	bool done;
};

static int count_racer_fn(void *data)
{
	struct count_racer *r = data;
	unsigned int i;

	for (i = 0; i < 20000; i++) {
		r->applied += read_applied(r->addr);
		if (!(i % 256))
			cond_resched();
	}
	WRITE_ONCE(r->done, true);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Two CPUs at once: count is never exceeded, and nothing is lost. */
static void iohook_test_policy_count_race(struct kunit *test)
{
	struct iohook_spec s = POL(P_BASE, 100, 5000, 0, 0, 0), out;
	struct count_racer r[2] = { { .addr = P_BASE }, { .addr = P_BASE } };
	struct task_struct *t[2];
	int i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_ASSERT_EQ(test, iohook_add(&s), 0);
	iohook_arm();
	for (i = 0; i < 2; i++) {
		t[i] = kthread_create(count_racer_fn, &r[i], "iohook-count%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
		kthread_bind(t[i], i);
		wake_up_process(t[i]);
	}
	for (i = 0; i < 2; i++) {
		while (!READ_ONCE(r[i].done))
			msleep(20);
		kthread_stop(t[i]);
	}
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, P_BASE, NULL, &out), 0);
	KUNIT_EXPECT_EQ(test, out.seen, 40000ULL);
	KUNIT_EXPECT_EQ(test, out.applied, 5000ULL);
	KUNIT_EXPECT_EQ(test, r[0].applied + r[1].applied, 5000U);
}

struct rearm_reader {
	u64 addr;
	unsigned long reads;
};

static int rearm_reader_fn(void *data)
{
	struct rearm_reader *r = data;

	while (!kthread_should_stop()) {
		read_applied(r->addr);
		r->reads++;
		if (!(r->reads % 256))
			cond_resched();
	}
	return 0;
}

/*
 * Arming while armed restarts the counts with no access in between
 * (issue 31, defect 7): with a count that is never used up, every access
 * applies, so however a re-arm falls among the accesses of another CPU,
 * the run's applied equals its seen. Resetting seen and then applied
 * under running accesses counted one access in one and not the other.
 */
static void iohook_test_policy_rearm_race(struct kunit *test)
{
	struct iohook_spec s = POL(P_BASE, 0, 1ULL << 40, 0, 0, 0), out;
	struct rearm_reader r = { .addr = P_BASE };
	unsigned long end, rearms = 0;
	struct task_struct *t;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_ASSERT_EQ(test, iohook_add(&s), 0);
	iohook_arm();
	t = kthread_create(rearm_reader_fn, &r, "iohook-rearm");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, cpumask_last(cpu_online_mask));
	wake_up_process(t);
	end = jiffies + 2 * HZ;
	while (time_before(jiffies, end)) {
		iohook_arm();
		rearms++;
	}
	kthread_stop(t);
	KUNIT_ASSERT_EQ(test, iohook_lookup(IOHOOK_SPACE_MEM, P_BASE, NULL, &out), 0);
	KUNIT_EXPECT_GT(test, r.reads, 0UL);
	KUNIT_EXPECT_EQ_MSG(test, out.applied, out.seen, "%lu re-arms, %lu reads",
			    rearms, r.reads);
}

static int policy_init(struct kunit *test)
{
	iohook_ram_init(test, &p_ram);
	return 0;
}

static void policy_exit(struct kunit *test)
{
	iohook_kunit_clear();
}

static struct kunit_case iohook_policy_cases[] = {
	KUNIT_CASE(iohook_test_policy_skip_count),
	KUNIT_CASE(iohook_test_policy_count_only),
	KUNIT_CASE(iohook_test_policy_skip_only),
	KUNIT_CASE(iohook_test_policy_prob_reproducible),
	KUNIT_CASE(iohook_test_policy_prob_rate),
	KUNIT_CASE(iohook_test_policy_prob_count),
	KUNIT_CASE(iohook_test_policy_with_cond),
	KUNIT_CASE(iohook_test_policy_validate),
	KUNIT_CASE(iohook_test_policy_count_race),
	KUNIT_CASE(iohook_test_policy_rearm_race),
	{}
};

static struct kunit_suite iohook_policy_suite = {
	.name = "iohook_policy",
	.init = policy_init,
	.exit = policy_exit,
	.test_cases = iohook_policy_cases,
};

kunit_test_suite(iohook_policy_suite);

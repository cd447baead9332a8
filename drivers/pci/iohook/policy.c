// SPDX-License-Identifier: GPL-2.0
/*
 * Fault policies: which of the accesses that touch an override it
 * applies to. The model is illumos bofi's access counts and Linux's
 * fault_attr: skip the first N, then apply to the next M, with a
 * probability.
 *
 * Every access whose override would apply (armed, condition holding)
 * takes a number, 1, 2, 3... ("seen"). It is declined, and passes
 * through to the hardware as if the override were absent, when:
 * - its number is at most skip;
 * - the probability policy says no for that number;
 * - count overrides have already applied ("exhausted").
 * Otherwise it applies and counts in "applied".
 *
 * The probability choice is a pure function of the seed and the access
 * number (a SplitMix64 hash): no PRNG state is shared between CPUs, the
 * same seed and the same access sequence give the same choices, and the
 * choice for access N can be computed offline. Counting restarts at
 * every arm, so each armed run replays the same sequence.
 *
 * Lockless: two atomic operations per access, on overrides that have a
 * policy only.
 */
#include <linux/atomic.h>

#include "policy.h"

/* SplitMix64's finaliser (Steele, Lea, Flood, 2014). */
static u64 iohook_mix64(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * iohook_policy_pick() - the probability policy's choice for one access
 * @seed: the override's seed
 * @n: the access number, from 1
 * @num: probability numerator
 * @den: probability denominator, not 0
 *
 * Return: true with probability @num/@den over @n, the same for the same
 * @seed and @n.
 */
bool iohook_policy_pick(u64 seed, u64 n, u32 num, u32 den)
{
	u64 r = iohook_mix64(seed + n * 0x9e3779b97f4a7c15ULL) >> 32;

	/* Lemire's multiply-shift: uniform in [0, den) up to 2^-32. */
	return ((r * den) >> 32) < num;
}

/**
 * iohook_policy_init() - a new override's policy, counting from 0
 * @ps: the policy state in the new override
 * @policy: the policy asked for
 */
void iohook_policy_init(struct iohook_policy_state *ps,
			const struct iohook_policy *policy)
{
	ps->policy = *policy;
	ps->active = policy->skip || policy->count || policy->prob_den;
	atomic64_set(&ps->seen, 0);
	atomic64_set(&ps->applied, 0);
}

/**
 * iohook_policy_take() - count an access and decide whether it applies
 * @ps: the policy of an override whose condition holds for the access
 *
 * Return: true if the override applies to this access.
 */
bool iohook_policy_take(struct iohook_policy_state *ps)
{
	const struct iohook_policy *p = &ps->policy;
	u64 n;

	if (!ps->active)
		return true;
	n = atomic64_inc_return(&ps->seen);
	if (n <= p->skip)
		return false;
	if (p->prob_den && !iohook_policy_pick(p->seed, n, p->prob_num,
					       p->prob_den))
		return false;
	if (!p->count) {
		atomic64_inc(&ps->applied);
		return true;
	}
	/* Bounded, so concurrent accesses never apply it count + 1 times. */
	return atomic64_add_unless(&ps->applied, 1, p->count);
}

/**
 * iohook_policy_untake() - give back an access the hardware then failed
 * @ps: the policy iohook_policy_take() counted the access in
 * @applied: what iohook_policy_take() returned for it
 *
 * A config access to a removed device fails after the policy counted it:
 * the access did not happen, so it must not use up a count or a skip.
 */
void iohook_policy_untake(struct iohook_policy_state *ps, bool applied)
{
	if (!ps->active)
		return;
	atomic64_dec(&ps->seen);
	if (applied)
		atomic64_dec(&ps->applied);
}

/**
 * iohook_policy_reset() - start counting again, at arm
 * @ps: the policy state
 */
void iohook_policy_reset(struct iohook_policy_state *ps)
{
	atomic64_set(&ps->seen, 0);
	atomic64_set(&ps->applied, 0);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault policies (policy.c): which of the accesses that touch an
 * override it applies to. Lockless, for the access paths.
 */
#ifndef _DRIVERS_PCI_IOHOOK_POLICY_H
#define _DRIVERS_PCI_IOHOOK_POLICY_H

#include <linux/atomic.h>
#include <linux/iohook.h>
#include <linux/types.h>

/**
 * struct iohook_policy_state - a policy and its counts since the last arm
 * @policy: what the user asked for, fixed at creation
 * @active: whether @policy says anything (else every access applies)
 * @seen: accesses whose override would apply
 * @applied: of those, the ones it applied to
 */
struct iohook_policy_state {
	struct iohook_policy policy;
	bool active;
	atomic64_t seen;
	atomic64_t applied;
};

void iohook_policy_init(struct iohook_policy_state *ps,
			const struct iohook_policy *policy);
bool iohook_policy_take(struct iohook_policy_state *ps);
void iohook_policy_untake(struct iohook_policy_state *ps, bool applied);
bool iohook_policy_pick(u64 seed, u64 n, u32 num, u32 den);
void iohook_policy_reset(struct iohook_policy_state *ps);

#endif /* _DRIVERS_PCI_IOHOOK_POLICY_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the store keeps: an override, and the selector register its
 * condition names. Types only; store.c changes them, select.c records
 * selectors, the access path reads both under RCU.
 */
#ifndef _DRIVERS_PCI_IOHOOK_OVERRIDE_H
#define _DRIVERS_PCI_IOHOOK_OVERRIDE_H

#include <linux/atomic.h>
#include <linux/iohook.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include "policy.h"

/*
 * A selector register that conditions name: the last value written to it
 * through the hooked accessors while armed. Shared by every conditional
 * override that names the same address and width; lives in the space's
 * selector tree while any of them exists.
 */
struct iohook_selector {
	enum iohook_space space;
	u64 addr;
	u32 width;
	unsigned int users;	/* overrides naming it, under the store lock */
	atomic64_t rec;		/* recorded value, valid once @known */
	int known;
	struct list_head dead;
};

/*
 * One override as the store keeps it. Everything but @value, the
 * counters and @next is fixed at creation, so lockless readers need no
 * more than RCU. @value changes with atomic64 operations only, which
 * makes rc and wc updates atomic with respect to accesses on other CPUs.
 *
 * Overrides on the same bytes with conditions on the same selector (and
 * different values) share one tree entry: the first is in the tree, the
 * others follow it on @next, an RCU-protected list changed under the
 * store lock. At most one of them applies to an access.
 */
struct iohook_override {
	enum iohook_space space;
	enum iohook_attr attr;
	u64 start;
	u32 len;
	u64 mask;
	atomic64_t value;
	atomic64_t hits;
	unsigned int flags;
	struct iohook_selector *sel;	/* NULL: unconditional */
	u64 cmask, cval;		/* the condition on @sel */
	struct iohook_policy_state policy;
	struct iohook_override __rcu *next;
	struct list_head dead;	/* on a list of removed overrides */
};

#endif /* _DRIVERS_PCI_IOHOOK_OVERRIDE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The overrides, one maple tree per address space, and arming.
 *
 * This file owns all iohook state. Writers (add, remove, arm) run in
 * process context and are serialised by iohook_mutex; the trees are
 * RCU-safe, so the access paths look entries up under rcu_read_lock()
 * from any context.
 *
 * A space's static key is on only while iohook is armed and the space
 * holds at least one override, so an idle space costs its accessors a
 * NOP. The keys are only the gate to the slow path: x86 patches a key's
 * sites in batches, so while a key flips some sites branch and others do
 * not. What decides is iohook_armed, one flag that every slow path reads
 * inside its RCU read section. So:
 * - arming turns the keys on first (the slow paths still see "disarmed"
 *   and give the hardware view), then sets the flag: every site and
 *   space switches with that one store;
 * - disarming clears the flag, waits for a grace period, then turns the
 *   keys off: when it returns no CPU is still emulating;
 * - removing an override waits for a grace period before it returns and
 *   before the override is freed: when "remove" returns, no access is
 *   still using it.
 */
#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>

#include "internal.h"
#include "mmio.h"

/*
 * The accessors' static keys. Every module that uses readl() or inb()
 * references them, so they are exported to all modules.
 */
struct static_key_false iohook_mem_key = STATIC_KEY_FALSE_INIT;
EXPORT_SYMBOL(iohook_mem_key);
struct static_key_false iohook_io_key = STATIC_KEY_FALSE_INIT;
EXPORT_SYMBOL(iohook_io_key);
struct static_key_false iohook_pci_key = STATIC_KEY_FALSE_INIT;

static struct static_key_false *const iohook_keys[IOHOOK_NR_SPACES] = {
	[IOHOOK_SPACE_PCI] = &iohook_pci_key,
	[IOHOOK_SPACE_MEM] = &iohook_mem_key,
	[IOHOOK_SPACE_IO] = &iohook_io_key,
};

struct maple_tree iohook_trees[IOHOOK_NR_SPACES];

bool iohook_armed;
/* Serialises every change: overrides, selectors, arming, mappings. */
DEFINE_MUTEX(iohook_mutex);
static BLOCKING_NOTIFIER_HEAD(iohook_notifier);

/*
 * A counting filter per space, so that a miss usually costs one load
 * instead of a tree walk: each granule (a config function, a memory page,
 * 16 ports) that an override touches counts in one of 4096 buckets. A
 * zero bucket means no override there. Writers update it under
 * iohook_mutex, counting up before a tree insert and down after an
 * erase; readers only READ_ONCE() it.
 */
u32 iohook_filter[IOHOOK_NR_SPACES][1 << IOHOOK_FILTER_BITS];

/**
 * iohook_filter_update() - count a range in a filter
 * @filter: iohook_filter[@space] or iohook_sel_filter[@space]
 * @space: the range's space
 * @first: first address
 * @last: last address
 * @delta: +1 before the range's tree insert, -1 after its erase
 */
void iohook_filter_update(u32 *filter, enum iohook_space space, u64 first,
			  u64 last, int delta)
{
	u64 g, gfirst = first >> iohook_granule_shift(space);
	u64 glast = last >> iohook_granule_shift(space);
	u32 *b;

	lockdep_assert_held(&iohook_mutex);
	if (glast - gfirst >= (1 << IOHOOK_FILTER_BITS)) {
		/* Wider than the filter: every bucket counts it once. */
		for (b = filter; b < filter + (1 << IOHOOK_FILTER_BITS); b++)
			WRITE_ONCE(*b, *b + delta);
		return;
	}
	for (g = gfirst; g <= glast; g++) {
		b = &filter[iohook_filter_bucket(g)];
		WRITE_ONCE(*b, *b + delta);
	}
}

/**
 * iohook_space_filter() - count a range of a space in its filters
 * @space: the space
 * @first: first address of an override or selector
 * @last: its last address
 * @delta: +1 before it becomes visible, -1 after it is gone
 *
 * The space's filter, and for memory the virtual filter of every
 * ioremap() mapping of the range (mappings.c).
 */
void iohook_space_filter(enum iohook_space space, u64 first, u64 last,
			 int delta)
{
	iohook_filter_update(iohook_filter[space], space, first, last, delta);
	if (space == IOHOOK_SPACE_MEM)
		iohook_maps_count_range(first, last, delta);
}

/* An override's range in its space's filters. */
static void iohook_ov_filter(const struct iohook_override *ov, int delta)
{
	iohook_space_filter(ov->space, ov->start, ov->start + ov->len - 1,
			    delta);
}

const char * const iohook_attr_names[IOHOOK_NR_ATTRS] = {
	[IOHOOK_RO] = "ro",
	[IOHOOK_RW] = "rw",
	[IOHOOK_RC] = "rc",
	[IOHOOK_WC] = "wc",
};

const char * const iohook_space_names[IOHOOK_NR_SPACES] = {
	[IOHOOK_SPACE_PCI] = "pciconf",
	[IOHOOK_SPACE_MEM] = "mem",
	[IOHOOK_SPACE_IO] = "io",
};

/* Highest physical address an override may cover (52-bit x86_64). */
#define IOHOOK_MEM_MAX	((1ULL << 52) - 1)

static int __init iohook_store_init(void)
{
	int i;

	for (i = 0; i < IOHOOK_NR_SPACES; i++)
		mt_init_flags(&iohook_trees[i], MT_FLAGS_USE_RCU);
	return 0;
}

/* Before any initcall that could add overrides, the sysfs layer included. */
pure_initcall(iohook_store_init);

/*
 * Turn each space's key on exactly when it is armed and non-empty. Only
 * turns keys off after the caller has made the change that allows it
 * visible and waited for a grace period, or when nothing used the key.
 */
static void iohook_update_keys(void)
{
	int i;

	lockdep_assert_held(&iohook_mutex);
	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		bool want = iohook_armed && !mtree_empty(&iohook_trees[i]);

		if (want && !static_key_enabled(iohook_keys[i]))
			static_branch_enable(iohook_keys[i]);
		else if (!want && static_key_enabled(iohook_keys[i]))
			static_branch_disable(iohook_keys[i]);
	}
}

static void iohook_to_spec(const struct iohook_override *ov,
			   struct iohook_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->space = ov->space;
	spec->addr = ov->start;
	spec->len = ov->len;
	spec->mask = ov->mask;
	spec->attr = ov->attr;
	spec->flags = ov->flags;
	spec->value = atomic64_read(&ov->value);
	spec->hits = atomic64_read(&ov->hits);
	spec->policy = ov->policy;
	spec->seen = atomic64_read(&ov->seen);
	spec->applied = atomic64_read(&ov->applied);
	if (ov->sel) {
		spec->cond.width = ov->sel->width;
		spec->cond.sel = ov->sel->addr;
		spec->cond.mask = ov->cmask;
		spec->cond.value = ov->cval;
		/* Pairs with iohook_record(): the value after its flag. */
		spec->recorded_known = smp_load_acquire(&ov->sel->known);
		spec->recorded = atomic64_read(&ov->sel->rec);
	}
}

/*
 * Last address of a range of @len bytes at @addr in @space, or -ERANGE
 * if it leaves its space. A PCI config range must stay within one
 * function's 4 KiB config space.
 */
static int iohook_range_last(enum iohook_space space, u64 addr, u64 len,
			     u64 *last)
{
	u64 limit;

	switch (space) {
	case IOHOOK_SPACE_PCI:
		limit = (addr & ~(u64)IOHOOK_PCI_CFG_MAX) | IOHOOK_PCI_CFG_MAX;
		break;
	case IOHOOK_SPACE_IO:
		limit = IOHOOK_IO_MAX;
		break;
	default:
		limit = IOHOOK_MEM_MAX;
		break;
	}
	if (addr > limit || len - 1 > limit - addr)
		return -ERANGE;
	*last = addr + len - 1;
	return 0;
}

static int iohook_last(const struct iohook_spec *spec, u64 *last)
{
	return iohook_range_last(spec->space, spec->addr, spec->len, last);
}

/* The errno for a malformed condition, or 0. */
static int iohook_validate_cond(const struct iohook_spec *spec)
{
	const struct iohook_cond *c = &spec->cond;
	u64 last;

	if (!c->width)
		return 0;
	if (c->width > IOHOOK_MAX_MASKED_LEN)
		return -E2BIG;
	/* Widths the accessors have, naturally aligned as config needs. */
	if (c->width & (c->width - 1) || c->sel & (c->width - 1))
		return -EINVAL;
	if (!c->mask || c->mask & ~iohook_width_mask(c->width))
		return -EINVAL;
	if (c->value & ~c->mask)
		return -ERANGE;
	if (spec->space == IOHOOK_SPACE_PCI &&
	    (c->sel & ~(u64)IOHOOK_PCI_CFG_MAX) !=
	    (spec->addr & ~(u64)IOHOOK_PCI_CFG_MAX))
		return -EXDEV;
	return iohook_range_last(spec->space, c->sel, c->width, &last);
}

/* The errno for a malformed policy, or 0. */
static int iohook_validate_policy(const struct iohook_policy *p)
{
	if (!p->prob_den)
		return p->prob_num ? -ERANGE : 0;
	if (!p->prob_num || p->prob_num > p->prob_den)
		return -ERANGE;
	return 0;
}

/**
 * iohook_validate() - check an override description without adding it
 * @spec: the override; the fields lookups fill in are ignored
 *
 * Lengths 1 to 8 need a non-zero @spec->mask that fits in @spec->len
 * bytes, and a @spec->value with no bit outside the mask. Longer ranges
 * are byte-filled and read-only: @spec->value is the fill byte and
 * @spec->mask must be 0xff. A condition needs a selector of 1, 2, 4 or
 * 8 bytes, naturally aligned, in the same space (and PCI function), a
 * non-zero mask within its width and a value within the mask. A
 * probability policy needs 0 < @prob_num <= @prob_den.
 *
 * Return: 0 if @spec could be added to an empty store; -EINVAL for a
 * malformed description; -ERANGE if it or its selector leaves its
 * address space, or for a condition value outside its mask or a
 * probability outside (0, 1]; -E2BIG for a selector wider than 8 bytes;
 * -EXDEV for a selector in another PCI function.
 */
int iohook_validate(const struct iohook_spec *spec)
{
	u64 last;
	int ret;

	if (spec->space >= IOHOOK_NR_SPACES || spec->attr >= IOHOOK_NR_ATTRS ||
	    !spec->len)
		return -EINVAL;
	if (spec->len > IOHOOK_MAX_MASKED_LEN) {
		if (spec->attr != IOHOOK_RO || spec->mask != 0xff ||
		    spec->value > 0xff)
			return -EINVAL;
	} else {
		if (!spec->mask || spec->mask & ~iohook_width_mask(spec->len) ||
		    spec->value & ~spec->mask)
			return -EINVAL;
	}
	ret = iohook_last(spec, &last);
	if (!ret)
		ret = iohook_validate_cond(spec);
	if (!ret)
		ret = iohook_validate_policy(&spec->policy);
	return ret;
}
EXPORT_SYMBOL_GPL(iohook_validate);

static bool iohook_spec_overlaps(const struct iohook_spec *a,
				 const struct iohook_spec *b)
{
	return a->space == b->space && a->addr < b->addr + b->len &&
	       b->addr < a->addr + a->len;
}

/*
 * May two overlapping overrides coexist? Only on the same bytes, with
 * conditions on the same selector (address, width and mask) and
 * different values, so that at most one of them ever applies.
 */
static bool iohook_may_share(const struct iohook_spec *a,
			     const struct iohook_spec *b)
{
	return a->addr == b->addr && a->len == b->len && a->cond.width &&
	       a->cond.width == b->cond.width && a->cond.sel == b->cond.sel &&
	       a->cond.mask == b->cond.mask && a->cond.value != b->cond.value;
}

static bool iohook_ov_may_share(const struct iohook_override *ov,
				const struct iohook_spec *spec)
{
	const struct iohook_selector *sel = ov->sel;

	return ov->start == spec->addr && ov->len == spec->len && sel &&
	       sel->width == spec->cond.width && sel->addr == spec->cond.sel &&
	       ov->cmask == spec->cond.mask && ov->cval != spec->cond.value;
}

/*
 * Check @spec against the store: Return: -EEXIST if it overlaps an
 * override it may not share bytes with, else 0 with *@head the entry it
 * joins (or NULL).
 */
static int iohook_check_store(const struct iohook_spec *spec,
			      struct iohook_override **head)
{
	unsigned long index = spec->addr;
	struct iohook_override *ov, *m;
	u64 last;

	lockdep_assert_held(&iohook_mutex);
	*head = NULL;
	iohook_last(spec, &last);
	while ((ov = mt_find(&iohook_trees[spec->space], &index, last))) {
		for (m = ov; m; m = rcu_dereference_protected(m->next, 1))
			if (!iohook_ov_may_share(m, spec))
				return -EEXIST;
		*head = ov;
	}
	return 0;
}

/* Check the new overrides against each other. */
static int iohook_check_batch(const struct iohook_spec *specs, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		const struct iohook_cond *ci = &specs[i].cond;

		for (j = 0; j < i; j++) {
			const struct iohook_cond *cj = &specs[j].cond;

			if (iohook_spec_overlaps(&specs[i], &specs[j]) &&
			    !iohook_may_share(&specs[i], &specs[j]))
				return -EEXIST;
			/* Selectors are either the same bytes or apart. */
			if (ci->width && cj->width &&
			    specs[i].space == specs[j].space &&
			    ci->sel < cj->sel + cj->width &&
			    cj->sel < ci->sel + ci->width &&
			    (ci->sel != cj->sel || ci->width != cj->width))
				return -EEXIST;
		}
	}
	return 0;
}

/*
 * What iohook_add_many() works out under the lock before it changes
 * anything, per new override.
 */
struct iohook_plan {
	struct iohook_override *ov;
	struct iohook_override *head;	/* existing entry it joins */
	int batch_head;			/* earlier new override it follows */
	struct iohook_selector *sel;	/* its selector, or NULL */
	bool sel_new, sel_inserted, inserted;
};

/* Fill in @p from the store; nothing changes. */
static int iohook_plan_one(const struct iohook_spec *specs, unsigned int i,
			   struct iohook_plan *p)
{
	const struct iohook_spec *spec = &specs[i];
	unsigned int j;
	int ret;

	ret = iohook_check_store(spec, &p[i].head);
	if (ret)
		return ret;
	p[i].batch_head = -1;
	for (j = 0; j < i; j++)
		if (iohook_spec_overlaps(spec, &specs[j])) {
			p[i].batch_head = p[j].batch_head < 0 ? j :
					  p[j].batch_head;
			break;
		}
	if (!spec->cond.width)
		return 0;
	p[i].sel = iohook_sel_find(spec->space, spec->cond.sel,
				   spec->cond.width, &ret);
	if (ret || p[i].sel)
		return ret;
	for (j = 0; j < i; j++)
		if (specs[j].cond.width && specs[j].space == spec->space &&
		    specs[j].cond.sel == spec->cond.sel) {
			p[i].sel = p[j].sel;
			return 0;
		}
	return -ENOENT;		/* the caller gives it a new selector */
}

static struct iohook_override *iohook_new_override(const struct iohook_spec *spec)
{
	struct iohook_override *ov = kzalloc(sizeof(*ov), GFP_KERNEL);

	if (!ov)
		return NULL;
	ov->space = spec->space;
	ov->attr = spec->attr;
	ov->flags = spec->flags & IOHOOK_F_NO_SYSFS;
	ov->start = spec->addr;
	ov->len = spec->len;
	ov->mask = spec->mask;
	atomic64_set(&ov->value, spec->value);
	ov->cmask = spec->cond.mask;
	ov->cval = spec->cond.value;
	ov->policy = spec->policy;
	ov->has_policy = spec->policy.skip || spec->policy.count ||
			 spec->policy.prob_den;
	return ov;
}

/* The tail of the chain that starts at @head. */
static struct iohook_override *iohook_chain_tail(struct iohook_override *head)
{
	struct iohook_override *next;

	while ((next = rcu_dereference_protected(head->next, 1)))
		head = next;
	return head;
}

/*
 * Undo the fallible steps of an add: the tree entries and selectors
 * inserted so far, and the filter counts. Then no reader can still see
 * them when they are freed.
 */
static void iohook_add_rollback(struct iohook_plan *p, unsigned int n)
{
	LIST_HEAD(dead_sels);
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct iohook_override *ov = p[i].ov;

		if (p[i].inserted)
			mtree_store_range(&iohook_trees[ov->space], ov->start,
					  ov->start + ov->len - 1, NULL,
					  GFP_KERNEL | __GFP_NOFAIL);
		if (p[i].sel_inserted)
			iohook_sel_erase(p[i].sel, &dead_sels);
		iohook_ov_filter(ov, -1);
	}
	synchronize_rcu();
	iohook_update_keys();
	/* iohook_add_many() frees them, inserted or not. */
	list_del_init(&dead_sels);
}

/**
 * iohook_add_many() - add several overrides, all or none
 * @specs: the overrides
 * @n: how many
 *
 * Every description is validated, and checked against the store and
 * against the others, before anything changes. If iohook is armed, the
 * new overrides take effect at once. Must be called in process context.
 *
 * Return: 0 on success; what iohook_validate() says; -EEXIST if one
 * overlaps an existing override or another of @specs (overrides on the
 * same bytes may coexist when they have conditions on the same selector
 * with different values), or its selector overlaps another selector
 * without being the same bytes; -ENOMEM, or what a notifier refused
 * IOHOOK_EVENT_PREPARE with. On error the store, and every listener
 * (the sysfs directories), is unchanged.
 */
int iohook_add_many(const struct iohook_spec *specs, unsigned int n)
{
	unsigned int i, prepared = 0;
	struct iohook_plan *p;
	int ret;

	for (i = 0; i < n; i++) {
		ret = iohook_validate(&specs[i]);
		if (ret)
			return ret;
	}
	ret = iohook_check_batch(specs, n);
	if (ret)
		return ret;

	p = kvcalloc(n, sizeof(*p), GFP_KERNEL | __GFP_NOWARN);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ret = -ENOMEM;
		p[i].ov = iohook_new_override(&specs[i]);
		if (!p[i].ov)
			goto free;
		if (specs[i].cond.width) {
			/* Spare selector, used if none exists yet. */
			p[i].sel = kzalloc(sizeof(*p[i].sel), GFP_KERNEL);
			if (!p[i].sel)
				goto free;
			p[i].sel->space = specs[i].space;
			p[i].sel->addr = specs[i].cond.sel;
			p[i].sel->width = specs[i].cond.width;
			p[i].sel_new = true;
		}
	}

	mutex_lock(&iohook_mutex);
	for (i = 0; i < n; i++) {
		struct iohook_selector *spare = p[i].sel;

		ret = iohook_plan_one(specs, i, p);
		if (ret) {
			p[i].sel = spare;	/* freed below, or new */
			if (ret == -ENOENT)
				continue;
			goto unlock;
		}
		if (spare != p[i].sel) {
			kfree(spare);
			p[i].sel_new = false;
		}
	}

	/* The fallible steps: listeners, new selectors, new tree entries. */
	for (prepared = 0; prepared < n; prepared++) {
		ret = blocking_notifier_call_chain_robust(&iohook_notifier,
							  IOHOOK_EVENT_PREPARE,
							  IOHOOK_EVENT_ABORT,
							  (void *)&specs[prepared]);
		ret = notifier_to_errno(ret);
		if (ret)
			goto abort;
	}
	for (i = 0; i < n; i++)
		iohook_ov_filter(p[i].ov, 1);
	for (i = 0; i < n; i++) {
		if (!p[i].sel_new)
			continue;
		ret = iohook_sel_insert(p[i].sel);
		if (ret)
			goto rollback;
		p[i].sel_inserted = true;
	}
	for (i = 0; i < n; i++) {
		struct iohook_override *ov = p[i].ov;

		if (p[i].head || p[i].batch_head >= 0)
			continue;
		ret = mtree_insert_range(&iohook_trees[ov->space], ov->start,
					 ov->start + ov->len - 1, ov,
					 GFP_KERNEL);
		if (ret)
			goto rollback;
		p[i].inserted = true;
	}

	/* Cannot fail from here: chain the overrides that share bytes. */
	for (i = 0; i < n; i++) {
		struct iohook_override *ov = p[i].ov, *head;

		ov->sel = p[i].sel;
		if (ov->sel)
			ov->sel->users++;
		if (p[i].inserted)
			continue;
		head = p[i].head ?: p[p[i].batch_head].ov;
		rcu_assign_pointer(iohook_chain_tail(head)->next, ov);
	}
	iohook_update_keys();
	for (i = 0; i < n; i++) {
		struct iohook_spec spec;

		iohook_to_spec(p[i].ov, &spec);
		blocking_notifier_call_chain(&iohook_notifier,
					     IOHOOK_EVENT_ADD, &spec);
	}
	mutex_unlock(&iohook_mutex);
	kvfree(p);
	return 0;

rollback:
	iohook_add_rollback(p, n);
abort:
	for (i = 0; i < prepared; i++)
		blocking_notifier_call_chain(&iohook_notifier,
					     IOHOOK_EVENT_ABORT,
					     (void *)&specs[i]);
unlock:
	mutex_unlock(&iohook_mutex);
free:
	for (i = 0; i < n; i++) {
		kfree(p[i].ov);
		if (p[i].sel_new)
			kfree(p[i].sel);
	}
	kvfree(p);
	return ret;
}
EXPORT_SYMBOL_GPL(iohook_add_many);

/**
 * iohook_add() - add one override
 * @spec: the override
 *
 * Return: as iohook_add_many().
 */
int iohook_add(const struct iohook_spec *spec)
{
	return iohook_add_many(spec, 1);
}
EXPORT_SYMBOL_GPL(iohook_add);

/*
 * The override that starts exactly at @addr and has the condition value
 * *@when, or no condition if @when is NULL. The caller holds
 * rcu_read_lock() or iohook_mutex.
 */
static int iohook_find_start(enum iohook_space space, u64 addr,
			     const u64 *when, struct iohook_override **ovp)
{
	struct iohook_override *ov;

	if (space >= IOHOOK_NR_SPACES)
		return -EINVAL;
	ov = mtree_load(&iohook_trees[space], addr);
	if (!ov || ov->start != addr)
		return -ENOENT;
	for (; ov; ov = rcu_dereference_check(ov->next,
					      lockdep_is_held(&iohook_mutex)))
		if (when ? ov->sel && ov->cval == *when : !ov->sel) {
			*ovp = ov;
			return 0;
		}
	return -ENOENT;
}

/* The removed overrides and selectors, freed after a grace period. */
struct iohook_dead {
	struct list_head ovs;
	struct list_head sels;
};

static void iohook_dead_init(struct iohook_dead *dead)
{
	INIT_LIST_HEAD(&dead->ovs);
	INIT_LIST_HEAD(&dead->sels);
}

/* Account for @ov having left the store. */
static void iohook_retire(struct iohook_override *ov,
			  struct iohook_dead *dead)
{
	struct iohook_spec spec;

	iohook_ov_filter(ov, -1);
	if (ov->sel && !--ov->sel->users)
		iohook_sel_erase(ov->sel, &dead->sels);
	iohook_to_spec(ov, &spec);
	blocking_notifier_call_chain(&iohook_notifier, IOHOOK_EVENT_REMOVE,
				     &spec);
	list_add_tail(&ov->dead, &dead->ovs);
}

/*
 * Erase a whole tree entry, every override on its chain. The caller
 * holds iohook_mutex. In RCU mode every tree change allocates, so the
 * erase can fail: then the entry stays, untouched.
 */
static int iohook_erase_entry(struct iohook_override *head,
			      struct iohook_dead *dead)
{
	struct iohook_override *ov, *next;
	int ret;

	lockdep_assert_held(&iohook_mutex);
	ret = mtree_store_range(&iohook_trees[head->space], head->start,
				head->start + head->len - 1, NULL, GFP_KERNEL);
	if (ret)
		return ret;
	for (ov = head; ov; ov = next) {
		next = rcu_dereference_protected(ov->next, 1);
		iohook_retire(ov, dead);
	}
	return 0;
}

/*
 * Erase one override. Readers walking the chain may still be on it: it
 * keeps its own next pointer until it is freed after a grace period.
 */
static int iohook_erase_one(struct iohook_override *ov,
			    struct iohook_dead *dead)
{
	struct iohook_override *head, *prev, *next;
	int ret;

	lockdep_assert_held(&iohook_mutex);
	head = mtree_load(&iohook_trees[ov->space], ov->start);
	next = rcu_dereference_protected(ov->next, 1);
	if (head == ov) {
		ret = mtree_store_range(&iohook_trees[ov->space], ov->start,
					ov->start + ov->len - 1, next,
					GFP_KERNEL);
		if (ret)
			return ret;
	} else {
		for (prev = head; rcu_access_pointer(prev->next) != ov;
		     prev = rcu_dereference_protected(prev->next, 1))
			;
		rcu_assign_pointer(prev->next, next);
	}
	iohook_retire(ov, dead);
	return 0;
}

/*
 * After erases: wait until no access can still use what was erased (so
 * "remove" is synchronous), turn off the keys of emptied spaces, and free
 * it. Called with iohook_mutex held.
 */
static void iohook_free_dead(struct iohook_dead *dead)
{
	struct iohook_override *ov, *tmp;
	struct iohook_selector *sel, *stmp;

	lockdep_assert_held(&iohook_mutex);
	if (list_empty(&dead->ovs))
		return;
	synchronize_rcu();
	iohook_update_keys();
	list_for_each_entry_safe(ov, tmp, &dead->ovs, dead)
		kfree(ov);
	list_for_each_entry_safe(sel, stmp, &dead->sels, dead)
		kfree(sel);
}

/*
 * Remove what starts at @addr: with @when NULL the whole tree entry (the
 * override there, or every conditional override on those bytes), else
 * the one conditional override with that value.
 */
static int iohook_remove_when(enum iohook_space space, u64 addr,
			      const u64 *when)
{
	struct iohook_override *ov;
	struct iohook_dead dead;
	int ret = -EINVAL;

	if (space >= IOHOOK_NR_SPACES)
		return ret;
	iohook_dead_init(&dead);
	mutex_lock(&iohook_mutex);
	if (when) {
		ret = iohook_find_start(space, addr, when, &ov);
		if (!ret)
			ret = iohook_erase_one(ov, &dead);
	} else {
		ov = mtree_load(&iohook_trees[space], addr);
		ret = ov && ov->start == addr ? iohook_erase_entry(ov, &dead) :
						-ENOENT;
	}
	iohook_free_dead(&dead);
	mutex_unlock(&iohook_mutex);
	return ret;
}

/**
 * iohook_remove() - remove every override that starts at an address
 * @space: their address space
 * @addr: their first address
 *
 * Removes the override there, or all the conditional overrides that
 * share those bytes. When this returns, no access anywhere still sees
 * them. Must be called in process context.
 *
 * Return: 0, -EINVAL for a bad @space, -ENOENT if no override starts at
 * @addr, or -ENOMEM if the tree could not be changed (they then stay,
 * unchanged).
 */
int iohook_remove(enum iohook_space space, u64 addr)
{
	return iohook_remove_when(space, addr, NULL);
}
EXPORT_SYMBOL_GPL(iohook_remove);

/**
 * iohook_remove_cond() - remove one conditional override
 * @space: its address space
 * @addr: its first address
 * @when: its condition's value
 *
 * Synchronous like iohook_remove(); the others on the same bytes stay.
 *
 * Return: as iohook_remove().
 */
int iohook_remove_cond(enum iohook_space space, u64 addr, u64 when)
{
	return iohook_remove_when(space, addr, &when);
}
EXPORT_SYMBOL_GPL(iohook_remove_cond);

/**
 * iohook_remove_range() - remove every override that starts in a range
 * @space: the address space
 * @first: first address of the range
 * @last: last address of the range (inclusive)
 *
 * Synchronous like iohook_remove(). Must be called in process context.
 *
 * Return: the number of overrides removed, -EINVAL for a bad @space, or
 * -ENOMEM if the tree could not be changed: the overrides not yet
 * removed then stay, unchanged.
 */
int iohook_remove_range(enum iohook_space space, u64 first, u64 last)
{
	struct iohook_override *ov, *m;
	unsigned long index = first;
	struct iohook_dead dead;
	int n = 0, ret = 0;

	if (space >= IOHOOK_NR_SPACES)
		return -EINVAL;
	iohook_dead_init(&dead);
	mutex_lock(&iohook_mutex);
	while ((ov = mt_find(&iohook_trees[space], &index, last))) {
		unsigned int k = 0;

		if (ov->start < first)
			continue;
		for (m = ov; m; m = rcu_dereference_protected(m->next, 1))
			k++;
		ret = iohook_erase_entry(ov, &dead);
		if (ret)
			break;
		n += k;
	}
	iohook_free_dead(&dead);
	mutex_unlock(&iohook_mutex);
	return ret ?: n;
}
EXPORT_SYMBOL_GPL(iohook_remove_range);

static int iohook_lookup_when(enum iohook_space space, u64 addr,
			      const u64 *when, struct iohook_spec *out)
{
	struct iohook_override *ov;
	int ret;

	rcu_read_lock();
	ret = iohook_find_start(space, addr, when, &ov);
	if (!ret)
		iohook_to_spec(ov, out);
	rcu_read_unlock();
	return ret;
}

/**
 * iohook_lookup() - copy out the unconditional override at an address
 * @space: its address space
 * @addr: its first address
 * @out: where to copy it, with its current value and counters
 *
 * Lockless (RCU), so it may be called from sysfs show methods that run
 * while an override is being removed.
 *
 * Return: 0, or -ENOENT if no unconditional override starts at @addr.
 */
int iohook_lookup(enum iohook_space space, u64 addr, struct iohook_spec *out)
{
	return iohook_lookup_when(space, addr, NULL, out);
}
EXPORT_SYMBOL_GPL(iohook_lookup);

/**
 * iohook_lookup_cond() - copy out a conditional override
 * @space: its address space
 * @addr: its first address
 * @when: its condition's value
 * @out: where to copy it
 *
 * Return: 0, or -ENOENT.
 */
int iohook_lookup_cond(enum iohook_space space, u64 addr, u64 when,
		       struct iohook_spec *out)
{
	return iohook_lookup_when(space, addr, &when, out);
}
EXPORT_SYMBOL_GPL(iohook_lookup_cond);

static int iohook_set_value_when(enum iohook_space space, u64 addr,
				 const u64 *when, u64 value)
{
	struct iohook_override *ov;
	int ret;

	rcu_read_lock();
	ret = iohook_find_start(space, addr, when, &ov);
	if (!ret) {
		u64 allowed = ov->len > IOHOOK_MAX_MASKED_LEN ? 0xff : ov->mask;

		ret = -EINVAL;
		if (!(value & ~allowed)) {
			atomic64_set(&ov->value, value);
			ret = 0;
		}
	}
	rcu_read_unlock();
	return ret;
}

/**
 * iohook_set_value() - set the value of the unconditional override there
 * @space: its address space
 * @addr: its first address
 * @value: the new value, within the override's mask (a byte for a
 *         byte-filled range)
 *
 * Lockless (RCU + atomic64), like the accesses it races with.
 *
 * Return: 0, -ENOENT if no unconditional override starts at @addr,
 * -EINVAL if @value has bits outside the mask.
 */
int iohook_set_value(enum iohook_space space, u64 addr, u64 value)
{
	return iohook_set_value_when(space, addr, NULL, value);
}
EXPORT_SYMBOL_GPL(iohook_set_value);

/**
 * iohook_set_value_cond() - set the value of a conditional override
 * @space: its address space
 * @addr: its first address
 * @when: its condition's value
 * @value: the new value
 *
 * Return: as iohook_set_value().
 */
int iohook_set_value_cond(enum iohook_space space, u64 addr, u64 when,
			  u64 value)
{
	return iohook_set_value_when(space, addr, &when, value);
}
EXPORT_SYMBOL_GPL(iohook_set_value_cond);

/**
 * iohook_for_each() - call a function for each override in a range
 * @space: the address space
 * @first: first address of the range
 * @last: last address of the range (inclusive)
 * @fn: called with a copy of each override that starts in the range, in
 *      address order, in process context; a non-zero return stops the walk
 * @data: passed to @fn
 *
 * @fn runs with the store's mutex held: it must not add, remove, arm or
 * disarm (that would deadlock), nor wait for anything that does.
 *
 * Return: 0, or the first non-zero value @fn returned.
 */
int iohook_for_each(enum iohook_space space, u64 first, u64 last,
		    int (*fn)(const struct iohook_spec *spec, void *data),
		    void *data)
{
	struct iohook_override *ov;
	unsigned long index = first;
	struct iohook_spec spec;
	int ret = 0;

	if (space >= IOHOOK_NR_SPACES)
		return -EINVAL;
	mutex_lock(&iohook_mutex);
	while (!ret && (ov = mt_find(&iohook_trees[space], &index, last))) {
		if (ov->start < first)
			continue;
		for (; ov && !ret; ov = rcu_dereference_protected(ov->next, 1)) {
			iohook_to_spec(ov, &spec);
			ret = fn(&spec, data);
		}
	}
	mutex_unlock(&iohook_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(iohook_for_each);

/* Every override's policy counts start again from 0. */
static void iohook_reset_policies(void)
{
	struct iohook_override *ov;
	int i;

	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		unsigned long index = 0;

		while ((ov = mt_find(&iohook_trees[i], &index, ULONG_MAX)))
			for (; ov; ov = rcu_dereference_protected(ov->next, 1))
				iohook_policy_reset(ov);
	}
}

/**
 * iohook_arm() - make every override take effect
 *
 * Overrides added while disarmed are staged; arming makes all of them
 * visible at once, in every space and at every accessor site, with their
 * current values: the keys are turned on first, while the slow paths
 * still give the hardware view, then one flag switches them all. When
 * this returns, every CPU sees the overrides.
 *
 * Every arm restarts the policies' counting (and so their exhaustion and
 * their probability sequence); arming from the disarmed state also makes
 * every selector's recorded value unknown. Must be called in process
 * context.
 */
void iohook_arm(void)
{
	int i;

	mutex_lock(&iohook_mutex);
	if (!iohook_armed)
		iohook_sel_forget_all();
	iohook_reset_policies();
	for (i = 0; i < IOHOOK_NR_SPACES; i++)
		if (!mtree_empty(&iohook_trees[i]) &&
		    !static_key_enabled(iohook_keys[i]))
			static_branch_enable(iohook_keys[i]);
	WRITE_ONCE(iohook_armed, true);
	mutex_unlock(&iohook_mutex);
}
EXPORT_SYMBOL_GPL(iohook_arm);

/**
 * iohook_disarm() - restore the real hardware view
 *
 * Overrides are kept, with their values, for a later iohook_arm(). One
 * flag switches every site at once; a grace period then lets every
 * access that saw the overrides finish, so when this returns no CPU
 * emulates any more and no rc or wc state changes. Must be called in
 * process context.
 */
void iohook_disarm(void)
{
	mutex_lock(&iohook_mutex);
	if (iohook_armed) {
		WRITE_ONCE(iohook_armed, false);
		synchronize_rcu();
	}
	iohook_update_keys();
	mutex_unlock(&iohook_mutex);
}
EXPORT_SYMBOL_GPL(iohook_disarm);

/**
 * iohook_is_armed() - whether overrides are in effect
 *
 * Return: true between iohook_arm() and iohook_disarm().
 */
bool iohook_is_armed(void)
{
	return READ_ONCE(iohook_armed);
}
EXPORT_SYMBOL_GPL(iohook_is_armed);

/**
 * iohook_register_notifier() - be told of added and removed overrides
 * @nb: notifier; called in process context with enum iohook_event and a
 *      struct iohook_spec, while the store is locked, so it must not call
 *      back into the iohook functions that take the store lock
 *
 * Return: 0 or a negative errno.
 */
int iohook_register_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&iohook_notifier, nb);
}
EXPORT_SYMBOL_GPL(iohook_register_notifier);

/**
 * iohook_unregister_notifier() - undo iohook_register_notifier()
 * @nb: the notifier
 *
 * Return: 0 or -ENOENT.
 */
int iohook_unregister_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&iohook_notifier, nb);
}
EXPORT_SYMBOL_GPL(iohook_unregister_notifier);

// SPDX-License-Identifier: GPL-2.0
/*
 * The store: adding, finding, changing and removing overrides.
 *
 * Writers (add, remove) run in process context and are serialised by
 * iohook_mutex; the trees (space.h) are RCU-safe, so the access paths
 * look entries up under rcu_read_lock() from any context. Removing an
 * override waits for a grace period before it returns and before the
 * override is freed: when "remove" returns, no access is still using it.
 *
 * Listeners (the sysfs layer) follow the store through its notifier
 * chain; the store knows none of them by name.
 */
#include <linux/export.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>

#include "arm.h"
#include "emulate.h"
#include "override.h"
#include "select.h"
#include "space.h"
#include "validate.h"

static BLOCKING_NOTIFIER_HEAD(iohook_notifier);

/* An override's range in its space's filters. */
static void iohook_ov_count(const struct iohook_override *ov, int delta)
{
	iohook_space_count(ov->space, ov->start, ov->start + ov->len - 1,
			   delta);
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
	spec->policy = ov->policy.policy;
	spec->seen = atomic64_read(&ov->policy.seen);
	spec->applied = atomic64_read(&ov->policy.applied);
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
	iohook_range_last(spec->space, spec->addr, spec->len, &last);
	while ((ov = mt_find(&iohook_spaces[spec->space].overrides, &index, last))) {
		for (m = ov; m; m = iohook_protected(m->next))
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
	iohook_policy_init(&ov->policy, &spec->policy);
	return ov;
}

/* The tail of the chain that starts at @head. */
static struct iohook_override *iohook_chain_tail(struct iohook_override *head)
{
	struct iohook_override *next;

	while ((next = iohook_protected(head->next)))
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
			mtree_store_range(&iohook_spaces[ov->space].overrides, ov->start,
					  ov->start + ov->len - 1, NULL,
					  GFP_KERNEL | __GFP_NOFAIL);
		if (p[i].sel_inserted)
			iohook_sel_erase(p[i].sel, &dead_sels);
		iohook_ov_count(ov, -1);
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

	iohook_lock();
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
		iohook_ov_count(p[i].ov, 1);
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
		ret = mtree_insert_range(&iohook_spaces[ov->space].overrides, ov->start,
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
	iohook_unlock();
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
	iohook_unlock();
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
	ov = mtree_load(&iohook_spaces[space].overrides, addr);
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

	iohook_ov_count(ov, -1);
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
	ret = mtree_store_range(&iohook_spaces[head->space].overrides, head->start,
				head->start + head->len - 1, NULL, GFP_KERNEL);
	if (ret)
		return ret;
	for (ov = head; ov; ov = next) {
		next = iohook_protected(ov->next);
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
	head = mtree_load(&iohook_spaces[ov->space].overrides, ov->start);
	next = iohook_protected(ov->next);
	if (head == ov) {
		ret = mtree_store_range(&iohook_spaces[ov->space].overrides, ov->start,
					ov->start + ov->len - 1, next,
					GFP_KERNEL);
		if (ret)
			return ret;
	} else {
		for (prev = head; rcu_access_pointer(prev->next) != ov;
		     prev = iohook_protected(prev->next))
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

/**
 * iohook_remove() - remove the overrides that start at an address
 * @space: their address space
 * @addr: their first address
 * @when: NULL to remove the whole entry there (the override, or every
 *	  conditional override that shares those bytes); else the condition
 *	  value of the one conditional override to remove, the others on the
 *	  same bytes staying
 *
 * When this returns, no access anywhere still sees what it removed. Must
 * be called in process context.
 *
 * Return: 0, -EINVAL for a bad @space, -ENOENT if nothing matching
 * starts at @addr, or -ENOMEM if the tree could not be changed (the
 * overrides then stay, unchanged).
 */
int iohook_remove(enum iohook_space space, u64 addr, const u64 *when)
{
	struct iohook_override *ov;
	struct iohook_dead dead;
	int ret = -EINVAL;

	if (space >= IOHOOK_NR_SPACES)
		return ret;
	iohook_dead_init(&dead);
	iohook_lock();
	if (when) {
		ret = iohook_find_start(space, addr, when, &ov);
		if (!ret)
			ret = iohook_erase_one(ov, &dead);
	} else {
		ov = mtree_load(&iohook_spaces[space].overrides, addr);
		ret = ov && ov->start == addr ? iohook_erase_entry(ov, &dead) :
						-ENOENT;
	}
	iohook_free_dead(&dead);
	iohook_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(iohook_remove);

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
	iohook_lock();
	while ((ov = mt_find(&iohook_spaces[space].overrides, &index, last))) {
		unsigned int k = 0;

		if (ov->start < first)
			continue;
		for (m = ov; m; m = iohook_protected(m->next))
			k++;
		ret = iohook_erase_entry(ov, &dead);
		if (ret)
			break;
		n += k;
	}
	iohook_free_dead(&dead);
	iohook_unlock();
	return ret ?: n;
}
EXPORT_SYMBOL_GPL(iohook_remove_range);

/**
 * iohook_lookup() - copy out an override
 * @space: its address space
 * @addr: its first address
 * @when: NULL for the unconditional override there; else the condition
 *	  value of the conditional override wanted
 * @out: where to copy it, with its current value and counters
 *
 * Lockless (RCU), so it may be called from sysfs show methods that run
 * while an override is being removed.
 *
 * Return: 0, -EINVAL for a bad @space, or -ENOENT if no such override
 * starts at @addr.
 */
int iohook_lookup(enum iohook_space space, u64 addr, const u64 *when,
		  struct iohook_spec *out)
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
EXPORT_SYMBOL_GPL(iohook_lookup);

/**
 * iohook_set_value() - set the value of an override
 * @space: its address space
 * @addr: its first address
 * @when: NULL for the unconditional override there; else the condition
 *	  value of the conditional override to change
 * @value: the new value, within the override's mask (a byte for a
 *         byte-filled range)
 *
 * Lockless (RCU + atomic64), like the accesses it races with.
 *
 * Return: 0, -EINVAL for a bad @space or if @value has bits outside the
 * mask, -ENOENT if no such override starts at @addr.
 */
int iohook_set_value(enum iohook_space space, u64 addr, const u64 *when,
		     u64 value)
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
EXPORT_SYMBOL_GPL(iohook_set_value);

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
	while (!ret && (ov = mt_find(&iohook_spaces[space].overrides, &index, last))) {
		if (ov->start < first)
			continue;
		for (; ov && !ret; ov = iohook_protected(ov->next)) {
			iohook_to_spec(ov, &spec);
			ret = fn(&spec, data);
		}
	}
	mutex_unlock(&iohook_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(iohook_for_each);

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

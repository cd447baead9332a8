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
static DEFINE_MUTEX(iohook_mutex);
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
const u8 iohook_granule_shift[IOHOOK_NR_SPACES] = {
	[IOHOOK_SPACE_PCI] = 12,
	[IOHOOK_SPACE_MEM] = PAGE_SHIFT,
	[IOHOOK_SPACE_IO] = 4,
};

static void iohook_filter_update(enum iohook_space space, u64 first,
				 u64 last, int delta)
{
	u64 g, gfirst = first >> iohook_granule_shift[space];
	u64 glast = last >> iohook_granule_shift[space];
	u32 *b;

	lockdep_assert_held(&iohook_mutex);
	if (glast - gfirst >= (1 << IOHOOK_FILTER_BITS)) {
		/* Wider than the filter: every bucket counts it once. */
		for (b = iohook_filter[space];
		     b < iohook_filter[space] + (1 << IOHOOK_FILTER_BITS); b++)
			WRITE_ONCE(*b, *b + delta);
		return;
	}
	for (g = gfirst; g <= glast; g++) {
		b = &iohook_filter[space][hash_64(g, IOHOOK_FILTER_BITS)];
		WRITE_ONCE(*b, *b + delta);
	}
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
	spec->space = ov->space;
	spec->addr = ov->start;
	spec->len = ov->len;
	spec->mask = ov->mask;
	spec->attr = ov->attr;
	spec->flags = ov->flags;
	spec->value = atomic64_read(&ov->value);
	spec->hits = atomic64_read(&ov->hits);
}

/*
 * Last address of @spec, or -ERANGE if it leaves its space. A PCI config
 * override must stay within one function's 4 KiB config space.
 */
static int iohook_last(const struct iohook_spec *spec, u64 *last)
{
	u64 limit;

	switch (spec->space) {
	case IOHOOK_SPACE_PCI:
		limit = (spec->addr & ~(u64)IOHOOK_PCI_CFG_MAX) |
			IOHOOK_PCI_CFG_MAX;
		break;
	case IOHOOK_SPACE_IO:
		limit = IOHOOK_IO_MAX;
		break;
	default:
		limit = IOHOOK_MEM_MAX;
		break;
	}
	if (spec->addr > limit || spec->len - 1 > limit - spec->addr)
		return -ERANGE;
	*last = spec->addr + spec->len - 1;
	return 0;
}

/**
 * iohook_validate() - check an override description without adding it
 * @spec: the override; @spec->hits is ignored
 *
 * Lengths 1 to 8 need a non-zero @spec->mask that fits in @spec->len
 * bytes, and a @spec->value with no bit outside the mask. Longer ranges
 * are byte-filled and read-only: @spec->value is the fill byte and
 * @spec->mask must be 0xff.
 *
 * Return: 0 if @spec could be added to an empty store, -EINVAL for a
 * malformed description, -ERANGE if it leaves its address space.
 */
int iohook_validate(const struct iohook_spec *spec)
{
	u64 last;

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
	return iohook_last(spec, &last);
}
EXPORT_SYMBOL_GPL(iohook_validate);

static bool iohook_range_busy(enum iohook_space space, u64 first, u64 last)
{
	unsigned long index = first;
	bool busy;

	rcu_read_lock();
	busy = mt_find(&iohook_trees[space], &index, last);
	rcu_read_unlock();
	return busy;
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
 * Return: 0 on success; -EINVAL or -ERANGE as iohook_validate() says,
 * -EEXIST if one overlaps an existing override or another of @specs,
 * -ENOMEM. On error the store is unchanged.
 */
int iohook_add_many(const struct iohook_spec *specs, unsigned int n)
{
	struct iohook_override **ovs;
	unsigned int i, j, done = 0;
	u64 last;
	int ret;

	for (i = 0; i < n; i++) {
		ret = iohook_validate(&specs[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (specs[i].space == specs[j].space &&
			    specs[i].addr < specs[j].addr + specs[j].len &&
			    specs[j].addr < specs[i].addr + specs[i].len)
				return -EEXIST;

	ovs = kcalloc(n, sizeof(*ovs), GFP_KERNEL);
	if (!ovs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ovs[i] = kzalloc(sizeof(*ovs[i]), GFP_KERNEL);
		if (!ovs[i]) {
			ret = -ENOMEM;
			goto free;
		}
		ovs[i]->space = specs[i].space;
		ovs[i]->attr = specs[i].attr;
		ovs[i]->flags = specs[i].flags & IOHOOK_F_NO_SYSFS;
		ovs[i]->start = specs[i].addr;
		ovs[i]->len = specs[i].len;
		ovs[i]->mask = specs[i].mask;
		atomic64_set(&ovs[i]->value, specs[i].value);
	}

	mutex_lock(&iohook_mutex);
	for (i = 0; i < n; i++) {
		iohook_last(&specs[i], &last);
		if (iohook_range_busy(specs[i].space, specs[i].addr, last)) {
			ret = -EEXIST;
			goto unlock;
		}
	}
	for (done = 0; done < n; done++) {
		iohook_last(&specs[done], &last);
		iohook_filter_update(specs[done].space, specs[done].addr,
				     last, 1);
		ret = mtree_insert_range(&iohook_trees[specs[done].space],
					 specs[done].addr, last, ovs[done],
					 GFP_KERNEL);
		if (ret) {
			iohook_filter_update(specs[done].space,
					     specs[done].addr, last, -1);
			goto rollback;
		}
	}
	iohook_update_keys();
	for (i = 0; i < n; i++) {
		struct iohook_spec spec;

		iohook_to_spec(ovs[i], &spec);
		blocking_notifier_call_chain(&iohook_notifier,
					     IOHOOK_EVENT_ADD, &spec);
	}
	mutex_unlock(&iohook_mutex);
	kfree(ovs);
	return 0;

rollback:
	/*
	 * Only -ENOMEM gets here: the ranges were checked free above. The
	 * erases must not fail, or an override we free would stay in the
	 * tree: __GFP_NOFAIL (fault injection leaves it alone too).
	 */
	while (done--) {
		iohook_last(&specs[done], &last);
		mtree_store_range(&iohook_trees[specs[done].space],
				  specs[done].addr, last, NULL,
				  GFP_KERNEL | __GFP_NOFAIL);
		iohook_filter_update(specs[done].space, specs[done].addr,
				     last, -1);
	}
	synchronize_rcu();
	iohook_update_keys();
unlock:
	mutex_unlock(&iohook_mutex);
free:
	for (i = 0; i < n; i++)
		kfree(ovs[i]);
	kfree(ovs);
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
 * The override that starts exactly at @addr. The caller holds
 * rcu_read_lock() or iohook_mutex.
 */
static int iohook_find_start(enum iohook_space space, u64 addr,
			     struct iohook_override **ovp)
{
	struct iohook_override *ov;

	if (space >= IOHOOK_NR_SPACES)
		return -EINVAL;
	ov = mtree_load(&iohook_trees[space], addr);
	if (!ov || ov->start != addr)
		return -ENOENT;
	*ovp = ov;
	return 0;
}

/*
 * Erase @ov from its tree and put it on @dead, to be freed by
 * iohook_free_dead(). The caller holds iohook_mutex. In RCU mode every
 * tree change allocates, so the erase can fail: then @ov stays in the
 * tree, untouched, and must not be freed.
 */
static int iohook_erase(struct iohook_override *ov, struct list_head *dead)
{
	u64 last = ov->start + ov->len - 1;
	struct iohook_spec spec;
	int ret;

	lockdep_assert_held(&iohook_mutex);
	ret = mtree_store_range(&iohook_trees[ov->space], ov->start, last,
				NULL, GFP_KERNEL);
	if (ret)
		return ret;
	iohook_filter_update(ov->space, ov->start, last, -1);
	iohook_to_spec(ov, &spec);
	blocking_notifier_call_chain(&iohook_notifier, IOHOOK_EVENT_REMOVE,
				     &spec);
	list_add_tail(&ov->dead, dead);
	return 0;
}

/*
 * After erases: wait until no access can still use the erased overrides
 * (so "remove" is synchronous), turn off the keys of emptied spaces, and
 * free them. Called with iohook_mutex held.
 */
static void iohook_free_dead(struct list_head *dead)
{
	struct iohook_override *ov, *tmp;

	lockdep_assert_held(&iohook_mutex);
	if (list_empty(dead))
		return;
	synchronize_rcu();
	iohook_update_keys();
	list_for_each_entry_safe(ov, tmp, dead, dead)
		kfree(ov);
}

/**
 * iohook_remove() - remove the override that starts at an address
 * @space: its address space
 * @addr: its first address
 *
 * When this returns, no access anywhere still sees the override. Must be
 * called in process context.
 *
 * Return: 0, -EINVAL for a bad @space, -ENOENT if no override starts at
 * @addr, or -ENOMEM if the tree could not be changed (the override then
 * stays, unchanged).
 */
int iohook_remove(enum iohook_space space, u64 addr)
{
	struct iohook_override *ov;
	LIST_HEAD(dead);
	int ret;

	mutex_lock(&iohook_mutex);
	ret = iohook_find_start(space, addr, &ov);
	if (!ret)
		ret = iohook_erase(ov, &dead);
	iohook_free_dead(&dead);
	mutex_unlock(&iohook_mutex);
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
	struct iohook_override *ov;
	unsigned long index = first;
	LIST_HEAD(dead);
	int n = 0, ret = 0;

	if (space >= IOHOOK_NR_SPACES)
		return -EINVAL;
	mutex_lock(&iohook_mutex);
	while ((ov = mt_find(&iohook_trees[space], &index, last))) {
		if (ov->start < first)
			continue;
		ret = iohook_erase(ov, &dead);
		if (ret)
			break;
		n++;
	}
	iohook_free_dead(&dead);
	mutex_unlock(&iohook_mutex);
	return ret ?: n;
}
EXPORT_SYMBOL_GPL(iohook_remove_range);

/**
 * iohook_lookup() - copy out the override that starts at an address
 * @space: its address space
 * @addr: its first address
 * @out: where to copy it, with its current value and hit count
 *
 * Lockless (RCU), so it may be called from sysfs show methods that run
 * while an override is being removed.
 *
 * Return: 0, or -ENOENT if no override starts at @addr.
 */
int iohook_lookup(enum iohook_space space, u64 addr, struct iohook_spec *out)
{
	struct iohook_override *ov;
	int ret;

	rcu_read_lock();
	ret = iohook_find_start(space, addr, &ov);
	if (!ret)
		iohook_to_spec(ov, out);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(iohook_lookup);

/**
 * iohook_set_value() - set the current value of an override
 * @space: its address space
 * @addr: its first address
 * @value: the new value, within the override's mask (a byte for a
 *         byte-filled range)
 *
 * Lockless (RCU + atomic64), like the accesses it races with.
 *
 * Return: 0, -ENOENT if no override starts at @addr, -EINVAL if @value
 * has bits outside the mask.
 */
int iohook_set_value(enum iohook_space space, u64 addr, u64 value)
{
	struct iohook_override *ov;
	int ret;

	rcu_read_lock();
	ret = iohook_find_start(space, addr, &ov);
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
	while (!ret && (ov = mt_find(&iohook_trees[space], &index, last))) {
		if (ov->start < first)
			continue;
		iohook_to_spec(ov, &spec);
		ret = fn(&spec, data);
	}
	mutex_unlock(&iohook_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(iohook_for_each);

/**
 * iohook_arm() - make every override take effect
 *
 * Overrides added while disarmed are staged; arming makes all of them
 * visible at once, in every space and at every accessor site, with their
 * current values: the keys are turned on first, while the slow paths
 * still give the hardware view, then one flag switches them all. When
 * this returns, every CPU sees the overrides. Must be called in process
 * context.
 */
void iohook_arm(void)
{
	int i;

	mutex_lock(&iohook_mutex);
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

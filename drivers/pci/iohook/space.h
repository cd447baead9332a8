/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One address space's state: its overrides, its selectors, the filters
 * in front of them, its static key and its name. Everything iohook keeps
 * per space is in struct iohook_space_state, one per enum iohook_space;
 * space.c owns them and the lock that serialises their changes.
 */
#ifndef _DRIVERS_PCI_IOHOOK_SPACE_H
#define _DRIVERS_PCI_IOHOOK_SPACE_H

#include <linux/iohook.h>
#include <linux/jump_label.h>
#include <linux/lockdep.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

#include "filter.h"

/**
 * struct iohook_space_state - what iohook keeps for one address space
 * @filter: counts every override and selector (filter.h); the first
 *	    thing every access asks, so it comes first
 * @sel_filter: counts the selectors only, for the write path
 * @overrides: the overrides by address range (struct iohook_override;
 *	       those sharing bytes are chained on one entry)
 * @selectors: the selector registers conditions name
 *	       (struct iohook_selector)
 * @models: the register models bound to ranges (struct iohook_model,
 *	    model.c); empty without CONFIG_IOHOOK_MODEL
 * @key: the static key of the space's accessors
 * @name: the space's name in sysfs and debugfs
 * @count_aliases: for memory, counts a physical range in the filter of
 *		   its virtual aliases (mappings.c sets it); NULL elsewhere
 *
 * Trees are RCU-safe: the access paths read them under rcu_read_lock()
 * from any context; everything else changes under iohook_mutex.
 */
struct iohook_space_state {
	u32 filter[IOHOOK_FILTER_SIZE];
	u32 sel_filter[IOHOOK_FILTER_SIZE];
	struct maple_tree overrides;
	struct maple_tree selectors;
	struct maple_tree models;
	struct static_key_false *key;
	const char *name;
	void (*count_aliases)(u64 first, u64 last, int delta);
};

extern struct iohook_space_state iohook_spaces[IOHOOK_NR_SPACES];

/*
 * Serialises every change of overrides, selectors, mappings and arming.
 * A change that may flip a static key takes it with iohook_lock(): see
 * space.c for the order against the CPU-hotplug lock.
 */
extern struct mutex iohook_mutex;

void iohook_lock(void);
void iohook_unlock(void);

/* An RCU pointer of the store, read by a writer that holds its lock. */
#define iohook_protected(p) \
	rcu_dereference_protected(p, lockdep_is_held(&iohook_mutex))

/*
 * False when no override (nor selector) can overlap the access, so the
 * access path can skip the tree: one hash and one load (two if the
 * access crosses a granule). Lockless; inline because every armed access
 * pays it.
 */
static __always_inline bool iohook_store_may_cover(enum iohook_space space,
						   u64 addr,
						   unsigned int width)
{
	return iohook_filter_hit(iohook_spaces[space].filter, space, addr,
				 width);
}

/* Whether anything in the space wants its accessors' slow paths. */
static inline bool iohook_space_in_use(const struct iohook_space_state *sp)
{
	return !mtree_empty(&sp->overrides) || !mtree_empty(&sp->models);
}

/* The space's name in sysfs: pciconf, mem or io. */
static inline const char *iohook_space_name(enum iohook_space space)
{
	return iohook_spaces[space].name;
}

void iohook_space_count(enum iohook_space space, u64 first, u64 last,
			int delta);

#endif /* _DRIVERS_PCI_IOHOOK_SPACE_H */

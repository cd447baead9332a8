/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private declarations shared by the iohook source files.
 */
#ifndef _DRIVERS_PCI_IOHOOK_INTERNAL_H
#define _DRIVERS_PCI_IOHOOK_INTERNAL_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/iohook.h>
#include <linux/list.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <asm/page.h>

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
	struct iohook_policy policy;
	bool has_policy;
	atomic64_t seen;		/* accesses that touched it since arm */
	atomic64_t applied;		/* of those, the ones it applied to */
	struct iohook_override __rcu *next;
	struct list_head dead;	/* on a list of removed overrides */
};

/*
 * What one override contributes to one access, in the access's bit
 * positions (bit 0 is the lowest-addressed byte's bit 0).
 */
struct iohook_contrib {
	u64 mask;	/* bits of the access this override decides */
	u64 value;	/* their values */
};

/* emulate.c: pure bit semantics, no locking, no I/O. */
u64 iohook_width_mask(unsigned int width);
bool iohook_emul_overlaps(u64 start, u32 len, u64 addr, unsigned int width);
struct iohook_contrib iohook_emul_read(u64 start, u32 len, u64 mask,
				       u64 value, u64 addr,
				       unsigned int width);
u64 iohook_emul_read_clears(u64 start, u32 len, u64 mask,
			    enum iohook_attr attr, u64 addr,
			    unsigned int width);
u64 iohook_emul_write(u64 start, u32 len, u64 mask, enum iohook_attr attr,
		      u64 value, u64 addr, unsigned int width, u64 data);
u64 iohook_hw_write_value(u64 data, u64 cover);
u64 iohook_merge(u64 hw, u64 mask, u64 value);

/*
 * store.c: the trees, read by the access paths under rcu_read_lock(), and
 * the counting filter in front of them (see there).
 */
extern struct maple_tree iohook_trees[IOHOOK_NR_SPACES];
/*
 * Whether overrides take effect: written under the store's mutex, read
 * by the slow paths inside their RCU read section (see hook.c).
 */
extern bool iohook_armed;
#define IOHOOK_FILTER_BITS	12
extern u32 iohook_filter[IOHOOK_NR_SPACES][1 << IOHOOK_FILTER_BITS];

/*
 * The filters' granules: a config function, a memory page, 16 ports. A
 * constant per space, so the access path loads nothing for it.
 */
static __always_inline unsigned int iohook_granule_shift(enum iohook_space space)
{
	switch (space) {
	case IOHOOK_SPACE_PCI:
		return 12;
	case IOHOOK_SPACE_MEM:
		return PAGE_SHIFT;
	default:
		return 4;
	}
}

/*
 * The one bucket of a filter that counts granule @g: the same function
 * for the counting (iohook_filter_update()) and every lookup, or a
 * lookup would miss what was counted.
 */
static __always_inline unsigned int iohook_filter_bucket(u64 g)
{
	return hash_64(g, IOHOOK_FILTER_BITS);
}

/*
 * Whether @filter counts anything in the granules of an access. Always
 * inline: noinstr entry points call it before they know RCU watches.
 */
static __always_inline bool iohook_filter_hit(const u32 *filter,
					      enum iohook_space space,
					      u64 addr, unsigned int width)
{
	unsigned int shift = iohook_granule_shift(space);
	u64 g = addr >> shift, g2 = (addr + width - 1) >> shift;

	if (READ_ONCE(filter[iohook_filter_bucket(g)]))
		return true;
	return g2 != g && READ_ONCE(filter[iohook_filter_bucket(g2)]);
}

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
	return iohook_filter_hit(iohook_filter[space], space, addr, width);
}

/* store.c: count a range in a filter, with the store lock held. */
void iohook_filter_update(u32 *filter, enum iohook_space space, u64 first,
			  u64 last, int delta);
void iohook_space_filter(enum iohook_space space, u64 first, u64 last,
			 int delta);
/* Serialises every change of overrides, selectors and mappings. */
extern struct mutex iohook_mutex;

/*
 * select.c and policy.c: whether an override applies to one access.
 * Lockless, for the access paths.
 */
bool iohook_cond_holds(const struct iohook_override *ov);
void iohook_record(enum iohook_space space, u64 addr, unsigned int width,
		   u64 data);
bool iohook_policy_take(struct iohook_override *ov);
bool iohook_policy_pick(u64 seed, u64 n, u32 num, u32 den);
void iohook_policy_reset(struct iohook_override *ov);
extern struct maple_tree iohook_sel_trees[IOHOOK_NR_SPACES];
extern u32 iohook_sel_filter[IOHOOK_NR_SPACES][1 << IOHOOK_FILTER_BITS];

/* select.c, with the store lock held. */
struct iohook_selector *iohook_sel_find(enum iohook_space space, u64 addr,
					u32 width, int *err);
int iohook_sel_insert(struct iohook_selector *sel);
void iohook_sel_erase(struct iohook_selector *sel, struct list_head *dead);
void iohook_sel_forget_all(void);

/* hook.c: the space-independent core of an overridden access. */
bool iohook_access_read(enum iohook_space space, u64 addr,
			unsigned int width, u64 *mask, u64 *value);
bool iohook_access_write(enum iohook_space space, u64 addr,
			 unsigned int width, u64 data, u64 *mask);

/* store_test.c: every KUnit suite's exit. */
void iohook_kunit_clear(void);

extern const char * const iohook_attr_names[IOHOOK_NR_ATTRS];
extern const char * const iohook_space_names[IOHOOK_NR_SPACES];

#endif /* _DRIVERS_PCI_IOHOOK_INTERNAL_H */

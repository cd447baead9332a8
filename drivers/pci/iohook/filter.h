/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counting filter in front of every lookup: a miss costs one hash and
 * one load instead of a tree walk.
 *
 * Each granule an override or selector touches (a config function, a
 * memory page, 16 ports) counts in one of IOHOOK_FILTER_SIZE buckets; a
 * zero bucket means nothing there. Writers change counts under the store
 * lock, up before a range becomes visible and down after it is gone, so
 * a stale count costs a walk and never a wrong answer. Readers only
 * READ_ONCE() a bucket, in any context, even before RCU watches.
 */
#ifndef _DRIVERS_PCI_IOHOOK_FILTER_H
#define _DRIVERS_PCI_IOHOOK_FILTER_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/iohook.h>
#include <linux/types.h>
#include <asm/page.h>

#define IOHOOK_FILTER_BITS	12
#define IOHOOK_FILTER_SIZE	BIT(IOHOOK_FILTER_BITS)

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
 * The one bucket that counts granule @g: the same function for the
 * counting (iohook_filter_update()) and every lookup, or a lookup would
 * miss what was counted.
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

void iohook_filter_update(u32 *filter, enum iohook_space space, u64 first,
			  u64 last, int delta);

#endif /* _DRIVERS_PCI_IOHOOK_FILTER_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Counting a range in a filter (filter.h says what a filter is).
 */
#include "filter.h"

/**
 * iohook_filter_update() - count a range in a filter
 * @filter: one of a space's filters, or the virtual filter of mappings
 * @space: the space whose granule the filter counts in
 * @first: first address
 * @last: last address
 * @delta: +1 before the range becomes visible, -1 after it is gone
 *
 * The caller holds the store lock, which serialises every count.
 */
void iohook_filter_update(u32 *filter, enum iohook_space space, u64 first,
			  u64 last, int delta)
{
	u64 g, gfirst = first >> iohook_granule_shift(space);
	u64 glast = last >> iohook_granule_shift(space);
	u32 *b;

	if (glast - gfirst >= IOHOOK_FILTER_SIZE) {
		/* Wider than the filter: every bucket counts it once. */
		for (b = filter; b < filter + IOHOOK_FILTER_SIZE; b++)
			WRITE_ONCE(*b, *b + delta);
		return;
	}
	for (g = gfirst; g <= glast; g++) {
		b = &filter[iohook_filter_bucket(g)];
		WRITE_ONCE(*b, *b + delta);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Whether an override description makes sense on its own: lengths, masks,
 * values, attributes, the bounds of each space, conditions and policies.
 * What it overlaps is the store's question (store.c).
 */
#include <linux/errno.h>
#include <linux/export.h>

#include "emulate.h"
#include "validate.h"

/* Highest physical address an override may cover (52-bit x86_64). */
#define IOHOOK_MEM_MAX	((1ULL << 52) - 1)

/**
 * iohook_range_last() - the last address of a range, if it fits its space
 * @space: the address space
 * @addr: first address
 * @len: length in bytes, at least 1
 * @last: set to the last address
 *
 * A PCI config range must stay within one function's 4 KiB config space.
 *
 * Return: 0, or -ERANGE if the range leaves its space.
 */
int iohook_range_last(enum iohook_space space, u64 addr, u64 len, u64 *last)
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
	ret = iohook_range_last(spec->space, spec->addr, spec->len, &last);
	if (!ret)
		ret = iohook_validate_cond(spec);
	if (!ret)
		ret = iohook_validate_policy(&spec->policy);
	return ret;
}
EXPORT_SYMBOL_GPL(iohook_validate);

// SPDX-License-Identifier: GPL-2.0
/*
 * The bit semantics of iohook overrides.
 *
 * Pure functions of an override's fields, an access and the hardware
 * value: no locking, no I/O, no allocation, so that the KUnit suite can
 * check every rule directly and the access paths can call them in any
 * context.
 *
 * Two coordinate systems meet here. An override of length L <= 8 keeps
 * its mask and value as L little-endian bytes, bit 0 being bit 0 of its
 * first byte. An access of width W sees W little-endian bytes from its
 * own address. The helpers translate the bytes the two have in common.
 */
#include <linux/bits.h>
#include <linux/minmax.h>

#include "emulate.h"

/**
 * iohook_width_mask() - all-ones mask for @width bytes
 * @width: 1 to 8
 *
 * Return: a mask with the low @width * 8 bits set.
 */
u64 iohook_width_mask(unsigned int width)
{
	return width >= 8 ? ~0ULL : GENMASK_ULL(width * 8 - 1, 0);
}

/**
 * iohook_emul_overlaps() - whether an override and an access share a byte
 * @start: first address of the override
 * @len: its length in bytes
 * @addr: first address of the access
 * @width: its width in bytes
 *
 * Return: true if at least one byte is in both.
 */
bool iohook_emul_overlaps(u64 start, u32 len, u64 addr, unsigned int width)
{
	return addr < start + len && start < addr + width;
}

/*
 * The bytes an override and an access have in common: how many, and
 * where they start in each one's bit numbering.
 */
struct iohook_overlap {
	unsigned int bytes;
	unsigned int acc_shift;
	unsigned int ov_shift;
};

static struct iohook_overlap iohook_overlap(u64 start, u32 len, u64 addr,
					    unsigned int width)
{
	u64 lo = max(start, addr);
	u64 hi = min(start + len, addr + width);
	struct iohook_overlap o = {};

	if (lo >= hi)
		return o;
	o.bytes = hi - lo;
	o.acc_shift = (lo - addr) * 8;
	/* Byte-filled ranges (len > 8) are the same in every byte. */
	o.ov_shift = len > IOHOOK_MAX_MASKED_LEN ? 0 : (lo - start) * 8;
	return o;
}

/**
 * iohook_emul_read() - what an override contributes to a read
 * @start: first address of the override
 * @len: its length in bytes
 * @mask: its mask (ignored when @len > 8: every byte is overridden)
 * @value: its current value (the fill byte when @len > 8)
 * @addr: first address of the access
 * @width: access width in bytes, 1 to 8
 *
 * Return: the bits of the access that the override decides, and their
 * values, both in the access's bit positions. An override that does not
 * overlap the access contributes nothing.
 */
struct iohook_contrib iohook_emul_read(u64 start, u32 len, u64 mask,
				       u64 value, u64 addr,
				       unsigned int width)
{
	struct iohook_overlap o = iohook_overlap(start, len, addr, width);
	struct iohook_contrib c = {};
	u64 bytes, bits, vals;

	if (!o.bytes)
		return c;
	bytes = iohook_width_mask(o.bytes);
	if (len > IOHOOK_MAX_MASKED_LEN) {
		bits = bytes;
		vals = (value & 0xff) * 0x0101010101010101ULL;
	} else {
		bits = (mask >> o.ov_shift) & bytes;
		vals = value >> o.ov_shift;
	}
	c.mask = bits << o.acc_shift;
	c.value = (vals & bits) << o.acc_shift;
	return c;
}

/**
 * iohook_emul_read_clears() - the override bits a read clears
 * @start: first address of the override
 * @len: its length in bytes
 * @mask: its mask
 * @attr: its attribute
 * @addr: first address of the access
 * @width: access width in bytes
 *
 * Only a read-to-clear override changes on a read: every overridden bit
 * the access returned becomes 0. Bits of the override outside the access
 * are kept, so a byte read of a 4-byte rc register clears that byte only.
 *
 * Return: the bits to clear, in the override's bit positions.
 */
u64 iohook_emul_read_clears(u64 start, u32 len, u64 mask,
			    enum iohook_attr attr, u64 addr,
			    unsigned int width)
{
	struct iohook_overlap o = iohook_overlap(start, len, addr, width);

	if (attr != IOHOOK_RC || !o.bytes || len > IOHOOK_MAX_MASKED_LEN)
		return 0;
	return mask & (iohook_width_mask(o.bytes) << o.ov_shift);
}

/**
 * iohook_emul_write() - an override's value after a write
 * @start: first address of the override
 * @len: its length in bytes
 * @mask: its mask
 * @attr: its attribute
 * @value: its value before the write
 * @addr: first address of the access
 * @width: access width in bytes
 * @data: the value written, in the access's bit positions
 *
 * rw bits take the written value, wc bits written with 1 become 0, ro and
 * rc bits ignore writes. Bits outside the access are unchanged.
 *
 * Return: the new value, in the override's bit positions.
 */
u64 iohook_emul_write(u64 start, u32 len, u64 mask, enum iohook_attr attr,
		      u64 value, u64 addr, unsigned int width, u64 data)
{
	struct iohook_overlap o = iohook_overlap(start, len, addr, width);
	u64 wmask, wdata;

	if (!o.bytes || len > IOHOOK_MAX_MASKED_LEN)
		return value;
	wmask = mask & (iohook_width_mask(o.bytes) << o.ov_shift);
	wdata = ((data >> o.acc_shift) << o.ov_shift) & wmask;

	switch (attr) {
	case IOHOOK_RW:
		return (value & ~wmask) | wdata;
	case IOHOOK_WC:
		return value & ~wdata;
	default:
		return value;
	}
}

/**
 * iohook_hw_write_value() - what a partly overridden write sends
 * @data: the value the caller wrote
 * @cover: the bits overrides cover
 *
 * The hardware gets the caller's bits where no override stands and 0 in
 * every covered bit, whatever the override's attribute: never its own
 * value read back, which on a write-1-to-clear register would clear a
 * real event the override hides. 0 is the neutral value of status and
 * command bits.
 *
 * Return: @data with the @cover bits cleared.
 */
u64 iohook_hw_write_value(u64 data, u64 cover)
{
	return data & ~cover;
}

/**
 * iohook_merge() - combine hardware bits with overridden bits
 * @hw: the value read from the hardware
 * @mask: the overridden bits
 * @value: their values
 *
 * Return: @value where @mask is set, @hw elsewhere.
 */
u64 iohook_merge(u64 hw, u64 mask, u64 value)
{
	return (hw & ~mask) | (value & mask);
}

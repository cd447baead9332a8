// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_semantics - libFuzzer target for drivers/pci/iohook/emulate.c,
 * built unchanged for userspace, against a reference model written from
 * the rules of Documentation/PCI/iohook.rst ("Overrides" and "Semantics
 * of an access"), byte by byte:
 *
 * - an override of length L <= 8 decides the bits of its mask in its L
 *   little-endian bytes; one of L > 8 is byte-filled: every byte reads
 *   as the low byte of its value, all 8 bits;
 * - a read takes every overridden bit from the override, every other
 *   bit from the hardware; each byte follows its own override;
 * - rc: the overridden bits a read returned become 0; rw: overridden
 *   bits take the written value; wc: writing 1 clears, 0 leaves; ro
 *   (and rc) bits ignore writes; bits outside the access never change;
 * - a partly overridden write sends the hardware the caller's bits
 *   where no override stands and 0 in every overridden bit.
 *
 * Each input is two overrides that do not share a byte, an access of
 * width 1, 2, 4 or 8 anywhere around them, the hardware's value and the
 * data written; the model and emulate.c must agree on every result.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "emulate.h"

struct ov {
	u64 start;
	u32 len;
	u64 mask;
	u64 value;
	enum iohook_attr attr;
};

/* Bits @o decides in byte @a (0 if it does not cover it), and their values. */
static unsigned int model_bits(const struct ov *o, u64 a, unsigned int *vals)
{
	unsigned int i;

	*vals = 0;
	if (a < o->start || a >= o->start + o->len)
		return 0;
	if (o->len > 8) {
		*vals = o->value & 0xff;
		return 0xff;
	}
	i = a - o->start;
	*vals = (o->value >> (8 * i)) & 0xff;
	return (o->mask >> (8 * i)) & 0xff;
}

static u64 take(const u8 **p, size_t *n, unsigned int bytes)
{
	u64 v = 0;

	while (bytes--) {
		v = v << 8 | (*n ? **p : 0);
		if (*n) {
			(*p)++;
			(*n)--;
		}
	}
	return v;
}

static void make_ov(struct ov *o, u64 start, const u8 **p, size_t *n)
{
	u64 wmask;

	o->start = start;
	o->len = 1 + take(p, n, 1) % 12;
	o->attr = take(p, n, 1) % IOHOOK_NR_ATTRS;
	o->mask = take(p, n, 8);
	o->value = take(p, n, 8);
	if (o->len > 8) {
		/* The guide: mask ff, attribute ro. */
		o->mask = 0xff;
		o->value &= 0xff;
		o->attr = IOHOOK_RO;
		return;
	}
	wmask = iohook_width_mask(o->len);
	o->mask &= wmask;
	if (!o->mask)
		o->mask = 1;
	o->value &= o->mask;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const unsigned int widths[] = { 1, 2, 4, 8 };
	const u64 base = 0x1000;
	struct iohook_contrib c[2];
	u64 addr, hw, wdata, cover = 0, val = 0, hw_write = 0, got;
	unsigned int width, j, k;
	struct ov o[2];

	make_ov(&o[0], base + take(&data, &size, 1) % 16, &data, &size);
	make_ov(&o[1], o[0].start + o[0].len + take(&data, &size, 1) % 4,
		&data, &size);
	addr = base + take(&data, &size, 1) % 40;
	width = widths[take(&data, &size, 1) % 4];
	hw = take(&data, &size, 8) & iohook_width_mask(width);
	wdata = take(&data, &size, 8) & iohook_width_mask(width);

	for (k = 0; k < 2; k++) {
		bool any = false;

		for (j = 0; j < width; j++) {
			unsigned int vals;

			any |= model_bits(&o[k], addr + j, &vals) != 0 ||
			       (addr + j >= o[k].start && addr + j < o[k].start + o[k].len);
		}
		CHECK(iohook_emul_overlaps(o[k].start, o[k].len, addr, width) == any);
		c[k] = iohook_emul_read(o[k].start, o[k].len, o[k].mask,
					o[k].value, addr, width);
	}

	/* Read: each byte from its own override, or the hardware. */
	for (j = 0; j < width; j++) {
		unsigned int v0, v1, b0 = model_bits(&o[0], addr + j, &v0);
		unsigned int b1 = model_bits(&o[1], addr + j, &v1);
		unsigned int hwb = (hw >> (8 * j)) & 0xff, dtb = (wdata >> (8 * j)) & 0xff;

		CHECK(!(b0 & b1));
		cover |= (u64)(b0 | b1) << (8 * j);
		val |= (u64)((hwb & ~(b0 | b1)) | (v0 & b0) | (v1 & b1)) << (8 * j);
		hw_write |= (u64)(dtb & ~(b0 | b1)) << (8 * j);
	}
	CHECK((c[0].mask | c[1].mask) == cover);
	CHECK(iohook_merge(hw, c[0].mask | c[1].mask, c[0].value | c[1].value) == val);
	CHECK(iohook_hw_write_value(wdata, cover) == hw_write);

	for (k = 0; k < 2; k++) {
		u64 after_read = o[k].value, after_write = o[k].value;

		for (j = 0; j < width; j++) {
			u64 a = addr + j, i = a - o[k].start;
			unsigned int vals, bits = model_bits(&o[k], a, &vals);
			unsigned int d = (wdata >> (8 * j)) & 0xff;

			if (!bits || o[k].len > 8)
				continue;
			if (o[k].attr == IOHOOK_RC)
				after_read &= ~((u64)bits << (8 * i));
			if (o[k].attr == IOHOOK_RW)
				after_write = (after_write & ~((u64)bits << (8 * i))) |
					      ((u64)(d & bits) << (8 * i));
			if (o[k].attr == IOHOOK_WC)
				after_write &= ~((u64)(d & bits) << (8 * i));
		}
		got = o[k].value & ~iohook_emul_read_clears(o[k].start, o[k].len,
							     o[k].mask, o[k].attr,
							     addr, width);
		CHECK(got == after_read);
		got = iohook_emul_write(o[k].start, o[k].len, o[k].mask, o[k].attr,
					o[k].value, addr, width, wdata);
		CHECK(got == after_write);
	}
	return 0;
}

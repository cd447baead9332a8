/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bit semantics of overrides (emulate.c): pure functions, no locking,
 * no I/O, so KUnit and the userspace fuzzer test them directly.
 */
#ifndef _DRIVERS_PCI_IOHOOK_EMULATE_H
#define _DRIVERS_PCI_IOHOOK_EMULATE_H

#include <linux/iohook.h>
#include <linux/types.h>

/*
 * What one override contributes to one access, in the access's bit
 * positions (bit 0 is the lowest-addressed byte's bit 0).
 */
struct iohook_contrib {
	u64 mask;	/* bits of the access this override decides */
	u64 value;	/* their values */
};

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

#endif /* _DRIVERS_PCI_IOHOOK_EMULATE_H */

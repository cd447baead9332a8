/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _DRIVERS_PCI_IOHOOK_MMIO_H
#define _DRIVERS_PCI_IOHOOK_MMIO_H

#include <linux/types.h>

bool iohook_virt_to_phys(const void __iomem *addr, unsigned int width,
			 u64 *phys);
bool iohook_mmio_phys(const void __iomem *addr, unsigned int width,
		      u64 *phys);

/* mappings.c: the virtual filter of ioremap() mappings. */
extern u32 iohook_vfilter[];
extern bool iohook_maps_untracked;
void iohook_maps_count_range(u64 first, u64 last, int delta);

#endif

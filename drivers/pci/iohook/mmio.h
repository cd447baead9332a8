/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _DRIVERS_PCI_IOHOOK_MMIO_H
#define _DRIVERS_PCI_IOHOOK_MMIO_H

#include <linux/types.h>

bool iohook_virt_to_phys(const void __iomem *addr, unsigned int width,
			 u64 *phys);

#endif

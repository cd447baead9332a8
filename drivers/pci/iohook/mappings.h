/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The virtual filter of the pages that map overridden memory
 * (mappings.c), asked by every armed MMIO access (mmio.h).
 */
#ifndef _DRIVERS_PCI_IOHOOK_MAPPINGS_H
#define _DRIVERS_PCI_IOHOOK_MAPPINGS_H

#include <linux/types.h>

#include "filter.h"

extern u32 iohook_vfilter[IOHOOK_FILTER_SIZE];

/*
 * How far below an override the virtual filter counts its pages: an
 * access of up to 8 bytes that overlaps a range starts at most 7 bytes
 * before it, so counting from there makes the page of an access's
 * first byte enough to ask (mappings.c).
 */
#define IOHOOK_VFILTER_REACH	(sizeof(u64) - 1)

#endif /* _DRIVERS_PCI_IOHOOK_MAPPINGS_H */

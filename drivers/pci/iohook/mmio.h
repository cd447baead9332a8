/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From the address an MMIO accessor gets to the physical address memory
 * overrides are keyed by: the inline miss test every armed MMIO access
 * makes, and the translations behind it (mmio.c).
 */
#ifndef _DRIVERS_PCI_IOHOOK_MMIO_H
#define _DRIVERS_PCI_IOHOOK_MMIO_H

#include <linux/mm.h>
#include <linux/types.h>

#include "filter.h"
#include "mappings.h"

bool iohook_virt_to_phys(const void __iomem *addr, unsigned int width,
			 u64 *phys);

/* No physical address: the access cannot be overridden. */
#define IOHOOK_NO_PHYS	(~0ULL)
u64 iohook_walk_phys(const void __iomem *addr, unsigned int width);

/*
 * The linear kernel addresses: the direct map and the kernel image.
 * Return: the physical address, or IOHOOK_NO_PHYS for any other.
 */
static __always_inline u64 iohook_linear_phys(unsigned long va,
					      unsigned int width)
{
	unsigned long last = va + width - 1;
	unsigned long direct = max_pfn_mapped << PAGE_SHIFT;

	if (va - PAGE_OFFSET < direct && last - PAGE_OFFSET < direct)
		return va - PAGE_OFFSET;
	if (va - __START_KERNEL_map < KERNEL_IMAGE_SIZE &&
	    last - __START_KERNEL_map < KERNEL_IMAGE_SIZE)
		return va - __START_KERNEL_map + phys_base;
	return IOHOOK_NO_PHYS;
}

/**
 * iohook_mmio_maybe() - whether a memory override may be behind an access
 * @addr: the address an MMIO accessor was given
 *
 * The question every MMIO access in the kernel asks while a memory
 * override is armed, so it is inline, makes no call and translates
 * nothing: one hash and one load of the virtual filter, for the page of
 * the first byte only (mappings.c says why that is complete). The fixmap
 * is never a miss here: its accesses are translated by the walk. The
 * fixmap test is folded into the answer, a number, so that the caller
 * makes one conditional branch, not two: under TCG each conditional
 * branch ends a translation block, which costs more than the
 * instructions do.
 *
 * Return: 0 if the access can go straight to the hardware.
 */
static __always_inline unsigned long iohook_mmio_maybe(const void __iomem *addr)
{
	unsigned long va = (unsigned long)addr;
	u64 g = va >> iohook_granule_shift(IOHOOK_SPACE_MEM);

	return READ_ONCE(iohook_vfilter[iohook_filter_bucket(g)]) |
	       (va >= FIXADDR_START);
}

/* iohook_mmio_maybe(), as a bool: true if no override can be behind @addr. */
static __always_inline bool iohook_mmio_miss(const void __iomem *addr)
{
	return !iohook_mmio_maybe(addr);
}

/**
 * iohook_mmio_phys() - the physical address to look an MMIO access up by
 * @addr: the address an MMIO accessor was given
 * @width: the access width, 1 to 8
 *
 * Return: the physical address of the first byte: by arithmetic for a
 * linear address, else by a page-table walk (iohook_virt_to_phys());
 * IOHOOK_NO_PHYS if it does not translate.
 */
static __always_inline u64 iohook_mmio_phys(const void __iomem *addr,
					    unsigned int width)
{
	u64 phys = iohook_linear_phys((unsigned long)addr, width);

	return phys != IOHOOK_NO_PHYS ? phys : iohook_walk_phys(addr, width);
}

#endif /* _DRIVERS_PCI_IOHOOK_MMIO_H */

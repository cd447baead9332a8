// SPDX-License-Identifier: GPL-2.0
/*
 * Translate an accessor's virtual address to the physical
 * address that memory overrides are keyed by.
 *
 * MMIO is reached through ioremap()ed addresses in the vmalloc area, for
 * which virt_to_phys() is wrong. Walking the kernel page tables gives the
 * right answer for ioremap, the fixmap and the direct map alike, without
 * locks or allocation, so it is safe on the access path. Unlike
 * slow_virt_to_phys(), an unmapped address is not a BUG: the access is
 * simply left alone.
 */
#include <linux/pgtable.h>

#include "internal.h"
#include "mmio.h"

/**
 * iohook_virt_to_phys() - physical address behind a kernel virtual address
 * @addr: the address an MMIO accessor was given
 * @phys: where to store the physical address
 *
 * Return: true if @addr is mapped and @phys was set.
 */
bool iohook_virt_to_phys(const void __iomem *addr, u64 *phys)
{
	unsigned long va = (unsigned long)addr;
	unsigned int level;
	pte_t *pte;

	pte = lookup_address(va, &level);
	if (!pte || !pte_present(*pte))
		return false;

	switch (level) {
	case PG_LEVEL_1G:
		*phys = ((u64)pud_pfn(*(pud_t *)pte) << PAGE_SHIFT) |
			(va & ~PUD_MASK);
		break;
	case PG_LEVEL_2M:
		*phys = ((u64)pmd_pfn(*(pmd_t *)pte) << PAGE_SHIFT) |
			(va & ~PMD_MASK);
		break;
	default:
		*phys = ((u64)pte_pfn(*pte) << PAGE_SHIFT) | (va & ~PAGE_MASK);
		break;
	}
	return true;
}

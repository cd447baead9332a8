// SPDX-License-Identifier: GPL-2.0
/*
 * Translate an accessor's virtual address to the physical
 * address that memory overrides are keyed by, as cheaply as its kind of
 * address allows.
 *
 * MMIO is reached through ioremap()ed addresses in the vmalloc area, for
 * which virt_to_phys() is wrong. Walking the kernel page tables gives the
 * right answer for ioremap, the fixmap and the direct map alike, without
 * locks or allocation, so it is safe on the access path; but it is slow,
 * and every armed readl() in the kernel would pay it. So the access path
 * asks iohook_mmio_maybe() (mmio.h) first, and walks only where it must
 * (see mappings.c). Unlike
 * slow_virt_to_phys(), an unmapped address is not a BUG: the access is
 * simply left alone.
 */
#include <linux/mm.h>
#include <linux/pgtable.h>

#include "mmio.h"

/* The physical address of one byte, or false if it is not mapped. */
static bool iohook_byte_phys(unsigned long va, u64 *phys)
{
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

/**
 * iohook_virt_to_phys() - physical address behind an MMIO access
 * @addr: the address an MMIO accessor was given
 * @width: the access width, 1 to 8
 * @phys: where to store the physical address of its first byte
 *
 * An unaligned access may cross a page boundary, and the two pages need
 * not be physically contiguous. Such an access has no single physical
 * range to look up, so it is left to the hardware: its last byte must
 * translate to @phys + @width - 1.
 *
 * Return: true if the access is mapped, physically contiguous, and
 * @phys was set.
 */
bool iohook_virt_to_phys(const void __iomem *addr, unsigned int width,
			 u64 *phys)
{
	unsigned long va = (unsigned long)addr, last = va + width - 1;
	u64 plast;

	if (!iohook_byte_phys(va, phys))
		return false;
	if ((va >> PAGE_SHIFT) == (last >> PAGE_SHIFT))
		return true;
	return iohook_byte_phys(last, &plast) && plast == *phys + width - 1;
}

/**
 * iohook_walk_phys() - iohook_virt_to_phys(), for iohook_mmio_phys()
 * @addr: the address an MMIO accessor was given
 * @width: the access width, 1 to 8
 *
 * Return: the physical address, or IOHOOK_NO_PHYS.
 */
u64 iohook_walk_phys(const void __iomem *addr, unsigned int width)
{
	u64 phys;

	return iohook_virt_to_phys(addr, width, &phys) ? phys : IOHOOK_NO_PHYS;
}

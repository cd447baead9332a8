// SPDX-License-Identifier: GPL-2.0
/*
 * The ioremap() mappings, so that an MMIO miss never walks page tables.
 *
 * Memory overrides are keyed by physical address, but an accessor gets a
 * virtual one. Translating every access by a page-table walk put about
 * 170 ns (under QEMU TCG) on every readl() in the kernel while any memory
 * override was armed. Instead, the access path first asks a filter keyed
 * by *virtual* page, iohook_vfilter, which counts the virtual pages that
 * map an overridden (or selector) physical page. A miss there costs one
 * hash and one load, and needs no translation at all.
 *
 * Why the filter is complete, for each kind of kernel virtual address
 * (see iohook_mmio_phys() in mmio.c, which picks the kind):
 * - the direct map and the kernel image are linear: their physical
 *   address is arithmetic, and the physical filter decides;
 * - every ioremap() flavour on x86 (ioremap, _wc, _uc, _cache, _prot,
 *   _encrypted, memremap() of non-RAM, pci_iomap()) creates its mapping
 *   in __ioremap_caller(), which reports it here before it returns the
 *   address, and iounmap() reports its end before the mapping goes: so
 *   no accessor can use an ioremap address this file does not know;
 * - each (mapping, overridden range) pair is counted exactly once, by
 *   whichever of the two arrives second, and uncounted by whichever
 *   leaves first; mappings, overrides and selectors all change under
 *   the store's mutex, so the two sides never miss each other;
 * - counts go up before the override or mapping can be used and down
 *   only after: a stale count only costs a walk, never a wrong answer;
 * - two mappings of one physical range each count their own virtual
 *   pages; a BAR that moves gets new mappings from its driver, which are
 *   counted when they are made;
 * - if a mapping cannot be recorded (no memory), every vmalloc-area
 *   access falls back to the page-table walk from then on.
 * Anything else in the vmalloc area (vmap() of RAM pages) is not MMIO
 * and is never seen by a memory override; the fixmap (the IO-APIC) and
 * other regions are translated by the walk, as before.
 */
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "internal.h"
#include "mmio.h"

u32 iohook_vfilter[1 << IOHOOK_FILTER_BITS];
bool iohook_maps_untracked;

/* One ioremap() mapping: page-aligned, as __ioremap_caller() maps it. */
struct iohook_map {
	unsigned long virt;
	u64 phys;
	u64 size;
	struct list_head node;
};

static LIST_HEAD(iohook_maps);

/*
 * Count (@delta) in the virtual filter the pages of @m that map the
 * physical range [@first, @last].
 */
static void iohook_map_count(const struct iohook_map *m, u64 first, u64 last,
			     int delta)
{
	u64 lo = max(first, m->phys), hi = min(last, m->phys + m->size - 1);

	if (lo > hi)
		return;
	iohook_filter_update(iohook_vfilter, IOHOOK_SPACE_MEM,
			     m->virt + (lo - m->phys), m->virt + (hi - m->phys),
			     delta);
}

/**
 * iohook_maps_count_range() - count a physical range in every mapping
 * @first: first physical address of a memory override or selector
 * @last: its last address
 * @delta: +1 when it is added, -1 when it goes
 *
 * Called with the store lock held.
 */
void iohook_maps_count_range(u64 first, u64 last, int delta)
{
	struct iohook_map *m;

	lockdep_assert_held(&iohook_mutex);
	list_for_each_entry(m, &iohook_maps, node)
		iohook_map_count(m, first, last, delta);
}

/* Count @m against everything the memory space holds. */
static void iohook_map_count_all(const struct iohook_map *m, int delta)
{
	struct maple_tree *trees[] = {
		&iohook_trees[IOHOOK_SPACE_MEM],
		&iohook_sel_trees[IOHOOK_SPACE_MEM],
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(trees); i++) {
		unsigned long index = m->phys;
		void *entry;

		/* Before the store's initcall the trees are still empty. */
		while ((entry = mt_find(trees[i], &index,
					m->phys + m->size - 1))) {
			u64 start, len;

			if (i) {
				struct iohook_selector *sel = entry;

				start = sel->addr;
				len = sel->width;
			} else {
				struct iohook_override *ov = entry;

				/* Every override on the chain counted once. */
				for (; ov; ov = rcu_dereference_protected(ov->next, 1))
					iohook_map_count(m, ov->start,
							 ov->start + ov->len - 1,
							 delta);
				continue;
			}
			iohook_map_count(m, start, start + len - 1, delta);
		}
	}
}

/**
 * iohook_ioremap_added() - an ioremap() mapping was made
 * @addr: the address ioremap() returns
 * @phys: the physical address asked for
 * @size: the size asked for
 *
 * Called by __ioremap_caller() before it returns @addr, in process
 * context.
 */
void iohook_ioremap_added(void __iomem *addr, u64 phys, u64 size)
{
	struct iohook_map *m = kmalloc(sizeof(*m), GFP_KERNEL);
	u64 offset = phys & ~PAGE_MASK;

	mutex_lock(&iohook_mutex);
	if (!m) {
		WRITE_ONCE(iohook_maps_untracked, true);
		goto out;
	}
	m->virt = (unsigned long)addr & PAGE_MASK;
	m->phys = phys - offset;
	m->size = PAGE_ALIGN(size + offset);
	list_add(&m->node, &iohook_maps);
	iohook_map_count_all(m, 1);
out:
	mutex_unlock(&iohook_mutex);
}

/**
 * iohook_ioremap_removed() - an ioremap() mapping is going away
 * @addr: the address ioremap() returned
 *
 * Called by iounmap() while the mapping still exists.
 */
void iohook_ioremap_removed(volatile void __iomem *addr)
{
	unsigned long virt = (unsigned long)addr & PAGE_MASK;
	struct iohook_map *m;

	mutex_lock(&iohook_mutex);
	list_for_each_entry(m, &iohook_maps, node) {
		if (m->virt != virt)
			continue;
		iohook_map_count_all(m, -1);
		list_del(&m->node);
		kfree(m);
		break;
	}
	mutex_unlock(&iohook_mutex);
}

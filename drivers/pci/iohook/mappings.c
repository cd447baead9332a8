// SPDX-License-Identifier: GPL-2.0
/*
 * The virtual pages that map overridden memory, so that an MMIO miss
 * never translates anything.
 *
 * Memory overrides are keyed by physical address, but an accessor gets a
 * virtual one. Translating every access by a page-table walk put about
 * 170 ns (under QEMU TCG) on every readl() in the kernel while any memory
 * override was armed. Instead, the access path first asks a filter keyed
 * by *virtual* page, iohook_vfilter, which counts every virtual page that
 * maps an overridden (or selector) physical page. A miss there costs one
 * hash and one load, whatever the kind of address (iohook_mmio_maybe() in
 * mmio.h); only a hit translates. The access path asks only for the page
 * of an access's first byte, so each range is counted from
 * IOHOOK_VFILTER_REACH (7) bytes below its start: an access of at most
 * 8 bytes that overlaps the range starts no lower than that.
 *
 * Why the filter is complete: a physical page is seen through
 * - the direct map and the kernel image, both linear: their aliases are
 *   arithmetic, and counted with the range itself, over a size that
 *   never changes (so a remove uncounts exactly what its add counted);
 * - ioremap() mappings: every flavour on x86 (ioremap, _wc, _uc, _cache,
 *   _prot, _encrypted, memremap() of non-RAM, pci_iomap()) is made in
 *   __ioremap_caller(), which reports it here before it returns the
 *   address, and iounmap() reports its end before the mapping goes: so
 *   no accessor can use an ioremap address this file does not know;
 * - the fixmap (the IO-APIC): iohook_mmio_maybe() never says "miss" there,
 *   those accesses are translated by the walk, as before.
 * Each (mapping, range) pair is counted exactly once, by whichever of the
 * two arrives second, and uncounted by whichever leaves first; mappings,
 * overrides and selectors all change under the store's mutex, so the two
 * sides never miss each other. Counts go up before an override or a
 * mapping can be used and down only after: a stale count costs a walk,
 * never a wrong answer. Two mappings of one physical range each count
 * their own pages; a BAR that moves gets new mappings from its driver,
 * counted when they are made. If a mapping cannot be recorded (no
 * memory), every bucket counts one more, for good: every access then
 * falls back to the walk.
 *
 * Not seen: a vmap() alias of RAM pages (vmap is not MMIO, and drivers do
 * not use MMIO accessors on it).
 */
#include <linux/init.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "mappings.h"
#include "model.h"
#include "override.h"
#include "space.h"

u32 iohook_vfilter[IOHOOK_FILTER_SIZE];
static bool iohook_maps_untracked;

/* One ioremap() mapping: page-aligned, as __ioremap_caller() maps it. */
struct iohook_map {
	unsigned long virt;
	u64 phys;
	u64 size;
	struct list_head node;
};

static LIST_HEAD(iohook_maps);

/* All the physical memory the direct map can hold: fixed from boot. */
#define IOHOOK_DIRECT_MAP_SIZE	BIT_ULL(MAX_PHYSMEM_BITS)

/*
 * Count (@delta) in the virtual filter the pages of @m that map the
 * physical range [@first, @last], and the page that holds the
 * IOHOOK_VFILTER_REACH bytes before them: an access that starts there
 * overlaps the range, and the access path asks only for the page of an
 * access's first byte. (That page may be another mapping's, or none:
 * counting it only costs a walk there.)
 */
static void iohook_map_count(const struct iohook_map *m, u64 first, u64 last,
			     int delta)
{
	u64 lo = max(first, m->phys), hi = min(last, m->phys + m->size - 1);
	unsigned long vlo;

	if (lo > hi)
		return;
	vlo = m->virt + (lo - m->phys);
	iohook_filter_update(iohook_vfilter, IOHOOK_SPACE_MEM,
			     vlo - IOHOOK_VFILTER_REACH,
			     m->virt + (hi - m->phys), delta);
}

/*
 * Count a physical range of the memory space in every alias: the memory
 * space's count_aliases, called with the store lock held whenever a
 * memory override or selector is counted (+1) or uncounted (-1).
 */
static void iohook_maps_count_range(u64 first, u64 last, int delta)
{
	struct iohook_map *m;
	struct iohook_map linear[] = {
		/*
		 * The direct map, sized for all the memory it can ever
		 * map rather than from max_pfn_mapped: memory hot-added
		 * between an override's add and its remove would
		 * otherwise uncount pages that were never counted.
		 */
		{ .virt = PAGE_OFFSET, .phys = 0,
		  .size = IOHOOK_DIRECT_MAP_SIZE },
		/* The kernel image. */
		{ .virt = __START_KERNEL_map, .phys = phys_base,
		  .size = KERNEL_IMAGE_SIZE },
	};
	unsigned int i;

	lockdep_assert_held(&iohook_mutex);
	for (i = 0; i < ARRAY_SIZE(linear); i++)
		iohook_map_count(&linear[i], first, last, delta);
	list_for_each_entry(m, &iohook_maps, node)
		iohook_map_count(m, first, last, delta);
}

/*
 * Count @m against everything the memory space holds: every override
 * (those chained on one tree entry too), every selector and every bound
 * model's range. Before the space's initcall the trees are still empty.
 */
static void iohook_map_count_all(const struct iohook_map *m, int delta)
{
	struct iohook_space_state *sp = &iohook_spaces[IOHOOK_SPACE_MEM];
	u64 last = m->phys + m->size - 1;
	struct iohook_selector *sel;
	struct iohook_override *ov;
	struct iohook_model *model;
	unsigned long index;

	lockdep_assert_held(&iohook_mutex);
	index = m->phys;
	while ((ov = mt_find(&sp->overrides, &index, last)))
		for (; ov; ov = iohook_protected(ov->next))
			iohook_map_count(m, ov->start, ov->start + ov->len - 1,
					 delta);
	index = m->phys;
	while ((sel = mt_find(&sp->selectors, &index, last)))
		iohook_map_count(m, sel->addr, sel->addr + sel->width - 1,
				 delta);
	index = m->phys;
	while ((model = mt_find(&sp->models, &index, last)))
		iohook_map_count(m, model->first, model->last, delta);
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
		/* Every vmalloc-area access walks from now on. */
		if (!iohook_maps_untracked)
			iohook_filter_update(iohook_vfilter, IOHOOK_SPACE_MEM, 0,
					     ULONG_MAX, 1);
		iohook_maps_untracked = true;
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
 * @addr: the address ioremap() returned, as a number
 *
 * Called by iounmap() while the mapping still exists.
 */
void iohook_ioremap_removed(unsigned long addr)
{
	unsigned long virt = addr & PAGE_MASK;
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

/* Before any memory override can exist: the sysfs layer is arch_initcall. */
static int __init iohook_maps_init(void)
{
	mutex_lock(&iohook_mutex);
	iohook_spaces[IOHOOK_SPACE_MEM].count_aliases = iohook_maps_count_range;
	mutex_unlock(&iohook_mutex);
	return 0;
}
core_initcall(iohook_maps_init);

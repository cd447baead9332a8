// SPDX-License-Identifier: GPL-2.0
/*
 * Selector registers: the index half of index/data register pairs.
 *
 * A conditional override applies only while the last value written to
 * its selector, masked, equals its condition's value: the PHY register
 * number in the e1000e's MDIC, the slot number in QEMU's ACPI memory
 * hotplug block, the index at port 0x70. iohook records that value as
 * the accessors write it, so the condition is decided the way the
 * hardware decides it, from the write that came before.
 *
 * Rules (Documentation/PCI/iohook.rst spells them out for users):
 * - Recording happens only while iohook is armed, in the write slow
 *   path: a write that overlaps a selector's bytes updates those bytes of
 *   the recorded value (a byte write to a 4-byte selector changes one
 *   byte). The write itself still goes to the hardware, unless an
 *   override covers it.
 * - Before the first recorded write the value is unknown, and no
 *   condition on it holds. Arming from the disarmed state forgets every
 *   recorded value, because writes made while disarmed were not seen.
 *   A selector is forgotten with the last override that names it.
 * - A write is recorded before the overrides decide that same write, so
 *   a register that is its own selector (MDIC) is judged by the command
 *   being written. A write the hardware then refuses (a config write to
 *   a removed device) is taken back: the device never saw it.
 * - Nothing orders a selector write on one CPU against a data access on
 *   another, exactly as on hardware: a driver that does not serialise
 *   its index/data pairs races here as it races on the device.
 *
 * Selectors live in their own maple tree per space (a selector may be the
 * same register as an override, which a tree cannot hold twice) and count
 * in the filters: the store's (and for memory the virtual one of its
 * mappings), so that a write to a selector passes the first checks of
 * the access path, and the space's sel_filter, which the write
 * path asks before it walks the selector tree. So a write costs a
 * selector lookup only when it hits a selector's granule, and spaces
 * without selectors pay nothing at all.
 */
#include <linux/maple_tree.h>
#include <linux/slab.h>

#include "emulate.h"
#include "select.h"
#include "space.h"

/**
 * iohook_cond_holds() - whether an override's condition holds now
 * @ov: the override; the caller holds rcu_read_lock()
 *
 * One acquire load of the selector's known flag and one load of its
 * value, from the same cache line; nothing for an unconditional one.
 *
 * Return: true for an unconditional override, or when the selector's
 * recorded value, masked, equals the condition's value.
 */
bool iohook_cond_holds(const struct iohook_override *ov)
{
	const struct iohook_selector *sel = ov->sel;

	if (!sel)
		return true;
	/* Pairs with the release in iohook_record(). */
	if (!smp_load_acquire(&sel->known))
		return false;
	return ((u64)atomic64_read(&sel->rec) & ov->cmask) == ov->cval;
}

/**
 * iohook_record() - record a write in the selectors it overlaps
 * @space: address space
 * @addr: first address of the write
 * @width: its width in bytes
 * @data: the value written
 *
 * @undo: filled in with what changed, for iohook_record_undo()
 *
 * Called from the write slow path, armed, under rcu_read_lock(). The
 * bytes of each selector that the write covers take the written bytes;
 * concurrent writes to one selector leave one of them, whole per byte.
 */
void iohook_record(enum iohook_space space, u64 addr, unsigned int width,
		   u64 data, struct iohook_record_undo *undo)
{
	MA_STATE(mas, &iohook_spaces[space].selectors, addr, addr);
	struct iohook_space_state *sp = &iohook_spaces[space];
	struct iohook_selector *sel;

	undo->n = 0;
	if (!iohook_filter_hit(sp->sel_filter, space, addr, width))
		return;
	mas_for_each(&mas, sel, addr + width - 1) {
		s64 old = atomic64_read(&sel->rec);
		/* Whether to forget the value again, if the write fails. */
		bool known = smp_load_acquire(&sel->known);
		s64 new;

		if (undo->n == IOHOOK_MAX_SEL_PER_ACCESS)
			break;
		do {
			new = iohook_emul_write(sel->addr, sel->width,
						iohook_width_mask(sel->width),
						IOHOOK_RW, old, addr, width,
						data);
		} while (new != old &&
			 !atomic64_try_cmpxchg(&sel->rec, &old, new));
		/* The value before the flag: readers acquire the flag. */
		smp_store_release(&sel->known, 1);
		undo->e[undo->n].sel = sel;
		undo->e[undo->n].old = old;
		undo->e[undo->n].new = new;
		undo->e[undo->n].known = known;
		undo->n++;
	}
}

/**
 * iohook_record_undo() - take back a recording whose write failed
 * @undo: what iohook_record() changed
 *
 * Called under the same rcu_read_lock() as iohook_record(), when the
 * hardware refused the write (a config write to a removed device): the
 * device never saw it, so its selectors must not have moved either. A
 * selector that another write recorded in between keeps that write.
 */
void iohook_record_undo(const struct iohook_record_undo *undo)
{
	unsigned int i;

	for (i = 0; i < undo->n; i++) {
		struct iohook_selector *sel = undo->e[i].sel;
		s64 cur = undo->e[i].new;

		if (!atomic64_try_cmpxchg(&sel->rec, &cur, undo->e[i].old))
			continue;
		if (!undo->e[i].known)
			/* Unknown again: pairs with iohook_cond_holds(). */
			smp_store_release(&sel->known, 0);
	}
}

/**
 * iohook_sel_find() - the selector a new condition would use
 * @space: address space
 * @addr: selector address
 * @width: selector width
 * @err: set to -EEXIST if another selector overlaps these bytes
 *
 * Called with the store lock held.
 *
 * Return: the existing selector at exactly @addr and @width, or NULL
 * (with *@err 0 if the bytes are free).
 */
struct iohook_selector *iohook_sel_find(enum iohook_space space, u64 addr,
					u32 width, int *err)
{
	unsigned long index = addr;
	struct iohook_selector *sel;

	lockdep_assert_held(&iohook_mutex);
	*err = 0;
	sel = mt_find(&iohook_spaces[space].selectors, &index,
		      addr + width - 1);
	if (sel && (sel->addr != addr || sel->width != width)) {
		*err = -EEXIST;
		return NULL;
	}
	return sel;
}

/**
 * iohook_sel_insert() - make a new selector visible to the write path
 * @sel: the selector, with no users yet, its value unknown
 *
 * Called with the store lock held. The filters count it first, so that
 * a write that finds it in the tree has passed them.
 *
 * Return: 0 or -ENOMEM (nothing changed).
 */
int iohook_sel_insert(struct iohook_selector *sel)
{
	struct iohook_space_state *sp = &iohook_spaces[sel->space];
	u64 last = sel->addr + sel->width - 1;
	int ret;

	iohook_space_count(sel->space, sel->addr, last, 1);
	iohook_filter_update(sp->sel_filter, sel->space, sel->addr, last, 1);
	ret = mtree_insert_range(&sp->selectors, sel->addr, last, sel,
				 GFP_KERNEL);
	if (ret) {
		iohook_space_count(sel->space, sel->addr, last, -1);
		iohook_filter_update(sp->sel_filter, sel->space, sel->addr,
				     last, -1);
	}
	return ret;
}

/**
 * iohook_sel_erase() - take a selector out of the write path
 * @sel: the selector, with no users left
 * @dead: list to put it on, to be freed after a grace period
 *
 * Called with the store lock held. Cannot fail: a selector left in the
 * tree would be freed while readers find it (the erase is __GFP_NOFAIL,
 * which fault injection also leaves alone).
 */
void iohook_sel_erase(struct iohook_selector *sel, struct list_head *dead)
{
	struct iohook_space_state *sp = &iohook_spaces[sel->space];
	u64 last = sel->addr + sel->width - 1;

	mtree_store_range(&sp->selectors, sel->addr, last, NULL,
			  GFP_KERNEL | __GFP_NOFAIL);
	iohook_space_count(sel->space, sel->addr, last, -1);
	iohook_filter_update(sp->sel_filter, sel->space, sel->addr, last, -1);
	list_add_tail(&sel->dead, dead);
}

/**
 * iohook_sel_forget_all() - make every recorded value unknown
 *
 * Called with the store lock held, while disarmed: no write path records
 * (it records only while armed, and disarming waits for a grace period).
 */
void iohook_sel_forget_all(void)
{
	struct iohook_selector *sel;
	int i;

	lockdep_assert_held(&iohook_mutex);
	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		unsigned long index = 0;

		while ((sel = mt_find(&iohook_spaces[i].selectors, &index,
				      ULONG_MAX))) {
			WRITE_ONCE(sel->known, 0);
			atomic64_set(&sel->rec, 0);
		}
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The address spaces (space.h): their state, their static keys and the
 * lock every change takes.
 */
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>

#include "space.h"

/*
 * The accessors' static keys. Every module that uses readl() or inb()
 * references them, so they are exported to all modules.
 */
struct static_key_false iohook_mem_key = STATIC_KEY_FALSE_INIT;
EXPORT_SYMBOL(iohook_mem_key);
struct static_key_false iohook_io_key = STATIC_KEY_FALSE_INIT;
EXPORT_SYMBOL(iohook_io_key);
struct static_key_false iohook_pci_key = STATIC_KEY_FALSE_INIT;

/* Zero-initialised, so that the filters take no room in the image. */
struct iohook_space_state iohook_spaces[IOHOOK_NR_SPACES];

struct iohook_space_id {
	struct static_key_false *key;
	const char *name;
};

static const struct iohook_space_id iohook_space_ids[IOHOOK_NR_SPACES] __initconst = {
	[IOHOOK_SPACE_PCI] = { &iohook_pci_key, "pciconf" },
	[IOHOOK_SPACE_MEM] = { &iohook_mem_key, "mem" },
	[IOHOOK_SPACE_IO] = { &iohook_io_key, "io" },
};

/* The store lock: space.h says what it serialises. */
DEFINE_MUTEX(iohook_mutex);

/*
 * The lock order is cpu_hotplug_lock, then iohook_mutex, everywhere:
 * - flipping a static key takes the CPU-hotplug lock (to patch text);
 * - ioremap() and iounmap() take iohook_mutex (mappings.c), and run in
 *   CPU-online callbacks, which hold the hotplug lock for writing.
 * So a change that may flip a key takes the hotplug lock (for reading)
 * before iohook_mutex, with iohook_lock(), and flips with the
 * _cpuslocked calls (arm.c). Taking the mutex first and the hotplug lock
 * inside it, in static_branch_enable(), would deadlock against a CPU
 * coming online that ioremaps.
 */

/**
 * iohook_lock() - take the store lock for a change that may flip a key
 *
 * Takes cpus_read_lock(), then iohook_mutex. Process context only.
 */
void iohook_lock(void)
{
	cpus_read_lock();
	mutex_lock(&iohook_mutex);
}

/**
 * iohook_unlock() - release what iohook_lock() took
 */
void iohook_unlock(void)
{
	mutex_unlock(&iohook_mutex);
	cpus_read_unlock();
}

static int __init iohook_space_init(void)
{
	int i;

	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		struct iohook_space_state *sp = &iohook_spaces[i];

		sp->key = iohook_space_ids[i].key;
		sp->name = iohook_space_ids[i].name;
		mt_init_flags(&sp->overrides, MT_FLAGS_USE_RCU);
		mt_init_flags(&sp->selectors, MT_FLAGS_USE_RCU);
		mt_init_flags(&sp->models, MT_FLAGS_USE_RCU);
	}
	return 0;
}

/* Before any initcall that could add overrides, the sysfs layer included. */
pure_initcall(iohook_space_init);

/**
 * iohook_space_count() - count a range of a space in its filter
 * @space: the space
 * @first: first address of an override or selector
 * @last: its last address
 * @delta: +1 before it becomes visible, -1 after it is gone
 *
 * Counts in the space's filter and, through @count_aliases, in the
 * filter of the range's virtual aliases. Called with iohook_mutex held.
 */
void iohook_space_count(enum iohook_space space, u64 first, u64 last,
			int delta)
{
	struct iohook_space_state *sp = &iohook_spaces[space];

	lockdep_assert_held(&iohook_mutex);
	iohook_filter_update(sp->filter, space, first, last, delta);
	if (sp->count_aliases)
		sp->count_aliases(first, last, delta);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The address spaces (space.h): their state, their static keys and the
 * lock every change takes.
 */
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

static int __init iohook_space_init(void)
{
	int i;

	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		struct iohook_space_state *sp = &iohook_spaces[i];

		sp->key = iohook_space_ids[i].key;
		sp->name = iohook_space_ids[i].name;
		mt_init_flags(&sp->overrides, MT_FLAGS_USE_RCU);
		mt_init_flags(&sp->selectors, MT_FLAGS_USE_RCU);
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

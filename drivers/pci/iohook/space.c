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

struct iohook_space_state iohook_spaces[IOHOOK_NR_SPACES] = {
	[IOHOOK_SPACE_PCI] = { .key = &iohook_pci_key, .name = "pciconf" },
	[IOHOOK_SPACE_MEM] = { .key = &iohook_mem_key, .name = "mem" },
	[IOHOOK_SPACE_IO] = { .key = &iohook_io_key, .name = "io" },
};

/* The store lock: space.h says what it serialises. */
DEFINE_MUTEX(iohook_mutex);

static int __init iohook_space_init(void)
{
	int i;

	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		mt_init_flags(&iohook_spaces[i].overrides, MT_FLAGS_USE_RCU);
		mt_init_flags(&iohook_spaces[i].selectors, MT_FLAGS_USE_RCU);
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

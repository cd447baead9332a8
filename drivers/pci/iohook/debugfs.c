// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/iohook/state: what tests need to check invariants
 * that sysfs does not show, such as "removing everything turns both
 * static keys off" and "the store and the filters agree". One line per
 * fact, "name value" or "name space=value ...":
 *
 *	armed 0|1
 *	keys pciconf=0|1 mem=0|1 io=0|1
 *	overrides pciconf=N mem=N io=N		(chained ones included)
 *	selectors pciconf=N mem=N io=N
 *	filter_sum pciconf=N mem=N io=N		(sum of all buckets)
 *	vfilter_sum N
 *
 * With the store empty every filter sum is 0: a non-zero sum means a
 * count leaked (or, for vfilter_sum, that a mapping went untracked).
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/seq_file.h>

#include "arm.h"
#include "mappings.h"
#include "override.h"
#include "space.h"

/* Entries of one tree of every space; @chains: count chained overrides. */
static void iohook_state_counts(struct seq_file *m, const char *name,
				bool chains)
{
	int i;

	seq_puts(m, name);
	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		struct iohook_space_state *sp = &iohook_spaces[i];
		unsigned long index = 0, n = 0;
		struct iohook_override *ov;
		void *entry;

		if (!chains) {
			while (mt_find(&sp->selectors, &index, ULONG_MAX))
				n++;
		} else {
			while ((entry = mt_find(&sp->overrides, &index,
						ULONG_MAX)))
				for (ov = entry; ov;
				     ov = iohook_protected(ov->next))
					n++;
		}
		seq_printf(m, " %s=%lu", sp->name, n);
	}
	seq_putc(m, '\n');
}

static u64 iohook_sum(const u32 *filter)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < IOHOOK_FILTER_SIZE; i++)
		sum += READ_ONCE(filter[i]);
	return sum;
}

static int iohook_state_show(struct seq_file *m, void *v)
{
	int i;

	mutex_lock(&iohook_mutex);
	seq_printf(m, "armed %d\n", READ_ONCE(iohook_armed));
	seq_puts(m, "keys");
	for (i = 0; i < IOHOOK_NR_SPACES; i++)
		seq_printf(m, " %s=%d", iohook_spaces[i].name,
			   static_key_enabled(iohook_spaces[i].key));
	seq_putc(m, '\n');
	iohook_state_counts(m, "overrides", true);
	iohook_state_counts(m, "selectors", false);
	seq_puts(m, "filter_sum");
	for (i = 0; i < IOHOOK_NR_SPACES; i++)
		seq_printf(m, " %s=%llu", iohook_spaces[i].name,
			   iohook_sum(iohook_spaces[i].filter) +
			   iohook_sum(iohook_spaces[i].sel_filter));
	seq_printf(m, "\nvfilter_sum %llu\n", iohook_sum(iohook_vfilter));
	mutex_unlock(&iohook_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(iohook_state);

static int __init iohook_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("iohook", NULL);

	debugfs_create_file("state", 0400, dir, NULL, &iohook_state_fops);
	return 0;
}
late_initcall(iohook_debugfs_init);

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Selector registers (select.c): recorded by the write path, asked by
 * conditional overrides.
 */
#ifndef _DRIVERS_PCI_IOHOOK_SELECT_H
#define _DRIVERS_PCI_IOHOOK_SELECT_H

#include <linux/list.h>

#include "override.h"

/* Each selector is at least a byte wide: at most 8 meet one access. */
#define IOHOOK_MAX_SEL_PER_ACCESS	8

/*
 * What one write's recording changed, so that a write the hardware then
 * fails (a config write to a removed device) can be taken back.
 */
struct iohook_record_undo {
	unsigned int n;
	struct {
		struct iohook_selector *sel;
		s64 old, new;
		bool known;
	} e[IOHOOK_MAX_SEL_PER_ACCESS];
};

/* Lockless, for the access paths, under rcu_read_lock(). */
bool iohook_cond_holds(const struct iohook_override *ov);
void iohook_record(enum iohook_space space, u64 addr, unsigned int width,
		   u64 data, struct iohook_record_undo *undo);
void iohook_record_undo(const struct iohook_record_undo *undo);

/* With iohook_mutex held. */
struct iohook_selector *iohook_sel_find(enum iohook_space space, u64 addr,
					u32 width, int *err);
int iohook_sel_insert(struct iohook_selector *sel);
void iohook_sel_erase(struct iohook_selector *sel, struct list_head *dead);
void iohook_sel_forget_all(void);

#endif /* _DRIVERS_PCI_IOHOOK_SELECT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Selector registers (select.c): recorded by the write path, asked by
 * conditional overrides.
 */
#ifndef _DRIVERS_PCI_IOHOOK_SELECT_H
#define _DRIVERS_PCI_IOHOOK_SELECT_H

#include <linux/list.h>

#include "override.h"

/* Lockless, for the access paths, under rcu_read_lock(). */
bool iohook_cond_holds(const struct iohook_override *ov);
void iohook_record(enum iohook_space space, u64 addr, unsigned int width,
		   u64 data);

/* With iohook_mutex held. */
struct iohook_selector *iohook_sel_find(enum iohook_space space, u64 addr,
					u32 width, int *err);
int iohook_sel_insert(struct iohook_selector *sel);
void iohook_sel_erase(struct iohook_selector *sel, struct list_head *dead);
void iohook_sel_forget_all(void);

#endif /* _DRIVERS_PCI_IOHOOK_SELECT_H */

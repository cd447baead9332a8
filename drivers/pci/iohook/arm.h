/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arming (arm.c): whether overrides take effect, and the static keys
 * that follow it.
 */
#ifndef _DRIVERS_PCI_IOHOOK_ARM_H
#define _DRIVERS_PCI_IOHOOK_ARM_H

#include <linux/types.h>

/*
 * Whether overrides take effect: written under iohook_mutex, read by the
 * slow paths inside their RCU read section (see accessors.c).
 */
extern bool iohook_armed;

void iohook_update_keys(void);

#endif /* _DRIVERS_PCI_IOHOOK_ARM_H */

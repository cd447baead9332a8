/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Validation of override descriptions (validate.c).
 */
#ifndef _DRIVERS_PCI_IOHOOK_VALIDATE_H
#define _DRIVERS_PCI_IOHOOK_VALIDATE_H

#include <linux/iohook.h>

int iohook_range_last(enum iohook_space space, u64 addr, u64 len, u64 *last);

#endif /* _DRIVERS_PCI_IOHOOK_VALIDATE_H */

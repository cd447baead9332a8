/* SPDX-License-Identifier: GPL-2.0 */
/* The uapi one: glibc's <errno.h> includes this name too. */
#include_next <linux/errno.h>

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private declarations of the iohook sysfs layer.
 */
#ifndef _DRIVERS_PCI_IOHOOK_SYSFS_H
#define _DRIVERS_PCI_IOHOOK_SYSFS_H

#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>

#include "internal.h"
#include "parse.h"

/*
 * A directory of per-override kobjects: a device's overrides/ or one of
 * /sys/kernel/iohook/{io,mem,pciconf}. Its entries are protected by
 * iohook_sysfs_mutex, which is taken inside the store's lock (from its
 * notifier) and never around a call that takes the store's lock.
 */
struct iohook_dir {
	struct kobject *kobj;
	struct list_head entries;
};

/* Resolves a parsed entry into a spec for one "add" file. */
typedef int (*iohook_resolve_fn)(const struct iohook_entry *e,
				 struct iohook_spec *spec, void *ctx);

extern struct mutex iohook_sysfs_mutex;
extern struct kset *iohook_kset;

/* "DDDD:BB:DD.F" with a domain of up to eight digits, and its NUL. */
#define IOHOOK_DEVICE_NAME_LEN	20

int iohook_sysfs_write_allowed(void);
int iohook_sysfs_text(const char *buf, size_t count);
ssize_t iohook_sysfs_add(const char *buf, size_t count,
			 iohook_resolve_fn resolve, void *ctx);
ssize_t iohook_sysfs_remove(const char *buf, size_t count,
			    iohook_resolve_fn resolve, void *ctx,
			    void (*remove_all)(void *ctx));

void iohook_dir_init(struct iohook_dir *dir, struct kobject *kobj);
int iohook_dir_add(struct iohook_dir *dir, const char *name,
		   const struct iohook_spec *spec, const char *device);
void iohook_dir_remove(struct iohook_dir *dir, const struct iohook_spec *spec);
void iohook_dir_announce(struct iohook_dir *dir, const struct iohook_spec *spec);
void iohook_location_name(enum iohook_space space, u64 addr, char *name,
			  size_t len);
void iohook_dir_take_all(struct iohook_dir *dir, struct list_head *out);
void iohook_dir_destroy_list(struct list_head *list);

/*
 * sysfs-dev.c and sysfs-global.c, called from the store notifier with
 * iohook_sysfs_mutex held: the devices' views first, which name the
 * owning device for the global directory's uevent.
 */
int iohook_dev_notify(unsigned long event, const struct iohook_spec *spec,
		      const char **owner);
int iohook_global_notify(unsigned long event, const struct iohook_spec *spec,
			 const char *device);
int iohook_dev_sysfs_init(void);

#endif

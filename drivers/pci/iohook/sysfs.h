/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private declarations of the iohook sysfs layer:
 *
 *	sysfs-dir.c		an overrides directory: add, remove, entries
 *	sysfs-override.c	one override's directory and its files
 *	sysfs-write.c		what every writable file shares
 *	sysfs-dev.c		per PCI device: overrides/ and fire_irq
 *	sysfs-global.c		/sys/kernel/iohook
 *	sysfs-model.c		the "models" files: binding register models
 */
#ifndef _DRIVERS_PCI_IOHOOK_SYSFS_H
#define _DRIVERS_PCI_IOHOOK_SYSFS_H

#include <linux/iohook.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>

#include "model.h"
#include "parse.h"

struct iohook_dir;
struct pci_dev;

/**
 * struct iohook_dir_ops - what makes one kind of overrides directory
 * @resolve: turn a parsed entry's location into a spec's space and
 *	     address, as this directory names locations; -EINVAL or -ERANGE
 *	     if it names none here
 * @remove_all: remove every override this directory covers ("remove all");
 *		0, or the first error (those not yet removed then stay)
 * @device: the PCI device the directory is for, whose interrupt a model
 *	    bound through it fires; NULL (or no op) for none
 * @release: free the structure the directory is embedded in
 */
struct iohook_dir_ops {
	int (*resolve)(struct iohook_dir *dir, const struct iohook_entry *e,
		       struct iohook_spec *spec);
	int (*remove_all)(struct iohook_dir *dir);
	struct pci_dev *(*device)(struct iohook_dir *dir);
	void (*release)(struct iohook_dir *dir);
};

/*
 * An overrides directory: a device's overrides/ or one of
 * /sys/kernel/iohook/{io,mem,pciconf}, with its "add" and "remove"
 * files and one directory per override. @entries is protected by
 * iohook_sysfs_mutex, which is taken inside the store's lock (from its
 * notifier) and never around a call that takes the store's lock.
 * @models is what its "models" file binds through (model.c locks it).
 */
struct iohook_dir {
	struct kobject kobj;
	struct list_head entries;
	const struct iohook_dir_ops *ops;
	struct iohook_model_owner models;
};

extern struct mutex iohook_sysfs_mutex;
extern struct kset *iohook_kset;

/* "DDDD:BB:DD.F" with a domain of up to eight digits, and its NUL. */
#define IOHOOK_DEVICE_NAME_LEN	20

/* sysfs-dir.c */
int iohook_dir_create(struct iohook_dir *dir, const struct iohook_dir_ops *ops,
		      struct kobject *parent, const char *name);
void iohook_dir_destroy(struct iohook_dir *dir);

/* sysfs-write.c */
int iohook_sysfs_may_write(const char *buf, size_t count);
char *iohook_sysfs_copy(const char *buf, size_t count);
ssize_t iohook_sysfs_add(struct iohook_dir *dir, const char *buf,
			 size_t count);
ssize_t iohook_sysfs_remove(struct iohook_dir *dir, const char *buf,
			    size_t count);

/* sysfs-model.c */
ssize_t iohook_sysfs_models_store(struct iohook_dir *dir, const char *buf,
				  size_t count);
ssize_t iohook_sysfs_models_show(struct iohook_dir *dir, char *buf);

/* sysfs-override.c, with iohook_sysfs_mutex held (but the last). */
int iohook_dir_add(struct iohook_dir *dir, const char *name,
		   const struct iohook_spec *spec, const char *device);
void iohook_dir_remove(struct iohook_dir *dir, const struct iohook_spec *spec);
void iohook_dir_announce(struct iohook_dir *dir, const struct iohook_spec *spec);
void iohook_dir_take_all(struct iohook_dir *dir, struct list_head *out);
void iohook_dir_destroy_list(struct list_head *list);
void iohook_location_name(enum iohook_space space, u64 addr, char *name,
			  size_t len);

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

#endif /* _DRIVERS_PCI_IOHOOK_SYSFS_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * One kobject type for every overrides directory: a device's overrides/
 * and /sys/kernel/iohook/{io,mem,pciconf} are instances of it. Each has
 *
 *	add	entries to add, all or nothing (sysfs-write.c)
 *	remove	a location, LOCATION@VALUE, or "all"
 *	models	register models bound here (sysfs-model.c)
 *	NAME/	one directory per override (sysfs-override.c)
 *
 * and differs from the others only in its struct iohook_dir_ops: how it
 * names locations and what "all" covers.
 */
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "sysfs.h"

#define to_dir(k) container_of(k, struct iohook_dir, kobj)

static ssize_t add_store(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count)
{
	return iohook_sysfs_add(to_dir(kobj), buf, count);
}

static ssize_t remove_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	return iohook_sysfs_remove(to_dir(kobj), buf, count);
}

static ssize_t models_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return iohook_sysfs_models_show(to_dir(kobj), buf);
}

static ssize_t models_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	return iohook_sysfs_models_store(to_dir(kobj), buf, count);
}

static struct kobj_attribute add_attr = __ATTR(add, 0200, NULL, add_store);
static struct kobj_attribute remove_attr = __ATTR(remove, 0200, NULL, remove_store);
static struct kobj_attribute models_attr = __ATTR(models, 0600, models_show, models_store);

static struct attribute *iohook_dir_attrs[] = {
	&add_attr.attr,
	&remove_attr.attr,
	&models_attr.attr,
	NULL
};
ATTRIBUTE_GROUPS(iohook_dir);

static void iohook_dir_release(struct kobject *kobj)
{
	struct iohook_dir *dir = to_dir(kobj);

	dir->ops->release(dir);
}

static const struct kobj_type iohook_dir_ktype = {
	.release = iohook_dir_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = iohook_dir_groups,
};

/**
 * iohook_dir_create() - make an overrides directory in sysfs
 * @dir: the directory, embedded in what @ops->release frees
 * @ops: its kind
 * @parent: the kobject to make it in
 * @name: its name
 *
 * On failure @ops->release has been called: the caller must not touch
 * @dir again.
 *
 * Return: 0 or a negative errno.
 */
int iohook_dir_create(struct iohook_dir *dir, const struct iohook_dir_ops *ops,
		      struct kobject *parent, const char *name)
{
	int ret;

	INIT_LIST_HEAD(&dir->entries);
	dir->ops = ops;
	ret = kobject_init_and_add(&dir->kobj, &iohook_dir_ktype, parent, "%s",
				   name);
	if (ret)
		kobject_put(&dir->kobj);
	return ret;
}

/**
 * iohook_dir_destroy() - remove an overrides directory made empty
 * @dir: the directory, whose entries were taken (iohook_dir_take_all())
 *
 * Waits for writers of its files; must not be called with
 * iohook_sysfs_mutex held, which an "add" writer may be waiting for.
 */
void iohook_dir_destroy(struct iohook_dir *dir)
{
	kobject_del(&dir->kobj);
	kobject_put(&dir->kobj);
}

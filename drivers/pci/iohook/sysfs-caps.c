// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/iohook/caps and /sys/kernel/iohook/dpc:
 *
 *	caps	"add DDDD:BB:DD.F TYPE [at=OFFSET] [OPTIONS]" makes up an
 *		extended capability, "remove DDDD:BB:DD.F TYPE" takes it
 *		away; reading lists them (ext-cap.c)
 *	dpc	"trigger PORT REASON [source=BB:DD.F] [busy=MS]" contains a
 *		port with a made-up DPC; reading shows each one's registers
 *		and counts (dpc.c)
 *
 * Both need register models (CONFIG_IOHOOK_MODEL): the capabilities are
 * C models. Writes are taken whole or refused, as every iohook file's.
 */
#include <linux/init.h>
#include <linux/err.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "ext-cap.h"
#include "sysfs.h"

static ssize_t caps_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return iohook_cap_show(buf);
}

static ssize_t caps_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	char *copy = iohook_sysfs_copy(buf, count), *rest;
	int ret;

	if (IS_ERR(copy))
		return PTR_ERR(copy);
	rest = skip_spaces(copy);
	if (!strncmp(rest, "add ", 4))
		ret = iohook_cap_add(rest + 4);
	else if (!strncmp(rest, "remove ", 7))
		ret = iohook_cap_remove(rest + 7);
	else
		ret = -EINVAL;
	kfree(copy);
	return ret ?: count;
}

static ssize_t dpc_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	return iohook_dpc_show(buf);
}

static ssize_t dpc_store(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count)
{
	char *copy = iohook_sysfs_copy(buf, count);
	int ret;

	if (IS_ERR(copy))
		return PTR_ERR(copy);
	ret = iohook_dpc_trigger_line(skip_spaces(copy));
	kfree(copy);
	return ret ?: count;
}

static struct kobj_attribute caps_attr = __ATTR(caps, 0600, caps_show, caps_store);
static struct kobj_attribute dpc_attr = __ATTR(dpc, 0600, dpc_show, dpc_store);

static struct attribute *iohook_caps_attrs[] = {
	&caps_attr.attr,
	&dpc_attr.attr,
	NULL
};

static const struct attribute_group iohook_caps_group = {
	.attrs = iohook_caps_attrs,
};

/* After sysfs-global.c made /sys/kernel/iohook (arch_initcall). */
static int __init iohook_caps_sysfs_init(void)
{
	if (!iohook_kset)
		return -ENODEV;
	return sysfs_create_group(&iohook_kset->kobj, &iohook_caps_group);
}
device_initcall(iohook_caps_sysfs_init);

// SPDX-License-Identifier: GPL-2.0
/*
 * The global directory, /sys/kernel/iohook:
 *
 *	armed		0 or 1: stage overrides, or make them all take effect
 *	fire_irq	a Linux IRQ number to fire (level-triggered too)
 *	models		every register model, bound or not (sysfs-model.c)
 *	io/		I/O ports:       add, remove, one directory per override
 *	mem/		physical memory: add, remove, one directory per override
 *	pciconf/	config space by DDDD:BB:DD.F+OFFSET, devices or not
 *
 * The per-override directories of every space follow the store: they are
 * made and removed by the store's notifier, whoever adds the override.
 */
#include <linux/init.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "irq.h"
#include "model.h"
#include "space.h"
#include "sysfs.h"

struct kset *iohook_kset;

struct iohook_space_dir {
	struct iohook_dir dir;
	enum iohook_space space;
};

static struct iohook_space_dir *iohook_space_dirs[IOHOOK_NR_SPACES];

#define to_space_dir(d) container_of(d, struct iohook_space_dir, dir)

/*
 * Called from the store's notifier, with the store and
 * iohook_sysfs_mutex locked. These directories send the uevents: made at
 * IOHOOK_EVENT_PREPARE, announced at IOHOOK_EVENT_ADD.
 */
int iohook_global_notify(unsigned long event, const struct iohook_spec *spec,
			 const char *device)
{
	struct iohook_space_dir *sd = iohook_space_dirs[spec->space];
	char name[32];

	lockdep_assert_held(&iohook_sysfs_mutex);
	if (!sd)
		return 0;
	switch (event) {
	case IOHOOK_EVENT_PREPARE:
		iohook_location_name(spec->space, spec->addr, name,
				     sizeof(name));
		return iohook_dir_add(&sd->dir, name, spec, device ?: "");
	case IOHOOK_EVENT_ADD:
		iohook_dir_announce(&sd->dir, spec);
		return 0;
	default:
		iohook_dir_remove(&sd->dir, spec);
		return 0;
	}
}

static int iohook_resolve_global(struct iohook_dir *dir,
				 const struct iohook_entry *e,
				 struct iohook_spec *spec)
{
	enum iohook_space space = to_space_dir(dir)->space;

	spec->space = space;
	if (space == IOHOOK_SPACE_PCI) {
		if (e->loc.kind != IOHOOK_LOC_PCI)
			return -EINVAL;
		if (e->loc.offset > IOHOOK_PCI_CFG_MAX)
			return -ERANGE;
		spec->addr = iohook_pci_addr(e->loc.domain, e->loc.bus,
					     e->loc.devfn, e->loc.offset);
		return 0;
	}
	if (e->loc.kind != IOHOOK_LOC_ADDR)
		return -EINVAL;
	spec->addr = e->loc.offset;
	return 0;
}

static int iohook_space_remove_all(struct iohook_dir *dir)
{
	int ret = iohook_remove_range(to_space_dir(dir)->space, 0, ULONG_MAX);

	return ret < 0 ? ret : 0;
}

static void iohook_space_release(struct iohook_dir *dir)
{
	kfree(to_space_dir(dir));
}

static const struct iohook_dir_ops iohook_space_dir_ops = {
	.resolve = iohook_resolve_global,
	.remove_all = iohook_space_remove_all,
	.release = iohook_space_release,
};

static ssize_t armed_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%d\n", iohook_is_armed());
}

static ssize_t armed_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	unsigned int arm;
	int ret;

	ret = iohook_sysfs_may_write(buf, count);
	if (ret)
		return ret;
	if (iohook_parse_dec(buf, &arm) || arm > 1)
		return -EINVAL;
	if (arm)
		iohook_arm();
	else
		iohook_disarm();
	return count;
}

static ssize_t fire_irq_store(struct kobject *kobj,
			      struct kobj_attribute *attr, const char *buf,
			      size_t count)
{
	unsigned int irq;
	int ret;

	ret = iohook_sysfs_may_write(buf, count);
	if (ret)
		return ret;
	if (iohook_parse_dec(buf, &irq))
		return -EINVAL;
	ret = iohook_fire_irq(irq);
	return ret ?: count;
}

/* Every registered model, bound or not (iohook_model_show()). */
static ssize_t models_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return iohook_model_show(buf, NULL);
}

static struct kobj_attribute armed_attr = __ATTR(armed, 0600, armed_show, armed_store);
static struct kobj_attribute fire_irq_attr = __ATTR(fire_irq, 0200, NULL, fire_irq_store);
static struct kobj_attribute models_attr = __ATTR(models, 0400, models_show, NULL);

static struct attribute *iohook_top_attrs[] = {
	&armed_attr.attr,
	&fire_irq_attr.attr,
	&models_attr.attr,
	NULL
};

static const struct attribute_group iohook_top_group = {
	.attrs = iohook_top_attrs,
};

static int iohook_notify(struct notifier_block *nb, unsigned long event,
			 void *data)
{
	const struct iohook_spec *spec = data;
	const char *device = NULL;
	int ret = 0;

	if (spec->flags & IOHOOK_F_NO_SYSFS)
		return NOTIFY_DONE;
	mutex_lock(&iohook_sysfs_mutex);
	if (event != IOHOOK_EVENT_ADD)
		ret = iohook_dev_notify(event, spec, &device);
	if (!ret)
		ret = iohook_global_notify(event, spec, device);
	if (ret) {
		/* Refused: drop what this add made, views included. */
		iohook_dev_notify(IOHOOK_EVENT_ABORT, spec, &device);
		iohook_global_notify(IOHOOK_EVENT_ABORT, spec, NULL);
	}
	mutex_unlock(&iohook_sysfs_mutex);
	return notifier_from_errno(ret);
}

static struct notifier_block iohook_nb = {
	.notifier_call = iohook_notify,
};

static int __init iohook_sysfs_init(void)
{
	int i, ret;

	iohook_kset = kset_create_and_add("iohook", NULL, kernel_kobj);
	if (!iohook_kset)
		return -ENOMEM;
	ret = sysfs_create_group(&iohook_kset->kobj, &iohook_top_group);
	if (ret)
		return ret;
	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		struct iohook_space_dir *sd = kzalloc(sizeof(*sd), GFP_KERNEL);

		if (!sd)
			return -ENOMEM;
		sd->space = i;
		ret = iohook_dir_create(&sd->dir, &iohook_space_dir_ops,
					&iohook_kset->kobj,
					iohook_space_name(i));
		if (ret)
			return ret;
		iohook_space_dirs[i] = sd;
	}
	ret = iohook_register_notifier(&iohook_nb);
	if (ret)
		return ret;
	return iohook_dev_sysfs_init();
}

/*
 * After the PCI bus type exists (postcore) and before the PCI host
 * bridges are scanned (subsys), so that every device gets its overrides/
 * directory before its KOBJ_ADD uevent.
 */
arch_initcall(iohook_sysfs_init);

// SPDX-License-Identifier: GPL-2.0
/*
 * Per PCI device: /sys/bus/pci/devices/D:B:D.F/overrides/
 * (add, remove, one directory per override) and fire_irq.
 *
 * A device's overrides are those in its config space and in its BARs'
 * current ranges, whoever added them: overrides live in the store by
 * address, so they outlive the device, and when a device appears at that
 * address again its new overrides/ shows them.
 *
 * The per-override directories here are a silent view (no uevents; the
 * global directories send them), named by where the override is now:
 * "0xOFF" in config space, "barN+OFF" in a BAR. BARs can move (remove and
 * rescan, resource reassignment), so the view is rebuilt from the store
 * whenever a driver binds, when the BARs are final; it never keeps a
 * stale name, and never collides with one.
 *
 * Lifetime: the overrides/ kobject holds a reference on the pci_dev. On
 * BUS_NOTIFY_DEL_DEVICE the device is first unlisted (so the store's
 * notifier stops adding to it), then overrides/ is removed outside
 * iohook_sysfs_mutex: removing a kobject waits for writers of its files,
 * and an "add" writer may be waiting for that mutex. The per-override
 * directories' files never take a mutex, so they may be removed under
 * it.
 */
#include <linux/device.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "irq.h"
#include "model.h"
#include "sysfs.h"

struct iohook_pdev {
	struct iohook_dir dir;		/* overrides/ */
	struct pci_dev *pdev;
	struct list_head node;		/* in iohook_pdevs */
};

static LIST_HEAD(iohook_pdevs);

#define to_ipdev(d) container_of(d, struct iohook_pdev, dir)

/* Config-space key range of a device. */
static u64 iohook_cfg_base(struct pci_dev *pdev)
{
	return iohook_pci_addr(pci_domain_nr(pdev->bus), pdev->bus->number,
			       pdev->devfn, 0);
}

static enum iohook_space iohook_bar_space(struct resource *res)
{
	return res->flags & IORESOURCE_IO ? IOHOOK_SPACE_IO : IOHOOK_SPACE_MEM;
}

static bool iohook_bar_valid(struct pci_dev *pdev, unsigned int bar)
{
	struct resource *res = &pdev->resource[bar];

	return bar < PCI_STD_NUM_BARS && res->start && resource_size(res) &&
	       res->flags & (IORESOURCE_IO | IORESOURCE_MEM);
}

/* The name of @spec in @pdev's overrides/, or false if not @pdev's. */
static bool iohook_dev_name(struct pci_dev *pdev,
			    const struct iohook_spec *spec, char *name,
			    size_t len)
{
	u64 base = iohook_cfg_base(pdev);
	unsigned int bar;

	if (spec->space == IOHOOK_SPACE_PCI) {
		if (spec->addr < base || spec->addr > base + IOHOOK_PCI_CFG_MAX)
			return false;
		snprintf(name, len, "0x%llx", spec->addr - base);
		return true;
	}
	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++) {
		struct resource *res = &pdev->resource[bar];

		if (!iohook_bar_valid(pdev, bar) ||
		    iohook_bar_space(res) != spec->space ||
		    spec->addr < res->start || spec->addr > res->end)
			continue;
		snprintf(name, len, "bar%u+%llx", bar, spec->addr - res->start);
		return true;
	}
	return false;
}

/*
 * Add @spec to @ip's view if it is @ip's. Return: 1 if it is, 0 if not,
 * or a negative errno.
 */
static int iohook_dev_show(struct iohook_pdev *ip,
			   const struct iohook_spec *spec)
{
	char name[32];
	int ret;

	if (!iohook_dev_name(ip->pdev, spec, name, sizeof(name)))
		return 0;
	ret = iohook_dir_add(&ip->dir, name, spec, NULL);
	return ret ?: 1;
}

/**
 * iohook_dev_notify() - keep the devices' views in step with the store
 * @event: IOHOOK_EVENT_PREPARE (add the views), IOHOOK_EVENT_ABORT or
 *	   IOHOOK_EVENT_REMOVE (drop them)
 * @spec: the override
 * @owner: set to the name of the device the override belongs to, for the
 *	   global directory's uevent, or NULL
 *
 * Called from the store's notifier, with the store and
 * iohook_sysfs_mutex locked.
 *
 * Return: 0, or -ENOMEM if a view could not be made (the caller then
 * aborts the add, which drops the views made).
 */
int iohook_dev_notify(unsigned long event, const struct iohook_spec *spec,
		      const char **owner)
{
	struct iohook_pdev *ip;
	int ret;

	lockdep_assert_held(&iohook_sysfs_mutex);
	*owner = NULL;
	list_for_each_entry(ip, &iohook_pdevs, node) {
		if (event != IOHOOK_EVENT_PREPARE) {
			iohook_dir_remove(&ip->dir, spec);
			continue;
		}
		ret = iohook_dev_show(ip, spec);
		if (ret < 0)
			return ret;
		if (ret && !*owner)
			*owner = pci_name(ip->pdev);
	}
	return 0;
}

static int iohook_resolve_dev(struct iohook_dir *dir,
			      const struct iohook_entry *e,
			      struct iohook_spec *spec)
{
	struct pci_dev *pdev = to_ipdev(dir)->pdev;
	struct resource *res;

	switch (e->loc.kind) {
	case IOHOOK_LOC_ADDR:
		if (e->loc.offset > IOHOOK_PCI_CFG_MAX)
			return -ERANGE;
		spec->space = IOHOOK_SPACE_PCI;
		spec->addr = iohook_cfg_base(pdev) + e->loc.offset;
		return 0;
	case IOHOOK_LOC_BAR:
		if (!iohook_bar_valid(pdev, e->loc.bar))
			return -EINVAL;
		res = &pdev->resource[e->loc.bar];
		if (e->loc.offset >= resource_size(res) ||
		    e->len > resource_size(res) - e->loc.offset)
			return -ERANGE;
		spec->space = iohook_bar_space(res);
		spec->addr = res->start + e->loc.offset;
		return 0;
	default:
		return -EINVAL;
	}
}

static int iohook_dev_remove_all(struct iohook_dir *dir)
{
	struct pci_dev *pdev = to_ipdev(dir)->pdev;
	u64 base = iohook_cfg_base(pdev);
	unsigned int bar;
	int ret;

	ret = iohook_remove_range(IOHOOK_SPACE_PCI, base,
				  base + IOHOOK_PCI_CFG_MAX);
	for (bar = 0; ret >= 0 && bar < PCI_STD_NUM_BARS; bar++) {
		struct resource *res = &pdev->resource[bar];

		if (iohook_bar_valid(pdev, bar))
			ret = iohook_remove_range(iohook_bar_space(res),
						  res->start, res->end);
	}
	return ret < 0 ? ret : 0;
}

static void iohook_pdev_release(struct iohook_dir *dir)
{
	struct iohook_pdev *ip = to_ipdev(dir);

	pci_dev_put(ip->pdev);
	kfree(ip);
}

static struct pci_dev *iohook_pdev_device(struct iohook_dir *dir)
{
	return to_ipdev(dir)->pdev;
}

static const struct iohook_dir_ops iohook_pdev_dir_ops = {
	.resolve = iohook_resolve_dev,
	.remove_all = iohook_dev_remove_all,
	.device = iohook_pdev_device,
	.release = iohook_pdev_release,
};

static ssize_t fire_irq_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	struct pci_dev *pdev = to_pci_dev(dev);
	unsigned int index = 0, irq = 0;
	char index_env[32], irq_env[32];
	char *envp[4];
	int ret;

	ret = iohook_sysfs_may_write(buf, count);
	if (ret)
		return ret;
	if (!iohook_blank(buf) && iohook_parse_dec(buf, &index))
		return -EINVAL;
	ret = iohook_fire_pci_vector(pdev, index, &irq);
	if (ret)
		return ret;
	snprintf(index_env, sizeof(index_env), "IOHOOK_VECTOR=%u", index);
	snprintf(irq_env, sizeof(irq_env), "IOHOOK_IRQ=%u", irq);
	envp[0] = "IOHOOK_EVENT=fire_irq";
	envp[1] = index_env;
	envp[2] = irq_env;
	envp[3] = NULL;
	kobject_uevent_env(&dev->kobj, KOBJ_CHANGE, envp);
	return count;
}
static DEVICE_ATTR_WO(fire_irq);

static struct iohook_pdev *iohook_pdev_find(struct pci_dev *pdev)
{
	struct iohook_pdev *ip;

	list_for_each_entry(ip, &iohook_pdevs, node)
		if (ip->pdev == pdev)
			return ip;
	return NULL;
}

/* iohook_for_each() callback, with the store locked. */
static int iohook_dev_populate_one(const struct iohook_spec *spec, void *data)
{
	struct pci_dev *pdev = data;
	struct iohook_pdev *ip;
	int ret = 0;

	if (spec->flags & IOHOOK_F_NO_SYSFS)
		return 0;
	mutex_lock(&iohook_sysfs_mutex);
	ip = iohook_pdev_find(pdev);
	if (ip)
		ret = iohook_dev_show(ip, spec);
	mutex_unlock(&iohook_sysfs_mutex);
	return ret < 0 ? ret : 0;
}

/*
 * Rebuild @pdev's view from the store: drop every directory (their names
 * may be stale), then show the overrides at the device's current
 * addresses. An override added meanwhile is shown by the notifier, and
 * the walk skips it. If a directory cannot be made (no memory), the view
 * stays incomplete, and the kernel log says so: the overrides themselves
 * are in the store, and in /sys/kernel/iohook, whatever the view shows.
 */
static void iohook_dev_populate(struct pci_dev *pdev)
{
	u64 base = iohook_cfg_base(pdev);
	struct iohook_pdev *ip;
	unsigned int bar;
	LIST_HEAD(stale);
	int ret;

	mutex_lock(&iohook_sysfs_mutex);
	ip = iohook_pdev_find(pdev);
	if (ip) {
		iohook_dir_take_all(&ip->dir, &stale);
		iohook_dir_destroy_list(&stale);
	}
	mutex_unlock(&iohook_sysfs_mutex);
	if (!ip)
		return;

	ret = iohook_for_each(IOHOOK_SPACE_PCI, base, base + IOHOOK_PCI_CFG_MAX,
			      iohook_dev_populate_one, pdev);
	for (bar = 0; !ret && bar < PCI_STD_NUM_BARS; bar++) {
		struct resource *res = &pdev->resource[bar];

		if (iohook_bar_valid(pdev, bar))
			ret = iohook_for_each(iohook_bar_space(res), res->start,
					      res->end, iohook_dev_populate_one,
					      pdev);
	}
	if (ret)
		pci_warn(pdev, "iohook: overrides/ shows only part of the device's overrides (%d); /sys/kernel/iohook lists them all\n",
			 ret);
}

static void iohook_dev_add(struct pci_dev *pdev)
{
	struct iohook_pdev *ip;
	int ret;

	mutex_lock(&iohook_sysfs_mutex);
	if (iohook_pdev_find(pdev)) {
		mutex_unlock(&iohook_sysfs_mutex);
		return;
	}
	ip = kzalloc(sizeof(*ip), GFP_KERNEL);
	if (!ip) {
		mutex_unlock(&iohook_sysfs_mutex);
		return;
	}
	ip->pdev = pci_dev_get(pdev);
	ret = iohook_dir_create(&ip->dir, &iohook_pdev_dir_ops,
				&pdev->dev.kobj, "overrides");
	if (ret) {
		mutex_unlock(&iohook_sysfs_mutex);
		pci_warn(pdev, "iohook: no overrides/ directory: %d\n", ret);
		return;
	}
	list_add_tail(&ip->node, &iohook_pdevs);
	mutex_unlock(&iohook_sysfs_mutex);

	if (device_create_file(&pdev->dev, &dev_attr_fire_irq))
		pci_warn(pdev, "iohook: no fire_irq file\n");
	iohook_dev_populate(pdev);
}

static void iohook_dev_del(struct pci_dev *pdev)
{
	struct iohook_pdev *ip;
	LIST_HEAD(entries);

	mutex_lock(&iohook_sysfs_mutex);
	ip = iohook_pdev_find(pdev);
	if (ip) {
		list_del(&ip->node);
		iohook_dir_take_all(&ip->dir, &entries);
	}
	mutex_unlock(&iohook_sysfs_mutex);
	if (!ip)
		return;
	/*
	 * Its models let go of the device (they stay loaded, unbound), and
	 * a models writer already past its checks binds nothing.
	 */
	iohook_model_close_owner(&ip->dir.models);
	device_remove_file(&pdev->dev, &dev_attr_fire_irq);
	iohook_dir_destroy_list(&entries);
	iohook_dir_destroy(&ip->dir);
}

static int iohook_pci_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct pci_dev *pdev = to_pci_dev(data);

	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		iohook_dev_add(pdev);
		break;
	case BUS_NOTIFY_BIND_DRIVER:
		/* BARs of a hot-added device are assigned after it is added. */
		iohook_dev_populate(pdev);
		break;
	case BUS_NOTIFY_DEL_DEVICE:
		iohook_dev_del(pdev);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block iohook_pci_nb = {
	.notifier_call = iohook_pci_notify,
};

/**
 * iohook_dev_sysfs_init() - give every PCI device, now and later, its files
 *
 * Return: 0 or a negative errno.
 */
int iohook_dev_sysfs_init(void)
{
	struct pci_dev *pdev = NULL;
	int ret;

	ret = bus_register_notifier(&pci_bus_type, &iohook_pci_nb);
	if (ret)
		return ret;
	for_each_pci_dev(pdev)
		iohook_dev_add(pdev);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The per-override kobject directories, and the list of them that each
 * overrides directory (sysfs-dir.c) keeps.
 *
 * Each override appears as a directory named by its start, and for a
 * conditional override "@VALUE", its condition's value (several may
 * share the same bytes), with one value per file: length, mask, attr,
 * condition, recorded, policy, seen, applied, exhausted, hits
 * (read-only) and value (read-write). A directory holds only the
 * override's identity, and its files look the override up under RCU, so
 * they never wait for the store's lock and stay safe while the override
 * goes away.
 *
 * Directories are made while an add is prepared (the store's
 * IOHOOK_EVENT_PREPARE), before it commits, so that an allocation failure
 * here fails the add and leaves nothing behind; the add is announced
 * only once committed.
 *
 * Uevents: one KOBJ_ADD and one KOBJ_REMOVE per override, from its
 * directory in /sys/kernel/iohook/<space>/, which every override has
 * for as long as it exists. They carry SUBSYSTEM=iohook, IOHOOK_SPACE,
 * IOHOOK_ADDR, IOHOOK_NAME and, when the override lies in a PCI device's
 * config space or BAR, IOHOOK_DEVICE=DDDD:BB:DD.F. The directories under
 * a device's overrides/ are a view of the same overrides: they come and
 * go with the device and its BARs, silently, so a device's removal never
 * announces the removal of overrides that still exist.
 */
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "space.h"
#include "sysfs.h"

/* Protects every directory's entry list and the list of PCI devices. */
DEFINE_MUTEX(iohook_sysfs_mutex);

struct iohook_ovr_kobj {
	struct kobject kobj;
	enum iohook_space space;
	u64 addr;
	bool cond;
	u64 when;			/* the condition's value */
	bool announced;			/* KOBJ_ADD sent */
	char device[IOHOOK_DEVICE_NAME_LEN];	/* owning PCI device, or "" */
	struct list_head node;
};

#define to_ovr(k) container_of(k, struct iohook_ovr_kobj, kobj)

static ssize_t show_spec(struct kobject *kobj, char *buf,
			 ssize_t (*fmt)(const struct iohook_spec *, char *))
{
	struct iohook_ovr_kobj *o = to_ovr(kobj);
	struct iohook_spec spec;
	int ret;

	ret = iohook_lookup(o->space, o->addr, o->cond ? &o->when : NULL,
			    &spec);
	return ret ?: fmt(&spec, buf);
}

static ssize_t fmt_length(const struct iohook_spec *s, char *buf)
{
	return sysfs_emit(buf, "0x%x\n", s->len);
}

static ssize_t fmt_mask(const struct iohook_spec *s, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n", s->mask);
}

static ssize_t fmt_attr(const struct iohook_spec *s, char *buf)
{
	return sysfs_emit(buf, "%s\n", iohook_attr_names[s->attr]);
}

static ssize_t fmt_value(const struct iohook_spec *s, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n", s->value);
}

static ssize_t fmt_hits(const struct iohook_spec *s, char *buf)
{
	return sysfs_emit(buf, "%llu\n", s->hits);
}

/**
 * iohook_location_name() - an address as the global "add" files take it
 * @space: its space
 * @addr: the address
 * @name: where to put it
 * @len: room in @name
 *
 * Also the name of the override's directory. Every such name starts
 * with "0x" or holds a '+' ("barN+OFF", "DDDD:BB:DD.F+OFF"), and no
 * file of the ABI does either: so port 0xadd is "0xadd", never a
 * directory that collides with the "add" file, now or with files to
 * come.
 */
void iohook_location_name(enum iohook_space space, u64 addr, char *name,
			  size_t len)
{
	if (space == IOHOOK_SPACE_PCI)
		snprintf(name, len, "%04x:%02x:%02x.%x+%x",
			 IOHOOK_PCI_DOMAIN(addr), IOHOOK_PCI_BUS(addr),
			 PCI_SLOT(IOHOOK_PCI_DEVFN(addr)),
			 PCI_FUNC(IOHOOK_PCI_DEVFN(addr)),
			 IOHOOK_PCI_OFFSET(addr));
	else
		snprintf(name, len, "0x%llx", addr);
}

static ssize_t fmt_condition(const struct iohook_spec *s, char *buf)
{
	char sel[32];

	if (!s->cond.width)
		return sysfs_emit(buf, "none\n");
	iohook_location_name(s->space, s->cond.sel, sel, sizeof(sel));
	return sysfs_emit(buf, "sel=%s:%u&%llx=%llx\n", sel, s->cond.width,
			  s->cond.mask, s->cond.value);
}

static ssize_t fmt_recorded(const struct iohook_spec *s, char *buf)
{
	if (!s->cond.width || !s->recorded_known)
		return sysfs_emit(buf, "unknown\n");
	return sysfs_emit(buf, "0x%llx\n", s->recorded);
}

static ssize_t fmt_policy(const struct iohook_spec *s, char *buf)
{
	const struct iohook_policy *p = &s->policy;
	int n = 0;

	if (p->skip)
		n += sysfs_emit_at(buf, n, "skip=%llu ", p->skip);
	if (p->count)
		n += sysfs_emit_at(buf, n, "count=%llu ", p->count);
	if (p->prob_den)
		n += sysfs_emit_at(buf, n, "prob=%u/%u seed=%llu ",
				   p->prob_num, p->prob_den, p->seed);
	if (!n)
		return sysfs_emit(buf, "none\n");
	buf[n - 1] = '\n';
	return n;
}

static ssize_t fmt_seen(const struct iohook_spec *s, char *buf)
{
	return sysfs_emit(buf, "%llu\n", s->seen);
}

static ssize_t fmt_applied(const struct iohook_spec *s, char *buf)
{
	return sysfs_emit(buf, "%llu\n", s->applied);
}

static ssize_t fmt_exhausted(const struct iohook_spec *s, char *buf)
{
	return sysfs_emit(buf, "%d\n", iohook_spec_exhausted(s));
}

#define IOHOOK_SHOW(name)						\
static ssize_t name##_show(struct kobject *kobj,			\
			   struct kobj_attribute *attr, char *buf)	\
{									\
	return show_spec(kobj, buf, fmt_##name);			\
}

IOHOOK_SHOW(length)
IOHOOK_SHOW(mask)
IOHOOK_SHOW(attr)
IOHOOK_SHOW(value)
IOHOOK_SHOW(hits)
IOHOOK_SHOW(condition)
IOHOOK_SHOW(recorded)
IOHOOK_SHOW(policy)
IOHOOK_SHOW(seen)
IOHOOK_SHOW(applied)
IOHOOK_SHOW(exhausted)

static ssize_t value_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	struct iohook_ovr_kobj *o = to_ovr(kobj);
	u64 value;
	int ret;

	ret = iohook_sysfs_may_write(buf, count);
	if (ret)
		return ret;
	if (iohook_parse_hex(buf, &value))
		return -EINVAL;
	ret = iohook_set_value(o->space, o->addr, o->cond ? &o->when : NULL,
			       value);
	return ret ?: count;
}

static struct kobj_attribute length_attr = __ATTR(length, 0400, length_show, NULL);
static struct kobj_attribute mask_attr = __ATTR(mask, 0400, mask_show, NULL);
static struct kobj_attribute attr_attr = __ATTR(attr, 0400, attr_show, NULL);
static struct kobj_attribute value_attr = __ATTR(value, 0600, value_show, value_store);
static struct kobj_attribute hits_attr = __ATTR(hits, 0400, hits_show, NULL);
static struct kobj_attribute condition_attr = __ATTR(condition, 0400, condition_show, NULL);
static struct kobj_attribute recorded_attr = __ATTR(recorded, 0400, recorded_show, NULL);
static struct kobj_attribute policy_attr = __ATTR(policy, 0400, policy_show, NULL);
static struct kobj_attribute seen_attr = __ATTR(seen, 0400, seen_show, NULL);
static struct kobj_attribute applied_attr = __ATTR(applied, 0400, applied_show, NULL);
static struct kobj_attribute exhausted_attr = __ATTR(exhausted, 0400, exhausted_show, NULL);

static struct attribute *iohook_ovr_attrs[] = {
	&length_attr.attr,
	&mask_attr.attr,
	&attr_attr.attr,
	&value_attr.attr,
	&hits_attr.attr,
	&condition_attr.attr,
	&recorded_attr.attr,
	&policy_attr.attr,
	&seen_attr.attr,
	&applied_attr.attr,
	&exhausted_attr.attr,
	NULL
};
ATTRIBUTE_GROUPS(iohook_ovr);

static void iohook_ovr_release(struct kobject *kobj)
{
	kfree(to_ovr(kobj));
}

static const struct kobj_type iohook_ovr_ktype = {
	.release = iohook_ovr_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = iohook_ovr_groups,
};

/*
 * Send @action for an override's directory, with its IOHOOK_* variables.
 * The variables go in @envp rather than through kset_uevent_ops, whose
 * callback types differ between kernel versions; the kset gives
 * SUBSYSTEM=iohook.
 */
static void iohook_ovr_uevent(struct iohook_ovr_kobj *o,
			      enum kobject_action action)
{
	char space[32], addr[48], name[64], device[48];
	char *envp[5] = { space, addr, name };

	snprintf(space, sizeof(space), "IOHOOK_SPACE=%s",
		 iohook_space_name(o->space));
	snprintf(addr, sizeof(addr), "IOHOOK_ADDR=0x%llx", o->addr);
	snprintf(name, sizeof(name), "IOHOOK_NAME=%s", kobject_name(&o->kobj));
	if (o->device[0]) {
		snprintf(device, sizeof(device), "IOHOOK_DEVICE=%s", o->device);
		envp[3] = device;
	}
	kobject_uevent_env(&o->kobj, action, envp);
}

static struct iohook_ovr_kobj *iohook_dir_find(struct iohook_dir *dir,
					       const struct iohook_spec *spec)
{
	struct iohook_ovr_kobj *o;

	list_for_each_entry(o, &dir->entries, node)
		if (o->space == spec->space && o->addr == spec->addr &&
		    o->cond == !!spec->cond.width &&
		    (!o->cond || o->when == spec->cond.value))
			return o;
	return NULL;
}

/**
 * iohook_dir_add() - give an override a directory, if it has none here
 * @dir: where
 * @name: its name, without the condition's "@VALUE", which this adds
 * @spec: the override
 * @device: the PCI device it belongs to, for the uevents; NULL for a
 *          silent directory (a device's view)
 *
 * Called with iohook_sysfs_mutex held.
 *
 * Return: 0 or a negative errno.
 */
int iohook_dir_add(struct iohook_dir *dir, const char *name,
		   const struct iohook_spec *spec, const char *device)
{
	struct iohook_ovr_kobj *o;
	int ret;

	lockdep_assert_held(&iohook_sysfs_mutex);
	if (iohook_dir_find(dir, spec))
		return 0;
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->space = spec->space;
	o->addr = spec->addr;
	o->cond = spec->cond.width;
	o->when = spec->cond.value;
	if (device)
		strscpy(o->device, device, sizeof(o->device));
	o->kobj.kset = iohook_kset;
	/* Before the add: suppressed kobjects send no automatic remove. */
	o->kobj.uevent_suppress = !device;
	if (o->cond)
		ret = kobject_init_and_add(&o->kobj, &iohook_ovr_ktype,
					   &dir->kobj, "%s@%llx", name, o->when);
	else
		ret = kobject_init_and_add(&o->kobj, &iohook_ovr_ktype,
					   &dir->kobj, "%s", name);
	if (ret) {
		kobject_put(&o->kobj);
		return ret;
	}
	list_add_tail(&o->node, &dir->entries);
	return 0;
}

/**
 * iohook_dir_announce() - send an override directory's KOBJ_ADD
 * @dir: where
 * @spec: the override, whose add has just been committed
 *
 * Directories are made when an add is prepared, and announced only once
 * it is committed: an add that fails leaves no trace, not even a uevent.
 * Called with iohook_sysfs_mutex held.
 */
void iohook_dir_announce(struct iohook_dir *dir, const struct iohook_spec *spec)
{
	struct iohook_ovr_kobj *o;

	lockdep_assert_held(&iohook_sysfs_mutex);
	o = iohook_dir_find(dir, spec);
	if (o && !o->announced) {
		iohook_ovr_uevent(o, KOBJ_ADD);
		o->announced = true;
	}
}

static void iohook_ovr_destroy(struct iohook_ovr_kobj *o)
{
	if (o->announced)
		iohook_ovr_uevent(o, KOBJ_REMOVE);
	kobject_del(&o->kobj);
	kobject_put(&o->kobj);
}

/**
 * iohook_dir_remove() - remove an override's directory, if it has one here
 * @dir: where
 * @spec: the override
 *
 * Called with iohook_sysfs_mutex held.
 */
void iohook_dir_remove(struct iohook_dir *dir, const struct iohook_spec *spec)
{
	struct iohook_ovr_kobj *o;

	lockdep_assert_held(&iohook_sysfs_mutex);
	o = iohook_dir_find(dir, spec);
	if (o) {
		list_del(&o->node);
		iohook_ovr_destroy(o);
	}
}

/**
 * iohook_dir_take_all() - detach every entry of a directory
 * @dir: the directory
 * @out: list that receives the entries, for iohook_dir_destroy_list()
 *
 * Called with iohook_sysfs_mutex held.
 */
void iohook_dir_take_all(struct iohook_dir *dir, struct list_head *out)
{
	lockdep_assert_held(&iohook_sysfs_mutex);
	list_splice_init(&dir->entries, out);
}

/**
 * iohook_dir_destroy_list() - remove detached entries from sysfs
 * @list: entries from iohook_dir_take_all()
 *
 * May be called without iohook_sysfs_mutex.
 */
void iohook_dir_destroy_list(struct list_head *list)
{
	struct iohook_ovr_kobj *o, *tmp;

	list_for_each_entry_safe(o, tmp, list, node) {
		list_del(&o->node);
		iohook_ovr_destroy(o);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The per-override kobject directories, and what every
 * "add" file shares: permission checks and all-or-nothing parsing.
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
#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

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

/**
 * iohook_sysfs_write_allowed() - may the current task change iohook state
 *
 * Return: 0, or -EPERM without CAP_SYS_ADMIN or under kernel lockdown
 * (LOCKDOWN_PCI_ACCESS: iohook can make a device say anything).
 */
int iohook_sysfs_write_allowed(void)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (security_locked_down(LOCKDOWN_PCI_ACCESS))
		return -EPERM;
	return 0;
}

static ssize_t show_spec(struct kobject *kobj, char *buf,
			 ssize_t (*fmt)(const struct iohook_spec *, char *))
{
	struct iohook_ovr_kobj *o = to_ovr(kobj);
	struct iohook_spec spec;
	int ret;

	if (o->cond)
		ret = iohook_lookup_cond(o->space, o->addr, o->when, &spec);
	else
		ret = iohook_lookup(o->space, o->addr, &spec);
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
		snprintf(name, len, "%llx", addr);
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

	ret = iohook_sysfs_write_allowed();
	if (ret)
		return ret;
	if (iohook_sysfs_text(buf, count) || iohook_parse_hex(buf, &value))
		return -EINVAL;
	if (o->cond)
		ret = iohook_set_value_cond(o->space, o->addr, o->when, value);
	else
		ret = iohook_set_value(o->space, o->addr, value);
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
		 iohook_space_names[o->space]);
	snprintf(addr, sizeof(addr), "IOHOOK_ADDR=0x%llx", o->addr);
	snprintf(name, sizeof(name), "IOHOOK_NAME=%s", kobject_name(&o->kobj));
	if (o->device[0]) {
		snprintf(device, sizeof(device), "IOHOOK_DEVICE=%s", o->device);
		envp[3] = device;
	}
	kobject_uevent_env(&o->kobj, action, envp);
}

/**
 * iohook_dir_init() - set up an empty directory of overrides
 * @dir: the directory
 * @kobj: its kobject
 */
void iohook_dir_init(struct iohook_dir *dir, struct kobject *kobj)
{
	dir->kobj = kobj;
	INIT_LIST_HEAD(&dir->entries);
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
					   dir->kobj, "%s@%llx", name, o->when);
	else
		ret = kobject_init_and_add(&o->kobj, &iohook_ovr_ktype,
					   dir->kobj, "%s", name);
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

/**
 * iohook_sysfs_text() - whether a write is text
 * @buf: what was written
 * @count: its length
 *
 * A NUL byte would hide what follows it from the parsers, so a write
 * holding one is refused whole rather than read up to it.
 *
 * Return: 0, or -EINVAL.
 */
int iohook_sysfs_text(const char *buf, size_t count)
{
	return memchr(buf, '\0', count) ? -EINVAL : 0;
}

/* A one-token write, without white space, or an ERR_PTR(). */
static char *iohook_sysfs_token(const char *buf, size_t count)
{
	char *s, *t;

	if (iohook_sysfs_text(buf, count))
		return ERR_PTR(-EINVAL);
	s = kstrndup(buf, count, GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	t = strim(s);
	if (!*t || strpbrk(t, " \t\n;")) {
		kfree(s);
		return ERR_PTR(-EINVAL);
	}
	memmove(s, t, strlen(t) + 1);
	return s;
}

/**
 * iohook_sysfs_remove() - the body of every "remove" file
 * @buf: what was written: one location (every override that starts
 *       there), "LOCATION@VALUE" (the conditional override with that
 *       condition value), or "all"
 * @count: its length
 * @resolve: turns the location into a spec for this file
 * @ctx: passed to @resolve and @remove_all
 * @remove_all: removes every override this file covers
 *
 * Return: @count, or -EINVAL, -ENOENT, -EPERM.
 */
ssize_t iohook_sysfs_remove(const char *buf, size_t count,
			    iohook_resolve_fn resolve, void *ctx,
			    void (*remove_all)(void *ctx))
{
	struct iohook_entry e = { .len = 1 };
	struct iohook_spec spec;
	bool has_when;
	u64 when;
	char *tok;
	int ret;

	ret = iohook_sysfs_write_allowed();
	if (ret)
		return ret;
	tok = iohook_sysfs_token(buf, count);
	if (IS_ERR(tok))
		return PTR_ERR(tok);
	if (!strcmp(tok, "all")) {
		remove_all(ctx);
	} else {
		ret = iohook_parse_name(tok, &e.loc, &has_when, &when);
		if (!ret)
			ret = resolve(&e, &spec, ctx);
		if (!ret && has_when)
			ret = iohook_remove_cond(spec.space, spec.addr, when);
		else if (!ret)
			ret = iohook_remove(spec.space, spec.addr);
	}
	kfree(tok);
	return ret ?: count;
}

/* The entries of a write: its non-blank segments between separators. */
static unsigned int iohook_count_entries(const char *buf)
{
	unsigned int n = 0;
	bool blank = true;

	for (; *buf; buf++) {
		if (strchr(IOHOOK_ENTRY_SEPARATORS, *buf)) {
			n += !blank;
			blank = true;
		} else if (!isspace(*buf)) {
			blank = false;
		}
	}
	return n + !blank;
}

/*
 * Turn a parsed entry into a spec: its location and its selector's
 * through @resolve, which knows this file's space or device. A selector
 * that resolves to another space is -EXDEV; one in another PCI function
 * is left to iohook_validate(), which says -EXDEV too.
 */
static int iohook_entry_to_spec(const struct iohook_entry *e,
				struct iohook_spec *spec,
				iohook_resolve_fn resolve, void *ctx)
{
	struct iohook_entry sel_e = {};
	struct iohook_spec sel;
	int ret;

	ret = resolve(e, spec, ctx);
	if (ret)
		return ret;
	spec->len = e->len;
	spec->value = e->value;
	spec->mask = e->mask;
	spec->attr = e->attr;
	spec->policy = e->policy;
	if (!e->has_cond)
		return 0;
	if (e->sel_width > IOHOOK_MAX_MASKED_LEN)
		return -E2BIG;
	sel_e.loc = e->sel_loc;
	sel_e.len = e->sel_width;
	ret = resolve(&sel_e, &sel, ctx);
	if (ret)
		return ret;
	if (sel.space != spec->space)
		return -EXDEV;
	spec->cond.width = e->sel_width;
	spec->cond.sel = sel.addr;
	spec->cond.mask = e->sel_mask ?: iohook_width_mask(e->sel_width);
	spec->cond.value = e->cond_value;
	return 0;
}

/**
 * iohook_sysfs_add() - the body of every "add" file
 * @buf: what was written: entries separated by newlines or ';'
 * @count: its length
 * @resolve: turns a parsed entry into a spec for this file
 * @ctx: passed to @resolve
 *
 * Entries are checked in order, each fully (syntax, location, selector,
 * then iohook_validate()), so the first bad entry decides the errno:
 * -EINVAL, -ERANGE, -E2BIG or -EXDEV. Only then are they checked against each other and the
 * store (-EEXIST) and added with iohook_add_many(): all or none.
 *
 * Return: @count, or the first error.
 */
ssize_t iohook_sysfs_add(const char *buf, size_t count,
			 iohook_resolve_fn resolve, void *ctx)
{
	struct iohook_spec *specs = NULL;
	char *copy, *cur, *line;
	unsigned int n = 0, max;
	int ret;

	ret = iohook_sysfs_write_allowed();
	if (ret)
		return ret;
	if (iohook_sysfs_text(buf, count))
		return -EINVAL;
	copy = kstrndup(buf, count, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	/* Sized by the real entries: a write of separators allocates none. */
	max = iohook_count_entries(copy);
	ret = -EINVAL;
	if (!max)
		goto out;
	/* Sized by the user's write: a failure is an answer, not news. */
	specs = kvcalloc(max, sizeof(*specs), GFP_KERNEL | __GFP_NOWARN);
	ret = -ENOMEM;
	if (!specs)
		goto out;
	cur = copy;
	while ((line = strsep(&cur, IOHOOK_ENTRY_SEPARATORS))) {
		struct iohook_entry e;

		if (iohook_blank(line))
			continue;
		ret = iohook_parse_entry(line, &e);
		if (!ret)
			ret = iohook_entry_to_spec(&e, &specs[n], resolve, ctx);
		if (!ret)
			ret = iohook_validate(&specs[n]);
		if (ret)
			goto out;
		n++;
	}
	ret = iohook_add_many(specs, n);
out:
	kvfree(specs);
	kfree(copy);
	return ret ?: count;
}

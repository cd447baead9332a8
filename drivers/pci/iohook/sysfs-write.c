// SPDX-License-Identifier: GPL-2.0
/*
 * What every writable iohook file shares: the permission check, the
 * refusal of writes that are too long to arrive whole or are not text,
 * and the bodies of the "add" and "remove" files, which parse
 * (parse.c), resolve through their directory and check everything
 * before the store changes.
 */
#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "emulate.h"
#include "sysfs.h"

/**
 * iohook_sysfs_may_write() - whether a write to an iohook file may go on
 * @buf: what was written
 * @count: its length
 *
 * Every writable file asks this first, so that nothing changes unless
 * all of it holds:
 * - the writer has CAP_SYS_ADMIN and the kernel is not locked down
 *   (LOCKDOWN_PCI_ACCESS: iohook can make a device say anything);
 * - the write is whole: kernfs hands store() at most one page and the
 *   rest of a longer write in later calls, each of which would be
 *   committed alone (an entry cut at the boundary could even parse as
 *   another valid one). A write of a page or more is refused, so a write
 *   is taken whole or not at all; at most PAGE_SIZE - 1 bytes;
 * - it is text: a NUL byte would hide what follows it from the parsers.
 *
 * Return: 0, or -EPERM, -EMSGSIZE (too long) or -EINVAL.
 */
int iohook_sysfs_may_write(const char *buf, size_t count)
{
	if (!capable(CAP_SYS_ADMIN) || security_locked_down(LOCKDOWN_PCI_ACCESS))
		return -EPERM;
	if (count >= PAGE_SIZE)
		return -EMSGSIZE;
	return memchr(buf, '\0', count) ? -EINVAL : 0;
}

/**
 * iohook_sysfs_copy() - a checked write, as a NUL-terminated copy
 * @buf: what was written
 * @count: its length
 *
 * Return: the copy, to kfree(), or an ERR_PTR() of
 * iohook_sysfs_may_write()'s errors or -ENOMEM.
 */
char *iohook_sysfs_copy(const char *buf, size_t count)
{
	char *copy;
	int ret;

	ret = iohook_sysfs_may_write(buf, count);
	if (ret)
		return ERR_PTR(ret);
	copy = kstrndup(buf, count, GFP_KERNEL);
	return copy ?: ERR_PTR(-ENOMEM);
}

/* A checked one-token write, without white space, or an ERR_PTR(). */
static char *iohook_sysfs_token(const char *buf, size_t count)
{
	char *s, *t;

	s = iohook_sysfs_copy(buf, count);
	if (IS_ERR(s))
		return s;
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
 * @dir: the directory whose file it is
 * @buf: what was written: one location (every override that starts
 *       there), "LOCATION@VALUE" (the conditional override with that
 *       condition value), or "all"
 * @count: its length
 *
 * Return: @count, or -EINVAL, -ENOENT, -EPERM, -EMSGSIZE, or -ENOMEM if the store
 * could not change (for "all": those not yet removed stay, intact).
 */
ssize_t iohook_sysfs_remove(struct iohook_dir *dir, const char *buf,
			    size_t count)
{
	struct iohook_entry e = { .len = 1 };
	struct iohook_spec spec;
	bool has_when;
	u64 when;
	char *tok;
	int ret;

	tok = iohook_sysfs_token(buf, count);
	if (IS_ERR(tok))
		return PTR_ERR(tok);
	if (!strcmp(tok, "all")) {
		ret = dir->ops->remove_all(dir);
	} else {
		ret = iohook_parse_name(tok, &e.loc, &has_when, &when);
		if (!ret)
			ret = dir->ops->resolve(dir, &e, &spec);
		if (!ret)
			ret = iohook_remove(spec.space, spec.addr,
					    has_when ? &when : NULL);
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
 * through @dir's resolve, which knows this file's space or device. A selector
 * that resolves to another space is -EXDEV; one in another PCI function
 * is left to iohook_validate(), which says -EXDEV too.
 */
static int iohook_entry_to_spec(struct iohook_dir *dir,
				const struct iohook_entry *e,
				struct iohook_spec *spec)
{
	struct iohook_entry sel_e = {};
	struct iohook_spec sel;
	int ret;

	ret = dir->ops->resolve(dir, e, spec);
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
	ret = dir->ops->resolve(dir, &sel_e, &sel);
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
 * @dir: the directory whose file it is
 * @buf: what was written: entries separated by newlines or ';'
 * @count: its length
 *
 * Entries are checked in order, each fully (syntax, location, selector,
 * then iohook_validate()), so the first bad entry decides the errno:
 * -EINVAL, -ERANGE, -E2BIG or -EXDEV. Only then are they checked against
 * each other and the store (-EEXIST) and added with iohook_add_many():
 * all or none.
 *
 * Return: @count, or the first error.
 */
ssize_t iohook_sysfs_add(struct iohook_dir *dir, const char *buf,
			 size_t count)
{
	struct iohook_spec *specs = NULL;
	char *copy, *cur, *line;
	unsigned int n = 0, max;
	int ret;

	copy = iohook_sysfs_copy(buf, count);
	if (IS_ERR(copy))
		return PTR_ERR(copy);
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
			ret = iohook_entry_to_spec(dir, &e, &specs[n]);
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

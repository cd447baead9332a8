// SPDX-License-Identifier: GPL-2.0
/*
 * The "models" files: every overrides directory's (a device's
 * overrides/models, /sys/kernel/iohook/{io,mem,pciconf}/models), which
 * bind registered models to a range named as that directory names
 * locations, and /sys/kernel/iohook/models, which lists every model.
 *
 *	attach NAME LOCATION LENGTH	bind model NAME to LENGTH bytes
 *					(hex) from LOCATION
 *	detach NAME			unbind it
 *
 * A write is checked whole before anything changes, like an "add".
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "model.h"
#include "sysfs.h"

/* Whether @last, the end of a range from @spec's address, is in its space. */
static bool iohook_model_range_ok(const struct iohook_spec *spec, u64 len)
{
	switch (spec->space) {
	case IOHOOK_SPACE_PCI:
		return IOHOOK_PCI_OFFSET(spec->addr) + len - 1 <= IOHOOK_PCI_CFG_MAX;
	case IOHOOK_SPACE_IO:
		return spec->addr + len - 1 <= IOHOOK_IO_MAX;
	default:
		return spec->addr + len - 1 >= spec->addr;
	}
}

static int iohook_sysfs_model_attach(struct iohook_dir *dir,
				     const char *name, const char *where,
				     const char *length)
{
	struct iohook_entry e = {};
	struct iohook_spec spec = {};
	struct pci_dev *pdev;
	u64 len;
	int ret;

	if (strlen(where) >= IOHOOK_MODEL_WHERE_LEN)
		return -EINVAL;
	ret = iohook_parse_location(where, &e.loc);
	if (ret)
		return ret;
	ret = iohook_parse_hex(length, &len);
	if (ret)
		return ret;
	if (!len)
		return -EINVAL;
	/* resolve() checks a BAR range against the entry's length. */
	e.len = len > U32_MAX ? U32_MAX : len;
	ret = dir->ops->resolve(dir, &e, &spec);
	if (ret)
		return ret;
	if (!iohook_model_range_ok(&spec, len))
		return -ERANGE;
	pdev = dir->ops->device ? dir->ops->device(dir) : NULL;
	return iohook_model_bind(name, spec.space, spec.addr,
				 spec.addr + len - 1, pdev, dir, where);
}

/**
 * iohook_sysfs_models_store() - the body of every directory's "models"
 * @dir: the directory whose file it is
 * @buf: "attach NAME LOCATION LENGTH" or "detach NAME"
 * @count: its length
 *
 * Return: @count; -EINVAL (syntax, or a location or name this directory
 * cannot name), -ERANGE (outside the space or the BAR), -ENOENT (no such
 * model, or not bound here), -EBUSY (bound already, or the range is
 * another model's), -ECANCELED (the model's attach op refused),
 * -EOPNOTSUPP (no CONFIG_IOHOOK_MODEL), -EPERM or -EMSGSIZE.
 */
ssize_t iohook_sysfs_models_store(struct iohook_dir *dir, const char *buf,
				  size_t count)
{
	char *copy, *cur, *tok[5];
	unsigned int n = 0;
	int ret;

	copy = iohook_sysfs_copy(buf, count);
	if (IS_ERR(copy))
		return PTR_ERR(copy);
	cur = strim(copy);
	while (cur && *cur && n < ARRAY_SIZE(tok)) {
		tok[n++] = strsep(&cur, " \t\n");
		cur = cur ? skip_spaces(cur) : NULL;
	}
	ret = -EINVAL;
	if (n >= 2 && strlen(tok[1]) >= IOHOOK_MODEL_NAME_LEN)
		goto out;
	if (n == 4 && !strcmp(tok[0], "attach"))
		ret = iohook_sysfs_model_attach(dir, tok[1], tok[2], tok[3]);
	else if (n == 2 && !strcmp(tok[0], "detach"))
		ret = iohook_model_unbind(tok[1], dir);
out:
	kfree(copy);
	return ret ?: count;
}

/**
 * iohook_sysfs_models_show() - the models bound through @dir
 * @dir: the directory whose file it is
 * @buf: the sysfs page
 *
 * Return: the length written (iohook_model_show()'s format).
 */
ssize_t iohook_sysfs_models_show(struct iohook_dir *dir, char *buf)
{
	return iohook_model_show(buf, dir);
}

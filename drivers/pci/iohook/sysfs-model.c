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

/*
 * The range of LENGTH bytes from @loc as @dir names it: its first byte's
 * space and address in @spec, its last byte's address in @last. Both
 * ends must resolve in the same space (a BAR range must end in that
 * BAR), without wrapping and inside the space. Checked with 64-bit
 * arithmetic, whatever the BAR's size.
 */
static int iohook_model_range(struct iohook_dir *dir,
			      const struct iohook_location *loc, u64 len,
			      struct iohook_spec *spec, u64 *last)
{
	struct iohook_entry e = { .loc = *loc, .len = 1 };
	struct iohook_spec end = {};
	int ret;

	ret = dir->ops->resolve(dir, &e, spec);
	if (ret)
		return ret;
	if (len - 1 > U64_MAX - loc->offset)
		return -ERANGE;
	e.loc.offset += len - 1;
	ret = dir->ops->resolve(dir, &e, &end);
	if (ret)
		return ret;
	if (end.space != spec->space || end.addr < spec->addr ||
	    end.addr - spec->addr != len - 1)
		return -ERANGE;
	if (spec->space == IOHOOK_SPACE_IO && end.addr > IOHOOK_IO_MAX)
		return -ERANGE;
	*last = end.addr;
	return 0;
}

static int iohook_sysfs_model_attach(struct iohook_dir *dir,
				     const char *name, const char *where,
				     const char *length)
{
	struct iohook_location loc = {};
	struct iohook_spec spec = {};
	struct pci_dev *pdev;
	u64 len, last;
	int ret;

	if (!iohook_model_name_ok(name) ||
	    strlen(where) >= IOHOOK_MODEL_WHERE_LEN)
		return -EINVAL;
	ret = iohook_parse_location(where, &loc);
	if (ret)
		return ret;
	ret = iohook_parse_hex(length, &len);
	if (ret)
		return ret;
	if (!len)
		return -EINVAL;
	ret = iohook_model_range(dir, &loc, len, &spec, &last);
	if (ret)
		return ret;
	pdev = dir->ops->device ? dir->ops->device(dir) : NULL;
	return iohook_model_bind(name, spec.space, spec.addr, last, pdev,
				 &dir->models, where);
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
 * another model's), -ECANCELED (the model's attach op refused), -ENODEV
 * (the directory's device is being removed),
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
		ret = iohook_model_unbind(tok[1], &dir->models);
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
	return iohook_model_show(buf, &dir->models);
}

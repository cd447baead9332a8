// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs ABI as iohook(8) uses it: every write goes through
 * abi_write(), which -n prints instead of making and -v prints as it is
 * made, so the raw ABI stays visible. Every change an event command makes
 * is journalled with its inverse; on any failure undo_all() replays the
 * inverses, newest first, so the command never leaves something half
 * done.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iohook.h"

/* Report @what failing with -@err; return the documented exit code. */
int err_exit(const char *what, int err)
{
	int code;

	switch (-err) {
	case EPERM:
	case EACCES:
		code = EX_PERM;
		break;
	case EEXIST:
		code = EX_BUSY;
		break;
	case ENOENT:
	case ENODEV:
	case ENXIO:
		code = EX_NODEV;
		break;
	default:
		code = EX_FAIL;
	}
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(-err));
	return code;
}

/* EX_OK if this kernel has iohook and we may write to it. */
int abi_present(void)
{
	if (access(IOHOOK_SYS "/armed", F_OK)) {
		fprintf(stderr, "%s: no iohook in this kernel (%s missing; CONFIG_IOHOOK=y)\n",
			prog, IOHOOK_SYS);
		return EX_NOIOHOOK;
	}
	if (!opt.dry_run && access(IOHOOK_SYS "/armed", W_OK)) {
		fprintf(stderr, "%s: not privileged: iohook needs root (CAP_SYS_ADMIN)\n", prog);
		return EX_PERM;
	}
	return EX_OK;
}

/* Write @text to @path (one write(2), as the ABI wants). 0 or -errno. */
int abi_write(const char *path, const char *text)
{
	if (opt.dry_run || opt.verbose)
		printf("%s %s > %s\n", opt.dry_run ? "would write" : "write",
		       text, path);
	if (opt.dry_run)
		return 0;
	return iohook_sysfs_write(path, text);
}

/* Read @path without its trailing newline. Length or -errno. */
int abi_read(const char *path, char *buf, size_t len)
{
	return iohook_sysfs_read(path, buf, len);
}

long long abi_read_hex(const char *path)
{
	char buf[64];

	if (abi_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtoll(buf, NULL, 16);
}

long long abi_read_num(const char *path)
{
	char buf[64];

	if (abi_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

bool abi_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* --- the undo journal ------------------------------------------------ */

struct undo {
	char path[256];
	char text[256];
};

static struct undo journal[64];
static int journal_len;

static void undo_push(const char *path, const char *text)
{
	struct undo *u;

	if (opt.dry_run)
		return;
	if (journal_len == (int)(ARRAY_SIZE(journal))) {
		fprintf(stderr, "%s: undo journal full\n", prog);
		exit(EX_FAIL);
	}
	u = &journal[journal_len++];
	snprintf(u->path, sizeof(u->path), "%s", path);
	snprintf(u->text, sizeof(u->text), "%s", text);
}

/* Take back every journalled change, newest first. */
void undo_all(void)
{
	while (journal_len > 0) {
		struct undo *u = &journal[--journal_len];
		int err = abi_write(u->path, u->text);

		if (err)
			fprintf(stderr, "%s: undo: %s > %s: %s\n", prog, u->text,
				u->path, strerror(-err));
	}
}

/* Take back only the newest change (a transient one, done with). */
void undo_pop(void)
{
	struct undo *u;
	int err;

	if (!journal_len)
		return;
	u = &journal[--journal_len];
	err = abi_write(u->path, u->text);
	if (err)
		fprintf(stderr, "%s: %s > %s: %s\n", prog, u->text, u->path, strerror(-err));
}

/* The changes stand: forget how to take them back. */
void undo_forget(void)
{
	journal_len = 0;
}

/* --- overrides ---------------------------------------------------------- */

/* Add one override named @name (as its directory will be) under @dir. */
int ovr_add(const char *dir, const char *name, const char *entry)
{
	char path[256], rm[256];
	int err;

	snprintf(path, sizeof(path), "%s/add", dir);
	err = abi_write(path, entry);
	if (err)
		return err;
	snprintf(rm, sizeof(rm), "%s/remove", dir);
	undo_push(rm, name);
	return 0;
}

/* The entry that would add @dir/@name back as it is now. */
static int ovr_entry(const char *dir, const char *name, char *buf, size_t len)
{
	static const char *const files[] = { "length", "value", "mask", "attr",
		"condition", "policy" };
	char path[320], val[128], loc[64];
	size_t i, n;

	snprintf(loc, sizeof(loc), "%s", name);
	loc[strcspn(loc, "@")] = 0;
	n = snprintf(buf, len, "%s", loc);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", dir, name, files[i]);
		if (abi_read(path, val, sizeof(val)) < 0)
			return -ENOENT;
		if (i >= 4 && !strcmp(val, "none"))
			continue;
		n += snprintf(buf + n, len > n ? len - n : 0, " %s", val);
	}
	return n < len ? 0 : -E2BIG;
}

/* Remove @dir/@name, journalling how to add it back with its value. */
int ovr_remove(const char *dir, const char *name)
{
	char path[256], entry[256];
	int err;

	if (!opt.dry_run) {
		err = ovr_entry(dir, name, entry, sizeof(entry));
		if (err)
			return err;
	}
	snprintf(path, sizeof(path), "%s/remove", dir);
	err = abi_write(path, name);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/add", dir);
	undo_push(path, entry);
	return 0;
}

/* Set the emulated value of @dir/@name, journalling the old one. */
int ovr_set(const char *dir, const char *name, unsigned long long value)
{
	char path[256], old[64] = "", text[32];
	int err;

	snprintf(path, sizeof(path), "%s/%s/value", dir, name);
	if (!opt.dry_run) {
		err = abi_read(path, old, sizeof(old));
		if (err < 0)
			return err;
	}
	snprintf(text, sizeof(text), "%llx", value);
	err = abi_write(path, text);
	if (!err)
		undo_push(path, old);
	return err;
}

/*
 * Poll until @done(@arg) holds, every 5 ms, the one wait of every event
 * command. 0, or -ETIME once @deadline (now_ms()) has passed. A dry run
 * changed nothing, so there is nothing to wait for.
 */
int wait_for(bool (*done)(const void *arg), const void *arg, long long deadline)
{
	while (!opt.dry_run && !done(arg)) {
		if (now_ms() > deadline)
			return -ETIME;
		usleep(5000);
	}
	return 0;
}

struct cleared {
	char path[256];
	unsigned long long bits;
};

static bool is_cleared(const void *arg)
{
	const struct cleared *c = arg;
	long long v = abi_read_hex(c->path);

	return v >= 0 && !(v & c->bits);
}

/*
 * Wait until the driver has cleared @bits of @dir/@name's emulated value
 * (the write-1-to-clear an event's handler does). 0, or -ETIME.
 */
int wait_cleared(const char *dir, const char *name, unsigned long long bits,
		 long long deadline)
{
	struct cleared c = { .bits = bits };

	snprintf(c.path, sizeof(c.path), "%s/%s/value", dir, name);
	return wait_for(is_cleared, &c, deadline);
}

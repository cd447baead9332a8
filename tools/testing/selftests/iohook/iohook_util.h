/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the iohook kselftests: sysfs files, interrupt counts,
 * uevents and libpci. Everything here reads what the kernel exposes.
 */
#ifndef IOHOOK_UTIL_H
#define IOHOOK_UTIL_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <pci/pci.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "libiohook.h"	/* tools/lib/iohook, shared with iohook(8) */

static inline int sysfs_writef(const char *path, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return iohook_sysfs_write(path, buf);
}

/* Read a number (any base strtoull accepts) from a sysfs file; -1 on error. */
static inline long long sysfs_read_num(const char *fmt, ...)
{
	char path[512], buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (iohook_sysfs_read(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtoll(buf, NULL, 0);
}

static inline bool path_exists(const char *fmt, ...)
{
	char path[512];
	struct stat st;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return stat(path, &st) == 0;
}

/* Sorted-insensitive listing of a directory, for "state unchanged" checks. */
static inline void dir_listing(const char *path, char *out, size_t len)
{
	struct dirent **names;
	int n, i;

	out[0] = 0;
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		strncat(out, names[i]->d_name, len - strlen(out) - 2);
		strncat(out, " ", len - strlen(out) - 1);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The @index-th smallest IRQ in a device's msi_irqs/ (vector order), or -1. */
static inline int msi_irq(const char *bdf, int index)
{
	struct dirent **names;
	int irqs[64], m = 0, n, i;
	char path[256];

	snprintf(path, sizeof(path), PCI_DEVS "/%s/msi_irqs", bdf);
	n = scandir(path, &names, NULL, NULL);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (isdigit((unsigned char)names[i]->d_name[0]) && m < 64)
			irqs[m++] = atoi(names[i]->d_name);
		free(names[i]);
	}
	free(names);
	qsort(irqs, m, sizeof(irqs[0]), cmp_int);
	return index < m ? irqs[index] : -1;
}

static inline void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Poll @cond (a statement-expression) every 50 ms up to @ms. */
#define WAIT_FOR(cond, ms) ({						\
	int __left = (ms);						\
	bool __ok;							\
	while (!(__ok = (cond)) && __left > 0) {			\
		msleep(50);						\
		__left -= 50;						\
	}								\
	__ok;								\
})

/*
 * Wait up to @ms for a uevent whose header ("ACTION@DEVPATH") ends with
 * @suffix and that carries every "KEY=VALUE" in the NULL-terminated @vars.
 */
static inline bool uevent_wait(int fd, const char *action, const char *suffix,
			       const char *const *vars, int ms)
{
	char buf[8192];
	ssize_t n;

	while ((n = iohook_uevent_recv(fd, buf, sizeof(buf), &ms)) > 0) {
		size_t alen = strlen(action), hlen = strlen(buf);
		size_t slen = strlen(suffix);
		const char *const *v;
		bool all = true;

		if (strncmp(buf, action, alen) || buf[alen] != '@' ||
		    hlen < slen || strcmp(buf + hlen - slen, suffix))
			continue;
		for (v = vars; v && *v; v++)
			all = all && iohook_uevent_has(buf, n, *v);
		if (all)
			return true;
	}
	return false;
}

/*
 * Collect for @ms every uevent with SUBSYSTEM=iohook, as lines
 * "ACTION@DEVPATH [IOHOOK_DEVICE=...]" in @out. Returns how many.
 */
static inline int uevent_collect_iohook(int fd, int ms, char *out, size_t len)
{
	char buf[8192];
	int count = 0;
	ssize_t n;

	*out = 0;
	while ((n = iohook_uevent_recv(fd, buf, sizeof(buf), &ms)) > 0) {
		const char *dev = "";
		bool ours = false;
		size_t off;

		for (off = strlen(buf) + 1; off < (size_t)n; off += strlen(buf + off) + 1) {
			if (!strcmp(buf + off, "SUBSYSTEM=iohook"))
				ours = true;
			if (!strncmp(buf + off, "IOHOOK_DEVICE=", 14))
				dev = buf + off;
		}
		if (!ours)
			continue;
		count++;
		snprintf(out + strlen(out), len - strlen(out), "%.200s %.60s\n",
			 buf, dev);
	}
	return count;
}

#define IOHOOK_STATE	"/sys/kernel/debug/iohook/state"

/* The line of debugfs iohook/state that starts with @key, e.g. "keys". */
static inline void state_line(const char *key, char *out, size_t len)
{
	char state[1024], *line, *save;

	out[0] = 0;
	if (iohook_sysfs_read(IOHOOK_STATE, state, sizeof(state)) <= 0)
		return;
	for (line = strtok_r(state, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, key, strlen(key)))
			snprintf(out, len, "%s", line);
}

/* Write @len bytes of @buf (NULs included) to @path: 0 or -errno. */
static inline int sysfs_write_bytes(const char *path, const char *buf,
				    size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

/*
 * The kernel's fault injection (Documentation/fault-injection): make
 * this task's allocations fail. @attr is "failslab" or
 * "fail_page_alloc"; false if the kernel lacks it.
 */
static inline bool fault_setup(const char *attr)
{
	char path[128];

	if (!path_exists("/sys/kernel/debug/%s", attr) &&
	    mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) &&
	    errno != EBUSY)
		return false;
	if (!path_exists("/sys/kernel/debug/%s", attr))
		return false;
#define FAULT_SET(file, val)						\
	do {								\
		snprintf(path, sizeof(path), "/sys/kernel/debug/%s/" file, attr); \
		iohook_sysfs_write(path, val);					\
	} while (0)
	/* The task filter first: never a moment where every task fails. */
	FAULT_SET("task-filter", "Y");
	FAULT_SET("interval", "1");
	FAULT_SET("times", "-1");
	FAULT_SET("verbose", "0");
	FAULT_SET("ignore-gfp-wait", "N");
	FAULT_SET("probability", "100");
#undef FAULT_SET
	return true;
}

/*
 * Undo fault_setup(): the settings outlive the test (the next run of the
 * program in the same boot must not find failures armed).
 */
static inline void fault_teardown(const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/debug/%s/probability", attr);
	iohook_sysfs_write(path, "0");
}

/*
 * Turn this task's injected failures on or off. While on, nothing may be
 * printed: the test's own output can fail to allocate too.
 */
static inline void fault_this_task(bool on)
{
	int tries = 0;

	/* Turning it off can itself fail to allocate: until it works. */
	while (iohook_sysfs_write("/proc/self/make-it-fail", on ? "1" : "0") && !on &&
	       ++tries < 1000)
		;
}

/* libpci through sysfs: the kernel's pci_user_* path, like lspci/setpci. */
static inline struct pci_access *pci_open_sysfs(void)
{
	struct pci_access *pacc = pci_alloc();

	pacc->method = PCI_ACCESS_SYS_BUS_PCI;
	pci_init(pacc);
	pci_scan_bus(pacc);
	return pacc;
}

static inline struct pci_dev *pci_find(struct pci_access *pacc, int bus,
				       int dev, int fn)
{
	struct pci_dev *d;

	for (d = pacc->devices; d; d = d->next)
		if (d->domain == 0 && d->bus == bus && d->dev == dev &&
		    d->func == fn)
			return d;
	return NULL;
}

/* The network interface of PCI device @bdf (first one), or -1. */
static inline int pci_ifname(const char *bdf, char *name, size_t len)
{
	char path[256];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), PCI_DEVS "/%s/net", bdf);
	d = opendir(path);
	if (!d)
		return -1;
	name[0] = 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			snprintf(name, len, "%.15s", de->d_name);
	closedir(d);
	return name[0] ? 0 : -1;
}

/* Output of a shell command (first line) into @buf; returns exit status. */
static inline int run_cmd(char *buf, size_t len, const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	buf[0] = 0;
	if (!fgets(buf, len, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	while (fgetc(f) != EOF)
		;
	return pclose(f);
}

/*
 * The NVMe controller of the PCI function @bdf, "nvmeN", in @name:
 * controllers probe asynchronously, so their numbers follow no order.
 * 0, or -1 if it has none.
 */
static inline int nvme_ctrl_of(const char *bdf, char *name, size_t len)
{
	char path[128];
	struct dirent *e;
	DIR *d;
	int ret = -1;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/nvme", bdf);
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "nvme", 4)) {
			snprintf(name, len, "%.15s", e->d_name);
			ret = 0;
		}
	if (d)
		closedir(d);
	return ret;
}

#endif

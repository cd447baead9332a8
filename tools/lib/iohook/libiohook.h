/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libiohook.h - what iohook(8) and the iohook kselftests both need from
 * the kernel's interfaces, written once so that a fix lands once:
 *
 *   sysfs		one write(2) per write, reads without the trailing
 *			newline (the ABI in Documentation/ABI/testing)
 *   uevents		a NETLINK_KOBJECT_UEVENT socket and its messages
 *   interrupts		/proc/interrupts: counts, and the ACPI SCI's IRQ
 *   PCI		capability offsets through libpci
 *
 * Header-only (static functions), so that each program, built alone by
 * kselftest's lib.mk or by the CLI's Makefile, needs nothing more than
 * -I to this directory and -lpci.
 */
#ifndef LIBIOHOOK_H
#define LIBIOHOOK_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <pci/pci.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define IOHOOK_SYS	"/sys/kernel/iohook"
#define PCI_DEVS	"/sys/bus/pci/devices"
#define PCI_SLOTS	"/sys/bus/pci/slots"

/* Write @text to @path in one write(2), as the ABI wants. 0 or -errno. */
static inline int iohook_sysfs_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

/* Read @path into @buf without trailing white space. Length or -errno. */
static inline int iohook_sysfs_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = 0;
	return n;
}

/*
 * A non-blocking NETLINK_KOBJECT_UEVENT socket; @rcvbuf, if not 0, the
 * receive buffer to ask for (a bus's worth of devices sends many). The
 * fd, or -errno.
 */
static inline int iohook_uevent_open(int rcvbuf)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			NETLINK_KOBJECT_UEVENT);

	if (fd < 0)
		return -errno;
	if (rcvbuf &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/*
 * Receive one uevent into @buf (NUL-terminated) within *@ms, which it
 * counts down. Its length, or 0 once *@ms has run out.
 */
static inline ssize_t iohook_uevent_recv(int fd, char *buf, size_t len,
					 int *ms)
{
	while (*ms > 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 50) <= 0) {
			*ms -= 50;
			continue;
		}
		n = recv(fd, buf, len - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = 0;
		return n;
	}
	return 0;
}

/* Whether the uevent in @buf (@len bytes) carries @var ("KEY=VALUE"). */
static inline bool iohook_uevent_has(const char *buf, size_t len,
				     const char *var)
{
	size_t off;

	for (off = strlen(buf) + 1; off < len; off += strlen(buf + off) + 1)
		if (!strcmp(buf + off, var))
			return true;
	return false;
}

/* Sum of the per-CPU counts of @irq in /proc/interrupts, or -1. */
static inline long long iohook_irq_count(int irq)
{
	char line[1024];
	long long sum = -1;
	FILE *f = fopen("/proc/interrupts", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		long n = strtol(p, &end, 10);

		if (end == p || *end != ':' || n != irq)
			continue;
		sum = 0;
		p = end + 1;
		for (;;) {
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			sum += v;
			p = end;
		}
		break;
	}
	fclose(f);
	return sum;
}

/*
 * The Linux IRQ whose action, the last word of its /proc/interrupts
 * line, is @action (the last such line), or -1 if there is none.
 */
static inline int iohook_irq_by_action(const char *action)
{
	size_t w = strlen(action);
	char line[1024];
	int irq = -1;
	FILE *f = fopen("/proc/interrupts", "re");

	while (f && fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);

		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = 0;
		if (n > w && line[n - w - 1] == ' ' &&
		    !strcmp(line + n - w, action))
			irq = atoi(line);
	}
	if (f)
		fclose(f);
	return irq;
}

/* The Linux IRQ of the ACPI SCI (action "acpi"), or -1. */
static inline int iohook_sci_irq(void)
{
	return iohook_irq_by_action("acpi");
}

/*
 * Offset of a capability of @d: @type PCI_CAP_NORMAL or
 * PCI_CAP_EXTENDED, @id its ID. 0 if the device has none.
 */
static inline int iohook_pci_cap(struct pci_dev *d, int id, int type)
{
	struct pci_cap *cap;

	pci_fill_info(d, PCI_FILL_CAPS | PCI_FILL_EXT_CAPS);
	cap = pci_find_cap(d, id, type);
	return cap ? cap->addr : 0;
}

/*
 * The bus below PCI bridge @bdf ("DDDD:BB", from its pci_bus directory)
 * in @bus; false for a function that is no bridge.
 */
static inline bool iohook_child_bus(const char *bdf, char *bus, size_t len)
{
	char path[128];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/pci_bus", bdf);
	d = opendir(path);
	while (d && !found && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(bus, len, "%.15s", e->d_name);
			found = true;
		}
	if (d)
		closedir(d);
	return found;
}

/*
 * Is a PCI slot of bus @bus ("DDDD:BB") still in sysfs? After a bridge's
 * removal its hotplug slot's directory goes only when the slot's kobject
 * is released, which a kernel with DEBUG_KOBJECT_RELEASE delays by
 * seconds; a rescan before then registers the slot again and sysfs
 * refuses the duplicate. Wait for this to be false first.
 */
static inline bool iohook_slot_on_bus(const char *bus)
{
	char path[300], addr[32];
	struct dirent *e;
	bool found = false;
	DIR *d = opendir("/sys/bus/pci/slots");

	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/slots/%.200s/address", e->d_name);
		found = iohook_sysfs_read(path, addr, sizeof(addr)) > 0 &&
			!strncmp(addr, bus, strlen(bus));
	}
	if (d)
		closedir(d);
	return found;
}

#endif /* LIBIOHOOK_H */

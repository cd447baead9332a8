// SPDX-License-Identifier: GPL-2.0
/*
 * The end of a PCI error recovery, as the kernel announces it.
 *
 * Each device a recovery visits gets a uevent (pci_uevent_ers()):
 * ERROR_EVENT=BEGIN_RECOVERY when its driver is told of the error, then
 * SUCCESSFUL_RECOVERY after its resume, or FAILED_RECOVERY. "aer" waits
 * for these before it reports an uncorrectable error handled, so that the
 * next error of a file is not injected into a recovery: the AER driver
 * handles one message at a time, reads the device's status for the next
 * one only after the recovery, and a recovery clears that status (a
 * driver's slot_reset restores the device's state, and pci_restore_state()
 * clears every AER status bit). On the debug kernel such an error was read
 * back as zeros and not reported. The status bits "aer" waits on are
 * cleared by that same restore, mid-recovery, so they alone do not say the
 * recovery is over.
 *
 * The socket is opened before the error is fired, so no event is missed;
 * every BEGIN_RECOVERY of a device is already queued when the device's
 * non-fatal status reads clear (both restores come after its driver's
 * error_detected). After the last SUCCESSFUL_RECOVERY the port still
 * clears the device's non-fatal status, a few config accesses; the next
 * error's overrides take longer than that to set up.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "iohook.h"

#define MAX_PENDING	64

static int uevent_fd = -1;
static int n_pending;
static char pending[MAX_PENDING][128];	/* DEVPATHs that began, not ended */

/**
 * recovery_watch() - start listening for PCI error-recovery uevents
 *
 * Return: 0, or a negative errno (the socket could not be opened).
 */
int recovery_watch(void)
{
	int fd;

	n_pending = 0;
	if (opt.dry_run)
		return 0;
	/* A recovery of a bus full of devices sends many: room for them. */
	fd = iohook_uevent_open(1 << 20);
	if (fd < 0)
		return fd;
	uevent_fd = fd;
	return 0;
}

/** recovery_unwatch() - stop listening */
void recovery_unwatch(void)
{
	if (uevent_fd >= 0)
		close(uevent_fd);
	uevent_fd = -1;
}

/* One kernel uevent: "change@DEVPATH", then KEY=VALUE strings. */
static void take(const char *msg, size_t len)
{
	const char *devpath = NULL, *event = NULL, *p;
	bool pci = false;
	int i;

	for (p = msg; p < msg + len; p += strlen(p) + 1) {
		if (!strncmp(p, "DEVPATH=", 8))
			devpath = p + 8;
		else if (!strncmp(p, "ERROR_EVENT=", 12))
			event = p + 12;
		else if (!strcmp(p, "SUBSYSTEM=pci"))
			pci = true;
	}
	if (!pci || !devpath || !event || strlen(devpath) >= sizeof(pending[0]))
		return;
	for (i = 0; i < n_pending; i++)
		if (!strcmp(pending[i], devpath))
			break;
	if (!strcmp(event, "BEGIN_RECOVERY")) {
		if (i == n_pending && n_pending < MAX_PENDING)
			memcpy(pending[n_pending++], devpath, strlen(devpath) + 1);
	} else if (i < n_pending) {	/* SUCCESSFUL_ or FAILED_RECOVERY */
		memmove(pending[i], pending[i + 1], (n_pending - i - 1) * sizeof(pending[0]));
		n_pending--;
	}
}

/**
 * recovery_wait() - wait until every recovery begun since recovery_watch() ends
 * @deadline: now_ms() after which to give up
 *
 * Return: 0 (none begun, or all ended, successfully or not), -ETIME, or
 * -ENOBUFS when events were lost (the socket overflowed).
 */
int recovery_wait(long long deadline)
{
	char buf[8192];
	ssize_t len;

	if (opt.dry_run || uevent_fd < 0)
		return 0;
	for (;;) {
		struct pollfd pfd = { .fd = uevent_fd, .events = POLLIN };
		long long left;

		len = recv(uevent_fd, buf, sizeof(buf) - 1, 0);
		if (len > 0) {
			buf[len] = 0;
			take(buf, len);
			continue;
		}
		if (len < 0 && errno == ENOBUFS)
			return -ENOBUFS;
		if (len < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (!n_pending)
			return 0;
		left = deadline - now_ms();
		if (left <= 0)
			return -ETIME;
		poll(&pfd, 1, left);
	}
}

/**
 * recovery_next() - the next ERROR_EVENT uevent on @fd, before @deadline
 * @fd: a socket from iohook_uevent_open()
 * @deadline: now_ms() value to give up at
 * @dev: the device's name (the DEVPATH's last part), at least 32 bytes
 * @ev: the event (BEGIN_RECOVERY, SUCCESSFUL_RECOVERY, FAILED_RECOVERY),
 *	at least 32 bytes
 *
 * Other uevents are skipped.
 *
 * Return: true with @dev and @ev set, false at the deadline.
 */
bool recovery_next(int fd, long long deadline, char *dev, char *ev)
{
	char buf[8192];

	for (;;) {
		int ms = deadline - now_ms();
		const char *devpath = NULL, *event = NULL, *p;
		ssize_t n;

		if (ms <= 0)
			return false;
		n = iohook_uevent_recv(fd, buf, sizeof(buf), &ms);
		if (n <= 0)
			continue;
		for (p = buf; p < buf + n; p += strlen(p) + 1) {
			if (!strncmp(p, "DEVPATH=", 8))
				devpath = p + 8;
			else if (!strncmp(p, "ERROR_EVENT=", 12))
				event = p + 12;
		}
		if (!event || !devpath || !strrchr(devpath, '/'))
			continue;
		snprintf(dev, 32, "%.31s", strrchr(devpath, '/') + 1);
		snprintf(ev, 32, "%.31s", event);
		return true;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * trace: turn the iohook tracepoints on, stream them from trace_pipe
 * until interrupted (or for the seconds given), and put back the tracing
 * state found: each event's enable and tracing_on.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iohook.h"

static const char *tracefs(void)
{
	if (abi_exists("/sys/kernel/tracing/events"))
		return "/sys/kernel/tracing";
	if (abi_exists("/sys/kernel/debug/tracing/events"))
		return "/sys/kernel/debug/tracing";
	return NULL;
}

static const char *const events[] = { "iohook_read", "iohook_write" };

int cmd_trace(int argc, char **argv)
{
	char path[256], saved[2][8], on[8], buf[4096];
	const char *t = tracefs();
	long long deadline = -1;
	struct pollfd pfd[2] = { { .fd = -1 }, { .fd = -1 } };
	sigset_t sigs;
	size_t i;
	int ret = EX_OK, err;

	if (argc > 2)
		return EX_USAGE;
	if (argc == 2)
		deadline = now_ms() + atoi(argv[1]) * 1000LL;
	if (!t) {
		fprintf(stderr,
			"%s: trace: tracing is not mounted (mount -t tracefs nodev /sys/kernel/tracing)\n",
			prog);
		return EX_NODEV;
	}
	snprintf(path, sizeof(path), "%s/events/iohook/%s/enable", t, events[0]);
	if (!abi_exists(path)) {
		fprintf(stderr, "%s: trace: no iohook tracepoints in this kernel\n", prog);
		return EX_NOIOHOOK;
	}
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events/iohook/%s/enable", t, events[i]);
		/* "0", "1", or with a soft-disable mark ("0*"): keep the digit. */
		if (abi_read(path, saved[i], sizeof(saved[i])) < 0)
			snprintf(saved[i], sizeof(saved[i]), "0");
		saved[i][1] = 0;
	}
	snprintf(path, sizeof(path), "%s/tracing_on", t);
	if (abi_read(path, on, sizeof(on)) < 0)
		snprintf(on, sizeof(on), "1");

	/* Interrupted or terminated: stop streaming, then restore. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events/iohook/%s/enable", t, events[i]);
		err = abi_write(path, "1");
		if (err) {
			ret = err_exit("trace", err);
			goto restore;
		}
	}
	snprintf(path, sizeof(path), "%s/tracing_on", t);
	abi_write(path, "1");
	if (opt.dry_run)
		goto restore;

	snprintf(path, sizeof(path), "%s/trace_pipe", t);
	pfd[0].fd = open(path, O_RDONLY | O_NONBLOCK);
	pfd[0].events = POLLIN;
	pfd[1].fd = signalfd(-1, &sigs, 0);
	pfd[1].events = POLLIN;
	if (pfd[0].fd < 0 || pfd[1].fd < 0) {
		ret = err_exit("trace_pipe", -errno);
		goto restore;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (deadline < 0 || now_ms() < deadline) {
		ssize_t n;

		if (poll(pfd, 2, 100) <= 0)
			continue;
		if (pfd[1].revents)
			break;
		n = read(pfd[0].fd, buf, sizeof(buf));
		if (n > 0)
			fwrite(buf, 1, n, stdout);
	}
restore:
	if (pfd[0].fd >= 0)
		close(pfd[0].fd);
	if (pfd[1].fd >= 0)
		close(pfd[1].fd);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events/iohook/%s/enable", t, events[i]);
		abi_write(path, saved[i]);
	}
	snprintf(path, sizeof(path), "%s/tracing_on", t);
	abi_write(path, on);
	return ret;
}

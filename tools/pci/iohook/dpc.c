// SPDX-License-Identifier: GPL-2.0
/*
 * iohook dpc: Downstream Port Containment on a port whose hardware has
 * none (the kernel's drivers/pci/iohook/dpc.c does the registers and
 * the containment).
 *
 *	dpc [list]			each made-up DPC: registers, counts
 *	dpc PORT add [--rp-ext]		the capability, then PORT enumerated
 *					again (removed and rescanned), so that
 *					the kernel's DPC service binds
 *	dpc PORT remove			the capability gone, PORT enumerated
 *					again as it was
 *	dpc PORT trigger REASON [-s BDF] [--busy MS]
 *					contain PORT; wait until the kernel
 *					recovered what is below it (its
 *					ERROR_EVENT uevents) and report
 *
 * A rebind of PORT's driver alone does not do: the PCI core caches
 * capability offsets at enumeration, so the kernel hides the new
 * capability from the port it enumerated without it (see iohook.rst).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iohook.h"

#define CAPS	IOHOOK_SYS "/caps"
#define DPC	IOHOOK_SYS "/dpc"

static int dpc_err(const char *port, int err)
{
	switch (-err) {
	case ENODEV:
		fprintf(stderr, "%s: %s has no DPC iohook made up (iohook dpc %s add)\n",
			prog, port, port);
		return EX_NOCAP;
	case EAGAIN:
		fprintf(stderr, "%s: %s was enumerated without its DPC: remove and rescan it\n",
			prog, port);
		return EX_NOCAP;
	case EPERM:
		fprintf(stderr, "%s: %s: DPC Control does not enable that trigger\n",
			prog, port);
		return EX_NOCAP;
	case EBUSY:
		fprintf(stderr, "%s: %s is contained already\n", prog, port);
		return EX_BUSY;
	default:
		return err_exit(port, err);
	}
}

/* Remove PORT and rescan: the PCI core reads its capabilities again. */
static int reenumerate(const char *sysname)
{
	int ret = pcie_reenumerate(sysname);

	return ret ? err_exit("remove and rescan", ret) : EX_OK;
}

/*
 * Wait for the recovery that the trigger started: every device that
 * began one (ERROR_EVENT=BEGIN_RECOVERY) has ended it. Prints each end.
 */
static int wait_recovery(int fd, long long t0, long long deadline)
{
	int begun = 0, ok = 0, failed = 0;
	char dev[32], ev[32];

	while ((begun == 0 || ok + failed < begun) &&
	       recovery_next(fd, deadline, dev, ev)) {
		if (!strcmp(ev, "BEGIN_RECOVERY")) {
			begun++;
			continue;
		}
		if (!strcmp(ev, "SUCCESSFUL_RECOVERY"))
			ok++;
		else
			failed++;
		printf("%s: %s after %lld ms\n", dev, ev, now_ms() - t0);
	}
	if (!begun) {
		printf("no recovery began (is DPC's interrupt enabled?)\n");
		return EX_TIMEOUT;
	}
	if (ok + failed < begun)
		return EX_TIMEOUT;
	printf("verdict: %s\n", failed ? "not recovered" : "recovered");
	return failed ? EX_FAIL : EX_OK;
}

static int dpc_trigger(const char *port, int argc, char **argv)
{
	char line[256];
	const char *source = NULL;
	long busy = -1;
	long long t0;
	int i, fd, ret, n;

	if (argc < 1)
		return EX_USAGE;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < argc)
			source = argv[++i];
		else if (!strcmp(argv[i], "--busy") && i + 1 < argc)
			busy = atol(argv[++i]);
		else
			return EX_USAGE;
	}
	n = snprintf(line, sizeof(line), "trigger %s %s", port, argv[0]);
	if (source)
		n += snprintf(line + n, sizeof(line) - n, " source=%s", source);
	if (busy >= 0)
		snprintf(line + n, sizeof(line) - n, " busy=%ld", busy);
	fd = opt.dry_run ? -1 : iohook_uevent_open(1 << 20);
	if (!opt.dry_run && fd < 0)
		return err_exit("uevent socket", fd);
	t0 = now_ms();
	ret = abi_write(DPC, line);
	if (ret) {
		if (fd >= 0)
			close(fd);
		return ret == -EINVAL ? EX_USAGE : dpc_err(port, ret);
	}
	if (opt.dry_run)
		return EX_OK;
	ret = wait_recovery(fd, t0, t0 + (opt.timeout_ms ?: 30000));
	close(fd);
	return ret;
}

int cmd_dpc(int argc, char **argv)
{
	char buf[4096], line[128];
	struct pci_dev *d;
	char name[32];
	int ret;

	if (argc < 2 || !strcmp(argv[1], "list")) {
		if (abi_read(DPC, buf, sizeof(buf)) < 0)
			return err_exit(DPC, -errno);
		fputs(buf, stdout);
		return EX_OK;
	}
	if (argc < 3)
		return EX_USAGE;
	d = pcie_get(argv[1]);
	if (!d) {
		fprintf(stderr, "%s: no PCI device %s\n", prog, argv[1]);
		return EX_NODEV;
	}
	pcie_name(d, name, sizeof(name));
	if (!strcmp(argv[2], "add")) {
		if (argc > 4 || (argc == 4 && strcmp(argv[3], "--rp-ext")))
			return EX_USAGE;
		snprintf(line, sizeof(line), "add %s dpc%s", name,
			 argc == 4 ? " rpext" : "");
		ret = abi_write(CAPS, line);
		if (ret)
			return ret == -EEXIST ?
			       (fprintf(stderr, "%s: %s has DPC already\n", prog, name),
				EX_BUSY) : err_exit(name, ret);
		return reenumerate(name);
	}
	if (!strcmp(argv[2], "remove") && argc == 3) {
		snprintf(line, sizeof(line), "remove %s dpc", name);
		ret = abi_write(CAPS, line);
		if (ret)
			return err_exit(name, ret);
		return reenumerate(name);
	}
	if (!strcmp(argv[2], "trigger"))
		return dpc_trigger(name, argc - 3, argv + 3);
	return EX_USAGE;
}

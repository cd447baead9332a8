// SPDX-License-Identifier: GPL-2.0
/*
 * iohook recover: which drivers on this machine recover from which
 * errors, and do their devices work afterwards?
 *
 * For each PCIe endpoint below a root port (or the one named, or those
 * below the port named) and each error class, the error is raised as the
 * hardware would raise it, the kernel's recovery is awaited, and a row
 * says: the driver, whether it has error handlers (the kernel's "no
 * error_detected callback" says it has none), the kernel's verdict (the
 * device's ERROR_EVENT uevents), the time to recover, whether the device
 * works afterwards by a probe of its own function, and whether the
 * kernel splatted meanwhile.
 *
 * Classes:
 *	aer-cor		a correctable Bad TLP, through AER (iohook aer)
 *	aer-nonfatal	an uncorrectable Completion Timeout (non-fatal)
 *	aer-fatal	an uncorrectable Data Link Protocol error (fatal)
 *	dpc-fatal	ERR_FATAL contained by the port's DPC
 *	dpc-software	DPC's software trigger
 * AER needs the device's AER capability (made up with the caps file if
 * the hardware has none); DPC classes make up the port's DPC for the run
 * when it has none (the port is enumerated again, and again at the end).
 *
 * Probes: NVMe, its controller live and a direct read of its namespace;
 * a network device, carrier and a frame sent (its transmit count moves);
 * a virtio disk, its virtio status and a direct read.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <pci/pci.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iohook.h"

#define CAPS		IOHOOK_SYS "/caps"
#define DPC		IOHOOK_SYS "/dpc"
#define MAX_DEVS	32
#define SPEC_FILE	"/tmp/iohook-recover.aer"

static const struct rclass {
	const char *name;
	const char *spec;	/* aer-inject's language, or NULL for DPC */
	const char *trigger;	/* the dpc file's reason */
} rclasses[] = {
	{ "aer-cor", "AER\nCOR_STATUS BAD_TLP\n", NULL },
	{ "aer-nonfatal", "AER\nUNCOR_STATUS COMP_TIME\n", NULL },
	{ "aer-fatal", "AER\nUNCOR_STATUS DLP\n", NULL },
	{ "dpc-fatal", NULL, "fatal" },
	{ "dpc-software", NULL, "software" },
};

struct rdev {
	char bdf[16];
	char port[16];
	char driver[32];
};

struct row {
	const struct rdev *dev;
	const char *cls;
	char handlers[8];
	char verdict[48];
	long long ms;
	char works[64];
	bool splat;
};

static void sysfs_link_base(const char *path, char *out, size_t len)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	snprintf(out, len, "-");
	if (n > 0) {
		buf[n] = 0;
		snprintf(out, len, "%.31s", strrchr(buf, '/') + 1);
	}
}

/* The endpoints to report on: below a root port, matching @target. */
static int find_devices(const char *target, struct rdev *devs)
{
	char path[PATH_MAX], real[PATH_MAX], *p;
	struct dirent *e;
	int n = 0;
	DIR *d;

	d = opendir(PCI_DEVS);
	while (d && (e = readdir(d)) && n < MAX_DEVS) {
		struct pci_dev *pd;
		int type;

		if (e->d_name[0] == '.')
			continue;
		pd = pcie_get(e->d_name);
		type = pd ? pcie_type(pd) : -1;
		if (type != PCI_EXP_TYPE_ENDPOINT && type != PCI_EXP_TYPE_LEG_END)
			continue;
		if (!pcie_root_port(pd))
			continue;
		snprintf(path, sizeof(path), PCI_DEVS "/%s", e->d_name);
		if (!realpath(path, real))
			continue;
		*strrchr(real, '/') = 0;
		p = strrchr(real, '/') + 1;
		if (strcmp(target, "all") && !strstr(e->d_name, target) && !strstr(p, target))
			continue;
		snprintf(devs[n].bdf, sizeof(devs[n].bdf), "%.15s", e->d_name);
		snprintf(devs[n].port, sizeof(devs[n].port), "%s", p);
		snprintf(path, sizeof(path), PCI_DEVS "/%s/driver", e->d_name);
		sysfs_link_base(path, devs[n].driver, sizeof(devs[n].driver));
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

static int kmsg_mark;

/* A line in the kernel's log, so that what follows it can be read. */
static void mark_log(void)
{
	char line[64];

	snprintf(line, sizeof(line), "iohook recover: mark %d\n", ++kmsg_mark);
	abi_write("/dev/kmsg", line);
}

/* Does the log since the last mark have a line with @a (and @b)? */
static bool log_has(const char *a, const char *b)
{
	char mark[64], line[1024];
	bool after = false, found = false;
	FILE *f = popen("dmesg 2>/dev/null", "r");

	snprintf(mark, sizeof(mark), "iohook recover: mark %d", kmsg_mark);
	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, mark))
			after = true;
		else if (after && strstr(line, a) && (!b || strstr(line, b)))
			found = true;
	}
	if (f)
		pclose(f);
	return found;
}

static bool splatted(void)
{
	static const char *const bad[] = { "WARNING:", "BUG:", "Oops", "circular locking",
					   "KASAN:", "UBSAN:", "RCU stall" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (log_has(bad[i], NULL))
			return true;
	return false;
}

/*
 * Wait for the end of @bdf's recovery: SUCCESSFUL_RECOVERY or
 * FAILED_RECOVERY. Sets the verdict; the time is the caller's.
 */
static void wait_verdict(int fd, const char *bdf, long long deadline, struct row *r)
{
	char dev[32], ev[32];
	bool began = false;

	snprintf(r->verdict, sizeof(r->verdict), "no recovery event");
	while (recovery_next(fd, deadline, dev, ev)) {
		if (strcmp(dev, bdf))
			continue;
		if (!strcmp(ev, "BEGIN_RECOVERY")) {
			began = true;
			continue;
		}
		snprintf(r->verdict, sizeof(r->verdict), "%s",
			 !strcmp(ev, "SUCCESSFUL_RECOVERY") ? "recovered" : "not recovered");
		break;
	}
	if (began && !strcmp(r->verdict, "no recovery event"))
		snprintf(r->verdict, sizeof(r->verdict), "began, did not end");
}

/* Run @fn in a child for at most @secs: a read of a dead device may hang. */
static bool within(int (*fn)(const char *), const char *arg, int secs)
{
	long long deadline = now_ms() + secs * 1000;
	pid_t pid = fork();
	int st;

	if (pid == 0)
		_exit(fn(arg) ? 1 : 0);
	while (pid > 0 && now_ms() < deadline) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) && !WEXITSTATUS(st);
		usleep(20000);
	}
	if (pid > 0)
		kill(pid, SIGKILL);	/* left for init if stuck in the kernel */
	return false;
}

static int read_direct(const char *dev)
{
	void *buf;
	int fd = open(dev, O_RDONLY | O_DIRECT), ret = -1;

	if (fd >= 0 && !posix_memalign(&buf, 4096, 4096))
		ret = pread(fd, buf, 4096, 0) == 4096 ? 0 : -1;
	if (fd >= 0)
		close(fd);
	return ret;
}

/* The first entry of @dir that starts with @prefix, or false. */
static bool first_entry(const char *dir, const char *prefix, char *out, size_t len)
{
	struct dirent *e;
	bool found = false;
	DIR *d = opendir(dir);

	while (d && !found && (e = readdir(d)))
		if (e->d_name[0] != '.' && !strncmp(e->d_name, prefix, strlen(prefix))) {
			snprintf(out, len, "%.31s", e->d_name);
			found = true;
		}
	if (d)
		closedir(d);
	return found;
}

static bool has_nvme_ctrl(const void *arg)
{
	char name[32];

	return first_entry(arg, "nvme", name, sizeof(name));
}

static bool nvme_live(const void *arg)
{
	char state[16] = "";

	abi_read(arg, state, sizeof(state));
	return !strncmp(state, "live", 4);
}

static long long tx_count(const char *ifname)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/tx_packets", ifname);
	return abi_read_num(path);
}

static bool has_carrier(const void *arg)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", (const char *)arg);
	return abi_read_num(path) == 1;
}

/* One broadcast frame of the local experimental EtherType: no IP at all. */
static void send_frame(const char *ifname)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_halen = ETH_ALEN };
	unsigned char frame[60] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	int fd = socket(AF_PACKET, SOCK_RAW, 0);

	frame[12] = 0x88;
	frame[13] = 0xb5;
	sll.sll_ifindex = if_nametoindex(ifname);
	memset(sll.sll_addr, 0xff, ETH_ALEN);
	if (fd >= 0 && sll.sll_ifindex)
		sendto(fd, frame, sizeof(frame), 0, (struct sockaddr *)&sll, sizeof(sll));
	if (fd >= 0)
		close(fd);
}

/* Does the device work? By a probe of its own function. */
static void works_after(const struct rdev *dev, char *out, size_t len)
{
	char dir[160], name[64], path[200];

	snprintf(path, sizeof(path), PCI_DEVS "/%s/driver", dev->bdf);
	if (strcmp(dev->driver, "-") && !abi_exists(path)) {
		snprintf(out, len, "no (driver gone)");
		return;
	}
	snprintf(dir, sizeof(dir), PCI_DEVS "/%s/nvme", dev->bdf);
	if (!strcmp(dev->driver, "nvme") &&
	    wait_for(has_nvme_ctrl, dir, now_ms() + 15000)) {
		snprintf(out, len, "no (no controller)");
		return;
	}
	if (first_entry(dir, "nvme", name, sizeof(name))) {
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/state", name);
		if (wait_for(nvme_live, path, now_ms() + 15000)) {
			snprintf(out, len, "no (controller not live)");
			return;
		}
		snprintf(path, sizeof(path), "/dev/%sn1", name);
		snprintf(out, len, within(read_direct, path, 10) ? "yes (read)" :
			 "no (read failed)");
		return;
	}
	snprintf(dir, sizeof(dir), PCI_DEVS "/%s/net", dev->bdf);
	if (first_entry(dir, "", name, sizeof(name))) {
		long long before;

		if (wait_for(has_carrier, name, now_ms() + 15000)) {
			snprintf(out, len, "no (no carrier)");
			return;
		}
		before = tx_count(name);
		send_frame(name);
		usleep(500000);
		snprintf(out, len, tx_count(name) > before ? "yes (carrier, tx)" :
			 "no (tx stuck)");
		return;
	}
	snprintf(dir, sizeof(dir), PCI_DEVS "/%s", dev->bdf);
	if (first_entry(dir, "virtio", name, sizeof(name))) {
		char vdir[256], st[16] = "", blk[32];

		snprintf(vdir, sizeof(vdir), "%s/%s/status", dir, name);
		abi_read(vdir, st, sizeof(st));
		if (strtoul(st, NULL, 16) == 0) {
			snprintf(out, len, "no (device reset: virtio status 0)");
			return;
		}
		snprintf(vdir, sizeof(vdir), "%s/%s/block", dir, name);
		if (first_entry(vdir, "vd", blk, sizeof(blk))) {
			snprintf(path, sizeof(path), "/dev/%s", blk);
			snprintf(out, len, within(read_direct, path, 10) ? "yes (read)" :
				 "no (read failed)");
			return;
		}
	}
	snprintf(out, len, "n/a (no check for its kind)");
}

/* Remove @bdf and rescan; wait until @dev has a driver again. */
static bool driver_back(const void *arg)
{
	char path[128];

	snprintf(path, sizeof(path), PCI_DEVS "/%s/driver", (const char *)arg);
	return abi_exists(path);
}

/* Is @dev's network interface up (IFF_UP)? Its name in @ifname. */
static bool net_is_up(const char *dev, char *ifname, size_t len)
{
	char dir[128], path[200];

	snprintf(dir, sizeof(dir), PCI_DEVS "/%s/net", dev);
	if (!first_entry(dir, "", ifname, len))
		return false;
	snprintf(path, sizeof(path), "/sys/class/net/%s/flags", ifname);
	return abi_read_hex(path) > 0 && (abi_read_hex(path) & IFF_UP);
}

static bool net_back(const void *arg)
{
	char ifname[32];

	net_is_up(arg, ifname, sizeof(ifname));
	return ifname[0] != 0;
}

/*
 * Remove @bdf and rescan; wait until @dev has a driver again. A network
 * interface that was up is brought up again: the run took it down.
 */
static int reenumerate(const char *bdf, const char *dev)
{
	char ifname[32] = "", cmd[96];
	bool was_up = net_is_up(dev, ifname, sizeof(ifname));
	int ret;

	ret = pcie_reenumerate(bdf);
	if (!ret)
		ret = wait_for(driver_back, dev, now_ms() + 20000);
	if (!ret && was_up && !wait_for(net_back, dev, now_ms() + 10000)) {
		net_is_up(dev, ifname, sizeof(ifname));
		snprintf(cmd, sizeof(cmd), "ip link set %s up", ifname);
		ret = system(cmd) ? -EIO : 0;
	}
	return ret;
}

static bool has_line(const char *file, const char *a, const char *b)
{
	char buf[4096];

	if (abi_read(file, buf, sizeof(buf)) < 0)
		return false;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
		if (strstr(l, a) && strstr(l, b))
			return true;
	return false;
}

static int raise_aer(const struct rdev *dev, const struct rclass *c)
{
	char *argv[5], spec[] = SPEC_FILE, verb[] = "aer", sflag[] = "-s";
	FILE *f = fopen(SPEC_FILE, "w");
	int out, ret;

	argv[0] = verb;
	argv[1] = sflag;
	argv[2] = (char *)dev->bdf;
	argv[3] = spec;
	argv[4] = NULL;
	if (!f)
		return -errno;
	fputs(c->spec, f);
	fclose(f);
	fflush(stdout);
	out = dup(1);
	freopen("/dev/null", "w", stdout);
	ret = cmd_aer(4, argv);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	return ret;
}

static void one(const struct rdev *dev, const struct rclass *c, struct row *r)
{
	int fd = iohook_uevent_open(1 << 20);
	long long t0, cor = 0;
	char path[160], line[96];

	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->cls = c->name;
	snprintf(r->handlers, sizeof(r->handlers), "?");
	snprintf(path, sizeof(path), PCI_DEVS "/%s/aer_dev_correctable", dev->bdf);
	if (c->spec && !abi_exists(path)) {
		snprintf(r->verdict, sizeof(r->verdict), "n/a (no AER)");
		goto out;
	}
	if (c->spec && !strcmp(c->name, "aer-cor")) {
		char buf[1024], *p;

		abi_read(path, buf, sizeof(buf));
		p = strstr(buf, "TOTAL_ERR_COR ");
		cor = p ? atoll(p + 14) : 0;
	}
	mark_log();
	t0 = now_ms();
	if (c->spec) {
		int ret = raise_aer(dev, c);

		if (ret && ret != EX_TIMEOUT) {
			snprintf(r->verdict, sizeof(r->verdict), "not raised (exit %d)", ret);
			goto out;
		}
	} else {
		int ret;

		snprintf(line, sizeof(line), "trigger %s %s", dev->port, c->trigger);
		ret = abi_write(DPC, line);
		if (ret) {
			snprintf(r->verdict, sizeof(r->verdict), "not raised (%s)", strerror(-ret));
			goto out;
		}
	}
	if (!strcmp(c->name, "aer-cor")) {
		char buf[1024], *p;

		usleep(500000);
		abi_read(path, buf, sizeof(buf));
		p = strstr(buf, "TOTAL_ERR_COR ");
		snprintf(r->verdict, sizeof(r->verdict), "%s",
			 p && atoll(p + 14) > cor ? "corrected" : "not reported");
		snprintf(r->handlers, sizeof(r->handlers), "-");
	} else {
		wait_verdict(fd, dev->bdf, t0 + 30000, r);
		snprintf(r->handlers, sizeof(r->handlers), "%s",
			 log_has(dev->bdf, "no error_detected callback") ? "no" : "yes");
	}
	r->ms = now_ms() - t0;
	works_after(dev, r->works, sizeof(r->works));
	r->splat = splatted();
out:
	if (fd >= 0)
		close(fd);
}

static void print_rows(const struct row *rows, int n)
{
	int i;

	if (opt.json) {
		printf("[");
		for (i = 0; i < n; i++) {
			const struct row *r = &rows[i];

			printf("%s\n {\"device\": \"%s\", \"port\": \"%s\", ",
			       i ? "," : "", r->dev->bdf, r->dev->port);
			printf("\"driver\": \"%s\", \"class\": \"%s\", ",
			       r->dev->driver, r->cls);
			printf("\"handlers\": \"%s\", \"verdict\": \"%s\", ",
			       r->handlers, r->verdict);
			printf("\"ms\": %lld, \"works\": \"%s\", \"splat\": %s}",
			       r->ms, r->works, r->splat ? "true" : "false");
		}
		printf("\n]\n");
		return;
	}
	printf("%-13s %-11s %-13s %-8s %-22s %7s  %-34s %s\n", "DEVICE", "DRIVER", "CLASS",
	       "HANDLERS", "VERDICT", "MS", "WORKS AFTER", "SPLAT");
	for (i = 0; i < n; i++)
		printf("%-13s %-11s %-13s %-8s %-22s %7lld  %-34s %s\n", rows[i].dev->bdf,
		       rows[i].dev->driver, rows[i].cls, rows[i].handlers, rows[i].verdict,
		       rows[i].ms, rows[i].works, rows[i].splat ? "yes" : "no");
}

int cmd_recover(int argc, char **argv)
{
	static struct rdev devs[MAX_DEVS];
	static struct row rows[MAX_DEVS * ARRAY_SIZE(rclasses)];
	bool want[ARRAY_SIZE(rclasses)];
	const char *target = "all";
	int i, n, nrows = 0, total, done = 0;
	size_t c;

	for (c = 0; c < ARRAY_SIZE(rclasses); c++)
		want[c] = true;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--errors") && i + 1 < argc) {
			char *list = argv[++i];

			for (c = 0; c < ARRAY_SIZE(rclasses); c++) {
				const char *p = strstr(list, rclasses[c].name);
				size_t l = strlen(rclasses[c].name);

				want[c] = p && (p[l] == 0 || p[l] == ',');
			}
		} else if (argv[i][0] != '-') {
			target = argv[i];
		} else {
			return EX_USAGE;
		}
	}
	n = find_devices(target, devs);
	if (!n) {
		fprintf(stderr, "%s: recover: no PCIe endpoint below a root port matches %s\n",
			prog, target);
		return EX_NODEV;
	}
	for (total = 0, c = 0; c < ARRAY_SIZE(rclasses); c++)
		total += want[c] * n;
	for (i = 0; i < n; i++) {
		char line[96];
		bool made_dpc = false;

		for (c = 0; c < ARRAY_SIZE(rclasses); c++) {
			char settled[64];

			if (!want[c])
				continue;
			if (!rclasses[c].spec && !made_dpc &&
			    !has_line(DPC, devs[i].port, "control=")) {
				snprintf(line, sizeof(line), "add %s dpc", devs[i].port);
				made_dpc = !abi_write(CAPS, line) &&
					   !reenumerate(devs[i].port, devs[i].bdf);
				/*
				 * Enumerated again: let its driver finish
				 * (an NVMe controller probes after the bind)
				 * before an error hits the probe instead.
				 */
				works_after(&devs[i], settled, sizeof(settled));
			}
			fprintf(stderr, "[%d/%d] %s %s ...\n", ++done, total, devs[i].bdf,
				rclasses[c].name);
			one(&devs[i], &rclasses[c], &rows[nrows++]);
		}
		if (made_dpc) {
			snprintf(line, sizeof(line), "remove %s dpc", devs[i].port);
			if (!abi_write(CAPS, line))
				reenumerate(devs[i].port, devs[i].bdf);
		}
	}
	print_rows(rows, nrows);
	return EX_OK;
}

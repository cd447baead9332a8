// SPDX-License-Identifier: GPL-2.0
/*
 * iohook_stress - every iohook operation at once, from several threads,
 * while real drivers use the hooked registers; then check that nothing
 * was lost or left behind.
 *
 * Threads, each in a loop until the time is up (IOHOOK_STRESS_SECONDS,
 * default 60):
 *   adds       add and remove overrides in all three spaces (I/O ports,
 *              memory, the empty root port's config space), conditional
 *              ones and ones with fault policies among them;
 *   arm        arm and disarm;
 *   values     write the value files of three long-lived rw overrides;
 *   fire       fire the e1000e's MSI-X vectors, the SMBus controller's
 *              INTx line and the ACPI SCI;
 *   lspci      lspci -xxx and setpci on overridden and untouched devices;
 *   regdump    the e1000e's register dump through its driver (the
 *              ETHTOOL_GREGS ioctl "ethtool -d" makes) while its BAR0
 *              holds an override;
 *   rescan     remove and rescan the e1000e with its overrides in place
 *              and its sysfs files held open across the removal;
 *   hits       read the long-lived overrides' hit counters, which must
 *              never go backwards.
 *
 * Afterwards: no new kernel splat in dmesg; the directories of every
 * space and of each device's view hold exactly the overrides the store
 * holds (debugfs iohook/state), nothing stale and nothing missing; the
 * register dump shows the override; the e1000e is bound with carrier;
 * and "remove all" leaves every space empty and every static key off.
 *
 * A refusal a thread cannot avoid (the e1000e is gone while it is being
 * rescanned, an override another thread removed) is counted, not failed;
 * any other error fails the test. Each thread must also have done work.
 */
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "iohook_machine.h"
#include "iohook_harness.h"

/* Every test here drives the q35 machine (iohook_q35.h). */
static void __attribute__((constructor)) need_q35(void)
{
	iohook_gate(true);
}

#define STATE		IOHOOK_STATE
#define SMBUS		"0000:00:1f.3"
#define MEM_SAFE	0x000d000000000000ULL
/* e1000e RDTR (receive delay timer): in the register dump, harmless. */
#define NIC_RDTR	0x2820
#define RDTR_VALUE	0x1234
#define RDTR_DUMP_INDEX	6	/* e1000_get_regs(): regs_buff[6] = RDTR */

/* The kernel messages that mean a bug, as the check scripts read them. */
#define SPLAT_RE	"BUG:|WARNING:|Oops|KASAN|UBSAN|circular locking|" \
			"recursive locking|inconsistent lock state|" \
			"suspicious RCU usage|list_add corruption|list_del corruption|" \
			"ODEBUG|kobject.*is not initialized|refcount_t:"

/* Set once by the main thread: every thread then finishes its round. */
static bool stop;

/*
 * Odd while the rescan thread has the e1000e removed (from just before
 * "remove" until it is back with carrier); bumped at both edges.  A thread
 * that saw it odd, or saw it change, over an operation on the e1000e knows
 * the device may have vanished under it.
 */
static unsigned int nic_gen;

static unsigned int nic_gen_now(void)
{
	return __atomic_load_n(&nic_gen, __ATOMIC_SEQ_CST);
}

/* Whether the e1000e may have been away at some point since @before. */
static bool nic_was_away(unsigned int before)
{
	return (before & 1) || nic_gen_now() != before;
}

struct worker {
	const char *name;
	void (*fn)(struct worker *w);
	pthread_t tid;
	unsigned long long rng;
	unsigned int part;	/* the adds threads' share of the locations */
	long ops;		/* operations done */
	long refused;		/* refusals the concurrency explains */
	long errors;		/* anything else: fails the test */
	char first_error[160];
};

static unsigned int wrnd(struct worker *w, unsigned int n)
{
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return n ? w->rng % n : 0;
}

static void error(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	if (!w->errors++) {
		va_start(ap, fmt);
		vsnprintf(w->first_error, sizeof(w->first_error), fmt, ap);
		va_end(ap);
	}
}

/* A write that must succeed. */
static void must(struct worker *w, const char *path, const char *text)
{
	int err = iohook_sysfs_write(path, text);

	w->ops++;
	if (err)
		error(w, "%s < '%s': %s", path, text, strerror(-err));
}

/* A write that the e1000e's absence or another thread may refuse. */
static void may(struct worker *w, const char *path, const char *text)
{
	int err = iohook_sysfs_write(path, text);

	w->ops++;
	if (!err)
		return;
	/* ENXIO: fire_irq while the driver is unbound and its vectors freed. */
	if (err == -ENOENT || err == -ENODEV || err == -EIO || err == -ERANGE || err == -ENXIO)
		w->refused++;
	else
		error(w, "%s < '%s': %s", path, text, strerror(-err));
}

/* ---- the long-lived overrides, present from setup to the end ---- */

static unsigned long long nic_bar0;	/* physical, from sysfs */

static unsigned long long bar_start(const char *bdf, int bar)
{
	char path[256], line[128];
	unsigned long long start = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), PCI_DEVS "/%s/resource", bdf);
	f = fopen(path, "r");
	for (i = 0; f && fgets(line, sizeof(line), f); i++)
		if (i == bar)
			start = strtoull(line, NULL, 16);
	if (f)
		fclose(f);
	return start;
}

/* The hit counters the "hits" thread follows. */
static const char *const hit_files[] = {
	OVR(RP2) "/0xe0/hits",
	IOHOOK_SYS "/io/0x88/hits",
	IOHOOK_SYS "/mem/0xd000000001000/hits",
	NULL,	/* the e1000e's, in the global view: set up at run time */
};

static char nic_hits[128];

static int add_long_lived(void)
{
	char entry[128];

	nic_bar0 = bar_start(NIC, 0);
	if (!nic_bar0)
		return -ENODEV;
	snprintf(nic_hits, sizeof(nic_hits), IOHOOK_SYS "/mem/0x%llx/hits",
		 nic_bar0 + NIC_RDTR);
	snprintf(entry, sizeof(entry), "bar0+%x 4 %x ffff ro", NIC_RDTR, RDTR_VALUE);
	return iohook_sysfs_write(OVR(RP2) "/add", "e0 4 0 ffffffff rw") ?:
	       iohook_sysfs_write(IOHOOK_SYS "/io/add", "88 1 0 ff rw") ?:
	       sysfs_writef(IOHOOK_SYS "/mem/add", "%llx 4 0 ffffffff rw",
			    MEM_SAFE + 0x1000) ?:
	       iohook_sysfs_write(OVR(NIC) "/add", entry);
}

/* ---- the threads ---- */

static void do_adds(struct worker *w)
{
	static const char *const attrs[] = { "ro", "rw", "rc", "wc" };
	static const char *const opts[] = {
		"", "", "count=3", "skip=1 count=2", "prob=1/2 seed=5",
	};
	const char *attr = attrs[wrnd(w, 4)], *opt = opts[wrnd(w, 5)];
	unsigned int n = wrnd(w, 4), io = (w->part ? 0x8c : 0x84) + n;
	unsigned long long mem = MEM_SAFE + (w->part * 4 + n) * 16;
	char entry[160], loc[64];
	unsigned char b[4];
	int port;

	switch (wrnd(w, 3)) {
	case 0:		/* DMA page registers nothing uses, read and written */
		snprintf(entry, sizeof(entry), "%x 1 5a ff %s %s", io, attr, opt);
		must(w, IOHOOK_SYS "/io/add", entry);
		port = open("/dev/port", O_RDWR);
		if (port >= 0) {
			if (pread(port, b, 1, io) != 1 || pwrite(port, b, 1, io) != 1)
				error(w, "/dev/port: %s", strerror(errno));
			close(port);
		}
		snprintf(loc, sizeof(loc), "0x%x", io);
		must(w, IOHOOK_SYS "/io/remove", loc);
		break;
	case 1:		/* memory nothing decodes; both threads share a selector */
		snprintf(entry, sizeof(entry), "%llx 4 1 ff %s sel=%llx:4=%x %s;%llx 8 2 ffff %s",
			 mem, attr, MEM_SAFE + 0x100, n, opt, mem + 0x200, attr);
		must(w, IOHOOK_SYS "/mem/add", entry);
		snprintf(loc, sizeof(loc), "0x%llx@%x", mem, n);
		must(w, IOHOOK_SYS "/mem/remove", loc);
		snprintf(loc, sizeof(loc), "0x%llx", mem + 0x200);
		must(w, IOHOOK_SYS "/mem/remove", loc);
		break;
	default:
		/* The empty root port's vendor-specific bytes, or a
		 * function no device has, through the global space.
		 */
		if (w->part) {
			snprintf(entry, sizeof(entry), "abcd:00:00.0+%x 4 0 ffff %s %s",
				 0x100 + n * 4, attr, opt);
			must(w, IOHOOK_SYS "/pciconf/add", entry);
			snprintf(loc, sizeof(loc), "abcd:00:00.0+%x", 0x100 + n * 4);
			must(w, IOHOOK_SYS "/pciconf/remove", loc);
			break;
		}
		snprintf(entry, sizeof(entry), "%x 4 0 ffff %s %s;%x 1 3 3 %s",
			 0xf0 + n * 4, attr, opt, 0xe8 + n, attr);
		must(w, OVR(RP2) "/add", entry);
		snprintf(loc, sizeof(loc), "0x%x", 0xf0 + n * 4);
		must(w, OVR(RP2) "/remove", loc);
		snprintf(loc, sizeof(loc), "0x%x", 0xe8 + n);
		must(w, OVR(RP2) "/remove", loc);
		break;
	}
}

static void do_arm(struct worker *w)
{
	must(w, ARMED, "0");
	usleep(1000 * wrnd(w, 5));
	must(w, ARMED, "1");
	msleep(5 + wrnd(w, 20));
}

static void do_values(struct worker *w)
{
	char v[32];

	snprintf(v, sizeof(v), "%x", wrnd(w, 0x10000));
	must(w, OVR(RP2) "/0xe0/value", v);
	must(w, IOHOOK_SYS "/io/0x88/value", v + (strlen(v) > 2 ? strlen(v) - 2 : 0));
	must(w, IOHOOK_SYS "/mem/0xd000000001000/value", v);
	usleep(1000);
}

static void do_fire(struct worker *w)
{
	char v[16];

	switch (wrnd(w, 3)) {
	case 0:		/* rx, tx or "other": the driver's handlers run */
		snprintf(v, sizeof(v), "%u", wrnd(w, 3));
		may(w, PCI_DEVS "/" NIC "/fire_irq", v);
		break;
	case 1:
		if (path_exists(PCI_DEVS "/" SMBUS "/driver"))
			must(w, PCI_DEVS "/" SMBUS "/fire_irq", "0");
		break;
	default:
		snprintf(v, sizeof(v), "%d", iohook_sci_irq());
		must(w, IOHOOK_SYS "/fire_irq", v);
		break;
	}
	usleep(1000 * (2 + wrnd(w, 10)));
}

static void do_lspci(struct worker *w)
{
	static const char *const cmds[] = {
		"lspci -xxx -s 00:1d.0", "lspci -xxx -s 01:00.0",
		"lspci -xxx -s 00:1f.3", "lspci -vvv -s 00:1c.0",
		"setpci -s 00:1d.0 e0.l", "setpci -s 00:1d.0 f0.w=1234",
		"setpci -s 00:1f.3 0.l",
	};
	const char *pick = cmds[wrnd(w, ARRAY_SIZE(cmds))];
	unsigned int gen = nic_gen_now();
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "%s >/dev/null 2>&1", pick);
	w->ops++;
	if (!system(cmd))
		return;
	/*
	 * lspci lists the device, then reads its files: a removal in
	 * between makes it fail, which only the e1000e's rescan explains.
	 */
	if (strstr(pick, NIC + strlen("0000:")) && nic_was_away(gen))
		w->refused++;
	else
		error(w, "'%s' failed", cmd);
}

/* The e1000e's register dump, as "ethtool -d" gets it; -errno. */
static int nic_regdump(unsigned int *regs, unsigned int max, unsigned int *n)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ethtool_regs *r;
	char ifname[IFNAMSIZ];
	struct ifreq ifr = {};
	int fd, err = 0;

	if (pci_ifname(NIC, ifname, sizeof(ifname)))
		return -ENODEV;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&info;
	r = calloc(1, sizeof(*r) + max * 4);
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0) {
		err = -errno;
	} else {
		r->cmd = ETHTOOL_GREGS;
		r->len = info.regdump_len < max * 4 ? info.regdump_len : max * 4;
		ifr.ifr_data = (void *)r;
		if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
			err = -errno;
		*n = r->len / 4;
		memcpy(regs, r->data, r->len);
	}
	free(r);
	close(fd);
	return err;
}

static void do_regdump(struct worker *w)
{
	unsigned int regs[256], n = 0;
	int err = nic_regdump(regs, 256, &n);

	w->ops++;
	if (err == -ENODEV || err == -ENOENT || err == -EOPNOTSUPP)
		w->refused++;		/* the e1000e is being rescanned */
	else if (err)
		error(w, "register dump: %s", strerror(-err));
	else if (n <= RDTR_DUMP_INDEX)
		error(w, "register dump of %u registers", n);
	usleep(5000);
}

/* Remove and rescan the e1000e, its sysfs files held open throughout. */
static void do_rescan(struct worker *w)
{
	static const char *const held[] = {
		OVR(NIC) "/add", OVR(NIC) "/bar0+2820/value",
		OVR(NIC) "/bar0+2820/hits", PCI_DEVS "/" NIC "/fire_irq",
	};
	int fds[ARRAY_SIZE(held)], err;
	unsigned int i;
	char buf[64];

	for (i = 0; i < ARRAY_SIZE(held); i++)
		fds[i] = open(held[i], i == 1 ? O_RDWR : (i == 0 ? O_WRONLY : O_RDONLY));
	w->ops++;
	__atomic_add_fetch(&nic_gen, 1, __ATOMIC_SEQ_CST);	/* away */
	err = iohook_sysfs_write(PCI_DEVS "/" NIC "/remove", "1");
	if (err)
		error(w, "remove: %s", strerror(-err));
	/* The files outlive the device: every use is refused, nothing more. */
	for (i = 0; i < ARRAY_SIZE(held); i++) {
		if (fds[i] < 0)
			continue;
		if (i == 2 && pread(fds[i], buf, sizeof(buf), 0) >= 0)
			error(w, "%s readable after removal", held[i]);
		if (i == 1 && pwrite(fds[i], "5", 1, 0) >= 0)
			error(w, "%s writable after removal", held[i]);
		close(fds[i]);
	}
	msleep(wrnd(w, 200));
	err = iohook_sysfs_write("/sys/bus/pci/rescan", "1");
	if (err)
		error(w, "rescan: %s", strerror(-err));
	if (nic_restore())
		error(w, "e1000e not back with carrier after a rescan");
	__atomic_add_fetch(&nic_gen, 1, __ATOMIC_SEQ_CST);	/* back */
	msleep(200 + wrnd(w, 500));
}

static long long hits_seen[ARRAY_SIZE(hit_files)];

static void do_hits(struct worker *w)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hit_files); i++) {
		const char *f = hit_files[i] ? hit_files[i] : nic_hits;
		long long h = sysfs_read_num("%s", f);

		w->ops++;
		if (h < 0) {
			error(w, "%s unreadable", f);
			continue;
		}
		if (h < hits_seen[i])
			error(w, "%s went back from %lld to %lld", f, hits_seen[i], h);
		hits_seen[i] = h;
	}
	usleep(2000);
}

static void *worker_loop(void *arg)
{
	struct worker *w = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
		w->fn(w);
	return NULL;
}

/* ---- the checks afterwards ---- */

static long splats(void)
{
	char out[32];

	run_cmd(out, sizeof(out), "dmesg | grep -cE '%s'", SPLAT_RE);
	return atol(out);
}

/* The names in @dir other than add and remove, sorted, space-separated. */
static void names_of(const char *dir, char *out, size_t len)
{
	struct dirent **names;
	int n, i;

	out[0] = 0;
	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *s = names[i]->d_name;

		if (strcmp(s, ".") && strcmp(s, "..") && strcmp(s, "add") &&
		    strcmp(s, "remove") && strcmp(s, "models"))
			snprintf(out + strlen(out), len - strlen(out), "%s ", s);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

FIXTURE(st) {
	char ifname[IFNAMSIZ];
};

FIXTURE_SETUP(st)
{
	if (!path_exists(STATE))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	ASSERT_EQ(0, machine_reset(self->ifname, sizeof(self->ifname)));
}

FIXTURE_TEARDOWN(st)
{
	clear_all();
	iohook_sysfs_write(ARMED, "1");
}

TEST_F_TIMEOUT(st, everything_at_once, 3600)
{
	struct worker workers[] = {
		{ "adds", do_adds }, { "adds", do_adds, .part = 1 }, { "arm", do_arm },
		{ "values", do_values }, { "fire", do_fire }, { "lspci", do_lspci },
		{ "regdump", do_regdump }, { "rescan", do_rescan }, { "hits", do_hits },
	};
	const char *s = getenv("IOHOOK_STRESS_SECONDS");
	long seconds = s ? atol(s) : 60, splats_before = splats(), total = 0;
	char want[512], got[512], line[256], a[32], b[32];
	unsigned int regs[256], n = 0, i;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long seed = time(NULL);

	TH_LOG("%ld s on %ld CPUs, %zu threads, seed %llu", seconds, cpus,
	       ARRAY_SIZE(workers), seed);
	ASSERT_EQ(0, add_long_lived());
	for (i = 0; i < ARRAY_SIZE(workers); i++) {
		workers[i].rng = (seed + i) * 0x9e3779b97f4a7c15ULL | 1;
		ASSERT_EQ(0, pthread_create(&workers[i].tid, NULL, worker_loop, &workers[i]));
	}
	sleep(seconds);
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	for (i = 0; i < ARRAY_SIZE(workers); i++) {
		struct worker *w = &workers[i];

		pthread_join(w->tid, NULL);
		TH_LOG("%-8s %7ld ops, %5ld refused (e1000e away), %ld errors%s%s",
		       w->name, w->ops, w->refused, w->errors,
		       w->errors ? ": " : "", w->first_error);
		EXPECT_EQ(0, w->errors);
		EXPECT_GT(w->ops, 0);
		total += w->ops;
	}
	TH_LOG("%ld operations in all", total);

	/* Back to rest: armed, the e1000e up. */
	ASSERT_EQ(0, iohook_sysfs_write(ARMED, "1"));
	ASSERT_EQ(0, nic_restore());
	ASSERT_EQ(0, pci_ifname(NIC, self->ifname, sizeof(self->ifname)));
	EXPECT_EQ(1, link_carrier(self->ifname));

	/* Exactly the long-lived overrides, in every view and in the store. */
	names_of(IOHOOK_SYS "/io", got, sizeof(got));
	EXPECT_STREQ("0x88 ", got);
	names_of(IOHOOK_SYS "/mem", got, sizeof(got));
	snprintf(a, sizeof(a), "0x%llx", MEM_SAFE + 0x1000);
	snprintf(b, sizeof(b), "0x%llx", nic_bar0 + NIC_RDTR);
	/* in alphasort()'s order */
	snprintf(want, sizeof(want), "%s %s ", strcoll(a, b) < 0 ? a : b,
		 strcoll(a, b) < 0 ? b : a);
	EXPECT_STREQ(want, got);
	names_of(IOHOOK_SYS "/pciconf", got, sizeof(got));
	EXPECT_STREQ("0000:00:1d.0+e0 ", got);
	names_of(OVR(RP2), got, sizeof(got));
	EXPECT_STREQ("0xe0 ", got);
	names_of(OVR(NIC), got, sizeof(got));
	EXPECT_STREQ("bar0+2820 ", got);
	names_of(OVR(RP1), got, sizeof(got));
	EXPECT_STREQ("", got);
	state_line("overrides", line, sizeof(line));
	EXPECT_STREQ("overrides pciconf=1 mem=2 io=1", line);
	state_line("selectors", line, sizeof(line));
	EXPECT_STREQ("selectors pciconf=0 mem=0 io=0", line);

	/* The driver's register dump sees the override. */
	ASSERT_EQ(0, nic_regdump(regs, 256, &n));
	ASSERT_GT(n, RDTR_DUMP_INDEX);
	EXPECT_EQ(RDTR_VALUE, regs[RDTR_DUMP_INDEX] & 0xffff);

	/* Remove all: every space empty, every key off, clean filters. */
	clear_all();
	state_line("keys", line, sizeof(line));
	EXPECT_STREQ("keys pciconf=0 mem=0 io=0", line);
	state_line("overrides", line, sizeof(line));
	EXPECT_STREQ("overrides pciconf=0 mem=0 io=0", line);
	state_line("filter_sum", line, sizeof(line));
	EXPECT_STREQ("filter_sum pciconf=0 mem=0 io=0", line);
	state_line("vfilter_sum", line, sizeof(line));
	EXPECT_STREQ("vfilter_sum 0", line);
	EXPECT_EQ(1, link_carrier(self->ifname));
	EXPECT_EQ(splats_before, splats());
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * iohook_models - register models in BPF, loaded with iohook(8) from the
 * objects built next to it (models/NAME.bpf.o), on the q35 machine's
 * devices: what the kernel exposes with a model bound (lspci, ethtool,
 * the NIC's address, the models files and counters), and the negative
 * cases: a model the verifier refuses, a model detached while accesses
 * run through it, a device removed while its model is bound, and writes
 * the models files must refuse.
 *
 * The hostile models in models/ here (built into test-models/) each try
 * one thing a model must not get away with: outlive its binding, re-enter
 * itself, loop, sleep, forge a context, escape the pin directory. The
 * "loader" tests run iohook(8) built against both libbpf generations.
 */
#define _GNU_SOURCE
#include <linux/types.h>
#include <sys/utsname.h>

#include "iohook_machine.h"
#include "iohook_harness.h"

static void __attribute__((constructor)) need_q35(void)
{
	iohook_gate(true);
}

#define MODELS_FILE	IOHOOK_SYS "/models"
#define MODEL_MAC	"02:10:18:00:e1:0e"
#define NIC_DRIVER	"/sys/bus/pci/drivers/e1000e"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * The models built next to iohook(8), as "iohook model load" takes them,
 * the hostile ones next to this program, and the directory of both.
 */
static char models_dir[256], test_models[256], self_dir[200];

static void find_models(void)
{
	ssize_t n = readlink("/proc/self/exe", self_dir, sizeof(self_dir) - 1);

	if (n <= 0)
		return;
	self_dir[n] = 0;
	*strrchr(self_dir, '/') = 0;
	snprintf(models_dir, sizeof(models_dir), "%s/models", self_dir);
	snprintf(test_models, sizeof(test_models), "%s/test-models", self_dir);
}

/* Whether the running kernel is at least @major.@minor. */
static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int a = 0, b = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &a, &b) != 2)
		return false;
	return a > major || (a == major && b >= minor);
}

/* Unload every model the list shows, so that each test starts with none. */
static void unload_all(void)
{
	char buf[8192], name[64], out[1024], *line, *save;

	if (iohook_sysfs_read(MODELS_FILE, buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%63s", name) == 1)
			cli(out, sizeof(out), "model unload %s", name);
}

/* The line of @name in /sys/kernel/iohook/models, or "" if not listed. */
static void model_line(const char *name, char *line, size_t len)
{
	char buf[8192], *l, *save;
	size_t n = strlen(name);

	line[0] = 0;
	if (iohook_sysfs_read(MODELS_FILE, buf, sizeof(buf)) <= 0)
		return;
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (!strncmp(l, name, n) && l[n] == ' ')
			snprintf(line, len, "%s", l);
}

/* Neither registered, nor pinned, nor bound to the first root port. */
static bool model_gone(const char *name)
{
	char line[512], bound[512] = "";

	model_line(name, line, sizeof(line));
	iohook_sysfs_read(OVR(RP1) "/models", bound, sizeof(bound));
	return !line[0] && !bound[0] && !path_exists("/sys/fs/bpf/iohook/%s", name);
}

/* A counter ("reads", "writes", "errors", ...) of a bound model; -1 if unbound. */
static long long model_count(const char *name, const char *counter)
{
	char line[512], key[32], *p;

	model_line(name, line, sizeof(line));
	snprintf(key, sizeof(key), " %s=", counter);
	p = strstr(line, key);
	return p ? atoll(p + strlen(key)) : -1;
}

/* All the output of a shell command (stdout and stderr); its exit status. */
static int run_all(char *out, size_t len, const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 6, fmt, ap);
	va_end(ap);
	strcat(cmd, " 2>&1");
	return run_shell(out, len, cmd);
}

/* Whether some line of @text has @a and, after it, @b. */
static bool has_line(const char *text, const char *a, const char *b)
{
	const char *p = text, *eol;

	while ((p = strstr(p, a))) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		if (memmem(p, eol - p, b, strlen(b)))
			return true;
		p = eol;
	}
	return false;
}

/* Rebind the NIC's driver, so that it probes the device again. */
static int nic_rebind(void)
{
	iohook_sysfs_write(NIC_DRIVER "/unbind", NIC);
	if (iohook_sysfs_write(NIC_DRIVER "/bind", NIC))
		return -1;
	return WAIT_FOR(nic_bound(), 15000) ? 0 : -1;
}

static void nic_address(char *addr, size_t len)
{
	char ifname[IFNAMSIZ], path[128];

	addr[0] = 0;
	if (pci_ifname(NIC, ifname, sizeof(ifname)))
		return;
	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	iohook_sysfs_read(path, addr, len);
}

FIXTURE(models)
{
	char out[65536];
	char ifname[IFNAMSIZ];
};

FIXTURE_SETUP(models)
{
	find_models();
	ASSERT_EQ(0, machine_reset(self->ifname, sizeof(self->ifname)));
	ASSERT_TRUE(path_exists(MODELS_FILE)) TH_LOG("no CONFIG_IOHOOK_MODEL");
	ASSERT_TRUE(path_exists("%s/passthrough.bpf.o", models_dir))
		TH_LOG("models not built in %s", models_dir);
	unload_all();
}

FIXTURE_TEARDOWN(models)
{
	unload_all();
	clear_all();
	iohook_sysfs_write(ARMED, "1");
	if (!nic_bound())
		nic_rebind();
	nic_restore();
}

/* A model that passes everything through changes nothing a driver sees. */
TEST_F(models, passthrough_is_transparent_and_counted)
{
	char before[32768], after[32768], line[512];

	run_all(before, sizeof(before), "lspci -xxxx -s %s", RP1);
	ASSERT_NE(0, before[0]);
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s 0 1000", models_dir, RP1));
	EXPECT_NE(NULL, strstr(self->out, "passthrough: loaded"));
	ASSERT_LT(0, iohook_sysfs_read(OVR(RP1) "/models", line, sizeof(line)));
	EXPECT_EQ(0, strncmp(line, "passthrough pciconf ", 20)) TH_LOG("%s", line);
	EXPECT_NE(NULL, strstr(line, " at=0"));
	run_all(after, sizeof(after), "lspci -xxxx -s %s", RP1);
	EXPECT_STREQ(before, after);
	/* 4096 bytes of config space: at least 1024 dword reads. */
	EXPECT_LE(1024, model_count("passthrough", "reads"));
	EXPECT_EQ(0, model_count("passthrough", "errors"));
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model list --json"));
	EXPECT_NE(NULL, strstr(self->out, "\"name\": \"passthrough\", \"bound\": true"));
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload passthrough"));
	EXPECT_TRUE(model_gone("passthrough"));
}

/* The trace model logs what the driver read, with the values it saw. */
TEST_F(models, trace_logs_driver_accesses)
{
	char regs[16384], rec[64], *p;
	unsigned long status = 0;

	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/trace.bpf.o %s bar0+0 20000", models_dir, NIC));
	ASSERT_EQ(0, run_all(regs, sizeof(regs), "ethtool -d %s", self->ifname));
	p = strstr(regs, "0x00008: STATUS");
	ASSERT_NE(NULL, p) TH_LOG("%s", regs);
	p = strstr(p, "0x");
	ASSERT_NE(NULL, p = strstr(p + 2, "0x"));
	status = strtoul(p, NULL, 16);
	/* The "other" MSI-X vector: its handler reads ICR in hard interrupt context. */
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" NIC "/fire_irq", "2"));
	msleep(200);
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model trace trace 1"));
	/* ethtool -d reads CTRL and STATUS; the trace has that STATUS read. */
	EXPECT_NE(NULL, strstr(self->out, " R 0/4 "));
	snprintf(rec, sizeof(rec), " R 0x8/4 %#lx\n", status);
	EXPECT_NE(NULL, strstr(self->out, rec)) TH_LOG("no '%s'", rec);
	EXPECT_TRUE(has_line(self->out, " R 0xc0/4 ", " hardirq")) TH_LOG("%s", self->out);
	EXPECT_LE(2, model_count("trace", "reads"));
	EXPECT_EQ(0, model_count("trace", "errors"));

	/* Config space from sysfs: read under pci_lock, interrupts off. */
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload trace"));
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/trace.bpf.o %s 0 40", models_dir, RP1));
	run_all(regs, sizeof(regs), "lspci -xxx -s %s", RP1);
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model trace trace 1"));
	EXPECT_TRUE(has_line(self->out, " R 0/4 0x", " irqs-off")) TH_LOG("%s", self->out);
}

/* An unbounded loop in an op: the verifier refuses it, nothing registers. */
TEST_F(models, verifier_refuses_unbounded_loop)
{
	EXPECT_EQ(1, cli(self->out, sizeof(self->out),
			 "model load %s/bad_loop.bpf.o %s 0 4", models_dir, RP1));
	EXPECT_NE(NULL, strstr(self->out, "refused by the verifier")) TH_LOG("%s", self->out);
	EXPECT_TRUE(model_gone("bad_loop"));
}

/* Unload and load again, ten times, while another process reads through it. */
TEST_F(models, detach_during_access)
{
	char path[128], base[256], buf[256];
	int i, fd, st, bad = 0, done[2];
	pid_t pid;

	snprintf(path, sizeof(path), PCI_DEVS "/%s/config", RP1);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(256, pread(fd, base, sizeof(base), 0));
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s 0 100", models_dir, RP1));
	ASSERT_EQ(0, pipe2(done, O_NONBLOCK));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char c;
		long n = 0;

		close(done[1]);
		/* Until the parent closes its end: read() then returns 0. */
		while (read(done[0], &c, 1) < 0) {
			if (pread(fd, buf, sizeof(buf), 0) != 256 ||
			    memcmp(buf, base, 0x8) || memcmp(buf + 0x10, base + 0x10, 0x30))
				bad++;
			n++;
		}
		_exit(bad || n < 100 ? 1 : 0);
	}
	close(done[0]);
	for (i = 0; i < 10; i++) {
		EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload passthrough"));
		EXPECT_EQ(0, cli(self->out, sizeof(self->out),
				 "model load %s/passthrough.bpf.o %s 0 100", models_dir, RP1));
	}
	msleep(100);
	close(done[1]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(fd);
	EXPECT_LE(1, model_count("passthrough", "reads"));
}

/*
 * Where a struct_ops link holds the model (Linux 6.4 and later), removing
 * its pins drops the last reference and the kernel detaches the model.
 */
TEST_F(models, detach_on_last_close)
{
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s 0 100", models_dir, RP1));
	if (!path_exists("/sys/fs/bpf/iohook/passthrough/link"))
		SKIP(return, "no struct_ops links before Linux 6.4: %s",
		     "the map holds the model until unload");
	ASSERT_EQ(0, run_all(self->out, sizeof(self->out), "rm -r /sys/fs/bpf/iohook/passthrough"));
	EXPECT_TRUE(WAIT_FOR(model_gone("passthrough"), 5000));
}

/* Removing the device unbinds its model, which stays loaded. */
TEST_F(models, device_removed_while_bound)
{
	char line[512];

	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s bar0+0 20000", models_dir, NIC));
	model_line("passthrough", line, sizeof(line));
	EXPECT_NE(NULL, strstr(line, " mem ")) TH_LOG("%s", line);
	EXPECT_NE(NULL, strstr(line, " at=bar0+0"));
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" NIC "/remove", "1"));
	EXPECT_FALSE(path_exists(PCI_DEVS "/" NIC));
	model_line("passthrough", line, sizeof(line));
	EXPECT_STREQ("passthrough unbound", line);
	ASSERT_EQ(0, nic_restore());
	model_line("passthrough", line, sizeof(line));
	EXPECT_STREQ("passthrough unbound", line);
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload passthrough"));
	model_line("passthrough", line, sizeof(line));
	EXPECT_STREQ("", line);
}

/* The NVM handshake model gives the NIC the modelled address. */
TEST_F(models, e1000e_nvm_modelled_mac)
{
	char real[32], addr[32], ifname[IFNAMSIZ];

	nic_address(real, sizeof(real));
	ASSERT_NE(0, real[0]);
	ASSERT_STRNE(MODEL_MAC, real);
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/e1000e_nvm.bpf.o %s bar0+0 5408", models_dir, NIC));
	ASSERT_EQ(0, nic_rebind());
	nic_address(addr, sizeof(addr));
	EXPECT_STREQ(MODEL_MAC, addr);
	ASSERT_EQ(0, pci_ifname(NIC, ifname, sizeof(ifname)));
	run_all(self->out, sizeof(self->out), "ip link show %s", ifname);
	EXPECT_NE(NULL, strstr(self->out, "link/ether " MODEL_MAC " ")) TH_LOG("%s", self->out);
	/* The NVM as the driver reads it: the MAC in words 0-2. */
	run_all(self->out, sizeof(self->out), "ethtool -e %s length 6", ifname);
	EXPECT_NE(NULL, strstr(self->out, "02 10 18 00 e1 0e")) TH_LOG("%s", self->out);
	/* Probe validated the checksum (words 0-0x3f) through the model. */
	EXPECT_LE(64, model_count("e1000e_nvm", "reads"));
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload e1000e_nvm"));
	ASSERT_EQ(0, nic_rebind());
	nic_address(addr, sizeof(addr));
	EXPECT_STREQ(real, addr);
}

#define NVME		"0000:00:05.0"
#define NVME_SIZE	(1 << 20)

/* Read @len bytes at @off of the namespace, uncached; the time it took. */
static long long nvme_pread(int fd, void *buf, size_t len, off_t off)
{
	long long t = now_ms();

	if (pread(fd, buf, len, off) != (ssize_t)len)
		return -1;
	return now_ms() - t;
}

static void kmsg(const char *text)
{
	iohook_sysfs_write("/dev/kmsg", text);
}

/*
 * The NVMe model swallows the third I/O doorbell: that read times out,
 * the controller reports fatal status until the driver disables it, the
 * driver resets it, and the read completes with the image's bytes.
 */
TEST_F(models, nvme_lost_doorbell_reset)
{
	const char *image = getenv("IOHOOK_NVME_IMAGE");
	char state[32], ctrl[16], blk[64], path[128], *want, *got = NULL;
	long long ms[3];
	int fd, img, i;

	/* vm-run gives its machine the controller and says where its image is. */
	if (!image)
		SKIP(return, "no NVMe namespace image (IOHOOK_NVME_IMAGE, set by vm-run)");
	ASSERT_TRUE(path_exists(PCI_DEVS "/" NVME "/nvme"));
	ASSERT_EQ(0, nvme_ctrl_of(NVME, ctrl, sizeof(ctrl)));
	snprintf(blk, sizeof(blk), "%sn1", ctrl);
	ASSERT_TRUE(path_exists("/sys/block/%s", blk));
	want = malloc(NVME_SIZE);
	ASSERT_NE(NULL, want);
	img = open(image, O_RDONLY);
	ASSERT_LE(0, img);
	ASSERT_EQ(NVME_SIZE, pread(img, want, NVME_SIZE, 0));
	close(img);
	ASSERT_EQ(0, posix_memalign((void **)&got, 4096, NVME_SIZE));
	snprintf(path, sizeof(path), "/dev/%s", blk);
	fd = open(path, O_RDONLY | O_DIRECT);
	ASSERT_LE(0, fd);
	/* Timeouts of 2 s, so the lost command costs seconds, not 30. */
	snprintf(path, sizeof(path), "/sys/block/%s/queue/io_timeout", blk);
	ASSERT_EQ(0, iohook_sysfs_write(path, "2000"));
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/nvme_reset.bpf.o %s bar0+0 2000", models_dir, NVME));
	kmsg("iohook_models: nvme reads start\n");
	for (i = 0; i < 3; i++)
		ms[i] = nvme_pread(fd, got + i * 4096, 4096, i * 4096);
	EXPECT_LE(0, ms[0]);
	EXPECT_LE(0, ms[1]);
	/* The third waited for the timeout and the reset, then completed. */
	EXPECT_LE(1500, ms[2]) TH_LOG("reads took %lld, %lld, %lld ms", ms[0], ms[1], ms[2]);
	EXPECT_EQ(0, memcmp(got, want, 3 * 4096));
	run_all(self->out, sizeof(self->out),
		"dmesg | sed -n '/iohook_models: nvme reads start/,$p'");
	EXPECT_NE(NULL, strstr(self->out, "controller is down; will reset: CSTS=0x3"))
		TH_LOG("%s", self->out);
	snprintf(path, sizeof(path), "/sys/class/nvme/%s/state", ctrl);
	EXPECT_TRUE(WAIT_FOR(iohook_sysfs_read(path, state,
					       sizeof(state)) > 0 &&
			     !strcmp(state, "live"), 10000));
	EXPECT_LE(3, model_count("nvme_reset", "writes"));
	EXPECT_LE(1, model_count("nvme_reset", "reads"));
	EXPECT_EQ(0, model_count("nvme_reset", "errors"));
	/* The controller is back: the whole namespace, byte for byte. */
	memset(got, 0, NVME_SIZE);
	EXPECT_LE(0, nvme_pread(fd, got, NVME_SIZE, 0));
	EXPECT_EQ(0, memcmp(got, want, NVME_SIZE));
	close(fd);
	free(got);
	free(want);
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload nvme_reset"));
}

/* A model fires its device's interrupt, after the access, from a work item. */
TEST_F(models, doorbell_fires_irq)
{
	int irq = msi_irq(RP2, 0);
	long long before;
	char val[32];

	ASSERT_LT(0, irq);
	ASSERT_EQ(0, run_all(val, sizeof(val), "setpci -s %s fc.l", RP2));
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/doorbell_irq.bpf.o %s fc 4", models_dir, RP2));
	before = iohook_irq_count(irq);
	ASSERT_EQ(0, run_all(self->out, sizeof(self->out), "setpci -s %s fc.l=5a5a5a5a", RP2));
	EXPECT_TRUE(WAIT_FOR(model_count("doorbell_irq", "irqs") == 1, 5000));
	EXPECT_EQ(before + 1, iohook_irq_count(irq));
	/* Swallowed: the register holds what it held. */
	EXPECT_EQ(0, run_all(self->out, sizeof(self->out), "setpci -s %s fc.l", RP2));
	EXPECT_STREQ(val, self->out);
	EXPECT_EQ(1, model_count("doorbell_irq", "writes"));
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload doorbell_irq"));
}

/* The models files check a write whole and change nothing on error. */
TEST_F(models, models_file_refuses_bad_writes)
{
	char line[512];

	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s 10 4", models_dir, RP1));
	EXPECT_EQ(-EINVAL, iohook_sysfs_write(OVR(RP2) "/models", "bogus"));
	EXPECT_EQ(-EINVAL, iohook_sysfs_write(OVR(RP2) "/models", "attach passthrough 0"));
	EXPECT_EQ(-ENOENT, iohook_sysfs_write(OVR(RP2) "/models", "attach nosuch 0 4"));
	EXPECT_EQ(-EBUSY, iohook_sysfs_write(OVR(RP2) "/models", "attach passthrough 0 4"));
	EXPECT_EQ(-ENOENT, iohook_sysfs_write(OVR(RP2) "/models", "detach passthrough"));
	EXPECT_EQ(0, iohook_sysfs_write(OVR(RP1) "/models", "detach passthrough"));
	model_line("passthrough", line, sizeof(line));
	EXPECT_STREQ("passthrough unbound", line);
	EXPECT_EQ(-ERANGE, iohook_sysfs_write(OVR(RP1) "/models", "attach passthrough ffe 4"));
	EXPECT_EQ(-EINVAL, iohook_sysfs_write(OVR(RP1) "/models", "attach passthrough 0 0"));
	EXPECT_EQ(-EINVAL, iohook_sysfs_write(OVR(RP1) "/models", "attach passthrough bar7+0 4"));
	EXPECT_EQ(-ERANGE, iohook_sysfs_write(IOHOOK_SYS "/io/models",
					      "attach passthrough fffe 4"));
	model_line("passthrough", line, sizeof(line));
	EXPECT_STREQ("passthrough unbound", line);
	EXPECT_EQ(0, iohook_sysfs_write(OVR(RP1) "/models", "attach passthrough 10 4"));
	EXPECT_EQ(-EBUSY, iohook_sysfs_write(OVR(RP1) "/models", "attach passthrough 10 4"));
	model_line("passthrough", line, sizeof(line));
	EXPECT_NE(NULL, strstr(line, " at=10")) TH_LOG("%s", line);
}

/*
 * A detach op that asks for interrupts, loaded and unloaded in a loop:
 * the kernel refuses requests from attach and detach (attach refuses
 * the binding if one was taken), so nothing fires after the model, or
 * its device reference, is gone. Before the fix, each unload queued an
 * interrupt that ran from freed memory.
 */
TEST_F(models, detach_cannot_fire_irq)
{
	int i, irq = msi_irq(RP1, 0);
	long long before;

	ASSERT_LT(0, irq);
	before = iohook_irq_count(irq);
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, cli(self->out, sizeof(self->out),
				 "model load %s/detach_irq.bpf.o %s fc 4", test_models, RP1))
			TH_LOG("%s", self->out);
		ASSERT_EQ(0, cli(self->out, sizeof(self->out), "model unload detach_irq"));
	}
	/* A bind refused on an occupied range runs neither attach nor detach. */
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s f0 10", models_dir, RP1));
	EXPECT_NE(0, cli(self->out, sizeof(self->out),
			 "model load %s/detach_irq.bpf.o %s fc 4", test_models, RP1));
	model_line("detach_irq", self->out, sizeof(self->out));
	EXPECT_STREQ("", self->out);
	EXPECT_FALSE(path_exists("/sys/fs/bpf/iohook/detach_irq"));
	msleep(500);
	EXPECT_EQ(before, iohook_irq_count(irq));
}

/* Where the clocksource @cs's counter is: a target, location and length. */
static bool clock_counter(const char *cs, char *target, char *loc)
{
	char out[4096], *p;

	if (!strcmp(cs, "acpi_pm")) {
		run_shell(out, sizeof(out), "grep 'ACPI PM_TMR' /proc/ioports");
		snprintf(target, 8, "io");
	} else {
		run_shell(out, sizeof(out), "grep 'HPET' /proc/iomem | head -1");
		snprintf(target, 8, "mem");
	}
	p = out;
	while (*p == ' ')
		p++;
	if (!isxdigit((unsigned char)*p))
		return false;
	/* The HPET's main counter is at 0xf0 of its block. */
	snprintf(loc, 32, "%llx", strtoull(p, NULL, 16) + (strcmp(cs, "hpet") ? 0 : 0xf0));
	return true;
}

#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/"

/*
 * A model on the clocksource's own counter (every clock read in the
 * kernel goes through it) that stamps accesses with its clock: time goes
 * on, and the model sees the reads. Before the fix its clock was
 * bpf_ktime_get_ns(), which reads that counter from inside the model:
 * on acpi_pm the model recursed until the stack overflowed, on hpet it
 * spun forever on read_hpet()'s lock (now refused: clock_ktime below).
 */
TEST_F(models, clock_counter_model_runs)
{
	static const char * const sources[] = { "acpi_pm", "hpet" };
	char avail[256], orig[64], target[8], loc[32];
	struct timespec a, b;
	unsigned int i, tested = 0;

	ASSERT_LT(0, iohook_sysfs_read(CLOCKSOURCE "available_clocksource", avail, sizeof(avail)));
	ASSERT_LT(0, iohook_sysfs_read(CLOCKSOURCE "current_clocksource", orig, sizeof(orig)));
	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		if (!strstr(avail, sources[i]) || !clock_counter(sources[i], target, loc))
			continue;
		ASSERT_EQ(0, iohook_sysfs_write(CLOCKSOURCE "current_clocksource", sources[i]));
		ASSERT_EQ(0, cli(self->out, sizeof(self->out),
				 "model load %s/clock_counter.bpf.o %s %s 4", test_models,
				 target, loc))
			TH_LOG("%s", self->out);
		clock_gettime(CLOCK_MONOTONIC, &a);
		msleep(300);
		clock_gettime(CLOCK_MONOTONIC, &b);
		EXPECT_LE(250, (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000);
		EXPECT_LE(1, model_count("clock_counter", "reads")) TH_LOG("%s", sources[i]);
		EXPECT_EQ(0, model_count("clock_counter", "errors"));
		EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload clock_counter"));
		iohook_sysfs_write(CLOCKSOURCE "current_clocksource", orig);
		tested++;
	}
	EXPECT_LE(1, tested) TH_LOG("neither acpi_pm nor hpet in '%s'", avail);
}

/* Requests for two vectors in one access fire both, not the last one. */
TEST_F(models, vectors_fire_separately)
{
	int irq0 = msi_irq(NIC, 0), irq1 = msi_irq(NIC, 1);
	long long before0, before1;

	ASSERT_LT(0, irq0);
	ASSERT_LT(0, irq1);
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/irq_vectors.bpf.o %s fc 4", test_models, NIC));
	before0 = iohook_irq_count(irq0);
	before1 = iohook_irq_count(irq1);
	ASSERT_EQ(0, run_all(self->out, sizeof(self->out), "setpci -s %s fc.l=3", NIC));
	EXPECT_TRUE(WAIT_FOR(model_count("irq_vectors", "irqs") == 2, 5000))
		TH_LOG("irqs=%lld", model_count("irq_vectors", "irqs"));
	EXPECT_LE(before0 + 1, iohook_irq_count(irq0));
	EXPECT_LE(before1 + 1, iohook_irq_count(irq1));
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload irq_vectors"));
}

/*
 * What cannot run in an accessor's context is refused at load, and
 * nothing registers: a sleepable op, the looping helper, an open-coded
 * iterator, a write to the context, a forged context, a clock helper
 * that reads the clocksource, and (6.9 and later, with kfunc filters)
 * another struct_ops type calling iohook's kfuncs.
 */
TEST_F(models, refuses_what_cannot_run_here)
{
	static const char * const bad[] = { "sleepable", "loop_helper", "iter_loop",
					    "ctx_write", "forged_ctx", "clock_ktime" };
	char avail[512];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_NE(0, cli(self->out, sizeof(self->out), "model load %s/%s.bpf.o %s fc 4",
				 test_models, bad[i], RP1)) TH_LOG("%s loaded", bad[i]);
		EXPECT_TRUE(model_gone(bad[i])) TH_LOG("%s", bad[i]);
		if (!strcmp(bad[i], "loop_helper"))
			EXPECT_NE(NULL, strstr(self->out, "bpf_loop")) TH_LOG("%s", self->out);
		if (!strcmp(bad[i], "clock_ktime"))
			EXPECT_NE(NULL, strstr(self->out, "bpf_ktime_get_ns#"))
				TH_LOG("%s", self->out);
		if (!strcmp(bad[i], "iter_loop") && kernel_at_least(6, 4))
			EXPECT_NE(NULL, strstr(self->out,
					       "kernel function bpf_iter_num_new is not allowed"))
				TH_LOG("%s", self->out);
	}
	EXPECT_NE(0, cli(self->out, sizeof(self->out), "model load %s/tcp_escape.bpf.o",
			 test_models));
	if (kernel_at_least(6, 9))
		EXPECT_NE(NULL, strstr(self->out,
				       "kernel function bpf_iohook_set_value is not allowed"))
			TH_LOG("%s", self->out);
	iohook_sysfs_read("/proc/sys/net/ipv4/tcp_available_congestion_control", avail,
			  sizeof(avail));
	EXPECT_EQ(NULL, strstr(avail, "tcp_escape"));
}

/* Ranges that wrap, or run past the BAR, are refused with ERANGE. */
TEST_F(models, models_file_refuses_wrapping_ranges)
{
	char line[512];

	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o", models_dir));
	EXPECT_EQ(-ERANGE, iohook_sysfs_write(OVR(RP1) "/models",
					      "attach passthrough 10 ffffffffffffffff"));
	EXPECT_EQ(-ERANGE, iohook_sysfs_write(IOHOOK_SYS "/mem/models",
					      "attach passthrough ffffffffffffff00 101"));
	EXPECT_EQ(-ERANGE, iohook_sysfs_write(IOHOOK_SYS "/io/models",
					      "attach passthrough ff00 ffffffffffffffff"));
	/* The NIC's BAR 0 is 128 KiB: one byte past it, from either end. */
	EXPECT_EQ(-ERANGE, iohook_sysfs_write(OVR(NIC) "/models",
					      "attach passthrough bar0+0 20001"));
	EXPECT_EQ(-ERANGE, iohook_sysfs_write(OVR(NIC) "/models",
					      "attach passthrough bar0+1ffff 2"));
	EXPECT_EQ(-ERANGE, iohook_sysfs_write(OVR(NIC) "/models",
					      "attach passthrough bar0+1 ffffffffffffffff"));
	model_line("passthrough", line, sizeof(line));
	EXPECT_STREQ("passthrough unbound", line);
	EXPECT_EQ(0, iohook_sysfs_write(OVR(NIC) "/models", "attach passthrough bar0+1fffc 4"));
	model_line("passthrough", line, sizeof(line));
	EXPECT_NE(NULL, strstr(line, " at=bar0+1fffc")) TH_LOG("%s", line);
}

/*
 * attach and detach written in a loop to a device's models file while
 * the device is removed: once it is gone, its model is unbound (a writer
 * past its checks finds the directory closed), and rescanning brings the
 * device back. Before the fix a late bind held the removed pci_dev.
 */
TEST_F(models, bind_races_device_removal)
{
	char line[512];
	int round, st;
	pid_t pid;

	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o", models_dir));
	for (round = 0; round < 5; round++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			long long end = now_ms() + 3000;

			while (now_ms() < end && path_exists(OVR(NIC) "/models")) {
				iohook_sysfs_write(OVR(NIC) "/models",
						   "attach passthrough bar0+0 20000");
				iohook_sysfs_write(OVR(NIC) "/models", "detach passthrough");
			}
			_exit(0);
		}
		msleep(20 * round);
		ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" NIC "/remove", "1"));
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		model_line("passthrough", line, sizeof(line));
		EXPECT_STREQ("passthrough unbound", line) TH_LOG("round %d", round);
		ASSERT_EQ(0, nic_restore());
	}
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload passthrough"));
}

/*
 * iohook(8) against each libbpf generation: Debian 12's (1.1, where the
 * tool makes the struct_ops link) and this tree's own tools/lib/bpf,
 * linked statically (1.5 in 6.12, where libbpf makes it).
 */
FIXTURE(loader)
{
	char out[16384];
	char ifname[IFNAMSIZ];
};

FIXTURE_VARIANT(loader)
{
	const char *cli;
};

FIXTURE_VARIANT_ADD(loader, system_libbpf)
{
	.cli = "iohook",
};

FIXTURE_VARIANT_ADD(loader, tree_libbpf)
{
	.cli = "iohook-libbpf-tree",
};

#define DECOY	"/sys/fs/bpf/iohook_decoy"

FIXTURE_SETUP(loader)
{
	find_models();
	ASSERT_EQ(0, machine_reset(self->ifname, sizeof(self->ifname)));
	snprintf(cli_path, sizeof(cli_path), "%s/%s", self_dir, variant->cli);
	ASSERT_EQ(0, access(cli_path, X_OK)) TH_LOG("no %s", cli_path);
	unload_all();
}

FIXTURE_TEARDOWN(loader)
{
	unload_all();
	unlink(DECOY);
	find_cli();
}

/* Load, bind, list, unload: the basic cycle, with either libbpf. */
TEST_F(loader, load_bind_list_unload)
{
	char line[512];

	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s 0 100", models_dir, RP1))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "passthrough: loaded"));
	model_line("passthrough", line, sizeof(line));
	EXPECT_NE(NULL, strstr(line, " at=0")) TH_LOG("%s", line);
	EXPECT_LE(1, model_count("passthrough", "reads") +
		  (run_all(self->out, sizeof(self->out), "lspci -xs %s", RP1) ? 0 : 1));
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model list --json"));
	EXPECT_NE(NULL, strstr(self->out, "\"name\": \"passthrough\", \"bound\": true"));
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload passthrough"));
	EXPECT_TRUE(model_gone("passthrough"));
}

/*
 * Held by one link where the kernel has them (removing its pin unloads
 * the model), by the map where it has not (the pins stay until unload).
 */
TEST_F(loader, held_by_one_link)
{
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s 0 100", models_dir, RP1))
		TH_LOG("%s", self->out);
	if (kernel_at_least(6, 4)) {
		ASSERT_TRUE(path_exists("/sys/fs/bpf/iohook/passthrough/link"));
		ASSERT_EQ(0, run_all(self->out, sizeof(self->out),
				     "rm -r /sys/fs/bpf/iohook/passthrough"));
		EXPECT_TRUE(WAIT_FOR(model_gone("passthrough"), 5000));
	} else {
		EXPECT_FALSE(path_exists("/sys/fs/bpf/iohook/passthrough/link"));
		EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload passthrough"));
		EXPECT_TRUE(model_gone("passthrough"));
	}
}

/* A second model of the same name is refused; the first stays as it was. */
TEST_F(loader, duplicate_name_refused)
{
	char line[512];

	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s 0 100", models_dir, RP1));
	EXPECT_NE(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s 200 4", models_dir, RP1));
	EXPECT_NE(NULL, strstr(self->out, "a model of that name is loaded"))
		TH_LOG("%s", self->out);
	model_line("passthrough", line, sizeof(line));
	EXPECT_NE(NULL, strstr(line, " at=0 ")) TH_LOG("%s", line);
	EXPECT_TRUE(path_exists("/sys/fs/bpf/iohook/passthrough"));
	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "model unload passthrough"));
	EXPECT_TRUE(model_gone("passthrough"));
}

/* A load whose bind fails leaves nothing registered, bound or pinned. */
TEST_F(loader, failed_bind_leaves_nothing)
{
	ASSERT_EQ(0, cli(self->out, sizeof(self->out),
			 "model load %s/passthrough.bpf.o %s 0 100", models_dir, RP1));
	EXPECT_NE(0, cli(self->out, sizeof(self->out),
			 "model load %s/trace.bpf.o %s 10 4", models_dir, RP1));
	EXPECT_NE(NULL, strstr(self->out, "cannot bind it")) TH_LOG("%s", self->out);
	model_line("trace", self->out, sizeof(self->out));
	EXPECT_STREQ("", self->out);
	EXPECT_FALSE(path_exists("/sys/fs/bpf/iohook/trace"));
}

/* No name reaches outside /sys/fs/bpf/iohook: ".." is refused everywhere. */
TEST_F(loader, names_stay_in_their_directory)
{
	ASSERT_EQ(0, run_all(self->out, sizeof(self->out),
			     "bpftool map create " DECOY
			     " type array key 4 value 4 entries 1 name decoy"))
		TH_LOG("%s", self->out);
	EXPECT_EQ(2, cli(self->out, sizeof(self->out), "model unload .."));
	EXPECT_EQ(2, cli(self->out, sizeof(self->out), "model trace .. 1"));
	EXPECT_NE(0, cli(self->out, sizeof(self->out),
			 "model load %s/dotdot.bpf.o %s 0 4", test_models, RP1));
	EXPECT_NE(NULL, strstr(self->out, "not registered")) TH_LOG("%s", self->out);
	EXPECT_TRUE(path_exists(DECOY));
	EXPECT_EQ(-EINVAL, iohook_sysfs_write(OVR(RP1) "/models", "attach .. 0 4"));
}

TEST_HARNESS_MAIN

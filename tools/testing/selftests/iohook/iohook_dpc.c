// SPDX-License-Identifier: GPL-2.0
/*
 * iohook_dpc - Downstream Port Containment on a root port that has none.
 *
 * QEMU's pcie-root-port has AER and ACS but no DPC. Each test gives root
 * port 1 (00:1c.0, the e1000e below it) a made-up DPC capability with RP
 * Extensions through /sys/kernel/iohook/caps, has the PCI core enumerate
 * the port again (remove, rescan), and then drives the kernel's own DPC
 * driver through /sys/kernel/iohook/dpc and config writes, checking what
 * the kernel exposes: the capability list and registers as lspci and
 * config space show them, the DPC service's messages, the recovery's
 * uevents, the e1000e's config space and carrier, and the state the
 * device lost. The teardown takes the capability away and enumerates the
 * port again, as it was.
 */
#define _GNU_SOURCE	/* O_DIRECT */
#include <dirent.h>
#include <fcntl.h>
#include <net/if.h>
#include <unistd.h>

#include "iohook_machine.h"
#include "iohook_harness.h"

#define CAPS		IOHOOK_SYS "/caps"
#define DPCF		IOHOOK_SYS "/dpc"
#define DPC_AT		0x180		/* where the caps file puts it on RP1 */
#define DPC_CTL		(DPC_AT + 6)
#define DPC_STS		(DPC_AT + 8)

static void __attribute__((constructor)) need_q35(void)
{
	iohook_gate(true);
}

static long cfg_read(const char *bdf, int off, int width)
{
	char path[128];
	uint32_t v = 0;
	int fd;

	snprintf(path, sizeof(path), PCI_DEVS "/%s/config", bdf);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (pread(fd, &v, width, off) != width)
		v = -1;
	close(fd);
	return width == 4 ? (long)v : (long)(v & ((1U << 8 * width) - 1));
}

static int cfg_write(const char *bdf, int off, int width, uint32_t v)
{
	char path[128];
	int fd, ret;

	snprintf(path, sizeof(path), PCI_DEVS "/%s/config", bdf);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = pwrite(fd, &v, width, off) == width ? 0 : -1;
	close(fd);
	return ret;
}

/* The kernel's log since @mark (a line this test wrote to /dev/kmsg). */
static bool log_has(const char *mark, const char *text)
{
	char out[256];

	run_cmd(out, sizeof(out), "dmesg | sed -n '/%s/,$p' | grep -c -F '%s'",
		mark, text);
	return atoi(out) > 0;
}

/* The line number of @text in the kernel's log since @mark; 0 if none. */
static int log_line(const char *mark, const char *text)
{
	char out[64];

	run_cmd(out, sizeof(out), "dmesg | sed -n '/%s/,$p' | grep -n -F -m1 '%s' | cut -d: -f1",
		mark, text);
	return atoi(out);
}

static void mark(const char *text)
{
	char line[128];

	snprintf(line, sizeof(line), "%s\n", text);
	iohook_sysfs_write("/dev/kmsg", line);
}

/*
 * "KEY=N" from the dpc file's line for @port; -1 if absent. The
 * registers are hex, the counts decimal.
 */
static long long dpc_port_field(const char *port, const char *key)
{
	char buf[1024], pat[48];
	const char *p;

	if (iohook_sysfs_read(DPCF, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, port);
	snprintf(pat, sizeof(pat), " %s=", key);
	p = p ? strstr(p, pat) : NULL;
	if (!p)
		return -1;
	return strtoll(p + strlen(pat), NULL,
		       strstr("control status source", key) ? 16 : 10);
}

static long long dpc_field(const char *key)
{
	return dpc_port_field(RP1, key);
}

/* Remove root port 1 and rescan: enumerated again, capabilities read. */
static int reenumerate(void)
{
	char bus[16] = "";

	iohook_child_bus(RP1, bus, sizeof(bus));
	if (iohook_sysfs_write(PCI_DEVS "/" RP1 "/remove", "1"))
		return -1;
	/* Its slot's directory goes with a (maybe delayed) release. */
	if (bus[0] && !WAIT_FOR(!iohook_slot_on_bus(bus), 10000))
		return -1;
	if (iohook_sysfs_write("/sys/bus/pci/rescan", "1"))
		return -1;
	return WAIT_FOR(path_exists(PCI_DEVS "/" RP1), 10000) ? 0 : -1;
}

/* The e1000e below: config space answers, driver bound, carrier. */
static bool nic_works(const char *ifname)
{
	return cfg_read(NIC, 0, 4) == 0x10d38086 && nic_bound() &&
	       WAIT_FOR(link_carrier(ifname) == 1, 15000);
}

/* Trigger and wait for the NIC's recovery to end; its ERROR_EVENT. */
static const char *trigger_and_wait(const char *line)
{
	static const char *const ok[] = { "ERROR_EVENT=SUCCESSFUL_RECOVERY", NULL };
	static const char *const begin[] = { "ERROR_EVENT=BEGIN_RECOVERY", NULL };
	int fd = iohook_uevent_open(0);
	const char *verdict = "no SUCCESSFUL_RECOVERY";

	if (fd < 0)
		return "no uevent socket";
	if (iohook_sysfs_write(DPCF, line))
		verdict = "refused";
	else if (!uevent_wait(fd, "change", "/" NIC, begin, 10000))
		verdict = "no BEGIN_RECOVERY";
	else if (uevent_wait(fd, "change", "/" NIC, ok, 20000))
		verdict = "recovered";
	close(fd);
	return verdict;
}

/* Write @line to the dpc file; did @dev then send ERROR_EVENT=@event? */
static bool trigger_until(const char *line, const char *dev, const char *event,
			  int ms)
{
	char var[64];
	const char *const vars[] = { var, NULL };
	int fd = iohook_uevent_open(0);
	bool seen;

	snprintf(var, sizeof(var), "ERROR_EVENT=%s", event);
	seen = fd >= 0 && !iohook_sysfs_write(DPCF, line) &&
	       uevent_wait(fd, "change", dev, vars, ms);
	if (fd >= 0)
		close(fd);
	return seen;
}

FIXTURE(dpc)
{
	char ifname[IFNAMSIZ];
};

FIXTURE_SETUP(dpc)
{
	ASSERT_EQ(0, machine_reset(self->ifname, sizeof(self->ifname)));
	ASSERT_EQ(0, iohook_sysfs_write(CAPS, "add " RP1 " dpc rpext"));
	ASSERT_EQ(0, reenumerate());
	ASSERT_EQ(0, nic_restore());
	ASSERT_EQ(0, pci_ifname(NIC, self->ifname, sizeof(self->ifname)));
}

FIXTURE_TEARDOWN(dpc)
{
	/* Whatever a test left contained: release it. */
	if (dpc_field("contained") == 1)
		cfg_write(RP1, DPC_STS, 2, 1);
	iohook_sysfs_write(CAPS, "remove " RP1 " dpc");
	reenumerate();
	nic_restore();
}

/* How many lines of a shell pipeline's output hold @text. */
static int count_lines(const char *cmd, const char *text)
{
	char out[64];

	run_cmd(out, sizeof(out), "%s 2>/dev/null | grep -c -F '%s'", cmd, text);
	return atoi(out);
}

/* The capability list, the registers, and the DPC service that bound. */
TEST_F(dpc, capability_walk_and_service)
{
	const char *lspci = "lspci -s " RP1 " -vvv";
	char caps[256];

	ASSERT_GT(iohook_sysfs_read(CAPS, caps, sizeof(caps)), 0);
	EXPECT_NE(NULL, strstr(caps, RP1 " dpc 180 30 prev=148 state=visible")) TH_LOG("%s", caps);
	EXPECT_EQ(1, count_lines(lspci, "Capabilities: [100 v2] Advanced Error Reporting"));
	EXPECT_EQ(1, count_lines(lspci, "Capabilities: [148 v1] Access Control Services"));
	EXPECT_EQ(1, count_lines(lspci, "Capabilities: [180 v1] Downstream Port Containment"));
	EXPECT_EQ(1, count_lines(lspci, "DpcCtl:	Trigger:1 Cmpl- INT+"));
	/* ACS names DPC next; DPC is the last: next 0. */
	EXPECT_EQ(DPC_AT, (cfg_read(RP1, 0x148, 4) >> 20) & 0xfff);
	EXPECT_EQ(0x0001001d, cfg_read(RP1, DPC_AT, 4));
	/* Capability: SW trigger, RP Extensions, RP PIO log size 4. */
	EXPECT_EQ(0x04a0, cfg_read(RP1, DPC_AT + 4, 2));
	/* The DPC driver's write: trigger on ERR_FATAL, interrupt enabled. */
	EXPECT_EQ(0x0009, cfg_read(RP1, DPC_CTL, 2));
	EXPECT_LE(1, count_lines("dmesg", RP1 ": DPC: enabled with IRQ"));
	EXPECT_LE(1, count_lines("dmesg", "RPExt+ PoisonedTLP- SwTrigger+ RP PIO Log 4"));
	/* Read-only bits stay; the software trigger reads 0. */
	ASSERT_EQ(0, cfg_write(RP1, DPC_AT + 4, 2, 0));
	EXPECT_EQ(0x04a0, cfg_read(RP1, DPC_AT + 4, 2));
	ASSERT_EQ(0, cfg_write(RP1, DPC_STS + 2, 2, 0x1234));	/* Source ID: RO */
	EXPECT_EQ(0, cfg_read(RP1, DPC_STS + 2, 2));
}

/*
 * ERR_FATAL from the e1000e: the driver's error handlers recover it
 * (BEGIN_RECOVERY, then SUCCESSFUL_RECOVERY after its resume), the
 * device lost its state (a link reset: its MSI address, which nothing
 * restores while MSI-X is in use, reads 0 again), and it works.
 */
TEST_F(dpc, fatal_error_recovers_the_nic)
{
	int msi = cap_of(NIC, PCI_CAP_ID_MSI, PCI_CAP_NORMAL);
	char models[2048];

	ASSERT_GT(msi, 0);
	ASSERT_EQ(0, cfg_write(NIC, msi + 4, 4, 0x12345678));
	ASSERT_EQ(0x12345678, cfg_read(NIC, msi + 4, 4));
	mark("iohook_dpc: fatal");
	EXPECT_STREQ("recovered", trigger_and_wait("trigger " RP1 " fatal"));
	/* 6.12 names the source in one line, 6.1 in two. */
	EXPECT_TRUE(log_has("iohook_dpc: fatal", "DPC: containment event, status:0x0005"));
	EXPECT_TRUE(log_has("iohook_dpc: fatal", "ERR_FATAL received from 0000:01:00.0") ||
		    (log_has("iohook_dpc: fatal", "source:0x0100") &&
		     log_has("iohook_dpc: fatal", "DPC: ERR_FATAL detected")));
	EXPECT_TRUE(log_has("iohook_dpc: fatal", "AER: device recovery successful"));
	EXPECT_EQ(0, dpc_field("contained"));
	EXPECT_EQ(0, dpc_field("status"));
	EXPECT_EQ(1, dpc_field("triggers"));
	EXPECT_EQ(1, dpc_field("releases"));
	EXPECT_EQ(0, cfg_read(NIC, msi + 4, 4));
	EXPECT_TRUE(nic_works(self->ifname));
	/* The fences are gone once released. */
	EXPECT_TRUE(WAIT_FOR(iohook_sysfs_read(IOHOOK_SYS "/models", models,
					       sizeof(models)) >= 0 &&
			     !strstr(models, "dpc-cfg@"), 2000));
}

/* Control's software trigger (bit 6), which reads 0. */
TEST_F(dpc, software_trigger_from_control)
{
	int fd = iohook_uevent_open(0);
	static const char *const ok[] = { "ERROR_EVENT=SUCCESSFUL_RECOVERY", NULL };

	ASSERT_GE(fd, 0);
	mark("iohook_dpc: software");
	ASSERT_EQ(0, cfg_write(RP1, DPC_CTL, 2, 0x0049));
	EXPECT_TRUE(uevent_wait(fd, "change", "/" NIC, ok, 20000));
	close(fd);
	EXPECT_EQ(0x0009, cfg_read(RP1, DPC_CTL, 2));
	EXPECT_TRUE(log_has("iohook_dpc: software", "software trigger detected"));
	EXPECT_TRUE(nic_works(self->ifname));
}

/* An RP PIO error: the kernel logs its status and TLP header. */
TEST_F(dpc, rp_pio_error_logged)
{
	mark("iohook_dpc: rp-pio");
	EXPECT_STREQ("recovered", trigger_and_wait("trigger " RP1 " rp-pio"));
	EXPECT_TRUE(log_has("iohook_dpc: rp-pio", "RP PIO error detected"));
	EXPECT_TRUE(log_has("iohook_dpc: rp-pio", "rp_pio_status: 0x00010000"));
	EXPECT_TRUE(log_has("iohook_dpc: rp-pio", "(First)"));
	EXPECT_TRUE(log_has("iohook_dpc: rp-pio", "TLP Header: 0x20000001 0x0100000f"));
	/* The kernel's write-1-to-clear cleared RP PIO Status. */
	EXPECT_EQ(0, cfg_read(RP1, DPC_AT + 0xc, 4));
	EXPECT_TRUE(nic_works(self->ifname));
}

/*
 * With the interrupt disabled nothing tells the kernel: the port stays
 * contained, the link reads down and the e1000e all ones, until software
 * clears Trigger Status.
 */
TEST_F(dpc, interrupt_disabled_no_recovery)
{
	int pcie = cap_of(RP1, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	int fd = iohook_uevent_open(0);
	static const char *const begin[] = { "ERROR_EVENT=BEGIN_RECOVERY", NULL };

	ASSERT_GT(pcie, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, cfg_write(RP1, DPC_CTL, 2, 0x0001));
	ASSERT_EQ(0, iohook_sysfs_write(DPCF, "trigger " RP1 " fatal"));
	EXPECT_FALSE(uevent_wait(fd, "change", "/" NIC, begin, 1500));
	close(fd);
	EXPECT_EQ(1, dpc_field("contained"));
	EXPECT_EQ(0x0005, cfg_read(RP1, DPC_STS, 2));	/* no Interrupt Status */
	EXPECT_EQ(0xffffffff, cfg_read(NIC, 0, 4));
	EXPECT_EQ(0, cfg_read(RP1, pcie + 0x12, 2) & LNKSTA_DLLLA);
	/* Contained already: a second trigger is refused. */
	EXPECT_EQ(-EBUSY, iohook_sysfs_write(DPCF, "trigger " RP1 " fatal"));
	/* Release: the link and the device come back (reset: no BARs). */
	ASSERT_EQ(0, cfg_write(RP1, DPC_STS, 2, 1));
	EXPECT_EQ(0, dpc_field("contained"));
	EXPECT_EQ(LNKSTA_DLLLA, cfg_read(RP1, pcie + 0x12, 2) & LNKSTA_DLLLA);
	EXPECT_EQ(0x10d38086, cfg_read(NIC, 0, 4));
	EXPECT_EQ(0, cfg_read(NIC, 0x10, 4) & ~0xfU);	/* BAR0 reset */
	ASSERT_EQ(0, cfg_write(RP1, DPC_CTL, 2, 0x0009));
	/* Its driver never heard: bring it back by hand. */
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" NIC "/remove", "1"));
	ASSERT_EQ(0, iohook_sysfs_write("/sys/bus/pci/rescan", "1"));
	ASSERT_EQ(0, nic_restore());
}

/* RP Busy held past the kernel's second: its "still busy" path. */
TEST_F(dpc, rp_busy_held)
{
	mark("iohook_dpc: busy");
	EXPECT_TRUE(trigger_until("trigger " RP1 " fatal busy=3000", "/" NIC,
				  "FAILED_RECOVERY", 20000));
	EXPECT_TRUE(log_has("iohook_dpc: busy", "root port still busy"));
	EXPECT_TRUE(log_has("iohook_dpc: busy", "device recovery failed"));
	/* The kernel gave up without releasing: the port is still contained. */
	EXPECT_EQ(1, dpc_field("contained"));
	ASSERT_EQ(0, cfg_write(RP1, DPC_STS, 2, 1));
	EXPECT_EQ(0, dpc_field("contained"));
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" NIC "/remove", "1"));
	ASSERT_EQ(0, iohook_sysfs_write("/sys/bus/pci/rescan", "1"));
	ASSERT_EQ(0, nic_restore());
}

/* Refusals, each with its errno, and nothing changed. */
TEST_F(dpc, refusals)
{
	/* Root port 2 has no DPC, real or made up. */
	EXPECT_EQ(-ENODEV, iohook_sysfs_write(DPCF, "trigger " RP2 " fatal"));
	EXPECT_EQ(-EINVAL, iohook_sysfs_write(DPCF, "trigger " RP1 " bogus"));
	EXPECT_EQ(-EINVAL, iohook_sysfs_write(DPCF, "trigger " RP1));
	/* Non-fatal errors do not trigger when Control asks for fatal only. */
	EXPECT_EQ(-EPERM, iohook_sysfs_write(DPCF, "trigger " RP1 " nonfatal"));
	EXPECT_EQ(-EEXIST, iohook_sysfs_write(CAPS, "add " RP1 " dpc"));
	EXPECT_EQ(-ENODEV, iohook_sysfs_write(CAPS, "add 0000:00:1f.7 dpc"));
	EXPECT_EQ(-ENOENT, iohook_sysfs_write(CAPS, "remove " RP2 " dpc"));
	EXPECT_EQ(0, dpc_field("triggers"));
	EXPECT_EQ(0, dpc_field("contained"));
}

/* iohook(8): a trigger reported per device, and its documented codes. */
TEST_F(dpc, cli_trigger_and_exit_codes)
{
	char out[2048];

	EXPECT_EQ(0, cli(out, sizeof(out), "dpc %s trigger fatal", RP1)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, NIC ": SUCCESSFUL_RECOVERY after "));
	EXPECT_NE(NULL, strstr(out, "verdict: recovered"));
	EXPECT_EQ(1, dpc_field("releases"));
	/* No DPC on root port 2: 6, "not offered". */
	EXPECT_EQ(6, cli(out, sizeof(out), "dpc %s trigger fatal", RP2));
	EXPECT_NE(NULL, strstr(out, "has no DPC")) TH_LOG("%s", out);
	/* Control enables ERR_FATAL only: 6 again, with the reason. */
	EXPECT_EQ(6, cli(out, sizeof(out), "dpc %s trigger nonfatal", RP1));
	EXPECT_NE(NULL, strstr(out, "does not enable")) TH_LOG("%s", out);
	EXPECT_EQ(2, cli(out, sizeof(out), "dpc %s trigger sideways", RP1));
	EXPECT_EQ(7, cli(out, sizeof(out), "dpc %s add", RP1));
	EXPECT_TRUE(nic_works(self->ifname));
}

/*
 * A rebind alone does not see a capability added after enumeration: it
 * stays hidden (state=pending) until the port is removed and rescanned,
 * and a trigger says so (EAGAIN).
 */
TEST_F(dpc, rebind_without_reenumeration)
{
	char caps[256];

	ASSERT_EQ(0, iohook_sysfs_write(CAPS, "remove " RP1 " dpc"));
	ASSERT_EQ(0, reenumerate());
	ASSERT_EQ(0, nic_restore());
	ASSERT_EQ(0, iohook_sysfs_write(CAPS, "add " RP1 " dpc"));
	ASSERT_GT(iohook_sysfs_read(CAPS, caps, sizeof(caps)), 0);
	EXPECT_NE(NULL, strstr(caps, "state=pending"));
	mark("iohook_dpc: rebind");
	ASSERT_EQ(0, iohook_sysfs_write("/sys/bus/pci/drivers/pcieport/unbind", RP1));
	ASSERT_EQ(0, iohook_sysfs_write("/sys/bus/pci/drivers/pcieport/bind", RP1));
	EXPECT_FALSE(log_has("iohook_dpc: rebind", "DPC: enabled"));
	EXPECT_EQ(0, count_lines("lspci -s " RP1 " -vvv", "Downstream Port Containment"));
	EXPECT_EQ(-EAGAIN, iohook_sysfs_write(DPCF, "trigger " RP1 " fatal"));
	ASSERT_EQ(0, reenumerate());
	ASSERT_GT(iohook_sysfs_read(CAPS, caps, sizeof(caps)), 0);
	EXPECT_NE(NULL, strstr(caps, "state=visible"));
	ASSERT_EQ(0, nic_restore());
}

/* Fifty containments in a row, each recovered: no hang, no leak. */
TEST_F_TIMEOUT(dpc, fifty_in_a_row, 900)
{
	int i, recovered = 0;

	for (i = 0; i < 50; i++) {
		const char *v = trigger_and_wait("trigger " RP1 " fatal");

		if (!strcmp(v, "recovered"))
			recovered++;
		else
			TH_LOG("trigger %d: %s", i, v);
		/* The fences of the last release are unbound before the next. */
		WAIT_FOR(dpc_field("contained") == 0, 5000);
	}
	EXPECT_EQ(50, recovered);
	EXPECT_EQ(50, dpc_field("triggers"));
	EXPECT_EQ(50, dpc_field("releases"));
	EXPECT_TRUE(nic_works(self->ifname));
}

/*
 * Below root ports 3 and 4 (vm-run adds them): a second NVMe controller,
 * whose driver has error handlers, and a virtio disk, whose driver has
 * none (the negative control).
 */
#define RP3	"0000:00:1e.0"
#define RP4	"0000:00:1e.1"
#define NVME2	"0000:03:00.0"
#define VBLK	"0000:04:00.0"
#define IMG_SIZE	0x100000	/* 1 MiB, as vm-run makes them */

/* Remove @bdf and rescan, waiting until @then (a function) is back. */
static int reenumerate_dev(const char *bdf, const char *then)
{
	char path[128], bus[16] = "";

	iohook_child_bus(bdf, bus, sizeof(bus));
	snprintf(path, sizeof(path), PCI_DEVS "/%s/remove", bdf);
	if (iohook_sysfs_write(path, "1") ||
	    (bus[0] && !WAIT_FOR(!iohook_slot_on_bus(bus), 10000)) ||
	    iohook_sysfs_write("/sys/bus/pci/rescan", "1"))
		return -1;
	return WAIT_FOR(path_exists(PCI_DEVS "/%s/driver", then), 15000) ? 0 : -1;
}

/* The NVMe namespace below @bdf, read whole, equals the image. */
static bool nvme_matches_image(const char *bdf, const char *image)
{
	char ctrl[16], path[64], *want = malloc(IMG_SIZE), *got = NULL;
	bool same = false;
	int fd = -1, img;

	img = open(image, O_RDONLY);
	if (!want || img < 0 || pread(img, want, IMG_SIZE, 0) != IMG_SIZE)
		goto out;
	if (!WAIT_FOR(nvme_ctrl_of(bdf, ctrl, sizeof(ctrl)) == 0, 10000))
		goto out;
	snprintf(path, sizeof(path), "/dev/%sn1", ctrl);
	if (!WAIT_FOR(path_exists("%s", path), 10000) ||
	    posix_memalign((void **)&got, 4096, IMG_SIZE))
		goto out;
	fd = open(path, O_RDONLY | O_DIRECT);
	same = fd >= 0 && pread(fd, got, IMG_SIZE, 0) == IMG_SIZE &&
	       !memcmp(got, want, IMG_SIZE);
out:
	if (fd >= 0)
		close(fd);
	if (img >= 0)
		close(img);
	free(got);
	free(want);
	return same;
}

FIXTURE(below)
{
	const char *nvme_image;
};

FIXTURE_SETUP(below)
{
	find_cli();
	ASSERT_EQ(0, iohook_sysfs_write(ARMED, "1"));
	self->nvme_image = getenv("IOHOOK_NVME2_IMAGE");
	/* vm-run's machine has them, and says where the NVMe's image is. */
	if (!self->nvme_image)
		SKIP(return, "no second NVMe image (IOHOOK_NVME2_IMAGE, set by vm-run)");
	ASSERT_TRUE(path_exists(PCI_DEVS "/" NVME2 "/driver"));
	ASSERT_TRUE(path_exists(PCI_DEVS "/" VBLK "/driver"));
}

FIXTURE_TEARDOWN(below)
{
	if (iohook_sysfs_write(CAPS, "remove " RP3 " dpc") == 0)
		reenumerate_dev(RP3, NVME2);
	if (iohook_sysfs_write(CAPS, "remove " RP4 " dpc") == 0)
		reenumerate_dev(RP4, VBLK);
	if (iohook_sysfs_write(CAPS, "remove " NVME2 " aer") == 0)
		reenumerate_dev(NVME2, NVME2);
	iohook_sysfs_write(OVR(NVME2) "/remove", "all");
	iohook_sysfs_write(OVR(RP3) "/remove", "all");
}

/* The NVMe's error handlers recover it from containment, data intact. */
TEST_F(below, nvme_recovers_from_containment)
{
	int detected, slot_reset, done;

	ASSERT_EQ(0, iohook_sysfs_write(CAPS, "add " RP3 " dpc"));
	ASSERT_EQ(0, reenumerate_dev(RP3, NVME2));
	EXPECT_EQ(1, count_lines("lspci -s " RP3 " -vvv", "Downstream Port Containment"));
	ASSERT_TRUE(nvme_matches_image(NVME2, self->nvme_image));
	mark("iohook_dpc: nvme");
	EXPECT_TRUE(trigger_until("trigger " RP3 " fatal", "/" NVME2, "SUCCESSFUL_RECOVERY",
				  30000));
	EXPECT_TRUE(log_has("iohook_dpc: nvme", "AER: device recovery successful"));
	/*
	 * The NVMe driver names its handlers as they run: error_detected,
	 * then slot_reset; the recovery ends after its resume.
	 */
	detected = log_line("iohook_dpc: nvme", "frozen state error detected, reset controller");
	slot_reset = log_line("iohook_dpc: nvme", "restart after slot reset");
	done = log_line("iohook_dpc: nvme", "AER: device recovery successful");
	EXPECT_LT(0, detected);
	EXPECT_LT(detected, slot_reset);
	EXPECT_LT(slot_reset, done);
	EXPECT_TRUE(nvme_matches_image(NVME2, self->nvme_image));
}

/*
 * virtio_pci has no error handlers: the kernel says so, reports the
 * recovery failed, and the device, reset by the link's loss, stays
 * reset under its driver (virtio status 0: not even ACKNOWLEDGE).
 */
TEST_F(below, virtio_without_handlers_not_recovered)
{
	char status[16], vdev[64] = "", path[160];
	struct dirent *e;
	DIR *d;

	ASSERT_EQ(0, iohook_sysfs_write(CAPS, "add " RP4 " dpc"));
	ASSERT_EQ(0, reenumerate_dev(RP4, VBLK));
	d = opendir(PCI_DEVS "/" VBLK);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "virtio", 6))
			snprintf(vdev, sizeof(vdev), "%.63s", e->d_name);
	if (d)
		closedir(d);
	ASSERT_NE(0, vdev[0]);
	snprintf(path, sizeof(path), PCI_DEVS "/" VBLK "/%s/status", vdev);
	ASSERT_GT(iohook_sysfs_read(path, status, sizeof(status)), 0);
	EXPECT_STREQ("0x0000000f", status);
	mark("iohook_dpc: virtio");
	EXPECT_TRUE(trigger_until("trigger " RP4 " fatal", "/" VBLK, "FAILED_RECOVERY",
				  30000));
	EXPECT_TRUE(log_has("iohook_dpc: virtio", "recover (no error_detected callback)"));
	EXPECT_TRUE(log_has("iohook_dpc: virtio", "device recovery failed"));
	EXPECT_TRUE(WAIT_FOR(dpc_port_field(RP4, "contained") == 0, 5000));
	ASSERT_GT(iohook_sysfs_read(path, status, sizeof(status)), 0);
	EXPECT_STREQ("0x00000000", status);
}

/*
 * QEMU's nvme has no AER capability: one made up at 0x100 lets
 * iohook aer name it, and the kernel's AER driver reports and recovers
 * a non-fatal error through it.
 */
TEST_F(below, aer_on_nvme_through_added_capability)
{
	long long tot;
	char out[2048];
	FILE *f;

	ASSERT_EQ(0, iohook_sysfs_write(CAPS, "add " NVME2 " aer"));
	ASSERT_EQ(0, reenumerate_dev(NVME2, NVME2));
	EXPECT_EQ(1, count_lines("lspci -s " NVME2 " -vvv",
				 "Capabilities: [100 v1] Advanced Error Reporting"));
	EXPECT_EQ(0x00010001, cfg_read(NVME2, 0x100, 4));
	EXPECT_EQ(0x00462030, cfg_read(NVME2, 0x10c, 4));	/* default severity */
	tot = aer_counter(NVME2, "aer_dev_nonfatal", "TOTAL_ERR_NONFATAL");
	ASSERT_EQ(0, tot);
	f = fopen("/tmp/iohook-dpc-aer.txt", "w");
	/* aer-inject's language: a non-fatal Completion Timeout. */
	ASSERT_NE(NULL, f);
	fputs("AER\nUNCOR_STATUS COMP_TIME\nHEADER_LOG 0 1 2 3\n", f);
	fclose(f);
	EXPECT_EQ(0, cli(out, sizeof(out), "aer -s %s /tmp/iohook-dpc-aer.txt", NVME2))
		TH_LOG("%s", out);
	EXPECT_TRUE(WAIT_FOR(aer_counter(NVME2, "aer_dev_nonfatal",
					 "TOTAL_ERR_NONFATAL") == 1, 10000));
	EXPECT_EQ(1, aer_counter(NVME2, "aer_dev_nonfatal", "CmpltTO"));
	EXPECT_TRUE(nvme_matches_image(NVME2, self->nvme_image));
}

/*
 * iohook recover: a row per device and class. The e1000e (its port
 * given DPC for the run), the NVMe and the virtio disk: their drivers'
 * verdicts, and the probes of their functions afterwards.
 */
/* Does the --json report have this row (and, given @works, that probe)? */
static bool has_row(const char *out, const char *dev, const char *port,
		    const char *driver, const char *cls, const char *handlers,
		    const char *verdict, const char *works)
{
	char row[512];
	const char *p, *q, *end;

	snprintf(row, sizeof(row), "\"device\": \"%s\", \"port\": \"%s\", ",
		 dev, port);
	snprintf(row + strlen(row), sizeof(row) - strlen(row),
		 "\"driver\": \"%s\", \"class\": \"%s\", ", driver, cls);
	snprintf(row + strlen(row), sizeof(row) - strlen(row),
		 "\"handlers\": \"%s\", \"verdict\": \"%s\", ", handlers, verdict);
	p = strstr(out, row);
	if (!p || !works)
		return p;
	end = strchr(p, '}');
	snprintf(row, sizeof(row), "\"works\": \"%s\"", works);
	q = strstr(p, row);
	return q && end && q < end;
}

TEST_F_TIMEOUT(below, recover_report, 600)
{
	static char out[16384];

	ASSERT_EQ(0, nic_restore());
	EXPECT_EQ(0, cli(out, sizeof(out), "--json recover all --errors aer-nonfatal,dpc-fatal"))
		TH_LOG("%s", out);
	EXPECT_TRUE(has_row(out, NIC, RP1, "e1000e", "aer-nonfatal", "yes", "recovered",
			    "yes (carrier, tx)")) TH_LOG("%s", out);
	EXPECT_TRUE(has_row(out, NIC, RP1, "e1000e", "dpc-fatal", "yes", "recovered",
			    "yes (carrier, tx)")) TH_LOG("%s", out);
	EXPECT_TRUE(has_row(out, NVME2, RP3, "nvme", "aer-nonfatal", "?", "n/a (no AER)",
			    NULL)) TH_LOG("%s", out);
	EXPECT_TRUE(has_row(out, NVME2, RP3, "nvme", "dpc-fatal", "yes", "recovered",
			    "yes (read)")) TH_LOG("%s", out);
	/* virtio_pci has no handlers: not recovered, the device left reset. */
	EXPECT_TRUE(has_row(out, VBLK, RP4, "virtio-pci", "dpc-fatal", "no", "not recovered",
			    "no (device reset: virtio status 0)")) TH_LOG("%s", out);
	/* The ports' made-up DPC is gone again. */
	EXPECT_EQ(-1, dpc_port_field(RP3, "triggers"));
	/* The virtio disk is still reset: enumerate it again. */
	EXPECT_EQ(0, reenumerate_dev(VBLK, VBLK));
	EXPECT_EQ(0, nic_restore());
}

TEST_HARNESS_MAIN

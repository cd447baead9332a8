// SPDX-License-Identifier: GPL-2.0
/*
 * iohook_cli - every command and every error message of iohook(8), and
 * its "aer" checked against the kernel's own injector.
 *
 * The CLI runs as a program (the one built next to this test, else the
 * one on PATH); each test asserts on its exit status and message, and on
 * what the kernel exposes afterwards: override directories, slot state,
 * lspci, AER counters, GPE counters, carrier.
 *
 * The "cmp" tests load aer_inject (AER_INJECT_KO names its .ko) and feed
 * the same aer-inject error files to /dev/aer_inject, through a minimal
 * writer of its documented struct, and to "iohook aer": both must give
 * the same AER log lines (the injector's own line left out, and the
 * "(First)" mark that only iohook's First Error Pointer gives), the same
 * counter changes and the same e1000e recovery.
 */
#include <linux/types.h>

#include "iohook_machine.h"
#include "iohook_harness.h"

/* Every test here drives the q35 machine (iohook_q35.h). */
static void __attribute__((constructor)) need_q35(void)
{
	iohook_gate(true);
}

/* A file under /tmp with @text; its path in @path. */
static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The CLI exits with @code and prints exactly @msg (its stdout and stderr). */
#define EXPECT_SAYS(code, msg, ...) do {					\
	EXPECT_EQ(code, cli(self->out, sizeof(self->out), __VA_ARGS__));	\
	EXPECT_STREQ(msg, self->out);						\
} while (0)

FIXTURE(cli)
{
	char out[8192];
	char ifname[IFNAMSIZ];
};

FIXTURE_SETUP(cli)
{
	ASSERT_EQ(0, machine_reset(self->ifname, sizeof(self->ifname)));
}

FIXTURE_TEARDOWN(cli)
{
	clear_all();
	iohook_sysfs_write(ARMED, "1");
	nic_restore();
}

TEST_F(cli, help_and_usage)
{
	static const char *const cmds[] = { "list", "status", "add", "remove", "clear",
		"arm", "disarm", "fire", "trace", "hotplug", "aer", "gpe", "cpu", "memory" };
	unsigned int i;

	EXPECT_EQ(0, cli(self->out, sizeof(self->out), "--help"));
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		EXPECT_EQ(0, cli(self->out, sizeof(self->out), "%s --help", cmds[i]));
		EXPECT_NE(NULL, strstr(self->out, "usage: iohook [OPTIONS] "));
		EXPECT_NE(NULL, strstr(self->out, "8 the driver did not react in time"));
	}
	EXPECT_EQ(2, cli(self->out, sizeof(self->out), ""));
	EXPECT_EQ(2, cli(self->out, sizeof(self->out), "frobnicate"));
	EXPECT_NE(NULL, strstr(self->out, "iohook: unknown command 'frobnicate'"));
	EXPECT_EQ(2, cli(self->out, sizeof(self->out), "-t nope status"));
	EXPECT_EQ(2, cli(self->out, sizeof(self->out), "remove " RP1));
	EXPECT_NE(NULL, strstr(self->out, "usage: iohook remove TARGET NAME|all"));
}

#define JSON_6E "{\"space\": \"pciconf\", \"name\": \"0000:00:1c.0+6e\", " \
	"\"device\": \"0000:00:1c.0\", \"length\": \"0x1\", \"mask\": \"0xff\", " \
	"\"value\": \"0x48\", \"attr\": \"wc\", \"hits\": 0"
#define JSON_EMPTY "{\"armed\": 1, \"io\": 0, \"mem\": 0, \"pciconf\": 0, " \
	"\"keys\": \"pciconf=0 mem=0 io=0\"}\n"

TEST_F(cli, add_list_remove_clear)
{
	char *o = self->out;
	size_t n = sizeof(self->out);

	ASSERT_EQ(0, cli(o, n, "add 00:1c.0 '6e 1 48 ff wc' '70 2 0 ffff ro'"));
	EXPECT_TRUE(path_exists(OVR(RP1) "/0x6e"));
	ASSERT_EQ(0, cli(o, n, "add " NIC " 'bar0+8 4 0 1 ro skip=1 count=2'"));
	ASSERT_EQ(0, cli(o, n, "add io '70 1 0 ff ro'"));

	ASSERT_EQ(0, cli(o, n, "list"));
	EXPECT_NE(NULL, strstr(o, "pciconf 0000:00:1c.0+6e          0000:00:1c.0"));
	EXPECT_NE(NULL, strstr(o, " skip=1 count=2 seen="));	/* the driver reads it */
	EXPECT_NE(NULL, strstr(o, "io      0x70 "));
	ASSERT_EQ(0, cli(o, n, "--json list"));
	EXPECT_NE(NULL, strstr(o, JSON_6E));
	EXPECT_NE(NULL, strstr(o, "\"device\": \"" NIC "\""));	/* the BAR's owner */

	/* The kernel's errors, one line each, with the documented codes. */
	EXPECT_SAYS(7, "iohook: add: File exists\n",
		    "add 00:1c.0 '6e 2 0 ffff ro'");
	EXPECT_SAYS(1, "iohook: add: Invalid argument\n",
		    "add 00:1c.0 '6e 1 100 ff ro'");
	EXPECT_SAYS(5, "iohook: 00:1f.7: no such PCI device\n",
		    "add 00:1f.7 '6e 1 0 ff ro'");
	EXPECT_SAYS(2, "iohook: nowhere: not a space (io, mem, pciconf) or a PCI device\n"
		       "usage: iohook add TARGET ENTRY...\n",
		    "add nowhere '6e 1 0 ff ro'");

	ASSERT_EQ(0, cli(o, n, "remove 00:1c.0 6e"));
	EXPECT_FALSE(path_exists(OVR(RP1) "/0x6e"));
	EXPECT_SAYS(5, "iohook: remove: No such file or directory\n",
		    "remove 00:1c.0 6e");
	ASSERT_EQ(0, cli(o, n, "clear"));
	ASSERT_EQ(0, cli(o, n, "--json status"));
	EXPECT_STREQ(JSON_EMPTY, o);
}

TEST_F(cli, arm_disarm_status)
{
	char *o = self->out;
	size_t n = sizeof(self->out);

	ASSERT_EQ(0, cli(o, n, "add 00:1c.0 '6e 1 48 ff ro'"));
	ASSERT_EQ(0, cli(o, n, "disarm"));
	EXPECT_EQ(0, sysfs_read_num(ARMED));
	ASSERT_EQ(0, cli(o, n, "status"));
	EXPECT_STREQ("armed 0; overrides: io 0, mem 0, pciconf 1; keys pciconf=0 mem=0 io=0\n", o);
	ASSERT_EQ(0, cli(o, n, "arm"));
	ASSERT_EQ(0, cli(o, n, "status"));
	EXPECT_STREQ("armed 1; overrides: io 0, mem 0, pciconf 1; keys pciconf=1 mem=0 io=0\n", o);
	EXPECT_EQ(2, cli(o, n, "arm now"));
}

TEST_F(cli, fire_vectors_and_irqs)
{
	char *o = self->out;
	size_t n = sizeof(self->out);
	int irq = msi_irq(RP1, 0), sci = iohook_sci_irq();
	long long before = iohook_irq_count(irq), sci_before = iohook_irq_count(sci);

	ASSERT_GT(irq, 0);
	ASSERT_EQ(0, cli(o, n, "fire 00:1c.0"));
	EXPECT_TRUE(WAIT_FOR(iohook_irq_count(irq) > before, 2000));
	ASSERT_EQ(0, cli(o, n, "fire irq %d", sci));
	EXPECT_TRUE(WAIT_FOR(iohook_irq_count(sci) > sci_before, 2000));
	EXPECT_SAYS(1, "iohook: fire: Numerical result out of range\n",
		    "fire 00:1c.0 7");
	EXPECT_SAYS(1, "iohook: fire irq: Invalid argument\n",
		    "fire irq 99999");
	EXPECT_EQ(5, cli(o, n, "fire 00:1f.7"));
	EXPECT_EQ(2, cli(o, n, "fire 1c.0"));
}

TEST_F(cli, dry_run_and_verbose)
{
	char *o = self->out;
	size_t n = sizeof(self->out);
	int exp = cap_of(RP2, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	char want[256];

	ASSERT_GT(exp, 0);
	ASSERT_EQ(0, cli(o, n, "-n add 00:1c.0 '6e 1 48 ff wc'"));
	EXPECT_STREQ("would write 6e 1 48 ff wc > " OVR(RP1) "/add\n", o);
	EXPECT_FALSE(path_exists(OVR(RP1) "/0x6e"));
	/* An event: every write it would make, and none made. */
	ASSERT_EQ(0, cli(o, n, "-n hotplug 2 present"));
	snprintf(want, sizeof(want), "would write 0x%x 2 148 16f wc > " OVR(RP2) "/add\n",
		 exp + 0x1a);
	EXPECT_NE(NULL, strstr(o, want));
	EXPECT_NE(NULL, strstr(o, "would write 0 > " PCI_DEVS "/" RP2 "/fire_irq\n"));
	EXPECT_NE(NULL, strstr(o, "slot 2 (" RP2 "): card present (dry run)\n"));
	ASSERT_EQ(0, cli(o, n, "status"));
	EXPECT_NE(NULL, strstr(o, "io 0, mem 0, pciconf 0"));
	EXPECT_EQ(0, sysfs_read_num("/sys/bus/pci/slots/2/adapter"));
	/* -v: the same writes, made. */
	ASSERT_EQ(0, cli(o, n, "-v add 00:1c.0 '6e 1 48 ff wc'"));
	EXPECT_STREQ("write 6e 1 48 ff wc > " OVR(RP1) "/add\n", o);
	EXPECT_TRUE(path_exists(OVR(RP1) "/0x6e"));
}

/* The CLI with neither tracefs nor debugfs to be found. */
#define NO_TRACEFS_MSG \
	"iohook: trace: tracing is not mounted (mount -t tracefs nodev /sys/kernel/tracing)\n"
#define NO_TRACEFS "unshare -m sh -c 'mount -t tmpfs none /sys/kernel/tracing && " \
	"mount -t tmpfs none /sys/kernel/debug && exec \"$0\" \"$@\"'"

TEST_F(cli, trace_streams_and_restores)
{
	const char *en = "/sys/kernel/tracing/events/iohook/iohook_read/enable";
	char *o = self->out, cmd[512];
	FILE *f;
	size_t got = 0;

	ASSERT_EQ(0, iohook_sysfs_write(en, "0"));
	ASSERT_EQ(0, cli(o, sizeof(self->out), "add 00:1c.0 '6e 1 48 ff ro'"));
	snprintf(cmd, sizeof(cmd), "%s trace 3 2>&1", cli_path);
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	msleep(800);
	EXPECT_EQ(0, system("setpci -s 00:1c.0 0x6e.b >/dev/null"));
	while (got + 1 < sizeof(self->out) && fgets(o + got, sizeof(self->out) - got, f))
		got += strlen(o + got);
	EXPECT_EQ(0, pclose(f));
	EXPECT_NE(NULL, strstr(o, "iohook_read: pciconf addr=0xe006e width=1 hw="));
	EXPECT_NE(NULL, strstr(o, "val=0x48 overrides=1"));
	EXPECT_EQ(0, sysfs_read_num(en));	/* put back as found */
	ASSERT_EQ(0, iohook_sysfs_write(en, "1"));
	EXPECT_EQ(0, cli(o, sizeof(self->out), "trace 1"));
	EXPECT_EQ(1, sysfs_read_num(en));
	iohook_sysfs_write(en, "0");
	EXPECT_EQ(5, cli_as(NO_TRACEFS, o, sizeof(self->out), "trace 1"));
	EXPECT_STREQ(NO_TRACEFS_MSG, o);
}

/* Slot 2 is empty: a card appears, then goes by surprise. */
TEST_F(cli, hotplug_present_then_surprise_removal)
{
	char *o = self->out;
	size_t n = sizeof(self->out);

	ASSERT_EQ(0, sysfs_read_num("/sys/bus/pci/slots/2/adapter"));
	ASSERT_EQ(0, cli(o, n, "hotplug 2 present"));
	EXPECT_NE(NULL, strstr(o, "slot 2 (" RP2 "): card present; the driver handled it in "));
	EXPECT_EQ(1, sysfs_read_num("/sys/bus/pci/slots/2/adapter"));
	msleep(1500);	/* pciehp tries the link, finds none */
	ASSERT_EQ(0, cli(o, n, "hotplug " RP2 " surprise-removal"));
	EXPECT_NE(NULL, strstr(o, "card removed by surprise; the driver handled it in "));
	EXPECT_EQ(0, sysfs_read_num("/sys/bus/pci/slots/2/adapter"));
	msleep(1000);
	ASSERT_EQ(0, cli(o, n, "clear"));
	EXPECT_EQ(0, sysfs_read_num("/sys/bus/pci/slots/2/adapter"));
}

/* Slot 1 holds the e1000e: pull it by surprise, then put it back. */
TEST_F(cli, hotplug_surprise_removal_and_back)
{
	char *o = self->out;
	size_t n = sizeof(self->out);

	ASSERT_EQ(0, cli(o, n, "hotplug 1 surprise-removal"));
	EXPECT_TRUE(WAIT_FOR(!path_exists(PCI_DEVS "/" NIC), 15000));
	EXPECT_FALSE(in_lspci("01:00.0"));
	/* The state stays: the card's config space reads all-ones. */
	EXPECT_TRUE(path_exists(IOHOOK_SYS "/pciconf/" NIC "+0"));
	EXPECT_EQ(0, sysfs_read_num("/sys/bus/pci/slots/1/adapter"));
	msleep(1000);
	ASSERT_EQ(0, cli(o, n, "hotplug 1 present"));
	EXPECT_FALSE(path_exists(IOHOOK_SYS "/pciconf/" NIC "+0"));
	EXPECT_TRUE(WAIT_FOR(nic_bound(), 15000));
	EXPECT_TRUE(in_lspci("01:00.0"));
	EXPECT_EQ(1, sysfs_read_num("/sys/bus/pci/slots/1/power"));
}

/* The attention button powers the slot off, and a second press on. */
TEST_F(cli, hotplug_button_twice)
{
	char *o = self->out;
	size_t n = sizeof(self->out);

	ASSERT_EQ(0, cli(o, n, "-v hotplug 1 button"));
	EXPECT_NE(NULL, strstr(o, "write 0 > " PCI_DEVS "/" RP1 "/fire_irq\n"));
	EXPECT_NE(NULL, strstr(o, "attention button pressed; the driver handled it in "));
	EXPECT_TRUE(WAIT_FOR(!in_lspci("01:00.0"), 12000));
	EXPECT_TRUE(WAIT_FOR(sysfs_read_num("/sys/bus/pci/slots/1/power") == 0, 5000));
	ASSERT_EQ(0, cli(o, n, "hotplug 1 button"));
	EXPECT_TRUE(WAIT_FOR(nic_bound(), 15000));
	EXPECT_EQ(1, sysfs_read_num("/sys/bus/pci/slots/1/power"));
}

TEST_F(cli, hotplug_link_down_up_and_power_fault)
{
	char *o = self->out;
	size_t n = sizeof(self->out);

	ASSERT_EQ(0, cli(o, n, "hotplug 1 link-down"));
	EXPECT_NE(NULL, strstr(o, "link down; the driver handled it in "));
	EXPECT_TRUE(WAIT_FOR(!path_exists(PCI_DEVS "/" NIC), 15000));
	msleep(1000);
	ASSERT_EQ(0, cli(o, n, "hotplug 1 link-up"));
	EXPECT_TRUE(WAIT_FOR(nic_bound(), 15000));
	ASSERT_EQ(0, cli(o, n, "hotplug 1 power-fault"));
	EXPECT_NE(NULL, strstr(o, "power fault; the driver handled it in "));
}

TEST_F(cli, hotplug_refusals_and_undo)
{
	char *o = self->out;
	size_t n = sizeof(self->out);
	int exp = cap_of(RP1, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	char entry[64];

	ASSERT_GT(exp, 0);
	/* QEMU's slots have no MRL sensor. */
	EXPECT_EQ(6, cli(o, n, "hotplug 1 mrl-open"));
	EXPECT_NE(NULL, strstr(o, "iohook: hotplug: slot of " RP1 " does not offer mrl-open ("));
	EXPECT_FALSE(path_exists(OVR(RP1) "/0x%x", exp + 0x1a));
	/* Forced: latched, and not signalled, as pciehp leaves MRLSCE off. */
	EXPECT_EQ(0, cli(o, n, "-f hotplug 1 mrl-open"));
	EXPECT_NE(NULL, strstr(o, "MRL opened; latched, not signalled"));
	EXPECT_EQ(0x24, sysfs_read_num(OVR(RP1) "/0x%x/value", exp + 0x1a) & 0x24);
	ASSERT_EQ(0, cli(o, n, "clear"));

	EXPECT_SAYS(2, "iohook: hotplug: unknown action 'wiggle' (see iohook hotplug --help)\n"
		       "usage: iohook hotplug SLOT|PORT ACTION\n",
		    "hotplug 1 wiggle");
	EXPECT_SAYS(5, "iohook: hotplug: no such slot or port: 9\n",
		    "hotplug 9 button");
	EXPECT_SAYS(6, "iohook: hotplug: 0000:00:1f.0 has no PCI Express slot\n",
		    "hotplug 00:1f.0 button");

	/* Someone else's override on Slot Status: refused, nothing left. */
	snprintf(entry, sizeof(entry), "%x 1 8 8 ro", exp + 0x1a);
	ASSERT_EQ(0, iohook_sysfs_write(OVR(RP1) "/add", entry));
	EXPECT_EQ(7, cli(o, n, "hotplug 1 button"));
	EXPECT_NE(NULL, strstr(o, "an override is already in the way"));
	EXPECT_FALSE(path_exists(OVR(RP1) "/0x%x", exp + 0x19));	/* power: undone */
	EXPECT_TRUE(path_exists(OVR(RP1) "/0x%x", exp + 0x1a));	/* theirs: kept */
	EXPECT_TRUE(nic_bound());
}

TEST_F(cli, gpe_delivery_errors_and_timeout)
{
	char *o = self->out, path[64], state[64];
	size_t n = sizeof(self->out);
	long long before = sysfs_read_num("/sys/firmware/acpi/interrupts/gpe02");
	int off = -1, g;

	ASSERT_GE(before, 0);
	ASSERT_EQ(0, cli(o, n, "gpe 2"));
	EXPECT_NE(NULL, strstr(o, "gpe 2: status bit 2 of I/O port "));
	EXPECT_NE(NULL, strstr(o, "ACPI handled it in "));
	EXPECT_EQ(before + 1, sysfs_read_num("/sys/firmware/acpi/interrupts/gpe02"));
	ASSERT_EQ(0, cli(o, n, "status"));
	EXPECT_NE(NULL, strstr(o, "io 0, mem 0, pciconf 0"));

	EXPECT_SAYS(2, "iohook: gpe: '300' is not a GPE number (0-255)\n"
		       "usage: iohook gpe N\n",
		    "gpe 300");
	EXPECT_SAYS(5, "iohook: gpe: GPE 250 is in no GPE block of this machine\n",
		    "gpe 250");

	/* A GPE not enabled: refused; forced, ACPICA ignores it: timeout. */
	for (g = 0; g < 64 && off < 0; g++) {
		snprintf(path, sizeof(path), "/sys/firmware/acpi/interrupts/gpe%02X", g);
		if (iohook_sysfs_read(path, state, sizeof(state)) > 0 && !strstr(state, " enabled"))
			off = g;
	}
	ASSERT_GE(off, 0);
	EXPECT_EQ(6, cli(o, n, "gpe %d", off));
	EXPECT_NE(NULL, strstr(o, "is not enabled"));
	EXPECT_EQ(8, cli(o, n, "-f -t 700 gpe %d", off));
	snprintf(path, sizeof(path), "iohook: gpe: the driver did not react in 700 ms (GPE %d",
		 off);
	EXPECT_NE(NULL, strstr(o, path));
	ASSERT_EQ(0, cli(o, n, "status"));
	EXPECT_NE(NULL, strstr(o, "io 0, mem 0, pciconf 0"));	/* undone */
}

#define DONE "aer 0000:01:00.0: correctable BAD_TLP, reported by " RP1 "; the driver handled it in "

TEST_F(cli, aer_files_and_their_errors)
{
	char *o = self->out;
	size_t n = sizeof(self->out);
	long long cor = aer_counter(NIC, "aer_dev_correctable", "TOTAL_ERR_COR");
	long long bad = aer_counter(NIC, "aer_dev_correctable", "BadTLP");

	put_file("/tmp/aer-cor", "# correctable\naer\nid 01:00.0 cor_status bad_tlp\n");
	ASSERT_EQ(0, cli(o, n, "aer /tmp/aer-cor"));
	EXPECT_EQ(0, strncmp(o, DONE, strlen(DONE))) TH_LOG("%s", o);
	EXPECT_EQ(cor + 1, aer_counter(NIC, "aer_dev_correctable", "TOTAL_ERR_COR"));
	EXPECT_EQ(bad + 1, aer_counter(NIC, "aer_dev_correctable", "BadTLP"));
	ASSERT_EQ(0, cli(o, n, "status"));
	EXPECT_NE(NULL, strstr(o, "io 0, mem 0, pciconf 0"));	/* no state left */

	put_file("/tmp/aer-bad", "AER\nCOR_STATUS BAD_TLP\n  HL 1 2 x3 4\n");
	EXPECT_SAYS(9, "/tmp/aer-bad:3:10: expected a number after HEADER_LOG\n",
		    "aer -s 01:00.0 /tmp/aer-bad");
	put_file("/tmp/aer-bad", "AER\nCOR COMP_TIME\n");
	EXPECT_SAYS(9, "/tmp/aer-bad:2:5: COMP_TIME is not a correctable error\n",
		    "aer -s 01:00.0 /tmp/aer-bad");
	put_file("/tmp/aer-bad", "COR RCVR\n");
	EXPECT_SAYS(9, "/tmp/aer-bad:1:1: expected AER to start an error\n",
		    "aer -s 01:00.0 /tmp/aer-bad");
	put_file("/tmp/aer-bad", "AER COR RCVR\nAER FROB 1\n");
	EXPECT_SAYS(9, "/tmp/aer-bad:2:5: unknown keyword 'FROB'\n",
		    "aer -s 01:00.0 /tmp/aer-bad");
	put_file("/tmp/aer-bad", "AER COR RCVR\n");
	EXPECT_SAYS(9, "/tmp/aer-bad:1: this error names no device (PCI_ID, or -s)\n",
		    "aer /tmp/aer-bad");
	EXPECT_SAYS(5, "iohook: aer: no such PCI device: 0000:0f:00.0\n",
		    "aer -s 0f:00.0 /tmp/aer-bad");
	EXPECT_SAYS(6, "iohook: aer: 0000:00:1f.0 has no AER capability\n",
		    "aer -s 00:1f.0 /tmp/aer-bad");
	EXPECT_EQ(1, cli(o, n, "aer /tmp/no-such-file"));	/* a file, not a device */
	EXPECT_STREQ("iohook: /tmp/no-such-file: No such file or directory\n", o);
	put_file("/tmp/aer-bad", "# nothing but a comment\n");
	EXPECT_SAYS(0, "aer: no error in /tmp/aer-bad\n",
		    "aer /tmp/aer-bad");
	put_file("/tmp/aer-bad", "AER ID 01:00.0 HL 1 2 3 4\n");
	EXPECT_SAYS(9, "iohook: aer: line 1: no error bits for 0000:01:00.0\n",
		    "aer /tmp/aer-bad");

	/* What the hardware would not report: refused, nothing left. */
	ASSERT_EQ(0, cli(o, n, "add " NIC " '%x 4 40 40 ro'",
			 cap_of(NIC, PCI_EXT_CAP_ID_AER, PCI_CAP_EXTENDED) + PCI_ERR_COR_MASK));
	EXPECT_EQ(6, cli(o, n, "aer /tmp/aer-cor"));
	EXPECT_NE(NULL, strstr(o, "iohook: aer: 0000:01:00.0 masks these errors (Error Mask"));
	ASSERT_EQ(0, cli(o, n, "clear"));
	ASSERT_EQ(0, cli(o, n, "add " RP1 " '%x 4 0 7 ro'",
			 cap_of(RP1, PCI_EXT_CAP_ID_AER, PCI_CAP_EXTENDED) + PCI_ERR_ROOT_COMMAND));
	EXPECT_EQ(6, cli(o, n, "aer /tmp/aer-cor"));
	EXPECT_NE(NULL, strstr(o, "iohook: aer: " RP1 " does not report these errors (Root Error"));
	ASSERT_EQ(0, cli(o, n, "clear"));
	EXPECT_EQ(cor + 1, aer_counter(NIC, "aer_dev_correctable", "TOTAL_ERR_COR"));
}

/*
 * Whether the e1000e's recovery had begun and ended, by the uevents
 * queued on @fd (pci_uevent_ers()), which it drains without waiting.
 */
static bool recovery_over(int fd)
{
	bool began = false, ended = false;
	char buf[8192];
	ssize_t len;

	while ((len = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT)) > 0) {
		buf[len] = 0;
		if (strncmp(buf, "change@", 7) || !strstr(buf, "/" NIC))
			continue;
		if (iohook_uevent_has(buf, len, "ERROR_EVENT=BEGIN_RECOVERY"))
			began = true;
		if (began && iohook_uevent_has(buf, len, "ERROR_EVENT=SUCCESSFUL_RECOVERY"))
			ended = true;
	}
	return ended;
}

/*
 * An uncorrectable error: "aer" returns once the e1000e's recovery has
 * ended (its SUCCESSFUL_RECOVERY uevent already queued then), and a
 * correctable error after it in the same file is not lost: the e1000e's
 * slot_reset clears every AER status bit mid-recovery.
 */
TEST_F(cli, aer_waits_for_the_recovery)
{
	long long ct = aer_counter(NIC, "aer_dev_nonfatal", "CmpltTO");
	long long bad = aer_counter(NIC, "aer_dev_correctable", "BadTLP");
	char *o = self->out;
	size_t n = sizeof(self->out);
	int fd = iohook_uevent_open(0);

	ASSERT_LE(0, fd);
	put_file("/tmp/aer-nf", "AER ID 01:00.0 UNCOR COMP_TIME\n");
	ASSERT_EQ(0, cli(o, n, "aer /tmp/aer-nf")) TH_LOG("%s", o);
	EXPECT_TRUE(recovery_over(fd));
	EXPECT_EQ(ct + 1, aer_counter(NIC, "aer_dev_nonfatal", "CmpltTO"));

	put_file("/tmp/aer-nf", "AER ID 01:00.0 UNCOR COMP_TIME\nAER ID 01:00.0 COR BAD_TLP\n");
	ASSERT_EQ(0, cli(o, n, "aer /tmp/aer-nf")) TH_LOG("%s", o);
	EXPECT_TRUE(recovery_over(fd));
	close(fd);
	EXPECT_EQ(ct + 2, aer_counter(NIC, "aer_dev_nonfatal", "CmpltTO"));
	EXPECT_EQ(bad + 1, aer_counter(NIC, "aer_dev_correctable", "BadTLP"));
	ASSERT_EQ(0, cli(o, n, "status"));
	EXPECT_NE(NULL, strstr(o, "io 0, mem 0, pciconf 0"));	/* no state left */
}

/* The CLI where /sys/devices/system/memory is an empty tmpfs. */
#define NO_MEMHP "unshare -m sh -c 'mount -t tmpfs none /sys/devices/system/memory && " \
	"exec \"$0\" \"$@\"'"
/* The CLI in a mount namespace where /sys/kernel is an empty tmpfs. */
#define NO_IOHOOK_MSG \
	"iohook: no iohook in this kernel (/sys/kernel/iohook missing; CONFIG_IOHOOK=y)\n"
#define NO_IOHOOK "unshare -m sh -c 'mount -t tmpfs none /sys/kernel && exec \"$0\" \"$@\"'"

TEST_F(cli, errors_without_iohook_or_privilege)
{
	char *o = self->out;
	size_t n = sizeof(self->out);

	/* Not root: every change refused, reading allowed. */
	EXPECT_EQ(4, cli_as("setpriv --reuid=65534 --regid=65534 --clear-groups", o, n,
			    "clear"));
	EXPECT_STREQ("iohook: not privileged: iohook needs root (CAP_SYS_ADMIN)\n", o);
	EXPECT_EQ(0, cli_as("setpriv --reuid=65534 --regid=65534 --clear-groups", o, n,
			    "status"));
	/* A kernel without iohook: no /sys/kernel/iohook. */
	EXPECT_EQ(3, cli_as(NO_IOHOOK, o, n, "status"));
	EXPECT_STREQ(NO_IOHOOK_MSG, o);
}

/* The ACPI hotplug commands' refusals; their events are in iohook_events. */
TEST_F(cli, acpi_hotplug_errors)
{
	char *o = self->out;
	size_t n = sizeof(self->out);

	EXPECT_SAYS(2, "iohook: cpu: 'x' is not a CPU slot (1-255)\n"
		       "usage: iohook cpu SLOT add|remove\n",
		    "cpu x add");
	EXPECT_EQ(2, cli(o, n, "cpu 2 frob"));
	EXPECT_SAYS(7, "iohook: cpu: slot 1 is present, as cpu1 (-f forces)\n",
		    "cpu 1 add");
	EXPECT_SAYS(7, "iohook: cpu: slot 3 is not present (-f forces)\n",
		    "cpu 3 remove");
	EXPECT_SAYS(2, "iohook: memory: 'x' is not a slot number\n"
		       "usage: iohook memory SLOT add [BASE SIZE] | SLOT remove\n",
		    "memory x add");
	EXPECT_SAYS(5, "iohook: memory: slot 0 holds no emulated DIMM\n",
		    "memory 0 remove");
	EXPECT_EQ(2, cli(o, n, "memory 1 add 0x140000001 0x10000000"));
	EXPECT_NE(NULL, strstr(o, "BASE and SIZE must be multiples of the block size 8000000"));
	/* The range already holds memory: the boot RAM at 0. */
	EXPECT_SAYS(7, "iohook: memory: 0-7ffffff already has memory blocks\n",
		    "memory 1 add 0 0x8000000");
	EXPECT_SAYS(2, "iohook: ioh: 'x' is not an IOH number (1-2)\n"
		       "usage: iohook ioh N add|remove\n",
		    "ioh x add");
	EXPECT_SAYS(5, "iohook: ioh: the firmware declares no IOH 2 (\\_SB.IOH2; "
		       "see scripts/firmware/q35-ioh-ssdt.asl)\n",
		    "ioh 2 add");
	EXPECT_SAYS(7, "iohook: ioh: IOH 1 is not present (-f forces)\n", "ioh 1 remove");
	EXPECT_EQ(6, cli_as(NO_MEMHP, o, n, "memory 1 add"));
	EXPECT_STREQ("iohook: memory: no memory hotplug in this kernel (CONFIG_MEMORY_HOTPLUG)\n",
		     o);
	ASSERT_EQ(0, cli(o, n, "status"));
	EXPECT_NE(NULL, strstr(o, "io 0, mem 0, pciconf 0"));
}

/* --- the same error files through the kernel's aer_inject --------------- */

struct aer_error_inj {		/* drivers/pci/pcie/aer_inject.c */
	__u8 bus, dev, fn;
	__u32 uncor_status, cor_status;
	__u32 header_log0, header_log1, header_log2, header_log3;
	__u32 domain;
};

struct aer_case {
	const char *name, *file;
	int n;
	struct aer_error_inj err[5];
};

static const struct aer_case cases[] = {
	{ "correctable", "AER\nPCI_ID 0000:01:00.0\nCOR_STATUS BAD_TLP\nHEADER_LOG 0 1 2 3\n",
	  1, { { 1, 0, 0, 0, 0x40, 0, 1, 2, 3, 0 } } },
	{ "nonfatal", "AER\nPCI_ID 01:00.0\nUNCOR_STATUS COMP_TIME\nHEADER_LOG 0 1 2 3\n",
	  1, { { 1, 0, 0, 0x4000, 0, 0, 1, 2, 3, 0 } } },
	{ "fatal", "aer BUS 1 DEV 0 FN 0 uncorrectable MALF_TLP hl 4 5 6 7\n",
	  1, { { 1, 0, 0, 0x40000, 0, 4, 5, 6, 7, 0 } } },
	{ "mixed-corr-nonfatal",
	  "AER\nID 01:00.0\nCOR_STATUS BAD_TLP\nUNCOR_STATUS COMP_ABORT\nHEADER_LOG 0 1 2 3\n",
	  1, { { 1, 0, 0, 0x8000, 0x40, 0, 1, 2, 3, 0 } } },
	{ "several-in-one-file",
	  "AER ID 01:00.0 COR RCVR\nAER ID 01:00.0 UNCOR UNSUP HL 0x40000001 2 3 4\n"
	  "AER ID 01:00.0 CORRECTABLE REP_ROLL REP_TIMER\n",
	  3, { { 1, 0, 0, 0, 0x1, 0, 0, 0, 0, 0 },
	       { 1, 0, 0, 0x100000, 0, 0x40000001, 2, 3, 4, 0 },
	       { 1, 0, 0, 0, 0x1100, 0, 0, 0, 0, 0 } } },
	{ "syntax-variations",	/* aer-inject's example, the id from -s */
	  "# Variations in syntax\naer\n# pci_id [WWWW:]XX.YY.Z\ncor_status rcvr\n"
	  "header_log 0 1 2 3\n#\nAER\nCOR BAD_TLP\nHL 4 5 6 7\n"
	  "AER\nCOR_STATUS BAD_DLLP REP_ROLL\nHEADER_LOG 010 0x9 0xa 0xB\n"
	  "AER\nCOR_STATUS REP_TIMER\nAER COR_STATUS 0x2 HEADER_LOG 0 1 2 3\n",
	  5, { { 1, 0, 0, 0, 0x1, 0, 1, 2, 3, 0 },
	       { 1, 0, 0, 0, 0x40, 4, 5, 6, 7, 0 },
	       { 1, 0, 0, 0, 0x180, 8, 9, 10, 11, 0 },
	       { 1, 0, 0, 0, 0x1000, 0, 0, 0, 0, 0 },
	       { 1, 0, 0, 0, 0x2, 0, 1, 2, 3, 0 } } },
};

/*
 * The counters by name: a file grows a line ("dev_cor_errs_bit[1]") the
 * first time a bit without a name is counted.
 */
struct aer_snap {
	int n;
	char name[96][48];
	long long v[96];
	long long rp[3];
};

static void snap(struct aer_snap *s)
{
	static const char *const files[] = { "aer_dev_correctable", "aer_dev_nonfatal",
		"aer_dev_fatal" };
	static const char *const rp[] = { "aer_rootport_total_err_cor",
		"aer_rootport_total_err_nonfatal", "aer_rootport_total_err_fatal" };
	char path[128], line[128];
	int i;
	FILE *f;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), PCI_DEVS "/" NIC "/%s", files[i]);
		f = fopen(path, "r");
		while (f && s->n < 96 && fgets(line, sizeof(line), f)) {
			char *sp = strrchr(line, ' ');

			if (!sp)
				continue;
			s->v[s->n] = atoll(sp + 1);
			snprintf(s->name[s->n++], sizeof(s->name[0]), "%s:%.*s", files[i],
				 (int)(sp - line), line);
		}
		if (f)
			fclose(f);
		s->rp[i] = sysfs_read_num(PCI_DEVS "/" RP1 "/%s", rp[i]);
	}
}

static long long counter(const struct aer_snap *s, const char *name)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return s->v[i];
	return 0;
}

static long long rp_messages(void)
{
	struct aer_snap s;

	snap(&s);
	return s.rp[0] + s.rp[1] + s.rp[2];
}

/* The AER lines the kernel logged after @mark, normalised. */
static void aer_log(const char *mark, char *out, size_t len)
{
	char cmd[256];
	size_t n = 0;
	char line[512];
	bool after = false;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "dmesg");
	f = popen(cmd, "r");
	out[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *s = strchr(line, ']'), *first;

		s = s ? s + 2 : line;
		if (strstr(s, mark)) {
			after = true;
			continue;
		}
		if (!after || strstr(s, "aer_inject:") ||
		    !(strstr(s, "AER") || strstr(s, "PCIe Bus Error") ||
		      strstr(s, "error status") || strstr(s, "    [")))
			continue;
		first = strstr(s, " (First)");
		if (first)
			memmove(first, first + 8, strlen(first + 8) + 1);
		n += snprintf(out + n, n < len ? len - n : 0, "%s", s);
	}
	if (f)
		pclose(f);
}

static void log_mark(const char *s)
{
	iohook_sysfs_write("/dev/kmsg", s);
}

/*
 * Through /dev/aer_inject, each error handled before the next: its
 * messages counted and, for an uncorrectable one, the e1000e's recovery
 * over (its SUCCESSFUL_RECOVERY uevent, pci_uevent_ers()). The recovery
 * clears the device's AER status (the e1000e's slot_reset restores its
 * state), and the AER driver reads the status for the next message only
 * after it: an error injected during a recovery is lost. "iohook aer"
 * waits for the same uevents.
 */
static int inject_kernel(const struct aer_case *c)
{
	static const char *const recovered[] = { "ERROR_EVENT=SUCCESSFUL_RECOVERY", NULL };
	int i, fd, ev = iohook_uevent_open(0);

	if (ev < 0)
		return -1;
	for (i = 0; i < c->n; i++) {
		long long msgs = rp_messages();
		int kinds = !!c->err[i].cor_status + !!c->err[i].uncor_status;

		fd = open("/dev/aer_inject", O_WRONLY);
		if (fd < 0)
			break;
		if (write(fd, &c->err[i], sizeof(c->err[i])) != sizeof(c->err[i])) {
			close(fd);
			break;
		}
		close(fd);
		if (!WAIT_FOR(rp_messages() >= msgs + kinds, 10000))
			break;
		if (c->err[i].uncor_status &&
		    !uevent_wait(ev, "change", "/" NIC, recovered, 20000))
			break;
		msleep(300);
	}
	close(ev);
	return i == c->n ? 0 : -1;
}

FIXTURE(cmp)
{
	char ifname[IFNAMSIZ];
};

FIXTURE_SETUP(cmp)
{
	const char *ko = getenv("AER_INJECT_KO");
	char cmd[512];

	ASSERT_EQ(0, machine_reset(self->ifname, sizeof(self->ifname)));
	/* Without either, the test skips: not here, 6.1's harness would run it. */
	if (!path_exists("/dev/aer_inject") && ko) {
		snprintf(cmd, sizeof(cmd), "insmod %s", ko);
		ASSERT_EQ(0, system(cmd));
		ASSERT_TRUE(path_exists("/dev/aer_inject"));
	}
}

FIXTURE_TEARDOWN(cmp)
{
	clear_all();
	nic_restore();
	/* Give the buses their own config ops back. */
	if (getenv("AER_INJECT_KO") && system("rmmod aer_inject"))
		TH_LOG("rmmod aer_inject failed");
}

FIXTURE_VARIANT(cmp)
{
	int index;
};

FIXTURE_VARIANT_ADD(cmp, correctable) { .index = 0 };
FIXTURE_VARIANT_ADD(cmp, nonfatal) { .index = 1 };
FIXTURE_VARIANT_ADD(cmp, fatal) { .index = 2 };
FIXTURE_VARIANT_ADD(cmp, mixed) { .index = 3 };
FIXTURE_VARIANT_ADD(cmp, several) { .index = 4 };
FIXTURE_VARIANT_ADD(cmp, syntax) { .index = 5 };

TEST_F_TIMEOUT(cmp, same_as_aer_inject, 120)
{
	const struct aer_case *c = &cases[variant->index];
	static char log_k[8192], log_i[8192], out[4096];
	struct aer_snap k0, k1, i0, i1;
	char mark[64], path[64];
	int i, l;

	if (!path_exists("/dev/aer_inject"))
		SKIP(return, "no /dev/aer_inject and no AER_INJECT_KO");
	snprintf(path, sizeof(path), "/tmp/aer-%s", c->name);
	put_file(path, c->file);

	snprintf(mark, sizeof(mark), "iohook-cmp kernel %s", c->name);
	log_mark(mark);
	snap(&k0);
	ASSERT_EQ(0, inject_kernel(c));
	EXPECT_TRUE(WAIT_FOR(nic_bound() && link_carrier(self->ifname) == 1, 20000));
	msleep(500);
	snap(&k1);
	aer_log(mark, log_k, sizeof(log_k));

	snprintf(mark, sizeof(mark), "iohook-cmp iohook %s", c->name);
	log_mark(mark);
	snap(&i0);
	ASSERT_EQ(0, cli(out, sizeof(out), "aer %s %s",
			 variant->index == 5 ? "-s 01:00.0" : "", path)) TH_LOG("%s", out);
	EXPECT_TRUE(WAIT_FOR(nic_bound() && link_carrier(self->ifname) == 1, 20000));
	msleep(500);
	snap(&i1);
	aer_log(mark, log_i, sizeof(log_i));

	EXPECT_NE(0, log_k[0]);
	EXPECT_STREQ(log_k, log_i);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(k1.rp[i] - k0.rp[i], i1.rp[i] - i0.rp[i]) TH_LOG("root port kind %d", i);
	for (l = 0; l < k1.n; l++)
		EXPECT_EQ(k1.v[l] - counter(&k0, k1.name[l]),
			  counter(&i1, k1.name[l]) - counter(&i0, k1.name[l]))
			TH_LOG("%s", k1.name[l]);
}

TEST_HARNESS_MAIN

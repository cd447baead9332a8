// SPDX-License-Identifier: GPL-2.0
/*
 * iohook_events - real drivers take their event paths, end to end.
 *
 * Each test stages overrides through the sysfs ABI, fires the device's
 * interrupt, and checks what the kernel exposes: slot state, lspci, AER
 * counters, GPE counters, carrier. Register offsets come from the
 * capability lists (libpci) and the GPE block from /proc/ioports. Each
 * test restores the machine (overrides removed, device back, link up).
 *
 *   pciehp:  presence on the empty slot 2, attention button on slot 1,
 *            surprise removal of slot 1
 *   AER:     correctable and non-fatal errors reported by root port 1
 *            with Error Source ID = the e1000e
 *   ACPI:    GPE 0x02 through the level-triggered SCI (I/O ports)
 *   e1000e:  link loss that only the PHY's BMSR shows (a conditional
 *            override on MDIC), and recovery
 *   AER:     a counted fault: count=1 on a stuck Root Error Status
 *   ACPI:    CPU hot-add, eject and a failing bring-up; memory hot-add
 *            and eject in the second DIMM slot; each 20 times in one boot
 *            (through iohook(8), on QEMU's CPU and memory hotplug blocks);
 *            I/O hub (PCI host bridge) hot-add and eject, three times,
 *            on the SSDT of scripts/firmware/q35-ioh-ssdt.asl
 */
#include <linux/mii.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <dirent.h>
#include <sys/ioctl.h>

#include "iohook_machine.h"
#include "iohook_harness.h"

/* Every test here drives the q35 machine (iohook_q35.h). */
static void __attribute__((constructor)) need_q35(void)
{
	iohook_gate(true);
}

FIXTURE(ev)
{
	char ifname[IFNAMSIZ];
};

FIXTURE_SETUP(ev)
{
	ASSERT_EQ(0, machine_reset(self->ifname, sizeof(self->ifname)));
}

FIXTURE_TEARDOWN(ev)
{
	clear_all();
	nic_restore();
}

/* 1a: presence on the empty slot 2, with its uevents. */
TEST_F(ev, pciehp_presence_on_empty_slot)
{
	static const char *const add_vars[] = { "SUBSYSTEM=iohook", "IOHOOK_SPACE=pciconf",
		"IOHOOK_DEVICE=" RP2, NULL };
	static const char *const fire_vars[] = { "IOHOOK_EVENT=fire_irq", "IOHOOK_VECTOR=0", NULL };
	int exp = cap_of(RP2, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	int sltsta = exp + PCI_EXP_SLTSTA;
	char entry[64], name[32], path[256];
	int fd = iohook_uevent_open(0);

	ASSERT_GT(exp, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, sysfs_read_num("/sys/bus/pci/slots/2/adapter"));
	/* Presence Detect State (ro while we say so) + Changed (RW1C). */
	snprintf(entry, sizeof(entry), "%x 1 %x %x wc", sltsta,
		 SLTSTA_PDS | SLTSTA_PDC, SLTSTA_PDS | SLTSTA_PDC);
	ASSERT_EQ(0, iohook_sysfs_write(OVR(RP2) "/add", entry));
	snprintf(name, sizeof(name), "/" RP2 "+%x", sltsta);
	EXPECT_TRUE(uevent_wait(fd, "add", name, add_vars, 2000));
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" RP2 "/fire_irq", "0"));
	EXPECT_TRUE(uevent_wait(fd, "change", "/" RP2, fire_vars, 2000));
	close(fd);

	/* pciehp's handler read the event and cleared PDC through wc. */
	snprintf(path, sizeof(path), OVR(RP2) "/0x%x/value", sltsta);
	EXPECT_TRUE(WAIT_FOR(sysfs_read_num("%s", path) == SLTSTA_PDS, 3000));
	EXPECT_EQ(1, sysfs_read_num("/sys/bus/pci/slots/2/adapter"));

	/* Take the card away again: PDC with PDS clear, then restore. */
	ASSERT_EQ(0, sysfs_writef(path, "%x", SLTSTA_PDC));
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" RP2 "/fire_irq", "0"));
	EXPECT_TRUE(WAIT_FOR(sysfs_read_num("%s", path) == 0, 3000));
	EXPECT_EQ(0, sysfs_read_num("/sys/bus/pci/slots/2/adapter"));
	msleep(1500);	/* let pciehp finish with the slot */
	ASSERT_EQ(0, iohook_sysfs_write(OVR(RP2) "/remove", "all"));
	EXPECT_EQ(0, sysfs_read_num("/sys/bus/pci/slots/2/adapter"));
}

/*
 * The slot's power controller, emulated: Power Indicator and Power
 * Controller Control (Slot Control bits 8-10) become an rw override, so
 * pciehp's power-off stays in the override. QEMU would otherwise take a
 * powered-off slot's device away for good.
 */
static int sltctl_power_entry(int exp, char *buf, size_t len)
{
	struct pci_access *pacc = pci_open_sysfs();
	struct pci_dev *d = pci_find(pacc, 0, 0x1c, 0);
	int ctl = d ? pci_read_word(d, exp + PCI_EXP_SLTCTL) : -1;

	pci_cleanup(pacc);
	if (ctl < 0)
		return -1;
	return snprintf(buf, len, "%x 1 %x 7 rw", exp + PCI_EXP_SLTCTL + 1,
			(ctl >> 8) & 7);
}

/* The emulated Slot Control bits 8-10 once pciehp has powered off. */
#define SLTCTL_HI_OFF	0x7	/* Power Indicator off (11b), PCC off (1) */

static long long sltctl_emulated(int exp)
{
	return sysfs_read_num(OVR(RP1) "/0x%x/value", exp + PCI_EXP_SLTCTL + 1);
}

/* 1b: attention button on slot 1: pciehp powers it off after 5 s. */
TEST_F(ev, pciehp_attention_button)
{
	int exp = cap_of(RP1, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	char entry[64];

	ASSERT_GT(exp, 0);
	ASSERT_EQ(1, sysfs_read_num("/sys/bus/pci/slots/1/power"));
	ASSERT_TRUE(in_lspci("01:00.0"));
	ASSERT_LT(0, sltctl_power_entry(exp, entry, sizeof(entry)));
	ASSERT_EQ(0, iohook_sysfs_write(OVR(RP1) "/add", entry));
	snprintf(entry, sizeof(entry), "%x 1 %x %x wc", exp + PCI_EXP_SLTSTA,
		 SLTSTA_ABP, SLTSTA_ABP);
	ASSERT_EQ(0, iohook_sysfs_write(OVR(RP1) "/add", entry));
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" RP1 "/fire_irq", "0"));
	/* pciehp waits 5 s for a second press that would cancel. */
	EXPECT_TRUE(WAIT_FOR(!in_lspci("01:00.0"), 12000));
	EXPECT_TRUE(WAIT_FOR(sysfs_read_num("/sys/bus/pci/slots/1/power") == 0, 5000));
	EXPECT_FALSE(path_exists(PCI_DEVS "/" NIC));

	/* pciehp is done once it has turned the power indicator off. */
	EXPECT_TRUE(WAIT_FOR(sltctl_emulated(exp) == SLTCTL_HI_OFF, 5000));

	/* Back on through the slot: the e1000e is bound again. */
	EXPECT_TRUE(WAIT_FOR(iohook_sysfs_write("/sys/bus/pci/slots/1/power", "1") == 0, 5000));
	EXPECT_TRUE(WAIT_FOR(nic_bound(), 15000));
	EXPECT_EQ(1, sysfs_read_num("/sys/bus/pci/slots/1/power"));
	EXPECT_TRUE(in_lspci("01:00.0"));
	ASSERT_EQ(0, iohook_sysfs_write(OVR(RP1) "/remove", "all"));
}

/* 1c: surprise removal: link down, presence gone, config reads all-ones. */
TEST_F(ev, pciehp_surprise_removal)
{
	int exp = cap_of(RP1, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	char entries[256], power[64];

	ASSERT_GT(exp, 0);
	ASSERT_LT(0, sltctl_power_entry(exp, power, sizeof(power)));
	ASSERT_EQ(0, iohook_sysfs_write(OVR(RP1) "/add", power));
	snprintf(entries, sizeof(entries),
		 "%x 2 %x %x wc; %x 2 0 %x ro",
		 exp + PCI_EXP_SLTSTA, SLTSTA_DLLSC | SLTSTA_PDC,
		 SLTSTA_DLLSC | SLTSTA_PDC | SLTSTA_PDS,
		 exp + PCI_EXP_LNKSTA, LNKSTA_DLLLA);
	ASSERT_EQ(0, iohook_sysfs_write(OVR(NIC) "/add", "0 1000 ff ff ro"));
	ASSERT_EQ(0, iohook_sysfs_write(OVR(RP1) "/add", entries));
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" RP1 "/fire_irq", "0"));
	/* The driver unbinds and the device goes, without a hang. */
	EXPECT_TRUE(WAIT_FOR(!path_exists(PCI_DEVS "/" NIC), 15000));
	EXPECT_FALSE(in_lspci("01:00.0"));
	EXPECT_EQ(0, sysfs_read_num("/sys/bus/pci/slots/1/adapter"));
	/* The all-ones override outlived the device. */
	EXPECT_TRUE(path_exists(IOHOOK_SYS "/pciconf/" NIC "+0"));
	EXPECT_TRUE(WAIT_FOR(sltctl_emulated(exp) == SLTCTL_HI_OFF, 5000));

	/*
	 * Recovery: the card comes back (link up, config space real
	 * again, Presence Detect and its change bit set), and pciehp
	 * powers the emulated slot on and enumerates the e1000e.
	 */
	snprintf(entries, sizeof(entries), "%x", exp + PCI_EXP_LNKSTA);
	EXPECT_EQ(0, iohook_sysfs_write(OVR(RP1) "/remove", entries));
	EXPECT_EQ(0, iohook_sysfs_write(IOHOOK_SYS "/pciconf/remove", NIC "+0"));
	snprintf(entries, sizeof(entries), OVR(RP1) "/0x%x/value", exp + PCI_EXP_SLTSTA);
	EXPECT_EQ(0, sysfs_writef(entries, "%x", SLTSTA_PDS | SLTSTA_PDC | SLTSTA_DLLSC));
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" RP1 "/fire_irq", "0"));
	EXPECT_TRUE(WAIT_FOR(nic_bound(), 15000));
	EXPECT_EQ(1, sysfs_read_num("/sys/bus/pci/slots/1/power"));
	EXPECT_EQ(1, sysfs_read_num("/sys/bus/pci/slots/1/adapter"));
	clear_all();
	EXPECT_EQ(0, nic_restore());
	EXPECT_TRUE(in_lspci("01:00.0"));
}

/*
 * Root Error Status, Error Source ID on RP1; the e1000e's status bit.
 * @attr is how the two status registers behave (wc: cleared by their
 * handler, ro: stuck); @policy is appended to Root Error Status's entry.
 */
static void aer_stage(struct __test_metadata *_metadata, unsigned int root_sta,
		      unsigned int src, unsigned int dev_reg, unsigned int bit,
		      const char *attr, const char *policy)
{
	int rp_aer = cap_of(RP1, PCI_EXT_CAP_ID_AER, PCI_CAP_EXTENDED);
	int nic_aer = cap_of(NIC, PCI_EXT_CAP_ID_AER, PCI_CAP_EXTENDED);
	char entries[256];

	ASSERT_GT(rp_aer, 0);
	ASSERT_GT(nic_aer, 0);
	snprintf(entries, sizeof(entries), "%x 4 %x 7f %s %s; %x 4 %x ffffffff ro",
		 rp_aer + PCI_ERR_ROOT_STATUS, root_sta, attr, policy,
		 rp_aer + PCI_ERR_ROOT_COR_SRC, src);
	ASSERT_EQ(0, iohook_sysfs_write(OVR(RP1) "/add", entries));
	snprintf(entries, sizeof(entries), "%x 4 %x %x %s", nic_aer + dev_reg,
		 bit, bit, attr);
	ASSERT_EQ(0, iohook_sysfs_write(OVR(NIC) "/add", entries));
}

/* 2a: a correctable error (Bad TLP) from the e1000e. */
TEST_F(ev, aer_correctable)
{
	long long bad = aer_counter(NIC, "aer_dev_correctable", "BadTLP");
	long long tot = aer_counter(NIC, "aer_dev_correctable", "TOTAL_ERR_COR");
	long long rp = sysfs_read_num(PCI_DEVS "/" RP1 "/aer_rootport_total_err_cor");

	ASSERT_GE(bad, 0);
	ASSERT_GE(rp, 0);
	aer_stage(_metadata, PCI_ERR_ROOT_COR_RCV, 0x0100, PCI_ERR_COR_STATUS,
		  PCI_ERR_COR_BAD_TLP, "wc", "");
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" RP1 "/fire_irq", "0"));
	EXPECT_TRUE(WAIT_FOR(aer_counter(NIC, "aer_dev_correctable",
					 "TOTAL_ERR_COR") == tot + 1, 5000));
	msleep(300);
	EXPECT_EQ(bad + 1, aer_counter(NIC, "aer_dev_correctable", "BadTLP"));
	EXPECT_EQ(tot + 1, aer_counter(NIC, "aer_dev_correctable", "TOTAL_ERR_COR"));
	EXPECT_EQ(rp + 1, sysfs_read_num(PCI_DEVS "/" RP1 "/aer_rootport_total_err_cor"));
}

/* 2b: a non-fatal uncorrectable error: the e1000e recovers. */
TEST_F(ev, aer_nonfatal_recovery)
{
	long long tot = aer_counter(NIC, "aer_dev_nonfatal", "TOTAL_ERR_NONFATAL");
	long long ct = aer_counter(NIC, "aer_dev_nonfatal", "CmpltTO");
	long long rp = sysfs_read_num(PCI_DEVS "/" RP1 "/aer_rootport_total_err_nonfatal");

	ASSERT_GE(tot, 0);
	ASSERT_EQ(1, link_carrier(self->ifname));
	aer_stage(_metadata, PCI_ERR_ROOT_UNCOR_RCV | PCI_ERR_ROOT_NONFATAL_RCV,
		  0x0100 << 16, PCI_ERR_UNCOR_STATUS, PCI_ERR_UNC_COMP_TIME, "wc", "");
	ASSERT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" RP1 "/fire_irq", "0"));
	EXPECT_TRUE(WAIT_FOR(aer_counter(NIC, "aer_dev_nonfatal",
					 "TOTAL_ERR_NONFATAL") == tot + 1, 5000));
	EXPECT_EQ(ct + 1, aer_counter(NIC, "aer_dev_nonfatal", "CmpltTO"));
	EXPECT_EQ(rp + 1, sysfs_read_num(PCI_DEVS "/" RP1 "/aer_rootport_total_err_nonfatal"));
	clear_all();
	/* Recovery reset the device; it must come back with link. */
	EXPECT_TRUE(WAIT_FOR(link_carrier(self->ifname) == 1, 15000));
	EXPECT_TRUE(nic_bound());
}

static long long gpe0_status_port(void)
{
	char line[256];
	long long port = -1;
	FILE *f = fopen("/proc/ioports", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "ACPI GPE0_BLK"))
			port = strtoll(line, NULL, 16);
	if (f)
		fclose(f);
	return port;
}

/* 3: GPE 0x02 through the SCI, status cleared by ACPICA through wc. */
TEST_F(ev, acpi_gpe_through_sci)
{
	long long port = gpe0_status_port();
	int irq = iohook_sci_irq();
	long long before;
	char entry[64], path[128];

	ASSERT_GT(port, 0);
	ASSERT_GT(irq, 0);
	before = sysfs_read_num("/sys/firmware/acpi/interrupts/gpe02");
	ASSERT_GE(before, 0);
	/* GPE 2: bit 2 of the first status byte. */
	snprintf(entry, sizeof(entry), "%llx 1 4 4 wc", port);
	ASSERT_EQ(0, iohook_sysfs_write(IOHOOK_SYS "/io/add", entry));
	ASSERT_EQ(0, sysfs_writef(IOHOOK_SYS "/fire_irq", "%d", irq));
	EXPECT_TRUE(WAIT_FOR(sysfs_read_num("/sys/firmware/acpi/interrupts/gpe02") ==
			     before + 1, 5000));
	msleep(300);
	EXPECT_EQ(before + 1, sysfs_read_num("/sys/firmware/acpi/interrupts/gpe02"));
	snprintf(path, sizeof(path), IOHOOK_SYS "/io/0x%llx/value", port);
	EXPECT_EQ(0, sysfs_read_num("%s", path));
	EXPECT_LE(2, sysfs_read_num(IOHOOK_SYS "/io/0x%llx/hits", port));
}

/* The IRQ of the e1000e's "other" (link) MSI-X vector, and its index. */
static int nic_other_vector(const char *ifname, int *irq)
{
	int idx;

	*irq = iohook_irq_by_action(ifname);
	for (idx = 0; idx < 8; idx++)
		if (msi_irq(NIC, idx) == *irq)
			return idx;
	return -1;
}

/* The PHY registers the e1000e's SIOCGMIIREG answers, read through it. */
static const int mii_regs[] = {
	MII_BMCR, MII_BMSR, MII_PHYSID1, MII_PHYSID2, MII_ADVERTISE, MII_LPA,
	MII_EXPANSION, MII_CTRL1000, MII_STAT1000, MII_ESTATUS,
};

static int mii_read_all(const char *ifname, int *phy, int *val)
{
	struct mii_ioctl_data *mii;
	struct ifreq ifr = {};
	unsigned int i;
	int fd, ret = 0;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	mii = (struct mii_ioctl_data *)&ifr.ifr_data;
	if (ioctl(fd, SIOCGMIIPHY, &ifr))
		ret = -1;
	*phy = mii->phy_id;
	for (i = 0; !ret && i < ARRAY_SIZE(mii_regs); i++) {
		mii->reg_num = mii_regs[i];
		if (ioctl(fd, SIOCGMIIREG, &ifr))
			ret = -1;
		val[i] = mii->val_out;
	}
	close(fd);
	return ret;
}

/*
 * 4: link loss that only the PHY's BMSR shows. This copper MAC reads its
 * PHY through MDIC (BAR0 + 0x20): the driver writes the register number
 * (bits 16-20) and PHY address (bits 21-25), then reads the data back
 * from the same MDIC. The override of data bit 2 (BMSR link status) is
 * conditional on that command naming BMSR, so every other PHY register
 * reads what it read before. ICR.LSC (0xc0 bit 2, read-to-clear) tells
 * the driver to look.
 */
TEST_F(ev, e1000e_link_loss)
{
	int irq, idx = nic_other_vector(self->ifname, &irq);
	int phy, before[ARRAY_SIZE(mii_regs)], during[ARRAY_SIZE(mii_regs)];
	char entry[128];
	unsigned int i;

	ASSERT_GE(idx, 0);
	ASSERT_EQ(1, link_carrier(self->ifname));
	ASSERT_EQ(0, mii_read_all(self->ifname, &phy, before));
	ASSERT_EQ(BMSR_LSTATUS, before[1] & BMSR_LSTATUS);

	snprintf(entry, sizeof(entry), "bar0+20 4 0 4 ro sel=bar0+20:4&3ff0000=%x",
		 phy << 21 | MII_BMSR << 16);
	ASSERT_EQ(0, iohook_sysfs_write(OVR(NIC) "/add", entry));
	ASSERT_EQ(0, mii_read_all(self->ifname, &phy, during));
	for (i = 0; i < ARRAY_SIZE(mii_regs); i++)
		EXPECT_EQ(mii_regs[i] == MII_BMSR ? before[i] & ~BMSR_LSTATUS :
			  before[i], during[i])
			TH_LOG("PHY register %d", mii_regs[i]);
	/* The driver has not noticed yet: nothing told it to look. */
	EXPECT_EQ(1, link_carrier(self->ifname));

	ASSERT_EQ(0, iohook_sysfs_write(OVR(NIC) "/add", "bar0+c0 4 4 4 rc"));
	ASSERT_EQ(0, sysfs_writef(PCI_DEVS "/" NIC "/fire_irq", "%d", idx));
	EXPECT_TRUE(WAIT_FOR(link_carrier(self->ifname) == 0, 10000));
	EXPECT_EQ(0, sysfs_read_num(OVR(NIC) "/bar0+c0/value"));	/* read, cleared */
	snprintf(entry, sizeof(entry), OVR(NIC) "/bar0+20@%x/hits",
		 phy << 21 | MII_BMSR << 16);
	EXPECT_GT(sysfs_read_num(entry), 0);

	snprintf(entry, sizeof(entry), "bar0+20@%x", phy << 21 | MII_BMSR << 16);
	ASSERT_EQ(0, iohook_sysfs_write(OVR(NIC) "/remove", entry));
	ASSERT_EQ(0, iohook_sysfs_write(OVR(NIC) "/bar0+c0/value", "4"));
	ASSERT_EQ(0, sysfs_writef(PCI_DEVS "/" NIC "/fire_irq", "%d", idx));
	EXPECT_TRUE(WAIT_FOR(link_carrier(self->ifname) == 1, 10000));
	ASSERT_EQ(0, mii_read_all(self->ifname, &phy, during));
	EXPECT_EQ(before[1], during[1]);
}

/*
 * 5: a counted fault on the AER path. Root Error Status and the
 * e1000e's Correctable Error Status are stuck (ro: the handler's
 * write-1-to-clear does not clear them), so every AER interrupt would
 * report again; count=1 on Root Error Status lets exactly one interrupt
 * see it. The control run without count shows the difference.
 */
static void aer_stuck(struct __test_metadata *_metadata, const char *policy)
{
	aer_stage(_metadata, PCI_ERR_ROOT_COR_RCV, 0x0100, PCI_ERR_COR_STATUS,
		  PCI_ERR_COR_BAD_TLP, "ro", policy);
}

/* Fire twice, each time waiting for a report; the reports counted. */
static long long aer_fire_twice(struct __test_metadata *_metadata)
{
	long long tot = aer_counter(NIC, "aer_dev_correctable", "TOTAL_ERR_COR");
	int i;

	for (i = 1; i <= 2; i++) {
		EXPECT_EQ(0, iohook_sysfs_write(PCI_DEVS "/" RP1 "/fire_irq", "0"));
		WAIT_FOR(aer_counter(NIC, "aer_dev_correctable",
				     "TOTAL_ERR_COR") >= tot + i, 3000);
	}
	msleep(300);
	return aer_counter(NIC, "aer_dev_correctable", "TOTAL_ERR_COR") - tot;
}

TEST_F(ev, aer_counted_fault)
{
	int rp_aer = cap_of(RP1, PCI_EXT_CAP_ID_AER, PCI_CAP_EXTENDED);
	long long rp = sysfs_read_num(PCI_DEVS "/" RP1 "/aer_rootport_total_err_cor");
	long long bad = aer_counter(NIC, "aer_dev_correctable", "BadTLP");
	char name[32];

	ASSERT_GE(rp, 0);
	/* Control: stuck bits report on every interrupt. */
	aer_stuck(_metadata, "");
	EXPECT_EQ(2, aer_fire_twice(_metadata));
	clear_all();

	rp = sysfs_read_num(PCI_DEVS "/" RP1 "/aer_rootport_total_err_cor");
	bad = aer_counter(NIC, "aer_dev_correctable", "BadTLP");
	aer_stuck(_metadata, "count=1");
	EXPECT_EQ(1, aer_fire_twice(_metadata));
	EXPECT_EQ(bad + 1, aer_counter(NIC, "aer_dev_correctable", "BadTLP"));
	EXPECT_EQ(rp + 1, sysfs_read_num(PCI_DEVS "/" RP1 "/aer_rootport_total_err_cor"));
	snprintf(name, sizeof(name), "0x%x", rp_aer + PCI_ERR_ROOT_STATUS);
	EXPECT_EQ(1, sysfs_read_num(OVR(RP1) "/%s/applied", name));
	EXPECT_EQ(1, sysfs_read_num(OVR(RP1) "/%s/exhausted", name));
	/* The handler read it twice and wrote it once, at least. */
	EXPECT_GE(sysfs_read_num(OVR(RP1) "/%s/seen", name), 3);
}

/*
 * 6-10: ACPI CPU and memory hotplug through QEMU's firmware interface,
 * for a CPU and a DIMM that do not exist (iohook cpu, iohook memory).
 * The VM has 2 of 4 possible CPUs and 2 empty DIMM slots.
 */
#define MEM_SYS		"/sys/devices/system/memory"
#define CPU_SYS		"/sys/devices/system/cpu"

static long long meminfo_kb(const char *key)
{
	char line[128];
	long long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = atoll(line + strlen(key));
	if (f)
		fclose(f);
	return v;
}

static int count_entries(const char *dir, const char *prefix)
{
	struct dirent *e;
	int n = 0;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

static bool iomem_has(const char *range)
{
	char line[256];
	bool found = false;
	FILE *f = fopen("/proc/iomem", "r");

	while (f && fgets(line, sizeof(line), f))
		found |= !!strstr(line, range);
	if (f)
		fclose(f);
	return found;
}

static void read_line(const char *path, char *buf, size_t len)
{
	if (iohook_sysfs_read(path, buf, len) < 0)
		snprintf(buf, len, "?");
}

/*
 * A CPU to hot-add: 6.12 counts an absent CPU only if the firmware marks
 * it Online Capable (ACPI 6.3, the tables vm-run hands the VM) or under
 * a hypervisor it recognises; QEMU's own tables under TCG give none.
 */
#define NO_HOTPLUG_CPU "the firmware offers no hot-pluggable CPU (6.12 needs ACPI 6.3 tables)"

static bool cpu2_possible(void)
{
	char possible[32];

	read_line(CPU_SYS "/possible", possible, sizeof(possible));
	return strcmp(possible, "0-1");
}

/*
 * The firmware slot of logical CPU @cpu: QEMU 7.2 declares Processor
 * objects named after their slot (\_SB_.CPUS.C002), with no _UID.
 */
static long cpu_slot(int cpu)
{
	char path[96], buf[64], *name;

	snprintf(path, sizeof(path), CPU_SYS "/cpu%d/firmware_node/path", cpu);
	read_line(path, buf, sizeof(buf));
	name = strrchr(buf, '.');
	return name && name[1] == 'C' ? strtol(name + 2, NULL, 16) : -1;
}

/*
 * The eject is done when the bridge's window is released, at the end of
 * a chain of releases (the function, its bus, the bridge) that
 * DEBUG_KOBJECT_RELEASE delays by 1 to 4 s each: more than iohook's
 * default 10 s in the debug profile.
 */
#define IOH_REMOVE	"-t 30000 ioh 1 remove"

/*
 * A CPU's struct device is static: register_cpu() re-initialises it at
 * every add. A kernel with DEBUG_KOBJECT_RELEASE (the debug profile, the
 * one with kmemleak) releases it 1 to 4 s after the removal, so an add
 * within that time re-initialises a device whose release is still
 * queued: a timer WARN ("__run_timers", no function) and kmemleak's
 * report of the device's private data. There, a removal waits that out.
 */
static int cpu_cli(char *out, size_t len, const char *cmd)
{
	int rc = cli(out, len, "%s", cmd);

	if (!rc && strstr(cmd, " remove") && path_exists("/sys/kernel/debug/kmemleak"))
		sleep(5);
	return rc;
}

struct machine_counts {
	int mem_blocks, cpus, io_overrides, pciconf_overrides, pci_buses;
	long long mem_total;
	char present[32], online[32];
};

static void machine_counts(struct machine_counts *c)
{
	c->mem_blocks = count_entries(MEM_SYS, "memory");
	c->cpus = count_entries(CPU_SYS, "cpu") - !!path_exists(CPU_SYS "/cpufreq") -
		  !!path_exists(CPU_SYS "/cpuidle");
	c->io_overrides = count_entries(IOHOOK_SYS "/io", "");
	c->pciconf_overrides = count_entries(IOHOOK_SYS "/pciconf", "");
	c->pci_buses = count_entries("/sys/class/pci_bus", "");
	c->mem_total = meminfo_kb("MemTotal:");
	read_line(CPU_SYS "/present", c->present, sizeof(c->present));
	read_line(CPU_SYS "/online", c->online, sizeof(c->online));
}

FIXTURE(acpi)
{
	char out[4096];
	struct machine_counts start;
};

FIXTURE_SETUP(acpi)
{
	find_cli();
	clear_all();
	ASSERT_EQ(0, iohook_sysfs_write(ARMED, "1"));
	machine_counts(&self->start);
	ASSERT_LT(0, self->start.mem_blocks);
}

FIXTURE_TEARDOWN(acpi)
{
	char out[512];

	if (path_exists(IOHOOK_SYS "/io/0xa14@1"))
		cli(out, sizeof(out), "memory 1 remove");
	/* Whatever a failed test left: a slot not present is refused at once. */
	cli(out, sizeof(out), IOH_REMOVE);
	cpu_cli(out, sizeof(out), "cpu 2 remove");
	cpu_cli(out, sizeof(out), "cpu 3 remove");
	clear_all();
}

/* The machine is as it was: every count back to its start. */
static void same_machine(struct __test_metadata *_metadata, const struct machine_counts *a)
{
	struct machine_counts b;

	machine_counts(&b);
	EXPECT_EQ(a->mem_blocks, b.mem_blocks);
	EXPECT_EQ(a->cpus, b.cpus);
	EXPECT_EQ(a->io_overrides, b.io_overrides);
	EXPECT_EQ(a->pciconf_overrides, b.pciconf_overrides);
	EXPECT_EQ(a->pci_buses, b.pci_buses);
	EXPECT_EQ(a->mem_total, b.mem_total);
	EXPECT_STREQ(a->present, b.present);
	EXPECT_STREQ(a->online, b.online);
}

/* 6: CPU 2, which QEMU never plugged, is hot-added, then ejected. */
TEST_F(acpi, cpu_hot_add_and_eject)
{
	char buf[64];

	if (!cpu2_possible()) {
		/*
		 * 6.12 on QEMU's own tables under TCG: no CPU is
		 * hot-pluggable, so the processor driver cannot map CPU 2.
		 * The firmware's scan still finds the event; the kernel
		 * adds nothing, and iohook undoes it all.
		 */
		EXPECT_EQ(8, cli(self->out, sizeof(self->out), "-t 4000 cpu 2 add"));
		EXPECT_NE(NULL, strstr(self->out, "the kernel did not add CPU slot 2"));
		same_machine(_metadata, &self->start);
		return;
	}
	ASSERT_EQ(0, cli(self->out, sizeof(self->out), "cpu 2 add")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "cpu slot 2: hot-add through GPE 2"));
	EXPECT_NE(NULL, strstr(self->out, "the kernel added it as cpu2 in"));
	EXPECT_TRUE(path_exists(CPU_SYS "/cpu2"));
	read_line(CPU_SYS "/present", buf, sizeof(buf));
	EXPECT_STREQ("0-2", buf);
	read_line(CPU_SYS "/possible", buf, sizeof(buf));
	EXPECT_STREQ("0-3", buf);
	EXPECT_EQ(0, sysfs_read_num(CPU_SYS "/cpu2/online"));
	read_line(CPU_SYS "/online", buf, sizeof(buf));
	EXPECT_STREQ(self->start.online, buf);

	/* 7: the eject request takes it away again. */
	ASSERT_EQ(0, cpu_cli(self->out, sizeof(self->out), "cpu 2 remove")) TH_LOG("%s", self->out);
	EXPECT_FALSE(path_exists(CPU_SYS "/cpu2"));
	same_machine(_metadata, &self->start);
}

/*
 * Add the slots in @order and remove them in @rm: each add must report
 * the logical CPU the kernel made, which must be new and be that slot's
 * processor (its firmware node), each remove must take that same CPU
 * away, and the machine ends as it began. Which number the kernel picks
 * is its own: 6.1 gives the next free one (slot 3 first becomes cpu2),
 * 6.12 the one it set aside for the slot's APIC ID at boot (cpu3).
 */
static void slots_in_order(struct __test_metadata *_metadata, char *out, size_t len,
			   const int order[2], const int rm[2],
			   const struct machine_counts *start)
{
	int cpu_of[4] = { -1, -1, -1, -1 }, i;
	char want[96];
	const char *as;

	for (i = 0; i < 2; i++) {
		snprintf(want, sizeof(want), "cpu %d add", order[i]);
		ASSERT_EQ(0, cli(out, len, want)) TH_LOG("%s", out);
		snprintf(want, sizeof(want), "cpu slot %d: hot-add through GPE 2", order[i]);
		EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
		as = strstr(out, "the kernel added it as cpu");
		ASSERT_NE(NULL, as) TH_LOG("%s", out);
		cpu_of[order[i]] = atoi(as + strlen("the kernel added it as cpu"));
		EXPECT_LE(2, cpu_of[order[i]]);		/* not a CPU from boot */
		EXPECT_EQ(order[i], cpu_slot(cpu_of[order[i]]));
	}
	EXPECT_NE(cpu_of[order[0]], cpu_of[order[1]]);
	for (i = 0; i < 2; i++) {
		snprintf(want, sizeof(want), "cpu %d remove", rm[i]);
		ASSERT_EQ(0, cpu_cli(out, len, want)) TH_LOG("%s", out);
		snprintf(want, sizeof(want), "the kernel removed cpu%d in", cpu_of[rm[i]]);
		EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
		EXPECT_FALSE(path_exists(CPU_SYS "/cpu%d", cpu_of[rm[i]]));
	}
	same_machine(_metadata, start);
}

/*
 * Every hot-pluggable slot (2 and 3 of 0-3), in both orders: "cpu N"
 * names the firmware's slot, which 6.1's logical number differs from
 * when slot 3 comes first (issue 31, defect 11).
 */
TEST_F_TIMEOUT(acpi, cpu_slots_in_both_orders, 180)
{
	static const int up[2] = { 2, 3 }, down[2] = { 3, 2 };
	char possible[32];

	if (!cpu2_possible())
		SKIP(return, NO_HOTPLUG_CPU);
	read_line(CPU_SYS "/possible", possible, sizeof(possible));
	ASSERT_STREQ("0-3", possible);
	EXPECT_EQ(1, cpu_slot(1));
	slots_in_order(_metadata, self->out, sizeof(self->out), down, down, &self->start);
	slots_in_order(_metadata, self->out, sizeof(self->out), down, up, &self->start);
	slots_in_order(_metadata, self->out, sizeof(self->out), up, up, &self->start);
	slots_in_order(_metadata, self->out, sizeof(self->out), up, down, &self->start);
}

/* 8: bringing the phantom CPU online fails, and nothing else breaks. */
TEST_F_TIMEOUT(acpi, cpu_bring_up_fails_safely, 120)
{
	char buf[64];

	if (!cpu2_possible())
		SKIP(return, NO_HOTPLUG_CPU);
	ASSERT_EQ(0, cli(self->out, sizeof(self->out), "cpu 2 add")) TH_LOG("%s", self->out);
	EXPECT_NE(0, iohook_sysfs_write(CPU_SYS "/cpu2/online", "1"));
	EXPECT_EQ(0, sysfs_read_num(CPU_SYS "/cpu2/online"));
	read_line(CPU_SYS "/online", buf, sizeof(buf));
	EXPECT_STREQ(self->start.online, buf);
	ASSERT_EQ(0, cpu_cli(self->out, sizeof(self->out), "cpu 2 remove")) TH_LOG("%s", self->out);
	same_machine(_metadata, &self->start);
}

/* 9, 10: a DIMM in the second slot (the first stays empty), then ejected. */
TEST_F(acpi, memory_hot_add_and_eject_second_slot)
{
	char path[96], state[32];
	int i;

	ASSERT_EQ(0, cli(self->out, sizeof(self->out), "memory 1 add")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "memory slot 1: DIMM inserted at 140000000-14fffffff"));
	EXPECT_TRUE(iomem_has("140000000-14fffffff : System RAM"));
	EXPECT_FALSE(iomem_has("100000000-"));		/* slot 0: still empty */
	EXPECT_EQ(self->start.mem_blocks + 2, count_entries(MEM_SYS, "memory"));
	for (i = 40; i <= 41; i++) {	/* 0x140000000 / 128 MiB blocks */
		snprintf(path, sizeof(path), MEM_SYS "/memory%d/state", i);
		read_line(path, state, sizeof(state));
		EXPECT_STREQ("offline", state) TH_LOG("memory%d", i);
	}
	EXPECT_EQ(self->start.mem_total, meminfo_kb("MemTotal:"));

	ASSERT_EQ(0, cli(self->out, sizeof(self->out), "memory 1 remove")) TH_LOG("%s", self->out);
	EXPECT_FALSE(iomem_has("140000000-14fffffff"));
	EXPECT_FALSE(path_exists(MEM_SYS "/memory40"));
	same_machine(_metadata, &self->start);
}

/*
 * 12: the I/O hub of scripts/firmware/q35-ioh-ssdt.asl (\_SB.IOH1, root
 * bus f0, memory window a0000000-a00fffff) is hot-added with the function
 * iohook gives it (1b36:0005, a 64 KiB BAR), then ejected, three times:
 * each time the ACPI device's _STA, the root bus, the function in sysfs
 * and lspci, and the window in /proc/iomem come and go.
 */
#define IOH_PATH	"\\_SB_.IOH1"
#define IOH_FN		"0000:f0:00.0"
#define NO_IOH		"the firmware declares no I/O hub \\_SB.IOH1 (vm-run loads one)"

/* /sys/bus/acpi/devices/PNP0A08:N of \_SB.IOH1 into @dir, or false. */
static bool ioh_acpi_dir(char *dir, size_t len)
{
	char path[300], buf[64];
	struct dirent *e;
	bool found = false;
	DIR *d = opendir("/sys/bus/acpi/devices");

	while (d && !found && (e = readdir(d))) {
		if (strncmp(e->d_name, "PNP0A08:", 8))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/acpi/devices/%.32s/path", e->d_name);
		read_line(path, buf, sizeof(buf));
		if (!strcmp(buf, IOH_PATH)) {
			snprintf(dir, len, "/sys/bus/acpi/devices/%.32s", e->d_name);
			found = true;
		}
	}
	if (d)
		closedir(d);
	return found;
}

static void ioh_expect_absent(struct __test_metadata *_metadata, const char *acpi)
{
	char path[352], buf[256];

	snprintf(path, sizeof(path), "%s/status", acpi);
	read_line(path, buf, sizeof(buf));
	EXPECT_STREQ("0", buf);
	snprintf(path, sizeof(path), "%s/physical_node", acpi);
	EXPECT_FALSE(path_exists(path));
	EXPECT_FALSE(path_exists("/sys/class/pci_bus/0000:f0"));
	EXPECT_FALSE(path_exists(PCI_DEVS "/" IOH_FN));
	run_cmd(buf, sizeof(buf), "lspci -D -s " IOH_FN " 2>/dev/null");
	EXPECT_STREQ("", buf);
	EXPECT_FALSE(iomem_has("a0000000-a00fffff"));
}

TEST_F(acpi, ioh_hot_add_and_eject_three_times)
{
	char acpi[300], path[352], buf[256];
	int round;

	if (!ioh_acpi_dir(acpi, sizeof(acpi)))
		SKIP(return, NO_IOH);
	ioh_expect_absent(_metadata, acpi);
	for (round = 0; round < 3; round++) {
		ASSERT_EQ(0, cli(self->out, sizeof(self->out), "ioh 1 add"))
			TH_LOG("round %d: %s", round, self->out);
		EXPECT_NE(NULL, strstr(self->out, "ioh 1: hot-add through GPE 16 (I/O block ee0); "
					 "the kernel added root bus 0000:f0 with " IOH_FN " in"));
		snprintf(path, sizeof(path), "%s/status", acpi);
		read_line(path, buf, sizeof(buf));
		EXPECT_STREQ("15", buf);
		snprintf(path, sizeof(path), "%s/physical_node/pci_bus/0000:f0", acpi);
		EXPECT_TRUE(path_exists(path)) TH_LOG("round %d: the bridge is not IOH1's", round);
		EXPECT_TRUE(path_exists("/sys/class/pci_bus/0000:f0"));
		EXPECT_EQ(0x1b36, sysfs_read_num(PCI_DEVS "/" IOH_FN "/vendor"));
		EXPECT_EQ(0x0005, sysfs_read_num(PCI_DEVS "/" IOH_FN "/device"));
		EXPECT_EQ(0xff0000, sysfs_read_num(PCI_DEVS "/" IOH_FN "/class"));
		/* The BAR, assigned from the bridge's window, every round. */
		read_line(PCI_DEVS "/" IOH_FN "/resource", buf, sizeof(buf));
		EXPECT_EQ(0, strncmp(buf, "0x00000000a0000000 0x00000000a000ffff", 37))
			TH_LOG("round %d: BAR 0 is %s", round, buf);
		EXPECT_TRUE(iomem_has("a0000000-a00fffff : PCI Bus 0000:f0"));
		EXPECT_TRUE(iomem_has("a0000000-a000ffff : " IOH_FN));
		run_cmd(buf, sizeof(buf), "lspci -D -s " IOH_FN " 2>/dev/null");
		EXPECT_NE(NULL, strstr(buf, IOH_FN " Unassigned class [ff00]: Red Hat, Inc."))
			TH_LOG("lspci: %s", buf);

		ASSERT_EQ(0, cli(self->out, sizeof(self->out), IOH_REMOVE))
			TH_LOG("round %d: %s", round, self->out);
		EXPECT_NE(NULL, strstr(self->out, "ioh 1: eject request through GPE 16 "
					 "(I/O block ee0); the kernel removed root bus 0000:f0 in"));
		ioh_expect_absent(_metadata, acpi);
		same_machine(_metadata, &self->start);
	}
}

/* 11: every scenario 20 times in one boot; every count back to its start. */
TEST_F_TIMEOUT(acpi, repeat_twenty_times, 900)
{
	bool cpu = cpu2_possible();
	char acpi[300];
	bool ioh = ioh_acpi_dir(acpi, sizeof(acpi));
	int i;

	for (i = 0; i < 20; i++) {
		if (ioh) {
			ASSERT_EQ(0, cli(self->out, sizeof(self->out), "ioh 1 add"))
				TH_LOG("round %d: %s", i, self->out);
			ASSERT_EQ(0, cli(self->out, sizeof(self->out), IOH_REMOVE))
				TH_LOG("round %d: %s", i, self->out);
		}
		ASSERT_EQ(0, cli(self->out, sizeof(self->out), "memory 1 add"))
			TH_LOG("round %d: %s", i, self->out);
		ASSERT_EQ(0, cli(self->out, sizeof(self->out), "memory 1 remove"))
			TH_LOG("round %d: %s", i, self->out);
		if (cpu) {
			ASSERT_EQ(0, cli(self->out, sizeof(self->out), "cpu 2 add"))
				TH_LOG("round %d: %s", i, self->out);
			ASSERT_EQ(0, cpu_cli(self->out, sizeof(self->out), "cpu 2 remove"))
				TH_LOG("round %d: %s", i, self->out);
		}
		same_machine(_metadata, &self->start);
	}
}

TEST_HARNESS_MAIN

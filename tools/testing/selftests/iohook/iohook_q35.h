/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iohook_q35.h - is this the machine the topology-bound tests drive?
 *
 * Most iohook tests act on particular hardware: QEMU q35's PCIe root
 * ports (pcie-root-port, 1b36:000c) at 00:1c.0 and 00:1d.0 with hotplug
 * slots 1 and 2, the e1000e behind the first, and q35's ACPI hotplug
 * registers. On any other machine, a lab's board say, 00:1c.0 can be a
 * real root port with a real device behind it, and a test that overrides
 * its Slot Status or fires its vector would act on real hardware. So
 * each such program first checks the machine (iohook_gate()) and skips,
 * with the reason, when it differs.
 *
 * scripts/host/vm-run starts that machine and sets IOHOOK_MACHINE=q35:
 * there a difference is a failure, never a skip, so a broken VM setup
 * cannot pass as a run of skipped tests.
 */
#ifndef IOHOOK_Q35_H
#define IOHOOK_Q35_H

#include "iohook_util.h"
#include "kselftest.h"

/* Whether @dev (a BDF) has ids @vendor:@device (sysfs_read_num(): -1 if absent). */
static inline bool pci_is(const char *dev, int vendor, int device)
{
	return sysfs_read_num(PCI_DEVS "/%s/vendor", dev) == vendor &&
	       sysfs_read_num(PCI_DEVS "/%s/device", dev) == device;
}

/* Whether the hotplug slot named @slot is the one below bus @bus. */
static inline bool slot_at(const char *slot, const char *bus)
{
	char path[128], addr[32];

	snprintf(path, sizeof(path), "/sys/bus/pci/slots/%s/address", slot);
	return iohook_sysfs_read(path, addr, sizeof(addr)) >= 0 &&
	       !strncmp(addr, bus, strlen(bus));
}

/*
 * NULL on vm-run's q35 machine, else what differs. The e1000e itself is
 * not required here: a test may have left its slot empty, and
 * machine_reset() brings it back (and fails if it cannot).
 */
static inline const char *q35_missing(void)
{
	char vendor[64] = "", product[64] = "";

	iohook_sysfs_read("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	iohook_sysfs_read("/sys/class/dmi/id/product_name", product, sizeof(product));
	if (strncmp(vendor, "QEMU", 4) || !strstr(product, "Q35"))
		return "not QEMU's q35 machine (DMI sys_vendor, product_name)";
	if (!pci_is("0000:00:1c.0", 0x1b36, 0x000c) ||
	    !pci_is("0000:00:1d.0", 0x1b36, 0x000c))
		return "no QEMU pcie-root-port (1b36:000c) at 00:1c.0 and 00:1d.0";
	if (!slot_at("1", "0000:01:00") || !slot_at("2", "0000:02:00"))
		return "no pciehp slots 1 and 2 below the root ports (pciehp not bound?)";
	if (path_exists(PCI_DEVS "/0000:01:00.0") &&
	    !pci_is("0000:01:00.0", 0x8086, 0x10d3))
		return "01:00.0 is not an e1000e (8086:10d3)";
	return NULL;
}

/* vm-run's guest says the machine is there: its absence is a failure. */
static inline bool q35_required(void)
{
	const char *m = getenv("IOHOOK_MACHINE");

	return m && !strcmp(m, "q35");
}

/* Every program needs the kernel's iohook; a kernel without is a skip. */
#define IOHOOK_ABSENT "no " IOHOOK_SYS ": this kernel has no CONFIG_IOHOOK"

/*
 * Before the harness starts (from a constructor): end the program as
 * skipped, with the reason, unless the kernel has iohook and, if
 * @need_q35, this is the q35 machine; end it as failed where
 * q35_required() says the machine must be there. A whole program, not
 * a FIXTURE_SETUP, because 6.1's harness runs a test's body even after
 * its setup skipped.
 */
static inline void iohook_gate(bool need_q35)
{
	const char *why = IOHOOK_ABSENT;

	if (path_exists(IOHOOK_SYS))
		why = need_q35 ? q35_missing() : NULL;
	if (!why)
		return;
	ksft_print_header();
	if (q35_required())
		ksft_exit_fail_msg("IOHOOK_MACHINE=q35: %s\n", why);
	ksft_exit_skip("%s\n", why);
}

#endif /* IOHOOK_Q35_H */

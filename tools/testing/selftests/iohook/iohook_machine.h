/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The VM's machine, as the event and CLI kselftests use it: q35 root
 * ports 1 (00:1c.0, slot 1, with the e1000e at 01:00.0) and 2 (00:1d.0,
 * slot 2, empty); putting it back after a test; reading AER counters.
 */
#ifndef IOHOOK_MACHINE_H
#define IOHOOK_MACHINE_H

#include <net/if.h>

#include "iohook_util.h"

#define RP1	"0000:00:1c.0"
#define RP2	"0000:00:1d.0"
#define NIC	"0000:01:00.0"
#define ARMED	IOHOOK_SYS "/armed"
#define OVR(dev) PCI_DEVS "/" dev "/overrides"

/* Slot Status, Link Status and AER bits (uapi pci_regs.h names). */
#define SLTSTA_ABP	0x0001
#define SLTSTA_PDC	0x0008
#define SLTSTA_PDS	0x0040
#define SLTSTA_DLLSC	0x0100
#define LNKSTA_DLLLA	0x2000

static inline void clear_all(void)
{
	sysfs_write(OVR(RP1) "/remove", "all");
	sysfs_write(OVR(RP2) "/remove", "all");
	sysfs_write(OVR(NIC) "/remove", "all");
	sysfs_write(IOHOOK_SYS "/io/remove", "all");
	sysfs_write(IOHOOK_SYS "/mem/remove", "all");
	sysfs_write(IOHOOK_SYS "/pciconf/remove", "all");
}

static inline int cap_of(const char *bdf, int id, int type)
{
	struct pci_access *pacc = pci_open_sysfs();
	unsigned int dom, bus, dev, fn;
	struct pci_dev *d;
	int off = 0;

	d = NULL;
	if (sscanf(bdf, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4)
		d = pci_find(pacc, bus, dev, fn);
	if (d)
		off = pci_cap_offset(d, id, type);
	pci_cleanup(pacc);
	return off;
}

static inline long long link_carrier(const char *ifname)
{
	return sysfs_read_num("/sys/class/net/%s/carrier", ifname);
}

static inline bool nic_bound(void)
{
	char ifname[IFNAMSIZ];

	return path_exists(PCI_DEVS "/" NIC "/driver") && !pci_ifname(NIC, ifname, sizeof(ifname));
}

static inline bool in_lspci(const char *slot)
{
	char out[256];

	run_cmd(out, sizeof(out), "lspci -s %s 2>/dev/null", slot);
	return out[0] != 0;
}

/* Bring the e1000e up with carrier, rescanning or powering the slot if gone. */
static inline int nic_restore(void)
{
	char ifname[IFNAMSIZ], cmd[128];

	if (!path_exists(PCI_DEVS "/" NIC)) {
		WAIT_FOR(sysfs_write("/sys/bus/pci/slots/1/power", "1") == 0 ||
			 path_exists(PCI_DEVS "/" NIC), 5000);
		if (!WAIT_FOR(path_exists(PCI_DEVS "/" NIC), 10000))
			sysfs_write("/sys/bus/pci/rescan", "1");
	}
	if (!WAIT_FOR(nic_bound(), 15000))
		return -1;
	pci_ifname(NIC, ifname, sizeof(ifname));
	snprintf(cmd, sizeof(cmd), "ip link set %s up", ifname);
	if (system(cmd))
		return -1;
	return WAIT_FOR(link_carrier(ifname) == 1, 15000) ? 0 : -1;
}

static inline long long aer_counter(const char *bdf, const char *file, const char *key)
{
	char path[256], line[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), PCI_DEVS "/%s/%s", bdf, file);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		size_t n = strlen(key);

		if (!strncmp(line, key, n) && line[n] == ' ')
			v = atoll(line + n + 1);
	}
	if (f)
		fclose(f);
	return v;
}

#endif

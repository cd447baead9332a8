/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The VM's machine, as the event and CLI kselftests use it: q35 root
 * ports 1 (00:1c.0, slot 1, with the e1000e at 01:00.0) and 2 (00:1d.0,
 * slot 2, empty); putting it back after a test; reading AER counters;
 * running iohook(8).
 */
#ifndef IOHOOK_MACHINE_H
#define IOHOOK_MACHINE_H

#include <net/if.h>
#include <sys/wait.h>

#include "iohook_q35.h"

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
	iohook_sysfs_write(OVR(RP1) "/remove", "all");
	iohook_sysfs_write(OVR(RP2) "/remove", "all");
	iohook_sysfs_write(OVR(NIC) "/remove", "all");
	iohook_sysfs_write(IOHOOK_SYS "/io/remove", "all");
	iohook_sysfs_write(IOHOOK_SYS "/mem/remove", "all");
	iohook_sysfs_write(IOHOOK_SYS "/pciconf/remove", "all");
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
		off = iohook_pci_cap(d, id, type);
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
		WAIT_FOR(iohook_sysfs_write("/sys/bus/pci/slots/1/power", "1") == 0 ||
			 path_exists(PCI_DEVS "/" NIC), 5000);
		if (!WAIT_FOR(path_exists(PCI_DEVS "/" NIC), 10000))
			iohook_sysfs_write("/sys/bus/pci/rescan", "1");
	}
	if (!WAIT_FOR(nic_bound(), 15000))
		return -1;
	pci_ifname(NIC, ifname, sizeof(ifname));
	snprintf(cmd, sizeof(cmd), "ip link set %s up", ifname);
	if (system(cmd))
		return -1;
	return WAIT_FOR(link_carrier(ifname) == 1, 15000) ? 0 : -1;
}

/*
 * Every test starts from the same machine: no override, armed, the
 * e1000e bound with carrier; its interface name in @ifname. 0 or -1.
 */
static inline void find_cli(void);

static inline int machine_reset(char *ifname, size_t len)
{
	find_cli();
	clear_all();
	if (iohook_sysfs_write(ARMED, "1") || nic_restore())
		return -1;
	return pci_ifname(NIC, ifname, len) ? -1 : 0;
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

/* iohook(8): the one built next to the tests, else the one on PATH. */
static char cli_path[256] = "iohook";

/* iohook(8) next to this program, else the one on PATH. */
static inline void find_cli(void)
{
	char self[200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return;
	self[n] = 0;
	*strrchr(self, '/') = 0;
	snprintf(cli_path, sizeof(cli_path), "%s/iohook", self);
	if (access(cli_path, X_OK))
		snprintf(cli_path, sizeof(cli_path), "iohook");
}

/* Run @cmd with sh; all its output in @out; its exit status. */
static inline int run_shell(char *out, size_t len, const char *cmd)
{
	size_t n = 0;
	FILE *f;
	int st;

	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (n + 1 < len && fgets(out + n, len - n, f))
		n += strlen(out + n);
	out[n] = 0;
	while (fgetc(f) != EOF)
		;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run "[PREFIX] iohook ARGS" with stderr; all its output in @out; exit status. */
static inline int run(char *out, size_t len, const char *prefix, const char *fmt, va_list ap)
{
	char args[1024], cmd[1400];

	vsnprintf(args, sizeof(args), fmt, ap);
	snprintf(cmd, sizeof(cmd), "%s %s %s 2>&1", prefix, cli_path, args);
	return run_shell(out, len, cmd);
}

static inline int cli(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = run(out, len, "", fmt, ap);
	va_end(ap);
	return ret;
}

static inline int cli_as(const char *prefix, char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = run(out, len, prefix, fmt, ap);
	va_end(ap);
	return ret;
}

#endif

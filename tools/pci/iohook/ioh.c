// SPDX-License-Identifier: GPL-2.0
/*
 * ioh N add|remove: hot-add an I/O hub (a PCI host bridge, PNP0A08) that
 * the firmware describes but that is not there, with a function behind
 * it, or eject it, as the 2013 RFC did on Intel machines: play the
 * chipset register the firmware's GPE method reads, raise the GPE, and
 * let the kernel's ACPI and PCI code do the rest.
 *
 * The firmware side is scripts/firmware/q35-ioh-ssdt.asl (QEMU has none):
 * IOH N is \_SB.IOHN, its root buses start at 0xf0 + 8 * (N - 1), and its
 * registers are the block whose _UID is "IOH hotplug resources" (I/O
 * 0xee0): IOHS (+0), bit N-1 present, which _STA reads and _EJ0 clears;
 * IOHE (+1), write-1-to-clear events, bit 2(N-1) insert and the next one
 * remove, which GPE 0x10's method reads before it Notify()s the IOH.
 *
 * add: IOHS reads present (read-write, so that _EJ0's write makes the IOH
 * absent, as the hardware would), IOHE an insert event, and the function
 * at BUS:00.0 gets a config space (the absent-device overrides: a QEMU
 * test device, 1b36:0005, with a 64 KiB memory BAR); then the GPE. Done
 * when the kernel has added that function: its resource0 file is made by
 * pci_bus_add_device(), after the new bus's resources are assigned.
 * remove: an eject request; done when the kernel has removed the root
 * bus, called _EJ0 (the IOH reads absent) and released the bridge's
 * memory window. Then the overrides go.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iohook.h"

#define IOH_GPE		0x10
#define IOH_BUS0	0xf0
#define IOH_BUSES	8
#define IOHS		0
#define IOHE		1
#define PCICONF		IOHOOK_SYS "/pciconf"

/* The function behind the IOH: offset, length, value, mask, attribute. */
static const struct {
	unsigned int off, len;
	unsigned long value, mask;
	const char *attr;
} ioh_fn[] = {
	{ 0x00, 4, 0x00051b36, 0xffffffff, "ro" },	/* QEMU PCI test device */
	{ 0x04, 2, 0, 0xffff, "rw" },			/* command */
	{ 0x06, 2, 0, 0xffff, "ro" },			/* status: no capabilities */
	{ 0x08, 4, 0xff000000, 0xffffffff, "ro" },	/* class ff00, revision 0 */
	{ 0x0c, 4, 0, 0xffffffff, "ro" },		/* header type 0, one function */
	{ 0x10, 2, 0, 0xffff, "ro" },			/* BAR 0: 32-bit memory, */
	{ 0x12, 2, 0, 0xffff, "rw" },			/*   64 KiB */
	{ 0x14, 0xec, 0, 0xff, "ro" },			/* the rest: zeros, no INTx */
};

struct ioh {
	long n;
	char acpi[300];		/* its /sys/bus/acpi/devices directory */
	unsigned int bus;
	char bdf[16];		/* the function behind it */
};

/* The ACPI device of IOH @n, or false if the firmware has none. */
static bool ioh_find(struct ioh *h, long n)
{
	char want[16], path[320], buf[64];
	DIR *d = opendir("/sys/bus/acpi/devices");
	struct dirent *e;
	bool found = false;

	snprintf(want, sizeof(want), "\\_SB_.IOH%ld", n);
	while (d && !found && (e = readdir(d))) {
		if (strncmp(e->d_name, "PNP0A08:", 8))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/acpi/devices/%.32s/path", e->d_name);
		if (abi_read(path, buf, sizeof(buf)) > 0 && !strcmp(buf, want)) {
			snprintf(h->acpi, sizeof(h->acpi), "/sys/bus/acpi/devices/%.32s",
				 e->d_name);
			found = true;
		}
	}
	if (d)
		closedir(d);
	h->n = n;
	h->bus = IOH_BUS0 + IOH_BUSES * (n - 1);
	snprintf(h->bdf, sizeof(h->bdf), "0000:%02x:00.0", h->bus);
	return found;
}

/* _STA as the kernel evaluates it now: 15 present, 0 absent, -1 error. */
static long long ioh_status(const struct ioh *h)
{
	char path[320];

	snprintf(path, sizeof(path), "%s/status", h->acpi);
	return abi_read_num(path);
}

static bool ioh_added(const void *arg)
{
	const struct ioh *h = arg;
	char path[96];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource0", h->bdf);
	return ioh_status(h) == 15 && abi_exists(path);
}

/* Whether /proc/iomem still holds a window of root bus @bus. */
static bool ioh_window_claimed(unsigned int bus)
{
	char line[256], name[32];
	bool found = false;
	FILE *f = fopen("/proc/iomem", "r");

	snprintf(name, sizeof(name), ": PCI Bus 0000:%02x\n", bus);
	while (f && !found && fgets(line, sizeof(line), f))
		found = !!strstr(line, name);
	if (f)
		fclose(f);
	return found;
}

/*
 * Removed and ejected, and the bridge released: its windows go back
 * when its last reference does (patch 0005), which a kernel with
 * CONFIG_DEBUG_KOBJECT_RELEASE delays by seconds.
 */
static bool ioh_removed(const void *arg)
{
	const struct ioh *h = arg;
	char path[96];

	snprintf(path, sizeof(path), "/sys/class/pci_bus/0000:%02x", h->bus);
	return ioh_status(h) == 0 && !abi_exists(path) && !ioh_window_claimed(h->bus);
}

static void fn_name(const struct ioh *h, unsigned int off, char *name, size_t len)
{
	snprintf(name, len, "%s+%x", h->bdf, off);
}

static int fn_add(const struct ioh *h)
{
	char name[32], entry[96];
	size_t i;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(ioh_fn) && !err; i++) {
		fn_name(h, ioh_fn[i].off, name, sizeof(name));
		snprintf(entry, sizeof(entry), "%s %x %lx %lx %s", name, ioh_fn[i].len,
			 ioh_fn[i].value, ioh_fn[i].mask, ioh_fn[i].attr);
		err = ovr_add(PCICONF, name, entry);
	}
	return err;
}

static int fn_remove(const struct ioh *h)
{
	char name[32], path[96];
	size_t i;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(ioh_fn) && !err; i++) {
		fn_name(h, ioh_fn[i].off, name, sizeof(name));
		snprintf(path, sizeof(path), PCICONF "/%s", name);
		if (abi_exists(path))
			err = ovr_remove(PCICONF, name);
	}
	return err;
}

/* A byte register of the block, overridden whole. */
static int reg_add(unsigned long port, unsigned int value, const char *attr)
{
	char name[16], entry[48];

	snprintf(name, sizeof(name), "0x%lx", port);
	snprintf(entry, sizeof(entry), "%lx 1 %x ff %s", port, value, attr);
	return ovr_add(IOHOOK_SYS "/io", name, entry);
}

static int reg_remove(unsigned long port)
{
	char name[16], path[48];

	snprintf(name, sizeof(name), "0x%lx", port);
	snprintf(path, sizeof(path), IOHOOK_SYS "/io/%s", name);
	return abi_exists(path) ? ovr_remove(IOHOOK_SYS "/io", name) : 0;
}

int cmd_ioh(int argc, char **argv)
{
	unsigned long b = acpi_io_block("IOH hotplug resources", 0xee0);
	unsigned int present, event;
	long long t0, ms, gpe_ms;
	char desc[96], *end;
	struct ioh h;
	bool add;
	long n;
	int err, ret;

	if (argc != 3 || (strcmp(argv[2], "add") && strcmp(argv[2], "remove")))
		return EX_USAGE;
	add = !strcmp(argv[2], "add");
	n = strtol(argv[1], &end, 0);
	/* The layout's bus ranges (0xf0 + 8 * (N - 1)) leave room for two. */
	if (*end || n < 1 || n > 2) {
		fprintf(stderr, "%s: ioh: '%s' is not an IOH number (1-2)\n", prog, argv[1]);
		return EX_USAGE;
	}
	if (!ioh_find(&h, n)) {
		fprintf(stderr, "%s: ioh: the firmware declares no IOH %ld (\\_SB.IOH%ld; "
			"see scripts/firmware/q35-ioh-ssdt.asl)\n", prog, n, n);
		return EX_NODEV;
	}
	if ((ioh_status(&h) == 15) == add && !opt.force) {
		fprintf(stderr, "%s: ioh: IOH %ld is %s (-f forces)\n", prog, n,
			add ? "present" : "not present");
		return EX_BUSY;
	}
	present = 1u << (n - 1);
	event = 1u << (2 * (n - 1) + !add);
	err = 0;
	if (add) {
		err = fn_add(&h);
		if (!err)
			err = reg_add(b + IOHS, present, "rw");
	}
	if (!err)
		err = reg_add(b + IOHE, event, "wc");
	if (err) {
		undo_all();
		return err_exit("ioh", err);
	}
	t0 = now_ms();
	ret = gpe_raise(IOH_GPE, &gpe_ms, desc, sizeof(desc));
	if (ret)
		return ret;
	err = wait_for(add ? ioh_added : ioh_removed, &h, now_ms() + opt.timeout_ms);
	if (err) {
		undo_all();
		fprintf(stderr, "%s: ioh: the kernel did not %s IOH %ld in %d ms (see dmesg)\n",
			prog, add ? "add" : "remove", n, opt.timeout_ms);
		return EX_TIMEOUT;
	}
	ms = now_ms() - t0;
	/* The event is over; after a removal, so is the IOH and its function. */
	err = reg_remove(b + IOHE);
	if (!err && !add)
		err = reg_remove(b + IOHS);
	if (!err && !add)
		err = fn_remove(&h);
	if (err) {
		undo_all();
		return err_exit("ioh", err);
	}
	undo_forget();
	printf("ioh %ld: %s through GPE %d (I/O block %lx); ", n,
	       add ? "hot-add" : "eject request", IOH_GPE, b);
	if (add)
		printf("the kernel added root bus 0000:%02x with %s in %lld ms\n",
		       h.bus, h.bdf, ms);
	else
		printf("the kernel removed root bus 0000:%02x in %lld ms\n", h.bus, ms);
	return EX_OK;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Devices, capabilities, ports and interrupt vectors, found through
 * libpci and sysfs on whatever machine this runs on: no offset or bit of
 * one machine is written down here. Config reads go through the kernel
 * (libpci's sysfs method), so they see the overrides in force.
 */
#include <dirent.h>
#include <limits.h>
#include <pci/pci.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iohook.h"

static struct pci_access *pacc;

int pcie_open(void)
{
	pacc = pci_alloc();
	if (!pacc)
		return -1;
	pacc->method = PCI_ACCESS_SYS_BUS_PCI;
	pci_init(pacc);
	pci_scan_bus(pacc);
	return 0;
}

void pcie_close(void)
{
	if (pacc)
		pci_cleanup(pacc);
	pacc = NULL;
}

/* "[DDDD:]BB:DD.F" as lspci writes it. 0 or -1. */
int parse_bdf(const char *s, unsigned int *dom, unsigned int *bus,
	      unsigned int *dev, unsigned int *fn)
{
	char tail;

	*dom = 0;
	if (sscanf(s, "%x:%x:%x.%x%c", dom, bus, dev, fn, &tail) == 4)
		goto check;
	*dom = 0;
	if (sscanf(s, "%x:%x.%x%c", bus, dev, fn, &tail) == 3)
		goto check;
	return -1;
check:
	return *dom > 0xffff || *bus > 0xff || *dev > 0x1f || *fn > 7 ? -1 : 0;
}

struct pci_dev *pcie_get(const char *bdf)
{
	unsigned int dom, bus, dev, fn;
	struct pci_dev *d;

	if (parse_bdf(bdf, &dom, &bus, &dev, &fn))
		return NULL;
	for (d = pacc->devices; d; d = d->next)
		if (d->domain == (int)dom && d->bus == bus && d->dev == dev &&
		    d->func == fn) {
			pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CAPS |
				      PCI_FILL_EXT_CAPS);
			return d;
		}
	return NULL;
}

const char *pcie_name(struct pci_dev *d, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", d->domain, d->bus, d->dev,
		 d->func);
	return buf;
}

void ovr_dir(struct pci_dev *d, char *buf, size_t len)
{
	char name[16];

	snprintf(buf, len, PCI_DEVS "/%s/overrides", pcie_name(d, name, sizeof(name)));
}

/* Offset of the PCI Express capability, 0 if none. */
int pcie_cap(struct pci_dev *d)
{
	return iohook_pci_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
}

int pcie_aer_cap(struct pci_dev *d)
{
	return iohook_pci_cap(d, PCI_EXT_CAP_ID_AER, PCI_CAP_EXTENDED);
}

/* Device/Port type from the PCI Express Capabilities register, or -1. */
int pcie_type(struct pci_dev *d)
{
	int exp = pcie_cap(d);

	return exp ? (pci_read_word(d, exp + PCI_EXP_FLAGS) & PCI_EXP_FLAGS_TYPE) >> 4 : -1;
}

/*
 * The Root Port that receives @d's error messages: @d itself, or the
 * first ancestor in the sysfs device path that is one.
 */
struct pci_dev *pcie_root_port(struct pci_dev *d)
{
	char name[16], path[PATH_MAX], real[PATH_MAX], *p;
	struct pci_dev *up;

	snprintf(path, sizeof(path), PCI_DEVS "/%s", pcie_name(d, name, sizeof(name)));
	if (!realpath(path, real))
		return NULL;
	while ((p = strrchr(real, '/'))) {
		up = pcie_get(p + 1);
		if (up && pcie_type(up) == PCI_EXP_TYPE_ROOT_PORT)
			return up;
		*p = 0;
	}
	return NULL;
}

/*
 * The fire_irq vector that carries interrupt message @msg_num: with MSI
 * or MSI-X the message number is the vector index (as the PCIe port
 * driver allocates them); with INTx there is only vector 0.
 */
int pcie_vector(struct pci_dev *d, unsigned int msg_num)
{
	char name[16], path[256];
	struct dirent *e;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), PCI_DEVS "/%s/msi_irqs", pcie_name(d, name, sizeof(name)));
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((e = readdir(dir)))
		if (e->d_name[0] != '.')
			n++;
	closedir(dir);
	return n > (int)msg_num ? (int)msg_num : 0;
}

/*
 * The port of hotplug slot @slot: a name under /sys/bus/pci/slots (its
 * "address" is the secondary bus, DDDD:BB:DD), or the port's own BDF.
 */
struct pci_dev *pcie_slot_port(const char *slot, char *name, size_t len)
{
	unsigned int dom, bus, dev;
	char path[256], addr[64];
	struct pci_dev *d;

	if (strchr(slot, ':')) {
		d = pcie_get(slot);
		if (d)
			pcie_name(d, name, len);
		return d;
	}
	if (strchr(slot, '/') || strstr(slot, ".."))
		return NULL;
	snprintf(path, sizeof(path), PCI_SLOTS "/%s/address", slot);
	if (abi_read(path, addr, sizeof(addr)) <= 0 ||
	    sscanf(addr, "%x:%x:%x", &dom, &bus, &dev) != 3)
		return NULL;
	for (d = pacc->devices; d; d = d->next) {
		if (d->domain != (int)dom)
			continue;
		if ((pci_read_byte(d, PCI_HEADER_TYPE) & 0x7f) != PCI_HEADER_TYPE_BRIDGE)
			continue;
		if (pci_read_byte(d, PCI_SECONDARY_BUS) == bus)
			return pcie_get(pcie_name(d, name, len));
	}
	return NULL;
}

static bool slot_gone(const void *arg)
{
	return !iohook_slot_on_bus(arg);
}

/**
 * pcie_reenumerate() - remove a PCI function and rescan, so that the PCI
 *	core reads its capabilities again
 * @bdf: "DDDD:BB:DD.F"
 *
 * For a bridge, the rescan waits until the hotplug slot of its bus has
 * left sysfs (see iohook_slot_on_bus()).
 *
 * Return: 0, or a negative errno.
 */
int pcie_reenumerate(const char *bdf)
{
	char path[128], bus[16] = "";
	int ret;

	iohook_child_bus(bdf, bus, sizeof(bus));
	snprintf(path, sizeof(path), PCI_DEVS "/%s/remove", bdf);
	ret = abi_write(path, "1");
	if (!ret && bus[0])
		ret = wait_for(slot_gone, bus, now_ms() + 10000);
	if (!ret)
		ret = abi_write("/sys/bus/pci/rescan", "1");
	return ret;
}

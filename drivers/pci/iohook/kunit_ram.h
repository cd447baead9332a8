/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A RAM-backed stand-in for a device's registers, for the KUnit suites:
 * a buffer in the direct map whose physical address memory overrides
 * name, read and written through the real entry points the MMIO
 * accessors branch to (iohook_readl(), iohook_writel(), ...). The
 * access path runs whole: the virtual filter, the translation, the
 * store, the bit semantics and the "hardware" access, which here lands
 * in the buffer, so a test sees what a device would have been sent.
 */
#ifndef _DRIVERS_PCI_IOHOOK_KUNIT_RAM_H
#define _DRIVERS_PCI_IOHOOK_KUNIT_RAM_H

#include <kunit/test.h>
#include <linux/iohook.h>
#include <linux/pci.h>
#include <linux/types.h>

/* What the stand-in holds where nothing has written: no override's value. */
#define IOHOOK_RAM_FILL	0xee

struct iohook_ram {
	u8 *virt;
	u64 phys;
};

void iohook_ram_init(struct kunit *test, struct iohook_ram *ram);
u64 iohook_ram_read(const struct iohook_ram *ram, u64 off, unsigned int width);
void iohook_ram_write(const struct iohook_ram *ram, u64 off, unsigned int width,
		      u64 val);
u64 iohook_ram_peek(const struct iohook_ram *ram, u64 off, unsigned int width);
void iohook_ram_poke(const struct iohook_ram *ram, u64 off, unsigned int width,
		     u64 val);

int iohook_ram_add(const struct iohook_ram *ram, struct iohook_spec *specs,
		   unsigned int n);

/* The physical address of byte @off of the stand-in. */
static inline u64 iohook_ram_phys(const struct iohook_ram *ram, u64 off)
{
	return ram->phys + off;
}

/*
 * A PCI bus whose config space is RAM: one function's 4 KiB per devfn
 * in @cfg, in domain IOHOOK_RAM_DOMAIN (which no real device has). Its
 * ops fail every access with PCIBIOS_DEVICE_NOT_FOUND while @fail is
 * set, as a removed device's would.
 */
#define IOHOOK_RAM_DOMAIN	0xabcd

struct iohook_ram_bus {
	struct pci_bus bus;
	struct pci_ops ops;
	struct pci_sysdata sd;
	u8 cfg[2][4096];	/* devfn 0 and 1 */
	bool fail;
};

struct iohook_ram_bus *iohook_ram_bus_new(struct kunit *test);

/* store_test.c: every KUnit suite's exit. */
void iohook_kunit_clear(void);

#endif /* _DRIVERS_PCI_IOHOOK_KUNIT_RAM_H */

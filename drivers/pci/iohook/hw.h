/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hardware behind one access (accessors.c), as the access path and
 * the register models' kfuncs (model-bpf.c) reach it.
 */
#ifndef _DRIVERS_PCI_IOHOOK_HW_H
#define _DRIVERS_PCI_IOHOOK_HW_H

#include <linux/types.h>

struct pci_bus;

/*
 * The hardware behind one access, whatever its space: the plain
 * accessors and where they point. Config reads and writes return a
 * PCIBIOS_* code; MMIO and ports cannot fail.
 */
struct iohook_hw {
	int (*read)(const struct iohook_hw *hw, unsigned int width, u64 *val);
	int (*write)(const struct iohook_hw *hw, unsigned int width, u64 val);
	union {
		uintptr_t at;			/* MMIO address or port */
		struct {
			struct pci_bus *bus;
			unsigned int devfn;
			int pos;
		} cfg;
	};
};

#endif /* _DRIVERS_PCI_IOHOOK_HW_H */

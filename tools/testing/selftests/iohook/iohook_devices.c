// SPDX-License-Identifier: GPL-2.0
/*
 * iohook_devices - the VM has the hardware the iohook tests drive:
 * two PCIe root ports with hotplug slots at 00:1c.0 and 00:1d.0, and an
 * e1000e (8086:10d3) at 01:00.0 behind the first. Read through libpci's
 * sysfs access method, the same path lspci and setpci use.
 */
#include "iohook_q35.h"
#include "iohook_harness.h"

/* Every test here drives the q35 machine (iohook_q35.h). */
static void __attribute__((constructor)) need_q35(void)
{
	iohook_gate(true);
}

FIXTURE(pci)
{
	struct pci_access *pacc;
};

FIXTURE_SETUP(pci)
{
	self->pacc = pci_open_sysfs();
	ASSERT_NE(NULL, self->pacc);
}

FIXTURE_TEARDOWN(pci)
{
	pci_cleanup(self->pacc);
}

/* PCI Express capability: Device/Port Type, and Slot Implemented. */
static int pcie_port_type(struct pci_dev *d, int *slot)
{
	int cap = iohook_pci_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	unsigned int flags;

	if (!cap)
		return -1;
	flags = pci_read_word(d, cap + PCI_EXP_FLAGS);
	*slot = !!(flags & PCI_EXP_FLAGS_SLOT);
	return (flags & PCI_EXP_FLAGS_TYPE) >> 4;
}

TEST_F(pci, root_ports_with_slots)
{
	static const int devs[] = { 0x1c, 0x1d };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct pci_dev *d = pci_find(self->pacc, 0, devs[i], 0);
		int slot = 0;

		ASSERT_NE(NULL, d) TH_LOG("00:%02x.0 missing", devs[i]);
		pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_CAPS);
		EXPECT_EQ(PCI_CLASS_BRIDGE_PCI, d->device_class);
		EXPECT_EQ(PCI_EXP_TYPE_ROOT_PORT, pcie_port_type(d, &slot));
		EXPECT_EQ(1, slot);
	}
}

TEST_F(pci, e1000e_behind_first_port)
{
	struct pci_dev *rp = pci_find(self->pacc, 0, 0x1c, 0);
	struct pci_dev *d = pci_find(self->pacc, 1, 0, 0);

	ASSERT_NE(NULL, rp);
	ASSERT_NE(NULL, d) TH_LOG("01:00.0 missing");
	pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_BASES);
	EXPECT_EQ(0x8086, d->vendor_id);
	EXPECT_EQ(0x10d3, d->device_id);
	EXPECT_EQ(PCI_CLASS_NETWORK_ETHERNET, d->device_class);
	/* The first root port's secondary bus is the e1000e's. */
	EXPECT_EQ(1, pci_read_byte(rp, PCI_SECONDARY_BUS));
	/* BAR0 is a memory BAR, the one the MMIO tests override. */
	EXPECT_NE(0, d->base_addr[0] & PCI_ADDR_MEM_MASK);
	EXPECT_EQ(0, d->base_addr[0] & PCI_BASE_ADDRESS_SPACE_IO);
}

TEST_F(pci, second_slot_empty)
{
	struct pci_dev *rp = pci_find(self->pacc, 0, 0x1d, 0);
	int sec;

	ASSERT_NE(NULL, rp);
	sec = pci_read_byte(rp, PCI_SECONDARY_BUS);
	ASSERT_NE(0, sec);
	EXPECT_EQ(NULL, pci_find(self->pacc, sec, 0, 0));
}

TEST_HARNESS_MAIN

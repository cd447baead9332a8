/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Firing a device's interrupt (irq.c), for the fire_irq files.
 */
#ifndef _DRIVERS_PCI_IOHOOK_IRQ_H
#define _DRIVERS_PCI_IOHOOK_IRQ_H

struct pci_dev;

int iohook_fire_irq(unsigned int irq);
int iohook_fire_pci_vector(struct pci_dev *pdev, unsigned int index,
			   unsigned int *irq);

#endif

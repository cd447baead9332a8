// SPDX-License-Identifier: GPL-2.0
/*
 * Fire a device's interrupt so that its driver's handler runs
 * and finds the event that the overrides emulate.
 *
 * Edge interrupts (MSI, MSI-X, edge IO-APIC lines) go through
 * irq_inject_interrupt(), the core's injection interface.
 *
 * The core refuses level-triggered interrupts, because real hardware
 * re-asserts a level line by itself. An emulated event has no line to
 * hold, so for those iohook asks the interrupt chip to retrigger the
 * vector once, as the core does for edge interrupts: on x86 the vector
 * domain sends the vector to the target CPU as an IPI, the CPU takes it
 * through the normal entry path and flow handler (handle_fasteoi_irq()
 * for an IO-APIC line), the handler runs, and the EOI is sent to the
 * local APIC for that very vector. The IO-APIC sees no remote IRR for an
 * IPI-delivered vector; ioapic_ack_level() notices the missing TMR bit
 * and EOIs the IO-APIC pin explicitly, which is harmless. This is done
 * under the descriptor lock with interrupts off, and only for an
 * activated, enabled interrupt that has a handler.
 *
 * Like irq_inject_interrupt(), this is for testing only.
 */
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/msi.h>
#include <linux/pci.h>

#include "irq.h"

static int iohook_retrigger_level(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);
	struct irq_data *data;
	unsigned long flags;
	int ret = -EIO;

	if (!desc)
		return -EINVAL;
	data = irq_desc_get_irq_data(desc);
	raw_spin_lock_irqsave(&desc->lock, flags);
	if (desc->action && irqd_is_activated(data) &&
	    !irqd_irq_disabled(data)) {
		int done;

		if (data->chip && data->chip->irq_retrigger)
			done = data->chip->irq_retrigger(data);
		else
			done = irq_chip_retrigger_hierarchy(data);
		if (done)
			ret = 0;
	}
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	return ret;
}

/**
 * iohook_fire_irq() - make a Linux interrupt's handlers run once
 * @irq: Linux interrupt number
 *
 * Return: 0; -EINVAL if @irq does not exist; -EIO if the interrupt has no
 * handler, is not activated or is disabled, or its chip cannot retrigger.
 */
int iohook_fire_irq(unsigned int irq)
{
	struct irq_data *data = irq_get_irq_data(irq);
	struct irq_desc *desc = irq_to_desc(irq);

	if (!data || !desc)
		return -EINVAL;
	if (!desc->action)
		return -EIO;
	if (irqd_is_level_type(data))
		return iohook_retrigger_level(irq);
	return irq_inject_interrupt(irq) ? -EIO : 0;
}

/**
 * iohook_fire_pci_vector() - fire one of a PCI device's interrupt vectors
 * @pdev: the device
 * @index: vector index, as for pci_irq_vector(): MSI-X entry, MSI vector,
 *         or 0 for INTx
 * @irq: the Linux interrupt number fired
 *
 * Return: 0; -ENXIO if the device has no interrupt allocated; -ERANGE if
 * @index is not an allocated vector; otherwise as iohook_fire_irq().
 */
int iohook_fire_pci_vector(struct pci_dev *pdev, unsigned int index,
			   unsigned int *irq)
{
	int vec;

	if (!pdev->msi_enabled && !pdev->msix_enabled && !pdev->irq)
		return -ENXIO;
	vec = pci_irq_vector(pdev, index);
	if (vec < 0)
		return -ERANGE;
	if (!vec)
		return -ENXIO;
	*irq = vec;
	return iohook_fire_irq(vec);
}

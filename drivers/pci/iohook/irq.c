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
 * Lifetime: a driver may unbind and free its vectors while a fire is
 * under way. Everything that touches an interrupt descriptor runs under
 * irq_lock_sparse(), which keeps descriptors from being freed. The
 * per-device path looks the vector up first (pci_irq_vector() takes the
 * device's MSI lock, which nests outside the sparse lock), then checks
 * under the sparse lock that the interrupt still belongs to the device.
 *
 * Hazard, from irq_inject_interrupt()'s own documentation, and true of
 * the level path too: on x86 a fired vector can complete an interrupt
 * affinity change early and leave the interrupt on a stale vector. Do
 * not fire an interrupt while its affinity is being changed.
 *
 * Like irq_inject_interrupt(), this is for testing only.
 */
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/msi.h>
#include <linux/pci.h>

#include "irq.h"

/* Fire @irq; the caller holds irq_lock_sparse(). */
static int iohook_fire_locked(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);
	struct irq_data *data;
	unsigned long flags;
	bool ready, level;
	int done = 0;

	if (!desc)
		return -EINVAL;
	data = irq_desc_get_irq_data(desc);
	raw_spin_lock_irqsave(&desc->lock, flags);
	ready = desc->action && irqd_is_activated(data) &&
		!irqd_irq_disabled(data);
	level = irqd_is_level_type(data);
	if (ready && level) {
		if (data->chip && data->chip->irq_retrigger)
			done = data->chip->irq_retrigger(data);
		else
			done = irq_chip_retrigger_hierarchy(data);
	}
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	if (!ready)
		return -EIO;
	if (level)
		return done ? 0 : -EIO;
	return irq_inject_interrupt(irq) ? -EIO : 0;
}

/**
 * iohook_fire_irq() - make a Linux interrupt's handlers run once
 * @irq: Linux interrupt number
 *
 * Must be called in process context: it takes irq_lock_sparse().
 *
 * Return: 0; -EINVAL if @irq does not exist; -EIO if the interrupt has no
 * handler, is not activated or is disabled, or its chip cannot retrigger.
 */
int iohook_fire_irq(unsigned int irq)
{
	int ret;

	irq_lock_sparse();
	ret = iohook_fire_locked(irq);
	irq_unlock_sparse();
	return ret;
}

/*
 * Whether @irq is still @pdev's: an MSI or MSI-X vector of the device,
 * or its INTx line. The caller holds irq_lock_sparse(), under which a
 * live descriptor's MSI descriptor is not freed either.
 */
static bool iohook_irq_is_pdev(unsigned int irq, struct pci_dev *pdev)
{
	struct irq_desc *desc = irq_to_desc(irq);
	struct msi_desc *msi;

	if (!desc)
		return false;
	msi = irq_data_get_msi_desc(irq_desc_get_irq_data(desc));
	if (msi)
		return msi->dev == &pdev->dev;
	return irq == pdev->irq;
}

/**
 * iohook_fire_pci_vector() - fire one of a PCI device's interrupt vectors
 * @pdev: the device
 * @index: vector index, as for pci_irq_vector(): MSI-X entry, MSI vector,
 *         or 0 for INTx
 * @irq: the Linux interrupt number fired
 *
 * Must be called in process context.
 *
 * Return: 0; -ENXIO if the device has no interrupt allocated (or freed it
 * meanwhile); -ERANGE if @index is not an allocated vector; otherwise as
 * iohook_fire_irq().
 */
int iohook_fire_pci_vector(struct pci_dev *pdev, unsigned int index,
			   unsigned int *irq)
{
	int vec, ret;

	if (!pdev->msi_enabled && !pdev->msix_enabled && !pdev->irq)
		return -ENXIO;
	vec = pci_irq_vector(pdev, index);
	if (vec < 0)
		return -ERANGE;
	if (!vec)
		return -ENXIO;
	*irq = vec;
	irq_lock_sparse();
	/* The driver may have freed its vectors since pci_irq_vector(). */
	ret = iohook_irq_is_pdev(vec, pdev) ? iohook_fire_locked(vec) : -ENXIO;
	irq_unlock_sparse();
	return ret;
}

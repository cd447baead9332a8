// SPDX-License-Identifier: GPL-2.0
/*
 * hotplug SLOT|PORT ACTION: a PCI Express hotplug event, as the slot's
 * hardware would raise it. The port's Slot Status, Link Status and Slot
 * Control are found through its PCI Express capability; the slot's Slot
 * Capabilities say which actions it offers.
 *
 * The slot's state lives in overrides that stay after the event, so the
 * reverse action (or clear) restores it:
 *   - Slot Status: one override, 2 bytes, mask 0x16f (the change bits
 *     ABP PFD MRLSC PDC DLLSC are write-1-to-clear, as in hardware; the
 *     state bits MRLSS and PDS say what the slot holds);
 *   - Link Status DLLLA = 0 while the link is down;
 *   - config space reading all-ones for the functions of a removed card;
 *   - Slot Control's Power Indicator and Power Controller (bits 8-10),
 *     read-write, when the slot has a power controller: the driver's power
 *     changes land in the override, so the real slot stays powered and its
 *     card is still there when the reverse action brings it back.
 */
#include <errno.h>
#include <pci/pci.h>
#include <stdio.h>
#include <string.h>

#include "iohook.h"

#define STA_MASK	0x016f	/* ABP PFD MRLSC PDC MRLSS PDS DLLSC */

enum link { LINK_KEEP, LINK_DOWN, LINK_UP };

struct action {
	const char *name;
	const char *what;		/* for the closing line */
	uint32_t needs;			/* Slot Capabilities bits */
	bool needs_dlla;		/* Link Capabilities DLLLA Reporting */
	uint16_t change;		/* Slot Status change bits raised */
	uint16_t set, clear;		/* Slot Status state bits */
	enum link link;
	bool card_gone;			/* config space reads all-ones */
};

static const struct action actions[] = {
	{ "button", "attention button pressed", PCI_EXP_SLTCAP_ATNB, false,
	  PCI_EXP_SLTSTA_ATNB, 0, 0, LINK_KEEP, false },
	{ "present", "card present", PCI_EXP_SLTCAP_HPC, false,
	  PCI_EXP_SLTSTA_PRSD, PCI_EXP_SLTSTA_PRES, 0, LINK_UP, false },
	{ "surprise-removal", "card removed by surprise",
	  PCI_EXP_SLTCAP_HPC | PCI_EXP_SLTCAP_HPS, false,
	  PCI_EXP_SLTSTA_PRSD, 0, PCI_EXP_SLTSTA_PRES, LINK_DOWN, true },
	{ "link-down", "link down", 0, true,
	  PCI_EXP_SLTSTA_LLCHG, 0, 0, LINK_DOWN, false },
	{ "link-up", "link up", 0, true,
	  PCI_EXP_SLTSTA_LLCHG, 0, 0, LINK_UP, false },
	{ "power-fault", "power fault", PCI_EXP_SLTCAP_PWRC, false,
	  PCI_EXP_SLTSTA_PWRF, 0, 0, LINK_KEEP, false },
	{ "mrl-open", "MRL opened", PCI_EXP_SLTCAP_MRL, false,
	  PCI_EXP_SLTSTA_MRLS, PCI_EXP_SLTSTA_MRL_ST, 0, LINK_KEEP, false },
	{ "mrl-close", "MRL closed", PCI_EXP_SLTCAP_MRL, false,
	  PCI_EXP_SLTSTA_MRLS, 0, PCI_EXP_SLTSTA_MRL_ST, LINK_KEEP, false },
};

/* Mask of an existing override @dir/@name, -1 if there is none. */
static long long ovr_mask(const char *dir, const char *name)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s/mask", dir, name);
	return abi_exists(path) ? abi_read_hex(path) : -1;
}

/* Add "@name LEN VALUE MASK ATTR" unless our own override is there. */
static int ensure(const char *dir, const char *name, const char *entry,
		  long long mask)
{
	long long have = ovr_mask(dir, name);

	if (have == mask)
		return 0;
	if (have >= 0) {
		fprintf(stderr, "%s: %s/%s: an override is already in the way (mask %llx)\n",
			prog, dir, name, have);
		return -EEXIST;
	}
	return ovr_add(dir, name, entry);
}

/* The functions of the card behind the port read all-ones, or again not. */
static int card_config(struct pci_dev *port, bool gone)
{
	char name[64], entry[96];
	struct pci_dev *d;
	unsigned int sec = pci_read_byte(port, PCI_SECONDARY_BUS);
	unsigned int fn;
	int err;

	for (fn = 0; fn < 8; fn++) {
		bool present = false;

		for (d = port->access->devices; d; d = d->next)
			present |= d->domain == port->domain && d->bus == sec &&
				   d->dev == 0 && d->func == fn;
		snprintf(name, sizeof(name), "%04x:%02x:00.%x+0", port->domain, sec, fn);
		if (gone && present) {
			snprintf(entry, sizeof(entry), "%s 1000 ff ff ro", name);
			err = ensure(IOHOOK_SYS "/pciconf", name, entry, 0xff);
		} else if (!gone && ovr_mask(IOHOOK_SYS "/pciconf", name) == 0xff) {
			err = ovr_remove(IOHOOK_SYS "/pciconf", name);
		} else {
			err = 0;
		}
		if (err)
			return err;
	}
	return 0;
}

static int apply(struct pci_dev *port, int exp, const struct action *a,
		 uint16_t *raised)
{
	uint32_t sltcap = pci_read_long(port, exp + PCI_EXP_SLTCAP);
	uint32_t lnkcap = pci_read_long(port, exp + PCI_EXP_LNKCAP);
	uint16_t ctl = pci_read_word(port, exp + PCI_EXP_SLTCTL);
	uint16_t sta = pci_read_word(port, exp + PCI_EXP_SLTSTA);
	bool dlla = lnkcap & PCI_EXP_LNKCAP_DLLA;
	char dir[128], name[16], entry[64];
	int err;

	ovr_dir(port, dir, sizeof(dir));
	*raised = a->change;
	/* A card coming or going also changes the link, when it reports. */
	if (dlla && a->link != LINK_KEEP)
		*raised |= PCI_EXP_SLTSTA_LLCHG;

	if (sltcap & PCI_EXP_SLTCAP_PWRC) {
		snprintf(name, sizeof(name), "0x%x", exp + PCI_EXP_SLTCTL + 1);
		snprintf(entry, sizeof(entry), "%s 1 %x 7 rw", name, (ctl >> 8) & 7);
		err = ensure(dir, name, entry, 7);
		if (err)
			return err;
	}
	if (a->card_gone || a->link == LINK_UP) {
		err = card_config(port, a->card_gone);
		if (err)
			return err;
	}
	snprintf(name, sizeof(name), "0x%x", exp + PCI_EXP_LNKSTA);
	if (a->link == LINK_DOWN && dlla) {
		snprintf(entry, sizeof(entry), "%s 2 0 %x ro", name, PCI_EXP_LNKSTA_DL_ACT);
		err = ensure(dir, name, entry, PCI_EXP_LNKSTA_DL_ACT);
	} else if (a->link == LINK_UP && ovr_mask(dir, name) == PCI_EXP_LNKSTA_DL_ACT) {
		err = ovr_remove(dir, name);
	} else {
		err = 0;
	}
	if (err)
		return err;

	sta = ((sta & (PCI_EXP_SLTSTA_MRL_ST | PCI_EXP_SLTSTA_PRES)) | a->set) & ~a->clear;
	sta |= *raised;
	snprintf(name, sizeof(name), "0x%x", exp + PCI_EXP_SLTSTA);
	if (ovr_mask(dir, name) == STA_MASK)
		return ovr_set(dir, name, sta);
	snprintf(entry, sizeof(entry), "%s 2 %x %x wc", name, sta, STA_MASK);
	err = ensure(dir, name, entry, STA_MASK);
	return err;
}

int cmd_hotplug(int argc, char **argv)
{
	const struct action *a = NULL;
	char port_name[16], dir[128], name[16], fire[300], vec[8];
	struct pci_dev *port;
	uint32_t sltcap, lnkcap;
	uint16_t raised, ctl, flags;
	long long t0, deadline;
	size_t i;
	int exp, err;

	if (argc != 3)
		return EX_USAGE;
	for (i = 0; i < ARRAY_SIZE(actions); i++)
		if (!strcmp(argv[2], actions[i].name))
			a = &actions[i];
	if (!a) {
		fprintf(stderr, "%s: hotplug: unknown action '%s' (see iohook hotplug --help)\n",
			prog, argv[2]);
		return EX_USAGE;
	}
	port = pcie_slot_port(argv[1], port_name, sizeof(port_name));
	if (!port) {
		fprintf(stderr, "%s: hotplug: no such slot or port: %s\n", prog, argv[1]);
		return EX_NODEV;
	}
	exp = pcie_cap(port);
	flags = exp ? pci_read_word(port, exp + PCI_EXP_FLAGS) : 0;
	if (!(flags & PCI_EXP_FLAGS_SLOT)) {
		fprintf(stderr, "%s: hotplug: %s has no PCI Express slot\n", prog, port_name);
		return EX_NOCAP;
	}
	sltcap = pci_read_long(port, exp + PCI_EXP_SLTCAP);
	lnkcap = pci_read_long(port, exp + PCI_EXP_LNKCAP);
	if (!opt.force && ((sltcap & a->needs) != a->needs ||
			   (a->needs_dlla && !(lnkcap & PCI_EXP_LNKCAP_DLLA)))) {
		fprintf(stderr,
			"%s: hotplug: slot of %s does not offer %s (Slot Capabilities %08x, Link Capabilities %08x; -f forces)\n",
			prog, port_name, a->name, sltcap, lnkcap);
		return EX_NOCAP;
	}

	err = apply(port, exp, a, &raised);
	if (err) {
		undo_all();
		return err_exit("hotplug", err);
	}
	/*
	 * No interrupt unless the driver enabled hotplug interrupts (HPIE).
	 * The per-event enables are not checked, except for the MRL sensor:
	 * pciehp writes DLLSCE, but QEMU 7.2 does not implement it and its
	 * slots have an attention button, so pciehp leaves PDCE clear, yet it
	 * handles presence and link changes whenever its interrupt runs. It
	 * never handles MRL Sensor Changed, which stays latched.
	 */
	ctl = pci_read_word(port, exp + PCI_EXP_SLTCTL);
	if (!(ctl & PCI_EXP_SLTCTL_HPIE) ||
	    ((raised & PCI_EXP_SLTSTA_MRLS) && !(ctl & PCI_EXP_SLTCTL_MRLS))) {
		undo_forget();
		printf("slot %s (%s): %s; latched, not signalled: ", argv[1], port_name, a->what);
		printf("the driver has not enabled it (Slot Control %04x)\n", ctl);
		return EX_OK;
	}
	snprintf(fire, sizeof(fire), PCI_DEVS "/%s/fire_irq", port_name);
	snprintf(vec, sizeof(vec), "%d", pcie_vector(port, (flags & PCI_EXP_FLAGS_IRQ) >> 9));
	t0 = now_ms();
	err = abi_write(fire, vec);
	if (err) {
		undo_all();
		return err_exit("fire_irq", err);
	}
	ovr_dir(port, dir, sizeof(dir));
	snprintf(name, sizeof(name), "0x%x", exp + PCI_EXP_SLTSTA);
	deadline = t0 + opt.timeout_ms;
	if (wait_cleared(dir, name, raised, deadline)) {
		undo_all();
		fprintf(stderr,
			"%s: hotplug: the driver did not react in %d ms (Slot Status bits %04x still set on %s)\n",
			prog, opt.timeout_ms, raised, port_name);
		return EX_TIMEOUT;
	}
	undo_forget();
	if (opt.dry_run)
		printf("slot %s (%s): %s (dry run)\n", argv[1], port_name, a->what);
	else
		printf("slot %s (%s): %s; the driver handled it in %lld ms\n", argv[1],
		       port_name, a->what, now_ms() - t0);
	return EX_OK;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Extended capabilities a device lacks (ext-cap.c), and the Downstream
 * Port Containment that one of them brings (dpc.c).
 */
#ifndef _DRIVERS_PCI_IOHOOK_EXT_CAP_H
#define _DRIVERS_PCI_IOHOOK_EXT_CAP_H

#include <linux/iohook_model.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "model.h"

struct iohook_cap;
struct iohook_dpc;
struct pci_dev;

/* The largest emulated capability: DPC with RP Extensions and a log of 4. */
#define IOHOOK_CAP_MAX_DWORDS	12

/**
 * struct iohook_cap_type - one kind of emulated capability
 * @name: what the caps file calls it ("dpc")
 * @id: its extended capability ID
 * @version: its capability version
 * @init: lay out the registers from @opts (the rest of the add line);
 *	  sets @len and the registers' values and masks; may allocate
 * @read: a dword's value as read now, for registers that change by
 *	  themselves (RP Busy); with @lock held; NULL for none
 * @write: a write changed dword @reg from @old; side effects such as a
 *	   trigger or a release, with @lock held: queue work, never sleep
 * @destroy: undo @init, after the capability left the access path
 */
struct iohook_cap_type {
	const char *name;
	u16 id;
	u8 version;
	int (*init)(struct iohook_cap *cap, char *opts);
	u32 (*read)(struct iohook_cap *cap, unsigned int reg, u32 val);
	void (*write)(struct iohook_cap *cap, unsigned int reg, u32 old,
		      u32 val, u32 written);
	void (*destroy)(struct iohook_cap *cap);
};

/**
 * struct iohook_cap - an extended capability made up for one function
 * @node: in iohook_caps, under iohook_cap_mutex
 * @type: what it is
 * @domain: the function's domain
 * @bus: its bus number
 * @devfn: its device and function
 * @name: "DDDD:BB:DD.F"
 * @offset: where the capability's header is
 * @len: its length in bytes
 * @prev: the header whose next pointer now names @offset (0: the list was
 *	  empty and @offset is 0x100)
 * @prev_next: that header's next pointer as the hardware has it
 * @visible: whether config space shows it: false while the function the
 *	     PCI core enumerated without it is still there (its cached
 *	     capability offsets would be wrong), true from its removal on
 * @lock: protects @regs, from the access path
 * @regs: the registers' values
 * @rw: per dword, the bits a write sets
 * @w1c: per dword, the bits a write of 1 clears
 * @owner: what its models are bound through
 * @regs_model: answers for the capability's own range
 * @link_model: answers for the dword at @prev
 * @dpc: the DPC state, for a DPC capability
 */
struct iohook_cap {
	struct list_head node;
	const struct iohook_cap_type *type;
	u32 domain;
	u8 bus;
	u8 devfn;
	char name[20];
	u16 offset;
	u16 len;
	u16 prev;
	u16 prev_next;
	bool visible;
	raw_spinlock_t lock;
	u32 regs[IOHOOK_CAP_MAX_DWORDS];
	u32 rw[IOHOOK_CAP_MAX_DWORDS];
	u32 w1c[IOHOOK_CAP_MAX_DWORDS];
	struct iohook_model_owner owner;
	struct iohook_model_ops regs_model;
	struct iohook_model_ops link_model;
	struct iohook_dpc *dpc;
};

extern struct mutex iohook_cap_mutex;
extern struct list_head iohook_caps;
extern const struct iohook_cap_type iohook_cap_dpc;

int iohook_cap_parse_bdf(const char *s, u32 *domain, u8 *bus, u8 *devfn);
struct iohook_cap *iohook_cap_find(u32 domain, u8 bus, u8 devfn, u16 id);
struct pci_dev *iohook_cap_device(const struct iohook_cap *cap);
int iohook_cap_add(char *line);
int iohook_cap_remove(char *line);
ssize_t iohook_cap_show(char *buf);

/* dpc.c */
int iohook_dpc_trigger_line(char *line);
ssize_t iohook_dpc_show(char *buf);

#endif

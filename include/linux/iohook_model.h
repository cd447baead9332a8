/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iohook_model.h - register models: BPF programs that answer for a range
 * of registers, as a device would.
 *
 * A model is a struct iohook_model_ops that a BPF struct_ops map fills
 * in. Once registered (the map is attached), it is bound to one range of
 * one space through sysfs (a device's overrides/models file, or the
 * global spaces' ones), and from then on, while iohook is armed, it sees
 * every access whose first byte is in that range: it can answer a read,
 * let it go to the hardware, change or swallow a write, read and write
 * the real hardware behind the access and fire the device's interrupt,
 * through the kfuncs in drivers/pci/iohook/model-bpf.c.
 *
 * A model stands in for the hardware: static overrides on the same bits
 * apply on top of what it answers, exactly as they apply on top of the
 * hardware. See Documentation/PCI/iohook.rst, "Register models".
 */
#ifndef _LINUX_IOHOOK_MODEL_H
#define _LINUX_IOHOOK_MODEL_H

#include <linux/iohook.h>
#include <linux/types.h>

struct iohook_hw;
struct iohook_model;

/* A model's name: what sysfs and iohook(8) call it. */
#define IOHOOK_MODEL_NAME_LEN	32

/**
 * enum iohook_model_ret - what a model's read or write op returns
 * @IOHOOK_MODEL_PASS: read: the access gets the hardware's value (read
 *	once, even if the model read it too); write: the hardware gets the
 *	value, or the one the model set with bpf_iohook_set_value(), unless
 *	the model wrote the hardware itself
 * @IOHOOK_MODEL_DONE: read: the access gets the value the model set with
 *	bpf_iohook_set_value(); write: the model has dealt with it (swallowed
 *	it, or written the hardware itself)
 *
 * Anything else (a negative errno, or DONE on a read without a value) is
 * the model's failure: the access gets the hardware, as with PASS, and
 * the model's error counter counts it.
 */
enum iohook_model_ret {
	IOHOOK_MODEL_PASS = 0,
	IOHOOK_MODEL_DONE = 1,
};

/* Bits of struct iohook_model_ctx's @context. */
#define IOHOOK_MODEL_CTX_HARDIRQ	0x1	/* in a hard interrupt */
#define IOHOOK_MODEL_CTX_SOFTIRQ	0x2	/* serving a softirq */
#define IOHOOK_MODEL_CTX_IRQS_OFF	0x4	/* interrupts disabled */

/**
 * struct iohook_model_ctx - one access, as a model sees it
 * @offset: the access's offset from the start of the model's range
 * @addr: its address in its space (config space: iohook_pci_addr())
 * @val: a write's value; 0 for a read
 * @len: the length of the model's range, in bytes
 * @width: the access's width in bytes, 1, 2, 4 or 8; 0 in attach and
 *	   detach, which no access calls
 * @space: its space, an enum iohook_space
 * @context: where the access runs: IOHOOK_MODEL_CTX_* bits
 * @out: private: the value set by bpf_iohook_set_value()
 * @hw_val: private: the hardware's value, once read
 * @hw_err: private: the hardware's error, 0 or a PCIBIOS_* code
 * @flags: private: IOHOOK_CTX_* flags
 * @hw: private: the hardware behind the access
 * @model: private: the model
 *
 * Programs read the public fields; the private ones belong to the kfuncs.
 */
struct iohook_model_ctx {
	u64 offset;
	u64 addr;
	u64 val;
	u64 len;
	u32 width;
	u32 space;
	u32 context;
	u64 out;
	u64 hw_val;
	int hw_err;
	u32 flags;
	const struct iohook_hw *hw;
	struct iohook_model *model;
};

/**
 * struct iohook_model_ops - a register model
 * @attach: called when the model is bound to its range, before any
 *	    access reaches it; non-zero refuses the binding
 * @detach: called when it is unbound, after the last access left it
 * @read: a read whose first byte is in the range; returns an
 *	  enum iohook_model_ret
 * @write: a write whose first byte is in the range; the same
 * @name: the model's name, unique among registered models
 *
 * Every op is optional: a model without @read lets reads through. The
 * ops run in the context of the access (hard interrupts, raw spinlocks
 * held, interrupts off), never in NMI: there the hardware answers and the
 * model's nmi counter counts it. The verifier makes them unable to sleep.
 */
struct iohook_model_ops {
	int (*attach)(struct iohook_model_ctx *ctx);
	void (*detach)(struct iohook_model_ctx *ctx);
	int (*read)(struct iohook_model_ctx *ctx);
	int (*write)(struct iohook_model_ctx *ctx);
	char name[IOHOOK_MODEL_NAME_LEN];
};

#ifdef CONFIG_IOHOOK_MODEL
/* In-kernel binding of a registered model (sysfs binds through "models"). */
int iohook_model_attach(const char *name, enum iohook_space space, u64 first,
			u64 last);
int iohook_model_detach(const char *name);
#endif

#endif /* _LINUX_IOHOOK_MODEL_H */

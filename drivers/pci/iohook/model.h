/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register models (model.c): the registry of models the BPF side
 * registers (model-bpf.c), their binding to a range of one space, and
 * the access path's way into them.
 *
 * The access path sees a bound model as the hardware: iohook_model_wrap()
 * puts a struct iohook_hw in front of the real one, whose read and write
 * run the model's ops, so the overrides apply on top of a model exactly
 * as on top of a device, and nothing else in accessors.c changes.
 */
#ifndef _DRIVERS_PCI_IOHOOK_MODEL_H
#define _DRIVERS_PCI_IOHOOK_MODEL_H

#include <linux/atomic.h>
#include <linux/iohook.h>
#include <linux/iohook_model.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/maple_tree.h>
#include <linux/workqueue.h>

#include "hw.h"
#include "space.h"

struct pci_dev;

/* Private flags of struct iohook_model_ctx. */
#define IOHOOK_CTX_OUT		0x1	/* bpf_iohook_set_value() was called */
#define IOHOOK_CTX_HW_READ	0x2	/* @hw_val holds the hardware's value */
#define IOHOOK_CTX_HW_WRITTEN	0x4	/* the model wrote the hardware */

/* Longest location name a binding keeps: "bar5+ffffffffffffffff". */
#define IOHOOK_MODEL_WHERE_LEN	24

/*
 * The vectors a model can ask to fire: requests for different vectors
 * are kept apart until fired (a multi-queue model completes on several).
 */
#define IOHOOK_MODEL_VECTORS	256

/**
 * struct iohook_model_owner - what models are bound through
 * @closed: it is going away (its device is being removed): nothing binds
 *	    through it any more
 *
 * A sysfs directory embeds one; a binding names its owner, and unbinding
 * an owner's models closes it, under the registry's mutex, so that a
 * writer that resolved a location before the device went cannot bind
 * after its models were unbound.
 */
struct iohook_model_owner {
	bool closed;
};

/**
 * struct iohook_model - a registered model, and its binding
 * @ops: the ops, the BPF map's kernel copy; lives until unregistered
 * @node: in the registry, under iohook_model_mutex
 * @bound: whether it is in a space's models tree
 * @space: the space of its range, while bound
 * @first: the range's first address, while bound
 * @last: the range's last address, while bound
 * @owner: what it was bound through (a sysfs directory)
 * @pdev: the device that directory is for (a reference), or NULL
 * @where: the range's start as that directory names it
 * @reads: reads it answered or let through
 * @writes: writes it saw
 * @errors: accesses where it failed (the hardware answered)
 * @nmi: accesses made in NMI, which it never sees
 * @nested: accesses made while a model's op ran in the same context of
 *	    the same CPU (a helper reaching a hooked register), which the
 *	    hardware answered
 * @irqs: interrupts it fired
 * @irq_pending: the vectors bpf_iohook_fire_irq() asked for, not fired yet
 * @irq_work: leaves the access's context for @irq_fire
 * @irq_fire: fires the pending vectors from process context
 *
 * The access path reaches it through the models tree, under RCU:
 * unbinding waits for a grace period before anything here is freed or
 * @pdev let go.
 */
struct iohook_model {
	const struct iohook_model_ops *ops;
	struct list_head node;
	bool bound;
	enum iohook_space space;
	u64 first;
	u64 last;
	const struct iohook_model_owner *owner;
	struct pci_dev *pdev;
	char where[IOHOOK_MODEL_WHERE_LEN];
	atomic64_t reads;
	atomic64_t writes;
	atomic64_t errors;
	atomic64_t nmi;
	atomic64_t nested;
	atomic64_t irqs;
	DECLARE_BITMAP(irq_pending, IOHOOK_MODEL_VECTORS);
	struct irq_work irq_work;
	struct work_struct irq_fire;
};

/*
 * A model standing in for the hardware of one access: its read and
 * write run the model, which reaches @real through the kfuncs.
 */
struct iohook_model_hw {
	struct iohook_hw hw;
	const struct iohook_hw *real;
	struct iohook_model *model;
	enum iohook_space space;
	u64 addr;
};

#ifdef CONFIG_IOHOOK_MODEL

const struct iohook_hw *iohook_model_hw_init(struct iohook_model_hw *mhw,
					     struct iohook_model *m,
					     enum iohook_space space, u64 addr,
					     const struct iohook_hw *real);

/*
 * The hardware of an access at @addr in @space: @real, or the model
 * bound there in front of it. The caller holds rcu_read_lock() and
 * keeps it while it uses the result. One load when no model is bound.
 */
static inline const struct iohook_hw *
iohook_model_wrap(enum iohook_space space, u64 addr,
		  const struct iohook_hw *real, struct iohook_model_hw *mhw)
{
	struct maple_tree *mt = &iohook_spaces[space].models;
	struct iohook_model *m;

	if (likely(mtree_empty(mt)))
		return real;
	m = mtree_load(mt, addr);
	return m ? iohook_model_hw_init(mhw, m, space, addr, real) : real;
}

/* The kfuncs (model-bpf.c): called by models' BPF programs only. */
u64 bpf_iohook_hw_read(struct iohook_model_ctx *ctx);
int bpf_iohook_hw_write(struct iohook_model_ctx *ctx, u64 val);
void bpf_iohook_set_value(struct iohook_model_ctx *ctx, u64 val);
int bpf_iohook_fire_irq(struct iohook_model_ctx *ctx, u32 vector);
u64 bpf_iohook_clock_ns(void);

bool iohook_model_name_ok(const char *name);
bool iohook_model_is_registered(const char *name);
int iohook_model_register(const struct iohook_model_ops *ops);
void iohook_model_unregister(const struct iohook_model_ops *ops);
int iohook_model_queue_irq(struct iohook_model *m, unsigned int vector);

int iohook_model_bind(const char *name, enum iohook_space space, u64 first,
		      u64 last, struct pci_dev *pdev,
		      struct iohook_model_owner *owner, const char *where);
int iohook_model_unbind(const char *name,
			const struct iohook_model_owner *owner);
void iohook_model_close_owner(struct iohook_model_owner *owner);
ssize_t iohook_model_show(char *buf, const struct iohook_model_owner *owner);

#else

static inline const struct iohook_hw *
iohook_model_wrap(enum iohook_space space, u64 addr,
		  const struct iohook_hw *real, struct iohook_model_hw *mhw)
{
	return real;
}

static inline int iohook_model_bind(const char *name, enum iohook_space space,
				    u64 first, u64 last, struct pci_dev *pdev,
				    struct iohook_model_owner *owner,
				    const char *where)
{
	return -EOPNOTSUPP;
}

static inline int iohook_model_unbind(const char *name,
				      const struct iohook_model_owner *owner)
{
	return -EOPNOTSUPP;
}

static inline void iohook_model_close_owner(struct iohook_model_owner *owner)
{
}

static inline ssize_t iohook_model_show(char *buf,
					const struct iohook_model_owner *owner)
{
	return 0;
}

#endif /* CONFIG_IOHOOK_MODEL */

#endif /* _DRIVERS_PCI_IOHOOK_MODEL_H */

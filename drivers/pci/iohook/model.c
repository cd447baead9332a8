// SPDX-License-Identifier: GPL-2.0
/*
 * Register models: the registry, the binding of a model to a range, and
 * the two functions the access path calls instead of the hardware.
 *
 * A model is registered when its BPF struct_ops map is attached
 * (model-bpf.c) and bound to one range through sysfs. Bound models live
 * in their space's models tree, which the access path reads under RCU,
 * and count in the space's filter and static key like overrides, so that
 * nothing changes for an access no model or override covers.
 *
 * Locking: iohook_model_mutex serialises the registry and the bindings;
 * it is taken before iohook_lock() (the CPU-hotplug lock, then the
 * store's), never inside it. Unbinding waits for a grace period, so no
 * access is still in a model when its detach op runs or it is freed;
 * then it waits for the interrupts the model asked for, which detach
 * cannot add to (the kfuncs refuse a context without an access).
 *
 * A model never runs in NMI, nor inside another model's op in the same
 * context of the same CPU: what an op calls might reach a hooked
 * register (a C model's code; for BPF, the ktime helpers did, through
 * the clocksource, until model-bpf.c refused them), and struct_ops
 * programs have no recursion guard of their own. There the hardware
 * answers, and the model's nmi or nested counter says how often.
 */
#include <linux/export.h>
#include <linux/bitops.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "arm.h"
#include "emulate.h"
#include "irq.h"
#include "model.h"

static DEFINE_MUTEX(iohook_model_mutex);
static LIST_HEAD(iohook_models);

/*
 * Whether a model's op runs on this CPU, per interrupt context level
 * (task, softirq, hardirq; NMI never runs one): an interrupt may still
 * use a model while the task it interrupted is in one, but an access
 * that a model's own op makes, directly or through a helper, goes to
 * the hardware.
 */
static DEFINE_PER_CPU(bool [3], iohook_model_running);

static struct iohook_model *iohook_model_by_name(const char *name)
{
	struct iohook_model *m;

	lockdep_assert_held(&iohook_model_mutex);
	list_for_each_entry(m, &iohook_models, node)
		if (!strcmp(m->ops->name, name))
			return m;
	return NULL;
}

/* The context of one access, or of attach and detach (@hw NULL). */
static void iohook_model_ctx_init(struct iohook_model_ctx *ctx,
				  struct iohook_model *m, u64 addr,
				  unsigned int width, const struct iohook_hw *hw)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->offset = addr - m->first;
	ctx->addr = addr;
	ctx->len = m->last - m->first + 1;
	ctx->width = width;
	ctx->space = m->space;
	ctx->context = (in_hardirq() ? IOHOOK_MODEL_CTX_HARDIRQ : 0) |
		       (in_serving_softirq() ? IOHOOK_MODEL_CTX_SOFTIRQ : 0) |
		       (irqs_disabled() ? IOHOOK_MODEL_CTX_IRQS_OFF : 0);
	ctx->hw = hw;
	ctx->model = m;
}

/* The hardware's value for a model that passed, reading it at most once. */
static int iohook_model_hw_value(const struct iohook_model_ctx *ctx,
				 u64 *val)
{
	if (ctx->flags & IOHOOK_CTX_HW_READ) {
		*val = ctx->hw_val;
		return ctx->hw_err;
	}
	return ctx->hw->read(ctx->hw, ctx->width, val);
}

/*
 * Count an access and set up its context; false if the hardware takes
 * it unchanged: in NMI or inside a model's op (each counted as such), or
 * with no op for it. After true, the caller runs the op and then calls
 * iohook_model_end(); preemption stays off in between, which the op,
 * unable to sleep, does not mind.
 */
static bool iohook_model_begin(const struct iohook_model_hw *mhw,
			       unsigned int width, bool write,
			       struct iohook_model_ctx *ctx)
{
	struct iohook_model *m = mhw->model;
	bool *running;

	if (in_nmi()) {
		atomic64_inc(&m->nmi);
		return false;
	}
	atomic64_inc(write ? &m->writes : &m->reads);
	if (!(write ? m->ops->write : m->ops->read))
		return false;
	preempt_disable();
	running = this_cpu_ptr(&iohook_model_running[interrupt_context_level()]);
	if (*running) {
		preempt_enable();
		atomic64_inc(&m->nested);
		return false;
	}
	*running = true;
	iohook_model_ctx_init(ctx, m, mhw->addr, width, mhw->real);
	return true;
}

static void iohook_model_end(void)
{
	this_cpu_write(iohook_model_running[interrupt_context_level()], false);
	preempt_enable();
}

static int iohook_model_read(const struct iohook_hw *hw, unsigned int width,
			     u64 *val)
{
	const struct iohook_model_hw *mhw =
		container_of(hw, struct iohook_model_hw, hw);
	struct iohook_model *m = mhw->model;
	struct iohook_model_ctx ctx;
	int ret;

	if (!iohook_model_begin(mhw, width, false, &ctx))
		return mhw->real->read(mhw->real, width, val);
	ret = m->ops->read(&ctx);
	iohook_model_end();
	if (ret == IOHOOK_MODEL_DONE && (ctx.flags & IOHOOK_CTX_OUT)) {
		*val = ctx.out & iohook_width_mask(width);
		return 0;
	}
	if (ret != IOHOOK_MODEL_PASS)
		atomic64_inc(&m->errors);
	return iohook_model_hw_value(&ctx, val);
}

static int iohook_model_write(const struct iohook_hw *hw, unsigned int width,
			      u64 val)
{
	const struct iohook_model_hw *mhw =
		container_of(hw, struct iohook_model_hw, hw);
	struct iohook_model *m = mhw->model;
	struct iohook_model_ctx ctx;
	int ret;

	if (!iohook_model_begin(mhw, width, true, &ctx))
		return mhw->real->write(mhw->real, width, val);
	ctx.val = val;
	ret = m->ops->write(&ctx);
	iohook_model_end();
	if (ret != IOHOOK_MODEL_PASS && ret != IOHOOK_MODEL_DONE) {
		atomic64_inc(&m->errors);
		ctx.flags &= ~IOHOOK_CTX_OUT;
		ret = IOHOOK_MODEL_PASS;
	}
	if (ctx.flags & IOHOOK_CTX_HW_WRITTEN)
		return ctx.hw_err;
	if (ret == IOHOOK_MODEL_DONE)
		return 0;
	if (ctx.flags & IOHOOK_CTX_OUT)
		val = ctx.out & iohook_width_mask(width);
	return mhw->real->write(mhw->real, width, val);
}

/**
 * iohook_model_hw_init() - put a model in front of one access's hardware
 * @mhw: where to build it, on the caller's stack
 * @m: the model bound at @addr
 * @space: the access's space
 * @addr: its address
 * @real: the hardware behind it
 *
 * Return: the hardware the access path is to use, valid as long as the
 * caller's RCU read section.
 */
const struct iohook_hw *iohook_model_hw_init(struct iohook_model_hw *mhw,
					     struct iohook_model *m,
					     enum iohook_space space, u64 addr,
					     const struct iohook_hw *real)
{
	mhw->hw.read = iohook_model_read;
	mhw->hw.write = iohook_model_write;
	mhw->real = real;
	mhw->model = m;
	mhw->space = space;
	mhw->addr = addr;
	return &mhw->hw;
}

/* Fire the vectors a model asked for, where firing may sleep. */
static void iohook_model_fire(struct work_struct *work)
{
	struct iohook_model *m = container_of(work, struct iohook_model,
					      irq_fire);
	unsigned int vector, irq;

	for_each_set_bit(vector, m->irq_pending, IOHOOK_MODEL_VECTORS)
		if (test_and_clear_bit(vector, m->irq_pending) && m->pdev &&
		    !iohook_fire_pci_vector(m->pdev, vector, &irq))
			atomic64_inc(&m->irqs);
}

static void iohook_model_irq_work(struct irq_work *work)
{
	struct iohook_model *m = container_of(work, struct iohook_model,
					      irq_work);

	schedule_work(&m->irq_fire);
}

/**
 * iohook_model_queue_irq() - fire a bound model's device interrupt, later
 * @m: the model, bound to a device's range
 * @vector: the MSI-X or MSI vector index, 0 for INTx
 *
 * Callable from the access's context only (not from attach or detach,
 * which unbinding does not wait for): an irq_work leaves it, and a work
 * item fires the vector as the fire_irq file does. Requests for one
 * vector made before it was fired coalesce, as edge interrupts do;
 * requests for different vectors each fire.
 *
 * Return: 0, -ENODEV if the model's range is not a device's, or -ERANGE
 * if @vector is IOHOOK_MODEL_VECTORS or more.
 */
int iohook_model_queue_irq(struct iohook_model *m, unsigned int vector)
{
	if (!m->pdev)
		return -ENODEV;
	if (vector >= IOHOOK_MODEL_VECTORS)
		return -ERANGE;
	set_bit(vector, m->irq_pending);
	irq_work_queue(&m->irq_work);
	return 0;
}

/**
 * iohook_model_name_ok() - whether a model may be called @name
 * @name: a NUL-terminated name, of letters, digits, '_' and '.'
 *
 * iohook(8) pins a model's maps in a directory of that name, so "." and
 * "..", and any name that starts with a dot, are refused.
 *
 * Return: true if @name is not empty and does not start with a dot.
 */
bool iohook_model_name_ok(const char *name)
{
	return name[0] && name[0] != '.';
}

/**
 * iohook_model_is_registered() - whether a model of that name is known
 * @name: the name
 *
 * For the BPF side to refuse a duplicate when the map is filled in,
 * before registration. Registration checks again, under the mutex.
 *
 * Return: true if a model called @name is registered.
 */
bool iohook_model_is_registered(const char *name)
{
	bool found;

	mutex_lock(&iohook_model_mutex);
	found = iohook_model_by_name(name);
	mutex_unlock(&iohook_model_mutex);
	return found;
}

/**
 * iohook_model_register() - make a model known, unbound
 * @ops: its ops, with a unique name; the model keeps the pointer
 *
 * Return: 0, -EEXIST if a model of that name is registered, or -ENOMEM.
 */
int iohook_model_register(const struct iohook_model_ops *ops)
{
	struct iohook_model *m;
	int ret = 0;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->ops = ops;
	init_irq_work(&m->irq_work, iohook_model_irq_work);
	INIT_WORK(&m->irq_fire, iohook_model_fire);
	mutex_lock(&iohook_model_mutex);
	if (iohook_model_by_name(ops->name))
		ret = -EEXIST;
	else
		list_add_tail(&m->node, &iohook_models);
	mutex_unlock(&iohook_model_mutex);
	if (ret)
		kfree(m);
	return ret;
}

/* Wait until no interrupt request of @m is queued or firing. */
static void iohook_model_irq_sync(struct iohook_model *m)
{
	irq_work_sync(&m->irq_work);
	cancel_work_sync(&m->irq_fire);
	bitmap_zero(m->irq_pending, IOHOOK_MODEL_VECTORS);
}

/* Take a bound model out of the access path, then tell it. */
static void iohook_model_unbind_locked(struct iohook_model *m)
{
	struct iohook_model_ctx ctx;

	lockdep_assert_held(&iohook_model_mutex);
	iohook_lock();
	mtree_erase(&iohook_spaces[m->space].models, m->first);
	iohook_space_count(m->space, m->first, m->last, -1);
	iohook_update_keys();
	iohook_unlock();
	/* No access is in the model after this, nor can one find it. */
	synchronize_rcu();
	if (m->ops->detach) {
		iohook_model_ctx_init(&ctx, m, m->first, 0, NULL);
		m->ops->detach(&ctx);
	}
	/*
	 * Only accesses queue interrupts (the kfuncs refuse detach's
	 * context): after the grace period, the last request is queued.
	 * Requests not fired yet are dropped, with the device.
	 */
	iohook_model_irq_sync(m);
	pci_dev_put(m->pdev);
	m->pdev = NULL;
	m->owner = NULL;
	m->bound = false;
}

/**
 * iohook_model_unregister() - forget a model, unbinding it first
 * @ops: the ops it was registered with
 *
 * Returns once no access is in the model.
 */
void iohook_model_unregister(const struct iohook_model_ops *ops)
{
	struct iohook_model *m, *found = NULL;

	mutex_lock(&iohook_model_mutex);
	list_for_each_entry(m, &iohook_models, node)
		if (m->ops == ops)
			found = m;
	if (found) {
		if (found->bound)
			iohook_model_unbind_locked(found);
		list_del(&found->node);
	}
	mutex_unlock(&iohook_model_mutex);
	if (found)
		iohook_model_irq_sync(found);
	kfree(found);
}

/**
 * iohook_model_bind() - put a registered model in front of a range
 * @name: the model's name
 * @space: the range's space
 * @first: its first address
 * @last: its last address
 * @pdev: the device the range belongs to, for its interrupt; or NULL
 * @owner: what binds it (listed and unbound with it)
 * @where: @first as that directory names it
 *
 * The model's attach op runs once everything else was checked, and may
 * refuse. Takes a reference on @pdev while bound.
 *
 * Return: 0; -EINVAL (@last before @first), -ENODEV (@owner is closed:
 * its device is going away), -ENOENT (no such model), -EBUSY (it is
 * bound, or another model is bound in the range), -ECANCELED (its
 * attach op refused) or -ENOMEM.
 */
int iohook_model_bind(const char *name, enum iohook_space space, u64 first,
		      u64 last, struct pci_dev *pdev,
		      struct iohook_model_owner *owner, const char *where)
{
	struct iohook_model_ctx ctx;
	unsigned long index = first;
	struct iohook_model *m;
	int ret;

	if (last < first)
		return -EINVAL;
	mutex_lock(&iohook_model_mutex);
	ret = -ENODEV;
	if (owner->closed)
		goto out;
	m = iohook_model_by_name(name);
	ret = -ENOENT;
	if (!m)
		goto out;
	/* The tree changes under the mutex only: no attach op for nothing. */
	ret = -EBUSY;
	if (m->bound || mt_find(&iohook_spaces[space].models, &index, last))
		goto out;
	m->space = space;
	m->first = first;
	m->last = last;
	iohook_model_ctx_init(&ctx, m, first, 0, NULL);
	ret = -ECANCELED;
	if (m->ops->attach && m->ops->attach(&ctx))
		goto out;
	m->pdev = pci_dev_get(pdev);
	m->owner = owner;
	strscpy(m->where, where, sizeof(m->where));
	atomic64_set(&m->reads, 0);
	atomic64_set(&m->writes, 0);
	atomic64_set(&m->errors, 0);
	atomic64_set(&m->nmi, 0);
	atomic64_set(&m->nested, 0);
	atomic64_set(&m->irqs, 0);
	iohook_lock();
	ret = mtree_insert_range(&iohook_spaces[space].models, first, last, m,
				 GFP_KERNEL);
	if (!ret) {
		iohook_space_count(space, first, last, 1);
		iohook_update_keys();
	}
	iohook_unlock();
	if (ret) {
		/*
		 * No memory. No access reached the model, and neither attach
		 * nor detach can queue an interrupt: nothing to wait for.
		 */
		if (m->ops->detach)
			m->ops->detach(&ctx);
		pci_dev_put(m->pdev);
		m->pdev = NULL;
		m->owner = NULL;
		goto out;
	}
	m->bound = true;
out:
	mutex_unlock(&iohook_model_mutex);
	return ret;
}

/**
 * iohook_model_unbind() - take a model out of its range
 * @name: the model's name
 * @owner: what it must have been bound through
 *
 * Return: 0, or -ENOENT if no model of that name is bound through @owner.
 */
int iohook_model_unbind(const char *name,
			const struct iohook_model_owner *owner)
{
	struct iohook_model *m;
	int ret = -ENOENT;

	mutex_lock(&iohook_model_mutex);
	m = iohook_model_by_name(name);
	if (m && m->bound && m->owner == owner) {
		iohook_model_unbind_locked(m);
		ret = 0;
	}
	mutex_unlock(&iohook_model_mutex);
	return ret;
}

/**
 * iohook_model_close_owner() - unbind every model bound through @owner,
 *	and bind nothing through it any more
 * @owner: a directory that is going away (its device was removed)
 *
 * A writer of the directory's models file that is past its checks
 * finds it closed (-ENODEV) rather than binding to the device that goes.
 * The models stay registered, unbound, until their maps are detached.
 */
void iohook_model_close_owner(struct iohook_model_owner *owner)
{
	struct iohook_model *m;

	mutex_lock(&iohook_model_mutex);
	owner->closed = true;
	list_for_each_entry(m, &iohook_models, node)
		if (m->bound && m->owner == owner)
			iohook_model_unbind_locked(m);
	mutex_unlock(&iohook_model_mutex);
}

/* The owner of the bindings made by iohook_model_attach(). */
static struct iohook_model_owner iohook_model_kernel_owner;

/**
 * iohook_model_attach() - bind a registered model from kernel code
 * @name: the model's name
 * @space: the range's space
 * @first: its first address
 * @last: its last address
 *
 * For in-kernel users such as benchmarks; user space binds through the
 * "models" files. The binding is listed with "at=kernel".
 *
 * Return: as iohook_model_bind().
 */
int iohook_model_attach(const char *name, enum iohook_space space, u64 first,
			u64 last)
{
	if (space >= IOHOOK_NR_SPACES || last < first)
		return -EINVAL;
	return iohook_model_bind(name, space, first, last, NULL,
				 &iohook_model_kernel_owner, "kernel");
}
EXPORT_SYMBOL_GPL(iohook_model_attach);

/**
 * iohook_model_detach() - unbind a model that iohook_model_attach() bound
 * @name: the model's name
 *
 * Return: 0, or -ENOENT if no model of that name is bound from the kernel.
 */
int iohook_model_detach(const char *name)
{
	return iohook_model_unbind(name, &iohook_model_kernel_owner);
}
EXPORT_SYMBOL_GPL(iohook_model_detach);

/**
 * iohook_model_show() - list models, a line each
 * @buf: a sysfs page
 * @owner: list those bound through this directory; NULL: every model
 *
 * A line is "NAME SPACE FIRST LAST reads=N writes=N errors=N nmi=N
 * irqs=N at=WHERE nested=N" for a bound model, "NAME unbound" for
 * another. New counters go at the end, so that old parsers still read
 * the line.
 *
 * Return: the length written.
 */
ssize_t iohook_model_show(char *buf, const struct iohook_model_owner *owner)
{
	struct iohook_model *m;
	ssize_t n = 0;

	mutex_lock(&iohook_model_mutex);
	list_for_each_entry(m, &iohook_models, node) {
		if (owner && (!m->bound || m->owner != owner))
			continue;
		if (!m->bound) {
			n += sysfs_emit_at(buf, n, "%s unbound\n", m->ops->name);
			continue;
		}
		n += sysfs_emit_at(buf, n,
				   "%s %s 0x%llx 0x%llx reads=%lld writes=%lld errors=%lld nmi=%lld irqs=%lld at=%s nested=%lld\n",
				   m->ops->name, iohook_space_name(m->space),
				   m->first, m->last, atomic64_read(&m->reads),
				   atomic64_read(&m->writes),
				   atomic64_read(&m->errors),
				   atomic64_read(&m->nmi),
				   atomic64_read(&m->irqs), m->where,
				   atomic64_read(&m->nested));
	}
	mutex_unlock(&iohook_model_mutex);
	return n;
}

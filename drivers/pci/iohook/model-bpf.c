// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF side of register models: struct iohook_model_ops as a BPF
 * struct_ops type, and the kfuncs its programs call.
 *
 * Attaching a struct_ops map of this type registers the model
 * (model.c), detaching it unregisters it. The programs run where the
 * driver's access runs (hard interrupts, raw spinlocks held, interrupts
 * off), so what the verifier allows any struct_ops program is narrowed:
 *
 *  - nothing sleepable (refused here on 6.12, by the verifier on 6.1);
 *  - no loop that runs longer than the verifier walked it: the looping
 *    helpers (bpf_loop, bpf_for_each_map_elem, bpf_user_ringbuf_drain),
 *    tail calls, open-coded iterators (bpf_iter_*, 6.4 and later) and
 *    may_goto (6.9 and later) are refused. What is left runs at most the
 *    verifier's one million instructions per op, plus bounded helpers;
 *  - only helpers that reach no device, clock or lock the access's
 *    caller may hold (iohook_model_helper_ok()): no ktime helpers, which
 *    read the clocksource; bpf_iohook_clock_ns() is a model's clock;
 *  - a name that iohook(8) can pin under (not ".", "..", ".x"), unique
 *    when the map is filled in, as tcp_congestion_ops' names are;
 *  - on 6.12, the kfuncs below serve models only (a kfunc filter), and
 *    take only the context the op was given (KF_TRUSTED_ARGS).
 *
 * Besides those helpers (maps, ring buffers, strings, the CPU, jiffies),
 * a model has these kfuncs:
 *
 *	bpf_iohook_hw_read(ctx)		the real hardware's value
 *	bpf_iohook_hw_write(ctx, val)	write the real hardware
 *	bpf_iohook_set_value(ctx, val)	the value a read returns, or a
 *					write passes on (IOHOOK_MODEL_*)
 *	bpf_iohook_fire_irq(ctx, vec)	fire the device's interrupt, later
 *	bpf_iohook_clock_ns()		local_clock(), never the clocksource
 *
 * One file serves 6.12, where a subsystem registers its struct_ops type
 * with register_bpf_struct_ops(), and 6.1, where the type is listed in
 * kernel/bpf/bpf_struct_ops_types.h (patched in by the series) and this
 * file defines the bpf_iohook_model_ops it names.
 */
#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/filter.h>
#include <linux/init.h>
#include <linux/iohook_model.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "emulate.h"
#include "model.h"

/*
 * Since 6.9 (so on 6.12) kfunc sets are BTF_KFUNCS_START() ones and a
 * subsystem registers its struct_ops type at run time; 6.1 has neither.
 */
#ifdef BTF_KFUNCS_START
#define IOHOOK_BPF_612	1
#define IOHOOK_KFUNC	__bpf_kfunc
#else
#define IOHOOK_BPF_612	0
#define IOHOOK_KFUNC	noinline
#endif

#ifdef __bpf_kfunc_start_defs
__bpf_kfunc_start_defs();
#else
__diag_push();
__diag_ignore_all("-Wmissing-prototypes",
		  "kfuncs are global functions that vmlinux BTF describes");
#endif

/**
 * bpf_iohook_hw_read() - read the hardware behind the access
 * @ctx: the access
 *
 * Reads the access's address and width from the device, through the
 * plain accessors (no override applies). Each call reads the hardware
 * again; a model that then returns IOHOOK_MODEL_PASS gets the last value
 * read here, without another read.
 *
 * Return: the value, or all ones if the hardware failed the read (which
 * the access then reports) or if called from attach or detach, where
 * there is no access.
 */
IOHOOK_KFUNC u64 bpf_iohook_hw_read(struct iohook_model_ctx *ctx)
{
	u64 val = 0;

	if (!ctx->hw)
		return ~0ULL;
	ctx->hw_err = ctx->hw->read(ctx->hw, ctx->width, &val);
	if (ctx->hw_err)
		val = iohook_width_mask(ctx->width);
	ctx->hw_val = val;
	ctx->flags |= IOHOOK_CTX_HW_READ;
	return val;
}

/**
 * bpf_iohook_hw_write() - write the hardware behind the access
 * @ctx: the access
 * @val: the value to write, at the access's address and width
 *
 * A write op that calls it has dealt with the hardware: iohook writes
 * nothing more, whatever the op returns.
 *
 * Return: 0, -EIO if the hardware failed the write, -EINVAL if called
 * from attach or detach, where there is no access.
 */
IOHOOK_KFUNC int bpf_iohook_hw_write(struct iohook_model_ctx *ctx, u64 val)
{
	if (!ctx->hw)
		return -EINVAL;
	ctx->hw_err = ctx->hw->write(ctx->hw, ctx->width,
				     val & iohook_width_mask(ctx->width));
	ctx->flags |= IOHOOK_CTX_HW_WRITTEN;
	return ctx->hw_err ? -EIO : 0;
}

/**
 * bpf_iohook_set_value() - the value of a read, or what a write passes on
 * @ctx: the access
 * @val: a read's value (with IOHOOK_MODEL_DONE), or the value a write
 *	 sends the hardware instead of the driver's (with IOHOOK_MODEL_PASS);
 *	 cut to the access's width
 *
 * Harmless from attach or detach: nothing reads the value there.
 */
IOHOOK_KFUNC void bpf_iohook_set_value(struct iohook_model_ctx *ctx, u64 val)
{
	ctx->out = val;
	ctx->flags |= IOHOOK_CTX_OUT;
}

/**
 * bpf_iohook_fire_irq() - fire the interrupt of the model's device
 * @ctx: the access
 * @vector: the MSI-X or MSI vector index, 0 for INTx
 *
 * The interrupt fires after the access, from process context, as the
 * fire_irq file fires it. Each vector asked for fires (once, however
 * often it was asked for before it fired).
 *
 * Return: 0; -EINVAL if called from attach or detach (no access: the
 * device is not the model's yet, or no longer); -ENODEV if the model is
 * not bound to a device's range; -ERANGE if @vector is 256 or more.
 */
IOHOOK_KFUNC int bpf_iohook_fire_irq(struct iohook_model_ctx *ctx, u32 vector)
{
	if (!ctx->hw)
		return -EINVAL;
	return iohook_model_queue_irq(ctx->model, vector);
}

/**
 * bpf_iohook_clock_ns() - a model's clock
 *
 * local_clock(): nanoseconds from the TSC (or jiffies where the TSC is
 * unusable), monotonic on one CPU, never from the clocksource device: a
 * model may stand for that device's counter, which the ktime helpers
 * read under its lock. Safe in every context a model runs in.
 *
 * Return: the time in nanoseconds.
 */
IOHOOK_KFUNC u64 bpf_iohook_clock_ns(void)
{
	return local_clock();
}

#ifdef __bpf_kfunc_end_defs
__bpf_kfunc_end_defs();
#else
__diag_pop();
#endif

#if IOHOOK_BPF_612
BTF_KFUNCS_START(iohook_model_kfunc_ids)
BTF_ID_FLAGS(func, bpf_iohook_hw_read, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpf_iohook_hw_write, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpf_iohook_set_value, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpf_iohook_fire_irq, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpf_iohook_clock_ns)
BTF_KFUNCS_END(iohook_model_kfunc_ids)

BTF_ID_LIST_SINGLE(iohook_model_ops_btf_id, struct, iohook_model_ops)

/* Whether @prog is one of a model's ops (vmlinux's iohook_model_ops). */
static bool iohook_prog_is_model(const struct bpf_prog *prog)
{
	return prog->type == BPF_PROG_TYPE_STRUCT_OPS &&
	       prog->aux->attach_btf && !btf_is_module(prog->aux->attach_btf) &&
	       prog->aux->attach_btf_id == iohook_model_ops_btf_id[0];
}

/*
 * The verifier asks every filter of the common hook about every kfunc
 * any program calls. Ours says no to two things: a program that is not
 * a model calling our kfuncs (another struct_ops type could otherwise
 * hand them a pointer of its own making), and a model calling an
 * open-coded iterator, whose loops run up to millions of times in the
 * access's context.
 */
static int iohook_model_kfunc_filter(const struct bpf_prog *prog, u32 kfunc_id)
{
	const struct btf_type *t;
	struct btf *btf;

	if (btf_id_set8_contains(&iohook_model_kfunc_ids, kfunc_id))
		return iohook_prog_is_model(prog) ? 0 : -EACCES;
	if (!iohook_prog_is_model(prog))
		return 0;
	btf = bpf_get_btf_vmlinux();
	t = IS_ERR_OR_NULL(btf) ? NULL : btf_type_by_id(btf, kfunc_id);
	if (t && str_has_prefix(btf_name_by_offset(btf, t->name_off), "bpf_iter_"))
		return -EACCES;
	return 0;
}

/*
 * For every program type (the common hook) and struct_ops (whose own
 * hook holds sched_ext's iterators), so that the filter sees them all.
 */
static const struct btf_kfunc_id_set iohook_model_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &iohook_model_kfunc_ids,
	.filter = iohook_model_kfunc_filter,
};
#else
BTF_SET8_START(iohook_model_kfunc_ids)
BTF_ID_FLAGS(func, bpf_iohook_hw_read)
BTF_ID_FLAGS(func, bpf_iohook_hw_write)
BTF_ID_FLAGS(func, bpf_iohook_set_value)
BTF_ID_FLAGS(func, bpf_iohook_fire_irq)
BTF_ID_FLAGS(func, bpf_iohook_clock_ns)
BTF_SET8_END(iohook_model_kfunc_ids)

/* 6.1 has no kfunc filters, nor iterators: for struct_ops programs. */
static const struct btf_kfunc_id_set iohook_model_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &iohook_model_kfunc_ids,
};
#endif

static bool iohook_model_is_valid_access(int off, int size,
					 enum bpf_access_type type,
					 const struct bpf_prog *prog,
					 struct bpf_insn_access_aux *info)
{
	return bpf_tracing_btf_ctx_access(off, size, type, prog, info);
}

/*
 * The helpers a model may call: those that never reach a device, a
 * clock or a lock the access's caller may hold, and never loop beyond
 * what the verifier walked. Not, among the base helpers: the ktime
 * helpers (they read the clocksource -- possibly the register the model
 * stands for, under the HPET's lock or the timekeeper's seqcount: a
 * model on the HPET counter calling bpf_ktime_get_ns() spins forever),
 * bpf_timer (hrtimer base lock, then the clock), bpf_trace_printk (the
 * trace clock), bpf_loop, bpf_for_each_map_elem, bpf_user_ringbuf_drain
 * and tail calls (millions of runs with interrupts off).
 */
static bool iohook_model_helper_ok(enum bpf_func_id func_id)
{
	switch (func_id) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_map_push_elem:
	case BPF_FUNC_map_pop_elem:
	case BPF_FUNC_map_peek_elem:
	case BPF_FUNC_map_lookup_percpu_elem:
	case BPF_FUNC_ringbuf_output:
	case BPF_FUNC_ringbuf_reserve:
	case BPF_FUNC_ringbuf_submit:
	case BPF_FUNC_ringbuf_discard:
	case BPF_FUNC_ringbuf_query:
	case BPF_FUNC_ringbuf_reserve_dynptr:
	case BPF_FUNC_ringbuf_submit_dynptr:
	case BPF_FUNC_ringbuf_discard_dynptr:
	case BPF_FUNC_dynptr_from_mem:
	case BPF_FUNC_dynptr_read:
	case BPF_FUNC_dynptr_write:
	case BPF_FUNC_dynptr_data:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_get_smp_processor_id:
	case BPF_FUNC_get_numa_node_id:
	case BPF_FUNC_jiffies64:
	case BPF_FUNC_strncmp:
	case BPF_FUNC_strtol:
	case BPF_FUNC_strtoul:
	case BPF_FUNC_snprintf:
	case BPF_FUNC_spin_lock:
	case BPF_FUNC_spin_unlock:
	case BPF_FUNC_kptr_xchg:
	case BPF_FUNC_per_cpu_ptr:
	case BPF_FUNC_this_cpu_ptr:
	case BPF_FUNC_get_current_pid_tgid:
	case BPF_FUNC_get_current_task:
	case BPF_FUNC_get_current_task_btf:
	case BPF_FUNC_probe_read_kernel:
	case BPF_FUNC_probe_read_kernel_str:
		return true;
	default:
		return false;
	}
}

static const struct bpf_func_proto *
iohook_model_func_proto(enum bpf_func_id func_id, const struct bpf_prog *prog)
{
	if (!iohook_model_helper_ok(func_id))
		return NULL;
#if IOHOOK_BPF_612
	return bpf_base_func_proto(func_id, prog);
#else
	return bpf_base_func_proto(func_id);
#endif
}

/* No btf_struct_access: a program writes nothing but through kfuncs. */
static const struct bpf_verifier_ops iohook_model_verifier_ops = {
	.get_func_proto = iohook_model_func_proto,
	.is_valid_access = iohook_model_is_valid_access,
};

static int iohook_model_bpf_init(struct btf *btf)
{
	return 0;
}

static int iohook_model_init_member(const struct btf_type *t,
				    const struct btf_member *member,
				    void *kdata, const void *udata)
{
	const struct iohook_model_ops *uops = udata;
	struct iohook_model_ops *kops = kdata;

	if (__btf_member_bit_offset(t, member) / 8 !=
	    offsetof(struct iohook_model_ops, name))
		return 0;
	/* Letters, digits, '_' and '.', at least one, NUL-terminated. */
	if (bpf_obj_name_cpy(kops->name, uops->name, sizeof(kops->name)) <= 0 ||
	    !iohook_model_name_ok(kops->name))
		return -EINVAL;
	/* Refused here, before the map holds anything, as tcp_ca does. */
	if (iohook_model_is_registered(kops->name))
		return -EEXIST;
	return 1;
}

#if IOHOOK_BPF_612
static int iohook_model_check_member(const struct btf_type *t,
				     const struct btf_member *member,
				     const struct bpf_prog *prog)
{
	u32 i;

	/* The ops run where the accessors run: nothing may sleep. */
	if (prog->sleepable)
		return -EINVAL;
	/* Nor loop on may_goto's budget of millions (seen before do_check). */
	for (i = 0; i < prog->len; i++)
		if (prog->insnsi[i].code == (BPF_JMP | BPF_JCOND))
			return -EINVAL;
	return 0;
}

static int iohook_model_reg(void *kdata, struct bpf_link *link)
{
	return iohook_model_register(kdata);
}

static void iohook_model_unreg(void *kdata, struct bpf_link *link)
{
	iohook_model_unregister(kdata);
}
#else
static int iohook_model_reg(void *kdata)
{
	return iohook_model_register(kdata);
}

static void iohook_model_unreg(void *kdata)
{
	iohook_model_unregister(kdata);
}
#endif

#if IOHOOK_BPF_612
/* What indirect calls through the ops are checked against (CFI). */
static int iohook_model_stub_attach(struct iohook_model_ctx *ctx)
{
	return 0;
}

static void iohook_model_stub_detach(struct iohook_model_ctx *ctx)
{
}

static int iohook_model_stub_access(struct iohook_model_ctx *ctx)
{
	return IOHOOK_MODEL_PASS;
}

static struct iohook_model_ops __bpf_iohook_model_ops = {
	.attach = iohook_model_stub_attach,
	.detach = iohook_model_stub_detach,
	.read = iohook_model_stub_access,
	.write = iohook_model_stub_access,
};

static struct bpf_struct_ops bpf_iohook_model_ops = {
	.verifier_ops = &iohook_model_verifier_ops,
	.init = iohook_model_bpf_init,
	.check_member = iohook_model_check_member,
	.init_member = iohook_model_init_member,
	.reg = iohook_model_reg,
	.unreg = iohook_model_unreg,
	.cfi_stubs = &__bpf_iohook_model_ops,
	.owner = THIS_MODULE,
	.name = "iohook_model_ops",
};
#else
/*
 * Named by BPF_STRUCT_OPS_TYPE(iohook_model_ops) in 6.1's type list, which
 * only bpf_struct_ops.c includes: declared here for sparse, as
 * bpf_tcp_ca.c does.
 */
extern struct bpf_struct_ops bpf_iohook_model_ops;
struct bpf_struct_ops bpf_iohook_model_ops = {
	.verifier_ops = &iohook_model_verifier_ops,
	.init = iohook_model_bpf_init,
	.init_member = iohook_model_init_member,
	.reg = iohook_model_reg,
	.unreg = iohook_model_unreg,
	.name = "iohook_model_ops",
};
#endif

static int __init iohook_model_bpf_register(void)
{
	int ret;

	ret = register_btf_kfunc_id_set(BPF_PROG_TYPE_STRUCT_OPS,
					&iohook_model_kfunc_set);
#if IOHOOK_BPF_612
	if (!ret)
		ret = register_btf_kfunc_id_set(BPF_PROG_TYPE_UNSPEC,
						&iohook_model_kfunc_set);
	if (!ret)
		ret = register_bpf_struct_ops(&bpf_iohook_model_ops,
					      iohook_model_ops);
#endif
	if (ret)
		pr_warn("iohook: register models unavailable: %d\n", ret);
	return 0;
}
late_initcall(iohook_model_bpf_register);

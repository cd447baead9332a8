/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iohook_model.bpf.h - what a register model's BPF source includes.
 *
 * The kernel's types as a model uses them (CO-RE: the field offsets
 * come from the running kernel's BTF, so one object serves 6.1 and 6.12),
 * the kfuncs, and the return values of the read and write ops. See
 * include/linux/iohook_model.h for the kernel's side.
 */
#ifndef __IOHOOK_MODEL_BPF_H
#define __IOHOOK_MODEL_BPF_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* enum iohook_model_ret */
#define IOHOOK_MODEL_PASS	0
#define IOHOOK_MODEL_DONE	1

/* Where the access runs (ctx->context) */
#define IOHOOK_MODEL_CTX_HARDIRQ	0x1
#define IOHOOK_MODEL_CTX_SOFTIRQ	0x2
#define IOHOOK_MODEL_CTX_IRQS_OFF	0x4

/* enum iohook_space */
#define IOHOOK_SPACE_PCI	0
#define IOHOOK_SPACE_MEM	1
#define IOHOOK_SPACE_IO		2

struct iohook_model_ctx {
	__u64 offset;		/* from the start of the model's range */
	__u64 addr;		/* in the space */
	__u64 val;		/* a write's value */
	__u64 len;		/* the range's length */
	__u32 width;		/* 1, 2, 4 or 8; 0 in attach and detach */
	__u32 space;
	__u32 context;		/* IOHOOK_MODEL_CTX_* */
} __attribute__((preserve_access_index));

struct iohook_model_ops {
	int (*attach)(struct iohook_model_ctx *ctx);
	void (*detach)(struct iohook_model_ctx *ctx);
	int (*read)(struct iohook_model_ctx *ctx);
	int (*write)(struct iohook_model_ctx *ctx);
	char name[32];
};

extern __u64 bpf_iohook_hw_read(struct iohook_model_ctx *ctx) __ksym;
extern int bpf_iohook_hw_write(struct iohook_model_ctx *ctx, __u64 val) __ksym;
extern void bpf_iohook_set_value(struct iohook_model_ctx *ctx, __u64 val) __ksym;
extern int bpf_iohook_fire_irq(struct iohook_model_ctx *ctx, __u32 vector) __ksym;
/*
 * A model's clock: local_clock(). The ktime helpers are refused to
 * models: they read the clocksource, which may be the register a model
 * stands for, under that clocksource's lock.
 */
extern __u64 bpf_iohook_clock_ns(void) __ksym;

#endif /* __IOHOOK_MODEL_BPF_H */

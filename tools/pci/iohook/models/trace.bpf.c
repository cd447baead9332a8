// SPDX-License-Identifier: GPL-2.0
/*
 * trace: a register-level trace of a driver. Every access to the range
 * goes to the hardware and is logged, with the value the driver saw or
 * wrote, into a ring buffer that "iohook model trace" prints. Unlike
 * mmiotrace, all CPUs keep running.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* One access; "iohook model trace" knows this layout. */
struct iohook_trace_rec {
	__u64 ns;		/* bpf_iohook_clock_ns(): local_clock() */
	__u64 offset;
	__u64 val;
	__u32 cpu;
	__u8 width;
	__u8 write;
	__u16 context;		/* IOHOOK_MODEL_CTX_* */
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

/* Accesses the ring buffer had no room for. */
__u64 lost;

static void log_access(struct iohook_model_ctx *acc, __u64 val, int write)
{
	struct iohook_trace_rec *r;

	r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
	if (!r) {
		__sync_fetch_and_add(&lost, 1);
		return;
	}
	r->ns = bpf_iohook_clock_ns();
	r->offset = acc->offset;
	r->val = val;
	r->cpu = bpf_get_smp_processor_id();
	r->width = acc->width;
	r->write = write;
	r->context = acc->context;
	bpf_ringbuf_submit(r, 0);
}

SEC("struct_ops/trace_read")
int BPF_PROG(trace_read, struct iohook_model_ctx *acc)
{
	/* PASS after a hardware read: the access gets this same value. */
	log_access(acc, bpf_iohook_hw_read(acc), 0);
	return IOHOOK_MODEL_PASS;
}

SEC("struct_ops/trace_write")
int BPF_PROG(trace_write, struct iohook_model_ctx *acc)
{
	log_access(acc, acc->val, 1);
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops trace = {
	.read = (void *)trace_read,
	.write = (void *)trace_write,
	.name = "trace",
};

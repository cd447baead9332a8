// SPDX-License-Identifier: GPL-2.0
/*
 * clock_nested: a tracing model that reads the clock on every access.
 * Bound to the clocksource's own counter (the ACPI PM timer's port, the
 * HPET's main counter), bpf_ktime_get_ns() reads that counter from
 * inside the model's op: the kernel must send that nested read to the
 * hardware (and count it), not into the model again, forever.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u64 last_ns;

SEC("struct_ops/clock_nested_read")
int BPF_PROG(clock_nested_read, struct iohook_model_ctx *acc)
{
	last_ns = bpf_ktime_get_ns();
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops clock_nested = {
	.read = (void *)clock_nested_read,
	.name = "clock_nested",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * clock_counter: a tracing model that stamps every access with the
 * model clock, bound to the clocksource's own counter (the ACPI PM
 * timer's port, the HPET's main counter): every clock read in the
 * kernel goes through it, and its clock must not read that counter.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u64 last_ns;

SEC("struct_ops/clock_counter_read")
int BPF_PROG(clock_counter_read, struct iohook_model_ctx *acc)
{
	last_ns = bpf_iohook_clock_ns();
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops clock_counter = {
	.read = (void *)clock_counter_read,
	.name = "clock_counter",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * clock_ktime: reads the clock with bpf_ktime_get_ns(), which reads the
 * clocksource: bound to the HPET's counter, inside read_hpet() with its
 * lock held, that read spins forever. Models may not call it: refused.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u64 last_ns;

SEC("struct_ops/clock_ktime_read")
int BPF_PROG(clock_ktime_read, struct iohook_model_ctx *acc)
{
	last_ns = bpf_ktime_get_ns();
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops clock_ktime = {
	.read = (void *)clock_ktime_read,
	.name = "clock_ktime",
};

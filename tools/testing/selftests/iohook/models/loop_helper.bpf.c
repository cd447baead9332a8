// SPDX-License-Identifier: GPL-2.0
/*
 * loop_helper: bpf_loop() runs its callback up to 8 million times, a
 * loop the verifier walks once: with interrupts off, a hang. Refused.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

static long spin(__u32 i, void *data)
{
	return 0;
}

SEC("struct_ops/loop_helper_read")
int BPF_PROG(loop_helper_read, struct iohook_model_ctx *acc)
{
	bpf_loop(1 << 23, spin, NULL, 0);
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops loop_helper = {
	.read = (void *)loop_helper_read,
	.name = "loop_helper",
};

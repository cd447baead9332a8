// SPDX-License-Identifier: GPL-2.0
/*
 * passthrough: the smallest model. Every access goes to the hardware
 * unchanged; the model's counters still count it. What "make bench"
 * measures a model's own cost with, and what the detach and removal
 * tests bind.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/passthrough_read")
int BPF_PROG(passthrough_read, struct iohook_model_ctx *acc)
{
	return IOHOOK_MODEL_PASS;
}

SEC("struct_ops/passthrough_write")
int BPF_PROG(passthrough_write, struct iohook_model_ctx *acc)
{
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops passthrough = {
	.read = (void *)passthrough_read,
	.write = (void *)passthrough_write,
	.name = "passthrough",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * dotdot: a model called "..", which iohook(8) would pin, and unpin, in
 * /sys/fs/bpf itself. The kernel refuses the name.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/dotdot_read")
int BPF_PROG(dotdot_read, struct iohook_model_ctx *acc)
{
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops dotdot = {
	.read = (void *)dotdot_read,
	.name = "..",
};

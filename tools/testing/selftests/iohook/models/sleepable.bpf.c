// SPDX-License-Identifier: GPL-2.0
/* sleepable: a sleepable op, which an accessor's context cannot run. Refused. */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops.s/sleepable_read")
int BPF_PROG(sleepable_read, struct iohook_model_ctx *acc)
{
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops sleepable = {
	.read = (void *)sleepable_read,
	.name = "sleepable",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * ctx_write: writes its context directly (the kfuncs are the only way a
 * model changes an access). Refused.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/ctx_write_write")
int BPF_PROG(ctx_write_write, struct iohook_model_ctx *acc)
{
	acc->val = 0;
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops ctx_write = {
	.write = (void *)ctx_write_write,
	.name = "ctx_write",
};

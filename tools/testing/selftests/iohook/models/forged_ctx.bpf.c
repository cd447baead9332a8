// SPDX-License-Identifier: GPL-2.0
/*
 * forged_ctx: hands a kfunc a context pointer of its own making (any
 * address, cast to the type) instead of the one its op was given. On
 * 6.12 the kfuncs take trusted arguments only: refused.
 */
#include "iohook_model.bpf.h"
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

SEC("struct_ops/forged_ctx_read")
int BPF_PROG(forged_ctx_read, struct iohook_model_ctx *acc)
{
	struct iohook_model_ctx *fake;

	fake = bpf_rdonly_cast((void *)(acc->addr + 4096),
			       bpf_core_type_id_kernel(struct iohook_model_ctx));
	bpf_iohook_set_value(fake, 0);
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops forged_ctx = {
	.read = (void *)forged_ctx_read,
	.name = "forged_ctx",
};

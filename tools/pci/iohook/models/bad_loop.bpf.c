// SPDX-License-Identifier: GPL-2.0
/*
 * bad_loop: a model the verifier must refuse. Its read op spins until a
 * register it reads changes, with no bound: in an accessor that may run
 * with interrupts off, that could hang the CPU. "iohook model load" of
 * it must fail and register nothing (iohook_models test).
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/bad_loop_read")
int BPF_PROG(bad_loop_read, struct iohook_model_ctx *acc)
{
	__u64 first = bpf_iohook_hw_read(acc);

	while (bpf_iohook_hw_read(acc) == first)
		;
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops bad_loop = {
	.read = (void *)bad_loop_read,
	.name = "bad_loop",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * iter_loop: an open-coded iterator (Linux 6.4 and later) counting to a
 * million, which the verifier checks once, not a million times. Refused
 * (on 6.1, which has no such kfunc, libbpf cannot even resolve it).
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

__u64 spins;

SEC("struct_ops/iter_loop_read")
int BPF_PROG(iter_loop_read, struct iohook_model_ctx *acc)
{
	struct bpf_iter_num it;

	bpf_iter_num_new(&it, 0, 1000000);
	while (bpf_iter_num_next(&it))
		spins++;
	bpf_iter_num_destroy(&it);
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops iter_loop = {
	.read = (void *)iter_loop_read,
	.name = "iter_loop",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * irq_vectors: a write to the range's first register is swallowed and
 * fires every vector whose bit is set in the value's low byte, in one
 * access, as a multi-queue device completes on several queues at once.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u64 fire_errors;

SEC("struct_ops/irq_vectors_write")
int BPF_PROG(irq_vectors_write, struct iohook_model_ctx *acc)
{
	__u32 v;

	if (acc->offset != 0)
		return IOHOOK_MODEL_PASS;
	for (v = 0; v < 8; v++)
		if ((acc->val >> v) & 1 && bpf_iohook_fire_irq(acc, v))
			__sync_fetch_and_add(&fire_errors, 1);
	return IOHOOK_MODEL_DONE;
}

SEC(".struct_ops")
struct iohook_model_ops irq_vectors = {
	.write = (void *)irq_vectors_write,
	.name = "irq_vectors",
};

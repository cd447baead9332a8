// SPDX-License-Identifier: GPL-2.0
/*
 * doorbell_irq: a doorbell that answers with an interrupt. A write to
 * the range's first register is swallowed and, as a device signals that
 * it took a command, fires the device's vector 0 (MSI-X/MSI 0, or INTx)
 * after the access; every other access goes to the hardware. rung counts
 * the doorbells, fire_errors the requests the kernel refused (a range
 * that is not a device's).
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u64 rung;
__u64 fire_errors;

SEC("struct_ops/doorbell_irq_write")
int BPF_PROG(doorbell_irq_write, struct iohook_model_ctx *acc)
{
	if (acc->offset != 0)
		return IOHOOK_MODEL_PASS;
	__sync_fetch_and_add(&rung, 1);
	if (bpf_iohook_fire_irq(acc, 0))
		__sync_fetch_and_add(&fire_errors, 1);
	return IOHOOK_MODEL_DONE;
}

SEC(".struct_ops")
struct iohook_model_ops doorbell_irq = {
	.write = (void *)doorbell_irq_write,
	.name = "doorbell_irq",
};

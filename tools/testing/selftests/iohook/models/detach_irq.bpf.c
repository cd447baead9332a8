// SPDX-License-Identifier: GPL-2.0
/*
 * detach_irq: asks for its device's interrupts where there is no access
 * to ask for them from. attach refuses the binding if the kernel took
 * its request (the device is not the model's yet); detach asks for
 * vectors 0 and 1 as it is unbound, which the kernel must refuse too:
 * a request queued there would fire after the model and its device
 * reference are gone. Reads pass through.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/detach_irq_attach")
int BPF_PROG(detach_irq_attach, struct iohook_model_ctx *acc)
{
	return bpf_iohook_fire_irq(acc, 0) ? 0 : -1;
}

SEC("struct_ops/detach_irq_detach")
void BPF_PROG(detach_irq_detach, struct iohook_model_ctx *acc)
{
	bpf_iohook_fire_irq(acc, 0);
	bpf_iohook_fire_irq(acc, 1);
	bpf_iohook_hw_write(acc, 0);
	bpf_iohook_set_value(acc, 1);
}

SEC("struct_ops/detach_irq_read")
int BPF_PROG(detach_irq_read, struct iohook_model_ctx *acc)
{
	return IOHOOK_MODEL_PASS;
}

SEC(".struct_ops")
struct iohook_model_ops detach_irq = {
	.attach = (void *)detach_irq_attach,
	.detach = (void *)detach_irq_detach,
	.read = (void *)detach_irq_read,
	.name = "detach_irq",
};

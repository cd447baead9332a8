// SPDX-License-Identifier: GPL-2.0
/*
 * nvme_reset: an NVMe controller that loses one command and goes fatal
 * until the driver resets it.
 *
 * The model swallows the Nth I/O submission queue doorbell write (qid 1
 * and up; N = nth), so the controller never sees that command and it
 * times out. From then on every read of CSTS shows CFS (Controller Fatal
 * Status), so the driver's timeout handler resets the controller; once
 * the driver disables it (a write of CC with EN = 0) the model passes
 * everything through, the controller comes back, and the command is
 * retried. Bind it to bar0+0, length 2000 (registers and doorbells).
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define NVME_REG_CC	0x14
#define NVME_REG_CSTS	0x1c
#define NVME_CC_ENABLE	0x1
#define NVME_CSTS_CFS	0x2
#define NVME_DOORBELLS	0x1000

enum { COUNTING, FATAL, RECOVERED };

/* Which I/O doorbell write to swallow, counting from 1 after binding. */
__u32 nth = 3;

__u32 state;
__u32 io_doorbells;	/* I/O submission doorbell writes seen */
__u64 swallowed;	/* the swallowed write's offset and value */
__u64 cfs_reads;	/* CSTS reads answered with CFS */

SEC("struct_ops/nvme_reset_attach")
int BPF_PROG(nvme_reset_attach, struct iohook_model_ctx *acc)
{
	state = COUNTING;
	io_doorbells = 0;
	cfs_reads = 0;
	return 0;
}

SEC("struct_ops/nvme_reset_write")
int BPF_PROG(nvme_reset_write, struct iohook_model_ctx *acc)
{
	__u64 db;

	if (state == FATAL && acc->offset == NVME_REG_CC &&
	    !(acc->val & NVME_CC_ENABLE)) {
		state = RECOVERED;
		return IOHOOK_MODEL_PASS;
	}
	if (state != COUNTING || acc->offset < NVME_DOORBELLS)
		return IOHOOK_MODEL_PASS;
	/* Doorbell stride 4 (CAP.DSTRD = 0): SQ y tail at 8y, CQ y head at 8y + 4. */
	db = (acc->offset - NVME_DOORBELLS) / 4;
	if (db % 2 || db < 2)
		return IOHOOK_MODEL_PASS;
	if (++io_doorbells != nth)
		return IOHOOK_MODEL_PASS;
	swallowed = acc->offset << 32 | (acc->val & 0xffffffff);
	state = FATAL;
	return IOHOOK_MODEL_DONE;
}

SEC("struct_ops/nvme_reset_read")
int BPF_PROG(nvme_reset_read, struct iohook_model_ctx *acc)
{
	if (state != FATAL || acc->offset != NVME_REG_CSTS)
		return IOHOOK_MODEL_PASS;
	__sync_fetch_and_add(&cfs_reads, 1);
	bpf_iohook_set_value(acc, bpf_iohook_hw_read(acc) | NVME_CSTS_CFS);
	return IOHOOK_MODEL_DONE;
}

SEC(".struct_ops")
struct iohook_model_ops nvme_reset = {
	.attach = (void *)nvme_reset_attach,
	.read = (void *)nvme_reset_read,
	.write = (void *)nvme_reset_write,
	.name = "nvme_reset",
};

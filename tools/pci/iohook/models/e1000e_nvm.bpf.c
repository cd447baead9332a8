// SPDX-License-Identifier: GPL-2.0
/*
 * e1000e_nvm: a modelled MAC address on an e1000e (82574), through the
 * handshake the driver drives to read its NVM.
 *
 * The driver reads NVM word N by writing (N << 2) | START to EERD, then
 * polling EERD until DONE, and takes the word from EERD's bits 31:16.
 * The model lets the real EEPROM do that, remembers the address of each
 * START and, when a read shows DONE, hands back its own word instead:
 * the MAC address in words 0-2, and word 0x3F with the checksum made
 * valid again (the words must sum to 0xBABA, or probe fails). The MAC
 * the driver reads from RAL0/RAH0 (which the hardware loads from the
 * NVM at reset) is the modelled one too. Bind it to bar0+0, length 5408,
 * then rebind the driver: ip link shows the modelled address, ethtool -e
 * the modelled NVM.
 */
#include "iohook_model.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define EERD		0x14
#define EERD_START	0x1
#define EERD_DONE	0x2
#define EERD_ADDR_SHIFT	2
#define EERD_DATA_SHIFT	16
#define NVM_CHECKSUM	0x3f
#define RAL0		0x5400
#define RAH0		0x5404

/* 02:10:18:00:e1:0e, locally administered, as NVM words (low byte first). */
__u16 mac[3] = { 0x1002, 0x0018, 0x0ee1 };

/* What the model learnt of the real NVM, and the address being read. */
__u16 real[3];
__u32 seen;		/* bit N: real[N] known */
__u32 addr;
__u64 words_modelled;	/* NVM reads it answered */

SEC("struct_ops/e1000e_nvm_write")
int BPF_PROG(e1000e_nvm_write, struct iohook_model_ctx *acc)
{
	if (acc->offset == EERD && acc->width == 4 && (acc->val & EERD_START))
		addr = (acc->val >> EERD_ADDR_SHIFT) & 0x3fff;
	return IOHOOK_MODEL_PASS;
}

static __u16 modelled_word(__u32 a, __u16 data)
{
	__u16 sum;

	if (a < 3) {
		real[a] = data;
		seen |= 1 << a;
		return mac[a];
	}
	if (a == NVM_CHECKSUM && seen == 7) {
		sum = real[0] + real[1] + real[2] - mac[0] - mac[1] - mac[2];
		return data + sum;
	}
	return data;
}

SEC("struct_ops/e1000e_nvm_read")
int BPF_PROG(e1000e_nvm_read, struct iohook_model_ctx *acc)
{
	__u64 v;

	if (acc->width != 4)
		return IOHOOK_MODEL_PASS;
	switch (acc->offset) {
	case EERD:
		v = bpf_iohook_hw_read(acc);
		if (!(v & EERD_DONE))
			return IOHOOK_MODEL_PASS;
		__sync_fetch_and_add(&words_modelled, 1);
		v = (v & 0xffff) |
		    (__u64)modelled_word(addr, v >> EERD_DATA_SHIFT) << EERD_DATA_SHIFT;
		break;
	case RAL0:
		v = mac[0] | (__u32)mac[1] << 16;
		break;
	case RAH0:
		v = (bpf_iohook_hw_read(acc) & 0xffff0000) | mac[2];
		break;
	default:
		return IOHOOK_MODEL_PASS;
	}
	bpf_iohook_set_value(acc, v);
	return IOHOOK_MODEL_DONE;
}

SEC(".struct_ops")
struct iohook_model_ops e1000e_nvm = {
	.read = (void *)e1000e_nvm_read,
	.write = (void *)e1000e_nvm_write,
	.name = "e1000e_nvm",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_escape: another struct_ops type (a TCP congestion control) calling
 * iohook's kfuncs with a context it forged from its socket. On 6.12 the
 * kfuncs serve register models only (a kfunc filter): refused.
 */
#include "iohook_model.bpf.h"
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct sock;

struct tcp_congestion_ops {
	__u32 (*ssthresh)(struct sock *sk);
	void (*cong_avoid)(struct sock *sk, __u32 ack, __u32 acked);
	__u32 (*undo_cwnd)(struct sock *sk);
	char name[16];
} __attribute__((preserve_access_index));

extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

SEC("struct_ops/tcp_escape_ssthresh")
__u32 BPF_PROG(tcp_escape_ssthresh, struct sock *sk)
{
	bpf_iohook_set_value(bpf_rdonly_cast(sk, bpf_core_type_id_kernel(struct iohook_model_ctx)),
			     0);
	return 2;
}

SEC("struct_ops/tcp_escape_cong_avoid")
void BPF_PROG(tcp_escape_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
}

SEC("struct_ops/tcp_escape_undo_cwnd")
__u32 BPF_PROG(tcp_escape_undo_cwnd, struct sock *sk)
{
	return 2;
}

SEC(".struct_ops")
struct tcp_congestion_ops tcp_escape = {
	.ssthresh = (void *)tcp_escape_ssthresh,
	.cong_avoid = (void *)tcp_escape_cong_avoid,
	.undo_cwnd = (void *)tcp_escape_undo_cwnd,
	.name = "tcp_escape",
};

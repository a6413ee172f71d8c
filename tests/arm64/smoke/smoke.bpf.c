// SPDX-License-Identifier: GPL-2.0
/*
 * Smoke test of the arm64 BPF toolchain and kernel: compiles against vmlinux/arm64 (so
 * bpf_tracing.h's PT_REGS macros resolve to struct user_pt_regs) and, in the guest, proves
 * that a uprobe, a uretprobe, a kprobe and raw_syscalls:sys_enter fire.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid;

__u64 uprobe_arg;
__u64 uretprobe_ret;
__u64 kprobe_hits;
__u64 write_calls;

static bool is_target(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == target_tgid;
}

/* Debian's libbpf 1.1 has no BPF_UPROBE (libbpf 1.2+); BPF_KPROBE reads the same registers. */
SEC("uprobe")
int BPF_KPROBE(on_enter, __u64 arg)
{
	if (is_target())
		uprobe_arg = arg;
	return 0;
}

SEC("uretprobe")
int BPF_KRETPROBE(on_return, __u64 ret)
{
	if (is_target())
		uretprobe_ret = ret;
	return 0;
}

SEC("kprobe/do_sys_openat2")
int BPF_KPROBE(on_openat, int dfd)
{
	if (is_target())
		__sync_fetch_and_add(&kprobe_hits, 1);
	return 0;
}

SEC("tp/raw_syscalls/sys_enter")
int on_sys_enter(struct trace_event_raw_sys_enter *ctx)
{
	/* write is syscall 64 on arm64. */
	if (is_target() && BPF_CORE_READ(ctx, id) == 64)
		__sync_fetch_and_add(&write_calls, 1);
	return 0;
}

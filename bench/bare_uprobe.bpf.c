// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The floor of a setter probe: an entry and a return probe that do nothing, so what they
 * cost is the kernel's uprobe and uretprobe machinery alone. bare_uprobe --entry attaches
 * bare_entry alone: the floor of an entry-only probe (animtrace's ART probes).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

SEC("uprobe")
int bare_entry(void *ctx)
{
	return 0;
}

SEC("uretprobe")
int bare_return(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";

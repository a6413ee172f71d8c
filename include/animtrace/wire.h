/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The ring-buffer wire format shared by the BPF programs (bpf/) and userspace (src/).
 * Fixed-width fields only; every record starts with struct at_hdr, whose kind and size
 * the consumer checks before it reads anything else.
 */
#ifndef ANIMTRACE_WIRE_H
#define ANIMTRACE_WIRE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define AT_MARKER_MAX 1024 /* ATRACE_MESSAGE_LENGTH in libcutils */
#define AT_COMM_LEN 16

enum at_rec_kind {
	AT_REC_MARKER = 1, /* a write() to trace_marker */
	AT_REC_PROC = 2,   /* fork, exec, exit or rename of a task */
	AT_REC_PROP = 3,   /* a libhwui RenderNode setter changed a property */
	AT_REC_ART = 4,    /* an ART-compiled framework method was entered */
};

struct at_hdr {
	__u16 kind;  /* enum at_rec_kind */
	__u16 size;  /* bytes in the whole record, header included */
	__u32 tgid;  /* process id */
	__u32 tid;   /* thread id */
	__u32 cpu;
	__u64 ts_ns; /* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
};

/* Only the first hdr.size bytes are sent: data holds len bytes, not NUL-terminated. */
struct at_marker_rec {
	struct at_hdr hdr;
	char comm[AT_COMM_LEN];
	__u32 len;     /* bytes copied into data */
	__u32 req_len; /* bytes the write() asked for: > len means the copy was truncated */
	char data[AT_MARKER_MAX];
};

enum at_proc_event {
	AT_PROC_FORK = 1, /* hdr.tgid/tid = parent; child = new process (child == its tgid) */
	AT_PROC_EXEC = 2,
	AT_PROC_EXIT = 3, /* the whole process (group leader) exited */
	AT_PROC_RENAME = 4, /* comm changed (prctl(PR_SET_NAME)), zygote specialisation */
};

struct at_proc_rec {
	struct at_hdr hdr;
	__u32 event; /* enum at_proc_event */
	__u32 child; /* AT_PROC_FORK only */
	char comm[AT_COMM_LEN];
};

/* Ring-buffer drop counters, one slot per CPU in a per-CPU array map (index 0). */
struct at_drops {
	__u64 marker_ringbuf_full;
	__u64 proc_ringbuf_full;
	__u64 prop_ringbuf_full;
	__u64 art_ringbuf_full;
	__u64 marker_read_fault; /* bpf_probe_read_user of the payload failed */
};

#endif

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

#include "animtrace/props.h"

/*
 * Facts BPF and userspace share live here, once:
 *  - the longest trace_marker write kept: libcutils' ATRACE_MESSAGE_LENGTH, the buffer atrace
 *    formats into (1023 characters and the NUL); --annotate writes no longer ones either;
 *  - a task's comm: TASK_COMM_LEN, 16 bytes with the NUL, so at most 15 characters;
 *  - the trace_marker files the sys_enter program compares fds with (tracefs, debugfs);
 *  - the ring buffer's size when the user gives none (rounded up to a power of two): 256K,
 *    resident twice over (the reader maps its data pages twice). bench's marker runs lost
 *    nothing with 128K up to 400,000 markers/s (and lost some with 64K at 100,000/s).
 */
#define AT_MARKER_MAX 1024
#define AT_COMM_LEN 16
#define AT_MARKER_FILES_MAX 4
#define AT_RINGBUF_DEFAULT (256u << 10)

enum at_rec_kind {
	AT_REC_MARKER = 1,  /* a write() to trace_marker */
	AT_REC_PROC = 2,    /* fork, exec, exit or rename of a task */
	AT_REC_PROP = 3,    /* a libhwui RenderNode setter changed a property */
	AT_REC_ART = 4,	    /* an ART-compiled framework method was entered */
	AT_REC_REFRESH = 5, /* --refresh: a display list re-recorded, or a vsync requested */
	AT_REC_ART_OBJ =
		8, /* ValueAnimator.start, DynamicAnimation.start: a copy of the head of `this` (the heap reader) */
};

struct at_hdr {
	__u16 kind; /* enum at_rec_kind */
	__u16 size; /* bytes in the whole record, header included */
	__u32 tgid; /* process id */
	__u32 tid;  /* thread id */
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
	AT_PROC_EXIT = 3,   /* the whole process (group leader) exited */
	AT_PROC_RENAME = 4, /* comm changed (prctl(PR_SET_NAME)), zygote specialisation */
};

struct at_proc_rec {
	struct at_hdr hdr;
	__u32 event; /* enum at_proc_event */
	__u32 child; /* AT_PROC_FORK only */
	char comm[AT_COMM_LEN];
};

/* RenderNode properties with probed setters (props.h); the order matches enum view_prop. */
enum at_prop {
#define AT_PROP_ENUM(e, b, j, json, sh) AT_PROP_##e,
	AT_PROPS(AT_PROP_ENUM)
#undef AT_PROP_ENUM
		AT_PROP_COUNT,
};

/*
 * The RenderNode float fields of one probed process's libhwui (BPF map prop_offsets, keyed
 * by tgid): two apps with different libhwui builds each read their own. 0: not known.
 */
struct at_prop_offsets {
	__u32 off[AT_PROP_COUNT];
	__u32 uniqueid_off; /* int64 RenderNode::mUniqueId (Android 10+)... */
	__u32 has_uniqueid; /* ...when 1: setter entries read it into at_prop_rec.unique_id */
	/* bit per at_prop whose setter keeps a uretprobe (its code was not understood); the
	 * others are read at their thread's next event (bpf/animtrace.bpf.c, setter_flush) */
	__u32 pair_mask;
	__u32 pad;
};

/*
 * A setter call of one thread (at_setter_state.call), from its entry until its stored value
 * is read: at the thread's next event, or by userspace when it stops.
 */
struct at_setter_call {
	__u64 node;  /* 0: nothing pending */
	__u64 ts_ns; /* the call's entry */
	__u64 unique_id;
	__u32 prop;
	__u32 old_bits;	     /* the field before the setter ran: where an animation started from */
	__u32 flags;	     /* AT_PROP_HAS_UID */
	__u32 awaits_return; /* a uretprobe settles it: no other event may */
	__u32 tgid;
	__u32 pad;
};

/* arm64 top-byte tags (MTE/TBI heap pointers, e.g. 0xb4...) must go before a read: of a
 * node by the setter probes, of a node or its name by userspace. */
#define AT_UNTAG(p) ((p)&0x00ffffffffffffffULL)

#define AT_PROP_HAS_UID 1u /* at_prop_rec.flags: unique_id was read at the setter's entry */

/* A setter changed a value; value is the float read back from the node, the time its call's
 * entry. */
struct at_prop_rec {
	struct at_hdr hdr;
	__u64 node;	  /* RenderNode pointer as the app passed it (tag bits kept) */
	__u32 prop;	  /* enum at_prop */
	__u32 value_bits; /* the IEEE-754 float, bit for bit */
	__u32 old_bits;	  /* the value before the call, read at entry */
	__u32 flags;	  /* AT_PROP_HAS_UID */
	__u64 unique_id;  /* the node's mUniqueId at entry: another id = another node */
};

/*
 * The property records a thread's burst of setter calls gathers (at_setter_state) before one
 * ring-buffer sample carries them back to back, each a whole at_prop_rec: a reserve and
 * submit per batch, not per call (bpf_stats: they were a third of a setter entry's cost).
 * The batch goes out when full, before a setter that keeps a uretprobe, and at the thread's
 * next event of any other kind, so the thread's records keep their order across kinds. A
 * ring sample may therefore hold several records; each one's hdr.size says where the next
 * one starts.
 */
#define AT_SETTER_BATCH 8

/*
 * A setter entry reads the field and the node's mUniqueId in one read of the bytes between
 * them when they lie within this many (a read costs about as much whatever its length: 140 ns
 * here, bpf_stats), else in two. Android 9 stores alpha at RenderNode + 500 (README), after
 * mUniqueId's 0x10 on Android 10+; 1 KiB leaves room for a RenderNode that grew.
 */
#define AT_SETTER_SPAN 1024

/* BPF map setter_calls' value, keyed by tid: the pending call and the records before it. */
struct at_setter_state {
	struct at_setter_call call;
	__u32 nrec; /* records in rec[]: calls settled, all older than call */
	__u32 pad;
	struct at_prop_rec rec[AT_SETTER_BATCH];
	/* the node's bytes read at the entry (the thread's own: no other thread writes them);
	 * 8 more so a load at any offset below AT_SETTER_SPAN stays inside */
	__u8 span[AT_SETTER_SPAN + 8];
};

/* Which probed ART method was entered: one BPF program per kind (src/art.h names them). */
enum at_art_method {
	AT_ART_VA_START = 0, /* android.animation.ValueAnimator.start (every overload) */
	AT_ART_VA_CANCEL,    /* android.animation.ValueAnimator.cancel */
	AT_ART_VA_END,	     /* android.animation.ValueAnimator.end */
	AT_ART_DYN_START,    /* DynamicAnimation.start (framework copy and androidx) */
	AT_ART_DYN_CANCEL,   /* DynamicAnimation.cancel */
	AT_ART_VA_ANIMATE,   /* android.animation.ValueAnimator.animateValue (update listeners) */
	AT_ART_OA_ANIMATE,   /* android.animation.ObjectAnimator.animateValue (property sets) */
	AT_ART_SPRING_START, /* SpringAnimation.start: the DynamicAnimation is a spring */
	AT_ART_DYN_SKIP,     /* SpringAnimation.skipToEnd: ends at the next frame */
	AT_ART_DYN_END,	     /* DynamicAnimation.endAnimationInternal(boolean canceled): arg */
	AT_ART_DYN_FRAME,    /* DynamicAnimation.doAnimationFrame(long frameTime ms): arg */
	AT_ART_METHOD_COUNT,
};

/* ART lock word (object + 4): state in the top two bits; "hash" holds the identity hash. */
#define AT_ART_LOCK_WORD_OFF 4
#define AT_ART_LOCK_STATE_SHIFT 30
#define AT_ART_LOCK_STATE_HASH 2
#define AT_ART_HASH_MASK 0x0fffffffu

/* An ART-compiled method was entered with `this` = obj (entry probe only). */
struct at_art_rec {
	struct at_hdr hdr;
	__u64 obj;	 /* `this`: the 32-bit heap reference from the second argument register */
	__u32 method;	 /* enum at_art_method */
	__u32 cookie;	 /* identity hash = the S/F marker cookie; valid when has_cookie */
	__u32 lock_word; /* raw lock word (0 when it could not be read) */
	__u8 has_cookie; /* the lock word was readable and in the hash state */
	__u8 pad[3];
	__u64 arg; /* the first argument after `this` (AT_ART_DYN_END, _FRAME), else 0 */
};

/*
 * --stacks: an ART record whose hdr.size exceeds sizeof(struct at_art_rec) is followed by
 * struct at_art_stack and its stack bytes; hdr.size is the whole reserved record.
 */
#define AT_ART_NREGS_X86_64 16		/* DWARF registers 0..15: rax..r15 */
#define AT_ART_NREGS_ARM64 32		/* DWARF registers 0..31: x0..x30 and sp */
#define AT_ART_NREGS AT_ART_NREGS_ARM64 /* room for either */
#define AT_ART_STACK_MAX 32768		/* --stacks=BYTES upper bound (hdr.size is 16 bits) */

struct at_art_stack {
	__u64 pc;
	__u64 regs[AT_ART_NREGS]; /* by DWARF number: x86_64 rsp = 7, rbp = 6; arm64 sp = 31 */
	__u32 nregs;		  /* AT_ART_NREGS_X86_64 or AT_ART_NREGS_ARM64 */
	__u32 len;		  /* bytes of data[] copied from the stack pointer upwards */
	__u8 data[];		  /* capacity: hdr.size - sizeof(at_art_rec) - sizeof(this) */
};

/*
 * At ValueAnimator.start, the first bytes of the animator object, copied in the probe so its
 * configuration is the one start() saw, not a later one (mDuration, mRepeatCount, mValues...:
 * ObjectAnimator's fields end at 140 on Android 14 beta 1, 136 on 10, tests/fixtures/dex).
 * It follows the AT_REC_ART record of the same call. len: the bytes copied (a copy that would
 * cross the end of the object's mapping is retried shorter: 256, 128, 64, 32; 0 when none
 * could be read).
 */
#define AT_ART_OBJ_BYTES 256
struct at_art_obj_rec {
	struct at_hdr hdr;
	__u64 obj; /* `this` */
	__u32 len;
	__u32 method; /* enum at_art_method of the probe: AT_ART_VA_START (0), or
		       * AT_ART_SPRING_START / AT_ART_DYN_START (a DynamicAnimation) */
	__u8 data[AT_ART_OBJ_BYTES];
};

/* What an AT_REC_REFRESH record saw (one BPF program each: no attach cookies on 5.10). */
enum at_refresh_what {
	AT_REFRESH_REDRAW = 1, /* a RenderNode got a new display list (node set) */
	AT_REFRESH_VSYNC = 2,  /* nativeScheduleVsync / DisplayEventDispatcher::scheduleVsync */
};

/*
 * --refresh. A vsync record whose hdr.size exceeds sizeof(struct at_refresh_rec) is followed
 * by struct at_art_stack and its stack bytes (--stacks), as an ART record is.
 */
struct at_refresh_rec {
	struct at_hdr hdr;
	__u64 node; /* AT_REFRESH_REDRAW: the RenderNode pointer (tag bits kept); else 0 */
	__u32 what; /* enum at_refresh_what */
	__u32 pad;
};

/* Ring-buffer drop counters, one slot per CPU in a per-CPU array map (index 0). */
struct at_drops {
	__u64 marker_ringbuf_full;
	__u64 proc_ringbuf_full;
	__u64 prop_ringbuf_full;
	__u64 art_ringbuf_full;
	__u64 marker_read_fault; /* bpf_probe_read_user of the payload failed */
	__u64 prop_read_fault;	 /* the node's float could not be read at return */
	__u64 prop_stash_full;	 /* no room to remember a setter's arguments until it returns */
	__u64 refresh_ringbuf_full;
};

#endif

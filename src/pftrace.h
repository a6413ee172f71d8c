/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Perfetto protobuf traces (.perfetto-trace, .pftrace) -> ftrace print events and thread
 * names. A small hand-written protobuf reader, no library: every varint is bounds-checked
 * (at most 10 bytes), every length is checked against what is left of its enclosing
 * message, and the walk follows a fixed message structure, so nesting never goes deeper
 * than Trace > TracePacket > ProcessTree or FtraceEventBundle > FtraceEvent > its event.
 * Damaged or cut-off data ends the walk (or skips the damaged message); it never crashes.
 *
 * Field numbers, checked against google/perfetto protos/perfetto/trace/:
 *   Trace { repeated TracePacket packet = 1 }
 *   TracePacket { FtraceEventBundle ftrace_events = 1; ProcessTree process_tree = 2 }
 *   FtraceEventBundle { cpu = 1; repeated FtraceEvent event = 2; CompactSched compact_sched = 4 }
 *   FtraceEvent { uint64 timestamp = 1; uint32 pid = 2 (the TID); print = 3;
 *                 sched_switch = 4; task_newtask = 235; task_rename = 236 }
 *   PrintFtraceEvent { ip = 1; string buf = 2 }
 *   ProcessTree { repeated Process processes = 1 {pid = 1, ppid = 2, repeated cmdline = 3};
 *                 repeated Thread threads = 2 {tid = 1, name = 2, tgid = 3} }
 * There is no compact form for print events (CompactSched only holds sched_switch and
 * sched_waking), so prints are always FtraceEvent.print.
 */
#ifndef ANIMTRACE_PFTRACE_H
#define ANIMTRACE_PFTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "marker.h"

/* One ftrace print event (an atrace marker write). */
struct pf_print {
	uint64_t ts_ns;
	int32_t tid;      /* FtraceEvent.pid: the kernel pid, i.e. the writing thread */
	struct strv buf;  /* PrintFtraceEvent.buf, as written (often ends in '\n') */
};

/* What the trace says about one thread; name and tgid may be unknown. */
struct pf_thread {
	int32_t tid;
	int32_t tgid;     /* -1 when unknown */
	struct strv name; /* process cmdline[0] for a main thread, else the thread name;
			   * empty when unknown */
};

struct pftrace;

/* True when data looks like a Perfetto trace: a well-formed first TracePacket. */
bool pftrace_detect(const void *data, size_t len);

/*
 * Indexes a whole trace held in data (not copied: it must outlive the result). Print
 * events are sorted by timestamp, because bundles are per CPU and not in global order.
 * Returns NULL and sets errno (ENOMEM; EINVAL when not even one packet is readable).
 */
struct pftrace *pftrace__new(const void *data, size_t len);

/* Print events, in timestamp order (file order for equal timestamps). */
size_t pftrace__n_prints(const struct pftrace *t);
int pftrace__print(const struct pftrace *t, size_t i, struct pf_print *out);

/* Threads named by process trees and sched/task events, sorted by tid. */
size_t pftrace__n_threads(const struct pftrace *t);
const struct pf_thread *pftrace__thread_at(const struct pftrace *t, size_t i);
/* The thread with this tid, or NULL. */
const struct pf_thread *pftrace__thread(const struct pftrace *t, int32_t tid);

/* Messages that could not be decoded and were skipped (0 for an intact trace). */
uint64_t pftrace__malformed(const struct pftrace *t);

void pftrace__free(struct pftrace *t);

#endif

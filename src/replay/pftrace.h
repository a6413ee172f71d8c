/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Perfetto protobuf traces (.perfetto-trace, .pftrace) -> ftrace print events and thread
 * names; TrackEvent CUJs (replay/pftrackevent.h) are restated as the print events
 * FrameTracker writes for them and indexed with the others. A small hand-written protobuf reader, no library: every varint is bounds-checked
 * (at most 10 bytes), every length is checked against what is left of its enclosing
 * message, and the walk follows a fixed message structure, so nesting never goes deeper
 * than Trace > TracePacket > ProcessTree or FtraceEventBundle > FtraceEvent > its event.
 * A damaged packet (or event) is skipped up to the next one that provably parses (a 0x0a
 * or 0x12 header whose message parses whole and is followed by another such header or the
 * end), in time linear in the bytes skipped; it never crashes. Memory is bounded: the trace
 * is read a packet at a time (16 MiB at most; a compressed_packets is inflated and read 16 MiB
 * at a time, so a larger one loses nothing); print events are indexed, up to 512 Ki
 * of them and 16 MiB of payload, because bundles are per CPU and need a global sort;
 * prints beyond that are counted (pf_damage.dropped_prints), as are threads beyond 64 Ki.
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
 *
 * SurfaceFlinger's FrameTimeline (see common/frametimeline.h for its fields and values):
 *   TracePacket { uint64 timestamp = 8; uint32 timestamp_clock_id = 58;
 *                 FrameTimelineEvent frame_timeline_event = 76 }
 * (google/perfetto protos/perfetto/trace/trace_packet.proto; since 2026-07 field 76 is an
 * extension declared in protos/third_party/android/frameworks/native/tracing/
 * frameworks_native_trace_packet.proto, with the same number.) Each start event is paired
 * with the FrameEnd of the same cookie, in file order, through a bounded table of open
 * frames (SurfaceFlinger writes a frame's end right after its start); the frames are
 * indexed, up to 256 Ki of them (24 MiB), in start order; layer names are interned.
 */
#ifndef ANIMTRACE_PFTRACE_H
#define ANIMTRACE_PFTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/frametimeline.h"
#include "common/marker.h"

/* One ftrace print event (an atrace marker write). */
struct pf_print {
	uint64_t ts_ns;
	int32_t tid;	 /* FtraceEvent.pid: the kernel pid, i.e. the writing thread */
	struct strv buf; /* PrintFtraceEvent.buf, as written (often ends in '\n') */
};

/* What the trace says about one thread; name and tgid may be unknown. */
struct pf_thread {
	int32_t tid;
	int32_t tgid;	  /* -1 when unknown */
	struct strv name; /* process cmdline[0] for a main thread, else the thread name;
			   * empty when unknown */
};

struct pftrace;

/* Where a trace is read from: like pread, returns bytes read (0 at the end) or -errno. */
struct pf_src {
	ssize_t (*read)(void *ctx, void *buf, size_t n, uint64_t off);
	void *ctx;
	uint64_t size; /* bytes the source holds */
};

/* What the reader had to skip or leave out (all 0 for an intact trace within the caps). */
struct pf_damage {
	uint64_t packets;	  /* TracePackets read */
	uint64_t skipped_packets; /* damaged stretches between packets, skipped */
	uint64_t skipped_events;  /* damaged stretches between events of a bundle, skipped */
	uint64_t skipped_bytes;	  /* bytes in those stretches */
	uint64_t bad_messages;	  /* messages inside packets that did not decode (their print
				   * or name is lost) */
	uint64_t bad_blocks;	  /* compressed_packets that did not inflate whole (the packets
				   * before the damage are read) */
	uint64_t truncated_at;	  /* the size, when the last packet runs past it; else 0 */
	uint64_t dropped_prints;  /* print events beyond the index caps */
	uint64_t dropped_threads; /* tids beyond the thread cap */
	uint64_t unread_events;	  /* TrackEvent CUJ events not restated (pftrackevent.h) */
	uint64_t untrusted;	  /* frame_timeline_events from a producer that is not
				   * SurfaceFlinger (trusted_uid not 1000): not read */
};

/* What the FrameTimeline reader saw and had to leave out (all 0 without FrameTimeline). */
struct pf_timeline_stats {
	uint64_t events;	 /* frame_timeline_event packets decoded */
	uint64_t frames;	 /* frames indexed, ended or not */
	uint64_t unended;	 /* of those, starts no FrameEnd closed (indexed with !ended) */
	uint64_t evicted;	 /* of those, pushed out of the full table of open frames */
	uint64_t unpaired_ends;	 /* FrameEnds whose start was not seen (or was evicted) */
	uint64_t bad;		 /* events that were damaged, lacked a field trace processor
				  * requires (see pftrace_timeline_decode), had no event, or
				  * had a negative or huge timestamp */
	uint64_t dropped;	 /* frames beyond the index cap */
	uint64_t other_clock;	 /* frames timestamped on a clock other than boottime */
	uint64_t unnamed_layers; /* surface frames whose layer name the name table had no room
				  * for (their layer is empty) */
};

/*
 * Decodes one FrameTimelineEvent message. Pure; out->layer points into msg. Unknown
 * fields, and known ones of an unexpected wire type, are skipped; of several events in the
 * oneof, the last counts. Returns 0, -EINVAL when the message is damaged (a cut varint, a
 * length past its end), -ENOMSG when it holds no event, -EBADMSG when it lacks a field trace
 * processor requires (cookie; token and pid for starts; display_frame_token for surface
 * frames).
 */
int pftrace_timeline_decode(const void *msg, size_t len, struct ft_event *out);

/* True when data looks like a Perfetto trace: a well-formed first TracePacket. */
bool pftrace_detect(const void *data, size_t len);

/*
 * Indexes a whole trace read from src, one packet at a time. Print events are sorted by
 * timestamp, because bundles are per CPU and not in global order. Returns NULL and sets
 * errno (ENOMEM; EINVAL when not even one packet is readable).
 */
struct pftrace *pftrace__read(const struct pf_src *src);

/* pftrace__read of a trace held in memory (copied from as needed: data may go after). */
struct pftrace *pftrace__new(const void *data, size_t len);

/* Print events, in timestamp order (file order for equal timestamps). */
size_t pftrace__n_prints(const struct pftrace *t);
int pftrace__print(const struct pftrace *t, size_t i, struct pf_print *out);

/* Threads named by process trees and sched/task events, sorted by tid. */
size_t pftrace__n_threads(const struct pftrace *t);
const struct pf_thread *pftrace__thread_at(const struct pftrace *t, size_t i);
/* The thread with this tid, or NULL. */
const struct pf_thread *pftrace__thread(const struct pftrace *t, int32_t tid);

/* FrameTimeline frames, in start order (file order for equal starts). */
size_t pftrace__n_frames(const struct pftrace *t);
/* Frame i; its layer name stays valid while t lives. 0, or -ERANGE. */
int pftrace__frame(const struct pftrace *t, size_t i, struct ft_frame *out);
void pftrace__timeline_stats(const struct pftrace *t, struct pf_timeline_stats *out);

/* Messages that could not be decoded and were skipped (0 for an intact trace). */
uint64_t pftrace__malformed(const struct pftrace *t);

/* What was skipped or left out, for the caller's warning. */
void pftrace__damage(const struct pftrace *t, struct pf_damage *out);

void pftrace__free(struct pftrace *t);

#endif

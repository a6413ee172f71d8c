/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Perfetto traces written by the tests, a packet at a time, to a file (unit/pbw.h writes the
 * messages): print events, process trees, track descriptors and TrackEvents. Field numbers as
 * replay/pftrace.h and replay/pftrackevent.h list them.
 */
#ifndef ANIMTRACE_TESTS_PF_WRITE_H
#define ANIMTRACE_TESTS_PF_WRITE_H

#include <stdio.h>

#include "unit/pbw.h"

/* Trace { packet = 1 { timestamp = 8, trusted_packet_sequence_id = 10, <id> = msg } } */
static inline void pf_packet(FILE *f, uint64_t ts, uint32_t id, const struct pbw *msg)
{
	struct pbw pkt = { .len = 0 }, top = { .len = 0 };

	if (ts)
		w_uint(&pkt, 8, ts);
	w_uint(&pkt, 10, 1);
	w_msg(&pkt, id, msg);
	w_msg(&top, 1, &pkt);
	cr_assert_eq(fwrite(top.b, 1, top.len, f), top.len);
}

/* A packet of one FtraceEventBundle holding one print event written by tid. */
static inline void pf_print(FILE *f, uint64_t ts, int tid, const char *text)
{
	struct pbw bundle = { .len = 0 }, ev = { .len = 0 }, pr = { .len = 0 };

	w_str(&pr, 2, text);
	w_uint(&ev, 1, ts);
	w_uint(&ev, 2, (uint64_t)tid);
	w_msg(&ev, 3, &pr);
	w_msg(&bundle, 2, &ev);
	pf_packet(f, 0, 1, &bundle);
}

/* ProcessTree { processes = 1 {pid = 1, cmdline = 3} } or { threads = 2 {tid = 1, name = 2,
 * tgid = 3} } when tid. */
static inline void pf_proc(FILE *f, int pid, int tid, const char *name)
{
	struct pbw tree = { .len = 0 }, p = { .len = 0 };

	w_uint(&p, 1, (uint64_t)(tid ? tid : pid));
	w_str(&p, tid ? 2 : 3, name);
	if (tid)
		w_uint(&p, 3, (uint64_t)pid);
	w_msg(&tree, tid ? 2 : 1, &p);
	pf_packet(f, 0, 2, &tree);
}

/* TrackDescriptor { uuid = 1, process = 3 {pid = 1} (pid != 0), parent_uuid = 5 (parent) } */
static inline void pf_track(FILE *f, uint64_t uuid, uint64_t parent, int pid)
{
	struct pbw d = { .len = 0 }, pd = { .len = 0 };

	w_uint(&d, 1, uuid);
	if (pid) {
		w_uint(&pd, 1, (uint64_t)pid);
		w_msg(&d, 3, &pd);
	}
	if (parent)
		w_uint(&d, 5, parent);
	pf_packet(f, 0, 60, &d);
}

/* TrackEvent { type = 9 (1 begin, 2 end, 3 instant), track_uuid = 11, name = 23 } */
static inline void pf_track_event(FILE *f, uint64_t ts, int type, uint64_t track, const char *name)
{
	struct pbw te = { .len = 0 };

	w_uint(&te, 9, (uint64_t)type);
	w_uint(&te, 11, track);
	if (name)
		w_str(&te, 23, name);
	pf_packet(f, ts, 11, &te);
}

#endif

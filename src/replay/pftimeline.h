/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * FrameTimeline frames of a Perfetto trace, for replay/pftrace.c (internal; callers use
 * pftrace.h, which documents the fields, the bounds and pftrace_timeline_decode, defined in
 * pftimeline.c). A timeline is fed each frame_timeline_event packet in file order; a start
 * waits in a bounded table of open frames until the FrameEnd of its cookie closes the newest
 * such start; layer names are interned. pftl_finish indexes the frames still open (unended)
 * and sorts all of them by start (file order for equal starts); then they can be read.
 */
#ifndef ANIMTRACE_PFTIMELINE_H
#define ANIMTRACE_PFTIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "common/frametimeline.h"
#include "replay/pbwire.h"
#include "replay/pftrace.h"

struct timeline;

/* An empty timeline, or NULL (no memory). */
struct timeline *pftl_new(void);

/*
 * One frame_timeline_event (TracePacket field 76, f), with its packet's timestamp and clock.
 * A damaged or incomplete event is counted (stats.bad), not indexed. Returns 0 or -ENOMEM.
 */
int pftl_event(struct timeline *tl, const struct pb_field *f, uint64_t ts, uint32_t clock);

/* After the last event: indexes the frames still open and sorts all. Returns 0 or -ENOMEM. */
int pftl_finish(struct timeline *tl);

/* After pftl_finish; tl may be NULL (no FrameTimeline): no frames, stats all 0. */
size_t pftl_n_frames(const struct timeline *tl);
/* Frame i in start order; its layer name stays valid while tl lives. 0, or -ERANGE. */
int pftl_frame(const struct timeline *tl, size_t i, struct ft_frame *out);
void pftl_stats(const struct timeline *tl, struct pf_timeline_stats *out);

/* Frees tl and all it holds; NULL is fine. */
void pftl_free(struct timeline *tl);

#endif

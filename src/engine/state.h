/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The lifecycle engine's state (internal to src/engine/): a process, a thread and the engine
 * are each the sum of the trackers' parts, which every tracker's header defines; SINK_CALL
 * sends a record.
 */
#ifndef ANIMTRACE_ENGINE_STATE_H
#define ANIMTRACE_ENGINE_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/coll.h"
#include "engine/anims.h"
#include "engine/artcalls.h"
#include "engine/attrib.h"
#include "engine/cujs.h"
#include "engine/dynanims.h"
#include "engine/engine.h"
#include "engine/findings.h"
#include "engine/frames.h"
#include "engine/jank.h"
#include "engine/procs.h"
#include "engine/props.h"
#include "engine/redraws.h"
#include "engine/segment.h"
#include "engine/slices.h"
#include "engine/starter.h"
#include "engine/summary.h"
#include "engine/trust.h"

struct proc {
	uint32_t pid;
	char name[AT_PROC_MAX];
	struct anims_proc anims;
	struct frames_proc frames;
	struct jank_proc jank;
	struct props_proc props;
	struct attrib_proc attrib;
	struct artcalls_proc art;
	struct redraws_proc redraws;
	struct summary_proc summary;
	struct dynanims_proc dyn;
	struct cujs_proc cujs;
	struct findings_proc findings;
	struct starter_proc starter;
	struct trust_proc trust;
};

struct thread {
	uint32_t tid, pid;
	uint64_t used; /* procs' tick at its last use: the least recently used are evicted */
	struct slices_thread slices;
	struct frames_thread frames;
	struct jank_thread jank;
	struct artcalls_thread art;
	struct attrib_thread attrib;
	struct dynanims_thread dyn;
};

/* Where records go: the sink, and the first error it returned (nothing is sent after it). */
struct emit {
	struct sink sink;
	int err;
	uint64_t src_ts_ns; /* the input event being handled (note_time): stamped on its records */
};

struct engine {
	struct engine_opts opts;
	struct emit out;
	struct evictions ev;
	struct procs procs;
	struct slices slices;
	struct anims anims;
	struct frames frames;
	struct jank_display display; /* SurfaceFlinger's vsyncs */
	struct props props;
	struct redraws redraws;
	struct session session;
	struct cujs cujs;
	struct segment *seg; /* unmarked animations (engine/segment.h) */
	struct findings findings;
	struct dynanims dyn;
	struct trust trust; /* whose vsync, who is an impostor */
};

/*
 * A record's last touch before the sinks see it: the input event that caused it (model.h:
 * src_ts_ns), and for the summary what the sinks add (summary_fill). Records are the engine's
 * own objects, const only towards the sinks; a record type sent without a case here does not
 * compile.
 */
#define SINK_STAMP(type)                                                        \
	static inline void stamp_##type(struct emit *o, const struct type *rec) \
	{                                                                       \
		((struct type *)rec)->src_ts_ns = o->src_ts_ns;                 \
	}
/* Unformatted: a list of macro calls, which clang-format 14 reads as one statement. */
/* clang-format off */
SINK_STAMP(anim)
SINK_STAMP(frame)
SINK_STAMP(frame_props)
SINK_STAMP(jank)
SINK_STAMP(refresh_storm)
SINK_STAMP(animation)
SINK_STAMP(cuj)
SINK_STAMP(finding)
SINK_STAMP(dyn_anim)
/* clang-format on */
static inline void stamp_none(struct emit *o, const void *rec)
{
}
static inline void stamp_summary(struct emit *o, struct summary *s)
{
	if (!o->err && o->sink.ops && o->sink.ops->summary_fill)
		o->err = o->sink.ops->summary_fill(o->sink.ctx, s);
}
#define SINK_PREPARE(o, rec)                             \
	_Generic(*(rec), struct anim                     \
		 : stamp_anim, struct frame              \
		 : stamp_frame, struct frame_props       \
		 : stamp_frame_props, struct jank        \
		 : stamp_jank, struct refresh_storm      \
		 : stamp_refresh_storm, struct animation \
		 : stamp_animation, struct cuj           \
		 : stamp_cuj, struct finding             \
		 : stamp_finding, struct dyn_anim        \
		 : stamp_dyn_anim, struct summary        \
		 : stamp_summary, struct annotation      \
		 : stamp_none, char                      \
		 : stamp_none)(o, rec)

/* Calls the sink's cb unless it is NULL or an earlier call failed, and keeps its error. */
#define SINK_CALL(o, cb, arg)                                             \
	do {                                                              \
		SINK_PREPARE(o, arg);                                     \
		if (!(o)->err && (o)->sink.ops && (o)->sink.ops->cb)      \
			(o)->err = (o)->sink.ops->cb((o)->sink.ctx, arg); \
	} while (0)

/* Sweeps t with drop and adds what it removed to the eviction counter *count. */
static inline long sweep_count(struct htab *t, bool (*drop)(void *v, void *ctx), void *ctx,
			       uint64_t *count)
{
	long n = htab_sweep(t, drop, ctx);

	if (n > 0)
		*count += (uint64_t)n;
	return n;
}

#endif

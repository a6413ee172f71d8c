/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The lifecycle engine's state (internal to src/engine/): the process, thread and engine
 * records every part of the engine works on, and SINK_CALL.
 */
#ifndef ANIMTRACE_ENGINE_STATE_H
#define ANIMTRACE_ENGINE_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/caps.h"
#include "common/coll.h"
#include "engine/engine.h"
#include "engine/period.h"
#include "engine/segment.h"

#define LONGEST_MAX 5
#define LONGEST_FRAMES_MAX 3

struct name_acc {
	char name[AT_NAME_MAX];
	uint32_t count, cancels, running;
	uint64_t total_ns, max_ns;
	uint64_t frames;
	uint64_t *durs; /* ended durations, for the median (a reservoir beyond CAP_DURATIONS) */
	size_t n_durs, cap_durs;
	uint64_t seen_durs; /* durations offered to durs */
};

struct anim_run;

/* One (pid, name, cookie): small and kept forever so cookie reuse can be counted. */
struct anim_key {
	uint32_t pid;
	int64_t cookie;
	struct name_acc *name;
	uint32_t starts;
	bool evicted;         /* its run was evicted: its F is no cancel-before-start */
	struct anim_run *run; /* non-NULL while running */
};

struct anim_run {
	struct anim a;
	struct anim_key *key;
	struct anim_run *prev, *next; /* the process's running list */
	uint64_t last_seq; /* the last frame it ran in (0: none yet) */
	struct anim_target *tg; /* the nodes it wrote (exact attribution), unsorted */
	size_t n_tg, cap_tg;
	bool tg_announced; /* its first frame with writes was told to the sink */
};

struct frame_st {
	struct frame f;
	uint64_t *ids;
	size_t n_ids, cap_ids;
	bool live; /* open (cur) or waiting for its draw (done) */
	bool drawn; /* its RenderThread DrawFrame(s) ended (vsync ids: before the doFrame did) */
	bool assumed;      /* budget_ns was the assumed period, not a measured one */
	uint64_t *gap_ids; /* animators that ran across the gap before it */
	size_t n_gap_ids, cap_gap_ids;
	uint64_t gap_start_ns; /* the end of the previous doFrame of its thread */
	struct slice_chain ui, render;         /* the doFrame's and the draw's chains */
	struct slice_chain ui_gap, render_gap; /* the longest slices in the gap before it */
	/* --refresh: Views re-recorded and vsync requests while open or since the previous
	 * frame closed, and the Java callers of its last request */
	struct redraw_node *rd;
	size_t n_rd, cap_rd;
	uint32_t rd_dropped, vsync_req;
	int n_vstack;
	char vstack[AT_STACK_FRAMES][AT_FRAME_NAME];
};

/* A RenderNode of one process: its name and the last value seen per property. */
struct node_st {
	uint64_t node;
	uint64_t uid;   /* mUniqueId (live, Android 10+), valid when has_uid */
	bool has_uid;
	char name[64];
	uint32_t known; /* bit per enum view_prop: val[] holds a value seen earlier */
	float val[PROP_COUNT];
	uint64_t gen;   /* the batch generation idx belongs to */
	int idx;        /* slot in that batch, -1 when the batch was full */
	uint64_t redraw_frames; /* --refresh: frames in which it re-recorded */
};

/* The Views of a refresh storm in progress, by frames redrawn. */
#define STORM_VIEWS 8
struct storm_st {
	uint32_t frames, vsyncs;
	uint64_t first_ns, end_ns;
	int n_views;
	struct redraw_node views[STORM_VIEWS];
	uint32_t view_frames[STORM_VIEWS];
	uint32_t views_other; /* distinct Views beyond STORM_VIEWS */
	int n_stack;
	char stack[AT_STACK_FRAMES][AT_FRAME_NAME];
};

/* What segment.h needs of a node's slot in a batch besides its values. */
struct batch_before {
	float v[PROP_COUNT]; /* each property's value when the batch began */
	uint32_t known;      /* bit per enum view_prop: v[] holds one */
	uint32_t explained;  /* bit per enum view_prop: a running animator wrote it */
};

/* The property changes of the current frame (or since the last one) of a process. */
struct prop_batch {
	struct frame_props fp;
	struct node_props *nodes;
	struct batch_before *before; /* before[i] goes with nodes[i]; cap_before slots */
	size_t n, cap, cap_before;
	uint64_t gen; /* bumped at every flush, so node_st.idx goes stale without a walk */
};

struct proc {
	uint32_t pid;
	char name[AT_PROC_MAX];
	struct anim_run *running, *running_tail; /* in start order */
	size_t n_running;
	uint64_t seq;
	struct frame_st cur;  /* the doFrame in progress */
	struct frame_st done; /* ended, waiting for its DrawFrame(s) */
	struct htab nodes;    /* node_st by RenderNode pointer */
	struct prop_batch pb;
	bool art;             /* ART probes on cancel/end: unexplained F means complete... */
	uint64_t art_since;   /* ...for an F written once they were attached */
	/* smoothness */
	struct period *refresh; /* NULL until its first interval */
	uint32_t ui_tid, render_tid;
	uint64_t janky, dropped;     /* over frames judged with a measured period */
	uint64_t early[16];          /* doFrame durations judged with the assumed period */
	int n_early;
	struct anim_smooth worst[AT_WORST_ANIMS];
	int n_worst;
	bool refresh_on; /* --refresh probes ran in it */
	struct storm_st storm;
	/* ValueAnimator.start calls waiting for their S (start delay), oldest first */
	struct {
		uint32_t cookie;
		uint64_t ts_ns;
	} starts[CAP_PENDING_STARTS];
	int n_starts;
	bool tg_pending; /* an animator got its first exact target in the current batch */
	uint64_t markers, prop_writes; /* props without markers: its atrace tags are off */
	int draws_open; /* DrawFrame(s) slices begun and not yet ended, on any of its threads */
};

enum slice_kind { SLICE_OTHER, SLICE_DOFRAME, SLICE_PHASE, SLICE_DRAW };

struct slice {
	uint8_t kind;
	uint8_t phase;
	int64_t vsync;
	uint64_t start_ns;
	char name[AT_SLICE_NAME];
	uint64_t best_dur;       /* its longest ended child so far... */
	struct slice_chain best; /* ...with that child's own longest descendants */
};

/* The last ValueAnimator.cancel/end this thread entered, waiting for its F. */
struct art_pending {
	bool valid;
	enum art_call call;
	uint32_t cookie;
	uint64_t ts_ns;
	int n_stack; /* its Java callers (--stacks) */
	char stack[AT_STACK_FRAMES][AT_FRAME_NAME];
};

struct thread {
	uint32_t tid, pid;
	struct slice *st;
	size_t depth, cap;
	uint32_t overflow; /* B markers beyond CAP_SLICE_DEPTH, waiting for their E */
	/* the longest top-level slice since its last doFrame or draw ended (a gap's cause) */
	uint64_t top_dur;
	struct slice_chain top;
	bool has_frame; /* it ran a doFrame: the fields below describe the last one */
	uint64_t last_frame_ns, last_frame_end_ns, last_frame_seq;
	int64_t last_vsync;
	uint64_t anchor_ns;  /* the frame vsync-id periods are measured from (vsync -1: none) */
	uint64_t min_interval_ns; /* its shortest doFrame interval without ids (0: none yet) */
	int64_t anchor_vsync;
	struct art_pending art;
	struct art_pending art_start; /* the last start(), waiting for its S (--stacks) */
	/*
	 * The animator whose animateValue the thread entered last: its property writes are
	 * that animator's until the next animateValue, the end of the animation phase slice at
	 * depth av_depth - 1, or (av_depth 0: entered outside a phase) the thread's next marker.
	 */
	bool av_valid;
	uint32_t av_cookie;
	size_t av_depth;
};

struct engine {
	struct engine_opts opts;
	struct sink sink;
	struct htab keys, names, procs, threads;
	struct proc **proc_list; /* creation order, for deterministic flushing */
	size_t n_procs, cap_procs;
	struct name_acc **name_list;
	size_t n_names, cap_names;
	struct anim longest[LONGEST_MAX];
	int n_longest;
	uint64_t first_ns, last_ns, started, ended, frames, markers, rejected;
	uint64_t annotations;
	size_t n_running;
	size_t n_slices; /* open slices in all threads (CAP_OPEN_SLICES) */
	struct proc_stat *exited; /* smoothness of processes that exited */
	size_t n_exited, cap_exited;
	struct evictions ev;
	struct node_name_stats node_names; /* live: given by engine__node_names */
	uint64_t rng; /* the duration reservoir's generator (deterministic) */
	bool seen;
	struct frame longest_frames[LONGEST_FRAMES_MAX];
	int n_longest_frames;
	uint64_t prop_frames, prop_sets;
	uint32_t prop_sets_max;
	bool refresh; /* --refresh probes ran in some process */
	struct redraw_stat redraw_top[AT_REDRAW_TOP];
	int n_redraw_top;
	int sink_err; /* the first error a sink returned: nothing is sent after it */
	struct segment *seg;       /* unmarked animations (src/segment.h) */
	struct seg_change *seg_buf; /* one frame's changes for it */
	size_t n_seg_buf, cap_seg_buf;
};

/* Calls the sink's cb unless it is NULL or an earlier call failed, and keeps its error. */
#define SINK_CALL(e, cb, arg)                                                          \
	do {                                                                           \
		if (!(e)->sink_err && (e)->sink.ops && (e)->sink.ops->cb)              \
			(e)->sink_err = (e)->sink.ops->cb((e)->sink.ctx, arg);         \
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

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Lifecycle engine. State lives in three append-only hash tables (animator keys,
 * processes, threads) so every marker costs O(1) on average; the only per-frame walk is
 * over the animators running in that process, which is what a frame has to list anyway.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/caps.h"
#include "common/coll.h"
#include "engine/engine.h"
#include "engine/period.h"
#include "engine/segment.h"

#define LONGEST_MAX 5
#define LONGEST_FRAMES_MAX 3
#define DEFAULT_INSTANT_NS 1000000ull
#define OTHER_NAMES "(other names)" /* the stats row of names beyond CAP_NAMES */

/* ---- state --------------------------------------------------------------------------- */

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
	uint64_t src_ts_ns; /* the input event being handled (note_time): stamped on its records */
	struct segment *seg;       /* unmarked animations (src/segment.h) */
	struct seg_change *seg_buf; /* one frame's changes for it */
	size_t n_seg_buf, cap_seg_buf;
};

/*
 * A record's last touch before the sinks see it: the input event that caused it (model.h:
 * src_ts_ns), and for the summary what the sinks add (summary_fill). Records are the engine's
 * own objects, const only towards the sinks; a record type sent without a case here does not
 * compile.
 */
#define SINK_STAMP(type)                                                               \
	static void stamp_##type(struct engine *e, const struct type *rec)              \
	{                                                                              \
		((struct type *)rec)->src_ts_ns = e->src_ts_ns;                        \
	}
SINK_STAMP(anim) SINK_STAMP(frame) SINK_STAMP(frame_props) SINK_STAMP(jank)
SINK_STAMP(refresh_storm) SINK_STAMP(animation)
static void stamp_none(struct engine *e, const void *rec) {}
static void stamp_summary(struct engine *e, struct summary *s)
{
	if (!e->sink_err && e->sink.ops && e->sink.ops->summary_fill)
		e->sink_err = e->sink.ops->summary_fill(e->sink.ctx, s);
}
#define SINK_PREPARE(e, rec)                                                           \
	_Generic(*(rec), struct anim: stamp_anim, struct frame: stamp_frame,           \
		 struct frame_props: stamp_frame_props, struct jank: stamp_jank,        \
		 struct refresh_storm: stamp_refresh_storm, struct animation: stamp_animation, \
		 struct summary: stamp_summary, struct annotation: stamp_none,         \
		 char: stamp_none)(e, rec)

/* Calls the sink's cb unless it is NULL or an earlier call failed, and keeps its error. */
#define SINK_CALL(e, cb, arg)                                                          \
	do {                                                                           \
		SINK_PREPARE(e, arg);                                                  \
		if (!(e)->sink_err && (e)->sink.ops && (e)->sink.ops->cb)              \
			(e)->sink_err = (e)->sink.ops->cb((e)->sink.ctx, arg);         \
	} while (0)

/* ---- lookups ------------------------------------------------------------------------- */

static bool name_eq(const void *v, const void *key)
{
	return !strcmp(((const struct name_acc *)v)->name, key);
}

static struct name_acc *name_get(struct engine *e, const char *name)
{
	uint64_t h = hash_str(name, 0);
	struct name_acc *n = htab_find(&e->names, h, name_eq, name);

	if (n)
		return n;
	if (e->n_names >= CAP_NAMES && strcmp(name, OTHER_NAMES)) {
		e->ev.names++;
		return name_get(e, OTHER_NAMES);
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	strcpy(n->name, name);
	struct name_acc **slot = vec_push((void **)&e->name_list, &e->n_names, &e->cap_names,
					  sizeof(*slot));
	if (!slot || htab_add(&e->names, h, n)) {
		if (slot)
			e->n_names--;
		free(n);
		return NULL;
	}
	*slot = n;
	return n;
}

struct key_q {
	uint32_t pid;
	int64_t cookie;
	const struct name_acc *name;
};

static bool key_eq(const void *v, const void *key)
{
	const struct anim_key *k = v;
	const struct key_q *q = key;

	return k->pid == q->pid && k->cookie == q->cookie && k->name == q->name;
}

static bool key_idle(void *v, void *ctx)
{
	struct anim_key *k = v;

	if (k->run)
		return false;
	free(k);
	return true;
}

/* Sweeps t with drop and adds what it removed to the eviction counter *count. */
static long sweep_count(struct htab *t, bool (*drop)(void *v, void *ctx), void *ctx,
			uint64_t *count)
{
	long n = htab_sweep(t, drop, ctx);

	if (n > 0)
		*count += (uint64_t)n;
	return n;
}

/* The keys table is full: forget the animators that are not running. */
static void keys_sweep(struct engine *e)
{
	sweep_count(&e->keys, key_idle, NULL, &e->ev.anim_keys);
}

static struct anim_key *key_get(struct engine *e, uint32_t pid, struct name_acc *n,
				int64_t cookie)
{
	struct key_q q = { pid, cookie, n };
	uint64_t h = hash_mix64(((uint64_t)pid << 32) ^ (uint64_t)cookie ^ (uintptr_t)n);
	struct anim_key *k = htab_find(&e->keys, h, key_eq, &q);

	if (k)
		return k;
	if (e->keys.cnt >= CAP_ANIM_KEYS)
		keys_sweep(e);
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->pid = pid;
	k->cookie = cookie;
	k->name = n;
	if (htab_add(&e->keys, h, k)) {
		free(k);
		return NULL;
	}
	return k;
}

static bool proc_eq(const void *v, const void *key)
{
	return ((const struct proc *)v)->pid == *(const uint32_t *)key;
}

static struct proc *proc_find(struct engine *e, uint32_t pid)
{
	return htab_find(&e->procs, hash_mix64(pid), proc_eq, &pid);
}

/* Finds or creates the process; a non-empty name replaces the one known so far. */
static struct proc *proc_get(struct engine *e, uint32_t pid, const char *process)
{
	struct proc *p = proc_find(e, pid);

	if (!p) {
		if (e->n_procs >= CAP_PROCS) {
			e->ev.processes++;
			return NULL;
		}
		p = calloc(1, sizeof(*p));
		if (!p)
			return NULL;
		p->pid = pid;
		p->pb.gen = 1; /* node_st.gen 0 is in no batch */
		struct proc **slot = vec_push((void **)&e->proc_list, &e->n_procs, &e->cap_procs,
					      sizeof(*slot));
		if (!slot || htab_add(&e->procs, hash_mix64(pid), p)) {
			if (slot)
				e->n_procs--;
			free(p);
			return NULL;
		}
		*slot = p;
	}
	if (process && *process)
		snprintf(p->name, sizeof(p->name), "%s", process);
	return p;
}

static bool thread_eq(const void *v, const void *key)
{
	return ((const struct thread *)v)->tid == *(const uint32_t *)key;
}

static struct thread *thread_find(struct engine *e, uint32_t tid)
{
	return htab_find(&e->threads, hash_mix64(tid), thread_eq, &tid);
}

/* A new window for the longest top-level slice (the next gap's cause). */
static void thread_window_reset(struct thread *t)
{
	t->top_dur = 0;
	t->top.n = 0;
}

static bool thread_idle(void *v, void *ctx)
{
	struct thread *t = v;

	if (t->depth || t->overflow)
		return false;
	free(t->st);
	free(t);
	return true;
}

/* The thread table is full: forget the threads inside no slice. */
static void threads_sweep(struct engine *e)
{
	sweep_count(&e->threads, thread_idle, NULL, &e->ev.threads);
}

/* Threads are keyed by tid alone: a bare "E" has no tgid. A reused tid starts afresh. */
static struct thread *thread_get(struct engine *e, uint32_t pid, uint32_t tid)
{
	struct thread *t = thread_find(e, tid);

	if (!t) {
		if (e->threads.cnt >= CAP_THREADS)
			threads_sweep(e);
		t = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		t->tid = tid;
		t->pid = pid;
		t->anchor_vsync = -1;
		if (htab_add(&e->threads, hash_mix64(tid), t)) {
			free(t);
			return NULL;
		}
	}
	if (t->pid != pid) { /* the tid now belongs to another process */
		e->n_slices -= t->depth;
		t->pid = pid;
		t->depth = 0;
		t->overflow = 0;
		t->has_frame = false;
		t->anchor_vsync = -1;
		t->min_interval_ns = 0;
		t->av_valid = false;
		thread_window_reset(t);
	}
	return t;
}

/* ---- property changes ------------------------------------------------------------- */

/* Summary statistics of one frame's batch: how many property writes a frame makes. */
static void props_count(struct engine *e, const struct prop_batch *b)
{
	uint64_t sets = 0;

	if (!b->fp.in_frame)
		return;
	for (size_t i = 0; i < b->n; i++)
		for (int p = 0; p < PROP_COUNT; p++)
			sets += b->nodes[i].sets[p];
	e->prop_frames++;
	e->prop_sets += sets;
	if (sets > e->prop_sets_max)
		e->prop_sets_max = sets > UINT32_MAX ? UINT32_MAX : (uint32_t)sets;
}

static void targets_announce(struct engine *e, struct proc *p);

/* Sends the batch (if any change is in it) and starts the next one. */
static void props_flush(struct engine *e, struct proc *p)
{
	struct prop_batch *b = &p->pb;

	if (!b->n)
		return;
	props_count(e, b);
	memcpy(b->fp.process, p->name, sizeof(b->fp.process));
	b->fp.n_nodes = (int)b->n;
	b->fp.nodes = b->nodes;
	SINK_CALL(e, frame_props, &b->fp);
	b->n = 0;
	b->gen++;
	targets_announce(e, p);
}

/* The first change of a batch fixes its header: the open doFrame, or this change. */
static void batch_head(struct proc *p, uint64_t ts_ns, uint32_t tid)
{
	struct frame_props *fp = &p->pb.fp;

	memset(fp, 0, sizeof(*fp));
	fp->pid = p->pid;
	fp->in_frame = p->cur.live;
	if (fp->in_frame) {
		fp->tid = p->cur.f.tid;
		fp->ts_ns = p->cur.f.start_ns;
		fp->frame_seq = p->cur.f.seq;
		fp->vsync_id = p->cur.f.vsync_id;
	} else {
		fp->tid = tid;
		fp->ts_ns = ts_ns;
		fp->vsync_id = -1;
	}
}

/* before[] as long as nodes[]. */
static int batch_before_grow(struct prop_batch *b)
{
	struct batch_before *nb;

	if (b->cap_before >= b->n)
		return 0;
	nb = realloc(b->before, b->cap * sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	b->before = nb;
	b->cap_before = b->cap;
	return 0;
}

/* Records the change in the node's slot of the batch: last value wins, writes are counted. */
static void batch_add(struct engine *e, struct proc *p, struct node_st *n, uint64_t ts_ns,
		      uint32_t tid, enum view_prop prop, float value, const uint32_t *writer)
{
	struct prop_batch *b = &p->pb;
	struct node_props *np;

	if (!b->n)
		batch_head(p, ts_ns, tid);
	if (n->gen != b->gen) {
		n->gen = b->gen;
		n->idx = -1;
		np = b->n < CAP_FRAME_NODES ?
			     vec_push((void **)&b->nodes, &b->n, &b->cap, sizeof(*np)) : NULL;
		if (!np) {
			e->ev.node_frames++;
			return;
		}
		memset(np, 0, sizeof(*np));
		np->node = n->node;
		n->idx = (int)(b->n - 1);
		if (batch_before_grow(b) < 0) {
			b->n--;
			n->idx = -1;
			e->ev.node_frames++;
			return;
		}
		memset(&b->before[n->idx], 0, sizeof(b->before[0]));
	}
	if (n->idx < 0)
		return;
	np = &b->nodes[n->idx];
	if (!np->sets[prop] && (n->known & (1u << prop))) { /* its value before this frame */
		b->before[n->idx].v[prop] = n->val[prop];
		b->before[n->idx].known |= 1u << prop;
	}
	memcpy(np->node_name, n->name, sizeof(np->node_name));
	np->set_mask |= 1u << prop;
	np->values[prop] = value;
	if (np->sets[prop] < UINT16_MAX)
		np->sets[prop]++;
	np->writer_mask &= ~(1u << prop);
	np->writer[prop] = writer ? *writer : 0;
	if (writer)
		np->writer_mask |= 1u << prop;
}

static bool node_eq(const void *v, const void *key)
{
	return ((const struct node_st *)v)->node == *(const uint64_t *)key;
}

static void node_fallback_name(char *buf, size_t size, uint64_t node)
{
	node_label(buf, size, NULL, node);
}

/*
 * Finds or creates the node. A name, once known, sticks when later calls pass none; a
 * different name means the address now holds another node, whose old values are no "from".
 */
static bool node_stale(void *v, void *ctx)
{
	struct node_st *n = v;

	if (n->gen == *(const uint64_t *)ctx)
		return false;
	free(n);
	return true;
}

static void props_flush(struct engine *e, struct proc *p);

/*
 * The node table is full: forget the nodes that did not change in the current frame. When
 * all of them did (no doFrame for a long time), the batch is sent early to make room.
 */
static void nodes_sweep(struct engine *e, struct proc *p)
{
	if (!sweep_count(&p->nodes, node_stale, &p->pb.gen, &e->ev.nodes)) {
		props_flush(e, p);
		sweep_count(&p->nodes, node_stale, &p->pb.gen, &e->ev.nodes);
	}
}

static struct node_st *node_get(struct engine *e, struct proc *p, uint64_t node,
				const char *name)
{
	uint64_t h = hash_mix64(node);
	struct node_st *n = htab_find(&p->nodes, h, node_eq, &node);
	char fallback[32];

	if (!n) {
		if (p->nodes.cnt >= CAP_NODES_PROC)
			nodes_sweep(e, p);
		n = calloc(1, sizeof(*n));
		if (!n)
			return NULL;
		n->node = node;
		if (htab_add(&p->nodes, h, n)) {
			free(n);
			return NULL;
		}
		node_fallback_name(n->name, sizeof(n->name), node);
	}
	if (!name || !*name || !strncmp(n->name, name, sizeof(n->name) - 1))
		return n;
	node_fallback_name(fallback, sizeof(fallback), node);
	if (strcmp(n->name, fallback))
		n->known = 0;
	snprintf(n->name, sizeof(n->name), "%s", name);
	return n;
}

static bool anim_has_prop(const struct anim *a, enum view_prop prop)
{
	const char *name = view_prop_str(prop);

	for (int i = 0; i < a->n_props; i++)
		if (!strcmp(a->props[i], name))
			return true;
	return false;
}

/*
 * A running animator that names prop takes the first node seen changing it as its target;
 * from is the value the node had before (or this first value when none was seen).
 */
static void anim_link(struct anim *a, const struct node_st *n, enum view_prop prop, float value)
{
	int i;

	if (!anim_has_prop(a, prop))
		return;
	if (!a->target_node) {
		a->target_node = n->node;
		a->target_inferred = true;
	} else if (a->target_node != n->node) {
		return;
	}
	memcpy(a->target_name, n->name, sizeof(a->target_name));
	for (i = 0; i < a->n_changes && a->changes[i].prop != prop; i++)
		;
	if (i == a->n_changes) {
		if (i == AT_MAX_PROPS)
			return;
		a->n_changes++;
		a->changes[i].prop = prop;
		a->changes[i].from = n->known & (1u << prop) ? n->val[prop] : value;
	}
	a->changes[i].to = value;
}

/* A full series keeps every other point: each now stands for twice as many frames. */
static void series_halve(struct prop_series *s)
{
	for (int i = 0; i < AT_SERIES_MAX / 2; i++) {
		s->v[i] = s->v[2 * i + 1];
		s->t_us[i] = s->t_us[2 * i + 1];
	}
	s->n = AT_SERIES_MAX / 2;
	s->stride *= 2;
}

/*
 * Adds the value of one frame (frame_key) at t_us: a later value in the same frame replaces
 * it.
 */
static void series_add(struct prop_series *s, uint64_t frame_key, float value, int32_t t_us)
{
	if (s->n && s->frame_key == frame_key) {
		s->v[s->n - 1] = value;
		return;
	}
	if (!s->stride)
		s->stride = 1;
	if (s->frames % s->stride == 0) { /* a new point; else the last one's bucket goes on */
		if (s->n == AT_SERIES_MAX)
			series_halve(s);
		s->n++;
	}
	s->frames++;
	s->frame_key = frame_key;
	s->v[s->n - 1] = value;
	s->t_us[s->n - 1] = t_us;
}

/* The time of frame_ns since a's start in microseconds, clamped to the series' range. */
static int32_t since_start_us(const struct anim *a, uint64_t frame_ns)
{
	int64_t t_us = ((int64_t)frame_ns - (int64_t)a->start_ns) / 1000;

	return (int32_t)(t_us > INT32_MAX ? INT32_MAX : t_us < INT32_MIN ? INT32_MIN : t_us);
}

/*
 * The target's value of prop in this frame (which began at frame_ns) goes into the
 * animator's curve. The batch generation names the frame: it changes exactly when a frame's
 * changes are sent. True when a is the animator of this write.
 */
static bool anim_sample(struct anim *a, const struct node_st *n, enum view_prop prop,
			float value, uint64_t frame_key, uint64_t frame_ns)
{
	bool mine = false;

	if (a->target_node != n->node)
		return false;
	for (int i = 0; i < a->n_changes; i++) {
		if (a->changes[i].prop == prop) {
			series_add(&a->series[i], frame_key, value, since_start_us(a, frame_ns));
			mine = true;
		}
	}
	return mine;
}

/*
 * The interpolator of an animator that ran to its end (its S to F is its duration): of the
 * first property whose values were seen on 3 or more frames and moved.
 */
static void anim_fit_interp(struct anim *a)
{
	struct fit_sample smp[AT_SERIES_MAX];

	if (!a->start_ns || a->end_ns <= a->start_ns ||
	    (a->reason != END_COMPLETE && a->reason != END_ENDED))
		return;
	for (int i = 0; i < a->n_changes; i++) {
		const struct prop_series *ps = &a->series[i];

		if (ps->n < 3 || a->changes[i].from == a->changes[i].to)
			continue;
		for (int k = 0; k < ps->n; k++)
			smp[k] = (struct fit_sample){ a->start_ns + (int64_t)ps->t_us[k] * 1000,
						      ps->v[k] };
		if (fit_interpolator(smp, ps->n, a->start_ns, a->end_ns - a->start_ns,
				     a->changes[i].from, a->changes[i].to, &a->interpolator,
				     &a->interp_rms) == 0)
			return;
		a->interpolator = NULL;
	}
}

/* ---- exact attribution (animateValue probes) ----------------------------------------- */

/* The running animator of p with this cookie (the id its S marker carried), or NULL. */
static struct anim_run *run_by_cookie(struct proc *p, uint32_t cookie)
{
	for (struct anim_run *r = p->running; r; r = r->next)
		if (r->a.id == cookie)
			return r;
	return NULL;
}

/* r's entry for node n, added on its first write; NULL past CAP_ANIM_TARGETS. */
static struct anim_target *target_get(struct anim_run *r, const struct node_st *n)
{
	struct anim_target *t;

	for (size_t i = 0; i < r->n_tg; i++)
		if (r->tg[i].node == n->node)
			return &r->tg[i];
	if (r->n_tg >= CAP_ANIM_TARGETS)
		return NULL;
	t = vec_push((void **)&r->tg, &r->n_tg, &r->cap_tg, sizeof(*t));
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->node = n->node;
	return t;
}

/* The property's slot in t, added with its value before this write as "from". */
static struct target_prop *target_prop_get(struct anim_target *t, const struct node_st *n,
					   enum view_prop prop, float value)
{
	struct target_prop *tp;

	for (int i = 0; i < t->n_props; i++)
		if (t->props[i].prop == prop)
			return &t->props[i];
	if (t->n_props == AT_TARGET_PROPS)
		return NULL;
	tp = &t->props[t->n_props++];
	memset(tp, 0, sizeof(*tp));
	tp->prop = prop;
	tp->from = n->known & (1u << prop) ? n->val[prop] : value;
	tp->to = tp->from;
	return tp;
}

/* r wrote value to prop of n (n->val still holds the value before the write) in the frame
 * that began at frame_ns. */
static void target_write(struct proc *p, struct anim_run *r, const struct node_st *n,
			 enum view_prop prop, float value, uint64_t frame_ns)
{
	struct anim_target *t = target_get(r, n);
	struct target_prop *tp;

	if (!t) {
		r->a.targets_left_out++;
		return;
	}
	t->writes++;
	memcpy(t->node_name, n->name, sizeof(t->node_name));
	tp = target_prop_get(t, n, prop, value);
	if (!tp) {
		t->props_left_out++;
		return;
	}
	if (!(n->known & (1u << prop)) || n->val[prop] != value)
		tp->sets++;
	tp->to = value;
	series_add(&tp->series, p->pb.gen, value, since_start_us(&r->a, frame_ns));
	if (!r->tg_announced)
		p->tg_pending = true;
}

/* Most writes first; insertion sort keeps ties in first-write order (n <= CAP_ANIM_TARGETS). */
static void targets_sort(struct anim_target *tg, size_t n)
{
	struct anim_target tmp;

	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		if (tg[i].writes <= tg[i - 1].writes)
			continue;
		tmp = tg[i];
		while (j > 0 && tg[j - 1].writes < tmp.writes) {
			tg[j] = tg[j - 1];
			j--;
		}
		tg[j] = tmp;
	}
}

/* The exact targets go into r->a; the one with most writes becomes its target. */
static void targets_fill(struct anim_run *r)
{
	struct anim *a = &r->a;
	const struct anim_target *t;

	if (!r->n_tg)
		return;
	targets_sort(r->tg, r->n_tg);
	a->targets = r->tg;
	a->n_targets = (int)r->n_tg;
	t = &r->tg[0];
	a->target_node = t->node;
	memcpy(a->target_name, t->node_name, sizeof(a->target_name));
	a->target_inferred = false;
	a->target_exact = true;
	a->n_changes = t->n_props;
	for (int i = 0; i < t->n_props; i++) {
		a->changes[i] = (struct prop_change){ t->props[i].prop, t->props[i].from,
						      t->props[i].to };
		a->series[i] = t->props[i].series;
	}
}

/* After a batch: the animators whose first exact writes were in it say what they move. */
static void targets_announce(struct engine *e, struct proc *p)
{
	if (!p->tg_pending)
		return;
	p->tg_pending = false;
	for (struct anim_run *r = p->running; r; r = r->next) {
		if (r->tg_announced || !r->n_tg)
			continue;
		r->tg_announced = true;
		targets_fill(r);
		SINK_CALL(e, anim_target, &r->a);
	}
}

/* 1 + the depth of t's innermost open "animation" phase slice, or 0 when outside one. */
static size_t animation_phase_depth(const struct thread *t)
{
	for (size_t i = t->depth; i > 0; i--)
		if (t->st[i - 1].kind == SLICE_PHASE && t->st[i - 1].phase == PHASE_ANIMATION)
			return i;
	return 0;
}

/* A marker of thread tid ends a window opened outside any animation phase. */
static void av_marker(struct engine *e, uint32_t tid)
{
	struct thread *t = thread_find(e, tid);

	if (t && t->av_valid && !t->av_depth)
		t->av_valid = false;
}

/* Remembers when start() was called on cookie, for the delay to its S. */
static void start_pending_add(struct proc *p, uint32_t cookie, uint64_t ts_ns)
{
	for (int i = 0; i < p->n_starts; i++) {
		if (p->starts[i].cookie == cookie) {
			p->starts[i].ts_ns = ts_ns;
			return;
		}
	}
	if (p->n_starts == CAP_PENDING_STARTS)
		memmove(p->starts, p->starts + 1, --p->n_starts * sizeof(p->starts[0]));
	p->starts[p->n_starts].cookie = cookie;
	p->starts[p->n_starts++].ts_ns = ts_ns;
}

/* The time start() was called on cookie, if it waits for its S; forgets it. */
static bool start_pending_take(struct proc *p, int64_t cookie, uint64_t *ts_ns)
{
	for (int i = 0; i < p->n_starts; i++) {
		if ((int64_t)p->starts[i].cookie != cookie)
			continue;
		*ts_ns = p->starts[i].ts_ns;
		memmove(p->starts + i, p->starts + i + 1,
			(size_t)(p->n_starts - i - 1) * sizeof(p->starts[0]));
		p->n_starts--;
		return true;
	}
	return false;
}

/* ---- slice chains (the causes of jank) ---------------------------------------------- */

/* c = s, then its longest child and that child's own chain. */
static void chain_of(struct slice_chain *c, const struct slice *s, uint64_t dur)
{
	c->n = 1;
	memcpy(c->s[0].name, s->name, sizeof(c->s[0].name));
	c->s[0].dur_ns = dur;
	for (int i = 0; i < s->best.n && c->n < AT_CHAIN_MAX; i++)
		c->s[c->n++] = s->best.s[i];
}

/* An ended slice becomes its parent's longest child, or the thread's longest top-level one. */
static void chain_offer(struct thread *t, const struct slice *s, uint64_t dur)
{
	struct slice *parent = t->depth ? &t->st[t->depth - 1] : NULL;

	if (parent && (dur > parent->best_dur || !parent->best.n)) {
		parent->best_dur = dur;
		chain_of(&parent->best, s, dur);
	} else if (!parent && (dur > t->top_dur || !t->top.n)) {
		t->top_dur = dur;
		chain_of(&t->top, s, dur);
	}
}

/* ---- frames -------------------------------------------------------------------------- */

static int ids_add(uint64_t **ids, size_t *n, size_t *cap, uint64_t id)
{
	for (size_t i = 0; i < *n; i++)
		if ((*ids)[i] == id)
			return 0;
	uint64_t *slot = vec_push((void **)ids, n, cap, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	*slot = id;
	return 0;
}

static int frame_add_id(struct frame_st *fs, uint64_t id)
{
	return ids_add(&fs->ids, &fs->n_ids, &fs->cap_ids, id);
}

/* Keeps the longest frames for the summary; ties keep the earlier one first. */
static void frame_longest_add(struct engine *e, const struct frame *f)
{
	int i = e->n_longest_frames < LONGEST_FRAMES_MAX ? e->n_longest_frames++ :
							    LONGEST_FRAMES_MAX;

	while (i > 0 && e->longest_frames[i - 1].dur_ns < f->dur_ns) {
		if (i < LONGEST_FRAMES_MAX)
			e->longest_frames[i] = e->longest_frames[i - 1];
		i--;
	}
	if (i == LONGEST_FRAMES_MAX)
		return;
	e->longest_frames[i] = *f;
	e->longest_frames[i].n_anims = 0; /* its id buffer is reused by the next frame */
	e->longest_frames[i].anim_ids = NULL;
}

static void jank_emit(struct engine *e, const struct proc *p, const struct jank *j)
{
	SINK_CALL(e, jank, j);
}

/* The jank records of a frame that hit an animator: the gap before it, then its lateness. */
static void frame_janks(struct engine *e, struct proc *p, const struct frame_st *fs)
{
	struct jank j = {
		.pid = p->pid, .tid = fs->f.tid, .frame_seq = fs->f.seq,
		.vsync_id = fs->f.vsync_id, .budget_ns = fs->f.budget_ns,
		.dropped_before = fs->f.dropped_before,
	};

	memcpy(j.process, p->name, sizeof(j.process));
	if (fs->f.dropped_before) {
		j.kind = JANK_DROPPED;
		j.ts_ns = fs->gap_start_ns;
		j.duration_ns = fs->f.start_ns - fs->gap_start_ns;
		j.n_anims = (int)fs->n_gap_ids;
		j.anim_ids = fs->gap_ids;
		j.ui = fs->ui_gap;
		j.render = fs->render_gap;
		jank_emit(e, p, &j);
	}
	if (fs->f.janky && fs->n_ids) {
		j.kind = JANK_LATE;
		j.ts_ns = fs->f.start_ns;
		j.duration_ns = fs->f.dur_ns;
		j.n_anims = (int)fs->n_ids;
		j.anim_ids = fs->ids;
		j.ui = fs->ui;
		j.render = fs->render;
		jank_emit(e, p, &j);
	}
}

/* ---- who redraws (--refresh) -------------------------------------------------------- */

#define FRAME_REDRAWS_MAX 64 /* distinct Views listed per frame */

static void redraws_attach(const struct proc *p, struct frame_st *fs)
{
	fs->f.refresh = p->refresh_on;
	fs->f.n_redraws = (int)fs->n_rd;
	fs->f.redraws = fs->rd;
	fs->f.redraws_dropped = fs->rd_dropped;
	fs->f.vsync_requests = fs->vsync_req;
}

static bool frame_redrew(const struct frame_st *fs, uint64_t node)
{
	for (size_t i = 0; i < fs->n_rd; i++)
		if (fs->rd[i].node == node)
			return true;
	return false;
}

/* Adds n to the frame's Views (once each). */
static void frame_add_redraw(struct frame_st *fs, const struct node_st *n)
{
	struct redraw_node *rn;

	if (frame_redrew(fs, n->node))
		return;
	rn = fs->n_rd < FRAME_REDRAWS_MAX ?
		     vec_push((void **)&fs->rd, &fs->n_rd, &fs->cap_rd, sizeof(*rn)) : NULL;
	if (!rn) {
		fs->rd_dropped++;
		return;
	}
	rn->node = n->node;
	memcpy(rn->node_name, n->name, sizeof(rn->node_name));
}

/* The engine-wide ranking of Views by frames redrawn keeps the AT_REDRAW_TOP most. */
static void redraw_top_offer(struct engine *e, uint32_t pid, const struct node_st *n)
{
	struct redraw_stat *t = e->redraw_top;
	int i;

	if (!n->redraw_frames)
		return;
	i = e->n_redraw_top < AT_REDRAW_TOP ? e->n_redraw_top++ : AT_REDRAW_TOP;
	while (i > 0 && t[i - 1].frames < n->redraw_frames) {
		if (i < AT_REDRAW_TOP)
			t[i] = t[i - 1];
		i--;
	}
	if (i == AT_REDRAW_TOP)
		return;
	t[i].pid = pid;
	t[i].node = n->node;
	t[i].frames = n->redraw_frames;
	memcpy(t[i].node_name, n->name, sizeof(t[i].node_name));
}

static void redraw_top_proc(struct engine *e, struct proc *p)
{
	for (size_t i = 0; i < p->nodes.cap; i++)
		if (p->nodes.s[i].v)
			redraw_top_offer(e, p->pid, p->nodes.s[i].v);
}

/* The storm's View redrawn in most frames (the first seen among equals). */
static int storm_top(const struct storm_st *st)
{
	int best = -1;

	for (int i = 0; i < st->n_views; i++)
		if (best < 0 || st->view_frames[i] > st->view_frames[best])
			best = i;
	return best;
}

/* The run of busy idle frames ended: a storm when it lasted long enough, said once. */
static void storm_end(struct engine *e, struct proc *p)
{
	struct storm_st *st = &p->storm;
	struct refresh_storm *r;
	int top = storm_top(st);

	if (st->frames >= REFRESH_STORM_FRAMES && (r = calloc(1, sizeof(*r)))) {
		r->pid = p->pid;
		memcpy(r->process, p->name, sizeof(r->process));
		if (top >= 0) {
			r->node = st->views[top].node;
			memcpy(r->node_name, st->views[top].node_name, sizeof(r->node_name));
			r->node_frames = st->view_frames[top];
		}
		r->n_views = (uint32_t)st->n_views + st->views_other;
		r->frames = st->frames;
		r->vsync_requests = st->vsyncs;
		r->first_ns = st->first_ns;
		r->duration_ns = st->end_ns - st->first_ns;
		r->n_stack = st->n_stack;
		memcpy(r->stack, st->stack, sizeof(r->stack));
		SINK_CALL(e, refresh_storm, r);
		free(r);
	}
	memset(st, 0, sizeof(*st));
}

/* A frame with redraws or requests and no animator goes on the storm; another ends it. */
static void storm_frame(struct engine *e, struct proc *p, const struct frame_st *fs)
{
	struct storm_st *st = &p->storm;
	int j;

	if ((!fs->n_rd && !fs->vsync_req) || fs->n_ids || p->running) {
		storm_end(e, p);
		return;
	}
	if (!st->frames++)
		st->first_ns = fs->f.start_ns;
	st->end_ns = fs->f.start_ns + fs->f.dur_ns;
	st->vsyncs += fs->vsync_req;
	if (!st->n_stack && fs->n_vstack) {
		st->n_stack = fs->n_vstack;
		memcpy(st->stack, fs->vstack, sizeof(st->stack));
	}
	for (size_t i = 0; i < fs->n_rd; i++) {
		for (j = 0; j < st->n_views && st->views[j].node != fs->rd[i].node; j++)
			;
		if (j == st->n_views && j == STORM_VIEWS) {
			st->views_other++;
			continue;
		}
		if (j == st->n_views)
			st->views[st->n_views++] = fs->rd[i];
		st->view_frames[j]++;
	}
}

/*
 * The doFrame closed: its redraws count for the Views and for a refresh storm.
 */
static void redraws_close(struct engine *e, struct proc *p, struct frame_st *fs)
{
	struct node_st *n;

	if (!p->refresh_on)
		return;
	for (size_t i = 0; i < fs->n_rd; i++) {
		n = htab_find(&p->nodes, hash_mix64(fs->rd[i].node), node_eq, &fs->rd[i].node);
		if (n)
			n->redraw_frames++;
	}
	storm_frame(e, p, fs);
}

/* The frame_st now collects for the next doFrame. */
static void redraws_reset(struct frame_st *fs)
{
	fs->n_rd = 0;
	fs->rd_dropped = fs->vsync_req = 0;
	fs->n_vstack = 0;
}

static void frame_emit(struct engine *e, struct proc *p, struct frame_st *fs)
{
	if (!fs->live)
		return;
	fs->live = false;
	memcpy(fs->f.process, p->name, sizeof(fs->f.process));
	fs->f.n_anims = (int)fs->n_ids;
	fs->f.anim_ids = fs->ids;
	redraws_attach(p, fs);
	e->frames++;
	frame_longest_add(e, &fs->f);
	SINK_CALL(e, frame, &fs->f);
	frame_janks(e, p, fs);
}

/* The frame's lateness goes to the process and to every animator that ran in it. */
static void frame_judge(struct proc *p, struct frame_st *fs)
{
	fs->f.janky = fs->f.dur_ns > fs->f.budget_ns;
	if (!fs->assumed)
		p->janky += fs->f.janky;
	else if (p->n_early < (int)(sizeof(p->early) / sizeof(p->early[0])))
		p->early[p->n_early++] = fs->f.dur_ns; /* judged again with the final period */
	else
		p->janky += fs->f.janky;
	p->dropped += fs->f.dropped_before;
	for (struct anim_run *r = p->running; r; r = r->next) {
		if (r->last_seq != fs->f.seq)
			continue;
		if (fs->f.dur_ns > r->a.worst_frame_ns)
			r->a.worst_frame_ns = fs->f.dur_ns;
		r->a.janky_frames += fs->f.janky;
	}
}

/* One change of the batch for segment.h, in e->seg_buf. */
static int seg_push(struct engine *e, const struct node_props *np, const struct batch_before *bb,
		    int prop)
{
	struct seg_change *c = vec_push((void **)&e->seg_buf, &e->n_seg_buf, &e->cap_seg_buf,
					sizeof(*c));

	if (!c)
		return -ENOMEM;
	*c = (struct seg_change){ .node = np->node, .node_name = np->node_name,
				  .prop = (enum view_prop)prop,
				  .has_before = bb->known & (1u << prop), .before = bb->v[prop],
				  .value = np->values[prop],
				  .explained = bb->explained & (1u << prop) };
	return 0;
}

/* The frame ending at ts_ns, with its property changes, goes to the segmenter. */
static void seg_feed(struct engine *e, struct proc *p, uint64_t ts_ns)
{
	const struct prop_batch *b = &p->pb;
	struct seg_frame sf = {
		.pid = p->pid, .tid = p->cur.f.tid, .process = p->name, .seq = p->cur.f.seq,
		.vsync_id = p->cur.f.vsync_id, .start_ns = p->cur.f.start_ns,
		.dur_ns = ts_ns > p->cur.f.start_ns ? ts_ns - p->cur.f.start_ns : 0,
		.budget_ns = p->cur.f.budget_ns,
	};

	e->n_seg_buf = 0;
	if (b->n && b->fp.in_frame && b->fp.frame_seq == p->cur.f.seq) {
		for (size_t i = 0; i < b->n; i++)
			for (int k = 0; k < PROP_COUNT; k++)
				if (b->nodes[i].set_mask & (1u << k))
					seg_push(e, &b->nodes[i], &b->before[i], k);
	}
	sf.n = (int)e->n_seg_buf;
	sf.changes = e->seg_buf;
	segment__frame(e->seg, &sf);
}

/* The doFrame slice ended: it now waits (as `done`) for the RenderThread draw. */
static void frame_close(struct engine *e, struct proc *p, struct thread *t, uint64_t ts_ns)
{
	struct frame_st tmp;

	if (!p->cur.live)
		return;
	frame_emit(e, p, &p->done);
	seg_feed(e, p, ts_ns);
	props_flush(e, p); /* this frame's values, before its own frame record */
	p->cur.f.dur_ns = ts_ns > p->cur.f.start_ns ? ts_ns - p->cur.f.start_ns : 0;
	frame_judge(p, &p->cur);
	redraws_close(e, p, &p->cur);
	if (t && t->tid == p->cur.f.tid) {
		t->last_frame_end_ns = ts_ns;
		thread_window_reset(t); /* the next gap's slices start now */
	}
	/* Swap rather than copy so both id buffers are reused. */
	tmp = p->done;
	p->done = p->cur;
	p->cur = tmp;
	p->cur.live = false;
	redraws_reset(&p->cur);
	if (p->done.drawn) /* nothing more to wait for */
		frame_emit(e, p, &p->done);
}

/*
 * With vsync ids the period is measured from an anchor frame up to VSYNC_SPAN vsyncs back, not
 * from the previous frame: a doFrame that starts late (scheduling latency) then moves the
 * estimate by its lateness divided by the whole span instead of by one vsync.
 */
#define VSYNC_SPAN 240
static void refresh_add_vsync(struct period *r, struct thread *t, int64_t vsync, uint64_t ts)
{
	if (t->anchor_vsync < 0 || vsync <= t->anchor_vsync ||
	    vsync - t->anchor_vsync > VSYNC_SPAN || ts < t->anchor_ns) {
		t->anchor_vsync = t->last_vsync;
		t->anchor_ns = t->last_frame_ns;
	}
	period__add(r, ts - t->anchor_ns, vsync - t->anchor_vsync);
}

/* The refresh period, with this interval of t's doFrames counted; returns vsyncs missed. */
/*
 * Vsyncs missed in an interval dt of doFrame starts without ids, against period. Before the
 * period is measured the thread's shortest interval stands in for it, not the assumed 60 Hz,
 * which would see every frame of a 30 Hz display as one missed vsync.
 */
static uint32_t missed_vsyncs(uint64_t dt, uint64_t period)
{
	if (!period || dt < period + period / 2)
		return 0;
	return (uint32_t)((dt + period / 2) / period - 1);
}

static uint32_t frame_interval(struct proc *p, struct thread *t, int64_t vsync, uint64_t ts_ns,
			       uint64_t *budget, bool *assumed)
{
	uint64_t dt = ts_ns > t->last_frame_ns ? ts_ns - t->last_frame_ns : 0;
	int64_t dv = vsync >= 0 && t->last_vsync >= 0 ? vsync - t->last_vsync : 0;
	enum period_source src;

	if (!p->refresh)
		p->refresh = period__new();
	if (p->refresh && dv > 0)
		refresh_add_vsync(p->refresh, t, vsync, ts_ns);
	else if (p->refresh)
		period__add(p->refresh, dt, dv);
	*budget = period__period(p->refresh, &src);
	*assumed = src == PERIOD_ASSUMED;
	if (!dv && dt && (!t->min_interval_ns || dt < t->min_interval_ns))
		t->min_interval_ns = dt;
	if (dv > 1)
		return (uint32_t)(dv - 1 > UINT32_MAX ? UINT32_MAX : dv - 1);
	return dv ? 0 : missed_vsyncs(dt, *assumed ? t->min_interval_ns : *budget);
}

/*
 * Counts the frame for every running animator; those that ran in the previous frame of
 * this thread ran across the gap before it, and the vsyncs it missed count for them.
 */
static void frame_runs(struct proc *p, struct thread *t, uint32_t dropped)
{
	struct frame_st *fs = &p->cur;
	uint64_t gap = fs->f.start_ns - t->last_frame_ns;

	fs->n_gap_ids = 0;
	for (struct anim_run *r = p->running; r; r = r->next) {
		r->a.frames++;
		frame_add_id(fs, r->a.id);
		if (t->has_frame && r->last_seq && r->last_seq == t->last_frame_seq) {
			ids_add(&fs->gap_ids, &fs->n_gap_ids, &fs->cap_gap_ids, r->a.id);
			r->a.frames_dropped += dropped;
			if (gap > r->a.worst_gap_ns)
				r->a.worst_gap_ns = gap;
		}
		r->last_seq = fs->f.seq;
	}
	fs->f.dropped_before = fs->n_gap_ids ? dropped : 0;
}

/* The gap before the frame: the longest slices of the UI thread and the RenderThread in it. */
static void frame_gap(struct engine *e, struct proc *p, struct thread *t)
{
	struct thread *rt = p->render_tid ? thread_find(e, p->render_tid) : NULL;

	p->cur.gap_start_ns = t->last_frame_end_ns;
	p->cur.ui_gap = t->top;
	p->cur.render_gap.n = 0;
	if (rt && rt->pid == p->pid)
		p->cur.render_gap = rt->top;
	p->cur.ui.n = p->cur.render.n = 0;
	thread_window_reset(t);
}

static void frame_open(struct engine *e, struct proc *p, struct thread *t, int64_t vsync,
		       uint64_t ts_ns)
{
	enum period_source src;
	uint32_t dropped = 0;

	frame_close(e, p, NULL, ts_ns); /* a doFrame still open on another thread */
	/* The RenderThread may still be drawing the previous frame: its DrawFrame begins before
	 * the UI thread goes on (DrawFrameTask::postAndWait), but can end after the next vsync.
	 * While a draw is under way, or once one has drawn in this process, the frame waits
	 * until this one ends. */
	if (!p->render_tid && !p->draws_open)
		frame_emit(e, p, &p->done);
	props_flush(e, p); /* changes made since the last doFrame ended */
	memset(&p->cur.f, 0, sizeof(p->cur.f));
	p->cur.f.pid = p->pid;
	p->cur.f.tid = t->tid;
	p->cur.f.seq = ++p->seq;
	p->cur.f.vsync_id = vsync;
	p->cur.f.start_ns = ts_ns;
	p->cur.f.budget_ns = period__period(p->refresh, &src);
	p->cur.assumed = src == PERIOD_ASSUMED;
	p->cur.n_ids = 0;
	p->cur.live = true;
	p->cur.drawn = false;
	if (t->has_frame)
		dropped = frame_interval(p, t, vsync, ts_ns, &p->cur.f.budget_ns, &p->cur.assumed);
	frame_gap(e, p, t);
	frame_runs(p, t, dropped);
	t->has_frame = true;
	t->last_frame_ns = ts_ns;
	t->last_frame_seq = p->cur.f.seq;
	t->last_vsync = vsync;
	p->ui_tid = t->tid;
}

/*
 * The frame a DrawFrame(s) slice s of thread t drew: the one waiting for its draw, or with
 * vsync ids the open one too (a quick draw can end before its doFrame does). Without ids a
 * draw that ends while a doFrame is open may still be the previous frame's: only the
 * waiting frame takes it.
 */
static struct frame_st *draw_owner(struct proc *p, const struct thread *t, const struct slice *s)
{
	struct frame_st *fs[2] = { &p->done, &p->cur }; /* oldest first: draws come in order */

	for (int i = 0; i < (s->vsync >= 0 ? 2 : 1); i++) {
		if (!fs[i]->live || fs[i]->drawn || fs[i]->f.tid == t->tid)
			continue;
		if (s->vsync >= 0 && fs[i]->f.vsync_id >= 0 && s->vsync != fs[i]->f.vsync_id)
			continue;
		return fs[i];
	}
	return NULL;
}

/* A DrawFrame(s) slice s ended on thread t, not the UI thread. */
static void frame_draw(struct engine *e, struct proc *p, struct thread *t, const struct slice *s,
		       uint64_t dur_ns)
{
	struct frame_st *fs;

	thread_window_reset(t); /* the next gap's RenderThread slices start now */
	fs = draw_owner(p, t, s);
	if (!fs)
		return;
	p->render_tid = t->tid;
	chain_of(&fs->render, s, dur_ns);
	fs->f.phase_ns[PHASE_DRAW] += dur_ns;
	fs->drawn = true;
	if (fs == &p->done)
		frame_emit(e, p, fs);
}

/* A top-level UI-thread slice longer than the period while an animator runs is a block. */
static void block_check(struct engine *e, struct proc *p, struct thread *t,
			const struct slice *s, uint64_t dur)
{
	struct jank j = { .kind = JANK_BLOCK, .pid = p->pid, .tid = t->tid, .vsync_id = -1 };
	uint64_t ids[64];
	int n = 0;

	j.budget_ns = period__period(p->refresh, NULL);
	if (t->tid != p->ui_tid || dur <= j.budget_ns || !p->running)
		return;
	for (struct anim_run *r = p->running; r && n < 64; r = r->next)
		ids[n++] = r->a.id;
	memcpy(j.process, p->name, sizeof(j.process));
	j.ts_ns = s->start_ns;
	j.duration_ns = dur;
	j.n_anims = n;
	j.anim_ids = ids;
	chain_of(&j.ui, s, dur);
	jank_emit(e, p, &j);
}

static void frames_flush(struct engine *e, struct proc *p, uint64_t ts_ns)
{
	frame_emit(e, p, &p->done);
	frame_close(e, p, NULL, ts_ns);
	frame_emit(e, p, &p->done);
	props_flush(e, p);
}

/* ---- slices (B/E) -------------------------------------------------------------------- */

static const char *const phase_names[] = {
	[PHASE_INPUT] = "input",
	[PHASE_ANIMATION] = "animation",
	[PHASE_INSETS_ANIMATION] = "insets_animation",
	[PHASE_TRAVERSAL] = "traversal",
	[PHASE_COMMIT] = "commit",
};

/* "<prefix>" -> -1, "<prefix> <digits>" -> digits; false for anything else. */
static bool match_id_suffix(struct strv v, const char *prefix, int64_t *id)
{
	size_t n = strlen(prefix);
	int64_t x = 0;

	if (!strv_starts_with(v, prefix))
		return false;
	if (v.len == n) {
		*id = -1;
		return true;
	}
	if (v.p[n] != ' ' || v.len == n + 1)
		return false;
	for (size_t i = n + 1; i < v.len; i++) {
		if (v.p[i] < '0' || v.p[i] > '9' || x > (INT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (v.p[i] - '0');
	}
	*id = x;
	return true;
}

static void slice_classify(struct strv name, struct slice *s)
{
	s->kind = SLICE_OTHER;
	s->vsync = -1;
	if (match_id_suffix(name, "Choreographer#doFrame", &s->vsync)) {
		s->kind = SLICE_DOFRAME;
		return;
	}
	if (strv_eq(name, "DrawFrame") || match_id_suffix(name, "DrawFrames", &s->vsync)) {
		s->kind = SLICE_DRAW;
		return;
	}
	for (int i = 0; i < PHASE_DRAW; i++) {
		if (strv_eq(name, phase_names[i])) {
			s->kind = SLICE_PHASE;
			s->phase = (uint8_t)i;
			return;
		}
	}
}

static void slice_begin(struct engine *e, struct proc *p, struct thread *t, uint64_t ts_ns,
			struct strv name)
{
	size_t n;
	struct slice *s = NULL;

	if (t->depth < CAP_SLICE_DEPTH && e->n_slices < CAP_OPEN_SLICES)
		s = vec_push((void **)&t->st, &t->depth, &t->cap, sizeof(*s));
	if (!s) { /* its E must still close it, not the slice it is nested in */
		t->overflow++;
		e->ev.slices++;
		return;
	}
	e->n_slices++;
	slice_classify(name, s);
	s->start_ns = ts_ns;
	n = name.len < sizeof(s->name) - 1 ? name.len : sizeof(s->name) - 1;
	memcpy(s->name, name.p, n); /* every B: no snprintf on this path */
	s->name[n] = '\0';
	s->best_dur = 0;
	s->best.n = 0;
	if (s->kind == SLICE_DRAW)
		p->draws_open++;
	if (s->kind == SLICE_DOFRAME)
		frame_open(e, p, t, s->vsync, ts_ns);
}

static void slice_end(struct engine *e, struct thread *t, uint64_t ts_ns)
{
	const struct slice *s;
	struct proc *p;
	uint64_t dur;

	if (t && t->overflow) {
		t->overflow--;
		return;
	}
	if (!t || !t->depth)
		return; /* E without B: the capture started inside the slice */
	s = &t->st[--t->depth]; /* still valid: nothing below pushes a slice on t */
	e->n_slices--;
	if (t->av_valid && t->av_depth > t->depth) /* its animation phase ended */
		t->av_valid = false;
	dur = ts_ns > s->start_ns ? ts_ns - s->start_ns : 0;
	chain_offer(t, s, dur);
	p = proc_find(e, t->pid);
	if (!p)
		return;
	switch (s->kind) {
	case SLICE_DOFRAME:
		if (p->cur.live && p->cur.f.tid == t->tid) {
			chain_of(&p->cur.ui, s, dur);
			frame_close(e, p, t, ts_ns);
		}
		break;
	case SLICE_PHASE:
		if (p->cur.live && p->cur.f.tid == t->tid)
			p->cur.f.phase_ns[s->phase] += dur;
		break;
	case SLICE_DRAW:
		if (p->draws_open)
			p->draws_open--;
		frame_draw(e, p, t, s, dur);
		break;
	default:
		if (!t->depth)
			block_check(e, p, t, s, dur);
		break;
	}
}

/* ---- animators ----------------------------------------------------------------------- */

static bool is_animator(struct strv name)
{
	return strv_eq(name, "animator") || strv_starts_with(name, "animator:");
}

/* "animator:a,b" -> kind ObjectAnimator, props {a, b}; names are already truncated. */
static void anim_set_name(struct anim *a, const char *name)
{
	const char *p = name + strlen("animator");

	snprintf(a->name, sizeof(a->name), "%s", name);
	a->kind = *p == ':' ? ANIM_OBJECT : ANIM_VALUE;
	a->n_props = 0;
	if (*p != ':')
		return;
	for (p++; *p && a->n_props < AT_MAX_PROPS;) {
		size_t n = strcspn(p, ",");

		if (n) {
			snprintf(a->props[a->n_props], sizeof(a->props[0]), "%.*s", (int)n, p);
			a->n_props++;
		}
		p += n;
		if (*p == ',')
			p++;
	}
}

static void longest_add(struct engine *e, const struct anim *a)
{
	uint64_t d = a->end_ns - a->start_ns;
	int i = e->n_longest < LONGEST_MAX ? e->n_longest++ : LONGEST_MAX;

	/* Ties keep the earlier one first: only strictly longer animators move up. */
	while (i > 0 && e->longest[i - 1].end_ns - e->longest[i - 1].start_ns < d) {
		if (i < LONGEST_MAX)
			e->longest[i] = e->longest[i - 1];
		i--;
	}
	if (i < LONGEST_MAX) {
		e->longest[i] = *a;
		e->longest[i].targets = NULL; /* freed with its run */
		e->longest[i].n_targets = 0;
	}
}

/* Keeps d for the median: all of them up to CAP_DURATIONS, then a uniform sample. */
static void durs_add(struct engine *e, struct name_acc *n, uint64_t d)
{
	uint64_t *slot;

	if (n->seen_durs++ >= CAP_DURATIONS) {
		e->ev.durations++;
		e->rng = e->rng * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t j = (e->rng >> 11) % n->seen_durs;

		if (j < n->n_durs)
			n->durs[j] = d;
		return;
	}
	slot = vec_push((void **)&n->durs, &n->n_durs, &n->cap_durs, sizeof(*slot));
	if (slot)
		*slot = d;
}

static void stats_end(struct engine *e, struct name_acc *n, const struct anim *a)
{
	if (a->reason == END_CANCEL || a->reason == END_CANCEL_BEFORE_START)
		n->cancels++;
	if (!a->start_ns)
		return;
	uint64_t d = a->end_ns - a->start_ns;

	durs_add(e, n, d);
	n->total_ns += d;
	n->frames += a->frames;
	if (d > n->max_ns)
		n->max_ns = d;
	longest_add(e, a);
}

/* Keeps p's animators with the most dropped + late frames, most first (ties: earlier). */
static void worst_add(struct proc *p, const struct anim *a)
{
	uint32_t score = a->frames_dropped + a->janky_frames;
	int i;

	if (!score)
		return;
	i = p->n_worst < AT_WORST_ANIMS ? p->n_worst++ : AT_WORST_ANIMS;
	while (i > 0 && p->worst[i - 1].frames_dropped + p->worst[i - 1].janky_frames < score) {
		if (i < AT_WORST_ANIMS)
			p->worst[i] = p->worst[i - 1];
		i--;
	}
	if (i == AT_WORST_ANIMS)
		return;
	p->worst[i].id = a->id;
	memcpy(p->worst[i].name, a->name, sizeof(p->worst[i].name));
	p->worst[i].frames = a->frames;
	p->worst[i].frames_dropped = a->frames_dropped;
	p->worst[i].janky_frames = a->janky_frames;
}

static void anim_report_end(struct engine *e, struct proc *p, struct anim_key *k,
			    const struct anim *a)
{
	e->ended++;
	worst_add(p, a);
	stats_end(e, k->name, a);
	SINK_CALL(e, anim_end, a);
}

/* Takes r off its process's running list (r is not freed). */
static void anim_unlink(struct engine *e, struct proc *p, struct anim_run *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		p->running = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		p->running_tail = r->prev;
	r->key->run = NULL;
	p->n_running--;
	e->n_running--;
}

static void anim_end_run(struct engine *e, struct proc *p, struct anim_run *r, uint64_t ts_ns,
			 uint32_t tid, enum end_reason reason, enum reason_source source)
{
	anim_unlink(e, p, r);
	r->a.end_ns = ts_ns < r->a.start_ns ? r->a.start_ns : ts_ns;
	r->a.end_tid = tid;
	r->a.reason = reason;
	r->a.reason_source = source;
	memcpy(r->a.process, p->name, sizeof(r->a.process));
	r->a.refresh_traced = p->refresh_on;
	anim_fit_interp(&r->a);
	targets_fill(r);
	anim_report_end(e, p, r->key, &r->a);
	free(r->tg);
	free(r);
}

static void art_start_stack(struct engine *e, uint32_t tid, int64_t cookie, uint64_t ts_ns,
			    struct anim *a);

/* Drops the oldest running animator of p, unreported: its F is then ignored. */
static void anim_evict(struct engine *e, struct proc *p)
{
	struct anim_run *r = p->running;

	anim_unlink(e, p, r);
	r->key->evicted = true;
	e->ev.animators++;
	free(r->tg);
	free(r);
}

/* Room for one more running animator in p, within both caps. */
static void anim_make_room(struct engine *e, struct proc *p)
{
	struct proc *most = p;

	if (p->n_running >= CAP_OPEN_ANIMS_PROC) {
		anim_evict(e, p);
		return;
	}
	if (e->n_running < CAP_OPEN_ANIMS)
		return;
	for (size_t i = 0; i < e->n_procs; i++)
		if (e->proc_list[i]->n_running > most->n_running)
			most = e->proc_list[i];
	anim_evict(e, most);
}

static void anim_start(struct engine *e, struct proc *p, struct anim_key *k, const char *name,
		       uint64_t ts_ns, uint32_t tid)
{
	struct anim_run *r;

	if (k->run) /* S again without F: the old run is over */
		anim_end_run(e, p, k->run, ts_ns, tid, END_ENDED, REASON_INFERRED);
	anim_make_room(e, p);
	r = calloc(1, sizeof(*r));
	if (!r)
		return;
	k->evicted = false;
	anim_set_name(&r->a, name);
	r->a.id = (uint64_t)k->cookie;
	r->a.pid = p->pid;
	r->a.start_tid = tid;
	r->a.start_ns = ts_ns;
	r->a.restarts = k->starts++;
	memcpy(r->a.process, p->name, sizeof(r->a.process));
	r->key = k;
	k->run = r;
	r->prev = p->running_tail;
	if (p->running_tail)
		p->running_tail->next = r;
	else
		p->running = r;
	p->running_tail = r;
	p->n_running++;
	e->n_running++;
	if (p->cur.live) { /* an S inside a doFrame counts that frame */
		r->a.frames = 1;
		frame_add_id(&p->cur, r->a.id);
		r->last_seq = p->cur.f.seq;
	}
	art_start_stack(e, tid, k->cookie, ts_ns, &r->a);
	r->a.has_start_delay = start_pending_take(p, k->cookie, &r->a.start_delay_ns);
	if (r->a.has_start_delay)
		r->a.start_delay_ns = ts_ns > r->a.start_delay_ns ? ts_ns - r->a.start_delay_ns : 0;
	k->name->count++;
	e->started++;
	SINK_CALL(e, anim_start, &r->a);
}

/*
 * cancel() and end() write their F synchronously, on the calling thread, microseconds
 * after the probe, and start() its S: what keeps a call from explaining the wrong marker is
 * that each pending call is consumed by the thread's next F (or S), and that a start() of
 * the animator drops a cancel()/end() still pending for it (that one found it not running:
 * no F). The window only bounds how stale a pending call may be; it is generous because a
 * loaded device (or qemu) can deschedule the thread between the probe and the write.
 */
#define ART_CALL_WINDOW_NS (1000ULL * 1000000ULL)

/* The ART call that caused this F, if any; consumes it. */
static bool art_cause(struct engine *e, uint32_t tid, int64_t cookie, uint64_t ts_ns,
		      enum art_call *call, const struct art_pending **pending)
{
	struct thread *t = thread_find(e, tid);

	if (!t || !t->art.valid)
		return false;
	t->art.valid = false;
	if ((int64_t)t->art.cookie != cookie || ts_ns - t->art.ts_ns > ART_CALL_WINDOW_NS)
		return false;
	*call = t->art.call;
	*pending = &t->art;
	return true;
}

/* The stack of the start() that wrote this S on the same thread just before; consumes it. */
static void art_start_stack(struct engine *e, uint32_t tid, int64_t cookie, uint64_t ts_ns,
			    struct anim *a)
{
	struct thread *t = thread_find(e, tid);

	if (!t || !t->art_start.valid)
		return;
	t->art_start.valid = false;
	if ((int64_t)t->art_start.cookie != cookie ||
	    ts_ns - t->art_start.ts_ns > ART_CALL_WINDOW_NS)
		return;
	if (t->art.valid && (int64_t)t->art.cookie == cookie)
		t->art.valid = false; /* a cancel()/end() before this start() found it idle */
	a->n_start_stack = t->art_start.n_stack;
	memcpy(a->start_stack, t->art_start.stack, sizeof(a->start_stack));
}

static void art_end_stack(struct anim *a, const struct art_pending *pending)
{
	a->n_end_stack = pending->n_stack;
	memcpy(a->end_stack, pending->stack, sizeof(a->end_stack));
}

/* Were the ART probes watching cancel()/end() when this F was written? */
static bool art_watched(const struct proc *p, uint64_t ts_ns)
{
	return p->art && ts_ns >= p->art_since;
}

static void anim_finish(struct engine *e, struct proc *p, struct anim_key *k, const char *name,
			uint64_t ts_ns, uint32_t tid)
{
	const struct art_pending *pending = NULL;
	enum art_call call;
	bool by_art = art_cause(e, tid, k->cookie, ts_ns, &call, &pending);
	struct anim a;

	if (k->run) {
		if (by_art)
			art_end_stack(&k->run->a, pending);
		uint64_t start = k->run->a.start_ns;
		bool instant = ts_ns - start < e->opts.instant_ns || ts_ns < start;
		enum end_reason r = instant ? END_FORCE_END : END_ENDED;

		if (by_art)
			r = call == ART_CALL_END ? END_FORCE_END : END_CANCEL;
		else if (art_watched(p, ts_ns))
			r = END_COMPLETE;
		anim_end_run(e, p, k->run, ts_ns, tid, r,
			     by_art || art_watched(p, ts_ns) ? REASON_ART : REASON_INFERRED);
		return;
	}
	if (k->evicted) { /* its S was seen; the run was evicted and counted then */
		k->evicted = false;
		return;
	}
	/* F without S: cancel() during the start delay. */
	memset(&a, 0, sizeof(a));
	start_pending_take(p, k->cookie, &a.start_ns); /* no S will follow this start() */
	a.start_ns = 0;
	anim_set_name(&a, name);
	a.id = (uint64_t)k->cookie;
	a.pid = p->pid;
	a.end_tid = tid;
	a.end_ns = ts_ns;
	a.restarts = k->starts;
	a.reason = END_CANCEL_BEFORE_START;
	a.reason_source = by_art ? REASON_ART : REASON_INFERRED;
	if (by_art)
		art_end_stack(&a, pending);
	memcpy(a.process, p->name, sizeof(a.process));
	k->name->count++;
	anim_report_end(e, p, k, &a);
}

static void on_async(struct engine *e, struct proc *p, uint64_t ts_ns, uint32_t tid,
		     const struct marker *m)
{
	char name[AT_NAME_MAX];
	struct name_acc *n;
	struct anim_key *k;

	if (!is_animator(m->name))
		return;
	snprintf(name, sizeof(name), "%.*s",
		 (int)utf8_prefix(m->name.p, m->name.len, sizeof(name) - 1), m->name.p);
	n = name_get(e, name);
	k = n ? key_get(e, p->pid, n, m->value) : NULL;
	if (!k)
		return;
	if (m->type == MARKER_ASYNC_BEGIN)
		anim_start(e, p, k, name, ts_ns, tid);
	else
		anim_finish(e, p, k, name, ts_ns, tid);
}

/* ---- public API ---------------------------------------------------------------------- */

/* Frees p's state; its running animators are freed unreported. */
static void proc_free(struct proc *p)
{
	while (p->running) {
		struct anim_run *r = p->running;

		p->running = r->next;
		free(r->tg);
		free(r);
	}
	free(p->cur.ids);
	free(p->done.ids);
	free(p->cur.gap_ids);
	free(p->done.gap_ids);
	free(p->cur.rd);
	free(p->done.rd);
	period__free(p->refresh);
	free(p->pb.nodes);
	free(p->pb.before);
	htab_free_values(&p->nodes);
	free(p);
}

static bool proc_is(void *v, void *ctx)
{
	return v == ctx;
}

/* The smoothness of p so far; early frames are judged again with the period now known. */
static void proc_stat_fill(struct proc *p, struct proc_stat *ps)
{
	enum period_source src;

	memset(ps, 0, sizeof(*ps));
	ps->pid = p->pid;
	memcpy(ps->process, p->name, sizeof(ps->process));
	ps->refresh_period_ns = period__period(p->refresh, &src);
	ps->refresh_source = period_source_str(src);
	ps->frames = p->seq;
	ps->frames_dropped = p->dropped;
	ps->janky_frames = p->janky;
	for (int i = 0; i < p->n_early; i++)
		ps->janky_frames += p->early[i] > ps->refresh_period_ns;
	ps->n_worst = p->n_worst;
	memcpy(ps->worst, p->worst, sizeof(ps->worst));
}

/* An exited process with frames keeps its line in the summary. */
static void proc_stat_keep(struct engine *e, struct proc *p)
{
	struct proc_stat *ps;

	if (!p->seq)
		return;
	if (e->n_exited >= CAP_PROCS) {
		e->ev.proc_stats++;
		return;
	}
	ps = vec_push((void **)&e->exited, &e->n_exited, &e->cap_exited, sizeof(*ps));
	if (ps)
		proc_stat_fill(p, ps);
}

/* Forgets a process with nothing running. */
static void proc_remove(struct engine *e, struct proc *p)
{
	size_t i;

	proc_stat_keep(e, p);
	storm_end(e, p);
	redraw_top_proc(e, p);
	if (htab_sweep(&e->procs, proc_is, p) != 1)
		return; /* no memory to rebuild the table: keep it */
	for (i = 0; i < e->n_procs && e->proc_list[i] != p; i++)
		;
	memmove(e->proc_list + i, e->proc_list + i + 1, (e->n_procs - i - 1) * sizeof(p));
	e->n_procs--;
	proc_free(p);
}

static int seg_start(void *ctx, const struct animation *a)
{
	struct engine *e = ctx;

	SINK_CALL(e, animation_start, a);
	return e->sink_err;
}

static int seg_end(void *ctx, const struct animation *a)
{
	struct engine *e = ctx;

	SINK_CALL(e, animation_end, a);
	return e->sink_err;
}

struct engine *engine__new(const struct engine_opts *opts, struct sink sink)
{
	struct engine *e = calloc(1, sizeof(*e));

	if (!e) {
		errno = ENOMEM;
		return NULL;
	}
	e->seg = segment__new((struct seg_out){ seg_start, seg_end, e });
	if (!e->seg) {
		free(e);
		errno = ENOMEM;
		return NULL;
	}
	if (opts)
		e->opts = *opts;
	if (!e->opts.instant_ns)
		e->opts.instant_ns = DEFAULT_INSTANT_NS;
	e->sink = sink;
	return e;
}

/* animtrace --annotate's own markers (model.h): they describe animators, they are none. */
static bool is_annotation(const struct marker *m)
{
	switch (m->type) {
	case MARKER_TRACK_BEGIN:
	case MARKER_TRACK_END:
	case MARKER_INSTANT_TRACK:
		return strv_eq(m->track, AT_ANNOT_TRACK);
	case MARKER_COUNTER:
		return strv_starts_with(m->name, AT_ANNOT_COUNTER);
	default:
		return false;
	}
}

static void on_annotation(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			  const char *process, const struct marker *m)
{
	struct annotation an = {
		.pid = pid, .tid = tid, .ts_ns = ts_ns, .type = (char)m->type,
		.value = m->type == MARKER_INSTANT_TRACK ? 0 : m->value,
	};

	e->annotations++;
	snprintf(an.process, sizeof(an.process), "%s", process ? process : "");
	snprintf(an.name, sizeof(an.name), "%.*s",
		 (int)utf8_prefix(m->name.p, m->name.len, sizeof(an.name) - 1), m->name.p);
	SINK_CALL(e, annotation, &an);
}

static void note_time(struct engine *e, uint64_t ts_ns)
{
	e->src_ts_ns = ts_ns;
	if (!e->seen || ts_ns < e->first_ns)
		e->first_ns = ts_ns;
	if (!e->seen || ts_ns > e->last_ns)
		e->last_ns = ts_ns;
	e->seen = true;
}

void engine__marker(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
		    const char *process, const struct marker *m)
{
	struct proc *p;
	struct thread *t;

	e->markers++;
	note_time(e, ts_ns);
	if (is_annotation(m)) {
		on_annotation(e, ts_ns, pid, tid, process, m);
		return;
	}
	av_marker(e, tid);
	if (m->type == MARKER_END) { /* may be a bare "E": the thread knows its process */
		slice_end(e, thread_find(e, tid), ts_ns);
		p = process && *process ? proc_get(e, pid, process) : proc_find(e, pid);
		if (p)
			p->markers++;
		return;
	}
	p = proc_get(e, pid, process);
	if (!p)
		return;
	p->markers++;
	switch (m->type) {
	case MARKER_BEGIN:
		t = thread_get(e, pid, tid);
		if (t)
			slice_begin(e, p, t, ts_ns, m->name);
		break;
	case MARKER_ASYNC_BEGIN:
	case MARKER_ASYNC_END:
		on_async(e, p, ts_ns, tid, m);
		break;
	default:
		break;
	}
}

/* A probe saw node of pid at ts_ns: its process (*pp) and node state, or NULL (no memory). */
static struct node_st *node_seen(struct engine *e, uint64_t ts_ns, uint32_t pid, uint64_t node,
				 const char *node_name, struct proc **pp)
{
	note_time(e, ts_ns);
	*pp = proc_get(e, pid, NULL);
	return *pp ? node_get(e, *pp, node, node_name) : NULL;
}

void engine__prop(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid, uint64_t node,
		  const char *node_name, enum view_prop prop, float value, const float *prev)
{
	const uint32_t *writer;
	struct thread *t;
	struct proc *p;
	struct node_st *n;
	bool explained = false;
	uint64_t frame_ns;

	if (!node || (unsigned int)prop >= PROP_COUNT)
		return;
	n = node_seen(e, ts_ns, pid, node, node_name, &p);
	if (!n)
		return;
	p->prop_writes++;
	if (prev && !(n->known & (1u << prop))) {
		n->val[prop] = *prev;
		n->known |= 1u << prop;
	}
	t = thread_find(e, tid);
	writer = t && t->av_valid && t->pid == pid ? &t->av_cookie : NULL;
	batch_add(e, p, n, ts_ns, tid, prop, value, writer);
	frame_ns = p->cur.live ? p->cur.f.start_ns : ts_ns;
	if (writer) { /* the animator is known: no other one may claim the write */
		struct anim_run *r = run_by_cookie(p, *writer);

		explained = true; /* an animator's write is never an unmarked animation */
		if (r)
			target_write(p, r, n, prop, value, frame_ns);
	}
	for (struct anim_run *r = p->running; r && !writer; r = r->next) {
		anim_link(&r->a, n, prop, value);
		explained |= anim_sample(&r->a, n, prop, value, p->pb.gen, frame_ns);
	}
	if (explained && n->gen == p->pb.gen && n->idx >= 0)
		p->pb.before[n->idx].explained |= 1u << prop;
	n->val[prop] = value;
	n->known |= 1u << prop;
}

void engine__node_id(struct engine *e, uint32_t pid, uint64_t node, uint64_t uid)
{
	struct proc *p = node ? proc_get(e, pid, NULL) : NULL;
	struct node_st *n = p ? node_get(e, p, node, NULL) : NULL;

	if (!n)
		return;
	if (n->has_uid && n->uid != uid) { /* freed, and another node made at its address */
		n->known = 0;
		node_fallback_name(n->name, sizeof(n->name), node);
	}
	n->uid = uid;
	n->has_uid = true;
}

void engine__node_names(struct engine *e, const struct node_name_stats *st)
{
	e->node_names = *st;
	e->ev.node_names = st->evicted;
}

void engine__art_active(struct engine *e, uint32_t pid, uint64_t since_ns)
{
	struct proc *p = proc_get(e, pid, NULL);

	if (p) {
		p->art = true;
		p->art_since = since_ns;
	}
}

void engine__art_call(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
		      enum art_call call, bool has_cookie, uint32_t cookie)
{
	engine__art_call_stack(e, ts_ns, pid, tid, call, has_cookie, cookie, NULL, 0);
}

void engine__art_call_stack(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			    enum art_call call, bool has_cookie, uint32_t cookie,
			    const char (*stack)[AT_FRAME_NAME], int n_stack)
{
	struct art_pending *pd;
	struct thread *t;

	note_time(e, ts_ns);
	if (has_cookie && call == ART_CALL_START) {
		struct proc *p = proc_get(e, pid, NULL);

		if (p)
			start_pending_add(p, cookie, ts_ns);
	}
	if (!has_cookie)
		return;
	t = thread_get(e, pid, tid);
	if (!t)
		return;
	pd = call == ART_CALL_START ? &t->art_start : &t->art;
	pd->valid = true;
	pd->call = call;
	pd->cookie = cookie;
	pd->ts_ns = ts_ns;
	pd->n_stack = n_stack < 0 ? 0 : n_stack > AT_STACK_FRAMES ? AT_STACK_FRAMES : n_stack;
	memset(pd->stack, 0, sizeof(pd->stack));
	for (int i = 0; i < pd->n_stack; i++)
		snprintf(pd->stack[i], AT_FRAME_NAME, "%s", stack[i]);
}

void engine__refresh_active(struct engine *e, uint32_t pid)
{
	struct proc *p = proc_get(e, pid, NULL);

	if (p)
		p->refresh_on = e->refresh = true;
}

void engine__redraw(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid, uint64_t node,
		    const char *node_name)
{
	struct proc *p;
	struct node_st *n;

	(void)tid;
	if (!node)
		return;
	n = node_seen(e, ts_ns, pid, node, node_name, &p);
	if (!n)
		return;
	p->refresh_on = e->refresh = true;
	/* Counted while the animator runs, in the frame it started in too (its update listener
	 * invalidates before the traversal); a redraw after its F in its last frame is not. */
	if (p->cur.live && !frame_redrew(&p->cur, node))
		for (struct anim_run *r = p->running; r; r = r->next)
			r->a.target_redraws += r->a.target_node == node;
	frame_add_redraw(&p->cur, n);
}

void engine__vsync_request(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			   const char (*stack)[AT_FRAME_NAME], int n_stack)
{
	struct proc *p;

	(void)tid;
	note_time(e, ts_ns);
	p = proc_get(e, pid, NULL);
	if (!p)
		return;
	p->refresh_on = e->refresh = true;
	if (p->cur.vsync_req < UINT32_MAX)
		p->cur.vsync_req++;
	if (n_stack > 0) {
		p->cur.n_vstack = n_stack < AT_STACK_FRAMES ? n_stack : AT_STACK_FRAMES;
		memcpy(p->cur.vstack, stack, (size_t)p->cur.n_vstack * AT_FRAME_NAME);
	}
}

void engine__art_animate(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			 bool has_cookie, uint32_t cookie)
{
	struct thread *t;

	note_time(e, ts_ns);
	t = thread_get(e, pid, tid);
	if (!t)
		return;
	/* ObjectAnimator.animateValue calling ValueAnimator's with the same this: one call. */
	t->av_valid = has_cookie;
	t->av_cookie = cookie;
	t->av_depth = animation_phase_depth(t);
}

void engine__process_name(struct engine *e, uint32_t pid, const char *name)
{
	proc_get(e, pid, name);
}

void engine__rejected(struct engine *e)
{
	e->rejected++;
}

/*
 * View property writes but not one trace_marker write: without markers there are no frames,
 * animator lifecycles or jank, only bare values. On a phone the app does not see the VIEW
 * tag on, or (15+) routes android.os.Trace to the Perfetto SDK (ANDROID.md section 2): say so
 * instead of printing a quiet session.
 */
static void note_unmarked_proc(struct engine *e, const struct proc *p)
{
	char msg[256], who[AT_PROC_MAX + 24];

	if (p->markers || !p->prop_writes || !e->sink.ops || !e->sink.ops->note)
		return;
	if (*p->name)
		snprintf(who, sizeof(who), "%s (pid %u)", p->name, p->pid);
	else
		snprintf(who, sizeof(who), "pid %u", p->pid);
	snprintf(msg, sizeof(msg),
		 "%s: %llu View property writes but no trace_marker writes: no frames or "
		 "animator lifecycles for it (is its atrace view tag on? animtrace doctor)",
		 who, (unsigned long long)p->prop_writes);
	SINK_CALL(e, note, msg);
}

void engine__process_exit(struct engine *e, uint64_t ts_ns, uint32_t pid)
{
	struct proc *p = proc_find(e, pid);

	note_time(e, ts_ns);
	if (!p)
		return;
	frames_flush(e, p, ts_ns);
	segment__process_exit(e->seg, pid);
	while (p->running)
		anim_end_run(e, p, p->running, ts_ns, 0, END_PROCESS_EXIT, REASON_INFERRED);
	note_unmarked_proc(e, p);
	/* Nothing of it is needed any more (its pid may come back as another process): a
	 * long session of restarts must not fill CAP_PROCS with the dead. */
	proc_remove(e, p);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_name_stat(const void *a, const void *b)
{
	const struct name_stat *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_running(const void *a, const void *b)
{
	const struct anim *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Median of the ended durations; the mean of the two middle ones when the count is even. */
static uint64_t median(uint64_t *d, size_t n)
{
	if (!n)
		return 0;
	qsort(d, n, sizeof(*d), cmp_u64);
	if (n % 2)
		return d[n / 2];
	return d[n / 2 - 1] + (d[n / 2] - d[n / 2 - 1]) / 2;
}

static struct name_stat *build_names(struct engine *e)
{
	struct name_stat *ns = calloc(e->n_names ? e->n_names : 1, sizeof(*ns));

	if (!ns)
		return NULL;
	for (size_t i = 0; i < e->n_names; i++) {
		struct name_acc *n = e->name_list[i];

		memcpy(ns[i].name, n->name, sizeof(ns[i].name));
		ns[i].count = n->count;
		ns[i].cancels = n->cancels;
		ns[i].running = n->running;
		ns[i].total_ns = n->total_ns;
		ns[i].max_ns = n->max_ns;
		ns[i].frames = n->frames;
		ns[i].median_ns = median(n->durs, n->n_durs);
	}
	qsort(ns, e->n_names, sizeof(*ns), cmp_name_stat);
	return ns;
}

/* Collects the animators still running; each counts as running in its name's stats. */
static struct anim *build_running(struct engine *e, size_t *n_out)
{
	size_t n = 0, cap = 0;
	struct anim *arr = NULL;

	for (size_t i = 0; i < e->n_procs; i++) {
		struct proc *p = e->proc_list[i];

		for (struct anim_run *r = p->running; r; r = r->next) {
			struct anim *a = vec_push((void **)&arr, &n, &cap, sizeof(*a));

			if (!a)
				break;
			targets_fill(r);
			*a = r->a;
			a->reason = END_RUNNING_AT_EXIT;
			a->reason_source = REASON_INFERRED;
			memcpy(a->process, p->name, sizeof(a->process));
			worst_add(p, &r->a);
			r->key->name->running++;
			r->key->name->frames += r->a.frames;
		}
	}
	if (n)
		qsort(arr, n, sizeof(*arr), cmp_running);
	*n_out = n;
	return arr;
}

/* Nodes beyond CAP_FRAME_NODES are not in any frame_props: say how many were left out. */
static void note_dropped(struct engine *e)
{
	char msg[128];

	if (!e->ev.node_frames || !e->sink.ops || !e->sink.ops->note)
		return;
	snprintf(msg, sizeof(msg),
		 "property changes of %llu node-frames not reported (over %d nodes in a frame)",
		 (unsigned long long)e->ev.node_frames, CAP_FRAME_NODES);
	SINK_CALL(e, note, msg);
}

/* Every process with frames: the exited ones, then those still alive. NULL when none. */
static struct proc_stat *build_procs(struct engine *e, size_t *n_out)
{
	struct proc_stat *ps = calloc(e->n_exited + e->n_procs + 1, sizeof(*ps));
	size_t n = e->n_exited;

	*n_out = 0;
	if (!ps)
		return NULL;
	if (n)
		memcpy(ps, e->exited, n * sizeof(*ps));
	for (size_t i = 0; i < e->n_procs; i++)
		if (e->proc_list[i]->seq)
			proc_stat_fill(e->proc_list[i], &ps[n++]);
	*n_out = n;
	return ps;
}

/* The frame statistics of the summary: longest frames and property writes per frame. */
static void finish_frame_stats(const struct engine *e, struct summary *s)
{
	s->n_longest_frames = e->n_longest_frames;
	s->longest_frames = e->longest_frames;
	s->prop_frames = e->prop_frames;
	s->prop_sets = e->prop_sets;
	s->prop_sets_max = e->prop_sets_max;
}

/* The unmarked animations still running end; their counts and longest go to s. */
static void finish_animations(struct engine *e, struct summary *s)
{
	const struct animation *longest;

	segment__finish(e->seg);
	segment__stats(e->seg, s->animations, &longest, &s->n_unmarked);
	s->unmarked = longest;
	e->ev.prop_runs = segment__evicted(e->seg);
}

void engine__finish(struct engine *e, uint64_t ts_ns, uint64_t drops, uint64_t truncated)
{
	struct summary s = { 0 };
	struct name_stat *names;
	struct anim *running;
	struct proc_stat *procs;
	size_t n_running = 0, n_procs = 0;

	if (ts_ns)
		note_time(e, ts_ns);
	for (size_t i = 0; i < e->n_procs; i++) {
		frames_flush(e, e->proc_list[i], ts_ns > e->last_ns ? ts_ns : e->last_ns);
		storm_end(e, e->proc_list[i]);
		redraw_top_proc(e, e->proc_list[i]);
		note_unmarked_proc(e, e->proc_list[i]);
	}
	finish_animations(e, &s);
	running = build_running(e, &n_running);
	names = build_names(e);
	procs = build_procs(e, &n_procs);
	s.first_ns = e->first_ns;
	s.last_ns = e->last_ns;
	s.anims_started = e->started;
	s.anims_ended = e->ended;
	s.frames = e->frames;
	s.markers = e->markers;
	s.markers_rejected = e->rejected;
	s.annotations = e->annotations;
	s.n_names = names ? (int)e->n_names : 0;
	s.names = names;
	s.n_longest = e->n_longest;
	s.longest = e->longest;
	s.n_running = (int)n_running;
	s.running = running;
	s.drops = drops;
	s.truncated = truncated;
	s.evicted = e->ev;
	s.node_names = e->node_names;
	s.n_procs = (int)n_procs;
	s.procs = procs;
	finish_frame_stats(e, &s);
	s.refresh = e->refresh;
	s.n_redraw_views = e->n_redraw_top;
	s.redraw_views = e->redraw_top;
	note_dropped(e);
	SINK_CALL(e, summary, &s);
	free(names);
	free(running);
	free(procs);
}

int engine__sink_error(const struct engine *e)
{
	return e->sink_err;
}

void engine__free(struct engine *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n_procs; i++)
		proc_free(e->proc_list[i]);
	for (size_t i = 0; i < e->n_names; i++)
		free(e->name_list[i]->durs);
	for (size_t i = 0; i < e->threads.cap; i++)
		if (e->threads.s[i].v)
			free(((struct thread *)e->threads.s[i].v)->st);
	htab_free_values(&e->keys);
	htab_free_values(&e->names);
	free(e->procs.s);
	htab_free_values(&e->threads);
	free(e->proc_list);
	free(e->name_list);
	free(e->exited);
	segment__free(e->seg);
	free(e->seg_buf);
	free(e);
}

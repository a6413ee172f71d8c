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

#include "coll.h"
#include "engine.h"

#define LONGEST_MAX 5
#define LONGEST_FRAMES_MAX 3
#define DEFAULT_INSTANT_NS 1000000ull
#define FRAME_NODES_MAX 256 /* nodes per frame_props; more are counted, not reported */

/* ---- state --------------------------------------------------------------------------- */

struct name_acc {
	char name[AT_NAME_MAX];
	uint32_t count, cancels, running;
	uint64_t total_ns, max_ns;
	uint64_t frames;
	uint64_t *durs; /* ended durations, for the median */
	size_t n_durs, cap_durs;
};

struct anim_run;

/* One (pid, name, cookie): small and kept forever so cookie reuse can be counted. */
struct anim_key {
	uint32_t pid;
	int64_t cookie;
	struct name_acc *name;
	uint32_t starts;
	struct anim_run *run; /* non-NULL while running */
};

struct anim_run {
	struct anim a;
	struct anim_key *key;
	struct anim_run *prev, *next; /* the process's running list */
};

struct frame_st {
	struct frame f;
	uint64_t *ids;
	size_t n_ids, cap_ids;
	bool live; /* open (cur) or waiting for its draw (done) */
};

/* A RenderNode of one process: its name and the last value seen per property. */
struct node_st {
	uint64_t node;
	char name[64];
	uint32_t known; /* bit per enum view_prop: val[] holds a value seen earlier */
	float val[PROP_COUNT];
	uint64_t gen;   /* the batch generation idx belongs to */
	int idx;        /* slot in that batch, -1 when the batch was full */
};

/* The property changes of the current frame (or since the last one) of a process. */
struct prop_batch {
	struct frame_props fp;
	struct node_props *nodes;
	size_t n, cap;
	uint64_t gen; /* bumped at every flush, so node_st.idx goes stale without a walk */
};

struct proc {
	uint32_t pid;
	char name[AT_PROC_MAX];
	struct anim_run *running, *running_tail; /* in start order */
	uint64_t seq;
	struct frame_st cur;  /* the doFrame in progress */
	struct frame_st done; /* ended, waiting for its DrawFrame(s) */
	struct htab nodes;    /* node_st by RenderNode pointer */
	struct prop_batch pb;
	bool art;             /* ART probes on cancel/end: unexplained F means complete... */
	uint64_t art_since;   /* ...for an F written once they were attached */
};

enum slice_kind { SLICE_OTHER, SLICE_DOFRAME, SLICE_PHASE, SLICE_DRAW };

struct slice {
	uint8_t kind;
	uint8_t phase;
	int64_t vsync;
	uint64_t start_ns;
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
	struct art_pending art;
	struct art_pending art_start; /* the last start(), waiting for its S (--stacks) */
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
	uint64_t nodes_dropped; /* node-frames beyond FRAME_NODES_MAX */
	bool seen;
	struct frame longest_frames[LONGEST_FRAMES_MAX];
	int n_longest_frames;
	uint64_t prop_frames, prop_sets;
	uint32_t prop_sets_max;
	int sink_err; /* the first error a sink returned: nothing is sent after it */
};

/* Calls the sink's cb unless it is NULL or an earlier call failed, and keeps its error. */
#define SINK_CALL(e, cb, arg)                                                          \
	do {                                                                           \
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

static struct anim_key *key_get(struct engine *e, uint32_t pid, struct name_acc *n,
				int64_t cookie)
{
	struct key_q q = { pid, cookie, n };
	uint64_t h = hash_mix64(((uint64_t)pid << 32) ^ (uint64_t)cookie ^ (uintptr_t)n);
	struct anim_key *k = htab_find(&e->keys, h, key_eq, &q);

	if (k)
		return k;
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

/* Threads are keyed by tid alone: a bare "E" has no tgid. A reused tid starts afresh. */
static struct thread *thread_get(struct engine *e, uint32_t pid, uint32_t tid)
{
	struct thread *t = thread_find(e, tid);

	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		t->tid = tid;
		t->pid = pid;
		if (htab_add(&e->threads, hash_mix64(tid), t)) {
			free(t);
			return NULL;
		}
	}
	if (t->pid != pid) {
		t->pid = pid;
		t->depth = 0;
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

/* Records the change in the node's slot of the batch: last value wins, writes are counted. */
static void batch_add(struct engine *e, struct proc *p, struct node_st *n, uint64_t ts_ns,
		      uint32_t tid, enum view_prop prop, float value)
{
	struct prop_batch *b = &p->pb;
	struct node_props *np;

	if (!b->n)
		batch_head(p, ts_ns, tid);
	if (n->gen != b->gen) {
		n->gen = b->gen;
		n->idx = -1;
		np = b->n < FRAME_NODES_MAX ?
			     vec_push((void **)&b->nodes, &b->n, &b->cap, sizeof(*np)) : NULL;
		if (!np) {
			e->nodes_dropped++;
			return;
		}
		memset(np, 0, sizeof(*np));
		np->node = n->node;
		n->idx = (int)(b->n - 1);
	}
	if (n->idx < 0)
		return;
	np = &b->nodes[n->idx];
	memcpy(np->node_name, n->name, sizeof(np->node_name));
	np->set_mask |= 1u << prop;
	np->values[prop] = value;
	if (np->sets[prop] < UINT16_MAX)
		np->sets[prop]++;
}

static bool node_eq(const void *v, const void *key)
{
	return ((const struct node_st *)v)->node == *(const uint64_t *)key;
}

static void node_fallback_name(char *buf, size_t size, uint64_t node)
{
	snprintf(buf, size, "RenderNode@%04x", (unsigned int)(node & 0xffff));
}

/*
 * Finds or creates the node. A name, once known, sticks when later calls pass none; a
 * different name means the address now holds another node, whose old values are no "from".
 */
static struct node_st *node_get(struct proc *p, uint64_t node, const char *name)
{
	uint64_t h = hash_mix64(node);
	struct node_st *n = htab_find(&p->nodes, h, node_eq, &node);
	char fallback[32];

	if (!n) {
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
	for (int i = 0; i < AT_SERIES_MAX / 2; i++)
		s->v[i] = s->v[2 * i + 1];
	s->n = AT_SERIES_MAX / 2;
	s->stride *= 2;
}

/* Adds the value of one frame (frame_key): a later value in the same frame replaces it. */
static void series_add(struct prop_series *s, uint64_t frame_key, float value)
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
}

/*
 * The target's value of prop in this frame goes into the animator's curve. The batch
 * generation names the frame: it changes exactly when a frame's changes are sent.
 */
static void anim_sample(struct anim *a, const struct node_st *n, enum view_prop prop,
			float value, uint64_t frame_key)
{
	if (a->target_node != n->node)
		return;
	for (int i = 0; i < a->n_changes; i++)
		if (a->changes[i].prop == prop)
			series_add(&a->series[i], frame_key, value);
}

/* ---- frames -------------------------------------------------------------------------- */

static int frame_add_id(struct frame_st *fs, uint64_t id)
{
	for (size_t i = 0; i < fs->n_ids; i++)
		if (fs->ids[i] == id)
			return 0;
	uint64_t *slot = vec_push((void **)&fs->ids, &fs->n_ids, &fs->cap_ids, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	*slot = id;
	return 0;
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

static void frame_emit(struct engine *e, struct proc *p, struct frame_st *fs)
{
	if (!fs->live)
		return;
	fs->live = false;
	memcpy(fs->f.process, p->name, sizeof(fs->f.process));
	fs->f.n_anims = (int)fs->n_ids;
	fs->f.anim_ids = fs->ids;
	e->frames++;
	frame_longest_add(e, &fs->f);
	SINK_CALL(e, frame, &fs->f);
}

/* The doFrame slice ended: it now waits (as `done`) for the RenderThread draw. */
static void frame_close(struct engine *e, struct proc *p, uint64_t ts_ns)
{
	struct frame_st tmp;

	if (!p->cur.live)
		return;
	frame_emit(e, p, &p->done);
	props_flush(e, p); /* this frame's values, before its own frame record */
	p->cur.f.dur_ns = ts_ns > p->cur.f.start_ns ? ts_ns - p->cur.f.start_ns : 0;
	/* Swap rather than copy so both id buffers are reused. */
	tmp = p->done;
	p->done = p->cur;
	p->cur = tmp;
	p->cur.live = false;
}

static void frame_open(struct engine *e, struct proc *p, uint32_t tid, int64_t vsync,
		       uint64_t ts_ns)
{
	frame_close(e, p, ts_ns); /* a doFrame still open on another thread */
	frame_emit(e, p, &p->done);
	props_flush(e, p); /* changes made since the last doFrame ended */
	memset(&p->cur.f, 0, sizeof(p->cur.f));
	p->cur.f.pid = p->pid;
	p->cur.f.tid = tid;
	p->cur.f.seq = ++p->seq;
	p->cur.f.vsync_id = vsync;
	p->cur.f.start_ns = ts_ns;
	p->cur.n_ids = 0;
	p->cur.live = true;
	for (struct anim_run *r = p->running; r; r = r->next) {
		r->a.frames++;
		frame_add_id(&p->cur, r->a.id);
	}
}

/* A DrawFrame(s) slice ended on a thread other than the UI thread. */
static void frame_draw(struct engine *e, struct proc *p, uint32_t tid, int64_t vsync,
		       uint64_t dur_ns)
{
	struct frame_st *fs = &p->done;

	if (!fs->live || fs->f.tid == tid)
		return;
	if (vsync >= 0 && fs->f.vsync_id >= 0 && vsync != fs->f.vsync_id)
		return;
	fs->f.phase_ns[PHASE_DRAW] += dur_ns;
	frame_emit(e, p, fs);
}

static void frames_flush(struct engine *e, struct proc *p, uint64_t ts_ns)
{
	frame_emit(e, p, &p->done);
	frame_close(e, p, ts_ns);
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
	struct slice *s = vec_push((void **)&t->st, &t->depth, &t->cap, sizeof(*s));

	if (!s)
		return;
	slice_classify(name, s);
	s->start_ns = ts_ns;
	if (s->kind == SLICE_DOFRAME)
		frame_open(e, p, t->tid, s->vsync, ts_ns);
}

static void slice_end(struct engine *e, struct thread *t, uint64_t ts_ns)
{
	struct slice s;
	struct proc *p;
	uint64_t dur;

	if (!t || !t->depth)
		return; /* E without B: the capture started inside the slice */
	s = t->st[--t->depth];
	p = proc_find(e, t->pid);
	if (!p)
		return;
	dur = ts_ns > s.start_ns ? ts_ns - s.start_ns : 0;
	switch (s.kind) {
	case SLICE_DOFRAME:
		if (p->cur.live && p->cur.f.tid == t->tid)
			frame_close(e, p, ts_ns);
		break;
	case SLICE_PHASE:
		if (p->cur.live && p->cur.f.tid == t->tid)
			p->cur.f.phase_ns[s.phase] += dur;
		break;
	case SLICE_DRAW:
		frame_draw(e, p, t->tid, s.vsync, dur);
		break;
	default:
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
	if (i < LONGEST_MAX)
		e->longest[i] = *a;
}

static void stats_end(struct engine *e, struct name_acc *n, const struct anim *a)
{
	if (a->reason == END_CANCEL || a->reason == END_CANCEL_BEFORE_START)
		n->cancels++;
	if (!a->start_ns)
		return;
	uint64_t d = a->end_ns - a->start_ns;
	uint64_t *slot = vec_push((void **)&n->durs, &n->n_durs, &n->cap_durs, sizeof(*slot));

	if (slot)
		*slot = d;
	n->total_ns += d;
	n->frames += a->frames;
	if (d > n->max_ns)
		n->max_ns = d;
	longest_add(e, a);
}

static void anim_report_end(struct engine *e, struct anim_key *k, const struct anim *a)
{
	e->ended++;
	stats_end(e, k->name, a);
	SINK_CALL(e, anim_end, a);
}

static void anim_end_run(struct engine *e, struct proc *p, struct anim_run *r, uint64_t ts_ns,
			 uint32_t tid, enum end_reason reason, enum reason_source source)
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
	r->a.end_ns = ts_ns < r->a.start_ns ? r->a.start_ns : ts_ns;
	r->a.end_tid = tid;
	r->a.reason = reason;
	r->a.reason_source = source;
	memcpy(r->a.process, p->name, sizeof(r->a.process));
	anim_report_end(e, r->key, &r->a);
	free(r);
}

static void art_start_stack(struct engine *e, uint32_t tid, int64_t cookie, uint64_t ts_ns,
			    struct anim *a);

static void anim_start(struct engine *e, struct proc *p, struct anim_key *k, uint64_t ts_ns,
		       uint32_t tid)
{
	struct anim_run *r;

	if (k->run) /* S again without F: the old run is over */
		anim_end_run(e, p, k->run, ts_ns, tid, END_ENDED, REASON_INFERRED);
	r = calloc(1, sizeof(*r));
	if (!r)
		return;
	anim_set_name(&r->a, k->name->name);
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
	if (p->cur.live) { /* an S inside a doFrame counts that frame */
		r->a.frames = 1;
		frame_add_id(&p->cur, r->a.id);
	}
	art_start_stack(e, tid, k->cookie, ts_ns, &r->a);
	k->name->count++;
	e->started++;
	SINK_CALL(e, anim_start, &r->a);
}

/*
 * cancel() and end() write their F synchronously, on the calling thread, microseconds
 * after the probe: a pending call older than this belonged to an animator that was not
 * running (no F), and must not explain a later one.
 */
#define ART_CALL_WINDOW_NS (10ULL * 1000000ULL)

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

static void anim_finish(struct engine *e, struct proc *p, struct anim_key *k, uint64_t ts_ns,
			uint32_t tid)
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
	/* F without S: cancel() during the start delay. */
	memset(&a, 0, sizeof(a));
	anim_set_name(&a, k->name->name);
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
	anim_report_end(e, k, &a);
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
		anim_start(e, p, k, ts_ns, tid);
	else
		anim_finish(e, p, k, ts_ns, tid);
}

/* ---- public API ---------------------------------------------------------------------- */

struct engine *engine__new(const struct engine_opts *opts, struct sink sink)
{
	struct engine *e = calloc(1, sizeof(*e));

	if (!e) {
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

static void note_time(struct engine *e, uint64_t ts_ns)
{
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
	if (m->type == MARKER_END) { /* may be a bare "E": the thread knows its process */
		slice_end(e, thread_find(e, tid), ts_ns);
		if (process && *process)
			proc_get(e, pid, process);
		return;
	}
	p = proc_get(e, pid, process);
	if (!p)
		return;
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

void engine__prop(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid, uint64_t node,
		  const char *node_name, enum view_prop prop, float value, const float *prev)
{
	struct proc *p;
	struct node_st *n;

	if (!node || (unsigned int)prop >= PROP_COUNT)
		return;
	note_time(e, ts_ns);
	p = proc_get(e, pid, NULL);
	n = p ? node_get(p, node, node_name) : NULL;
	if (!n)
		return;
	if (prev && !(n->known & (1u << prop))) {
		n->val[prop] = *prev;
		n->known |= 1u << prop;
	}
	batch_add(e, p, n, ts_ns, tid, prop, value);
	for (struct anim_run *r = p->running; r; r = r->next) {
		anim_link(&r->a, n, prop, value);
		anim_sample(&r->a, n, prop, value, p->pb.gen);
	}
	n->val[prop] = value;
	n->known |= 1u << prop;
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
	if (!has_cookie || (call == ART_CALL_START && n_stack <= 0))
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

void engine__rejected(struct engine *e)
{
	e->rejected++;
}

void engine__process_exit(struct engine *e, uint64_t ts_ns, uint32_t pid)
{
	struct proc *p = proc_find(e, pid);

	note_time(e, ts_ns);
	if (!p)
		return;
	frames_flush(e, p, ts_ns);
	while (p->running)
		anim_end_run(e, p, p->running, ts_ns, 0, END_PROCESS_EXIT, REASON_INFERRED);
	/* Its RenderNodes are gone; the addresses may come back as other nodes. */
	htab_free_values(&p->nodes);
	memset(&p->nodes, 0, sizeof(p->nodes));
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
			*a = r->a;
			a->reason = END_RUNNING_AT_EXIT;
			a->reason_source = REASON_INFERRED;
			memcpy(a->process, p->name, sizeof(a->process));
			r->key->name->running++;
			r->key->name->frames += r->a.frames;
		}
	}
	if (n)
		qsort(arr, n, sizeof(*arr), cmp_running);
	*n_out = n;
	return arr;
}

/* Nodes beyond FRAME_NODES_MAX are not in any frame_props: say how many were left out. */
static void note_dropped(struct engine *e)
{
	char msg[128];

	if (!e->nodes_dropped || !e->sink.ops || !e->sink.ops->note)
		return;
	snprintf(msg, sizeof(msg),
		 "property changes of %llu node-frames not reported (over %d nodes in a frame)",
		 (unsigned long long)e->nodes_dropped, FRAME_NODES_MAX);
	SINK_CALL(e, note, msg);
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

void engine__finish(struct engine *e, uint64_t ts_ns, uint64_t drops, uint64_t truncated)
{
	struct summary s = { 0 };
	struct name_stat *names;
	struct anim *running;
	size_t n_running = 0;

	if (ts_ns)
		note_time(e, ts_ns);
	for (size_t i = 0; i < e->n_procs; i++)
		frames_flush(e, e->proc_list[i], ts_ns > e->last_ns ? ts_ns : e->last_ns);
	running = build_running(e, &n_running);
	names = build_names(e);
	s.first_ns = e->first_ns;
	s.last_ns = e->last_ns;
	s.anims_started = e->started;
	s.anims_ended = e->ended;
	s.frames = e->frames;
	s.markers = e->markers;
	s.markers_rejected = e->rejected;
	s.n_names = names ? (int)e->n_names : 0;
	s.names = names;
	s.n_longest = e->n_longest;
	s.longest = e->longest;
	s.n_running = (int)n_running;
	s.running = running;
	s.drops = drops;
	s.truncated = truncated;
	finish_frame_stats(e, &s);
	note_dropped(e);
	SINK_CALL(e, summary, &s);
	free(names);
	free(running);
}

int engine__sink_error(const struct engine *e)
{
	return e->sink_err;
}

void engine__free(struct engine *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n_procs; i++) {
		struct proc *p = e->proc_list[i];

		while (p->running) {
			struct anim_run *r = p->running;

			p->running = r->next;
			free(r);
		}
		free(p->cur.ids);
		free(p->done.ids);
		free(p->pb.nodes);
		htab_free_values(&p->nodes);
	}
	for (size_t i = 0; i < e->n_names; i++)
		free(e->name_list[i]->durs);
	for (size_t i = 0; i < e->threads.cap; i++)
		if (e->threads.s[i].v)
			free(((struct thread *)e->threads.s[i].v)->st);
	htab_free_values(&e->keys);
	htab_free_values(&e->names);
	htab_free_values(&e->procs);
	htab_free_values(&e->threads);
	free(e->proc_list);
	free(e->name_list);
	free(e);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Findings about animators and unmarked animations (engine/findings.h). */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/findings.h"
#include "engine/state.h"

/* Keeps f among the session's top findings: by kind (enum order), then in time order. */
static void top_add(struct findings *fs, const struct finding *f)
{
	int i = fs->n_top < AT_FINDINGS_TOP ? fs->n_top++ : AT_FINDINGS_TOP;

	while (i > 0 && fs->top[i - 1].kind > f->kind) {
		if (i < AT_FINDINGS_TOP)
			fs->top[i] = fs->top[i - 1];
		i--;
	}
	if (i < AT_FINDINGS_TOP)
		fs->top[i] = *f;
}

static void send(struct findings *fs, struct finding *f, struct emit *out)
{
	fs->by_kind[f->kind]++;
	top_add(fs, f);
	SINK_CALL(out, finding, f);
}

/* A finding of kind about a (its node and the property named prop, when known). */
static void finding_init(struct finding *f, enum finding_kind kind, const struct anim *a,
			 uint64_t ts_ns)
{
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->pid = a->pid;
	memcpy(f->process, a->process, sizeof(f->process));
	f->ts_ns = ts_ns;
	f->n_ids = 1;
	f->ids[0] = a->id;
	f->node = a->target_node;
	if (a->target_node)
		memcpy(f->node_name, a->target_name, sizeof(f->node_name));
	if (a->n_changes) {
		f->has_prop = true;
		f->prop = a->changes[0].prop;
	}
}

static void __attribute__((format(printf, 2, 3))) say(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
}

/* "animator:alpha 7 on Row@51c0" */
static const char *who(char *buf, size_t size, const char *name, uint64_t id, uint64_t node,
		       const char *node_name)
{
	char label[AT_NODE_LABEL_MAX];

	if (!node)
		snprintf(buf, size, "%s %llu", name, (unsigned long long)id);
	else
		snprintf(buf, size, "%s %llu on %s", name, (unsigned long long)id,
			 node_label(label, sizeof(label), node_name, node));
	return buf;
}

/* The innermost Java caller of a stack, or "thread <tid>" without one. */
static const char *caller(char *buf, size_t size, const char (*stack)[AT_FRAME_NAME], int n,
			  uint32_t tid)
{
	if (n > 0)
		snprintf(buf, size, "%s", stack[0]);
	else
		snprintf(buf, size, "thread %u (no stack)", tid);
	return buf;
}

static bool stack_has(const char (*stack)[AT_FRAME_NAME], int n, const char *what)
{
	for (int i = 0; i < n; i++)
		if (strstr(stack[i], what))
			return true;
	return false;
}

/* The frames in which a's properties were written; its doFrames when none was seen. */
static uint32_t value_frames(const struct anim *a)
{
	uint32_t n = 0;

	if (!a->n_changes)
		return a->frames;
	for (int i = 0; i < a->n_changes; i++)
		if (a->series[i].frames > n)
			n = a->series[i].frames;
	return n;
}

static void flicker(struct findings *fs, const struct anim *a, struct emit *out)
{
	char w[160], s[AT_FRAME_NAME + 32], e[AT_FRAME_NAME + 32];
	const char *how;
	struct finding f;

	if (a->reason == END_CANCEL)
		how = "cancel()";
	else if (a->reason == END_FORCE_END)
		how = "end()";
	else if (a->reason == END_FIRST_FRAME)
		how = "cancel() or end()";
	else if (a->reason == END_ENDED && a->n_changes)
		how = "cancel(), end() or a duration under a frame (no ART probes to tell)";
	else
		return;
	if (!a->start_ns || value_frames(a) >= FLICKER_FRAMES)
		return;
	finding_init(&f, FINDING_FLICKER, a, a->end_ns);
	say(&f,
	    "%s ended by %s before its second frame with values (%u): started by %s | "
	    "ended by %s, %.1f ms later",
	    who(w, sizeof(w), a->name, a->id, a->target_node, a->target_name), how, value_frames(a),
	    caller(s, sizeof(s), a->start_stack, a->n_start_stack, a->start_tid),
	    caller(e, sizeof(e), a->end_stack, a->n_end_stack, a->end_tid),
	    (double)(a->end_ns - a->start_ns) / 1e6);
	send(fs, &f, out);
}

static bool view_prop_of(const char *name, enum view_prop *p)
{
	for (int i = 0; i < PROP_COUNT; i++) {
		if (!strcmp(view_prop_str((enum view_prop)i), name)) {
			*p = (enum view_prop)i;
			return true;
		}
	}
	return false;
}

/* The first property both name, or NULL. */
static const char *shared_prop(const struct recent_end *old, const struct anim *a)
{
	for (int i = 0; i < old->n_props; i++)
		for (int j = 0; j < a->n_props; j++)
			if (!strcmp(old->props[i], a->props[j]))
				return old->props[i];
	return NULL;
}

void findings__cancelled_before_start(struct proc *p)
{
	p->findings.adjacent = false;
}

void findings__anim_started(struct proc *p, struct anim_run *r)
{
	struct findings_proc *fp = &p->findings;
	const struct anim *a = &r->a;

	struct recent_end *old = &fp->recent[(fp->next - 1 + RECENT_ENDS) % RECENT_ENDS];
	bool adjacent = fp->adjacent;

	fp->adjacent = false;
	/* ObjectAnimator.start() cancels the old one, then starts: F and S next to each other */
	if (!adjacent || !old->id || old->tid != a->start_tid || a->start_ns < old->end_ns ||
	    a->start_ns - old->end_ns > REPLACE_WINDOW_NS)
		return;
	if (!old->auto_cancel && !shared_prop(old, a))
		return;
	r->fr.has_old = true;
	r->fr.old = *old;
	old->id = 0; /* replaced once */
}

static void recent_add(struct findings_proc *fp, const struct anim *a)
{
	struct recent_end *re = &fp->recent[fp->next];

	fp->adjacent = false;
	if (a->reason != END_CANCEL && a->reason != END_FIRST_FRAME && a->reason != END_ENDED)
		return;
	fp->adjacent = true;
	fp->next = (fp->next + 1) % RECENT_ENDS;
	memset(re, 0, sizeof(*re));
	re->id = a->id;
	re->node = a->target_node;
	re->end_ns = a->end_ns;
	re->tid = a->end_tid;
	re->auto_cancel = stack_has(a->end_stack, a->n_end_stack, "autoCancelBasedOn");
	re->n_props = a->n_props;
	memcpy(re->props, a->props, sizeof(re->props));
}

/* r replaced the animator its S came right after, unless the two moved different nodes. */
static void replaced(struct findings *fs, struct anim_run *r, uint64_t ts_ns, struct emit *out)
{
	const struct recent_end *old = &r->fr.old;
	const struct anim *a = &r->a;
	const char *prop = shared_prop(old, a);
	char label[AT_NODE_LABEL_MAX];
	struct finding f;

	if (!r->fr.has_old)
		return;
	r->fr.has_old = false;
	if (!old->auto_cancel && old->node && a->target_node && old->node != a->target_node)
		return;
	finding_init(&f, FINDING_REPLACED, a, ts_ns);
	f.n_ids = 2;
	f.ids[0] = old->id;
	f.ids[1] = a->id;
	if (!f.node && old->node)
		f.node = old->node;
	f.has_prop = prop && view_prop_of(prop, &f.prop);
	say(&f, "%llu was cancelled by the start of %s %llu on %s%s%s, %.1f ms later (%s)",
	    (unsigned long long)old->id, a->name, (unsigned long long)a->id,
	    f.node ? node_label(label, sizeof(label), f.node_name, f.node) : "the same thread",
	    prop ? ", property " : "", prop ? prop : "", (double)(a->start_ns - old->end_ns) / 1e6,
	    old->auto_cancel ? "AnimationHandler.autoCancelBasedOn in its cancel stack" :
			       "its F right before this S on the same thread");
	send(fs, &f, out);
}

struct phase_pt {
	double phase;
	float v;
};

static int by_phase(const void *a, const void *b)
{
	const struct phase_pt *x = a, *y = b;

	return (x->phase > y->phase) - (x->phase < y->phase);
}

/*
 * The curve folded at period_us (each point at its time modulo the period), its points in
 * phase order: the length of the string through them, in ranges (the string-length method of
 * period search, Dworetsky 1983). A curve that repeats with that period folds onto one cycle
 * (a RESTART ramp: about 1, a REVERSE there and back: about 2) however sparse its points (the
 * curve keeps one point per 2^k frames on a long run); at any other period the cycles fold
 * out of step and the string zigzags over the range.
 */
static double string_len(const struct prop_series *ps, double period_us, double range)
{
	struct phase_pt pt[AT_SERIES_MAX];
	double len = 0;

	for (int k = 0; k < ps->n; k++)
		pt[k] = (struct phase_pt){ fmod((double)ps->t_us[k] - ps->t_us[0], period_us),
					   ps->v[k] };
	qsort(pt, ps->n, sizeof(pt[0]), by_phase);
	for (int k = 1; k < ps->n; k++)
		len += fabs((double)pt[k].v - pt[k - 1].v);
	return len / range;
}

/* Both halves of the curve (in time) sweep REPEAT_SWEEP of its range: a curve that moved and
 * then held still, or came to rest, does not go on repeating. */
static bool sweeps(const struct prop_series *ps, double range)
{
	for (int h = 0; h < 2; h++) {
		float lo = INFINITY, hi = -INFINITY;

		for (int k = h * ps->n / 2; k < (h + 1) * ps->n / 2; k++) {
			lo = ps->v[k] < lo ? ps->v[k] : lo;
			hi = ps->v[k] > hi ? ps->v[k] : hi;
		}
		if (hi - lo < REPEAT_SWEEP * range)
			return false;
	}
	return true;
}

/*
 * The curve repeats: a period in time (a repeat's period is rarely a whole number of frames)
 * from REPEAT_MIN_LAG point intervals to half the curve's span (two periods seen) at which the
 * folded curve's string is at most REPEAT_STRING ranges long, both halves of the curve
 * sweeping its range. Periods are tried in steps that move the last point's phase by
 * REPEAT_TOLERANCE of a period at most, at most REPEAT_TRIES of them (a longer curve starts
 * its search at longer periods); the period is the middle of those with the shortest string
 * (within REPEAT_FLAT) in the first run of them.
 */
static bool repeats(const struct prop_series *ps, double *period_ms)
{
	float vlo = INFINITY, vhi = -INFINITY;
	double span, point_us, range, len, best = INFINITY, p, lo = 0, hi = 0;

	if (ps->n < REPEAT_MIN_POINTS || !ps->stride)
		return false;
	for (int i = 0; i < ps->n; i++) {
		vlo = ps->v[i] < vlo ? ps->v[i] : vlo;
		vhi = ps->v[i] > vhi ? ps->v[i] : vhi;
	}
	range = (double)vhi - vlo;
	span = (double)ps->t_us[ps->n - 1] - ps->t_us[0];
	point_us = span / (ps->n - 1); /* one point per stride frames */
	if (!(range > 0) || !(point_us > 0) || !sweeps(ps, range))
		return false;
	/* shorter periods alias: points stride frames apart fold alike at several of them */
	p = fmax(REPEAT_MIN_LAG * point_us, span / (REPEAT_TOLERANCE * REPEAT_TRIES));
	for (; 2 * p <= span; p += REPEAT_TOLERANCE * p * p / span) {
		len = string_len(ps, p, range);
		if (len <= REPEAT_STRING && len < best - REPEAT_FLAT) {
			best = len;
			lo = hi = p;
		} else if (len <= REPEAT_STRING && len <= best + REPEAT_FLAT) {
			hi = p; /* as short: sparse points fold alike over a span of periods */
		} else if (len > REPEAT_STRING && best < INFINITY) {
			break; /* the end of the first run */
		}
	}
	if (best == INFINITY)
		return false;
	*period_ms = (lo + hi) / 2 / 1000;
	return true;
}

/* When the curve last changed: the first point of the run of equal values it ends with (a
 * listener may keep writing the value it holds). */
static int64_t last_change_us(const struct prop_series *ps)
{
	int i = ps->n - 1;

	while (i > 0 && ps->v[i - 1] == ps->v[ps->n - 1])
		i--;
	return ps->t_us[i];
}

/*
 * No write of a was seen: a stall only when its writes would have been: the process's values
 * are watched (some write of it was seen: not a replay without them, not --no-props) and a is
 * linked to them by its property's name or by the ART probes (a ValueAnimator's listener
 * writes are nobody's without them).
 */
static bool writes_would_show(const struct proc *p, const struct anim *a)
{
	return p->props.nodes.cnt && (a->n_props || p->art.on);
}

/*
 * a was started with repeat INFINITE (its configuration, read at start()): still running is
 * what it was asked to do, whatever its curve shows, so it is repeating, never stalled.
 */
static bool configured_infinite(struct findings *fs, const struct anim *a, uint64_t end_ns,
				struct emit *out)
{
	char w[160];
	struct finding f;

	if (!a->config.has_repeat || a->config.repeat_count != AT_REPEAT_INFINITE)
		return false;
	finding_init(&f, FINDING_REPEATING, a, end_ns);
	say(&f, "%s still runs after %.1f s: it was started with repeat INFINITE (%s)",
	    who(w, sizeof(w), a->name, a->id, a->target_node, a->target_name),
	    (double)(end_ns - a->start_ns) / 1e9, repeat_mode_str(a->config.repeat_mode));
	send(fs, &f, out);
	return true;
}

/* r still runs at end_ns: repeating, stalled, or neither (it still moves). */
static void still_running(struct findings *fs, const struct proc *p, const struct anim *a,
			  uint64_t end_ns, struct emit *out)
{
	uint64_t last = a->start_ns;
	double period_ms;
	char w[160];
	struct finding f;

	if (a->start_ns && configured_infinite(fs, a, end_ns, out))
		return;
	for (int i = 0; i < a->n_changes; i++) {
		const struct prop_series *ps = &a->series[i];

		if (repeats(ps, &period_ms)) {
			finding_init(&f, FINDING_REPEATING, a, end_ns);
			f.prop = a->changes[i].prop;
			say(&f,
			    "%s still runs after %.1f s and its %s repeats every %.0f ms: an "
			    "INFINITE repeat",
			    who(w, sizeof(w), a->name, a->id, a->target_node, a->target_name),
			    (double)(end_ns - a->start_ns) / 1e9, view_prop_str(f.prop), period_ms);
			send(fs, &f, out);
			return;
		}
		if (ps->n && a->start_ns + last_change_us(ps) * 1000 > last)
			last = a->start_ns + last_change_us(ps) * 1000;
	}
	if (!a->start_ns || end_ns < last || end_ns - last < STALL_NS ||
	    (!a->n_changes && !writes_would_show(p, a)))
		return;
	finding_init(&f, FINDING_STALLED, a, end_ns);
	say(&f,
	    "%s still runs after %.1f s with no value change for the last %.1f s: paused or "
	    "leaked",
	    who(w, sizeof(w), a->name, a->id, a->target_node, a->target_name),
	    (double)(end_ns - a->start_ns) / 1e9, (double)(end_ns - last) / 1e9);
	send(fs, &f, out);
}

static void ended_add(struct proc *p, const struct anim_run *r);

void findings__anim_ended(struct findings *fs, struct proc *p, struct anim_run *r, struct emit *out)
{
	ended_add(p, r);
	flicker(fs, &r->a, out);
	replaced(fs, r, r->a.end_ns, out);
	if (r->a.reason == END_PROCESS_EXIT)
		still_running(fs, p, &r->a, r->a.end_ns, out);
	recent_add(&p->findings, &r->a);
}

void findings__running_at_exit(struct findings *fs, struct proc *p, struct anim_run *r,
			       uint64_t end_ns, struct emit *out)
{
	replaced(fs, r, end_ns, out);
	still_running(fs, p, &r->a, end_ns, out);
}

/* FNV-1a over the words of a conflict: node, property, code, the writers (sorted). */
static uint64_t conflict_key(uint64_t node, enum view_prop prop, const uint64_t *ids, int n,
			     bool code)
{
	uint64_t sorted[AT_FINDING_IDS], words[3 + AT_FINDING_IDS], h = 0xcbf29ce484222325ull;
	int nw = 0;

	memcpy(sorted, ids, (size_t)n * sizeof(*ids));
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			uint64_t t = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	words[nw++] = node;
	words[nw++] = (uint64_t)prop;
	words[nw++] = code;
	for (int i = 0; i < n; i++)
		words[nw++] = sorted[i];
	for (int i = 0; i < nw; i++)
		for (int b = 0; b < 8; b++)
			h = (h ^ ((words[i] >> (8 * b)) & 0xff)) * 0x100000001b3ull;
	return h;
}

/* Told already for this key; else remembered (while there is room). */
static bool conflict_told(struct findings_proc *fp, uint64_t key)
{
	for (int i = 0; i < fp->n_told; i++)
		if (fp->told[i] == key)
			return true;
	if (fp->n_told == CONFLICTS_TOLD)
		return true; /* past the cap, say no more */
	fp->told[fp->n_told++] = key;
	return false;
}

static void conflict_send(struct findings *fs, struct proc *p, const struct node_props *np,
			  enum view_prop prop, const uint64_t *ids, int n_ids, const char *other,
			  struct emit *out)
{
	char label[AT_NODE_LABEL_MAX], list[96] = "";
	struct finding f = { .kind = FINDING_CONFLICT, .pid = p->pid };
	size_t len = 0;

	if (conflict_told(&p->findings, conflict_key(np->node, prop, ids, n_ids, other != NULL)))
		return;
	memcpy(f.process, p->name, sizeof(f.process));
	f.ts_ns = p->props.pb.fp.ts_ns;
	f.n_ids = n_ids;
	for (int i = 0; i < n_ids; i++) {
		f.ids[i] = ids[i];
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%llu",
					i ? (i == n_ids - 1 && !other ? " and " : ", ") : "",
					(unsigned long long)ids[i]);
		if (len >= sizeof(list))
			break;
	}
	f.node = np->node;
	memcpy(f.node_name, np->node_name, sizeof(f.node_name));
	f.has_prop = true;
	f.prop = prop;
	say(&f, "%s of %s written %u times in one frame by animator%s %s%s%s: they fight",
	    view_prop_str(prop), node_label(label, sizeof(label), np->node_name, np->node),
	    np->sets[prop], n_ids > 1 ? "s" : "", list, other ? " and " : "", other ? other : "");
	send(fs, &f, out);
}

/* ids holding n ids, with id added unless it is there (or there is no room). */
static int id_add(uint64_t *ids, int n, uint64_t id)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return n;
	if (n < AT_FINDING_IDS)
		ids[n++] = id;
	return n;
}

/* With animateValue windows: the running animators whose own curve of node's prop has a
 * point in this batch (attrib keeps one per frame, keyed by the batch generation). */
static int exact_writers(struct proc *p, uint64_t node, enum view_prop prop, uint64_t *ids)
{
	uint64_t gen = p->props.pb.gen;
	int n = 0;

	for (struct anim_run *r = p->anims.running; r && n < AT_FINDING_IDS; r = r->next) {
		for (size_t t = 0; t < r->at.n_tg; t++) {
			const struct anim_target *tg = &r->at.tg[t];
			bool wrote = false;

			if (tg->node != node)
				continue;
			for (int i = 0; i < tg->n_props && !wrote; i++)
				wrote = tg->props[i].prop == prop && tg->props[i].series.n &&
					tg->props[i].series.frame_key == gen;
			if (wrote)
				ids[n++] = r->a.id;
			break;
		}
	}
	return n;
}

/* The exact writers of node's prop in the current batch that ended already (and were told
 * apart from the running ones, ids holding n of them). */
static int ended_writers(const struct proc *p, uint64_t node, enum view_prop prop, uint64_t *ids,
			 int n)
{
	const struct findings_proc *fp = &p->findings;

	for (int i = 0; i < ENDED_WRITERS && n < AT_FINDING_IDS; i++)
		if (fp->ended[i].id && fp->ended[i].gen == p->props.pb.gen &&
		    fp->ended[i].node == node && (fp->ended[i].props & (1u << prop)))
			ids[n++] = fp->ended[i].id;
	return n;
}

/* r ended: the nodes and properties it wrote in the current batch, for its conflicts. */
static void ended_add(struct proc *p, const struct anim_run *r)
{
	struct findings_proc *fp = &p->findings;

	for (size_t t = 0; t < r->at.n_tg; t++) {
		const struct anim_target *tg = &r->at.tg[t];
		uint32_t props = 0;

		for (int i = 0; i < tg->n_props; i++)
			if (tg->props[i].series.n &&
			    tg->props[i].series.frame_key == p->props.pb.gen)
				props |= 1u << tg->props[i].prop;
		if (!props)
			continue;
		fp->ended[fp->next_ended].gen = p->props.pb.gen;
		fp->ended[fp->next_ended].id = r->a.id;
		fp->ended[fp->next_ended].node = tg->node;
		fp->ended[fp->next_ended].props = props;
		fp->next_ended = (fp->next_ended + 1) % ENDED_WRITERS;
	}
}

/* Without animateValue probes: the running animators that inferred node and prop; *object:
 * one of them is an ObjectAnimator (which sets each of its properties once a frame). */
static int inferred_writers(struct proc *p, uint64_t node, enum view_prop prop, uint64_t *ids,
			    bool *object)
{
	int n = 0;

	*object = false;
	for (struct anim_run *r = p->anims.running; r && n < AT_FINDING_IDS; r = r->next) {
		if (!r->a.target_inferred || r->a.target_node != node)
			continue;
		for (int i = 0; i < r->a.n_changes; i++) {
			if (r->a.changes[i].prop == prop) {
				ids[n++] = r->a.id;
				*object |= r->a.kind == ANIM_OBJECT;
				break;
			}
		}
	}
	return n;
}

/*
 * prop of np was written more than once in the batch. With animateValue windows (any of its
 * writes had one) the writers are known: every animator whose animateValue wrote it, and code
 * when a write outside every animateValue came first or last, or when a second writer beside
 * one animator can only be code. Without, the animators that inferred the node: two of them,
 * or one ObjectAnimator and something else (it sets its property once a frame).
 */
static void prop_conflict(struct findings *fs, struct proc *p, const struct node_props *np,
			  const struct batch_before *bb, enum view_prop prop, struct emit *out)
{
	uint32_t bit = 1u << prop;
	bool last_anim = np->writer_mask & bit, object;
	const char *other = NULL;
	uint64_t ids[AT_FINDING_IDS];
	int n = 0;

	if ((bb->first_anim & bit) || last_anim) {
		if (!(bb->multi & bit))
			return;
		n = ended_writers(p, np->node, prop, ids, exact_writers(p, np->node, prop, ids));
		/* the first's and the last's windows, also of an animator started before tracing */
		if (bb->first_anim & bit)
			n = id_add(ids, n, bb->first[prop]);
		if (last_anim)
			n = id_add(ids, n, np->writer[prop]);
		if (!(bb->first_anim & bit) || !last_anim || n < 2)
			other = "code that is no animator";
	} else {
		n = inferred_writers(p, np->node, prop, ids, &object);
		if (n == 1 && object)
			other = "another writer (code or an animator no probe names)";
		else if (n < 2)
			return;
	}
	conflict_send(fs, p, np, prop, ids, n, other, out);
}

static void node_conflicts(struct findings *fs, struct proc *p, const struct node_props *np,
			   const struct batch_before *bb, struct emit *out)
{
	for (int i = 0; i < PROP_COUNT; i++)
		if ((np->set_mask & (1u << i)) && np->sets[i] >= 2)
			prop_conflict(fs, p, np, bb, (enum view_prop)i, out);
}

void findings__batch(struct findings *fs, struct proc *p, struct emit *out)
{
	const struct prop_batch *b = &p->props.pb;

	if (!b->fp.in_frame)
		return; /* changes outside any doFrame: no frame to fight in */
	for (size_t i = 0; i < b->n; i++)
		node_conflicts(fs, p, &b->nodes[i], &b->before[i], out);
}

void findings__animation_ended(struct findings *fs, const struct animation *a, struct emit *out)
{
	char label[AT_NODE_LABEL_MAX], why[160];
	const struct animation_prop *sp = NULL;
	struct finding f = { .kind = FINDING_SLOW_SPRING, .unmarked = true };
	size_t len = 0;

	for (int i = 0; i < a->n_props && !sp; i++)
		if (a->props[i].fitted && a->props[i].fit.kind == FIT_SPRING)
			sp = &a->props[i];
	if (!sp)
		return;
	if (sp->fit.settle_ms > SLOW_SETTLE_MS)
		len += (size_t)snprintf(why, sizeof(why), "settles in %.1f s (over %.0f s)",
					sp->fit.settle_ms / 1000, SLOW_SETTLE_MS / 1000);
	if (sp->fit.damping_ratio < SLOW_DAMPING && sp->fit.stiffness < SLOW_STIFFNESS)
		snprintf(
			why + len, sizeof(why) - len,
			"%sdamping ratio %.2f < %.1f with stiffness %.0f < %.0f: it oscillates long",
			len ? "; " : "", sp->fit.damping_ratio, SLOW_DAMPING, sp->fit.stiffness,
			SLOW_STIFFNESS);
	else if (!len)
		return;
	f.pid = a->pid;
	memcpy(f.process, a->process, sizeof(f.process));
	f.ts_ns = a->start_ns + a->duration_ns;
	f.n_ids = 1;
	f.ids[0] = a->id;
	f.node = a->node;
	memcpy(f.node_name, a->node_name, sizeof(f.node_name));
	f.has_prop = true;
	f.prop = sp->prop;
	say(&f, "spring %llu on %s %s %s", (unsigned long long)a->id,
	    node_label(label, sizeof(label), a->node_name, a->node), view_prop_str(sp->prop), why);
	send(fs, &f, out);
}

void findings__summary(const struct findings *fs, struct summary *s)
{
	memcpy(s->findings_by_kind, fs->by_kind, sizeof(s->findings_by_kind));
	s->n_findings = fs->n_top;
	s->findings = fs->top;
}

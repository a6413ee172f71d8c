// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* B/E slices and their chains (engine/slices.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/caps.h"
#include "common/coll.h"
#include "engine/slices.h"

void slices__window_reset(struct slices_thread *st)
{
	st->top_dur = 0;
	st->top.n = 0;
}

void slices__chain_of(struct slice_chain *c, const struct slice *s, uint64_t dur)
{
	c->n = 1;
	memcpy(c->s[0].name, s->name, sizeof(c->s[0].name));
	c->s[0].dur_ns = dur;
	for (int i = 0; i < s->best.n && c->n < AT_CHAIN_MAX; i++)
		c->s[c->n++] = s->best.s[i];
}

/* An ended slice becomes its parent's longest child, or the thread's longest top-level one. */
static void chain_offer(struct slices_thread *st, const struct slice *s, uint64_t dur)
{
	struct slice *parent = st->depth ? &st->st[st->depth - 1] : NULL;

	if (parent && (dur > parent->best_dur || !parent->best.n)) {
		parent->best_dur = dur;
		slices__chain_of(&parent->best, s, dur);
	} else if (!parent && (dur > st->top_dur || !st->top.n)) {
		st->top_dur = dur;
		slices__chain_of(&st->top, s, dur);
	}
	if (!parent && dur >= SLICES_RECENT_MIN_NS && s->kind != SLICE_DOFRAME) {
		struct slice_recent *r = &st->recent[st->n_recent++ % SLICES_RECENT];

		r->start_ns = s->start_ns;
		r->end_ns = s->start_ns + dur;
		slices__chain_of(&r->c, s, dur);
	}
}

static uint64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

void slices__busy_between(const struct slices_thread *st, uint64_t from_ns, uint64_t to_ns,
			  struct slice_chain *out)
{
	uint64_t best = 0;

	out->n = 0;
	for (unsigned int i = 0; i < SLICES_RECENT && i < st->n_recent; i++) {
		const struct slice_recent *r = &st->recent[i];
		uint64_t o = overlap(r->start_ns, r->end_ns, from_ns, to_ns);

		if (o > best) {
			best = o;
			*out = r->c;
		}
	}
	/* the outermost open slice (the doFrame's parent, when it is nested) */
	if (st->depth > 1 && overlap(st->st[0].start_ns, to_ns, from_ns, to_ns) > best)
		slices__chain_of(out, &st->st[0], to_ns - st->st[0].start_ns);
}

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
	const char *phase;

	s->kind = SLICE_OTHER;
	s->vsync = -1;
	if (!name.len) /* each name below is compared only when its first byte is the name's */
		return;
	if (name.p[0] == 'C' && match_id_suffix(name, "Choreographer#doFrame", &s->vsync)) {
		s->kind = SLICE_DOFRAME;
		return;
	}
	if (name.p[0] == 'C' && match_id_suffix(name, "Choreographer#onVsync", &s->vsync)) {
		s->kind = SLICE_ONVSYNC;
		return;
	}
	if (name.p[0] == 'D' &&
	    (strv_eq(name, "DrawFrame") || match_id_suffix(name, "DrawFrames", &s->vsync))) {
		s->kind = SLICE_DRAW;
		return;
	}
	for (int i = 0; i < PHASE_DRAW; i++) { /* the phases the UI thread marks */
		phase = frame_phase_str((enum frame_phase)i);
		if (name.p[0] == phase[0] && strv_eq(name, phase)) {
			s->kind = SLICE_PHASE;
			s->phase = (uint8_t)i;
			return;
		}
	}
}

struct slice *slices__begin(struct slices *ss, struct slices_thread *st, uint64_t ts_ns,
			    struct strv name, uint64_t *evicted)
{
	size_t n;
	struct slice *s = NULL;

	if (st->depth < CAP_SLICE_DEPTH && ss->n_open < CAP_OPEN_SLICES)
		s = vec_push((void **)&st->st, &st->depth, &st->cap, sizeof(*s));
	if (!s) { /* its E must still close it, not the slice it is nested in */
		st->overflow++;
		(*evicted)++;
		return NULL;
	}
	ss->n_open++;
	slice_classify(name, s);
	s->start_ns = ts_ns;
	s->owner_seq = 0;
	n = name.len < sizeof(s->name) - 1 ? name.len : sizeof(s->name) - 1;
	memcpy(s->name, name.p, n); /* every B: no snprintf on this path */
	s->name[n] = '\0';
	s->best_dur = 0;
	s->best.n = 0;
	return s;
}

const struct slice *slices__end(struct slices *ss, struct slices_thread *st, uint64_t ts_ns,
				uint64_t *dur_ns)
{
	const struct slice *s;

	if (st->overflow) {
		st->overflow--;
		return NULL;
	}
	if (!st->depth)
		return NULL; /* E without B: the capture started inside the slice */
	s = &st->st[--st->depth];
	ss->n_open--;
	*dur_ns = ts_ns > s->start_ns ? ts_ns - s->start_ns : 0;
	chain_offer(st, s, *dur_ns);
	return s;
}

size_t slices__phase_depth(const struct slices_thread *st, enum frame_phase phase)
{
	for (size_t i = st->depth; i > 0; i--)
		if (st->st[i - 1].kind == SLICE_PHASE && st->st[i - 1].phase == phase)
			return i;
	return 0;
}

void slices__thread_reset(struct slices *ss, struct slices_thread *st)
{
	ss->n_open -= st->depth;
	st->depth = 0;
	st->overflow = 0;
	st->n_recent = 0;
	slices__window_reset(st);
}

bool slices__thread_idle(const struct slices_thread *st)
{
	return !st->depth && !st->overflow;
}

void slices__thread_free(struct slices_thread *st)
{
	free(st->st);
}

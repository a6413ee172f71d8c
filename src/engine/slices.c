// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* B/E slices and their chains. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/slices.h"
#include "engine/state.h"

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
void chain_offer(struct thread *t, const struct slice *s, uint64_t dur)
{
	struct slice *parent = t->slices.depth ? &t->slices.st[t->slices.depth - 1] : NULL;

	if (parent && (dur > parent->best_dur || !parent->best.n)) {
		parent->best_dur = dur;
		slices__chain_of(&parent->best, s, dur);
	} else if (!parent && (dur > t->slices.top_dur || !t->slices.top.n)) {
		t->slices.top_dur = dur;
		slices__chain_of(&t->slices.top, s, dur);
	}
}

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

void slice_classify(struct strv name, struct slice *s)
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

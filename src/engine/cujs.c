// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* CUJs: InteractionJankMonitor's J<CUJ> tracks and what ran inside them. See cujs.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/anims.h"
#include "engine/cujs.h"
#include "engine/state.h"

/* FrameTracker's session names: "J" + the CUJ's name (InteractionJankMonitor). */
#define CUJ_PREFIX "J"

bool cujs__is_cuj(const struct marker *m)
{
	if (!strv_starts_with(m->track, CUJ_PREFIX) || m->track.len < 2)
		return false;
	if (m->type == MARKER_TRACK_BEGIN) /* FrameTracker names the slice after its track */
		return m->name.len == m->track.len && !memcmp(m->name.p, m->track.p, m->name.len);
	return m->type == MARKER_TRACK_END;
}

static bool track_is(const struct cuj_st *s, struct strv track)
{
	return strv_eq(track, s->track);
}

/* Adds animator id to s once; beyond AT_CUJ_ANIMS it is counted. */
static void add_anim(struct cuj_st *s, uint64_t id)
{
	for (int i = 0; i < s->c.n_anims; i++)
		if (s->ids[i] == id)
			return;
	if (s->c.n_anims < AT_CUJ_ANIMS)
		s->ids[s->c.n_anims++] = id;
	else
		s->c.anims_left_out++; /* may count one twice: it is no longer listed */
}

/* s goes out and leaves the open list (the last entry takes its place). */
static void send(struct cujs *cs, struct cujs_proc *cp, int i, struct emit *out)
{
	struct cuj_st *s = &cp->open[i];

	s->c.anim_ids = s->ids;
	cs->count++;
	SINK_CALL(out, cuj, &s->c);
	if (i != cp->n - 1)
		cp->open[i] = cp->open[cp->n - 1];
	cp->n--;
}

static void begin(struct cujs_proc *cp, uint32_t pid, uint32_t tid, const char *process,
		  const struct marker *m, uint64_t ts_ns, uint64_t frame_ns,
		  const struct anim_run *running)
{
	struct cuj_st *s;

	for (int i = 0; i < cp->n; i++)
		if (!cp->open[i].closing && track_is(&cp->open[i], m->track)) {
			cp->open[i].closing = true; /* begun again: over, not ended */
			cp->open[i].until_ns = ts_ns;
		}
	if (!cp->open && !(cp->open = calloc(CUJ_OPEN_MAX, sizeof(*cp->open))))
		return;
	if (cp->n == CUJ_OPEN_MAX)
		return;
	s = &cp->open[cp->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->track, sizeof(s->track), "%.*s",
		 (int)utf8_prefix(m->track.p, m->track.len, sizeof(s->track) - 1), m->track.p);
	snprintf(s->c.name, sizeof(s->c.name), "%s", s->track + strlen(CUJ_PREFIX));
	snprintf(s->c.process, sizeof(s->c.process), "%s", process ? process : "");
	s->c.pid = pid;
	s->c.tid = tid;
	s->c.cookie = m->value;
	s->c.begin_ns = ts_ns;
	s->from_ns = frame_ns && frame_ns < ts_ns ? frame_ns : ts_ns;
	for (const struct anim_run *r = running; r; r = r->next)
		add_anim(s, r->a.id);
}

void cujs__marker(struct cujs *cs, struct cujs_proc *cp, uint32_t pid, uint32_t tid,
		  const char *process, const struct marker *m, uint64_t ts_ns, uint64_t frame_ns,
		  const struct anim_run *running, struct emit *out)
{
	int found = -1;

	if (m->type == MARKER_TRACK_BEGIN) {
		begin(cp, pid, tid, process, m, ts_ns, frame_ns, running);
		return;
	}
	for (int i = 0; i < cp->n; i++) {
		if (cp->open[i].closing || !track_is(&cp->open[i], m->track))
			continue;
		if (found < 0 || cp->open[i].c.cookie == m->value)
			found = i;
	}
	if (found < 0)
		return;
	cp->open[found].closing = true;
	cp->open[found].until_ns = ts_ns;
	cp->open[found].c.ended = true;
	cp->open[found].c.end_ns = ts_ns;
}

void cujs__frame(struct cujs *cs, struct cujs_proc *cp, const struct frame *f, struct emit *out)
{
	for (int i = 0; i < cp->n;) {
		struct cuj_st *s = &cp->open[i];

		if (s->closing && f->start_ns >= s->until_ns) {
			send(cs, cp, i, out); /* the last entry moved to i */
			continue;
		}
		if (f->start_ns >= s->from_ns) {
			s->c.frames++;
			s->c.janky_frames += f->janky;
			s->c.frames_dropped += f->dropped_before;
			for (int k = 0; k < f->n_anims; k++)
				add_anim(s, f->anim_ids[k]);
		}
		i++;
	}
}

void cujs__anim_started(struct cujs_proc *cp, uint64_t id)
{
	for (int i = 0; i < cp->n; i++)
		if (!cp->open[i].closing)
			add_anim(&cp->open[i], id);
}

void cujs__animation(struct cujs_proc *cp, const struct animation *a)
{
	uint64_t end_ns = a->start_ns + a->duration_ns;

	for (int i = 0; i < cp->n; i++) {
		struct cuj_st *s = &cp->open[i];
		bool seen = false;

		if (end_ns < s->from_ns || (s->closing && a->start_ns >= s->until_ns))
			continue;
		for (uint32_t k = 0; k < s->n_animation_ids && !seen; k++)
			seen = s->animation_ids[k] == a->id;
		if (seen)
			continue;
		if (s->n_animation_ids < CUJ_ANIMATIONS_MAX)
			s->animation_ids[s->n_animation_ids++] = a->id;
		s->c.animations++;
	}
}

void cujs__flush(struct cujs *cs, struct cujs_proc *cp, struct emit *out)
{
	/* in begin order: the open list keeps it until a send moves the last entry */
	while (cp->n) {
		int first = 0;

		for (int i = 1; i < cp->n; i++)
			if (cp->open[i].c.begin_ns < cp->open[first].c.begin_ns)
				first = i;
		send(cs, cp, first, out);
	}
}

void cujs__proc_free(struct cujs_proc *cp)
{
	free(cp->open);
	cp->open = NULL;
	cp->n = 0;
}

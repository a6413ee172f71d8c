// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* CUJs: InteractionJankMonitor's J<CUJ> tracks and what ran inside them. See cujs.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/anims.h"
#include "engine/cujs.h"
#include "engine/state.h"

/* What a CUJ marker is to its CUJ (see cujs.h for who writes which). */
enum cuj_role { CUJ_NONE, CUJ_BEGIN, CUJ_END, CUJ_EVENT };

/* A whole session name: "J<" ... ">", at least one character between. */
static bool is_session(struct strv s)
{
	return cujs__maybe(s) && s.len >= 4 && s.p[s.len - 1] == '>';
}

static bool strv_same(struct strv a, struct strv b)
{
	return a.len == b.len && (a.len == 0 || !memcmp(a.p, b.p, a.len));
}

/* Android 13's markEvent slice "J<X>#FT#<event>": the session and the event after "FT#". */
static bool split_slice_event(struct strv name, struct strv *session, struct strv *event)
{
	static const char sep[] = ">#FT#";
	const char *at = memmem(name.p, name.len, sep, sizeof(sep) - 1);

	if (!at)
		return false;
	*session = (struct strv){ name.p, (size_t)(at - name.p) + 1 };
	*event = (struct strv){ at + sizeof(sep) - 1,
				name.len - (size_t)(at - name.p) - (sizeof(sep) - 1) };
	return is_session(*session);
}

/* The role of m, its session and (CUJ_EVENT) the event after "FT#". */
static enum cuj_role classify(const struct marker *m, struct strv *session, struct strv *event)
{
	switch (m->type) {
	case MARKER_ASYNC_BEGIN: /* 12, 13: S|pid|J<X>|cookie */
	case MARKER_ASYNC_END:
		*session = m->name;
		if (!is_session(m->name))
			return CUJ_NONE;
		return m->type == MARKER_ASYNC_BEGIN ? CUJ_BEGIN : CUJ_END;
	case MARKER_TRACK_BEGIN: /* 14+: G|pid|J<X>|J<X>|cookie, the slice named as its track */
		*session = m->track;
		return is_session(m->track) && strv_same(m->name, m->track) ? CUJ_BEGIN : CUJ_NONE;
	case MARKER_TRACK_END:
		*session = m->track;
		return is_session(m->track) ? CUJ_END : CUJ_NONE;
	case MARKER_INSTANT_TRACK: /* 14+: N|pid|J<X>|FT#<event> */
		*session = m->track;
		if (!is_session(m->track) || !strv_starts_with(m->name, "FT#"))
			return CUJ_NONE;
		*event = (struct strv){ m->name.p + 3, m->name.len - 3 };
		return CUJ_EVENT;
	case MARKER_BEGIN: /* 13: B|pid|J<X>#FT#<event> */
		return split_slice_event(m->name, session, event) ? CUJ_EVENT : CUJ_NONE;
	default:
		return CUJ_NONE;
	}
}

bool cujs__is_cuj(const struct marker *m)
{
	struct strv session, event;

	return classify(m, &session, &event) != CUJ_NONE;
}

/* A session cut to fit is matched by what was kept of it. */
static bool track_is(const struct cuj_st *s, struct strv track)
{
	return s->cut ? strv_starts_with(track, s->track) : strv_eq(track, s->track);
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
		  struct strv session, int64_t cookie, uint64_t ts_ns, uint64_t frame_ns,
		  const struct anim_run *running)
{
	size_t len = utf8_prefix(session.p, session.len, sizeof(cp->open->track) - 1);
	struct cuj_st *s;

	for (int i = 0; i < cp->n; i++)
		if (!cp->open[i].closing && track_is(&cp->open[i], session)) {
			cp->open[i].closing = true; /* begun again: over, not ended */
			cp->open[i].until_ns = ts_ns;
		}
	if (!cp->open && !(cp->open = calloc(CUJ_OPEN_MAX, sizeof(*cp->open))))
		return;
	if (cp->n == CUJ_OPEN_MAX)
		return;
	s = &cp->open[cp->n++];
	memset(s, 0, sizeof(*s));
	memcpy(s->track, session.p, len);
	s->track[len] = '\0';
	s->cut = len < session.len;
	/* the name between "J<" and ">" (a session cut to fit has lost its ">" already) */
	len = s->cut ? len - 2 : len - 3;
	snprintf(s->c.name, sizeof(s->c.name), "%.*s", (int)len, s->track + 2);
	snprintf(s->c.process, sizeof(s->c.process), "%s", process ? process : "");
	s->c.pid = pid;
	s->c.tid = tid;
	s->cookie = cookie;
	s->c.begin_vsync = cookie;
	s->c.begin_ns = ts_ns;
	s->from_ns = frame_ns && frame_ns < ts_ns ? frame_ns : ts_ns;
	for (const struct anim_run *r = running; r; r = r->next)
		add_anim(s, r->a.id);
}

/*
 * The CUJ of session an end or event belongs to: the open one (of two, the one whose begin had
 * this cookie when by_cookie), else the newest closing one not yet out (FrameTracker may write
 * an FT# event just after its end); -1 when there is none.
 */
static int find(const struct cujs_proc *cp, struct strv session, bool by_cookie, int64_t cookie,
		bool closing_too)
{
	int found = -1;

	for (int i = 0; i < cp->n; i++) {
		const struct cuj_st *s = &cp->open[i];

		if (s->closing || !track_is(s, session))
			continue;
		if (found < 0 || (by_cookie && s->cookie == cookie) ||
		    (!by_cookie && s->c.begin_ns >= cp->open[found].c.begin_ns))
			found = i;
	}
	for (int i = 0; found < 0 && closing_too && i < cp->n; i++)
		if (cp->open[i].closing && track_is(&cp->open[i], session) && cp->open[i].c.ended &&
		    (found < 0 || cp->open[i].c.begin_ns >= cp->open[found].c.begin_ns))
			found = i;
	return found;
}

/* A decimal (optionally negative) that fills s: *v; else false. */
static bool parse_value(struct strv s, int64_t *v)
{
	size_t i = s.len && s.p[0] == '-';
	int64_t x = 0;

	if (i == s.len || s.len - i > 18)
		return false;
	for (; i < s.len; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return false;
		x = x * 10 + (s.p[i] - '0');
	}
	*v = s.p[0] == '-' ? -x : x;
	return true;
}

/* FrameTracker's markEvent "<event>#<value>" (13: "<event>" or "<event>#<value>") on s. */
static void event(struct cuj_st *s, struct strv ev)
{
	const char *bar = memchr(ev.p, '#', ev.len);
	struct strv kind = { ev.p, bar ? (size_t)(bar - ev.p) : ev.len };
	int64_t v = 0;
	bool has = bar && parse_value((struct strv){ bar + 1, ev.len - kind.len - 1 }, &v);

	if (!has) /* FT#begin, FT#deferMonitoring: nothing the record says */
		return;
	if (strv_eq(kind, "beginVsync")) {
		s->c.begin_vsync = v;
	} else if (strv_eq(kind, "end") || strv_eq(kind, "cancel")) {
		s->c.cancelled = kind.len == 6;
		s->c.has_reason = true;
		s->c.reason = v >= INT32_MIN && v <= INT32_MAX ? (int32_t)v : -1;
	}
}

void cujs__marker(struct cujs *cs, struct cujs_proc *cp, uint32_t pid, uint32_t tid,
		  const char *process, const struct marker *m, uint64_t ts_ns, uint64_t frame_ns,
		  const struct anim_run *running, struct emit *out)
{
	struct strv session, ev = { "", 0 };
	enum cuj_role role = classify(m, &session, &ev);
	int found;

	if (role == CUJ_BEGIN) {
		begin(cp, pid, tid, process, session, m->value, ts_ns, frame_ns, running);
		return;
	}
	found = role == CUJ_END	  ? find(cp, session, true, m->value, false) :
		role == CUJ_EVENT ? find(cp, session, false, 0, true) :
				    -1;
	if (found < 0)
		return;
	if (role == CUJ_EVENT) {
		event(&cp->open[found], ev);
		return;
	}
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

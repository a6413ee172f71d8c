// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "engine.h"
#include "marker.h"
#include "procfilter.h"
#include "proctab.h"
#include "replay.h"

struct replay {
	struct capture *cap;
	const struct procfilter *filter;
	struct engine *e;
	struct proctab *names;    /* tid -> thread name, learnt from task columns and sched lines */
	struct proctab *selected; /* tgid -> 1 when the filter wants it (name filters only) */
	struct replay_stats *st;
};

static bool known_name(struct strv s)
{
	return s.len && !strv_eq(s, "<...>");
}

/* Thread names as the capture shows them: the task column, and sched_* fields. */
static void learn_names(struct replay *r, const struct capture_line *l)
{
	if (l->tid > 0 && known_name(l->comm) && !proctab__name(r->names, l->tid))
		proctab__set_name(r->names, l->tid, l->comm.p, l->comm.len);
	for (int i = 0; i < l->n_extra && i < 2; i++)
		if (l->extra_tid[i] > 0 && known_name(l->extra_comm[i]))
			proctab__set_name(r->names, l->extra_tid[i], l->extra_comm[i].p,
					  l->extra_comm[i].len);
	if (l->tid > 0 && l->tgid > 0)
		proctab__set_tgid(r->names, l->tid, l->tgid);
}

/* The process a marker line belongs to: payload tgid, TGID column, or an earlier marker. */
static uint32_t resolve_tgid(struct replay *r, const struct capture_line *l, const struct marker *m)
{
	uint32_t tgid = 0;

	if (m->tgid > 0)
		tgid = m->tgid;
	else if (l->tgid > 0)
		tgid = l->tgid;
	else if (l->tid > 0)
		tgid = proctab__tgid(r->names, l->tid);
	if (tgid && l->tid > 0 && !proctab__tgid(r->names, l->tid))
		proctab__set_tgid(r->names, l->tid, tgid);
	return tgid;
}

static bool wanted(struct replay *r, uint32_t tgid)
{
	if (!r->filter || procfilter__empty(r->filter))
		return true;
	if (procfilter__wants_pid(r->filter, (int)tgid))
		return true;
	return procfilter__has_names(r->filter) && proctab__name(r->selected, tgid);
}

static void feed_marker(struct replay *r, const struct capture_line *l)
{
	struct marker m;
	uint32_t tgid;

	if (marker_parse(l->payload.p, l->payload.len, &m)) {
		/* Not a marker at all (e.g. trace_event_clock_sync): count only for chosen ones. */
		if (l->tgid > 0 && wanted(r, l->tgid)) {
			r->st->rejected++;
			engine__rejected(r->e);
		}
		return;
	}
	tgid = resolve_tgid(r, l, &m);
	if (!tgid || !wanted(r, tgid))
		return;
	r->st->markers++;
	r->st->last_ns = l->ts_ns;
	engine__marker(r->e, l->ts_ns, tgid, l->tid > 0 ? (uint32_t)l->tid : tgid,
		       proctab__name(r->names, tgid), &m);
}

/* Runs fn over every event of the capture (text lines or Perfetto print events). */
static void each_line(struct replay *r, void (*fn)(struct replay *, const struct capture_line *,
						 int kind))
{
	struct capture_line l;
	int kind;

	capture__rewind(r->cap);
	while ((kind = capture__next_event(r->cap, &l)) != CAPTURE_END)
		fn(r, &l, kind);
}

static void pass_names(struct replay *r, const struct capture_line *l, int kind)
{
	struct marker m;

	if (kind < 0 || kind == CAPTURE_SKIP)
		return;
	learn_names(r, l);
	if (kind == CAPTURE_MARKER && !marker_parse(l->payload.p, l->payload.len, &m))
		resolve_tgid(r, l, &m);
}

static void pass_events(struct replay *r, const struct capture_line *l, int kind)
{
	r->st->lines++;
	if (kind < 0) {
		r->st->malformed++;
		return;
	}
	if (kind == CAPTURE_SKIP)
		return;
	if (!r->selected)
		learn_names(r, l);
	if (kind == CAPTURE_MARKER)
		feed_marker(r, l);
}

struct select_ctx {
	struct replay *r;
	char *others; /* "name (pid), ..." of the processes that did not match */
	size_t cap, used;
	uint32_t named, matched;
};

static void select_one(void *ctx, uint32_t tid, const char *name)
{
	struct select_ctx *s = ctx;

	if (proctab__tgid(s->r->names, tid) != tid) /* only a main thread names a process */
		return;
	s->named++;
	if (procfilter__match_comm(s->r->filter, name)) {
		proctab__set_name(s->r->selected, tid, name, strlen(name));
		s->matched++;
	} else if (s->used + 80 < s->cap) {
		s->used += snprintf(s->others + s->used, s->cap - s->used, "%s%s (%u)",
				    s->used ? ", " : "", name, tid);
	}
}

/* Name filters: learn every thread name first, then choose the processes. */
static int select_by_name(struct replay *r, char *msg, size_t msglen)
{
	char others[512] = "";
	struct select_ctx s = { .r = r, .others = others, .cap = sizeof(others) };

	each_line(r, pass_names);
	proctab__for_each(r->names, select_one, &s);
	r->st->named = s.named;
	if (s.matched || procfilter__has_pids(r->filter))
		return 0;
	if (!s.named)
		snprintf(msg, msglen, "the capture names no process (task names are <...>): "
			 "select one with --pid");
	else
		snprintf(msg, msglen, "no process in the capture matches --proc; "
			 "processes it names: %s%s", others, s.used + 80 >= s.cap ? ", ..." : "");
	return -ESRCH;
}

int replay_run(const char *path, const struct procfilter *filter, struct engine *e,
	       struct replay_stats *st, char *msg, size_t msglen)
{
	struct replay r = { .filter = filter, .e = e, .st = st };
	int ret = 0;

	memset(st, 0, sizeof(*st));
	r.cap = capture__open(path);
	if (!r.cap) {
		ret = -errno;
		snprintf(msg, msglen, "%s: %s", path,
			 ret == -EINVAL ? "not an ftrace text, systrace .html or Perfetto trace" :
					  strerror(-ret));
		return ret;
	}
	r.names = proctab__new();
	if (filter && procfilter__has_names(filter))
		r.selected = proctab__new();
	if (!r.names || (filter && procfilter__has_names(filter) && !r.selected)) {
		ret = -ENOMEM;
		snprintf(msg, msglen, "out of memory");
		goto out;
	}
	if (r.selected && (ret = select_by_name(&r, msg, msglen)))
		goto out;
	each_line(&r, pass_events);
	st->bytes = capture__size(r.cap);
out:
	proctab__free(r.selected);
	proctab__free(r.names);
	capture__free(r.cap);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/capture.h"
#include "engine/engine.h"
#include "common/marker.h"
#include "common/procfilter.h"
#include "common/proctab.h"
#include "replay/replay.h"
#include "replay/tsguard.h"

struct replay {
	struct capture *cap;
	const struct procfilter *filter;
	struct engine *e;
	struct proctab *names;    /* tid -> thread name, learnt from task columns and sched lines */
	struct proctab *selected; /* tgid -> 1 when the filter wants it (name filters only) */
	struct proctab *seen;     /* tgids that wrote markers (the --pid check) */
	struct replay_stats *st;
	struct replay_stats open_st; /* what replay__open learnt, copied into the run's */
	struct ts_guard guard;       /* which marker timestamps are time */
	bool protobuf;
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

/*
 * Runs fn over every event of the capture (text lines or Perfetto print events), until
 * the engine's sink fails (nothing more can be written: reading on would be wasted).
 */
static void each_line(struct replay *r, void (*fn)(struct replay *, const struct capture_line *,
						 int kind))
{
	struct capture_line l;
	int kind;

	capture__rewind(r->cap);
	while ((kind = capture__next_event(r->cap, &l)) != CAPTURE_END &&
	       !(r->e && engine__sink_error(r->e)))
		fn(r, &l, kind);
}

static void pass_names(struct replay *r, const struct capture_line *l, int kind)
{
	struct marker m;

	if (kind < 0 || kind == CAPTURE_SKIP)
		return;
	learn_names(r, l);
	if (kind == CAPTURE_MARKER && !marker_parse(l->payload.p, l->payload.len, &m)) {
		uint32_t tgid = resolve_tgid(r, l, &m);

		/* proctab__for_each visits named entries only: the name is a placeholder. */
		if (tgid && !proctab__name(r->seen, tgid))
			proctab__set_name(r->seen, tgid, "+", 1);
	}
}

static void pass_events(struct replay *r, const struct capture_line *l, int kind)
{
	struct input_stats *in = &r->st->input;

	in->lines += !r->protobuf;
	if (kind < 0) {
		in->damaged++;
		return;
	}
	if (kind == CAPTURE_SKIP)
		return;
	if (kind == CAPTURE_MARKER && !ts_guard_accept(&r->guard, l->ts_ns)) {
		in->time_jumps++;
		return;
	}
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

static void list_add(struct select_ctx *s, const char *name, uint32_t pid)
{
	if (s->used + 80 >= s->cap)
		return;
	if (name && *name)
		s->used += snprintf(s->others + s->used, s->cap - s->used, "%s%s (%u)",
				    s->used ? ", " : "", name, pid);
	else
		s->used += snprintf(s->others + s->used, s->cap - s->used, "%s%u",
				    s->used ? ", " : "", pid);
}

static void select_one(void *ctx, uint32_t tid, const char *name)
{
	struct select_ctx *s = ctx;

	if (proctab__tgid(s->r->names, tid) != tid) /* only a main thread names a process */
		return;
	s->named++;
	if (procfilter__match_comm(s->r->filter, name)) {
		proctab__set_name(s->r->selected, tid, name, strlen(name));
		s->matched++;
	} else {
		list_add(s, name, tid);
	}
}

/* --pid: a process that wrote markers and is wanted; else list those that did. */
static void check_pid(void *ctx, uint32_t tgid, const char *unused)
{
	struct select_ctx *s = ctx;

	if (procfilter__wants_pid(s->r->filter, (int)tgid))
		s->matched++;
	else
		list_add(s, proctab__name(s->r->names, tgid), tgid);
}

static const char *more(const struct select_ctx *s)
{
	return s->used + 80 >= s->cap ? ", ..." : "";
}

/* Learns every thread name first, then checks that the filter selects some process. */
static int select_procs(struct replay *r, char *msg, size_t msglen)
{
	char others[512] = "", pids[512] = "";
	struct select_ctx s = { .r = r, .others = others, .cap = sizeof(others) };
	struct select_ctx p = { .r = r, .others = pids, .cap = sizeof(pids) };

	each_line(r, pass_names);
	if (r->selected)
		proctab__for_each(r->names, select_one, &s);
	if (procfilter__has_pids(r->filter))
		proctab__for_each(r->seen, check_pid, &p);
	r->open_st.named = s.named;
	if (s.matched || p.matched)
		return 0;
	if (procfilter__has_pids(r->filter))
		snprintf(msg, msglen, "no process in the capture matches --pid; processes that "
			 "wrote markers: %s%s", p.used ? pids : "none", more(&p));
	else if (!s.named)
		snprintf(msg, msglen, "the capture names no process (task names are <...>): "
			 "select one with --pid");
	else
		snprintf(msg, msglen, "no process in the capture matches --proc; "
			 "processes it names: %s%s", others, more(&s));
	return -ESRCH;
}

/* Events read at most to find the anchor: a capture's timestamps show within its first lines. */
#define ANCHOR_EVENTS_MAX (1u << 17)

/* The median of the capture's first timestamps: what its first marker is checked against. */
static void find_anchor(struct replay *r)
{
	uint64_t ts[TS_GUARD_ANCHOR_SAMPLES];
	struct capture_line l;
	size_t n = 0, seen = 0;
	int kind;

	capture__rewind(r->cap);
	while (n < TS_GUARD_ANCHOR_SAMPLES && seen++ < ANCHOR_EVENTS_MAX &&
	       (kind = capture__next_event(r->cap, &l)) != CAPTURE_END) {
		/* Perfetto's CAPTURE_SCHED events are thread names, without time. */
		bool timed = kind == CAPTURE_MARKER || (kind == CAPTURE_SCHED && !r->protobuf);

		if (timed && l.ts_ns <= INPUT_TS_MAX)
			ts[n++] = l.ts_ns;
	}
	ts_guard_init(&r->guard, n > 0, n ? ts_guard_median(ts, n) : 0);
}

/* The one line for a capture that cannot be opened. */
static void open_error(char *msg, size_t msglen, const char *path, int err,
		       const struct capture_probe *why)
{
	const char *name = strcmp(path, "-") ? path : "standard input";

	if (err == -EINVAL)
		snprintf(msg, msglen, "%s: not a capture (no ftrace lines, systrace html or "
			 "Perfetto trace found in the first %llu bytes)", name,
			 (unsigned long long)why->probed);
	else if (err == -ENODATA)
		snprintf(msg, msglen, "%s: not a capture (the file is empty)", name);
	else if (err == -EPROTONOSUPPORT)
		snprintf(msg, msglen, "%s: not a capture (compressed with gzip: gunzip it first)",
			 name);
	else
		snprintf(msg, msglen, "%s: %s", name, strerror(-err));
}

struct replay *replay__open(const char *path, const struct procfilter *filter, char *msg,
			    size_t msglen)
{
	struct replay *r = calloc(1, sizeof(*r));
	bool names = filter && procfilter__has_names(filter);
	bool select = filter && !procfilter__empty(filter);
	struct capture_probe why;
	int err = -ENOMEM;

	if (!r)
		goto fail;
	r->filter = filter;
	r->st = &r->open_st;
	r->cap = capture__open_probe(path, &why);
	if (!r->cap) {
		err = -errno;
		open_error(msg, msglen, path, err, &why);
		goto fail_quiet;
	}
	r->names = proctab__new();
	r->seen = proctab__new();
	r->selected = names ? proctab__new() : NULL;
	if (!r->names || !r->seen || (names && !r->selected))
		goto fail;
	if (select && (err = select_procs(r, msg, msglen)))
		goto fail_quiet;
	r->protobuf = capture__is_protobuf(r->cap);
	find_anchor(r);
	return r;
fail:
	snprintf(msg, msglen, "out of memory");
fail_quiet:
	replay__free(r);
	errno = -err;
	return NULL;
}

/* What the capture layer counted, added to what the passes counted. */
static void add_damage(const struct capture *c, struct input_stats *in)
{
	struct capture_damage d;

	capture__damage(c, &d);
	in->protobuf = capture__is_protobuf(c);
	in->bytes = capture__size(c);
	in->packets = d.packets;
	in->damaged += d.skipped_packets + d.bad_messages;
	in->bad_blocks = d.bad_blocks;
	in->skipped = d.skipped_bytes;
	in->truncated = d.truncated_at != 0;
	in->truncated_at = d.truncated_at;
	in->dropped = d.dropped;
}

int replay__run(struct replay *r, struct engine *e, struct replay_stats *st)
{
	*st = r->open_st;
	r->st = st;
	r->e = e;
	ts_guard_init(&r->guard, r->guard.has_anchor, r->guard.anchor);
	each_line(r, pass_events);
	add_damage(r->cap, &st->input);
	return 0;
}

void replay__input_id(const struct replay *r, struct file_id *out)
{
	capture__input_id(r->cap, out);
}

void replay__free(struct replay *r)
{
	if (!r)
		return;
	proctab__free(r->selected);
	proctab__free(r->seen);
	proctab__free(r->names);
	capture__free(r->cap);
	free(r);
}

int replay_run(const char *path, const struct procfilter *filter, struct engine *e,
	       struct replay_stats *st, char *msg, size_t msglen)
{
	struct replay *r;
	int ret;

	memset(st, 0, sizeof(*st));
	r = replay__open(path, filter, msg, msglen);
	if (!r)
		return -errno;
	ret = replay__run(r, e, st);
	replay__free(r);
	return ret;
}

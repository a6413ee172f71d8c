// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/capture.h"
#include "engine/engine.h"
#include "common/marker.h"
#include "common/procsel.h"
#include "replay/replay.h"
#include "replay/tsguard.h"

/*
 * The engine calls of the events check_pids read before the replay had an engine, made first
 * when it has one: the run goes on from where the check stopped instead of reading again.
 */
enum owed_kind { OWED_TIMELINE, OWED_VSYNC, OWED_REJECTED };

struct owed {
	uint64_t ts_ns;
	enum owed_kind kind;
	uint32_t tgid; /* OWED_VSYNC: its writer */
};

/* Calls owed at most (mostly SurfaceFlinger's VSYNC-app counters, 60-120 a second, before the
 * process's first marker); past them the run reads the capture again from its start. */
#define OWED_MAX 4096

/*
 * What a selection was last told of each thread (by tid, one slot each), so that a line that
 * shows it again, as most do, is not told again: procsel__thread with the arguments of its last
 * call for that thread, and no name forgotten since, changes nothing (proctab__learn: the name
 * kept or the same written, the tgid the same, the entry marked as that call marked it; other
 * calls in between set only a name or an unknown tgid). Only an eviction undoes it.
 */
#define TOLD_SLOTS 256
#define TOLD_NAME_MAX 16

struct told_slot {
	uint64_t evicted; /* the selection's names forgotten when told */
	int32_t tid;	  /* 0: empty */
	uint32_t tgid;
	uint64_t len;
	uint64_t head, tail; /* the name's bytes (name_words) */
};

struct told {
	uint64_t evicted; /* the selection's names forgotten, read after each procsel__thread */
	struct told_slot task[TOLD_SLOTS];  /* the task column: a name kept, with its tgid */
	struct told_slot named[TOLD_SLOTS]; /* sched_* fields: the name replaced */
};

struct replay {
	struct capture *cap;
	const struct procfilter *filter;
	struct procsel *sel; /* what is selected; thread names from task columns and sched lines */
	struct engine *e;    /* NULL while check_pids reads ahead of the run */
	struct replay_stats *st;
	struct replay_stats open_st;  /* what replay__open learnt, copied into the run's */
	struct replay_stats fresh_st; /* open_st before check_pids read ahead (a restart's) */
	struct ts_guard guard;	      /* which marker timestamps are time */
	bool protobuf;
	size_t n_frames;	  /* FrameTimeline frames in the capture */
	size_t next_ft;		  /* the next FrameTimeline frame for the engine */
	bool ahead;		  /* check_pids read ahead of the run */
	bool resume;		  /* the run goes on from held, after paying owed */
	struct capture_line held; /* where check_pids stopped, not yet replayed: its strings
				      * stay valid as no capture call comes before the run */
	int held_kind;
	struct owed *owed;
	size_t n_owed;
	struct told told; /* what sel was told */
};

/* An engine call, made now or (reading ahead, no engine yet) owed until the run. */
static void owe(struct replay *r, enum owed_kind kind, uint64_t ts_ns, uint32_t tgid)
{
	struct owed *tmp;

	if (!r->resume)
		return;
	/* frames up to one time, then up to a later one: the frames up to the later */
	if (kind == OWED_TIMELINE && r->n_owed && r->owed[r->n_owed - 1].kind == OWED_TIMELINE) {
		if (r->owed[r->n_owed - 1].ts_ns < ts_ns)
			r->owed[r->n_owed - 1].ts_ns = ts_ns;
		return;
	}
	if (r->n_owed % 256 == 0) {
		tmp = r->n_owed < OWED_MAX ? realloc(r->owed, (r->n_owed + 256) * sizeof(*tmp)) :
					     NULL;
		if (!tmp) {
			r->resume = false; /* too many, or no memory: the run starts over */
			return;
		}
		r->owed = tmp;
	}
	r->owed[r->n_owed++] = (struct owed){ ts_ns, kind, tgid };
}

static inline __attribute__((always_inline)) bool known_name(struct strv s)
{
	return s.len && !strv_eq(s, "<...>");
}

/*
 * A name of up to 16 bytes in two words read within it (overlapping when shorter): two names
 * of one length are the same when their words are.
 */
static inline __attribute__((always_inline)) void name_words(const char *p, size_t len,
							     uint64_t *head, uint64_t *tail)
{
	uint32_t h4 = 0, t4 = 0;

	*head = *tail = 0;
	if (len >= 8) {
		memcpy(head, p, 8);
		memcpy(tail, p + len - 8, 8);
	} else if (len >= 4) {
		memcpy(&h4, p, 4);
		memcpy(&t4, p + len - 4, 4);
		*head = h4;
		*tail = t4;
	} else if (len) {
		*head = (uint8_t)p[0] | (uint64_t)(uint8_t)p[len / 2] << 8 |
			(uint64_t)(uint8_t)p[len - 1] << 16;
	}
}

/* procsel__thread, unless sel was told the same last time (see struct told); *evicted: sel's
 * names forgotten so far, kept up to date. */
static inline __attribute__((always_inline)) void tell(struct procsel *sel, struct told_slot *t,
						       uint64_t *evicted, int32_t tid,
						       uint32_t tgid, const char *name, size_t len,
						       bool replace)
{
	struct told_slot *s = &t[(uint32_t)tid % TOLD_SLOTS];
	uint64_t head, tail;

	if (s->tid == tid && s->len == len && s->tgid == tgid && s->evicted == *evicted &&
	    len <= TOLD_NAME_MAX) {
		name_words(name, len, &head, &tail);
		if (s->head == head && s->tail == tail)
			return;
	}
	procsel__thread(sel, (uint32_t)tid, tgid, name, len, replace);
	name_words(name, len, &head, &tail);
	*evicted = procsel__names_evicted(sel);
	*s = (struct told_slot){ .evicted = *evicted,
				 .tid = len <= TOLD_NAME_MAX ? tid : 0,
				 .tgid = tgid,
				 .len = len,
				 .head = head,
				 .tail = tail };
}

/* Thread names as the capture shows them, into sel (told: what it was told before): the
 * task column, and sched_* fields. */
static inline __attribute__((always_inline)) void
learn_names(struct procsel *sel, struct told *told, const struct capture_line *l)
{
	if (l->tid > 0)
		tell(sel, told->task, &told->evicted, l->tid, l->tgid > 0 ? (uint32_t)l->tgid : 0,
		     l->comm.p, known_name(l->comm) ? l->comm.len : 0, false);
	for (int i = 0; i < l->n_extra && i < 2; i++)
		if (l->extra_tid[i] > 0 && known_name(l->extra_comm[i]))
			tell(sel, told->named, &told->evicted, l->extra_tid[i], 0,
			     l->extra_comm[i].p, l->extra_comm[i].len, true);
}

/* The process a marker line belongs to: payload tgid, TGID column, or an earlier marker. */
static uint32_t resolve_tgid(struct procsel *sel, struct told *told, const struct capture_line *l,
			     const struct marker *m)
{
	uint32_t tgid = 0;

	if (m->tgid > 0)
		tgid = m->tgid;
	else if (l->tgid > 0)
		tgid = l->tgid;
	else if (l->tid > 0)
		tgid = procsel__tgid(sel, l->tid);
	if (tgid && l->tid > 0 && !procsel__tgid(sel, l->tid)) {
		procsel__thread(sel, l->tid, tgid, NULL, 0, false);
		told->evicted = procsel__names_evicted(sel); /* the only other call that adds */
	}
	return tgid;
}

static void feed_marker(struct replay *r, const struct capture_line *l)
{
	struct marker m;
	uint32_t tgid;
	bool wants;

	if (marker_parse(l->payload.p, l->payload.len, &m)) {
		/* Not a marker at all (e.g. trace_event_clock_sync): count only for chosen ones. */
		if (l->tgid > 0 && procsel__wants(r->sel, l->tgid)) {
			r->st->rejected++;
			if (r->e)
				engine__rejected(r->e);
			else
				owe(r, OWED_REJECTED, 0, 0);
		}
		return;
	}
	tgid = resolve_tgid(r->sel, &r->told, l, &m);
	wants = tgid && procsel__wants(r->sel, tgid); /* asked once per marker */
	if (tgid && !wants && m.type == MARKER_COUNTER && strv_eq(m.name, "VSYNC-app")) {
		if (r->e) /* the display's vsyncs, when SurfaceFlinger wrote them */
			engine__display_vsync(r->e, l->ts_ns, tgid, procsel__name(r->sel, tgid));
		else
			owe(r, OWED_VSYNC, l->ts_ns, tgid);
		return;
	}
	if (!wants)
		return;
	if (!r->e) { /* read ahead, a marker check_pids did not stop at: start over */
		r->resume = false;
		return;
	}
	r->st->markers++;
	r->st->last_ns = l->ts_ns;
	engine__marker(r->e, l->ts_ns, tgid, l->tid > 0 ? (uint32_t)l->tid : tgid,
		       procsel__name(r->sel, tgid), &m);
}

/* each_line from where the capture is. */
static inline __attribute__((always_inline)) void
each_next_line(struct replay *r, void (*fn)(struct replay *, const struct capture_line *, int kind))
{
	struct capture_line l;
	int kind, last = CAPTURE_MARKER;

	/* the engine is only called for markers: only after one can its sink have failed */
	while ((kind = capture__next_event(r->cap, &l)) != CAPTURE_END &&
	       !(last == CAPTURE_MARKER && r->e && engine__sink_error(r->e))) {
		fn(r, &l, kind);
		last = kind;
	}
}

/*
 * Runs fn over every event of the capture (text lines or Perfetto print events), until
 * the engine's sink fails (nothing more can be written: reading on would be wasted).
 */
static void each_line(struct replay *r,
		      void (*fn)(struct replay *, const struct capture_line *, int kind))
{
	capture__rewind(r->cap);
	each_next_line(r, fn);
}

/* FrameTimeline frames (Perfetto captures) of chosen processes that start by ts_ns (all:
 * UINT64_MAX), in start order, before the markers at their time. */
static void feed_timeline(struct replay *r, uint64_t ts_ns)
{
	size_t n = capture__n_frames(r->cap);
	struct ft_frame f;

	if (!r->e) {
		if (r->next_ft < n)
			owe(r, OWED_TIMELINE, ts_ns, 0);
		return;
	}
	for (; r->next_ft < n; r->next_ft++) {
		if (capture__frame(r->cap, r->next_ft, &f))
			continue;
		if (f.start_ns > ts_ns)
			break;
		if (f.ev.pid > 0 && procsel__wants(r->sel, (uint32_t)f.ev.pid))
			engine__timeline(r->e, &f);
	}
}

static void pass_names(struct replay *r, const struct capture_line *l, int kind)
{
	struct marker m;

	if (kind < 0 || kind == CAPTURE_SKIP)
		return;
	learn_names(r->sel, &r->told, l);
	if (kind == CAPTURE_MARKER && !marker_parse(l->payload.p, l->payload.len, &m))
		procsel__wrote(r->sel, resolve_tgid(r->sel, &r->told, l, &m));
}

static inline __attribute__((always_inline)) void
pass_events(struct replay *r, const struct capture_line *l, int kind)
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
	/* ignored once --proc chose from the names (procsel__thread) */
	learn_names(r->sel, &r->told, l);
	if (kind == CAPTURE_MARKER) {
		if (r->next_ft < r->n_frames) /* a text capture has none */
			feed_timeline(r, l->ts_ns);
		feed_marker(r, l);
	}
}

/* The names pass's step over one event, into seen: true when a listed process wrote it. */
static bool wrote_listed(struct procsel *seen, struct told *told, const struct procfilter *filter,
			 const struct capture_line *l, int kind)
{
	struct marker m;
	uint32_t tgid;

	if (kind < 0 || kind == CAPTURE_SKIP)
		return false;
	learn_names(seen, told, l);
	if (kind != CAPTURE_MARKER || marker_parse(l->payload.p, l->payload.len, &m))
		return false;
	tgid = resolve_tgid(seen, told, l, &m);
	procsel__wrote(seen, tgid);
	return tgid && procfilter__wants_pid(filter, (int)tgid);
}

/*
 * --pid alone: is a listed process among those that wrote markers? Names are learnt into a
 * scratch selection as the names pass would (the same tgid for each marker), up to the first
 * marker of a listed process; all of the capture only when none wrote one, to say which did.
 * Meanwhile the replay itself reads those events, owing the engine its calls (owe), and the
 * run goes on from that marker: the capture is read once. Should the two disagree on a marker
 * (a thread's process known from a line with a damaged timestamp only), or too much be owed,
 * the run starts over from the capture's start.
 */
static int check_pids(struct replay *r, const struct procfilter *filter, char *msg, size_t msglen)
{
	struct procsel *seen = procsel__new(&(struct procsel_opts){ .filter = filter });
	struct told *told = calloc(1, sizeof(*told)); /* what seen was told */
	struct capture_line l;
	int kind, err = -ESRCH;

	if (!seen || !told) {
		procsel__free(seen);
		free(told);
		return -ENOMEM;
	}
	r->fresh_st = r->open_st;
	r->ahead = r->resume = true;
	capture__rewind(r->cap);
	while (err && (kind = capture__next_event(r->cap, &l)) != CAPTURE_END) {
		if (wrote_listed(seen, told, filter, &l, kind)) {
			r->held = l;
			r->held_kind = kind;
			err = 0;
		} else if (r->resume) {
			pass_events(r, &l, kind);
		}
	}
	if (err) {
		err = procsel__decide(seen, msg, msglen);
		r->resume = false;
	}
	procsel__free(seen);
	free(told);
	return err;
}

/* The run from where check_pids stopped: the calls owed, the marker it stopped at, the rest. */
static void resume_run(struct replay *r)
{
	for (size_t i = 0; i < r->n_owed && !engine__sink_error(r->e); i++) {
		if (r->owed[i].kind == OWED_TIMELINE)
			feed_timeline(r, r->owed[i].ts_ns);
		else if (r->owed[i].kind == OWED_VSYNC)
			engine__display_vsync(r->e, r->owed[i].ts_ns, r->owed[i].tgid,
					      procsel__name(r->sel, r->owed[i].tgid));
		else
			engine__rejected(r->e);
	}
	if (!engine__sink_error(r->e))
		pass_events(r, &r->held, r->held_kind);
	each_next_line(r, pass_events);
}

/* A run that cannot go on from check_pids: a fresh selection and counts, from the start. */
static int start_over(struct replay *r)
{
	struct procsel *sel;

	if (!r->ahead)
		return 0;
	sel = procsel__new(&(struct procsel_opts){ .filter = r->filter });
	if (!sel)
		return -ENOMEM;
	procsel__free(r->sel);
	r->sel = sel;
	memset(&r->told, 0, sizeof(r->told));
	r->open_st = r->fresh_st;
	r->n_owed = 0;
	r->ahead = false;
	return 0;
}

/*
 * Checks that the filter selects some process. --proc chooses a process by its main thread's
 * name as the whole capture shows it (a name can first show after the process's first markers,
 * as sensors@1.0-ser's in the MIUI capture), so every name is learnt first and the replay is a
 * second pass. --pid alone needs no name: check_pids reads up to a listed process's first
 * marker, and the one pass that feeds the engine learns the names as it goes, as a replay of
 * every process does.
 */
static int select_procs(struct replay *r, const struct procfilter *filter, char *msg, size_t msglen)
{
	int err;

	if (!procfilter__has_names(filter))
		return check_pids(r, filter, msg, msglen);
	each_line(r, pass_names);
	err = procsel__decide(r->sel, msg, msglen);
	r->open_st.named = procsel__named(r->sel);
	return err;
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
		snprintf(msg, msglen,
			 "%s: not a capture (no ftrace lines, systrace html or "
			 "Perfetto trace found in the first %llu bytes)",
			 name, (unsigned long long)why->probed);
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
	struct capture_probe why;
	int err = -ENOMEM;

	if (!r)
		goto fail;
	r->st = &r->open_st;
	r->cap = capture__open_probe(path, &why);
	if (!r->cap) {
		err = -errno;
		open_error(msg, msglen, path, err, &why);
		goto fail_quiet;
	}
	r->filter = filter;
	r->sel = procsel__new(&(struct procsel_opts){ .filter = filter });
	if (!r->sel)
		goto fail;
	r->protobuf = capture__is_protobuf(r->cap);
	r->n_frames = capture__n_frames(r->cap);
	find_anchor(r); /* first: check_pids replays what it reads, through the guard */
	if (!procsel__all(r->sel) && (err = select_procs(r, filter, msg, msglen)))
		goto fail_quiet;
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
	in->unread_events = d.unread_events;
	in->untrusted = d.untrusted;
}

int replay__run(struct replay *r, struct engine *e, struct replay_stats *st)
{
	struct evictions ev = { 0 };

	if (!r->resume && start_over(r)) {
		*st = r->open_st;
		return -ENOMEM;
	}
	*st = r->open_st;
	r->st = st;
	r->e = e;
	if (r->resume) {
		resume_run(r);
		r->resume = false; /* another run starts over */
	} else {
		ts_guard_init(&r->guard, r->guard.has_anchor, r->guard.anchor);
		r->next_ft = 0;
		each_line(r, pass_events);
	}
	if (!engine__sink_error(e))
		feed_timeline(r, UINT64_MAX);
	add_damage(r->cap, &st->input);
	procsel__evicted(r->sel, &ev.thread_names, &ev.pids);
	engine__evicted(e, &ev);
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
	procsel__free(r->sel);
	capture__free(r->cap);
	free(r->owed);
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

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Perfetto TrackEvent CUJs restated as FrameTracker's atrace markers (see pftrackevent.h):
 * a table of track descriptors (uuid -> process, name, open slices), the CUJ names a sequence
 * interned, and the clock each sequence's packets default to.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/coll.h"
#include "model/model.h"
#include "replay/pftrackevent.h"

#define TE_SEQS_MAX 1024   /* sequences whose default clock is kept */
#define TE_SPANS_MAX 4096  /* CUJ slices remembered for the FT# events on their tracks */
#define TE_LATER_MAX 16384 /* FT# events held until every CUJ slice is known */
#define TE_PARENTS_MAX 8   /* parent links followed to a track's process */
#define CLOCK_BOOTTIME 6   /* perfetto.protos.BuiltinClock: what print events are on */

enum { TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3 };

struct te_track {
	uint64_t uuid, parent;
	int32_t pid, tid;   /* from its ProcessDescriptor or ThreadDescriptor; 0: unknown */
	uint32_t depth;	    /* slices open on it */
	uint32_t cuj_depth; /* the depth its open CUJ slice began at; 0: none open */
	char *name;	    /* its name when that is a session ("J<X>"), else NULL */
	char *cuj;	    /* the session its open CUJ slice is named, else NULL */
};

struct te_name {
	uint32_t seq;
	uint64_t iid;
	char name[AT_NAME_MAX];
};

struct te_seq {
	uint32_t seq, clock;
};

/* A CUJ slice that began on a track, for the FT# events on it (which a writer may put before
 * it in the file: Perfetto sorts by time, and so does this reader, in pfte__finish). */
struct te_span {
	uint64_t uuid, begin_ns;
	char *session;
};

/* An FT# event, said once every CUJ slice is known. */
struct te_later {
	uint64_t uuid, ts;
	char *name;
};

struct pfte {
	pfte_emit_fn emit;
	void *ctx;
	struct htab tracks; /* struct te_track by uuid */
	struct te_name names[TE_NAMES_MAX];
	size_t n_names;
	struct te_seq seqs[TE_SEQS_MAX];
	size_t n_seqs;
	struct te_span *spans;
	size_t n_spans, cap_spans;
	struct te_later *later;
	size_t n_later, cap_later;
	uint64_t unread;
};

struct pfte *pfte__new(pfte_emit_fn emit, void *ctx)
{
	struct pfte *t = calloc(1, sizeof(*t));

	if (t) {
		t->emit = emit;
		t->ctx = ctx;
	}
	return t;
}

void pfte__free(struct pfte *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->tracks.cap; i++) {
		struct te_track *tr = t->tracks.s[i].v;

		if (tr) {
			free(tr->name);
			free(tr->cuj);
		}
	}
	htab_free_values(&t->tracks);
	for (size_t i = 0; i < t->n_spans; i++)
		free(t->spans[i].session);
	for (size_t i = 0; i < t->n_later; i++)
		free(t->later[i].name);
	free(t->spans);
	free(t->later);
	free(t);
}

uint64_t pfte__unread(const struct pfte *t)
{
	return t ? t->unread : 0;
}

/* ---- names ------------------------------------------------------------------------------ */

/* A name fit to be restated inside a marker: no field separator, no line break, it fits. */
static bool fit(struct strv s)
{
	return s.len < AT_NAME_MAX && !memchr(s.p, '|', s.len) && !memchr(s.p, '\n', s.len) &&
	       !memchr(s.p, '\r', s.len) && !memchr(s.p, '\0', s.len);
}

/* A FrameTracker session name, "J<NAME>" (engine/cujs.h says who writes it). */
static bool is_session(struct strv s)
{
	return s.len >= 4 && s.p[0] == 'J' && s.p[1] == '<' && s.p[s.len - 1] == '>';
}

static bool is_event(struct strv s)
{
	return strv_starts_with(s, "FT#");
}

/* *dst = a copy of s (replacing what it held); false when out of memory. */
static bool set_str(char **dst, struct strv s)
{
	char *p = malloc(s.len + 1);

	if (!p)
		return false;
	memcpy(p, s.p, s.len);
	p[s.len] = '\0';
	free(*dst);
	*dst = p;
	return true;
}

/* InternedData.event_names {iid = 1, name = 2}: kept when they may be a CUJ's. */
static void read_interned(struct pfte *t, struct pb b, uint32_t seq)
{
	struct pb_field f, g;
	int rc;

	while ((rc = pb_next(&b, &f)) == 1) {
		struct pb e = pb_sub(&f);
		struct strv name = { "", 0 };
		uint64_t iid = 0;

		if (f.id != 2 || f.wt != WT_LEN)
			continue;
		while (pb_next(&e, &g) == 1) {
			if (g.id == 1 && g.wt == WT_VARINT)
				iid = g.v;
			else if (g.id == 2 && g.wt == WT_LEN)
				name = pb_str(&g);
		}
		if (!(strv_starts_with(name, "J<") || is_event(name)))
			continue;
		if (!fit(name) || t->n_names == TE_NAMES_MAX) {
			t->unread++;
			continue;
		}
		t->names[t->n_names].seq = seq;
		t->names[t->n_names].iid = iid;
		memcpy(t->names[t->n_names].name, name.p, name.len);
		t->names[t->n_names++].name[name.len] = '\0';
	}
	if (rc < 0)
		t->unread++;
}

/* The sequence's incremental state is gone: so are its interned names. */
static void clear_seq(struct pfte *t, uint32_t seq)
{
	size_t k = 0;

	for (size_t i = 0; i < t->n_names; i++)
		if (t->names[i].seq != seq)
			t->names[k++] = t->names[i];
	t->n_names = k;
}

static struct strv interned(const struct pfte *t, uint32_t seq, uint64_t iid)
{
	for (size_t i = t->n_names; i-- > 0;)
		if (t->names[i].seq == seq && t->names[i].iid == iid)
			return (struct strv){ t->names[i].name, strlen(t->names[i].name) };
	return (struct strv){ "", 0 };
}

/* ---- clocks ----------------------------------------------------------------------------- */

/* TracePacketDefaults {timestamp_clock_id = 58}: the clock of the sequence's packets. */
static void read_defaults(struct pfte *t, struct pb b, uint32_t seq)
{
	struct pb_field f;
	size_t i;

	while (pb_next(&b, &f) == 1) {
		if (f.id != 58 || f.wt != WT_VARINT)
			continue;
		for (i = 0; i < t->n_seqs && t->seqs[i].seq != seq; i++)
			;
		if (i == TE_SEQS_MAX)
			return;
		t->seqs[i] = (struct te_seq){ seq, (uint32_t)f.v };
		t->n_seqs += i == t->n_seqs;
	}
}

static uint32_t clock_of(const struct pfte *t, const struct pfte_packet *p)
{
	if (p->clock)
		return p->clock;
	for (size_t i = 0; i < t->n_seqs; i++)
		if (t->seqs[i].seq == p->seq)
			return t->seqs[i].clock;
	return 0;
}

/* ---- tracks ----------------------------------------------------------------------------- */

static bool uuid_is(const void *v, const void *key)
{
	return ((const struct te_track *)v)->uuid == *(const uint64_t *)key;
}

static struct te_track *track_find(const struct pfte *t, uint64_t uuid)
{
	return htab_find(&t->tracks, hash_mix64(uuid), uuid_is, &uuid);
}

/* The track of uuid, added when new; NULL beyond TE_TRACKS_MAX (*err: -ENOMEM when out of
 * memory). */
static struct te_track *track_get(struct pfte *t, uint64_t uuid, int *err)
{
	struct te_track *tr = track_find(t, uuid);

	if (tr || t->tracks.cnt >= TE_TRACKS_MAX)
		return tr;
	tr = calloc(1, sizeof(*tr));
	if (!tr || htab_add(&t->tracks, hash_mix64(uuid), tr)) {
		free(tr);
		*err = -ENOMEM;
		return NULL;
	}
	tr->uuid = uuid;
	return tr;
}

/* ProcessDescriptor {pid = 1} and ThreadDescriptor {pid = 1, tid = 2}. */
static int32_t read_pid(struct pb b, int32_t *tid)
{
	struct pb_field f;
	int32_t pid = 0;

	while (pb_next(&b, &f) == 1) {
		if (f.id == 1 && f.wt == WT_VARINT)
			pid = (int32_t)f.v;
		else if (f.id == 2 && f.wt == WT_VARINT && tid)
			*tid = (int32_t)f.v;
	}
	return pid > 0 ? pid : 0;
}

/* TrackDescriptor: its uuid, parent, process or thread, and its name when it is a session. */
static int read_descriptor(struct pfte *t, struct pb b)
{
	struct te_track d = { 0 }, *tr;
	struct strv name = { "", 0 };
	struct pb_field f;
	int err = 0, rc;

	while ((rc = pb_next(&b, &f)) == 1) {
		if (f.id == 1 && f.wt == WT_VARINT)
			d.uuid = f.v;
		else if (f.id == 5 && f.wt == WT_VARINT)
			d.parent = f.v;
		else if ((f.id == 2 || f.id == 10 || f.id == 13) && f.wt == WT_LEN)
			name = pb_str(&f);
		else if (f.id == 3 && f.wt == WT_LEN)
			d.pid = read_pid(pb_sub(&f), NULL);
		else if (f.id == 4 && f.wt == WT_LEN)
			d.pid = read_pid(pb_sub(&f), &d.tid);
	}
	if (rc < 0 || !(tr = track_get(t, d.uuid, &err)))
		return err; /* damaged, or beyond the cap: its events are counted when they come */
	tr->parent = d.parent;
	tr->pid = d.pid ? d.pid : tr->pid;
	tr->tid = d.tid > 0 ? d.tid : tr->tid;
	if (is_session(name) && fit(name) && !set_str(&tr->name, name))
		return -ENOMEM;
	return 0;
}

/* The process a track belongs to: its own, else its parents' (a named track under a process
 * track); 0 when none says. *tid: a thread track's thread, else the process's main thread. */
static int32_t pid_of(const struct pfte *t, const struct te_track *tr, int32_t *tid)
{
	*tid = tr->tid;
	for (int i = 0; tr && i < TE_PARENTS_MAX; i++, tr = track_find(t, tr->parent))
		if (tr->pid) {
			*tid = *tid ? *tid : tr->pid;
			return tr->pid;
		}
	return 0;
}

/* ---- events ----------------------------------------------------------------------------- */

struct te_event {
	uint32_t type;
	uint64_t track;
	bool has_track;
	struct strv name;
	bool has_iid;
	uint64_t iid;
};

static int decode_event(struct pb b, struct te_event *e)
{
	struct pb_field f;
	int rc;

	while ((rc = pb_next(&b, &f)) == 1) {
		if (f.id == 9 && f.wt == WT_VARINT) {
			e->type = (uint32_t)f.v;
		} else if (f.id == 11 && f.wt == WT_VARINT) {
			e->track = f.v;
			e->has_track = true;
		} else if (f.id == 23 && f.wt == WT_LEN) {
			e->name = pb_str(&f);
		} else if (f.id == 10 && f.wt == WT_VARINT) {
			e->has_iid = true;
			e->iid = f.v;
		}
	}
	return rc;
}

/* Writes "<type>|pid|<a>|<b>[|0]" through emit. */
static void emit(struct pfte *t, uint64_t ts, int32_t pid, int32_t tid, char type, const char *a,
		 struct strv b, bool cookie)
{
	char buf[2 * AT_NAME_MAX + 48];
	int n;

	if (b.len)
		n = snprintf(buf, sizeof(buf), "%c|%d|%s|%.*s%s", type, pid, a, (int)b.len, b.p,
			     cookie ? "|0" : "");
	else
		n = snprintf(buf, sizeof(buf), "%c|%d|%s%s", type, pid, a, cookie ? "|0" : "");
	if (n > 0 && (size_t)n < sizeof(buf))
		t->emit(t->ctx, ts, tid, buf, (size_t)n);
}

/* Whether the event can be restated: its process known, its time on the prints' clock. */
static bool restatable(const struct pfte *t, const struct te_track *tr, const struct pfte_packet *p,
		       int32_t *pid, int32_t *tid)
{
	uint32_t clock = clock_of(t, p);

	*pid = pid_of(t, tr, tid);
	return *pid && (!clock || clock == CLOCK_BOOTTIME);
}

/* Appends an item to a bounded array; NULL beyond max (*err: -ENOMEM when out of memory). */
static void *push(void **arr, size_t *n, size_t *cap, size_t size, size_t max, int *err)
{
	void *tmp;

	if (*n >= max)
		return NULL;
	tmp = pf_grow(*arr, cap, *n, size);
	if (!tmp) {
		*err = -ENOMEM;
		return NULL;
	}
	*arr = tmp;
	return (char *)tmp + (*n)++ * size;
}

/* An FT# event: held until every CUJ slice is known (pfte__finish). */
static int hold_event(struct pfte *t, const struct te_track *tr, uint64_t ts, struct strv name)
{
	struct te_later *l;
	int err = 0;

	l = push((void **)&t->later, &t->n_later, &t->cap_later, sizeof(*l), TE_LATER_MAX, &err);
	if (!l) {
		t->unread++;
		return err;
	}
	*l = (struct te_later){ tr->uuid, ts, NULL };
	if (!set_str(&l->name, name)) {
		t->n_later--;
		return -ENOMEM;
	}
	return 0;
}

/* A CUJ slice opens (G), and is remembered for the FT# events on its track; an FT# event is
 * held (hold_event). */
static int cuj_event(struct pfte *t, struct te_track *tr, const struct pfte_packet *p,
		     struct strv name)
{
	struct te_span *sp;
	int32_t pid, tid;
	int err = 0;

	if (!restatable(t, tr, p, &pid, &tid) || !fit(name)) {
		t->unread++;
		return 0;
	}
	if (is_event(name))
		return hold_event(t, tr, p->ts, name);
	if (tr->cuj) /* a second CUJ inside the first on one track: FrameTracker has none */
		return 0;
	if (!set_str(&tr->cuj, name))
		return -ENOMEM;
	tr->cuj_depth = tr->depth;
	emit(t, p->ts, pid, tid, 'G', tr->cuj, name, true);
	sp = push((void **)&t->spans, &t->n_spans, &t->cap_spans, sizeof(*sp), TE_SPANS_MAX, &err);
	if (sp) {
		*sp = (struct te_span){ tr->uuid, p->ts, NULL };
		if (!set_str(&sp->session, name)) {
			t->n_spans--;
			return -ENOMEM;
		}
	}
	return err;
}

/* The session of an FT# event on tr at ts: the track's name, else the CUJ slice on it that
 * began last at or before ts; NULL when none. */
static const char *session_at(const struct pfte *t, const struct te_track *tr, uint64_t ts)
{
	const struct te_span *best = NULL;

	if (tr->name)
		return tr->name;
	for (size_t i = 0; i < t->n_spans; i++) {
		const struct te_span *sp = &t->spans[i];

		if (sp->uuid == tr->uuid && sp->begin_ns <= ts &&
		    (!best || sp->begin_ns >= best->begin_ns))
			best = sp;
	}
	return best ? best->session : NULL;
}

void pfte__finish(struct pfte *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_later; i++) {
		const struct te_later *l = &t->later[i];
		const struct te_track *tr = track_find(t, l->uuid);
		const char *session = tr ? session_at(t, tr, l->ts) : NULL;
		int32_t pid, tid;

		if (!session || !(pid = pid_of(t, tr, &tid))) {
			t->unread++; /* an FT# event of no CUJ this reader knows */
			continue;
		}
		emit(t, l->ts, pid, tid, 'N', session, (struct strv){ l->name, strlen(l->name) },
		     false);
	}
}

/* A slice end: the CUJ's (H) when it closes the slice that opened it. */
static void slice_end(struct pfte *t, struct te_track *tr, const struct pfte_packet *p)
{
	int32_t pid, tid;

	if (!tr->depth)
		return;
	if (tr->cuj && tr->depth == tr->cuj_depth) {
		if (restatable(t, tr, p, &pid, &tid))
			emit(t, p->ts, pid, tid, 'H', tr->cuj, (struct strv){ "", 0 }, true);
		else
			t->unread++;
		free(tr->cuj);
		tr->cuj = NULL;
		tr->cuj_depth = 0;
	}
	tr->depth--;
}

/*
 * One TrackEvent. Every slice of a known track counts for its depth (an end closes the slice
 * begun last); a slice named as a session, or a slice or instant named as an FT# event, is
 * restated; one that cannot be is counted.
 */
static int read_event(struct pfte *t, struct pb b, const struct pfte_packet *p)
{
	struct te_event e = { .name = { "", 0 } };
	struct te_track *tr;
	bool wanted;

	if (decode_event(b, &e) < 0) {
		t->unread++;
		return 0;
	}
	if (e.has_iid && !e.name.len)
		e.name = interned(t, p->seq, e.iid);
	if (!e.has_track) /* the sequence's thread track: no process track of a CUJ */
		return 0;
	wanted = (e.type == TYPE_SLICE_BEGIN && is_session(e.name)) ||
		 ((e.type == TYPE_SLICE_BEGIN || e.type == TYPE_INSTANT) && is_event(e.name));
	tr = track_find(t, e.track);
	if (!tr) {
		t->unread += wanted;
		return 0;
	}
	if (e.type == TYPE_SLICE_END)
		slice_end(t, tr, p);
	if (e.type == TYPE_SLICE_BEGIN)
		tr->depth++;
	return wanted ? cuj_event(t, tr, p, e.name) : 0;
}

int pfte__packet(struct pfte *t, const struct pfte_packet *p)
{
	int err = 0;

	if (p->cleared)
		clear_seq(t, p->seq);
	if (p->defaults.id)
		read_defaults(t, pb_sub(&p->defaults), p->seq);
	if (p->interned.id)
		read_interned(t, pb_sub(&p->interned), p->seq);
	if (p->desc.id && (err = read_descriptor(t, pb_sub(&p->desc))))
		return err;
	if (p->ev.id)
		err = read_event(t, pb_sub(&p->ev), p);
	return err;
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SurfaceFlinger's FrameTimeline in a Perfetto trace (see pftimeline.h): the decoder of one
 * FrameTimelineEvent, and the index that pairs each start with its FrameEnd.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/frametimeline.h"
#include "replay/pbwire.h"
#include "replay/pftimeline.h"
#include "replay/pftrace.h"

/* ---- FrameTimeline ----------------------------------------------------------------- */

/* What a start or end message field holds; 0 = nothing we read. */
enum ft_slot {
	S_COOKIE = 1,
	S_TOKEN,
	S_DTOKEN,
	S_PID,
	S_LAYER,
	S_PRESENT,
	S_ONTIME,
	S_GPU,
	S_JANK,
	S_PRED,
	S_ISBUF,
	S_SEVERITY
};

/*
 * Field number -> slot, per event kind (common/frametimeline.h has the sources). Fields
 * after the last one here (present_delay_millis and other floats, experimental copies) are
 * skipped.
 */
static const uint8_t ft_fields[FT_FRAME_END + 1][13 /* the last field read, + 1 */] = {
	[FT_EXPECTED_DISPLAY] = { [1] = S_COOKIE, [2] = S_TOKEN, [3] = S_PID },
	[FT_ACTUAL_DISPLAY] = { [1] = S_COOKIE,
				[2] = S_TOKEN,
				[3] = S_PID,
				[4] = S_PRESENT,
				[5] = S_ONTIME,
				[6] = S_GPU,
				[7] = S_JANK,
				[8] = S_PRED,
				[9] = S_SEVERITY },
	[FT_EXPECTED_SURFACE] = { [1] = S_COOKIE,
				  [2] = S_TOKEN,
				  [3] = S_DTOKEN,
				  [4] = S_PID,
				  [5] = S_LAYER },
	[FT_ACTUAL_SURFACE] = { [1] = S_COOKIE,
				[2] = S_TOKEN,
				[3] = S_DTOKEN,
				[4] = S_PID,
				[5] = S_LAYER,
				[6] = S_PRESENT,
				[7] = S_ONTIME,
				[8] = S_GPU,
				[9] = S_JANK,
				[10] = S_PRED,
				[11] = S_ISBUF,
				[12] = S_SEVERITY },
	[FT_FRAME_END] = { [1] = S_COOKIE },
};

static uint8_t sat8(uint64_t v)
{
	return v > 255 ? 255 : (uint8_t)v;
}

static void ft_set(struct ft_event *e, int slot, const struct pb_field *f)
{
	switch (slot) {
	case S_COOKIE:
		e->cookie = (int64_t)f->v;
		break;
	case S_TOKEN:
		e->token = (int64_t)f->v;
		break;
	case S_DTOKEN:
		e->display_token = (int64_t)f->v;
		break;
	case S_PID:
		e->pid = (int32_t)f->v;
		break;
	case S_LAYER:
		e->layer = pb_str(f);
		break;
	case S_PRESENT:
		e->present_type = sat8(f->v);
		break;
	case S_ONTIME:
		e->on_time_finish = f->v != 0;
		break;
	case S_GPU:
		e->gpu_composition = f->v != 0;
		break;
	case S_JANK:
		e->jank_type = (uint32_t)f->v;
		break;
	case S_PRED:
		e->prediction_type = sat8(f->v);
		break;
	case S_ISBUF:
		e->is_buffer = f->v != 0;
		e->has_is_buffer = true;
		break;
	case S_SEVERITY:
		e->jank_severity = sat8(f->v);
		break;
	}
}

/* One start or end message of the given kind. Returns the slots seen, or -EINVAL. */
static int ft_read_event(struct pb b, unsigned kind, struct ft_event *e)
{
	struct pb_field f;
	int rc, seen = 0, slot;

	while ((rc = pb_next(&b, &f)) == 1) {
		slot = f.id < sizeof(ft_fields[0]) ? ft_fields[kind][f.id] : 0;
		if (!slot || f.wt != (slot == S_LAYER ? WT_LEN : WT_VARINT))
			continue;
		ft_set(e, slot, &f);
		seen |= 1 << slot;
	}
	return rc < 0 ? -EINVAL : seen;
}

int pftrace_timeline_decode(const void *msg, size_t len, struct ft_event *out)
{
	struct pb b = { msg, (const uint8_t *)msg + len }, ev = { NULL, NULL };
	const int need_start = 1 << S_COOKIE | 1 << S_TOKEN | 1 << S_PID;
	unsigned kind = 0;
	struct pb_field f;
	int rc, seen, need;

	memset(out, 0, sizeof(*out));
	out->layer = (struct strv){ "", 0 };
	while ((rc = pb_next(&b, &f)) == 1) {
		if (f.id >= FT_EXPECTED_DISPLAY && f.id <= FT_FRAME_END && f.wt == WT_LEN) {
			kind = f.id;
			ev = pb_sub(&f);
		}
	}
	if (rc < 0)
		return -EINVAL;
	if (!kind)
		return -ENOMSG;
	out->kind = (uint8_t)kind;
	seen = ft_read_event(ev, kind, out);
	if (seen < 0)
		return seen;
	need = kind == FT_FRAME_END ? 1 << S_COOKIE : need_start;
	if (kind == FT_EXPECTED_SURFACE || kind == FT_ACTUAL_SURFACE)
		need |= 1 << S_DTOKEN;
	if ((seen & need) != need)
		return -EBADMSG;
	/* Trace processor's inference for traces written before the field existed. */
	if (!(seen & 1 << S_SEVERITY) && out->jank_type == FT_JANK_NONE)
		out->jank_severity = FT_SEVERITY_NONE;
	return 0;
}

/* ---- the FrameTimeline index ------------------------------------------------------ */

/* Bounds of the FrameTimeline index (see pftrace.h). */
#define TL_FRAMES_MAX (1u << 18)  /* frames indexed */
#define TL_OPEN_MAX 1024u	  /* frames waiting for their FrameEnd */
#define TL_LAYERS_MAX 4096u	  /* distinct layer names */
#define TL_LAYER_BYTES (1u << 20) /* bytes of those names */
#define TL_LAYER_LEN 512u	  /* longer names are cut (SurfaceFlinger's are ~150) */
#define TL_LAYER_SLOTS (TL_LAYERS_MAX * 2)

struct tl_rec {
	struct ft_frame f; /* f.ev.layer is unset: see layer */
	uint64_t seq;	   /* file order of the start */
	uint32_t layer;	   /* index + 1 into the layer names; 0 = none */
	bool live;	   /* in the open table: its FrameEnd has not come */
};

struct tl_name {
	uint32_t off, len;
};

struct timeline {
	struct tl_rec *frames;
	size_t n_frames, cap_frames;
	struct tl_rec *open; /* a ring of TL_OPEN_MAX, oldest at open_first */
	uint64_t open_first, open_next, seq;
	struct tl_name *names; /* distinct layer names, bytes in name_buf */
	size_t n_names;
	char *name_buf;
	size_t name_len;
	uint32_t *name_slots; /* open addressing on the name: index + 1, 0 = empty */
	struct pf_timeline_stats st;
};

static uint32_t fnv1a(struct strv s)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < s.len; i++)
		h = (h ^ (uint8_t)s.p[i]) * 16777619u;
	return h;
}

/* Index + 1 of the name s (copied on first sight), 0 when there is no room; -ENOMEM. */
static int64_t tl_layer(struct timeline *tl, struct strv s)
{
	uint32_t i;

	if (!s.len)
		return 0;
	s.len = s.len < TL_LAYER_LEN ? s.len : TL_LAYER_LEN;
	for (i = fnv1a(s) & (TL_LAYER_SLOTS - 1); tl->name_slots[i];
	     i = (i + 1) & (TL_LAYER_SLOTS - 1)) {
		const struct tl_name *n = &tl->names[tl->name_slots[i] - 1];

		if (n->len == s.len && !memcmp(tl->name_buf + n->off, s.p, s.len))
			return tl->name_slots[i];
	}
	if (tl->n_names >= TL_LAYERS_MAX || tl->name_len + s.len > TL_LAYER_BYTES) {
		tl->st.unnamed_layers++;
		return 0;
	}
	memcpy(tl->name_buf + tl->name_len, s.p, s.len);
	tl->names[tl->n_names] = (struct tl_name){ (uint32_t)tl->name_len, (uint32_t)s.len };
	tl->name_len += s.len;
	tl->name_slots[i] = (uint32_t)++tl->n_names;
	return tl->name_slots[i];
}

/* The open table and the name table, on the first event. */
static int tl_alloc(struct timeline *tl)
{
	tl->open = calloc(TL_OPEN_MAX, sizeof(*tl->open));
	tl->names = malloc(TL_LAYERS_MAX * sizeof(*tl->names));
	tl->name_buf = malloc(TL_LAYER_BYTES);
	tl->name_slots = calloc(TL_LAYER_SLOTS, sizeof(*tl->name_slots));
	if (tl->open && tl->names && tl->name_buf && tl->name_slots)
		return 0;
	free(tl->open);
	free(tl->names);
	free(tl->name_buf);
	free(tl->name_slots);
	tl->open = NULL;
	tl->names = NULL;
	tl->name_buf = NULL;
	tl->name_slots = NULL;
	return -ENOMEM;
}

static int tl_store(struct timeline *tl, const struct tl_rec *r)
{
	struct tl_rec *tmp;

	tl->st.unended += !r->f.ended;
	if (tl->n_frames >= TL_FRAMES_MAX) {
		tl->st.dropped++;
		return 0;
	}
	tmp = pf_grow(tl->frames, &tl->cap_frames, tl->n_frames, sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	tl->frames = tmp;
	tl->frames[tl->n_frames] = *r;
	tl->frames[tl->n_frames++].live = false;
	tl->st.frames++;
	return 0;
}

/* Moves open_first past frames that have ended. */
static void tl_trim(struct timeline *tl)
{
	while (tl->open_first < tl->open_next && !tl->open[tl->open_first % TL_OPEN_MAX].live)
		tl->open_first++;
}

static int tl_start(struct timeline *tl, const struct ft_event *ev, uint64_t ts, uint32_t clock)
{
	struct tl_rec r = { .f = { .ev = *ev, .start_ns = ts, .clock_id = clock } };
	struct tl_rec *old;
	int64_t layer;

	if (!tl->open && tl_alloc(tl))
		return -ENOMEM;
	if ((layer = tl_layer(tl, ev->layer)) < 0)
		return (int)layer;
	r.layer = (uint32_t)layer;
	r.f.ev.layer = (struct strv){ "", 0 };
	r.seq = tl->seq++;
	r.live = true;
	tl->st.other_clock += clock && clock != FT_CLOCK_BOOTTIME;
	if (tl->open_next - tl->open_first == TL_OPEN_MAX) {
		old = &tl->open[tl->open_first++ % TL_OPEN_MAX];
		tl->st.evicted++;
		if (tl_store(tl, old))
			return -ENOMEM;
		old->live = false;
		tl_trim(tl);
	}
	tl->open[tl->open_next++ % TL_OPEN_MAX] = r;
	return 0;
}

/* The newest open frame with the cookie ends: SurfaceFlinger writes the end right after. */
static int tl_end(struct timeline *tl, int64_t cookie, uint64_t ts)
{
	struct tl_rec *r;

	for (uint64_t i = tl->open_next; tl->open && i-- > tl->open_first;) {
		r = &tl->open[i % TL_OPEN_MAX];
		if (!r->live || r->f.ev.cookie != cookie)
			continue;
		r->f.end_ns = ts;
		r->f.ended = true;
		if (tl_store(tl, r))
			return -ENOMEM;
		r->live = false;
		tl_trim(tl);
		return 0;
	}
	tl->st.unpaired_ends++;
	return 0;
}

/* A frame_timeline_event packet. Returns 0 or -ENOMEM. */
int pftl_event(struct timeline *tl, const struct pb_field *f, uint64_t ts, uint32_t clock)
{
	/* trace processor's IsBadTimestamp (b/185978397), and its negative check */
	const uint64_t bad_ts = (uint64_t)INT64_MAX - 10ull * 1000 * 1000 * 1000;
	struct ft_event ev;

	if (pftrace_timeline_decode(f->data, f->len, &ev) || ts >= bad_ts) {
		tl->st.bad++;
		return 0;
	}
	tl->st.events++;
	if (ev.kind == FT_FRAME_END)
		return tl_end(tl, ev.cookie, ts);
	return tl_start(tl, &ev, ts, clock);
}

static int cmp_frame(const void *a, const void *b)
{
	const struct tl_rec *x = a, *y = b;

	if (x->f.start_ns != y->f.start_ns)
		return x->f.start_ns < y->f.start_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Frames still open at the end of the trace are indexed unended; then all sorted. */
int pftl_finish(struct timeline *tl)
{
	for (uint64_t i = tl->open_first; i < tl->open_next; i++)
		if (tl->open[i % TL_OPEN_MAX].live && tl_store(tl, &tl->open[i % TL_OPEN_MAX]))
			return -ENOMEM;
	free(tl->open);
	tl->open = NULL;
	free(tl->name_slots);
	tl->name_slots = NULL;
	if (tl->n_frames)
		qsort(tl->frames, tl->n_frames, sizeof(*tl->frames), cmp_frame);
	return 0;
}

void pftl_free(struct timeline *tl)
{
	if (!tl)
		return;
	free(tl->frames);
	free(tl->open);
	free(tl->names);
	free(tl->name_buf);
	free(tl->name_slots);
	free(tl);
}

struct timeline *pftl_new(void)
{
	return calloc(1, sizeof(struct timeline));
}

size_t pftl_n_frames(const struct timeline *tl)
{
	return tl ? tl->n_frames : 0;
}

int pftl_frame(const struct timeline *tl, size_t i, struct ft_frame *out)
{
	const struct tl_rec *r;
	const struct tl_name *n;

	if (i >= pftl_n_frames(tl))
		return -ERANGE;
	r = &tl->frames[i];
	*out = r->f;
	if (r->layer) {
		n = &tl->names[r->layer - 1];
		out->ev.layer = (struct strv){ tl->name_buf + n->off, n->len };
	}
	return 0;
}

void pftl_stats(const struct timeline *tl, struct pf_timeline_stats *out)
{
	*out = tl ? tl->st : (struct pf_timeline_stats){ 0 };
}

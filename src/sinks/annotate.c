// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --annotate: engine output as atrace markers in trace_marker (see sinks/annotate.h). Each
 * annotation is one write(); its delay (the record's src_ts_ns, the BPF timestamp of the
 * event that caused it, to the write, both CLOCK_MONOTONIC) goes into a reservoir sample for
 * the exit summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/marker.h"
#include "common/termesc.h"
#include "sinks/animname.h"
#include "sinks/annotate.h"

#define DELAY_SAMPLES 65536 /* exact percentiles for the first 65536 annotations */

struct sink_annotate {
	int fd; /* -1 before open and once annotating stopped */
	char path[128];
	dev_t dev;
	ino_t ino;
	annotate_warn_fn warn;
	void *ctx;
	uint64_t written, unrecorded, max_ns, rng;
	uint32_t *samples; /* delays in ns (capped at UINT32_MAX), a reservoir */
	size_t n_samples;
	struct annot_delay delay; /* what summary_fill gave the summary */
};

/* ---- formatting ------------------------------------------------------------------------ */

struct sb {
	char *p;
	size_t cap, len;
};

static void sb_add(struct sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends, keeping whatever fits: a name cut short still says most of it. */
static void sb_add(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len + 1 >= b->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len = b->len + (size_t)n < b->cap ? b->len + (size_t)n : b->cap - 1;
}

size_t annotate_sanitize(char *dst, size_t cap, const char *src)
{
	size_t n = termesc(dst, cap, src, strlen(src));

	for (char *c = dst; *c; c++)
		if (*c == '|')
			*c = '/';
	return n;
}

int64_t annotate_scale(enum view_prop prop, float value)
{
	double v = value;

	switch (prop) {
	case PROP_ALPHA:
	case PROP_SCALE_X:
	case PROP_SCALE_Y:
	case PROP_ROTATION:
	case PROP_ROTATION_X:
	case PROP_ROTATION_Y:
		v *= 1000.0;
		break;
	default: /* translations and elevation: pixels */
		break;
	}
	if (!isfinite(v) || fabs(v) > 9e18)
		return 0;
	return (int64_t)llround(v);
}

/*
 * "<type>|<tgid>|[<track>|]<name>[|<value>]" in buf: name (may be NULL for H) sanitised and
 * cut, at a UTF-8 boundary, so that the whole marker fits in cap bytes.
 */
static size_t marker_fmt(char *buf, size_t cap, char type, uint32_t tgid, const char *track,
			 const char *name, const int64_t *value)
{
	char head[64], tail[32] = "", safe[ANNOTATE_MARKER_MAX];
	size_t room, n;

	snprintf(head, sizeof(head), "%c|%u|%s%s", type, tgid, track ? track : "",
		 track && name ? "|" : "");
	if (value)
		snprintf(tail, sizeof(tail), "|%lld", (long long)*value);
	if (cap < strlen(head) + strlen(tail) + 1)
		return 0;
	room = cap - 1 - strlen(head) - strlen(tail);
	n = annotate_sanitize(safe, room + 1 < sizeof(safe) ? room + 1 : sizeof(safe),
			      name ? name : "");
	return (size_t)snprintf(buf, cap, "%s%.*s%s", head, (int)n, safe, tail);
}

/* An animator's or an animation's seed name, then what only its end knows (header). */
static void end_name(char *name, size_t cap, const struct animname *n, enum end_reason reason,
		     uint32_t frames, uint32_t dropped)
{
	size_t len = animname_format(name, cap, n, ANIMNAME_ATRACE);

	snprintf(name + len, cap - len, AT_ANNOT_SEP "end %s %u frames %u dropped",
		 end_reason_str(reason), frames, dropped);
}

/* A slice opened on animtrace's track: G with n's seed name and cookie. */
static size_t slice_open(char *buf, size_t cap, uint32_t pid, const struct animname *n,
			 int64_t cookie)
{
	char name[ANIMNAME_MAX];

	animname_format(name, sizeof(name), n, ANIMNAME_ATRACE);
	return marker_fmt(buf, cap, 'G', pid, AT_ANNOT_TRACK, name, &cookie);
}

/* The H that closes the slice of cookie. */
static size_t slice_close(char *buf, size_t cap, uint32_t pid, int64_t cookie)
{
	return marker_fmt(buf, cap, 'H', pid, AT_ANNOT_TRACK, NULL, &cookie);
}

size_t annotate_fmt_start(char *buf, size_t cap, const struct anim *a)
{
	struct animname n;

	animname_from_anim(&n, a);
	return slice_open(buf, cap, a->pid, &n, (int64_t)a->id);
}

size_t annotate_fmt_end(char *buf, size_t cap, const struct anim *a)
{
	char name[ANNOTATE_MARKER_MAX];
	struct animname n;

	animname_from_anim(&n, a);
	end_name(name, sizeof(name), &n, a->reason, a->frames, a->frames_dropped);
	return marker_fmt(buf, cap, 'N', a->pid, AT_ANNOT_TRACK, name, NULL);
}

size_t annotate_fmt_close(char *buf, size_t cap, const struct anim *a)
{
	if (!a->start_ns) /* cancelled before it started: no slice was opened */
		return 0;
	return slice_close(buf, cap, a->pid, (int64_t)a->id);
}

static int64_t animation_cookie(const struct animation *a)
{
	return ANNOTATE_ANIMATION_COOKIE + (int64_t)(a->id & 0xffffffffu);
}

size_t annotate_fmt_animation_start(char *buf, size_t cap, const struct animation *a)
{
	struct animname n;

	animname_from_animation(&n, a);
	return slice_open(buf, cap, a->pid, &n, animation_cookie(a));
}

size_t annotate_fmt_animation_end(char *buf, size_t cap, const struct animation *a)
{
	char name[ANNOTATE_MARKER_MAX];
	struct animname n;

	animname_from_animation(&n, a);
	end_name(name, sizeof(name), &n, a->reason, a->frames, a->frames_dropped);
	return marker_fmt(buf, cap, 'N', a->pid, AT_ANNOT_TRACK, name, NULL);
}

size_t annotate_fmt_animation_close(char *buf, size_t cap, const struct animation *a)
{
	return slice_close(buf, cap, a->pid, animation_cookie(a));
}

size_t annotate_fmt_counter(char *buf, size_t cap, uint32_t pid, const struct node_props *np,
			    enum view_prop prop)
{
	char name[ANIMNAME_MAX];
	char node_name[sizeof(np->node_name) + 1];
	int64_t v = annotate_scale(prop, np->values[prop]);

	snprintf(node_name, sizeof(node_name), "%.*s", (int)sizeof(np->node_name), np->node_name);
	animname_counter(name, sizeof(name), ANIMNAME_ATRACE, node_name, np->node, prop);
	return marker_fmt(buf, cap, 'C', pid, NULL, name, &v);
}

static void put_chain(struct sb *b, const struct slice_chain *c)
{
	for (int i = 0; i < c->n && i < AT_CHAIN_MAX; i++)
		sb_add(b, "%s%.*s %llu.%01llums", i ? " > " : "", AT_SLICE_NAME, c->s[i].name,
		       (unsigned long long)(c->s[i].dur_ns / 1000000),
		       (unsigned long long)(c->s[i].dur_ns / 100000 % 10));
}

size_t annotate_fmt_jank(char *buf, size_t cap, const struct jank *j)
{
	static const char *const kinds[] = { "late frame", "dropped frames", "block" };
	char name[ANNOTATE_MARKER_MAX];
	struct sb b = { name, sizeof(name), 0 };

	name[0] = '\0';
	sb_add(&b, "Jank %s", j->kind <= JANK_BLOCK ? kinds[j->kind] : "?");
	if (j->frame_seq)
		sb_add(&b, " %llu", (unsigned long long)j->frame_seq);
	sb_add(&b, " %llu.%01llums", (unsigned long long)(j->duration_ns / 1000000),
	       (unsigned long long)(j->duration_ns / 100000 % 10));
	if (j->dropped_before)
		sb_add(&b, " %u dropped", j->dropped_before);
	if (j->ui.n) {
		sb_add(&b, ": ");
		put_chain(&b, &j->ui);
	}
	if (j->render.n) {
		sb_add(&b, " / RenderThread: ");
		put_chain(&b, &j->render);
	}
	return marker_fmt(buf, cap, 'N', j->pid, AT_ANNOT_TRACK, name, NULL);
}

static int64_t dyn_cookie(const struct dyn_anim *d)
{
	return ANNOTATE_DYN_COOKIE + (int64_t)(d->id & 0xffffffffu);
}

size_t annotate_fmt_dyn_start(char *buf, size_t cap, const struct dyn_anim *d)
{
	struct animname n;

	animname_from_dyn(&n, d);
	return slice_open(buf, cap, d->pid, &n, dyn_cookie(d));
}

size_t annotate_fmt_dyn_end(char *buf, size_t cap, const struct dyn_anim *d)
{
	char name[ANNOTATE_MARKER_MAX];
	struct animname n;
	size_t len;

	animname_from_dyn(&n, d);
	len = animname_format(name, sizeof(name), &n, ANIMNAME_ATRACE);
	/* "probed": its ids are not an unmarked animation's, whose names are alike (header) */
	snprintf(name + len, sizeof(name) - len, AT_ANNOT_SEP "end %s %u frames probed",
		 end_reason_str(d->reason), d->frames);
	return marker_fmt(buf, cap, 'N', d->pid, AT_ANNOT_TRACK, name, NULL);
}

size_t annotate_fmt_dyn_close(char *buf, size_t cap, const struct dyn_anim *d)
{
	return slice_close(buf, cap, d->pid, dyn_cookie(d));
}

/* "finding: replaced #12,#13: <sentence>" ("... animation #3: ..." when the ids are unmarked
 * animations'): an N, the instant Perfetto keeps on an async track (systrace_parser.h:
 * N|tgid|track|name; an I would land on the writing thread, animtrace's). */
size_t annotate_fmt_finding(char *buf, size_t cap, const struct finding *f)
{
	char name[ANNOTATE_MARKER_MAX];
	struct sb b = { name, sizeof(name), 0 };

	name[0] = '\0';
	sb_add(&b, "finding: %s%s", finding_kind_str(f->kind), f->unmarked ? " animation" : "");
	for (int i = 0; i < f->n_ids && i < AT_FINDING_IDS; i++)
		sb_add(&b, "%s#%lld", i ? "," : " ", (long long)f->ids[i]);
	sb_add(&b, ": %.*s", AT_FINDING_TEXT, f->text);
	return marker_fmt(buf, cap, 'N', f->pid, AT_ANNOT_TRACK, name, NULL);
}

/* "CUJ SHADE_EXPAND_COLLAPSE: 13 frames, 1 janky, 0 dropped[, cancelled]": the name without
 * FrameTracker's "J<" and ">", as every output says it. */
size_t annotate_fmt_cuj(char *buf, size_t cap, const struct cuj *c)
{
	char name[ANNOTATE_MARKER_MAX];
	struct sb b = { name, sizeof(name), 0 };

	name[0] = '\0'; /* marker_fmt escapes the whole name, the CUJ's with it */
	sb_add(&b, "CUJ %s: %u frames, %u janky, %u dropped%s", c->name, c->frames, c->janky_frames,
	       c->frames_dropped,
	       c->cancelled ? ", cancelled" :
	       c->ended	    ? "" :
			      ", not ended");
	return marker_fmt(buf, cap, 'N', c->pid, AT_ANNOT_TRACK, name, NULL);
}

/* ---- writing --------------------------------------------------------------------------- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts); /* bpf_ktime_get_ns()'s clock */
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void stop(struct sink_annotate *a, int err)
{
	if (a->fd < 0)
		return;
	close(a->fd);
	a->fd = -1;
	if (a->warn)
		a->warn(a->ctx, err, a->path);
}

/* Keeps every delay while the reservoir has room, then a uniform sample (deterministic). */
static void sample(struct sink_annotate *a, uint64_t d)
{
	uint32_t v = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
	uint64_t k;

	if (d > a->max_ns)
		a->max_ns = d;
	if (!a->samples)
		return;
	if (a->n_samples < DELAY_SAMPLES) {
		a->samples[a->n_samples++] = v;
		return;
	}
	a->rng ^= a->rng << 13;
	a->rng ^= a->rng >> 7;
	a->rng ^= a->rng << 17;
	k = a->rng % a->written;
	if (k < DELAY_SAMPLES)
		a->samples[k] = v;
}

/* src_ns: the record's src_ts_ns; 0 (a slice closed at exit) counts but has no delay. */
static void put(struct sink_annotate *a, uint64_t src_ns, const char *buf, size_t len)
{
	uint64_t t;

	if (a->fd < 0 || !len)
		return;
	if (write(a->fd, buf, len) < 0) {
		/* The ring buffer refuses markers while tracing is off: the file is fine. */
		if (errno == EBADF && fcntl(a->fd, F_GETFD) != -1)
			a->unrecorded++;
		else if (errno != EINTR && errno != EAGAIN)
			stop(a, -errno);
		return;
	}
	t = now_ns();
	a->written++;
	if (src_ns)
		sample(a, t > src_ns ? t - src_ns : 0);
}

/* Formats with fmt(buf, cap, arg) and writes the marker, caused by the event at src. */
#define PUT(a, src, fmt, ...)                                                    \
	do {                                                                     \
		char buf_[ANNOTATE_MARKER_MAX];                                  \
		if ((a)->fd >= 0)                                                \
			put(a, src, buf_, fmt(buf_, sizeof(buf_), __VA_ARGS__)); \
	} while (0)

/* ---- the sink: a failed annotation never fails the session (every callback returns 0) --- */

static int on_anim_start(void *ctx, const struct anim *an)
{
	PUT((struct sink_annotate *)ctx, an->src_ts_ns, annotate_fmt_start, an);
	return 0;
}

/* The instant first, so it lies inside the slice the H then closes. */
static int on_anim_end(void *ctx, const struct anim *an)
{
	PUT((struct sink_annotate *)ctx, an->src_ts_ns, annotate_fmt_end, an);
	PUT((struct sink_annotate *)ctx, an->src_ts_ns, annotate_fmt_close, an);
	return 0;
}

/* An unmarked animation (a spring, a fling, a curve without marker) as an animator is. */
static int on_animation_start(void *ctx, const struct animation *an)
{
	PUT((struct sink_annotate *)ctx, an->src_ts_ns, annotate_fmt_animation_start, an);
	return 0;
}

static int on_animation_end(void *ctx, const struct animation *an)
{
	PUT((struct sink_annotate *)ctx, an->src_ts_ns, annotate_fmt_animation_end, an);
	PUT((struct sink_annotate *)ctx, an->src_ts_ns, annotate_fmt_animation_close, an);
	return 0;
}

/* Frames (the capture has the doFrame slices already), notes and annotations (another
 * animtrace's: never written again) are not annotated. */
static int on_frame_props(void *ctx, const struct frame_props *fp)
{
	struct sink_annotate *a = ctx;

	for (int n = 0; n < fp->n_nodes && a->fd >= 0; n++)
		for (int p = 0; p < PROP_COUNT; p++)
			if (fp->nodes[n].set_mask & (1u << p))
				PUT(a, fp->src_ts_ns, annotate_fmt_counter, fp->pid, &fp->nodes[n],
				    p);
	return 0;
}

static int on_jank(void *ctx, const struct jank *j)
{
	PUT((struct sink_annotate *)ctx, j->src_ts_ns, annotate_fmt_jank, j);
	return 0;
}

static int on_dyn_start(void *ctx, const struct dyn_anim *d)
{
	PUT((struct sink_annotate *)ctx, d->src_ts_ns, annotate_fmt_dyn_start, d);
	return 0;
}

static int on_dyn_end(void *ctx, const struct dyn_anim *d)
{
	PUT((struct sink_annotate *)ctx, d->src_ts_ns, annotate_fmt_dyn_end, d);
	PUT((struct sink_annotate *)ctx, d->src_ts_ns, annotate_fmt_dyn_close, d);
	return 0;
}

static int on_cuj(void *ctx, const struct cuj *c)
{
	PUT((struct sink_annotate *)ctx, c->src_ts_ns, annotate_fmt_cuj, c);
	return 0;
}

/* Before the end of what it concerns: inside that animator's slice. */
static int on_finding(void *ctx, const struct finding *f)
{
	PUT((struct sink_annotate *)ctx, f->src_ts_ns, annotate_fmt_finding, f);
	return 0;
}

/* The session is over: slices still open are closed (no source event: no delay), then the
 * summary gets the delays of every annotation, those closes included. */
static int on_summary_fill(void *ctx, struct summary *s)
{
	struct sink_annotate *a = ctx;

	for (int i = 0; i < s->n_running; i++)
		PUT(a, 0, annotate_fmt_close, &s->running[i]);
	sink_annotate__delay(a, &a->delay);
	s->annot_delay = &a->delay;
	return 0;
}

static const struct sink_ops annotate_ops = {
	.anim_start = on_anim_start,
	.anim_end = on_anim_end,
	.animation_start = on_animation_start,
	.animation_end = on_animation_end,
	.frame_props = on_frame_props,
	.jank = on_jank,
	.summary_fill = on_summary_fill,
	.dyn_start = on_dyn_start,
	.dyn_end = on_dyn_end,
	.finding = on_finding,
	.cuj = on_cuj,
};

/* ---- lifecycle ------------------------------------------------------------------------- */

struct sink_annotate *sink_annotate__new(annotate_warn_fn warn, void *ctx)
{
	struct sink_annotate *a = calloc(1, sizeof(*a));

	if (!a) {
		errno = ENOMEM;
		return NULL;
	}
	a->fd = -1;
	a->warn = warn;
	a->ctx = ctx;
	a->rng = 0x9e3779b97f4a7c15ULL;
	a->samples = malloc(DELAY_SAMPLES * sizeof(*a->samples)); /* NULL: max only */
	return a;
}

int sink_annotate__open(struct sink_annotate *a, const char *path)
{
	struct stat st;
	int err;

	snprintf(a->path, sizeof(a->path), "%s", path);
	a->fd = open(path, O_WRONLY | O_CLOEXEC);
	if (a->fd < 0 || fstat(a->fd, &st)) {
		err = -errno;
		a->fd = a->fd < 0 ? -1 : (close(a->fd), -1);
		if (a->warn)
			a->warn(a->ctx, err, a->path);
		return err;
	}
	a->dev = st.st_dev;
	a->ino = st.st_ino;
	return 0;
}

void sink_annotate__check(struct sink_annotate *a)
{
	struct stat st;

	if (a->fd < 0)
		return;
	if (stat(a->path, &st))
		stop(a, -errno);
	else if (st.st_dev != a->dev || st.st_ino != a->ino)
		stop(a, -ENODEV);
}

struct sink sink_annotate__sink(struct sink_annotate *a)
{
	return (struct sink){ .ops = &annotate_ops, .ctx = a };
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* Nearest rank: the smallest value with at least p% of the samples at or below it. */
static uint64_t rank(const uint32_t *v, size_t n, unsigned int p)
{
	size_t k = (n * p + 99) / 100;

	return n ? v[k ? k - 1 : 0] : 0;
}

void sink_annotate__delay(const struct sink_annotate *a, struct annot_delay *out)
{
	uint32_t *v = a->n_samples ? malloc(a->n_samples * sizeof(*v)) : NULL;

	memset(out, 0, sizeof(*out));
	out->count = a->written;
	out->max_ns = a->max_ns;
	if (!v)
		return;
	memcpy(v, a->samples, a->n_samples * sizeof(*v));
	qsort(v, a->n_samples, sizeof(*v), cmp_u32);
	out->p50_ns = rank(v, a->n_samples, 50);
	out->p99_ns = rank(v, a->n_samples, 99);
	free(v);
}

uint64_t sink_annotate__unrecorded(const struct sink_annotate *a)
{
	return a->unrecorded;
}

void sink_annotate__free(struct sink_annotate *a)
{
	if (!a)
		return;
	if (a->fd >= 0)
		close(a->fd);
	free(a->samples);
	free(a);
}

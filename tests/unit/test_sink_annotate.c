// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * sink_annotate: the exact markers it writes, their scaling and sanitising, that every one
 * of them parses with marker_parse and replays through the engine as an annotation (never
 * an animator), that each delay is measured from its record's source event, and that a
 * failed trace_marker stops annotating with one warning.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "engine/engine.h"
#include "common/marker.h"
#include "perfetto_rules.h"
#include "sinks/animname.h"
#include "sinks/annotate.h"
#include "sinks/fanout.h"

#define BAR AT_ANNOT_SEP

#define TGID 4242
#define COOKIE 168950273 /* the simulator's animator:alpha */
#define NODE 0x55d0a2b380e0ULL

static struct anim alpha_anim(void)
{
	struct anim a = { .id = COOKIE, .kind = ANIM_OBJECT, .n_props = 1, .pid = TGID };

	snprintf(a.name, sizeof(a.name), "animator:alpha");
	snprintf(a.props[0], sizeof(a.props[0]), "alpha");
	a.start_ns = 1000000000ULL;
	a.end_ns = a.start_ns + 283333333ULL;
	a.frames = 18;
	a.reason = END_COMPLETE;
	a.target_node = NODE;
	snprintf(a.target_name, sizeof(a.target_name), "RenderNode@80e0");
	a.n_changes = 1;
	a.changes[0] = (struct prop_change){ PROP_ALPHA, 1.0f, 0.0f };
	return a;
}

/*
 * The marker parsed by animtrace's own parser and by Perfetto's rules, which must agree: the
 * same type, tgid, track, name (whole: no '|' cut it) and cookie or value.
 */
static struct marker parsed(const char *buf, size_t len)
{
	struct marker m;
	struct pf_point p;

	cr_assert_eq(marker_parse(buf, len, &m), 0, "does not parse: %.*s", (int)len, buf);
	cr_assert_eq(pf_parse(buf, len, &p), PF_SUCCESS, "Perfetto refuses %.*s", (int)len, buf);
	cr_assert_eq(p.phase, (char)m.type);
	cr_assert_eq(p.tgid, (uint32_t)m.tgid);
	cr_assert(p.track.len == m.track.len &&
		  (!p.track.len || !memcmp(p.track.p, m.track.p, p.track.len)));
	if (m.type != MARKER_TRACK_END)
		cr_assert(p.name.len == m.name.len && !memcmp(p.name.p, m.name.p, p.name.len),
			  "Perfetto reads the name \"%.*s\" of %.*s", (int)p.name.len, p.name.p,
			  (int)len, buf);
	if (m.type != MARKER_INSTANT_TRACK)
		cr_assert_eq(p.value, m.value);
	return m;
}

/* The seed name the marker's name holds, read back (what follows it is the caller's). */
static struct animname seed_name(const struct marker *m)
{
	struct animname n;

	cr_assert_gt(animname_parse(m->name.p, m->name.len, &n), 0, "%.*s", (int)m->name.len,
		     m->name.p);
	return n;
}

Test(sink_annotate, alpha_scale_and_rotation_are_scaled_by_1000_and_pixels_are_rounded)
{
	cr_assert_eq(annotate_scale(PROP_ALPHA, 0.5f), 500);
	cr_assert_eq(annotate_scale(PROP_ALPHA, 1.0f - 1.0f / 17.0f), 941);
	cr_assert_eq(annotate_scale(PROP_SCALE_X, 1.25f), 1250);
	cr_assert_eq(annotate_scale(PROP_SCALE_Y, 0.001f), 1);
	cr_assert_eq(annotate_scale(PROP_ROTATION, -45.5f), -45500);
	cr_assert_eq(annotate_scale(PROP_ROTATION_X, 2.0f), 2000);
	cr_assert_eq(annotate_scale(PROP_ROTATION_Y, 3.0f), 3000);
	cr_assert_eq(annotate_scale(PROP_TRANSLATION_X, 10.6f), 11);
	cr_assert_eq(annotate_scale(PROP_TRANSLATION_Y, -100.0f), -100);
	cr_assert_eq(annotate_scale(PROP_TRANSLATION_Z, -5.882353f), -6);
	cr_assert_eq(annotate_scale(PROP_ELEVATION, 2.4f), 2);
	cr_assert_eq(annotate_scale(PROP_ALPHA, __builtin_nanf("")), 0);
}

Test(sink_annotate, bars_become_slashes_and_control_bytes_escapes)
{
	char s[64];

	cr_assert_eq(annotate_sanitize(s, sizeof(s), "a|b\nc\rd|\x1b]0;x\x07"), 22);
	cr_assert_str_eq(s, "a/b\\nc\\rd/\\x1b]0;x\\x07");
	cr_assert_eq(annotate_sanitize(s, 6, "ab\x1bc"), 2); /* never half an escape */
	cr_assert_str_eq(s, "ab");
}

/* What the engine's anim_start record holds: the marker's name, not yet its end. */
static struct anim started(struct anim a)
{
	a.end_ns = 0;
	a.reason = END_NONE;
	a.target_node = 0;
	return a;
}

Test(sink_annotate, an_animator_start_is_a_G_on_track_animtrace_named_in_the_seeds_words)
{
	struct anim a = started(alpha_anim());
	char buf[ANNOTATE_MARKER_MAX];
	struct animname nm;
	struct marker m;
	size_t n;

	n = annotate_fmt_start(buf, sizeof(buf), &a);
	cr_assert_str_eq(buf, "G|4242|animtrace|Anim" BAR "168950273" BAR "Obj" BAR "?" BAR
			      "alpha:?->?" BAR "?" BAR "?|168950273");
	cr_assert_eq(n, strlen(buf));
	m = parsed(buf, n);
	cr_assert_eq(m.type, MARKER_TRACK_BEGIN);
	cr_assert_eq(m.tgid, TGID);
	cr_assert(strv_eq(m.track, "animtrace"));
	cr_assert_eq(m.value, COOKIE);
	nm = seed_name(&m);
	cr_assert_eq(nm.id, COOKIE);
	cr_assert_str_eq(nm.type, "Obj");
	cr_assert_str_eq(nm.props[0].name, "alpha");
}

Test(sink_annotate, an_animator_end_is_an_instant_with_its_whole_name_and_its_end_then_an_H)
{
	struct anim a = alpha_anim();
	char buf[ANNOTATE_MARKER_MAX];
	struct animname nm;
	struct marker m;
	size_t n;

	a.frames_dropped = 2;
	a.interpolator = "FastOutSlowIn";
	n = annotate_fmt_end(buf, sizeof(buf), &a);
	cr_assert_str_eq(buf, "N|4242|animtrace|Anim" BAR "168950273" BAR "Obj" BAR
			      "RenderNode@80e0" BAR "alpha:1->0" BAR "FastOutSlowIn" BAR
			      "283.333ms" BAR "end complete 18 frames 2 dropped");
	m = parsed(buf, n);
	cr_assert_eq(m.type, MARKER_INSTANT_TRACK);
	cr_assert(strv_eq(m.track, "animtrace"));
	nm = seed_name(&m);
	cr_assert_str_eq(nm.target, "RenderNode@80e0");
	cr_assert(nm.props[0].from.v == 1.0 && nm.props[0].to.v == 0.0);
	cr_assert_str_eq(nm.interp, "FastOutSlowIn");
	cr_assert_eq(nm.duration_ns, 283333000ULL);
	n = annotate_fmt_close(buf, sizeof(buf), &a);
	cr_assert_str_eq(buf, "H|4242|animtrace|168950273");
	m = parsed(buf, n);
	cr_assert_eq(m.type, MARKER_TRACK_END);
	cr_assert(strv_eq(m.track, "animtrace"));
	cr_assert_eq(m.value, COOKIE);
	a.start_ns = 0; /* cancelled before it started: no slice to close */
	cr_assert_eq(annotate_fmt_close(buf, sizeof(buf), &a), 0);
}

Test(sink_annotate, a_value_animator_without_target_and_a_negative_cookie)
{
	struct anim a = { .id = (uint64_t)-42,
			  .kind = ANIM_VALUE,
			  .pid = TGID,
			  .start_ns = 1,
			  .end_ns = 1 + 5000000,
			  .reason = END_CANCEL,
			  .frames = 1 };
	struct anim s = started(a);
	char buf[ANNOTATE_MARKER_MAX];

	parsed(buf, annotate_fmt_start(buf, sizeof(buf), &s));
	cr_assert_str_eq(buf, "G|4242|animtrace|Anim" BAR "-42" BAR "Val" BAR "?" BAR "?" BAR
			      "?" BAR "?|-42");
	parsed(buf, annotate_fmt_end(buf, sizeof(buf), &a));
	cr_assert_str_eq(buf, "N|4242|animtrace|Anim" BAR "-42" BAR "Val" BAR "?" BAR "?" BAR
			      "?" BAR "5ms" BAR "end cancel 1 frames 0 dropped");
	parsed(buf, annotate_fmt_close(buf, sizeof(buf), &a));
	cr_assert_str_eq(buf, "H|4242|animtrace|-42");
}

Test(sink_annotate, a_counter_is_V_node_property_with_the_scaled_value)
{
	struct node_props np = { .node = NODE,
				 .set_mask = 1u << PROP_ALPHA | 1u << PROP_TRANSLATION_Y };
	char buf[ANNOTATE_MARKER_MAX];
	struct marker m;

	snprintf(np.node_name, sizeof(np.node_name), "NotificationRow");
	np.values[PROP_ALPHA] = 0.9411765f;
	np.values[PROP_TRANSLATION_Y] = -5.882353f;
	m = parsed(buf, annotate_fmt_counter(buf, sizeof(buf), TGID, &np, PROP_ALPHA));
	cr_assert_str_eq(buf, "C|4242|V" BAR "NotificationRow@80e0" BAR "alpha|941");
	cr_assert_eq(m.type, MARKER_COUNTER);
	cr_assert(strv_eq(m.name, "V" BAR "NotificationRow@80e0" BAR "alpha"));
	cr_assert_eq(m.value, 941);
	cr_assert_str_eq(seed_name(&m).target, "NotificationRow@80e0");
	parsed(buf, annotate_fmt_counter(buf, sizeof(buf), TGID, &np, PROP_TRANSLATION_Y));
	cr_assert_str_eq(buf, "C|4242|V" BAR "NotificationRow@80e0" BAR "translationY|-6");
}

Test(sink_annotate, names_with_bars_and_newlines_are_escaped_and_come_back_whole)
{
	struct anim a = started(alpha_anim());
	struct node_props np = { .node = NODE, .set_mask = 1u << PROP_ALPHA };
	char buf[ANNOTATE_MARKER_MAX];
	struct animname nm;
	struct marker m;

	snprintf(a.props[0], sizeof(a.props[0]), "al|pha\n");
	a.target_node = NODE;
	snprintf(a.target_name, sizeof(a.target_name), "Row|x\n");
	m = parsed(buf, annotate_fmt_start(buf, sizeof(buf), &a));
	cr_assert_str_eq(buf,
			 "G|4242|animtrace|Anim" BAR "168950273" BAR "Obj" BAR "Row%7Cx%0A@80e0" BAR
			 "al%7Cpha%0A:?->?,alpha:1->0" BAR "?" BAR "?|168950273");
	cr_assert(strv_eq(m.track, "animtrace"));
	cr_assert_eq(m.value, COOKIE);
	nm = seed_name(&m);
	cr_assert_str_eq(nm.target, "Row|x\n@80e0");
	cr_assert_str_eq(nm.props[0].name, "al|pha\n");
	snprintf(np.node_name, sizeof(np.node_name), "A|B\r");
	m = parsed(buf, annotate_fmt_counter(buf, sizeof(buf), TGID, &np, PROP_ALPHA));
	cr_assert_str_eq(buf, "C|4242|V" BAR "A%7CB%0D@80e0" BAR "alpha|0");
	cr_assert_str_eq(seed_name(&m).target, "A|B\r@80e0");
}

static struct animation spring(void)
{
	struct animation a = { .id = 3,
			       .ended = true,
			       .kind = FIT_SPRING,
			       .reason = END_COMPLETE,
			       .pid = TGID,
			       .tid = TGID,
			       .node = NODE,
			       .n_props = 1,
			       .start_ns = 5000000000ULL,
			       .duration_ns = 733333333ULL,
			       .frames = 44 };

	snprintf(a.node_name, sizeof(a.node_name), "ImageView");
	a.props[0] = (struct animation_prop){ .prop = PROP_TRANSLATION_Y,
					      .from = 0.0f,
					      .to = -100.0f,
					      .frames = 44,
					      .fitted = true };
	a.props[0].fit = (struct fit_result){ .kind = FIT_SPRING,
					      .stiffness = 199.98734,
					      .damping_ratio = 0.8 };
	return a;
}

Test(sink_annotate, a_spring_and_a_fling_are_slices_of_their_own_cookies_named_at_their_end)
{
	struct animation a = spring(), st = a;
	char buf[ANNOTATE_MARKER_MAX];
	struct animname nm;
	struct marker m;

	st.ended = false;
	st.kind = FIT_OTHER;
	st.props[0].fitted = false;
	m = parsed(buf, annotate_fmt_animation_start(buf, sizeof(buf), &st));
	cr_assert_str_eq(buf, "G|4242|animtrace|Anim" BAR "3" BAR "Unmarked" BAR
			      "ImageView@80e0" BAR "translationY:0->?" BAR "?" BAR "?|4294967299");
	cr_assert_eq(m.value, ANNOTATE_ANIMATION_COOKIE + 3);
	m = parsed(buf, annotate_fmt_animation_end(buf, sizeof(buf), &a));
	cr_assert_str_eq(buf, "N|4242|animtrace|Spring" BAR "3" BAR "ImageView@80e0" BAR
			      "translationY" BAR "s=199.987,d=0.8" BAR "0->-100" BAR
			      "end complete 44 frames 0 dropped");
	nm = seed_name(&m);
	cr_assert_eq(nm.kind, ANIMNAME_SPRING);
	cr_assert(nm.stiffness.v == 199.987 && nm.damping.v == 0.8);
	parsed(buf, annotate_fmt_animation_close(buf, sizeof(buf), &a));
	cr_assert_str_eq(buf, "H|4242|animtrace|4294967299");
	a.kind = a.props[0].fit.kind = FIT_FLING;
	a.props[0].fit.friction_scalar = 1.5;
	a.props[0].fit.start_velocity = -2000;
	m = parsed(buf, annotate_fmt_animation_end(buf, sizeof(buf), &a));
	cr_assert_str_eq(buf, "N|4242|animtrace|Fling" BAR "3" BAR "ImageView@80e0" BAR
			      "translationY" BAR "f=1.5" BAR "v0=-2000" BAR
			      "end complete 44 frames 0 dropped");
	cr_assert_eq(seed_name(&m).kind, ANIMNAME_FLING);
}

Test(sink_annotate, a_long_name_is_cut_at_a_utf8_boundary_to_fit_1024_bytes)
{
	struct jank j = { .kind = JANK_LATE,
			  .pid = TGID,
			  .frame_seq = 7,
			  .duration_ns = 20100000,
			  .ui.n = AT_CHAIN_MAX,
			  .render.n = AT_CHAIN_MAX };
	char buf[ANNOTATE_MARKER_MAX], small[40];
	size_t n;

	for (int i = 0; i < AT_CHAIN_MAX; i++) {
		/* 47 bytes of two-byte characters and one ASCII byte: cuts fall mid-character */
		memset(j.ui.s[i].name, 0, sizeof(j.ui.s[i].name));
		for (int k = 0; k + 2 < AT_SLICE_NAME; k += 2)
			memcpy(j.ui.s[i].name + k, "\xc3\xa9", 2);
		j.ui.s[i].dur_ns = 1000000;
		j.render.s[i] = j.ui.s[i];
	}
	n = annotate_fmt_jank(buf, sizeof(buf), &j);
	cr_assert_lt(n, sizeof(buf));
	parsed(buf, n);
	cr_assert(!strncmp(buf, "N|4242|animtrace|Jank late frame 7 20.1ms: ", 42), "%s", buf);
	n = annotate_fmt_jank(small, sizeof(small), &j);
	cr_assert_lt(n, sizeof(small));
	cr_assert_str_eq(small, "N|4242|animtrace|Jank late frame 7 20.1");
	j.ui.n = j.render.n = 0;
	j.kind = JANK_BLOCK;
	j.frame_seq = 0;
	annotate_fmt_jank(buf, sizeof(buf), &j);
	cr_assert_str_eq(buf, "N|4242|animtrace|Jank block 20.1ms");
}

/* A CUJ: its name as every output says it (no "J<", ">"; '|' made '/'), its frames, cancelled. */
Test(sink_annotate, formats_a_cuj_as_an_instant_with_its_name_and_frames)
{
	struct cuj c = { .pid = TGID, .ended = true, .frames = 13, .janky_frames = 1 };
	char buf[ANNOTATE_MARKER_MAX + 64];
	struct marker m;

	snprintf(c.name, sizeof(c.name), "SHADE_EXPAND_COLLAPSE");
	annotate_fmt_cuj(buf, sizeof(buf), &c);
	cr_assert_str_eq(
		buf, "N|4242|animtrace|CUJ SHADE_EXPAND_COLLAPSE: 13 frames, 1 janky, 0 dropped");
	m = parsed(buf, strlen(buf));
	cr_assert_eq(m.type, MARKER_INSTANT_TRACK);
	snprintf(c.name, sizeof(c.name), "QS|x::tag");
	c.cancelled = true;
	c.frames = 2;
	c.janky_frames = 0;
	annotate_fmt_cuj(buf, sizeof(buf), &c);
	cr_assert_str_eq(buf, "N|4242|animtrace|CUJ QS/x::tag: 2 frames, 0 janky, 0 dropped, "
			      "cancelled");
}

/* ---- the sink, writing to a file --------------------------------------------------- */

struct seen {
	int starts, ends, frame_props, summaries, warns, last_err;
	uint64_t annotations, anims_started;
	struct annot_delay delay;
	bool has_delay;
};

static int seen_start(void *ctx, const struct anim *a)
{
	((struct seen *)ctx)->starts++;
	return 0;
}

static int seen_end(void *ctx, const struct anim *a)
{
	((struct seen *)ctx)->ends++;
	return 0;
}

static int seen_props(void *ctx, const struct frame_props *fp)
{
	((struct seen *)ctx)->frame_props++;
	return 0;
}

static int seen_summary(void *ctx, const struct summary *s)
{
	struct seen *w = ctx;

	w->summaries++;
	w->annotations = s->annotations;
	w->anims_started = s->anims_started;
	w->has_delay = s->annot_delay != NULL;
	if (s->annot_delay)
		w->delay = *s->annot_delay;
	return 0;
}

static const struct sink_ops seen_ops;

/* a and next behind one fan-out, as main wires the annotate sink and the main output. */
static struct sink wired(struct sink_fanout **fo, struct sink_annotate *a, struct seen *next)
{
	*fo = sink_fanout__new();
	cr_assert_not_null(*fo);
	cr_assert_eq(sink_fanout__add(*fo, sink_annotate__sink(a)), 0);
	cr_assert_eq(sink_fanout__add(*fo, (struct sink){ &seen_ops, next }), 0);
	return sink_fanout__sink(*fo);
}

static const struct sink_ops seen_ops = {
	.anim_start = seen_start,
	.anim_end = seen_end,
	.frame_props = seen_props,
	.summary = seen_summary,
};

static void on_warn(void *ctx, int err, const char *path)
{
	struct seen *w = ctx;

	w->warns++;
	w->last_err = err;
}

static char *temp_path(char *buf, size_t cap)
{
	int fd;

	snprintf(buf, cap, "/tmp/annotate-test-XXXXXX");
	fd = mkstemp(buf);
	cr_assert_geq(fd, 0);
	close(fd);
	return buf;
}

/*
 * One animator over two frames of alpha values, then the end and the summary, as the engine
 * sends them: each record caused by an event at 1 ns (long before any write).
 */
static void feed(struct sink s)
{
	struct anim a = alpha_anim();
	struct node_props np = { .node = NODE, .set_mask = 1u << PROP_ALPHA };
	struct frame_props fp = {
		.pid = TGID, .tid = TGID, .in_frame = true, .n_nodes = 1, .nodes = &np
	};
	struct summary sum = { 0 };

	snprintf(np.node_name, sizeof(np.node_name), "RenderNode@80e0");
	a = started(a);
	a.src_ts_ns = fp.src_ts_ns = 1;
	cr_assert_eq(s.ops->anim_start(s.ctx, &a), 0);
	np.values[PROP_ALPHA] = 1.0f;
	cr_assert_eq(s.ops->frame_props(s.ctx, &fp), 0);
	np.values[PROP_ALPHA] = 0.5f;
	cr_assert_eq(s.ops->frame_props(s.ctx, &fp), 0);
	a = alpha_anim();
	a.src_ts_ns = 1;
	cr_assert_eq(s.ops->anim_end(s.ctx, &a), 0);
	cr_assert_eq(s.ops->summary_fill(s.ctx, &sum), 0);
	cr_assert_eq(s.ops->summary(s.ctx, &sum), 0);
}

static const char *const fed_lines[] = {
	"G|4242|animtrace|Anim" BAR "168950273" BAR "Obj" BAR "?" BAR "alpha:?->?" BAR "?" BAR "?"
	"|168950273",
	"C|4242|V" BAR "RenderNode@80e0" BAR "alpha|1000",
	"C|4242|V" BAR "RenderNode@80e0" BAR "alpha|500",
	"N|4242|animtrace|Anim" BAR "168950273" BAR "Obj" BAR "RenderNode@80e0" BAR "alpha:1->0" BAR
	"?" BAR "283.333ms" BAR "end complete 18 frames 0 dropped",
	"H|4242|animtrace|168950273",
};

/* Replays the file's markers (one per line) through an engine; returns the line count. */
static int replay_lines(const char *path, struct seen *out)
{
	struct engine *e = engine__new(NULL, (struct sink){ &seen_ops, out });
	FILE *f = fopen(path, "r");
	char line[ANNOTATE_MARKER_MAX + 2];
	int n = 0;

	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		struct marker m = parsed(line, strlen(line));

		cr_assert_lt(n, (int)(sizeof(fed_lines) / sizeof(fed_lines[0])));
		cr_assert_eq(strncmp(line, fed_lines[n], strlen(fed_lines[n])), 0, "line %d: %s", n,
			     line);
		engine__marker(e, 1000 + n, TGID, 99, "animtrace", &m);
		n++;
	}
	fclose(f);
	engine__finish(e, 2000, 0, 0);
	engine__free(e);
	return n;
}

Test(sink_annotate, every_annotation_parses_and_replays_as_an_annotation_not_an_animator)
{
	char path[64], lines[2048] = "", lines_want[2048];
	struct seen next = { 0 }, replayed = { 0 };
	struct sink_annotate *a = sink_annotate__new(on_warn, &next);
	struct sink_fanout *fo;
	FILE *f;

	cr_assert_not_null(a);
	cr_assert_eq(sink_annotate__open(a, temp_path(path, sizeof(path))), 0);
	feed(wired(&fo, a, &next));
	sink_fanout__free(fo);
	sink_annotate__free(a);
	cr_assert_eq(next.starts, 1);
	cr_assert_eq(next.ends, 1);
	cr_assert_eq(next.frame_props, 2);
	cr_assert_eq(next.warns, 0);
	cr_assert(next.has_delay);
	cr_assert_eq(next.delay.count, 5);
	cr_assert(next.delay.p50_ns > 0 && next.delay.p50_ns <= next.delay.p99_ns &&
		  next.delay.p99_ns <= next.delay.max_ns);
	/* The markers are written without newlines; one per line here for the reader. */
	cr_assert_not_null(f = fopen(path, "r"));
	cr_assert_gt(fread(lines, 1, sizeof(lines) - 1, f), 0);
	fclose(f);
	lines_want[0] = '\0';
	for (size_t i = 0; i < sizeof(fed_lines) / sizeof(fed_lines[0]); i++)
		strcat(lines_want, fed_lines[i]);
	cr_assert_str_eq(lines, lines_want);
	cr_assert_not_null(f = fopen(path, "w"));
	for (size_t i = 0; i < sizeof(fed_lines) / sizeof(fed_lines[0]); i++)
		fprintf(f, "%s\n", fed_lines[i]);
	fclose(f);
	cr_assert_eq(replay_lines(path, &replayed), 5);
	cr_assert_eq(replayed.annotations, 5);
	cr_assert_eq(replayed.anims_started, 0);
	cr_assert_eq(replayed.starts, 0);
	cr_assert_eq(replayed.frame_props, 0);
	unlink(path);
}

Test(sink_annotate, no_trace_marker_warns_once_and_the_other_sinks_still_get_everything)
{
	struct seen next = { 0 };
	struct sink_annotate *a = sink_annotate__new(on_warn, &next);
	struct sink_fanout *fo;

	cr_assert_eq(sink_annotate__open(a, "/nonexistent/trace_marker"), -ENOENT);
	feed(wired(&fo, a, &next));
	sink_fanout__free(fo);
	sink_annotate__check(a);
	cr_assert_eq(next.warns, 1);
	cr_assert_eq(next.last_err, -ENOENT);
	cr_assert_eq(next.starts, 1);
	cr_assert_eq(next.ends, 1);
	cr_assert_eq(next.frame_props, 2);
	cr_assert_eq(next.summaries, 1);
	cr_assert_eq(next.delay.count, 0);
	sink_annotate__free(a);
}

Test(sink_annotate, a_trace_marker_that_disappears_stops_annotating_with_one_warning)
{
	char path[64];
	struct seen next = { 0 };
	struct sink_annotate *a = sink_annotate__new(on_warn, &next);
	struct sink_fanout *fo;
	struct sink s = wired(&fo, a, &next);
	struct anim an = alpha_anim();

	cr_assert_eq(sink_annotate__open(a, temp_path(path, sizeof(path))), 0);
	sink_annotate__check(a);
	cr_assert_eq(next.warns, 0);
	unlink(path); /* what an unmounted tracefs looks like from here */
	sink_annotate__check(a);
	sink_annotate__check(a);
	s.ops->anim_start(s.ctx, &an);
	cr_assert_eq(next.warns, 1);
	cr_assert_eq(next.last_err, -ENOENT);
	cr_assert_eq(next.starts, 1);
	sink_fanout__free(fo);
	sink_annotate__free(a);
}

/* ---- the delay: from the record's source event, none for the slices closed at exit ---- */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

Test(sink_annotate, each_delay_runs_from_its_records_source_event_and_exit_closes_have_none)
{
	char path[64];
	struct sink_annotate *a = sink_annotate__new(on_warn, NULL);
	struct sink s = sink_annotate__sink(a);
	struct anim an = alpha_anim();
	struct summary sum = { .n_running = 1, .running = &an };
	uint64_t before = mono_ns();

	cr_assert_eq(sink_annotate__open(a, temp_path(path, sizeof(path))), 0);
	an.src_ts_ns = before - 50000000; /* an event 50 ms ago */
	cr_assert_eq(s.ops->anim_start(s.ctx, &an), 0);
	cr_assert_eq(s.ops->summary_fill(s.ctx, &sum), 0); /* its H, with no source */
	cr_assert_not_null(sum.annot_delay);
	cr_assert_eq(sum.annot_delay->count, 2, "the G and the H written at exit");
	cr_assert_geq(sum.annot_delay->max_ns, 50000000);
	cr_assert_leq(sum.annot_delay->max_ns, mono_ns() - an.src_ts_ns);
	/* one sample only (the H has none): every rank is it */
	cr_assert_eq(sum.annot_delay->p50_ns, sum.annot_delay->max_ns);
	cr_assert_eq(sum.annot_delay->p99_ns, sum.annot_delay->max_ns);
	sink_annotate__free(a);
	unlink(path);
}

/*
 * A capture annotated by a build before the seed's names (counters "V <node> <prop>", commit
 * a3af2e2) replays its counters as annotations too; an app's counter that merely starts with
 * a V ("VSYNC-app") stays the app's.
 */
Test(sink_annotate, counters_of_earlier_builds_replay_as_annotations)
{
	static const char *const lines[] = {
		"C|4242|V RenderNode@80e0 alpha|1000",
		"C|4242|V" BAR "RenderNode@80e0" BAR "alpha|500",
		"C|4242|VSYNC-app|1",
	};
	struct seen replayed = { 0 };
	struct engine *e = engine__new(NULL, (struct sink){ &seen_ops, &replayed });

	cr_assert_not_null(e);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct marker m = parsed(lines[i], strlen(lines[i]));

		engine__marker(e, 1000 + i, TGID, 99, "animtrace", &m);
	}
	engine__finish(e, 2000, 0, 0);
	engine__free(e);
	cr_assert_eq(replayed.annotations, 2);
	cr_assert_eq(replayed.frame_props, 0);
}

/* ---- DynamicAnimations and findings ---------------------------------------------------- */

Test(sink_annotate, a_followed_spring_is_a_slice_on_the_track_perfetto_reads_back)
{
	struct dyn_anim d = { .id = 7,
			      .kind = DYN_SPRING,
			      .pid = TGID,
			      .tid = TGID,
			      .start_ns = 1000,
			      .has_target = true,
			      .node = NODE,
			      .prop = PROP_TRANSLATION_Y };
	char buf[ANNOTATE_MARKER_MAX];
	struct marker m;
	struct animname n;

	snprintf(d.node_name, sizeof(d.node_name), "NotifRow");
	d.config = (struct dyn_config){ .has_spring = true,
					.has_state = true,
					.has_value = true,
					.stiffness = 200,
					.damping_ratio = 0.8f,
					.final_position = -100 };
	annotate_fmt_dyn_start(buf, sizeof(buf), &d);
	cr_assert_str_eq(buf, "G|4242|animtrace|Spring" BAR "7" BAR "NotifRow@80e0" BAR
			      "translationY" BAR "s=200,d=0.8" BAR "0->-100|8589934599");
	m = parsed(buf, strlen(buf));
	cr_assert_eq(m.value, ANNOTATE_DYN_COOKIE + 7);
	n = seed_name(&m);
	cr_assert_eq(n.kind, ANIMNAME_SPRING);
	cr_assert_eq(n.id, 7);
	cr_assert_eq(n.props[0].to.v, -100);
	d.ended = true;
	d.reason = END_CANCEL;
	d.frames = 12;
	d.end_ns = 2000;
	annotate_fmt_dyn_end(buf, sizeof(buf), &d);
	cr_assert_str_eq(buf, "N|4242|animtrace|Spring" BAR "7" BAR "NotifRow@80e0" BAR
			      "translationY" BAR "s=200,d=0.8" BAR "0->-100" BAR
			      "end cancel 12 frames probed");
	m = parsed(buf, strlen(buf));
	cr_assert_eq(seed_name(&m).kind, ANIMNAME_SPRING);
	annotate_fmt_dyn_close(buf, sizeof(buf), &d);
	cr_assert_str_eq(buf, "H|4242|animtrace|8589934599");
	m = parsed(buf, strlen(buf));
	cr_assert_eq(m.value, ANNOTATE_DYN_COOKIE + 7);
}

Test(sink_annotate, a_finding_is_an_instant_on_the_track_perfetto_keeps_whole)
{
	struct finding f = { .kind = FINDING_REPLACED,
			     .pid = TGID,
			     .ts_ns = 1000,
			     .n_ids = 2,
			     .ids = { 168950273, 168950274 } };
	char buf[ANNOTATE_MARKER_MAX];
	struct marker m;
	struct pf_point p;

	snprintf(f.text, sizeof(f.text), "#168950273 (alpha|x) was cancelled by #168950274");
	annotate_fmt_finding(buf, sizeof(buf), &f);
	cr_assert_str_eq(buf, "N|4242|animtrace|finding: replaced #168950273,#168950274: "
			      "#168950273 (alpha/x) was cancelled by #168950274");
	m = parsed(buf, strlen(buf));
	cr_assert_eq(m.type, MARKER_INSTANT_TRACK);
	cr_assert_eq(pf_parse(buf, strlen(buf), &p), PF_SUCCESS);
	cr_assert_eq(p.phase, 'N');
	cr_assert(p.track.len == strlen(AT_ANNOT_TRACK) &&
		  !memcmp(p.track.p, AT_ANNOT_TRACK, p.track.len));
	cr_assert(p.name.len == strlen(buf) - strlen("N|4242|animtrace|") &&
		  !memcmp(p.name.p, "finding: replaced", 17));
	f = (struct finding){
		.kind = FINDING_SLOW_SPRING, .pid = TGID, .unmarked = true, .n_ids = 1, .ids = { 3 }
	};
	snprintf(f.text, sizeof(f.text), "settles in 2778 ms");
	annotate_fmt_finding(buf, sizeof(buf), &f);
	cr_assert_str_eq(buf, "N|4242|animtrace|finding: slow_spring animation #3: settles in "
			      "2778 ms");
	parsed(buf, strlen(buf));
}

/* A followed spring and a finding written through the sink replay as annotations only. */
Test(sink_annotate, dyn_and_finding_markers_replay_as_annotations)
{
	static const char *const lines[] = {
		"G|4242|animtrace|Spring" BAR "7" BAR "?" BAR "?" BAR "s=?,d=?" BAR "?->?"
		"|8589934599",
		"N|4242|animtrace|finding: flicker #7: started and cancelled in one frame",
		"N|4242|animtrace|Spring" BAR "7" BAR "?" BAR "?" BAR "s=?,d=?" BAR "?->?" BAR
		"end cancel 1 frames probed",
		"H|4242|animtrace|8589934599",
	};
	struct seen replayed = { 0 };
	struct engine *e = engine__new(NULL, (struct sink){ &seen_ops, &replayed });

	cr_assert_not_null(e);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct marker m = parsed(lines[i], strlen(lines[i]));

		engine__marker(e, 1000 + i, TGID, 99, "animtrace", &m);
	}
	engine__finish(e, 2000, 0, 0);
	engine__free(e);
	cr_assert_eq(replayed.annotations, 4);
	cr_assert_eq(replayed.anims_started, 0);
	cr_assert_eq(replayed.starts, 0);
}

/* Issue #24: with its configuration read at start(), the G already says what the code asked. */
Test(sink_annotate, a_configured_animator_starts_with_its_configured_name)
{
	struct anim a = started(alpha_anim());
	char buf[ANNOTATE_MARKER_MAX];
	struct animname n;
	struct marker m;

	a.config = (struct anim_config){ .known = true,
					 .has_duration = true,
					 .duration_ms = 300,
					 .has_values = true,
					 .n_values = 1,
					 .target_node = 0x7b00a1c03f2cULL };
	snprintf(a.config.interpolator, sizeof(a.config.interpolator), "AccelerateDecelerate");
	snprintf(a.config.target_class, sizeof(a.config.target_class), "android.widget.Button");
	a.config.values[0] = (struct config_value){ "alpha", CONFIG_FLOAT, true, 1, 0 };
	annotate_fmt_start(buf, sizeof(buf), &a);
	cr_assert_str_eq(buf,
			 "G|4242|animtrace|Anim" BAR "168950273" BAR "Obj" BAR "Button@3f2c" BAR
			 "alpha:1->0" BAR "AccelerateDecelerate" BAR "300ms|168950273");
	m = parsed(buf, strlen(buf));
	n = seed_name(&m);
	cr_assert_str_eq(n.interp, "AccelerateDecelerate");
	cr_assert_eq(n.duration_ns, 300000000ULL);
	cr_assert_str_eq(n.target, "Button@3f2c");
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* segment.c: runs of changing frames, their grouping and their end, on exact frame scripts. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "common/caps.h"
#include "fit_sim.h"
#include "engine/segment.h"

#define PERIOD 16666667ull
#define T0 1000000000000ull
#define NODE_A 0x7b0a0000ull
#define NODE_B 0x7b0b0000ull
#define MAX_EV 16

struct rec {
	int n_start, n_end;
	struct animation start[MAX_EV], end[MAX_EV];
	uint64_t start_seq[MAX_EV], end_seq[MAX_EV];
	uint64_t seq; /* the frame being fed */
};

static struct rec rec;
static uint32_t missed[16]; /* vsyncs missed before frame f (index f), from the jank model */

static int on_start(void *ctx, const struct animation *a)
{
	struct rec *r = ctx;

	if (r->n_start < MAX_EV) {
		r->start_seq[r->n_start] = r->seq;
		r->start[r->n_start++] = *a;
	}
	return 0;
}

static int on_end(void *ctx, const struct animation *a)
{
	struct rec *r = ctx;

	if (r->n_end < MAX_EV) {
		r->end_seq[r->n_end] = r->seq;
		r->end[r->n_end++] = *a;
	}
	return 0;
}

static struct segment *seg_new(void)
{
	memset(&rec, 0, sizeof(rec));
	memset(missed, 0, sizeof(missed));
	return segment__new((struct seg_out){ on_start, on_end, &rec });
}

/* Values per frame of one property: the value the frame leaves, or NAN for no write. */
struct track {
	uint64_t node;
	enum view_prop prop;
	float start;
	const float *v;
	bool explained;
};

static float cur[4];

/* Frames 1..n of pid 100 at 60 Hz, each with the tracks' writes that change a value. */
static void feed(struct segment *s, const struct track *t, int n_tracks, int frames)
{
	for (int k = 0; k < n_tracks; k++)
		cur[k] = t[k].start;
	for (int f = 1; f <= frames; f++) {
		struct seg_change c[4];
		int n = 0;

		for (int k = 0; k < n_tracks; k++) {
			if (isnan(t[k].v[f - 1]))
				continue;
			c[n++] = (struct seg_change){ .node = t[k].node,
						      .node_name = "ScrimView",
						      .prop = t[k].prop,
						      .has_before = true,
						      .before = cur[k],
						      .value = t[k].v[f - 1],
						      .explained = t[k].explained };
			cur[k] = t[k].v[f - 1];
		}
		rec.seq = (uint64_t)f;
		cr_assert_eq(segment__frame(s,
					    &(struct seg_frame){ .pid = 100,
								 .tid = 100,
								 .process = "com.example",
								 .seq = f,
								 .missed = f < 16 ? missed[f] : 0,
								 .start_ns = T0 + f * PERIOD,
								 .dur_ns = 2000000,
								 .budget_ns = PERIOD,
								 .n = n,
								 .changes = c }),
			     0);
	}
}

#define N NAN

Test(segment, a_run_starts_at_its_third_change_and_ends_at_the_second_unchanged_frame)
{
	struct segment *s = seg_new();
	static const float v[] = { N, 1, 2, 3, 4, N, N, N };
	struct track t = { NODE_A, PROP_TRANSLATION_X, 0, v, false };

	feed(s, &t, 1, 8);
	cr_assert_eq(rec.n_start, 1);
	cr_assert_eq(rec.start_seq[0], 4, "the third change is in frame 4");
	cr_assert_not(rec.start[0].ended);
	cr_assert_eq(rec.start[0].start_ns, T0 + 1 * PERIOD, "frame 1 wrote the start value");
	cr_assert_eq(rec.n_end, 1);
	cr_assert_eq(rec.end_seq[0], 7, "frames 6 and 7 did not change it");
	cr_assert_eq(rec.end[0].frames, 5, "frames 1 (start value) to 5");
	cr_assert_eq(rec.end[0].duration_ns, 4 * PERIOD);
	cr_assert_eq(rec.end[0].n_props, 1);
	cr_assert_eq(rec.end[0].props[0].from, 0);
	cr_assert_eq(rec.end[0].props[0].to, 4);
	cr_assert_eq(rec.end[0].props[0].frames, 4);
	cr_assert_eq(rec.end[0].reason, END_COMPLETE);
	cr_assert_str_eq(rec.end[0].node_name, "ScrimView");
	segment__free(s);
}

/*
 * The vsyncs an animation missed are the jank model's, counted from time: the segmenter never
 * counts them from vsync ids, which on Android 12+ are FrameTimeline tokens rising by several
 * per vsync (a 55-frame fling showed 394 dropped that way).
 */
Test(segment, an_animation_drops_the_vsyncs_its_frames_missed_in_time)
{
	struct segment *s = seg_new();
	static const float v[] = { N, 1, 2, 3, 4, 5, 6, N, N, N };
	struct track t = { NODE_A, PROP_TRANSLATION_X, 0, v, false };

	missed[4] = 2;
	missed[6] = 1;
	missed[9] = 5; /* after the run ended: not its own */
	feed(s, &t, 1, 10);
	cr_assert_eq(rec.n_end, 1);
	cr_assert_eq(rec.end[0].frames_dropped, 3, "2 before frame 4, 1 before frame 6");
	segment__free(s);
}

Test(segment, one_frame_without_a_change_is_bridged)
{
	struct segment *s = seg_new();
	static const float v[] = { N, 1, 2, N, 3, 4, N, N };
	struct track t = { NODE_A, PROP_TRANSLATION_X, 0, v, false };

	feed(s, &t, 1, 8);
	cr_assert_eq(rec.n_start, 1);
	cr_assert_eq(rec.n_end, 1);
	cr_assert_eq(rec.end[0].props[0].frames, 4);
	cr_assert_eq(rec.end[0].props[0].to, 4);
	cr_assert_eq(rec.end_seq[0], 8);
	segment__free(s);
}

Test(segment, two_frames_without_a_change_split_the_run)
{
	struct segment *s = seg_new();
	static const float v[] = { 1, 2, 3, N, N, 4, 5, 6, N, N };
	struct track t = { NODE_A, PROP_ALPHA, 0, v, false };

	feed(s, &t, 1, 10);
	cr_assert_eq(rec.n_end, 2);
	cr_assert_eq(rec.end[0].props[0].to, 3);
	cr_assert_eq(rec.end[1].props[0].from, 3);
	cr_assert_eq(rec.end[1].props[0].to, 6);
	cr_assert_neq(rec.end[0].id, rec.end[1].id);
	segment__free(s);
}

Test(segment, a_write_of_the_same_value_is_no_change)
{
	struct segment *s = seg_new();
	static const float v[] = { 1, 1, 1, 1, 1, N, N };
	struct track t = { NODE_A, PROP_ALPHA, 0, v, false };

	feed(s, &t, 1, 7);
	cr_assert_eq(rec.n_start, 0, "one change (0 -> 1), then the same value");
	cr_assert_eq(rec.n_end, 0);
	segment__free(s);
}

Test(segment, fewer_than_three_changing_frames_are_no_animation)
{
	struct segment *s = seg_new();
	static const float v[] = { N, 5, 9, N, N, N };
	struct track t = { NODE_A, PROP_TRANSLATION_Y, 0, v, false };

	feed(s, &t, 1, 6);
	segment__finish(s);
	cr_assert_eq(rec.n_start, 0);
	cr_assert_eq(rec.n_end, 0);
	segment__free(s);
}

Test(segment, runs_a_marked_animator_explains_are_its_own)
{
	struct segment *s = seg_new();
	static const float v[] = { N, 1, 2, 3, 4, 5, N, N };
	struct track t = { NODE_A, PROP_ALPHA, 0, v, true };

	feed(s, &t, 1, 8);
	segment__finish(s);
	cr_assert_eq(rec.n_start, 0);
	cr_assert_eq(rec.n_end, 0);
	segment__free(s);
}

Test(segment, runs_of_one_node_that_start_within_a_frame_are_one_animation)
{
	struct segment *s = seg_new();
	static const float x[] = { N, 1, 2, 3, 4, 5, N, N, N };
	static const float y[] = { N, N, 1, 2, 3, 4, N, N, N };
	struct track t[] = { { NODE_A, PROP_TRANSLATION_X, 0, x, false },
			     { NODE_A, PROP_TRANSLATION_Y, 0, y, false } };

	feed(s, t, 2, 9);
	cr_assert_eq(rec.n_start, 1);
	cr_assert_eq(rec.n_end, 1);
	cr_assert_eq(rec.end[0].n_props, 2);
	cr_assert_eq(rec.end[0].props[0].prop, PROP_TRANSLATION_X);
	cr_assert_eq(rec.end[0].props[1].prop, PROP_TRANSLATION_Y);
	cr_assert_eq(rec.end_seq[0], 8);
	segment__free(s);
}

Test(segment, runs_that_start_two_frames_apart_or_on_other_nodes_are_separate)
{
	struct segment *s = seg_new();
	static const float x[] = { N, 1, 2, 3, 4, 5, 6, N, N, N };
	static const float y[] = { N, N, N, 1, 2, 3, 4, N, N, N };
	static const float z[] = { N, 1, 2, 3, 4, 5, 6, N, N, N };
	struct track t[] = { { NODE_A, PROP_TRANSLATION_X, 0, x, false },
			     { NODE_A, PROP_TRANSLATION_Y, 0, y, false },
			     { NODE_B, PROP_TRANSLATION_X, 0, z, false } };

	feed(s, t, 3, 10);
	cr_assert_eq(rec.n_start, 3);
	cr_assert_eq(rec.n_end, 3);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(rec.end[i].n_props, 1);
	segment__free(s);
}

Test(segment, a_member_that_stops_long_before_the_others_is_an_animation_of_its_own)
{
	struct segment *s = seg_new();
	static const float x[] = { N, 1, 2, 3, N, N, N, N, N, N, N, N, N, N };
	static const float y[] = { N, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, N, N, N };
	struct track t[] = { { NODE_A, PROP_TRANSLATION_X, 0, x, false },
			     { NODE_A, PROP_TRANSLATION_Y, 0, y, false } };

	feed(s, t, 2, 14);
	cr_assert_eq(rec.n_start, 2, "the group's, then x's own");
	cr_assert_eq(rec.n_end, 2);
	cr_assert_eq(rec.end[0].n_props, 1);
	cr_assert_eq(rec.end[0].props[0].prop, PROP_TRANSLATION_X);
	cr_assert_eq(rec.end[1].n_props, 1);
	cr_assert_eq(rec.end[1].props[0].prop, PROP_TRANSLATION_Y);
	cr_assert_eq(rec.end[1].id, rec.start[0].id, "the group keeps its id");
	segment__free(s);
}

Test(segment, the_session_end_and_the_process_exit_end_running_animations)
{
	struct segment *s = seg_new();
	static const float v[] = { N, 1, 2, 3, 4 };
	struct track t = { NODE_A, PROP_ALPHA, 0, v, false };

	feed(s, &t, 1, 5);
	cr_assert_eq(segment__process_exit(s, 100), 0);
	cr_assert_eq(rec.n_end, 1);
	cr_assert_eq(rec.end[0].reason, END_PROCESS_EXIT);
	feed(s, &t, 1, 5);
	cr_assert_eq(segment__finish(s), 0);
	cr_assert_eq(rec.n_end, 2);
	cr_assert_eq(rec.end[1].reason, END_RUNNING_AT_EXIT);
	segment__free(s);
}

Test(segment, a_framework_spring_is_fitted_as_a_spring)
{
	struct segment *s = seg_new();
	struct sim_clock c = sim_clock_at(60, 0, 0, 3);
	struct sim_spring sp = { 200, 0.5f, 0, 300, 0, SIM_PIXELS };
	struct fit_sample smp[SIM_MAX];
	static float v[SIM_MAX];
	size_t n = sim_spring(&sp, &c, smp, SIM_MAX);
	struct track t = { NODE_A, PROP_TRANSLATION_Y, 0, v, false };
	uint64_t counts[FIT_OTHER + 1];
	const struct animation *longest;
	int n_longest;

	for (size_t i = 0; i < n; i++)
		v[i] = (float)smp[i].v;
	v[n] = v[n + 1] = v[n + 2] = NAN;
	feed(s, &t, 1, (int)n + 3);
	cr_assert_eq(rec.n_end, 1);
	cr_assert_eq(rec.end[0].kind, FIT_SPRING);
	cr_assert(rec.end[0].props[0].fitted);
	cr_assert_float_eq(rec.end[0].props[0].fit.stiffness, 200, 10);
	cr_assert_float_eq(rec.end[0].props[0].fit.damping_ratio, 0.5, 0.025);
	cr_assert_float_eq(rec.end[0].props[0].fit.final_position, 300, 0.5);
	cr_assert_gt(n, (size_t)CAP_SEG_SAMPLES / 2, "long enough to be downsampled or near it");
	segment__stats(s, counts, &longest, &n_longest);
	cr_assert_eq(counts[FIT_SPRING], 1);
	cr_assert_eq(n_longest, 1);
	cr_assert_eq(longest[0].id, rec.end[0].id);
	segment__free(s);
}

Test(segment, a_run_longer_than_the_sample_cap_keeps_its_first_and_last_values)
{
	struct segment *s = seg_new();
	static float v[300];
	struct track t = { NODE_A, PROP_TRANSLATION_X, 0, v, false };

	for (int i = 0; i < 297; i++)
		v[i] = (float)(i + 1);
	v[297] = v[298] = v[299] = NAN;
	feed(s, &t, 1, 300);
	cr_assert_eq(rec.n_end, 1);
	cr_assert_eq(rec.end[0].props[0].frames, 297);
	cr_assert_eq(rec.end[0].props[0].from, 0);
	cr_assert_eq(rec.end[0].props[0].to, 297);
	cr_assert(rec.end[0].props[0].fitted);
	cr_assert_eq(rec.end[0].props[0].fit.final_value, 297, "the last sample is kept");
	cr_assert_eq(rec.end[0].props[0].fit.start_value, 1,
		     "and the first (frame 1: no frame before it)");
	segment__free(s);
}

Test(segment, runs_beyond_the_cap_are_counted_not_followed)
{
	struct segment *s = seg_new();
	static struct seg_change c[CAP_SEG_RUNS + 5];

	for (int f = 1; f <= 2; f++) {
		for (int i = 0; i < CAP_SEG_RUNS + 5; i++)
			c[i] = (struct seg_change){ .node = 0x1000 + i,
						    .prop = PROP_ALPHA,
						    .has_before = true,
						    .before = (float)f,
						    .value = (float)f + 1 };
		segment__frame(s, &(struct seg_frame){ .pid = 1,
						       .seq = f,
						       .start_ns = T0 + f * PERIOD,
						       .n = CAP_SEG_RUNS + 5,
						       .changes = c });
	}
	cr_assert_eq(segment__evicted(s), 10, "5 turned away in each frame");
	segment__free(s);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An animator's values: from -> to is its first written value -> its last, the interpolator is
 * fitted with or without the ART probes, an F in the frame of its S is "first_frame" (never
 * force_end without a probe), and an inferred target is never another animator's exact node.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "engine/engine.h"

#define MS 1000000ull
#define PID 10
#define NODE_A 0x7b0a51c0ull
#define NODE_B 0x7b0a9e08ull
#define MAX 8

static struct anim ends[MAX];
static int n_ends;
static struct engine *eng;

static int on_end(void *ctx, const struct anim *a)
{
	if (n_ends < MAX) {
		ends[n_ends] = *a;
		ends[n_ends++].targets = NULL;
	}
	return 0;
}

static const struct sink_ops ops = { .anim_end = on_end };

static void setup(void)
{
	memset(ends, 0, sizeof(ends));
	n_ends = 0;
	eng = engine__new(NULL, (struct sink){ &ops, NULL });
	cr_assert_not_null(eng);
}

static void teardown(void)
{
	engine__free(eng);
}

TestSuite(values, .init = setup, .fini = teardown);

static void mark(uint64_t ts, char type, const char *name, int64_t cookie)
{
	struct marker m = { .type = (enum marker_type)type, .tgid = PID };

	m.name.p = name ? name : "";
	m.name.len = name ? strlen(name) : 0;
	m.value = cookie;
	engine__marker(eng, ts, PID, PID, "com.example.anim", &m);
}

static void set(uint64_t ts, uint64_t node, enum view_prop p, float v)
{
	engine__prop(eng, ts, PID, PID, node, "Row", p, v, NULL);
}

/* Frame f (from 1) at f * 16 ms; its animation phase runs [t+1, t+8] ms. */
static uint64_t frame_open(int f)
{
	uint64_t t = (uint64_t)f * 16 * MS;

	mark(t, 'B', "Choreographer#doFrame", 0);
	mark(t + 1 * MS, 'B', "animation", 0);
	return t;
}

static void frame_close(uint64_t t)
{
	mark(t + 8 * MS, 'E', NULL, 0);
	mark(t + 10 * MS, 'E', NULL, 0);
}

/* A 0 -> 1 fade of alpha on A (at 1 before) over frames 1..5; art: with animateValue probes. */
static void fade_in(bool art)
{
	if (art)
		engine__art_active(eng, PID, 0);
	set(1 * MS, NODE_A, PROP_ALPHA, 1.0f);
	for (int f = 1; f <= 5; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		if (art)
			engine__art_animate(eng, t + 3 * MS, PID, PID, true, 7);
		set(t + 4 * MS, NODE_A, PROP_ALPHA, (float)(f - 1) / 4.0f);
		if (f == 5)
			mark(t + 5 * MS, 'F', "animator:alpha", 7);
		frame_close(t);
	}
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_ends, 1);
}

Test(values, a_fade_from_0_to_1_on_a_view_at_1_reports_0_to_1_and_its_interpolator)
{
	fade_in(false);
	cr_assert_eq(ends[0].reason, END_ENDED);
	cr_assert_eq(ends[0].target_node, NODE_A);
	cr_assert(ends[0].target_inferred);
	cr_assert_eq(ends[0].changes[0].from, 0.0f);
	cr_assert_eq(ends[0].changes[0].to, 1.0f);
	cr_assert_not_null(ends[0].interpolator);
}

Test(values, with_the_art_probes_the_fade_reports_0_to_1_and_its_interpolator_too)
{
	fade_in(true);
	cr_assert_eq(ends[0].reason, END_COMPLETE);
	cr_assert_eq(ends[0].reason_source, REASON_ART);
	cr_assert(ends[0].target_exact);
	cr_assert_eq(ends[0].changes[0].from, 0.0f);
	cr_assert_eq(ends[0].changes[0].to, 1.0f);
	cr_assert_not_null(ends[0].interpolator, "fitted whether attribution is exact or not");
}

Test(values, a_first_write_seen_after_the_first_frame_starts_from_the_nodes_value)
{
	set(1 * MS, NODE_A, PROP_ALPHA, 1.0f);
	for (int f = 1; f <= 5; f++) {
		uint64_t t = frame_open(f);

		if (f == 1)
			mark(t + 2 * MS, 'S', "animator:alpha", 7);
		else /* frame 1 wrote 1, unchanged: the setter recorded nothing */
			set(t + 4 * MS, NODE_A, PROP_ALPHA, 1.0f - (float)(f - 1) / 4.0f);
		frame_close(t);
	}
	mark(100 * MS, 'F', "animator:alpha", 7);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(ends[0].changes[0].from, 1.0f);
	cr_assert_eq(ends[0].changes[0].to, 0.0f);
}

Test(values, an_f_in_the_frame_of_its_s_is_first_frame_not_force_end)
{
	uint64_t t = frame_open(1);

	mark(t + 2 * MS, 'S', "animator:alpha", 7);
	frame_close(t);
	mark(t + 12 * MS, 'F', "animator:alpha", 7); /* 10 ms later, no doFrame between */
	t = frame_open(2);
	mark(t + 2 * MS, 'S', "animator:alpha", 8);
	frame_close(t);
	t = frame_open(3);
	frame_close(t);
	mark(t + 12 * MS, 'F', "animator:alpha", 8);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_ends, 2);
	cr_assert_eq(ends[0].reason, END_FIRST_FRAME);
	cr_assert_eq(ends[0].reason_source, REASON_INFERRED);
	cr_assert_eq(ends[1].reason, END_ENDED, "a second frame began");
}

Test(values, an_inferred_target_is_never_a_node_another_animator_wrote_exactly)
{
	uint64_t t;

	engine__art_active(eng, PID, 0);
	t = frame_open(1);
	mark(t + 2 * MS, 'S', "animator:alpha", 7);
	mark(t + 2 * MS, 'S', "animator:alpha", 8);
	engine__art_animate(eng, t + 3 * MS, PID, PID, true, 7);
	set(t + 4 * MS, NODE_A, PROP_ALPHA, 0.5f);
	frame_close(t);
	set(t + 11 * MS, NODE_A, PROP_ALPHA, 0.25f); /* no animator's window: code */
	set(t + 12 * MS, NODE_B, PROP_ALPHA, 0.75f);
	mark(t + 13 * MS, 'F', "animator:alpha", 7);
	mark(t + 13 * MS, 'F', "animator:alpha", 8);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(n_ends, 2);
	cr_assert_eq(ends[0].target_node, NODE_A);
	cr_assert(ends[0].target_exact);
	cr_assert_eq(ends[1].target_node, NODE_B, "not A, animator 7's");
	cr_assert(ends[1].target_inferred);
}

Test(values, an_exact_write_takes_the_node_from_an_animator_that_inferred_it)
{
	uint64_t t;

	engine__art_active(eng, PID, 0);
	t = frame_open(1);
	mark(t + 2 * MS, 'S', "animator:alpha", 7);
	mark(t + 2 * MS, 'S', "animator:alpha", 8);
	frame_close(t);
	set(t + 11 * MS, NODE_A, PROP_ALPHA, 0.25f); /* 8 infers A */
	t = frame_open(2);
	engine__art_animate(eng, t + 3 * MS, PID, PID, true, 7);
	set(t + 4 * MS, NODE_A, PROP_ALPHA, 0.5f);
	frame_close(t);
	mark(t + 13 * MS, 'F', "animator:alpha", 7);
	mark(t + 13 * MS, 'F', "animator:alpha", 8);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(ends[0].target_node, NODE_A);
	cr_assert_eq(ends[1].target_node, 0);
	cr_assert_eq(ends[1].n_changes, 0);
}

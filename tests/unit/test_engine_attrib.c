// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Exact attribution: property writes after an animateValue entry belong to that animator,
 * until its window closes (next animateValue, end of the animation phase, or, outside a
 * phase, the thread's next marker); and the start delay from the start() probe to the S.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "common/caps.h"
#include "engine/engine.h"

#define MS 1000000ull
#define PID 10
#define NODE_A 0x7b0a51c0ull
#define NODE_B 0x7b0a9e08ull
#define NODE_C 0x7b0ac000ull
#define MAX 16

struct arec {
	struct anim ends[MAX], starts[MAX], announced[MAX];
	struct anim_target targets[MAX][CAP_ANIM_TARGETS]; /* deep copies of ends[i].targets */
	struct anim_target ann_targets[MAX][CAP_ANIM_TARGETS];
	int n_ends, n_starts, n_announced;
	struct node_props nodes[64];
	int n_nodes;
};

static struct arec rec;
static struct engine *eng;
static struct evictions evicted;

static void keep(struct anim *dst, struct anim_target *tg, const struct anim *a)
{
	*dst = *a;
	if (a->n_targets)
		memcpy(tg, a->targets, a->n_targets * sizeof(*tg));
	dst->targets = tg;
}

static int on_end(void *ctx, const struct anim *a)
{
	if (rec.n_ends < MAX) {
		keep(&rec.ends[rec.n_ends], rec.targets[rec.n_ends], a);
		rec.n_ends++;
	}
	return 0;
}

static int on_start(void *ctx, const struct anim *a)
{
	if (rec.n_starts < MAX)
		rec.starts[rec.n_starts++] = *a;
	return 0;
}

static int on_target(void *ctx, const struct anim *a)
{
	if (rec.n_announced < MAX) {
		keep(&rec.announced[rec.n_announced], rec.ann_targets[rec.n_announced], a);
		rec.n_announced++;
	}
	return 0;
}

static int on_props(void *ctx, const struct frame_props *fp)
{
	for (int i = 0; i < fp->n_nodes && rec.n_nodes < 64; i++)
		rec.nodes[rec.n_nodes++] = fp->nodes[i];
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	evicted = s->evicted;
	return 0;
}

static const struct sink_ops ops = {
	.summary = on_summary,
	.anim_start = on_start,
	.anim_end = on_end,
	.anim_target = on_target,
	.frame_props = on_props,
};

static void setup(void)
{
	memset(&rec, 0, sizeof(rec));
	eng = engine__new(NULL, (struct sink){ &ops, NULL });
	cr_assert_not_null(eng);
}

static void teardown(void)
{
	engine__free(eng);
}

TestSuite(attrib, .init = setup, .fini = teardown);

static void mark(uint64_t ts, char type, const char *name, int64_t cookie)
{
	struct marker m = { .type = (enum marker_type)type, .tgid = PID };

	m.name.p = name ? name : "";
	m.name.len = name ? strlen(name) : 0;
	m.value = cookie;
	engine__marker(eng, ts, PID, PID, "com.example.anim", &m);
}

static void B(uint64_t ts, const char *name)
{
	mark(ts, 'B', name, 0);
}

static void E(uint64_t ts)
{
	mark(ts, 'E', NULL, 0);
}

static void animate(uint64_t ts, uint32_t cookie)
{
	engine__art_animate(eng, ts, PID, PID, true, cookie);
}

static void set(uint64_t ts, uint64_t node, const char *name, enum view_prop p, float v)
{
	engine__prop(eng, ts, PID, PID, node, name, p, v, NULL);
}

static const struct anim_target *target_of(const struct anim *a, uint64_t node)
{
	for (int i = 0; i < a->n_targets; i++)
		if (a->targets[i].node == node)
			return &a->targets[i];
	return NULL;
}

static const struct anim *end_of(uint64_t id)
{
	for (int i = 0; i < rec.n_ends; i++)
		if (rec.ends[i].id == id)
			return &rec.ends[i];
	cr_assert_fail("no animator_end for %llu", (unsigned long long)id);
	return NULL;
}

static void assert_prop(const struct anim_target *t, enum view_prop p, float from, float to,
			uint32_t sets)
{
	cr_assert_not_null(t);
	for (int i = 0; i < t->n_props; i++) {
		if (t->props[i].prop != p)
			continue;
		cr_assert_float_eq(t->props[i].from, from, 1e-6);
		cr_assert_float_eq(t->props[i].to, to, 1e-6);
		cr_assert_eq(t->props[i].sets, sets);
		return;
	}
	cr_assert_fail("%s not in the target", view_prop_str(p));
}

/*
 * Frame f (from 1) at f * 16 ms: doFrame, then the animation phase in which every listed
 * animator's animateValue is followed by its writes (alpha on A, translationY on B for the
 * listener animator 3; alpha on C for 4).
 */
static void frame(int f, int steps)
{
	uint64_t t = (uint64_t)f * 16 * MS;
	float x = (float)f / (float)steps;

	B(t, "Choreographer#doFrame");
	B(t + 1 * MS, "animation");
	animate(t + 2 * MS, 3);
	set(t + 3 * MS, NODE_A, "Row", PROP_ALPHA, 1.0f - x);
	set(t + 4 * MS, NODE_B, "Scrim", PROP_TRANSLATION_Y, -100.0f * x);
	set(t + 5 * MS, NODE_B, "Scrim", PROP_TRANSLATION_Y, -100.0f * x); /* same value */
	animate(t + 6 * MS, 4);
	set(t + 7 * MS, NODE_C, "Icon", PROP_ALPHA, x);
	E(t + 8 * MS);
	E(t + 9 * MS);
}

Test(attrib, a_listener_animator_gets_both_views_it_wrote_with_exact_from_to_and_sets)
{
	mark(1 * MS, 'S', "animator", 3);
	mark(1 * MS, 'S', "animator:alpha", 4);
	for (int f = 1; f <= 4; f++)
		frame(f, 4);
	mark(100 * MS, 'F', "animator", 3);
	mark(100 * MS, 'F', "animator:alpha", 4);

	const struct anim *va = end_of(3), *oa = end_of(4);

	cr_assert(va->target_exact);
	cr_assert_eq(va->n_targets, 2);
	/* B had 8 writes (two per frame), A 4: B is the main target. */
	cr_assert_eq(va->targets[0].node, NODE_B);
	cr_assert_eq(va->targets[0].writes, 8);
	cr_assert_eq(va->target_node, NODE_B);
	cr_assert_str_eq(va->target_name, "Scrim");
	assert_prop(target_of(va, NODE_A), PROP_ALPHA, 0.75f, 0.0f, 4);
	assert_prop(target_of(va, NODE_B), PROP_TRANSLATION_Y, -25.0f, -100.0f, 4);
	cr_assert_eq(va->targets[0].props[0].series.n, 4, "one point per frame");
	cr_assert_eq(oa->n_targets, 1);
	cr_assert_eq(oa->target_node, NODE_C);
	assert_prop(target_of(oa, NODE_C), PROP_ALPHA, 0.25f, 1.0f, 4);
	cr_assert_eq(oa->n_changes, 1);
	cr_assert_float_eq(oa->changes[0].to, 1.0f, 1e-6);
}

Test(attrib, the_first_frame_with_writes_announces_the_targets_once)
{
	mark(1 * MS, 'S', "animator", 3);
	frame(1, 4);
	frame(2, 4);
	B(60 * MS, "Choreographer#doFrame"); /* flushes frame 2's batch */
	cr_assert_eq(rec.n_announced, 1);
	cr_assert_eq(rec.announced[0].id, 3);
	cr_assert_eq(rec.announced[0].n_targets, 2);
}

Test(attrib, two_animators_on_alpha_of_different_views_are_never_mixed_up)
{
	mark(1 * MS, 'S', "animator:alpha", 4);
	mark(1 * MS, 'S', "animator:alpha", 5);
	B(16 * MS, "Choreographer#doFrame");
	B(17 * MS, "animation");
	animate(18 * MS, 5);
	set(19 * MS, NODE_A, "Row", PROP_ALPHA, 0.5f);
	animate(20 * MS, 4);
	set(21 * MS, NODE_C, "Icon", PROP_ALPHA, 0.25f);
	E(22 * MS);
	E(23 * MS);
	mark(30 * MS, 'F', "animator:alpha", 4);
	mark(30 * MS, 'F', "animator:alpha", 5);
	cr_assert_eq(end_of(4)->target_node, NODE_C);
	cr_assert_eq(end_of(5)->target_node, NODE_A);
	cr_assert_eq(end_of(4)->n_targets, 1);
	cr_assert_eq(end_of(5)->n_targets, 1);
}

Test(attrib, the_window_closes_at_the_end_of_the_animation_phase)
{
	mark(1 * MS, 'S', "animator:alpha", 4);
	B(16 * MS, "Choreographer#doFrame");
	B(17 * MS, "animation");
	animate(18 * MS, 4);
	set(19 * MS, NODE_A, "Row", PROP_ALPHA, 0.5f);
	B(19 * MS, "nested slice"); /* a marker inside the phase keeps the window open */
	E(19 * MS);
	set(20 * MS, NODE_A, "Row", PROP_ALPHA, 0.4f);
	E(21 * MS);
	B(22 * MS, "traversal");
	set(23 * MS, NODE_B, "Scrim", PROP_ALPHA, 0.1f); /* after the phase: nobody's */
	E(24 * MS);
	E(25 * MS);
	mark(30 * MS, 'F', "animator:alpha", 4);
	cr_assert_eq(end_of(4)->n_targets, 1);
	cr_assert_eq(end_of(4)->targets[0].writes, 2);
	cr_assert(!(rec.nodes[1].writer_mask & 1u << PROP_ALPHA), "B's write has no writer");
	cr_assert(rec.nodes[0].writer_mask & 1u << PROP_ALPHA);
	cr_assert_eq(rec.nodes[0].writer[PROP_ALPHA], 4);
}

Test(attrib, outside_a_phase_the_window_closes_at_the_next_marker_of_the_thread)
{
	/* start(): S, then animateValue(0) writes; the next marker ends it. */
	mark(1 * MS, 'S', "animator:alpha", 4);
	animate(2 * MS, 4);
	set(3 * MS, NODE_A, "Row", PROP_ALPHA, 1.0f);
	B(4 * MS, "Choreographer#doFrame");
	set(5 * MS, NODE_B, "Scrim", PROP_ALPHA, 0.3f);
	E(6 * MS);
	mark(30 * MS, 'F', "animator:alpha", 4);
	cr_assert_eq(end_of(4)->n_targets, 1);
	cr_assert_eq(end_of(4)->targets[0].node, NODE_A);
}

Test(attrib, object_animator_calling_value_animator_with_the_same_this_is_one_call)
{
	mark(1 * MS, 'S', "animator:alpha", 4);
	B(16 * MS, "Choreographer#doFrame");
	B(17 * MS, "animation");
	animate(18 * MS, 4); /* ObjectAnimator.animateValue */
	animate(18 * MS, 4); /* ...super.animateValue */
	set(19 * MS, NODE_A, "Row", PROP_ALPHA, 0.5f);
	E(20 * MS);
	E(21 * MS);
	mark(30 * MS, 'F', "animator:alpha", 4);
	cr_assert_eq(end_of(4)->n_targets, 1);
	cr_assert_eq(end_of(4)->targets[0].writes, 1);
	assert_prop(&end_of(4)->targets[0], PROP_ALPHA, 0.5f, 0.5f, 1);
}

Test(attrib, without_animate_value_probes_targets_stay_inferred)
{
	mark(1 * MS, 'S', "animator:alpha", 4);
	B(16 * MS, "Choreographer#doFrame");
	set(17 * MS, NODE_A, "Row", PROP_ALPHA, 0.5f);
	E(18 * MS);
	mark(30 * MS, 'F', "animator:alpha", 4);
	cr_assert(end_of(4)->target_inferred);
	cr_assert(!end_of(4)->target_exact);
	cr_assert_eq(end_of(4)->n_targets, 0);
	cr_assert_eq(end_of(4)->target_node, NODE_A);
}

Test(attrib, the_start_delay_is_the_time_from_start_to_the_s_marker)
{
	engine__art_call(eng, 10 * MS, PID, PID, ART_CALL_START, true, 4);
	mark(310 * MS, 'S', "animator:alpha", 4);
	mark(311 * MS, 'S', "animator", 3); /* no start() seen: no delay */
	mark(400 * MS, 'F', "animator:alpha", 4);
	cr_assert_eq(rec.n_starts, 2);
	cr_assert(rec.starts[0].has_start_delay);
	cr_assert_eq(rec.starts[0].start_delay_ns, 300 * MS);
	cr_assert(!rec.starts[1].has_start_delay);
	cr_assert_eq(end_of(4)->start_delay_ns, 300 * MS);
}

Test(attrib, writes_to_nodes_beyond_the_cap_are_counted_not_kept)
{
	mark(1 * MS, 'S', "animator", 3);
	animate(2 * MS, 3);
	for (int i = 0; i <= CAP_ANIM_TARGETS; i++)
		set(3 * MS, 0x1000 + 0x10 * (uint64_t)i, "V", PROP_ALPHA, 0.5f);
	mark(30 * MS, 'F', "animator", 3);
	cr_assert_eq(end_of(3)->n_targets, CAP_ANIM_TARGETS);
	cr_assert_eq(end_of(3)->targets_left_out, 1);
}

/* The node_props of node in the n-th batch that holds it (from 0), or NULL. */
static const struct node_props *props_of(uint64_t node, int nth)
{
	for (int i = 0; i < rec.n_nodes; i++)
		if (rec.nodes[i].node == node && nth-- == 0)
			return &rec.nodes[i];
	return NULL;
}

static void assert_write(const struct node_props *np, enum view_prop p, int i, float value,
			 enum prop_writer writer, uint64_t anim)
{
	const struct prop_write *w = &np->writes[p][i];

	cr_assert_float_eq(w->value, value, 1e-6, "write %d", i);
	cr_assert_eq(w->writer, writer, "write %d: writer %u", i, w->writer);
	cr_assert_eq(w->anim, anim, "write %d: animator %llu", i, (unsigned long long)w->anim);
}

/*
 * Frame 1 (16 ms): 21761 writes alpha 0.95 on A, 21762 writes 0.517, then the traversal (no
 * window) writes 1. Frame 2 (32 ms): only 21761 writes, 0.9.
 */
static void fight(void)
{
	mark(1 * MS, 'S', "animator:alpha", 21761);
	mark(1 * MS, 'S', "animator:alpha", 21762);
	B(16 * MS, "Choreographer#doFrame");
	B(17 * MS, "animation");
	animate(18 * MS, 21761);
	set(19 * MS, NODE_A, "Row", PROP_ALPHA, 0.95f);
	animate(20 * MS, 21762);
	set(21 * MS, NODE_A, "Row", PROP_ALPHA, 0.517f);
	E(22 * MS);
	B(23 * MS, "traversal");
	set(24 * MS, NODE_A, "Row", PROP_ALPHA, 1.0f);
	E(25 * MS);
	E(26 * MS);
	B(32 * MS, "Choreographer#doFrame");
	B(33 * MS, "animation");
	animate(34 * MS, 21761);
	set(35 * MS, NODE_A, "Row", PROP_ALPHA, 0.9f);
	E(36 * MS);
	E(37 * MS);
	B(48 * MS, "Choreographer#doFrame"); /* flushes frame 2 */
}

Test(attrib, every_write_of_a_frame_is_kept_in_order_with_its_writer)
{
	const struct node_props *np;

	fight();
	np = props_of(NODE_A, 0);
	cr_assert_not_null(np);
	cr_assert_eq(np->sets[PROP_ALPHA], 3);
	cr_assert_eq(np->n_writes[PROP_ALPHA], 3);
	cr_assert_eq(np->writes_left_out[PROP_ALPHA], 0);
	assert_write(np, PROP_ALPHA, 0, 0.95f, WRITER_ANIMATOR, 21761);
	assert_write(np, PROP_ALPHA, 1, 0.517f, WRITER_ANIMATOR, 21762);
	assert_write(np, PROP_ALPHA, 2, 1.0f, WRITER_CODE, 0);
	np = props_of(NODE_A, 1);
	cr_assert_not_null(np);
	cr_assert_eq(np->n_writes[PROP_ALPHA], 1);
	assert_write(np, PROP_ALPHA, 0, 0.9f, WRITER_ANIMATOR, 21761);
}

Test(attrib, the_curve_marks_the_frames_where_others_also_wrote)
{
	const struct prop_series *s1, *s2;

	fight();
	mark(50 * MS, 'F', "animator:alpha", 21761);
	mark(50 * MS, 'F', "animator:alpha", 21762);
	s1 = &end_of(21761)->targets[0].props[0].series;
	s2 = &end_of(21762)->targets[0].props[0].series;
	cr_assert_eq(s1->n, 2);
	cr_assert_eq(s1->shared, 1u, "frame 1 only: %#llx", (unsigned long long)s1->shared);
	cr_assert_eq(s1->shared_frames, 1);
	cr_assert_eq(s2->n, 1);
	cr_assert_eq(s2->shared, 1u);
	cr_assert_eq(s2->shared_frames, 1);
	/* the record's own curve (series of changes[]) carries the same marks */
	cr_assert_eq(end_of(21761)->series[0].shared, 1u);
}

Test(attrib, writes_past_the_cap_keep_the_first_and_the_latest_and_count_the_rest)
{
	const struct node_props *np;

	mark(1 * MS, 'S', "animator:alpha", 4);
	mark(1 * MS, 'S', "animator:alpha", 5);
	B(16 * MS, "Choreographer#doFrame");
	B(17 * MS, "animation");
	for (int i = 0; i < AT_PROP_WRITES + 2; i++) {
		animate(18 * MS, i % 2 ? 5 : 4);
		set(18 * MS, NODE_A, "Row", PROP_ALPHA, 0.1f * (float)(i + 1));
	}
	E(20 * MS);
	E(21 * MS);
	B(32 * MS, "Choreographer#doFrame");
	np = props_of(NODE_A, 0);
	cr_assert_not_null(np);
	cr_assert_eq(np->sets[PROP_ALPHA], AT_PROP_WRITES + 2);
	cr_assert_eq(np->n_writes[PROP_ALPHA], AT_PROP_WRITES);
	cr_assert_eq(np->writes_left_out[PROP_ALPHA], 2);
	assert_write(np, PROP_ALPHA, 0, 0.1f, WRITER_ANIMATOR, 4);
	assert_write(np, PROP_ALPHA, AT_PROP_WRITES - 2, 0.3f, WRITER_ANIMATOR, 4);
	assert_write(np, PROP_ALPHA, AT_PROP_WRITES - 1, 0.6f, WRITER_ANIMATOR, 5);
	engine__finish(eng, 40 * MS, 0, 0);
	cr_assert_eq(evicted.prop_writes, 2, "the summary counts them");
}

Test(attrib, without_windows_in_the_process_a_writer_is_unknown_not_code)
{
	const struct node_props *np;

	B(16 * MS, "Choreographer#doFrame");
	set(17 * MS, NODE_A, "Row", PROP_ALPHA, 0.5f);
	set(18 * MS, NODE_A, "Row", PROP_ALPHA, 0.25f);
	E(19 * MS);
	B(32 * MS, "Choreographer#doFrame");
	np = props_of(NODE_A, 0);
	cr_assert_not_null(np);
	cr_assert_eq(np->n_writes[PROP_ALPHA], 2);
	assert_write(np, PROP_ALPHA, 0, 0.5f, WRITER_UNKNOWN, 0);
	assert_write(np, PROP_ALPHA, 1, 0.25f, WRITER_UNKNOWN, 0);
}

Test(attrib, an_inferred_target_lists_every_node_that_fits_with_its_frames)
{
	const struct anim *a;

	mark(1 * MS, 'S', "animator:alpha", 4);
	for (int f = 1; f <= 3; f++) {
		B((uint64_t)f * 16 * MS, "Choreographer#doFrame");
		set((uint64_t)f * 16 * MS + 1, NODE_A, "Row", PROP_ALPHA, 1.0f - 0.25f * (float)f);
		if (f > 1)
			set((uint64_t)f * 16 * MS + 2, NODE_C, "Icon", PROP_ALPHA,
			    0.25f * (float)f);
		set((uint64_t)f * 16 * MS + 3, NODE_B, "Scrim", PROP_SCALE_X, 0.5f); /* no alpha */
		E((uint64_t)f * 16 * MS + 4);
	}
	mark(60 * MS, 'F', "animator:alpha", 4);
	a = end_of(4);
	cr_assert(a->target_inferred);
	cr_assert_eq(a->target_node, NODE_A);
	cr_assert_eq(a->n_fits, 2);
	cr_assert(!a->fits_more);
	cr_assert_eq(a->fits[0].node, NODE_A);
	cr_assert_str_eq(a->fits[0].node_name, "Row");
	cr_assert_eq(a->fits[0].frames, 3);
	cr_assert_eq(a->fits[1].node, NODE_C);
	cr_assert_eq(a->fits[1].frames, 2);
}

Test(attrib, a_node_another_animator_wrote_exactly_never_fits_an_inferred_target)
{
	const struct anim *a;

	mark(1 * MS, 'S', "animator:alpha", 4); /* inferred: its writes are outside any window */
	mark(1 * MS, 'S', "animator:alpha", 5);
	B(16 * MS, "Choreographer#doFrame");
	set(17 * MS, NODE_C, "Icon", PROP_ALPHA, 0.5f); /* seen first, no window yet */
	set(18 * MS, NODE_A, "Row", PROP_ALPHA, 0.5f);
	B(19 * MS, "animation");
	animate(20 * MS, 5);
	set(21 * MS, NODE_C, "Icon", PROP_ALPHA, 0.25f); /* 5's, exactly */
	E(22 * MS);
	E(23 * MS);
	B(32 * MS, "Choreographer#doFrame");
	set(33 * MS, NODE_A, "Row", PROP_ALPHA, 0.25f);
	E(34 * MS);
	mark(40 * MS, 'F', "animator:alpha", 4);
	a = end_of(4);
	cr_assert(a->target_inferred);
	cr_assert_eq(a->target_node, NODE_A, "C was 5's: %#llx",
		     (unsigned long long)a->target_node);
	cr_assert_eq(a->n_fits, 1);
	cr_assert_eq(a->fits[0].node, NODE_A);
}

Test(attrib, nodes_beyond_the_listed_fits_are_said_to_exist)
{
	mark(1 * MS, 'S', "animator:alpha", 4);
	B(16 * MS, "Choreographer#doFrame");
	for (int i = 0; i <= AT_FITS; i++)
		set(17 * MS, 0x1000 + 0x10 * (uint64_t)i, "V", PROP_ALPHA, 0.5f);
	E(18 * MS);
	mark(30 * MS, 'F', "animator:alpha", 4);
	cr_assert_eq(end_of(4)->n_fits, AT_FITS);
	cr_assert(end_of(4)->fits_more);
}

Test(attrib, a_halved_curve_keeps_the_marks_of_the_frames_it_merges)
{
	const struct prop_series *s;
	const int frames = AT_SERIES_MAX + 6; /* one halving: each point then stands for 2 */

	mark(1 * MS, 'S', "animator:alpha", 4);
	for (int f = 1; f <= frames; f++) {
		uint64_t t = (uint64_t)f * 16 * MS;

		B(t, "Choreographer#doFrame");
		B(t + 1, "animation");
		animate(t + 2, 4);
		set(t + 3, NODE_A, "Row", PROP_ALPHA, 1.0f - (float)f / (float)frames);
		E(t + 4);
		if (f == 2 || f == frames) { /* code writes the row's alpha too */
			B(t + 5, "traversal");
			set(t + 6, NODE_A, "Row", PROP_ALPHA, 0.5f);
			E(t + 7);
		}
		E(t + 8);
	}
	mark((uint64_t)(frames + 1) * 16 * MS, 'F', "animator:alpha", 4);
	s = &end_of(4)->targets[0].props[0].series;
	cr_assert_eq(s->stride, 2);
	cr_assert_eq(s->n, (frames + 1) / 2);
	cr_assert_eq(s->shared_frames, 2);
	/* frame 2 is in point 0 (frames 1-2); the last frame in the last point */
	cr_assert_eq(s->shared, 1ull | 1ull << (s->n - 1), "%#llx", (unsigned long long)s->shared);
}

Test(attrib, without_windows_a_second_write_in_a_frame_marks_an_inferred_curve)
{
	const struct prop_series *s;

	mark(1 * MS, 'S', "animator:alpha", 4);
	for (int f = 1; f <= 3; f++) {
		uint64_t t = (uint64_t)f * 16 * MS;

		B(t, "Choreographer#doFrame");
		set(t + 1, NODE_A, "Row", PROP_ALPHA, 1.0f - 0.25f * (float)f);
		if (f == 2) /* something else sets it too: one ObjectAnimator never does */
			set(t + 2, NODE_A, "Row", PROP_ALPHA, 0.9f);
		E(t + 3);
	}
	mark(60 * MS, 'F', "animator:alpha", 4);
	s = &end_of(4)->series[0];
	cr_assert(end_of(4)->target_inferred);
	cr_assert_eq(s->n, 3);
	cr_assert_eq(s->shared, 1u << 1, "%#llx", (unsigned long long)s->shared);
	cr_assert_eq(s->shared_frames, 1);
}

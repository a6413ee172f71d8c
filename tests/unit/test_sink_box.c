// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Boxed text sink: golden files in tests/golden/ (run with AT_UPDATE_GOLDEN=1 to rewrite
 * them after an intended format change, then review the diff).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "sinks/box.h"

#define S_NS 1000000000ull
#define MS_NS 1000000ull

static struct anim box_anim(uint64_t id, const char *name, uint32_t pid, const char *proc)
{
	struct anim a = { .id = id, .pid = pid, .start_tid = pid, .end_tid = pid };
	const char *p = strchr(name, ':');

	snprintf(a.name, sizeof(a.name), "%s", name);
	snprintf(a.process, sizeof(a.process), "%s", proc);
	a.kind = p ? ANIM_OBJECT : ANIM_VALUE;
	while (p && *p && a.n_props < AT_MAX_PROPS) {
		size_t n = strcspn(++p, ",");

		snprintf(a.props[a.n_props++], sizeof(a.props[0]), "%.*s", (int)n, p);
		p += n;
	}
	return a;
}

/* Frame 12's values (two nodes, alpha written twice) and one change outside any frame. */
static void box_props(struct sink s, bool in_frame)
{
	struct node_props nodes[2] = {
		{ .node = 0x7b0a51c0,
		  .node_name = "NotificationRow",
		  .set_mask = 1u << PROP_ALPHA | 1u << PROP_TRANSLATION_Y },
		{ .node = 0x7b0a9e08, .set_mask = 1u << PROP_SCALE_X | 1u << PROP_ROTATION },
	};
	struct frame_props fp = { .pid = 1234,
				  .tid = 1234,
				  .process = "com.example.anim",
				  .ts_ns = 12400 * MS_NS,
				  .frame_seq = 12,
				  .vsync_id = 3456,
				  .in_frame = true,
				  .n_nodes = 2,
				  .nodes = nodes };

	snprintf(nodes[1].node_name, sizeof(nodes[1].node_name), "RenderNode@9e08");
	nodes[0].values[PROP_ALPHA] = 0.75f;
	nodes[0].sets[PROP_ALPHA] = 2;
	nodes[0].n_writes[PROP_ALPHA] = 2; /* an animator's write, then code's */
	nodes[0].writes[PROP_ALPHA][0] = (struct prop_write){ 0.5f, WRITER_ANIMATOR, 44292905 };
	nodes[0].writes[PROP_ALPHA][1] = (struct prop_write){ 0.75f, WRITER_CODE, 0 };
	nodes[0].values[PROP_TRANSLATION_Y] = -45.0f;
	nodes[0].sets[PROP_TRANSLATION_Y] = 1;
	nodes[1].values[PROP_SCALE_X] = 1.0f / 3;
	nodes[1].sets[PROP_SCALE_X] = 1;
	nodes[1].values[PROP_ROTATION] = -0.0004f;
	nodes[1].sets[PROP_ROTATION] = 1;
	if (!in_frame) {
		fp = (struct frame_props){ .pid = 1234,
					   .tid = 1240,
					   .process = "com.example.anim",
					   .ts_ns = 12420 * MS_NS,
					   .vsync_id = -1,
					   .n_nodes = 1,
					   .nodes = &nodes[1] };
	}
	s.ops->frame_props(s.ctx, &fp);
}

/* A fixed session touching every callback and every reason the engine produces. */
static void box_scenario(struct sink s)
{
	struct anim a = box_anim(44292905, "animator:alpha", 1234, "com.example.anim");
	struct anim b = box_anim(7, "animator", 1234, "com.example.anim");
	struct anim c =
		box_anim(99, "animator:translationX,translationY", 1234, "com.example.anim");
	struct anim d = box_anim(8, "animator", 1300, "");
	struct anim r = box_anim(5, "animator:scaleX", 1234, "com.example.anim");
	const uint64_t ids[] = { 44292905, 7 };
	struct frame f1 = { .pid = 1234,
			    .tid = 1234,
			    .process = "com.example.anim",
			    .seq = 12,
			    .vsync_id = 3456,
			    .start_ns = 12400 * MS_NS,
			    .dur_ns = 16700000,
			    .n_anims = 2,
			    .anim_ids = ids };
	struct frame f2 = { .pid = 1234,
			    .tid = 1234,
			    .process = "com.example.anim",
			    .seq = 13,
			    .vsync_id = -1,
			    .start_ns = 12417 * MS_NS,
			    .dur_ns = 4049999 };
	struct name_stat names[] = {
		{ .name = "animator",
		  .count = 2,
		  .cancels = 1,
		  .total_ns = 300 * MS_NS,
		  .max_ns = 300 * MS_NS,
		  .median_ns = 300 * MS_NS,
		  .frames = 3 },
		{ .name = "animator:alpha",
		  .count = 1,
		  .total_ns = 300 * MS_NS,
		  .max_ns = 300 * MS_NS,
		  .median_ns = 300 * MS_NS,
		  .frames = 18 },
		{ .name = "animator:scaleX", .count = 1, .running = 1, .frames = 60 },
		{ .name = "animator:translationX,translationY",
		  .count = 1,
		  .total_ns = 200000,
		  .max_ns = 200000,
		  .median_ns = 200000 },
	};
	struct frame lf[2] = { f1, f2 };
	struct anim longest[3];
	struct jank jk = { .kind = JANK_LATE,
			   .pid = 1234,
			   .tid = 1234,
			   .process = "com.example.anim",
			   .frame_seq = 12,
			   .vsync_id = 3456,
			   .ts_ns = 12400 * MS_NS,
			   .duration_ns = 16700000,
			   .budget_ns = 11111111,
			   .n_anims = 2,
			   .anim_ids = ids,
			   .ui = { 2,
				   { { "Choreographer#doFrame 3456", 16700000 },
				     { "traversal", 5000000 } } },
			   .render = { 1, { { "DrawFrames 3456", 6200000 } } },
			   .vsync_ns = 12398 * MS_NS,
			   .start_delay_ns = 2 * MS_NS,
			   .deadline_ns = 12398 * MS_NS + 11111111,
			   .start = { 1, { { "addRootView", 2500000 } } },
			   .timeline = { true, 2, 64, "TX - com.example.anim#0" } };
	struct proc_stat ps = { .pid = 1234,
				.process = "com.example.anim",
				.refresh_period_ns = 11111111,
				.refresh_source = "vsync",
				.frames = 2,
				.janky_frames = 1,
				.frames_dropped = 2,
				.n_worst = 1,
				.timeline_agree = 1,
				.worst = { { 44292905, "animator:alpha", 18, 2, 1 } } };
	struct summary sum = { .first_ns = 12 * S_NS,
			       .last_ns = 15 * S_NS,
			       .anims_started = 4,
			       .anims_ended = 4,
			       .frames = 2,
			       .markers = 1000,
			       .markers_rejected = 3,
			       .n_names = 4,
			       .names = names,
			       .n_longest = 3,
			       .longest = longest,
			       .n_running = 1,
			       .running = &r,
			       .n_longest_frames = 2,
			       .longest_frames = lf,
			       .prop_frames = 16,
			       .prop_sets = 43,
			       .prop_sets_max = 5,
			       .n_procs = 1,
			       .procs = &ps };
	/* alpha 1 -> 0 over its frames, with the "fighting" 0.5 of a frame in the middle. */
	static const float curve[] = { 0.94f, 0.88f, 0.5f, 0.76f, 0.59f, 0.41f, 0.24f, 0.06f, 0 };

	a.start_ns = 12345678901ull;
	s.ops->anim_start(s.ctx, &a);
	s.ops->note(s.ctx, "reasons are inferred from markers (ART probes off)");
	f1.phase_ns[PHASE_ANIMATION] = 3100000;
	f1.phase_ns[PHASE_TRAVERSAL] = 5000000;
	f1.phase_ns[PHASE_DRAW] = 6200000;
	box_props(s, true);
	f1.budget_ns = 11111111;
	f1.janky = true;
	s.ops->frame(s.ctx, &f1);
	s.ops->jank(s.ctx, &jk);
	jk.kind = JANK_DROPPED; /* the gap before the next frame */
	jk.frame_seq = 13;
	jk.vsync_id = -1;
	jk.dropped_before = 2;
	jk.ts_ns = 12416700 * 1000ull;
	jk.duration_ns = 33300000;
	jk.n_anims = 1;
	jk.ui = (struct slice_chain){ 1, { { "binder transaction", 30000000 } } };
	jk.render.n = 0;
	f2.budget_ns = 11111111;
	f2.dropped_before = 2;
	s.ops->frame(s.ctx, &f2);
	s.ops->jank(s.ctx, &jk);
	box_props(s, false);
	a.end_ns = a.start_ns + 300 * MS_NS;
	a.frames = 18;
	a.frames_dropped = 2;
	a.janky_frames = 1;
	a.worst_gap_ns = 50000000;
	a.worst_frame_ns = 16700000;
	a.reason = END_ENDED;
	a.target_node = 0x7b0a51c0;
	snprintf(a.target_name, sizeof(a.target_name), "NotificationRow");
	a.target_inferred = true;
	a.n_changes = 1;
	a.changes[0] = (struct prop_change){ PROP_ALPHA, 1.0f, 0.0f };
	a.series[0].n = sizeof(curve) / sizeof(curve[0]);
	memcpy(a.series[0].v, curve, sizeof(curve));

	s.ops->anim_end(s.ctx, &a);
	b.end_tid = 1240;
	b.end_ns = 13 * S_NS;
	b.reason = END_CANCEL_BEFORE_START;
	s.ops->anim_end(s.ctx, &b);
	c.restarts = 2;
	c.start_ns = 13100 * MS_NS;
	c.end_ns = c.start_ns + 200000;
	c.reason = END_FIRST_FRAME;
	s.ops->anim_start(s.ctx, &c);
	c.target_node = 0x7b0a9e08;
	snprintf(c.target_name, sizeof(c.target_name), "RenderNode@9e08");
	c.target_inferred = true;
	c.n_changes = 1;
	c.changes[0] = (struct prop_change){ PROP_TRANSLATION_Y, 0.0f, -100.0f };
	c.series[0].n = 1; /* one value: a flat curve */
	c.series[0].v[0] = -100.0f;
	struct finding fc = { .kind = FINDING_FLICKER,
			      .pid = c.pid,
			      .ts_ns = c.end_ns,
			      .n_ids = 1,
			      .ids = { c.id } };
	snprintf(fc.text, sizeof(fc.text),
		 "%s %llu ended by cancel() or end() before its second "
		 "frame with values (1): started by thread %u (no stack) | ended by thread %u "
		 "(no stack), 0.2 ms later",
		 c.name, (unsigned long long)c.id, c.start_tid, c.end_tid);
	s.ops->finding(s.ctx, &fc);
	s.ops->anim_end(s.ctx, &c);
	d.start_ns = 13200 * MS_NS;
	d.end_ns = 13500 * MS_NS;
	d.end_tid = 0;
	d.frames = 3;
	d.frames_dropped = 1; /* dropped only: no "late" */
	d.worst_gap_ns = 33400000;
	d.reason = END_PROCESS_EXIT;
	s.ops->anim_end(s.ctx, &d);
	r.start_ns = 14 * S_NS;
	r.frames = 60;
	r.reason = END_RUNNING_AT_EXIT;
	struct finding fr = { .kind = FINDING_STALLED,
			      .pid = r.pid,
			      .ts_ns = 15 * S_NS,
			      .n_ids = 1,
			      .ids = { r.id } };
	snprintf(fr.text, sizeof(fr.text),
		 "%s %llu still runs after 1.0 s with no value change "
		 "for the last 1.0 s: paused or leaked",
		 r.name, (unsigned long long)r.id);
	s.ops->finding(s.ctx, &fr);
	struct finding ranked[2] = { fc, fr };
	sum.findings_by_kind[FINDING_FLICKER] = 1;
	sum.findings_by_kind[FINDING_STALLED] = 1;
	sum.n_findings = 2;
	sum.findings = ranked;
	lf[0].dur_ns = 33400000; /* the longest frames, longest first */
	lf[0].n_anims = 0;
	lf[0].anim_ids = NULL;
	lf[1].process[0] = '\0';
	longest[0] = a;
	longest[1] = d;
	longest[2] = c;
	s.ops->summary(s.ctx, &sum);
}

/* Renders the scenario with opts into a malloc'd string. */
static char *box_render(bool color, bool frames, bool utf8)
{
	struct sink_box_opts o = { .color = color, .frames = frames, .utf8 = utf8 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct sink_box *b;

	cr_assert_not_null(out);
	b = sink_box__new(out, &o);
	cr_assert_not_null(b);
	box_scenario(sink_box__sink(b));
	sink_box__free(b);
	fclose(out);
	return buf;
}

static void box_golden(const char *file, const char *got)
{
	char path[256], *want = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "tests/golden/%s", file);
	if (getenv("AT_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		cr_assert_not_null(f, "cannot write %s", path);
		fputs(got, f);
		fclose(f);
		return;
	}
	f = fopen(path, "r");
	cr_assert_not_null(f, "missing %s (AT_UPDATE_GOLDEN=1 creates it)", path);
	n = getdelim(&want, &cap, '\0', f);
	fclose(f);
	cr_assert(n >= 0);
	cr_assert_str_eq(got, want, "%s differs; AT_UPDATE_GOLDEN=1 rewrites it", path);
	free(want);
}

Test(sink_box, utf8_boxes_with_frames_match_the_golden_file)
{
	char *got = box_render(false, true, true);

	box_golden("box_utf8_frames.txt", got);
	free(got);
}

Test(sink_box, ascii_boxes_without_frames_match_the_golden_file)
{
	char *got = box_render(false, false, false);

	box_golden("box_ascii.txt", got);
	free(got);
}

Test(sink_box, colour_output_matches_the_golden_file)
{
	char *got = box_render(true, true, true);

	box_golden("box_color.txt", got);
	free(got);
}

Test(sink_box, colour_off_writes_no_escape_sequences)
{
	char *got = box_render(false, true, true);

	cr_assert_null(strchr(got, '\033'));
	free(got);
}

Test(sink_box, colour_on_paints_begin_green_end_red_or_yellow_and_frames_dim)
{
	char *got = box_render(true, true, true);

	cr_assert_not_null(strstr(got, "\033[32m┌── Begin animator:alpha "));
	cr_assert_not_null(strstr(got, "\033[33m┌── End animator:alpha "));
	cr_assert_not_null(strstr(got, "\033[31m┌── End animator "));
	cr_assert_not_null(strstr(got, "\033[2m│ frame 12 vsync 3456 16.7 ms"));
	free(got);
}

Test(sink_box, ascii_mode_writes_only_ascii)
{
	char *got = box_render(false, true, false);

	for (const char *p = got; *p; p++)
		cr_assert((unsigned char)*p < 0x80, "non-ASCII byte at %zu", (size_t)(p - got));
	cr_assert_not_null(strstr(got, "+-- Begin animator:alpha ---"));
	cr_assert_not_null(strstr(got, "\n`--\n"));
	free(got);
}

Test(sink_box, frames_are_printed_only_when_asked)
{
	char *with = box_render(false, true, true), *without = box_render(false, false, true);

	cr_assert_not_null(strstr(with, "│ frame 12 vsync 3456 16.7 ms late (budget 11.1 ms) "
					"[anim 3.1 traversal 5.0 draw 6.2] anims: 2\n"));
	cr_assert_not_null(strstr(with, "│ frame 13 4.0 ms after 2 dropped anims: 0\n"));
	cr_assert_null(strstr(without, "│ frame 12"));
	free(with);
	free(without);
}

Test(sink_box, control_bytes_in_names_are_escaped_and_cannot_forge_a_line)
{
	struct anim a = box_anim(1, "animator:\033[2Jx", 5, "evil\napp");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct sink_box *b = sink_box__new(out, NULL);
	struct sink s = sink_box__sink(b);

	a.start_ns = 1500 * MS_NS;
	s.ops->anim_start(s.ctx, &a);
	s.ops->note(s.ctx, "two\nlines");
	sink_box__free(b);
	fclose(out);
	cr_assert_str_eq(buf, "+-- Begin animator:\\x1b[2Jx ------------------------------------\n"
			      "| ID:         1\n"
			      "| Type:       ObjectAnimator\n"
			      "| Properties: \\x1b[2Jx\n"
			      "| Process:    evil\\napp (pid 5, tid 5)\n"
			      "| Start:      1.500000 s\n"
			      "`--\n"
			      "note: two\\nlines\n");
	free(buf);
}

Test(sink_box, new_rejects_a_null_stream_and_free_accepts_null)
{
	cr_assert_null(sink_box__new(NULL, NULL));
	sink_box__free(NULL);
}

/* Runs fn against a box sink with frames on (UTF-8, no colour) into a malloc'd string. */
static char *box_run(void (*fn)(struct sink s), bool frames)
{
	struct sink_box_opts o = { .frames = frames, .utf8 = true };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct sink_box *b = sink_box__new(out, &o);

	cr_assert_not_null(b);
	fn(sink_box__sink(b));
	sink_box__free(b);
	fclose(out);
	return buf;
}

/* A fling that ran to its end, its start stack, its fit: the seed tracer's End box. */
static void dyn_fling(struct sink s)
{
	struct dyn_anim a = { .id = 7,
			      .kind = DYN_FLING,
			      .pid = 10,
			      .tid = 10,
			      .obj = 0x12c4,
			      .start_ns = 5000000000ull,
			      .ended = true,
			      .reason = END_COMPLETE,
			      .end_ns = 5400000000ull,
			      .frames = 24,
			      .has_target = true,
			      .node = 0x7b0a51c0,
			      .prop = PROP_TRANSLATION_Y,
			      .from = 0,
			      .to = 480,
			      .fitted = true };

	a.fit = (struct fit_result){
		.kind = FIT_FLING, .friction_scalar = 1.5, .start_velocity = 2000, .rms = 0.1
	};
	snprintf(a.node_name, sizeof(a.node_name), "ListView");
	snprintf(a.start_stack[0], AT_FRAME_NAME, "com.example.list.Scroller.fling");
	a.n_start_stack = 1;
	s.ops->dyn_end(s.ctx, &a);
}

Test(sink_box, a_fling_end_box_says_its_reason_target_and_fitted_friction)
{
	char *buf = box_run(dyn_fling, false);

	cr_assert_not_null(strstr(buf, "Fling Animation End"), "%s", buf);
	cr_assert_not_null(strstr(buf, "│ Reason:        complete\n"), "%s", buf);
	cr_assert_not_null(strstr(buf, "│ Target:        ListView@51c0\n"), "%s", buf);
	cr_assert_not_null(strstr(buf, "│ Property:      translationY\n"), "%s", buf);
	cr_assert_not_null(strstr(buf, "│ Friction:      1.5 (fitted, rms 0.1)\n"), "%s", buf);
	cr_assert_not_null(strstr(buf, "│ Duration:      400.000 ms\n"), "%s", buf);
	free(buf);
}

/* The same fling with what the heap reader read at its start(): read and fitted side by side,
 * in the same unit (the friction scalar, as setFriction takes it). */
static void dyn_fling_read(struct sink s)
{
	struct dyn_anim a = { .id = 8,
			      .kind = DYN_FLING,
			      .pid = 10,
			      .tid = 10,
			      .obj = 0x12c4,
			      .start_ns = 5000000000ull,
			      .ended = true,
			      .reason = END_COMPLETE,
			      .end_ns = 5400000000ull,
			      .frames = 24,
			      .has_target = true,
			      .node = 0x7b0a51c0,
			      .prop = PROP_TRANSLATION_Y,
			      .from = 0,
			      .to = 480,
			      .fitted = true };

	a.fit = (struct fit_result){
		.kind = FIT_FLING, .friction_scalar = 1.49, .start_velocity = 2010, .rms = 0.1
	};
	a.config = (struct dyn_config){ .has_fling = true,
					.has_state = true,
					.has_value = true,
					.friction = 1.5f * DYN_DEFAULT_FRICTION,
					.value = -3,
					.velocity = 2000,
					.min_visible_change = 1 };
	s.ops->dyn_end(s.ctx, &a);
}

Test(sink_box, a_fling_end_box_puts_the_read_friction_beside_the_fitted_one)
{
	char *buf = box_run(dyn_fling_read, false);

	cr_assert_not_null(strstr(buf, "│ Friction:      1.5 (read)\n"), "%s", buf);
	cr_assert_not_null(strstr(buf, "│ StartValue:    -3 (read)\n"), "%s", buf);
	cr_assert_not_null(strstr(buf, "│ StartVelocity: 2000 (read)\n"), "%s", buf);
	cr_assert_not_null(strstr(buf, "│ Friction:      1.49 (fitted, rms 0.1)\n"), "%s", buf);
	free(buf);
}

static struct node_props one_node(uint64_t node, const char *name, enum view_prop p, float v,
				  uint16_t sets)
{
	struct node_props np = { .node = node, .set_mask = 1u << p };

	snprintf(np.node_name, sizeof(np.node_name), "%s", name);
	np.values[p] = v;
	np.sets[p] = sets;
	return np;
}

/* Two processes: each frame's values wait for that frame's own line. */
static void two_pid_scenario(struct sink s)
{
	struct node_props a = one_node(0x1234abcd, "Row\033", PROP_ALPHA, 0.5f, 1);
	struct node_props b = one_node(0x5678, "", PROP_TRANSLATION_X, -12.3456f, 3);
	struct frame_props fa = { .pid = 1,
				  .tid = 1,
				  .frame_seq = 4,
				  .vsync_id = -1,
				  .in_frame = true,
				  .n_nodes = 1,
				  .nodes = &a };
	struct frame_props fb = { .pid = 2,
				  .tid = 2,
				  .frame_seq = 9,
				  .vsync_id = -1,
				  .in_frame = true,
				  .n_nodes = 1,
				  .nodes = &b };
	struct frame f1 = { .pid = 1, .tid = 1, .seq = 4, .vsync_id = -1, .dur_ns = MS_NS };
	struct frame f2 = { .pid = 2, .tid = 2, .seq = 9, .vsync_id = -1, .dur_ns = MS_NS };
	struct summary sum = { 0 };

	s.ops->frame_props(s.ctx, &fa);
	s.ops->frame_props(s.ctx, &fb);
	a.values[PROP_ALPHA] = 0.25f; /* the sink keeps its own copy */
	s.ops->frame(s.ctx, &f2);
	s.ops->frame(s.ctx, &f1);
	fa.frame_seq = 5;
	s.ops->frame_props(s.ctx, &fa); /* its frame line never comes: printed at the summary */
	s.ops->summary(s.ctx, &sum);
}

Test(sink_box, property_values_print_under_their_own_frame_line)
{
	char *got = box_run(two_pid_scenario, true);
	const char *want = "│ frame 9 1.0 ms anims: 0\n"
			   "│   RenderNode@5678 transX=-12.346(x3)\n"
			   "│ frame 4 1.0 ms anims: 0\n"
			   "│   Row\\x1b@abcd alpha=0.500\n"
			   "│ frame 5 values\n"
			   "│   Row\\x1b@abcd alpha=0.250\n"
			   "┌── Summary ";

	cr_assert(!strncmp(got, want, strlen(want)), "got:\n%s", got);
	free(got);
}

Test(sink_box, property_values_are_printed_only_with_frames)
{
	char *got = box_run(two_pid_scenario, false);
	const char *want = "┌── Summary ";

	cr_assert(!strncmp(got, want, strlen(want)), "got:\n%s", got);
	free(got);
}

/* The End box of one alpha animator whose target went through the n values of v. */
static char *spark_render_shared(const float *v, int n, bool utf8, uint64_t shared,
				 uint32_t shared_frames)
{
	struct sink_box_opts o = { .utf8 = utf8 };
	struct anim a = box_anim(3, "animator:alpha", 10, "app");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct sink_box *b = sink_box__new(out, &o);
	struct sink s = sink_box__sink(b);

	a.start_ns = S_NS;
	a.end_ns = 2 * S_NS;
	a.reason = END_COMPLETE;
	a.target_node = 0xabcd;
	a.n_changes = 1;
	a.changes[0] = (struct prop_change){ PROP_ALPHA, v[0], v[n - 1] };
	a.series[0].n = (uint16_t)n;
	memcpy(a.series[0].v, v, (size_t)n * sizeof(*v));
	a.series[0].shared = shared;
	a.series[0].shared_frames = shared_frames;
	s.ops->anim_end(s.ctx, &a);
	sink_box__free(b);
	fclose(out);
	return buf;
}

static char *spark_render(const float *v, int n, bool utf8)
{
	return spark_render_shared(v, n, utf8, 0, 0);
}

Test(sink_box, the_curve_marks_the_points_whose_frames_others_also_wrote)
{
	const float v[] = { 1, 0.75f, 0.5f, 0.25f, 0 };
	char *got = spark_render_shared(v, 5, true, 1u << 1 | 1u << 2, 3);

	cr_assert_not_null(strstr(got, "│ alpha: 1 → 0  █▆▅▃▁\n"
				       "│                ^^   others also wrote it in 3 frames\n"
				       "└──\n"),
			   "%s", got);
	free(got);
	got = spark_render_shared(v, 5, false, 1u << 4, 1);
	cr_assert_not_null(strstr(got, "| alpha: 1 -> 0  ^=-._\n"
				       "|                    ^ others also wrote it in 1 frame\n"),
			   "%s", got);
	free(got);
}

/* One frame of one node: alpha written by 21761, 21762, three more not kept, then code. */
static void writes_scenario(struct sink s)
{
	struct node_props np = one_node(0x51c0, "Row", PROP_ALPHA, 1.0f, 6);
	struct frame_props fp = { .pid = 1, .tid = 1, .vsync_id = -1, .n_nodes = 1, .nodes = &np };

	np.n_writes[PROP_ALPHA] = 3;
	np.writes_left_out[PROP_ALPHA] = 3;
	np.writes[PROP_ALPHA][0] = (struct prop_write){ 0.95f, WRITER_ANIMATOR, 21761 };
	np.writes[PROP_ALPHA][1] = (struct prop_write){ 0.517f, WRITER_ANIMATOR, 21762 };
	np.writes[PROP_ALPHA][2] = (struct prop_write){ 1.0f, WRITER_CODE, 0 };
	s.ops->frame_props(s.ctx, &fp);
	np = one_node(0x51c0, "Row", PROP_SCALE_X, 2.0f, 2);
	np.n_writes[PROP_SCALE_X] = 2;
	np.writes[PROP_SCALE_X][0] = (struct prop_write){ 1.5f, WRITER_UNKNOWN, 0 };
	np.writes[PROP_SCALE_X][1] = (struct prop_write){ 2.0f, WRITER_DYNAMIC, 3 };
	s.ops->frame_props(s.ctx, &fp);
}

Test(sink_box, a_frame_line_shows_every_write_with_its_writer)
{
	char *got = box_run(writes_scenario, true);
	const char *want = "│ outside any frame 0.000000 s (pid 1, tid 1)\n"
			   "│   Row@51c0 alpha=0.950[#21761],0.517[#21762],(3 more),"
			   "1.000[not an animator]\n"
			   "│ outside any frame 0.000000 s (pid 1, tid 1)\n"
			   "│   Row@51c0 scaleX=1.500,2.000[dyn#3]\n";

	cr_assert(!strncmp(got, want, strlen(want)), "got:\n%s", got);
	free(got);
}

Test(sink_box, a_sparkline_spans_all_eight_blocks_between_the_series_min_and_max)
{
	const float v[] = { 0, 1, 2, 3, 4, 5, 6, 7, 3.4f, 3.6f };
	char *got = spark_render(v, 10, true);

	cr_assert_not_null(strstr(got, "│ alpha: 0 → 3.6  ▁▂▃▄▅▆▇█▄▅\n└──\n"), "%s", got);
	free(got);
}

Test(sink_box, the_ascii_sparkline_uses_five_levels)
{
	const float v[] = { 1, 0.75f, 0.5f, 0.25f, 0, 0.6f };
	char *got = spark_render(v, 6, false);

	cr_assert_not_null(strstr(got, "| alpha: 1 -> 0.6  ^=-._-\n`--\n"), "%s", got);
	free(got);
}

Test(sink_box, a_flat_series_sits_in_the_middle_and_non_finite_values_are_blanks)
{
	const float v[] = { 2, 2, NAN, 2, INFINITY, 2 };
	char *got = spark_render(v, 6, true);

	cr_assert_not_null(strstr(got, "│ alpha: 2 → 2  ▄▄ ▄ ▄\n"), "%s", got);
	free(got);
}

Test(sink_box, no_sparkline_line_without_per_frame_values)
{
	struct anim a = box_anim(3, "animator:alpha", 10, "app");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct sink_box *b = sink_box__new(out, NULL);
	struct sink s = sink_box__sink(b);

	a.start_ns = S_NS;
	a.end_ns = 2 * S_NS;
	a.target_node = 0xabcd;
	a.n_changes = 1;
	a.changes[0] = (struct prop_change){ PROP_ALPHA, 1, 0 };
	s.ops->anim_end(s.ctx, &a);
	sink_box__free(b);
	fclose(out);
	cr_assert_not_null(strstr(buf, "| Properties: alpha: 1 -> 0\n"), "%s", buf);
	cr_assert_null(strstr(buf, "| alpha:"), "%s", buf);
	free(buf);
}

/* ---- through the engine: what it collects for the End box and the summary ----------- */

static void eng_marker(struct engine *e, uint64_t ts, const char *text)
{
	struct marker m;

	cr_assert_eq(marker_parse(text, strlen(text), &m), 0, "%s", text);
	engine__marker(e, ts, 10, 10, "app", &m);
}

/*
 * animator:alpha over frames frames: alpha 0 in the first half, 1 in the second, set
 * twice in frame 1 (the second value wins) and once more on another node in frame 2.
 * Frame f lasts f microseconds plus 1 ms, so the last three frames are the longest.
 */
static char *engine_render(int frames)
{
	struct sink_box_opts o = { .utf8 = true };
	char *buf = NULL, doframe[64];
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct sink_box *b = sink_box__new(out, &o);
	struct engine *e = engine__new(NULL, sink_box__sink(b));
	uint64_t t = S_NS;

	cr_assert_not_null(e);
	eng_marker(e, t, "S|10|animator:alpha|77");
	for (int f = 1; f <= frames; f++, t += 16 * MS_NS) {
		snprintf(doframe, sizeof(doframe), "B|10|Choreographer#doFrame %d", 1000 + f);
		eng_marker(e, t, doframe);
		if (f == 1)
			engine__prop(e, t + 1, 10, 10, 0x51c0, "Row", PROP_ALPHA, 0.7f, NULL);
		engine__prop(e, t + 2, 10, 10, 0x51c0, "Row", PROP_ALPHA,
			     f <= frames / 2 ? 0.0f : 1.0f, NULL);
		if (f == 2)
			engine__prop(e, t + 3, 10, 10, 0x9e08, NULL, PROP_SCALE_X, 2, NULL);
		eng_marker(e, t + MS_NS + (uint64_t)f * 1000, "E|10");
	}
	eng_marker(e, t, "F|10|animator:alpha|77");
	engine__finish(e, t, 0, 0);
	engine__free(e);
	sink_box__free(b);
	fclose(out);
	return buf;
}

Test(sink_box, the_engine_gives_the_end_box_one_point_per_frame_of_the_target)
{
	char *got = engine_render(8);

	cr_assert_not_null(strstr(got, "│ Target:     Row@51c0 (inferred)\n"
				       "│ Properties: alpha: 0.7 → 1\n"),
			   "%s", got);
	/* frame 1 wrote alpha twice: one ObjectAnimator never does, so others wrote too */
	cr_assert_not_null(
		strstr(got, "│ alpha: 0.7 → 1  ▁▁▁▁████\n"
			    "│                 ^        others also wrote it in 1 frame\n└──\n"),
		"%s", got);
	free(got);
}

Test(sink_box, a_long_animation_is_downsampled_evenly_to_at_most_64_points)
{
	/* 100 frames: past 64 every point holds two frames (the later one): 25 + 25 points. */
	char *got = engine_render(100);
	char want[512] = "│ alpha: 0.7 → 1  ";

	for (int i = 0; i < 25; i++)
		strcat(want, "▁");
	for (int i = 0; i < 25; i++)
		strcat(want, "█");
	strcat(want, "\n");
	cr_assert_not_null(strstr(got, want), "no \"%s\" in:\n%s", want, got);
	free(got);
}

Test(sink_box, the_engine_summary_counts_frames_longest_frames_and_property_sets)
{
	char *got = engine_render(8);

	cr_assert_not_null(strstr(got, "│ Frames:     8\n"
				       "│ Prop sets:  10 in 8 frames (avg 1.3, max 2 per frame)\n"),
			   "%s", got);
	cr_assert_not_null(strstr(got, "│ animator:alpha       1       0       0       8 "), "%s",
			   got);
	cr_assert_not_null(
		strstr(got, "│ Longest frames:\n"
			    "│   1. 1.008 ms  frame 8 vsync 1008  app (pid 10, tid 10)  "
			    "start 1.112000 s\n"
			    "│   2. 1.007 ms  frame 7 vsync 1007  app (pid 10, tid 10)  "
			    "start 1.096000 s\n"
			    "│   3. 1.006 ms  frame 6 vsync 1006  app (pid 10, tid 10)  "
			    "start 1.080000 s\n│\n"
			    "│ Smoothness per process:\n"
			    "│   app (pid 10): 60.0 Hz (assumed), 8 frames, 0 late, 0 dropped\n"
			    "│\n"
			    "│ Findings:   1 conflict\n"
			    "│   1. conflict (pid 10): alpha of Row@51c0 written 2 times in one "
			    "frame by animator 77 and another writer (code or an animator no "
			    "probe names): they fight\n"
			    "└──\n"),
		"%s", got);
	free(got);
}

static void stacks_scenario(struct sink s)
{
	struct anim a = box_anim(7, "animator", 5, "app");

	a.start_ns = 1000 * MS_NS;
	a.n_start_stack = 2;
	snprintf(a.start_stack[0], sizeof(a.start_stack[0]), "com.example.PanelAnimator.play");
	snprintf(a.start_stack[1], sizeof(a.start_stack[1]), "com.example.Panel.expand");
	s.ops->anim_start(s.ctx, &a);
	a.end_ns = 1100 * MS_NS;
	a.reason = END_CANCEL;
	a.reason_source = REASON_ART;
	a.n_end_stack = 1;
	snprintf(a.end_stack[0], sizeof(a.end_stack[0]), "com.example.Panel.collapse");
	s.ops->anim_end(s.ctx, &a);
}

Test(sink_box, call_stacks_follow_the_begin_and_end_boxes_innermost_first)
{
	char *out = box_run(stacks_scenario, false);

	cr_assert(strstr(out, "│ Start:      1.000000 s\n"
			      "│ CallStack:    com.example.PanelAnimator.play\n"
			      "│               com.example.Panel.expand\n"
			      "└──\n"),
		  "%s", out);
	cr_assert(strstr(out, "│ EndCallStack: com.example.Panel.collapse\n└──\n"), "%s", out);
	free(out);
}

Test(sink_box, returns_enospc_once_the_output_cannot_be_written)
{
	FILE *f = fopen("/dev/full", "w");
	struct anim a = box_anim(7, "animator", 10, "com.example");
	struct sink_box *b;
	struct sink s;

	cr_assert_not_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	b = sink_box__new(f, NULL);
	s = sink_box__sink(b);
	cr_assert_eq(s.ops->anim_start(s.ctx, &a), -ENOSPC);
	cr_assert_eq(s.ops->note(s.ctx, "x"), -ENOSPC);
	sink_box__free(b);
	fclose(f);
}

Test(sink_box, writes_a_negative_cookie_signed)
{
	struct anim a = box_anim((uint64_t)-42, "animator", 10, "com.example");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sink_box *b = sink_box__new(f, NULL);
	struct sink s = sink_box__sink(b);

	cr_assert_eq(s.ops->anim_start(s.ctx, &a), 0);
	sink_box__free(b);
	fclose(f);
	cr_assert(strstr(buf, "ID:         -42\n"), "%s", buf);
	free(buf);
}

/* An alpha animator of a set whose inferred target is one of three nodes that fit; a VPA. */
static void fits_scenario(struct sink s)
{
	struct anim a = box_anim(4, "animator:alpha", 10, "app");
	struct anim v = box_anim(5, "animator", 10, "app");
	static const struct anim_fit fits[] = {
		{ 0x51c0, "NotificationRow", 12, 0 },
		{ 0xc000, "QSPanel", 12, 0 },
		{ 0xd000, "", 3, 0 },
	};

	a.start_ns = S_NS;
	a.end_ns = 2 * S_NS;
	a.reason = END_COMPLETE;
	a.target_node = 0x51c0;
	a.target_inferred = true;
	snprintf(a.target_name, sizeof(a.target_name), "NotificationRow");
	a.n_fits = 3;
	memcpy(a.fits, fits, sizeof(fits));
	a.starter = STARTER_SET;
	snprintf(a.set_caller, sizeof(a.set_caller), "com.example.Shade.expand");
	s.ops->anim_end(s.ctx, &a);
	a.set_caller[0] = '\0';
	a.sets_open = 2;
	a.fits_more = true;
	s.ops->anim_end(s.ctx, &a);
	a.sets_open = 0;
	s.ops->anim_start(s.ctx, &a);
	v.starter = STARTER_VPA;
	s.ops->anim_start(s.ctx, &v);
}

Test(sink_box,
     several_nodes_that_fit_an_inferred_target_are_listed_and_the_type_says_who_started_it)
{
	char *got = box_run(fits_scenario, false);

	cr_assert_not_null(
		strstr(got,
		       "│ ID:         4\n"
		       "│ Type:       ObjectAnimator in an AnimatorSet\n"
		       "│ Set by:     com.example.Shade.expand\n"
		       "│ Target:     NotificationRow@51c0 (inferred: one of 3 nodes that fit)\n"
		       "│ Fits:       NotificationRow@51c0 (12 frames)\n"
		       "│             QSPanel@c000 (12 frames)\n"
		       "│             RenderNode@d000 (3 frames)\n"
		       "│ Properties: alpha\n"),
		"%s", got);
	cr_assert_not_null(
		strstr(got, "│ Set by:     unknown (started in a later frame while 2 sets "
			    "ran)\n"
			    "│ Target:     NotificationRow@51c0 (inferred: one of 3+ nodes that "
			    "fit)\n"),
		"%s", got);
	cr_assert_not_null(strstr(got, "│             RenderNode@d000 (3 frames)\n"
				       "│             and more, not listed\n"),
			   "%s", got);
	cr_assert_not_null(strstr(got,
				  "│ Set by:     unknown (started in a later frame; no set seen "
				  "running)\n"),
			   "%s", got);
	cr_assert_not_null(strstr(got, "│ ID:         5\n"
				       "│ Type:       ViewPropertyAnimator\n"
				       "│ Process:"),
			   "%s", got);
	free(got);
}

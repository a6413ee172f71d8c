// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * JSON lines sink: a golden file (AT_UPDATE_GOLDEN=1 rewrites it), every line parsed back
 * with json-c, and RFC 8259 escaping of hostile names.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/json.h"

#define S_NS 1000000000ull
#define MS_NS 1000000ull

static struct anim json_anim(uint64_t id, const char *name, const char *prop, uint32_t pid)
{
	struct anim a = { .id = id, .pid = pid, .start_tid = pid, .end_tid = pid };

	snprintf(a.name, sizeof(a.name), "%s", name);
	snprintf(a.process, sizeof(a.process), "com.example.anim");
	a.kind = prop ? ANIM_OBJECT : ANIM_VALUE;
	if (prop) {
		snprintf(a.props[0], sizeof(a.props[0]), "%s", prop);
		a.n_props = 1;
	}
	return a;
}

static const float prop_values[] = { 1 - 1 / 17.0f, -100.0f * 4 / 17, 1.0f / 3, 1e-7f,
				     -3.4028235e38f };

/* One frame of two nodes: alpha written twice on the first, odd floats on the second. */
static void json_props(struct sink s)
{
	struct node_props nodes[2] = {
		{ .node = 0x7b0a51c0,
		  .node_name = "NotificationRow",
		  .set_mask = 1u << PROP_ALPHA | 1u << PROP_TRANSLATION_Y },
		{ .node = 0xb400007b0a9e08,
		  .node_name = "RenderNode@9e08",
		  .set_mask = 1u << PROP_SCALE_X | 1u << PROP_ROTATION_Y | 1u << PROP_ELEVATION },
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

	nodes[0].values[PROP_ALPHA] = prop_values[0];
	nodes[0].sets[PROP_ALPHA] = 2;
	nodes[0].n_writes[PROP_ALPHA] = 2; /* an animator's write, then code's */
	nodes[0].writes[PROP_ALPHA][0] = (struct prop_write){ 0.95f, WRITER_ANIMATOR, 44292905 };
	nodes[0].writes[PROP_ALPHA][1] = (struct prop_write){ prop_values[0], WRITER_CODE, 0 };
	nodes[0].n_writes[PROP_TRANSLATION_Y] = 1;
	nodes[0].writes[PROP_TRANSLATION_Y][0] =
		(struct prop_write){ prop_values[1], WRITER_UNKNOWN, 0 };
	nodes[0].values[PROP_TRANSLATION_Y] = prop_values[1];
	nodes[0].sets[PROP_TRANSLATION_Y] = 1;
	nodes[1].values[PROP_SCALE_X] = prop_values[2];
	nodes[1].sets[PROP_SCALE_X] = 1;
	nodes[1].values[PROP_ROTATION_Y] = prop_values[3];
	nodes[1].sets[PROP_ROTATION_Y] = 1;
	nodes[1].values[PROP_ELEVATION] = prop_values[4];
	nodes[1].sets[PROP_ELEVATION] = 3;
	s.ops->frame_props(s.ctx, &fp);
	fp = (struct frame_props){ .pid = 1234,
				   .tid = 1240,
				   .ts_ns = 12420 * MS_NS,
				   .vsync_id = -1,
				   .n_nodes = 1,
				   .nodes = nodes };
	s.ops->frame_props(s.ctx, &fp);
}

static void json_scenario(struct sink s)
{
	struct anim a = json_anim(44292905, "animator:alpha", "alpha", 1234);
	struct anim b = json_anim(7, "animator", NULL, 1234);
	struct anim r = json_anim(5, "animator:scaleX", "scaleX", 1234);
	const uint64_t ids[] = { 44292905, 7 };
	struct frame f1 = { .pid = 1234,
			    .tid = 1234,
			    .process = "com.example.anim",
			    .seq = 12,
			    .vsync_id = 3456,
			    .start_ns = 12400 * MS_NS,
			    .dur_ns = 16700000,
			    .n_anims = 2,
			    .anim_ids = ids,
			    .vsync_ns = 12398 * MS_NS,
			    .start_delay_ns = 2 * MS_NS,
			    .deadline_ns = 12398 * MS_NS + 11111111,
			    .timeline = { true, 2, 64 | 128, "TX - com.example.anim#0" } };
	struct frame f2 = { .pid = 1234,
			    .tid = 1234,
			    .seq = 13,
			    .vsync_id = -1,
			    .start_ns = 12417 * MS_NS,
			    .dur_ns = 4049999 };
	struct name_stat names[] = {
		{ .name = "animator:alpha",
		  .count = 1,
		  .total_ns = 300 * MS_NS,
		  .max_ns = 300 * MS_NS,
		  .median_ns = 300 * MS_NS,
		  .frames = 18 },
		{ .name = "animator", .count = 1, .cancels = 1 },
		{ .name = "animator:scaleX", .count = 1, .running = 1, .frames = 60 },
	};
	struct frame lf[2];
	struct summary sum = { .first_ns = 12 * S_NS,
			       .last_ns = 15 * S_NS,
			       .anims_started = 2,
			       .anims_ended = 2,
			       .frames = 2,
			       .markers = 1000,
			       .markers_rejected = 3,
			       .n_names = 3,
			       .names = names,
			       .n_longest = 1,
			       .longest = &a,
			       .n_running = 1,
			       .running = &r,
			       .n_longest_frames = 2,
			       .longest_frames = lf,
			       .prop_frames = 1,
			       .prop_sets = 9,
			       .prop_sets_max = 9,
			       .drops = 4,
			       .truncated = 1 };

	a.start_ns = 12345678901ull;
	s.ops->anim_start(s.ctx, &a);
	f1.phase_ns[PHASE_ANIMATION] = 3100000;
	f1.phase_ns[PHASE_DRAW] = 6200000;
	json_props(s);
	s.ops->frame(s.ctx, &f1);
	s.ops->frame(s.ctx, &f2);
	a.end_ns = a.start_ns + 300 * MS_NS;
	a.frames = 18;
	a.reason = END_ENDED;
	a.target_node = 0x7b0a51c0;
	snprintf(a.target_name, sizeof(a.target_name), "NotificationRow");
	a.target_inferred = true;
	a.n_changes = 1;
	a.changes[0] = (struct prop_change){ PROP_ALPHA, 1 - 1 / 17.0f, 0.0f };
	s.ops->anim_end(s.ctx, &a);
	b.end_tid = 1240;
	b.end_ns = 13 * S_NS;
	b.restarts = 1;
	b.reason = END_CANCEL_BEFORE_START;
	s.ops->anim_end(s.ctx, &b);
	s.ops->note(s.ctx, "reasons are \"inferred\"");
	r.start_ns = 14 * S_NS;
	r.frames = 60;
	r.reason = END_RUNNING_AT_EXIT;
	struct finding fd = { .kind = FINDING_STALLED,
			      .pid = 1234,
			      .process = "com.example.anim",
			      .ts_ns = 15 * S_NS,
			      .n_ids = 1,
			      .ids = { 5 },
			      .node = 0x7b0a51c0,
			      .node_name = "NotificationRow",
			      .has_prop = true,
			      .prop = PROP_SCALE_X };
	snprintf(fd.text, sizeof(fd.text),
		 "animator:scaleX 5 still runs after 1.0 s with no "
		 "value change for the last 0.9 s: paused or leaked");
	s.ops->finding(s.ctx, &fd);
	sum.findings_by_kind[FINDING_STALLED] = 1;
	sum.n_findings = 1;
	sum.findings = &fd;
	/* The summary's frames carry no animator ids (their buffers are gone by then). */
	lf[0] = f1;
	lf[1] = f2;
	lf[0].n_anims = 0;
	lf[0].anim_ids = NULL;
	s.ops->summary(s.ctx, &sum);
}

/* Runs fn against a JSON sink and returns what it wrote (malloc'd). */
static char *json_render(void (*fn)(struct sink s))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct sink_json *j;

	cr_assert_not_null(out);
	j = sink_json__new(out);
	cr_assert_not_null(j);
	fn(sink_json__sink(j));
	sink_json__free(j);
	fclose(out);
	return buf;
}

/* A spring's and a fling's read configurations: every digit of the doubles, the start value
 * only when setStartValue gave it, the fling's friction in both units. */
static void dyn_config_scenario(struct sink s)
{
	struct dyn_anim a = { .id = 4,
			      .kind = DYN_SPRING,
			      .pid = 10,
			      .tid = 10,
			      .obj = 0x12c40020,
			      .start_ns = 5 * S_NS,
			      .ended = true,
			      .reason = END_COMPLETE,
			      .end_ns = 6 * S_NS };

	a.config = (struct dyn_config){ .has_spring = true,
					.has_state = true,
					.stiffness = 1500.0000000000002,
					.damping_ratio = 0.75,
					.final_position = 300,
					.velocity = -12.5,
					.min_visible_change = 1 };
	cr_assert_eq(s.ops->dyn_end(s.ctx, &a), 0);
	a.id = 5;
	a.kind = DYN_FLING;
	a.config = (struct dyn_config){ .has_fling = true,
					.has_state = true,
					.has_value = true,
					.friction = 2 * DYN_DEFAULT_FRICTION,
					.value = 0.1f,
					.velocity = 900,
					.min_visible_change = 0.00390625 };
	cr_assert_eq(s.ops->dyn_end(s.ctx, &a), 0);
}

Test(sink_json, a_read_configuration_keeps_every_digit_beside_the_fit)
{
	char *buf = json_render(dyn_config_scenario);

	cr_assert_not_null(strstr(buf, ",\"config\":{\"source\":\"heap\","
				       "\"stiffness\":1500.0000000000002,\"damping_ratio\":0.75,"
				       "\"final_position\":300,\"velocity\":-12.5,"
				       "\"min_visible_change\":1}"),
			   "%s", buf);
	cr_assert_not_null(strstr(buf, ",\"config\":{\"source\":\"heap\","
				       "\"friction\":-8.3999996185302734,\"friction_scalar\":2,"
				       "\"value\":0.10000000149011612,\"velocity\":900,"
				       "\"min_visible_change\":0.00390625}"),
			   "%s", buf);
	free(buf);
}

/* A cancelled spring with its fit, its target and both stacks. */
static void dyn_scenario(struct sink s)
{
	struct dyn_anim a = { .id = 3,
			      .kind = DYN_SPRING,
			      .pid = 10,
			      .tid = 10,
			      .obj = 0x12c40010,
			      .start_ns = 5 * S_NS,
			      .replaces = 2 };

	snprintf(a.process, sizeof(a.process), "com.example.dock");
	snprintf(a.start_stack[0], AT_FRAME_NAME, "com.example.dock.DockView.snapTo");
	a.n_start_stack = 1;
	cr_assert_eq(s.ops->dyn_start(s.ctx, &a), 0);
	a.ended = true;
	a.reason = END_CANCEL;
	a.end_ns = 5 * S_NS + 200 * MS_NS;
	a.first_frame_ns = 5 * S_NS + 16 * MS_NS;
	a.last_frame_ns = 5 * S_NS + 183 * MS_NS;
	a.frames = 11;
	a.has_target = true;
	a.node = 0x7b0a51c0;
	snprintf(a.node_name, sizeof(a.node_name), "DockView");
	a.prop = PROP_TRANSLATION_X;
	a.from = 0;
	a.to = 250.5f;
	a.fitted = true;
	a.fit = (struct fit_result){ .kind = FIT_SPRING,
				     .stiffness = 200,
				     .damping_ratio = 0.5,
				     .final_position = 300,
				     .rms = 0.25 };
	snprintf(a.end_stack[0], AT_FRAME_NAME, "com.example.dock.DockView.retarget");
	a.n_end_stack = 1;
	cr_assert_eq(s.ops->dyn_end(s.ctx, &a), 0);
}

Test(sink_json, a_dynamic_animation_has_a_start_and_an_end_line_with_its_keys_in_order)
{
	char *buf = json_render(dyn_scenario);

	cr_assert_str_eq(
		buf,
		"{\"type\":\"dyn_start\",\"ts_ns\":5000000000,\"pid\":10,\"tid\":10,"
		"\"process\":\"com.example.dock\",\"id\":3,\"kind\":\"Spring\",\"obj\":\"0x12c40010\","
		"\"start_ns\":5000000000,\"replaces\":2,"
		"\"start_stack\":[\"com.example.dock.DockView.snapTo\"]}\n"
		"{\"type\":\"dyn_end\",\"ts_ns\":5200000000,\"pid\":10,\"tid\":10,"
		"\"process\":\"com.example.dock\",\"id\":3,\"kind\":\"Spring\",\"obj\":\"0x12c40010\","
		"\"start_ns\":5000000000,\"replaces\":2,"
		"\"start_stack\":[\"com.example.dock.DockView.snapTo\"],\"reason\":\"cancel\","
		"\"end_source\":\"art\","
		"\"end_ns\":5200000000,\"first_frame_ns\":5016000000,\"last_frame_ns\":5183000000,"
		"\"frames\":11,\"target\":\"0x7b0a51c0\",\"target_name\":\"DockView@51c0\","
		"\"target_class\":\"DockView\",\"property\":\"translationX\",\"from\":0,"
		"\"to\":250.5,\"fit\":{\"kind\":\"spring\",\"stiffness\":200,"
		"\"stiffness_name\":null,\"damping_ratio\":0.5,\"damping_name\":null,"
		"\"final_position\":300,\"start_velocity\":0,\"overshoot_pct\":0,\"settle_ms\":0,"
		"\"rms\":0.25},\"end_stack\":[\"com.example.dock.DockView.retarget\"]}\n");
	free(buf);
}

Test(sink_json, the_scenario_matches_the_golden_file)
{
	const char *path = "tests/golden/sink.jsonl";
	char *got = json_render(json_scenario), *want = NULL;
	size_t cap = 0;
	FILE *f;

	if (getenv("AT_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		cr_assert_not_null(f);
		fputs(got, f);
		fclose(f);
	}
	f = fopen(path, "r");
	cr_assert_not_null(f, "missing %s (AT_UPDATE_GOLDEN=1 creates it)", path);
	cr_assert(getdelim(&want, &cap, '\0', f) >= 0);
	fclose(f);
	cr_assert_str_eq(got, want, "%s differs; AT_UPDATE_GOLDEN=1 rewrites it", path);
	free(want);
	free(got);
}

/* Parses every line; returns how many there were, each one a JSON object. */
static int parse_lines(char *text, struct json_object **objs, int max)
{
	int n = 0;

	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		enum json_tokener_error err;
		struct json_object *o = json_tokener_parse_verbose(line, &err);

		cr_assert_not_null(o, "line %d does not parse (%s): %s", n + 1,
				   json_tokener_error_desc(err), line);
		cr_assert(json_object_is_type(o, json_type_object));
		cr_assert(n < max);
		objs[n++] = o;
	}
	return n;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	cr_assert(json_object_object_get_ex(o, key, &v), "no key %s", key);
	return v;
}

Test(sink_json, every_line_parses_with_the_contract_fields)
{
	char *text = json_render(json_scenario);
	struct json_object *o[16];
	int n = parse_lines(text, o, 16);

	cr_assert_eq(n, 11);
	for (int i = 0; i < n; i++) {
		get(o[i], "ts_ns");
		get(o[i], "pid");
		get(o[i], "tid");
		get(o[i], "process");
	}
	cr_assert_str_eq(json_object_get_string(get(o[0], "type")), "animator_start");
	cr_assert_str_eq(json_object_get_string(get(o[1], "type")), "frame_props");
	cr_assert_eq(json_object_get_int64(get(o[4], "vsync_id")), 3456);
	cr_assert_eq(json_object_get_int64(get(get(o[4], "phases"), "draw")), 6200000);
	cr_assert_eq(json_object_array_length(get(o[4], "animators")), 2);
	cr_assert(json_object_is_type(get(o[5], "vsync_id"), json_type_null));
	cr_assert_eq(json_object_get_int64(get(o[6], "duration_ns")), 300 * MS_NS);
	cr_assert_str_eq(json_object_get_string(get(o[6], "reason")), "ended");
	cr_assert_str_eq(json_object_get_string(get(o[6], "reason_source")), "inferred");
	cr_assert(json_object_is_type(get(o[7], "start_ns"), json_type_null));
	cr_assert(json_object_is_type(get(o[7], "duration_ns"), json_type_null));
	cr_assert_str_eq(json_object_get_string(get(o[7], "reason")), "cancel_before_start");
	cr_assert_str_eq(json_object_get_string(get(o[8], "message")), "reasons are \"inferred\"");
	cr_assert_str_eq(json_object_get_string(get(o[9], "type")), "finding");
	cr_assert_str_eq(json_object_get_string(get(o[9], "kind")), "stalled");
	cr_assert_eq(json_object_get_int64(json_object_array_get_idx(get(o[9], "ids"), 0)), 5);
	cr_assert_str_eq(json_object_get_string(get(o[9], "node_name")), "NotificationRow@51c0");
	cr_assert_str_eq(json_object_get_string(get(o[9], "property")), "scaleX");
	get(o[9], "text");
	cr_assert_str_eq(json_object_get_string(get(o[10], "type")), "summary");
	cr_assert_eq(json_object_array_length(get(o[10], "names")), 3);
	cr_assert_str_eq(json_object_get_string(get(
				 json_object_array_get_idx(get(o[10], "running"), 0), "reason")),
			 "running_at_exit");
	cr_assert_eq(json_object_get_int64(get(o[10], "drops")), 4);
	cr_assert_eq(json_object_get_int64(get(get(o[10], "findings_by_kind"), "stalled")), 1);
	cr_assert_eq(json_object_array_length(get(o[10], "findings")), 1);
	for (int i = 0; i < n; i++)
		json_object_put(o[i]);
	free(text);
}

Test(sink_json, the_summary_lists_frames_per_name_longest_frames_and_property_sets)
{
	char *text = json_render(json_scenario);
	struct json_object *o[16], *sum, *lf;
	int n = parse_lines(text, o, 16);

	sum = o[n - 1];
	cr_assert_eq(json_object_get_int64(
			     get(json_object_array_get_idx(get(sum, "names"), 0), "frames")),
		     18);
	cr_assert_eq(json_object_get_int64(
			     get(json_object_array_get_idx(get(sum, "names"), 2), "frames")),
		     60);
	lf = get(sum, "longest_frames");
	cr_assert_eq(json_object_array_length(lf), 2);
	cr_assert_eq(json_object_get_int64(get(json_object_array_get_idx(lf, 0), "seq")), 12);
	cr_assert_eq(json_object_get_int64(get(json_object_array_get_idx(lf, 0), "vsync_id")),
		     3456);
	cr_assert_eq(json_object_get_int64(get(json_object_array_get_idx(lf, 0), "duration_ns")),
		     16700000);
	cr_assert_str_eq(json_object_get_string(get(json_object_array_get_idx(lf, 0), "process")),
			 "com.example.anim");
	cr_assert(json_object_is_type(get(json_object_array_get_idx(lf, 1), "vsync_id"),
				      json_type_null));
	cr_assert_eq(json_object_get_int64(get(sum, "prop_frames")), 1);
	cr_assert_eq(json_object_get_int64(get(sum, "prop_sets")), 9);
	cr_assert_eq(json_object_get_int64(get(sum, "prop_sets_max")), 9);
	for (int i = 0; i < n; i++)
		json_object_put(o[i]);
	free(text);
}

/* The value of key in obj parsed back as a float, compared bit for bit. */
static void assert_float_key(struct json_object *obj, const char *key, float want)
{
	float got = (float)json_object_get_double(get(obj, key));

	cr_assert(json_object_is_type(get(obj, key), json_type_double) ||
		  json_object_is_type(get(obj, key), json_type_int));
	cr_assert(!memcmp(&got, &want, sizeof(got)), "%s: %.9g != %.9g", key, (double)got,
		  (double)want);
}

Test(sink_json, frame_props_records_have_one_node_each_and_floats_round_trip_exactly)
{
	char *text = json_render(json_scenario);
	struct json_object *o[16], *v;

	cr_assert_eq(parse_lines(text, o, 16), 11);
	cr_assert_eq(json_object_get_int64(get(o[1], "frame_seq")), 12);
	cr_assert_eq(json_object_get_int64(get(o[1], "frame_vsync_id")), 3456);
	cr_assert(json_object_get_boolean(get(o[1], "in_frame")));
	cr_assert_str_eq(json_object_get_string(get(o[1], "node")), "0x7b0a51c0");
	cr_assert_str_eq(json_object_get_string(get(o[1], "node_name")), "NotificationRow@51c0");
	cr_assert_str_eq(json_object_get_string(get(o[1], "node_class")), "NotificationRow");
	v = get(o[1], "values");
	cr_assert_eq(json_object_object_length(v), 2);
	assert_float_key(v, "alpha", prop_values[0]);
	assert_float_key(v, "translationY", prop_values[1]);
	cr_assert_eq(json_object_get_int(get(get(o[1], "sets"), "alpha")), 2);
	cr_assert_eq(json_object_get_int(get(get(o[1], "sets"), "translationY")), 1);
	cr_assert_str_eq(json_object_get_string(get(o[2], "node")), "0xb400007b0a9e08");
	v = get(o[2], "values");
	assert_float_key(v, "scaleX", prop_values[2]);
	assert_float_key(v, "rotationY", prop_values[3]);
	assert_float_key(v, "elevation", prop_values[4]);
	cr_assert_eq(json_object_get_int(get(get(o[2], "sets"), "elevation")), 3);
	cr_assert(!json_object_get_boolean(get(o[3], "in_frame")));
	cr_assert_eq(json_object_get_int64(get(o[3], "frame_seq")), 0);
	cr_assert(json_object_is_type(get(o[3], "frame_vsync_id"), json_type_null));
	cr_assert_eq(json_object_get_int64(get(o[3], "tid")), 1240);
	for (int i = 0; i < 11; i++)
		json_object_put(o[i]);
	free(text);
}

Test(sink_json, animator_end_carries_the_target_and_its_changes)
{
	char *text = json_render(json_scenario);
	struct json_object *o[16], *ch;

	cr_assert_eq(parse_lines(text, o, 16), 11);
	cr_assert_str_eq(json_object_get_string(get(o[6], "target")), "0x7b0a51c0");
	cr_assert_str_eq(json_object_get_string(get(o[6], "target_name")), "NotificationRow@51c0");
	cr_assert_str_eq(json_object_get_string(get(o[6], "target_class")), "NotificationRow");
	cr_assert_str_eq(json_object_get_string(get(o[6], "target_source")), "inferred");
	ch = get(get(o[6], "changes"), "alpha");
	assert_float_key(ch, "from", prop_values[0]);
	assert_float_key(ch, "to", 0.0f);
	cr_assert(json_object_is_type(get(o[7], "target"), json_type_null));
	cr_assert(json_object_is_type(get(o[7], "target_name"), json_type_null));
	cr_assert(json_object_is_type(get(o[7], "target_class"), json_type_null));
	cr_assert(json_object_is_type(get(o[7], "target_source"), json_type_null));
	cr_assert_eq(json_object_object_length(get(o[7], "changes")), 0);
	for (int i = 0; i < 11; i++)
		json_object_put(o[i]);
	free(text);
}

static void nonfinite_scenario(struct sink s)
{
	struct node_props np = { .node = 0x10,
				 .node_name = "V",
				 .set_mask = 1u << PROP_TRANSLATION_X | 1u << PROP_SCALE_Y };
	struct frame_props fp = { .pid = 1, .tid = 1, .vsync_id = -1, .n_nodes = 1, .nodes = &np };

	np.values[PROP_TRANSLATION_X] = NAN;
	np.values[PROP_SCALE_Y] = -INFINITY;
	np.sets[PROP_TRANSLATION_X] = np.sets[PROP_SCALE_Y] = 1;
	s.ops->frame_props(s.ctx, &fp);
}

static void writes_scenario(struct sink s)
{
	struct node_props np = { .node = 0x10, .node_name = "V", .set_mask = 1u << PROP_ALPHA };
	struct frame_props fp = { .pid = 1, .tid = 1, .vsync_id = -1, .n_nodes = 1, .nodes = &np };

	np.values[PROP_ALPHA] = 1.0f;
	np.sets[PROP_ALPHA] = 5;
	np.n_writes[PROP_ALPHA] = 4;
	np.writes_left_out[PROP_ALPHA] = 2;
	np.writes[PROP_ALPHA][0] = (struct prop_write){ 0.5f, WRITER_ANIMATOR, 21761 };
	np.writes[PROP_ALPHA][1] = (struct prop_write){ 0.25f, WRITER_UNKNOWN, 0 };
	np.writes[PROP_ALPHA][2] = (struct prop_write){ 0.75f, WRITER_DYNAMIC, 3 };
	np.writes[PROP_ALPHA][3] = (struct prop_write){ 1.0f, WRITER_CODE, 0 };
	s.ops->frame_props(s.ctx, &fp);
}

Test(sink_json, frame_props_list_each_write_with_its_writer_and_those_left_out)
{
	char *text = json_render(writes_scenario);

	cr_assert_str_eq(text, "{\"type\":\"frame_props\",\"ts_ns\":0,\"pid\":1,\"tid\":1,"
			       "\"process\":\"\",\"frame_seq\":0,\"frame_vsync_id\":null,"
			       "\"in_frame\":false,\"node\":\"0x10\",\"node_name\":\"V@0010\","
			       "\"node_class\":\"V\",\"values\":{\"alpha\":1},"
			       "\"sets\":{\"alpha\":5},\"writes\":{\"alpha\":["
			       "{\"value\":0.5,\"by\":\"animator\",\"id\":21761},"
			       "{\"value\":0.25,\"by\":\"unknown\"},"
			       "{\"value\":0.75,\"by\":\"dynamic_animation\",\"id\":3},"
			       "{\"value\":1,\"by\":\"not_an_animator\"}]},"
			       "\"writes_left_out\":{\"alpha\":2}}\n");
	free(text);
}

Test(sink_json, non_finite_values_are_written_as_null)
{
	char *text = json_render(nonfinite_scenario);
	struct json_object *o[2];

	cr_assert_str_eq(text, "{\"type\":\"frame_props\",\"ts_ns\":0,\"pid\":1,\"tid\":1,"
			       "\"process\":\"\",\"frame_seq\":0,\"frame_vsync_id\":null,"
			       "\"in_frame\":false,\"node\":\"0x10\",\"node_name\":\"V@0010\","
			       "\"node_class\":\"V\","
			       "\"values\":{\"translationX\":null,\"scaleY\":null},"
			       "\"sets\":{\"translationX\":1,\"scaleY\":1}}\n");
	cr_assert_eq(parse_lines(text, o, 2), 1);
	json_object_put(o[0]);
	free(text);
}

static void nasty_scenario(struct sink s)
{
	struct anim a = json_anim(1, "", "p\"q", 2);

	/* quote, backslash, newline, ESC, DEL, é, €, U+1F600, then invalid: lone continuation,
	 * overlong '/', a surrogate, a truncated 3-byte sequence at the end */
	snprintf(a.name, sizeof(a.name),
		 "animator:a\"b\\c\nd\033e\x7f"
		 "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
		 "|\x80|\xc0\xaf|\xed\xa0\x80|\xe2\x82");
	snprintf(a.process, sizeof(a.process), "tab\there");
	a.start_ns = 1;
	s.ops->anim_start(s.ctx, &a);
}

Test(sink_json, nasty_names_are_escaped_per_rfc_8259)
{
	char *text = json_render(nasty_scenario);
	struct json_object *o[2];

	cr_assert_str_eq(
		text,
		"{\"type\":\"animator_start\",\"ts_ns\":1,\"pid\":2,\"tid\":2,"
		"\"process\":\"tab\\u0009here\",\"id\":1,"
		"\"name\":\"animator:a\\\"b\\\\c\\u000ad\\u001be\\u007f"
		"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
		"|\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\","
		"\"kind\":\"ObjectAnimator\",\"properties\":[\"p\\\"q\"],"
		"\"restarts\":0,\"started_by\":null,\"set_caller\":null,\"start_delay_ns\":null,\"config\":null}\n");
	cr_assert_eq(parse_lines(text, o, 2), 1);
	cr_assert_str_eq(json_object_get_string(get(o[0], "process")), "tab\there");
	json_object_put(o[0]);
	free(text);
}

static void note_scenario(struct sink s)
{
	struct anim a = json_anim(1, "animator", NULL, 2);

	a.start_ns = 5 * S_NS;
	s.ops->note(s.ctx, "first");
	s.ops->anim_start(s.ctx, &a);
	s.ops->note(s.ctx, "line\nbreak");
}

Test(sink_json, notes_carry_the_last_time_seen)
{
	char *text = json_render(note_scenario);

	cr_assert_not_null(strstr(text, "{\"type\":\"note\",\"ts_ns\":0,\"pid\":0,\"tid\":0,"
					"\"process\":\"\",\"message\":\"first\"}\n"));
	cr_assert_not_null(strstr(text, "{\"type\":\"note\",\"ts_ns\":5000000000,\"pid\":0,"
					"\"tid\":0,\"process\":\"\","
					"\"message\":\"line\\u000abreak\"}\n"));
	free(text);
}

Test(sink_json, new_rejects_a_null_stream_and_free_accepts_null)
{
	cr_assert_null(sink_json__new(NULL));
	sink_json__free(NULL);
}

static void stacks_json(struct sink s)
{
	struct anim a = json_anim(7, "animator", NULL, 5);

	a.start_ns = 1000;
	a.n_start_stack = 2;
	snprintf(a.start_stack[0], sizeof(a.start_stack[0]), "com.example.A.play");
	snprintf(a.start_stack[1], sizeof(a.start_stack[1]), "com.example.\"B\".run");
	s.ops->anim_start(s.ctx, &a);
	a.end_ns = 2000;
	a.reason = END_FORCE_END;
	a.n_end_stack = 1;
	snprintf(a.end_stack[0], sizeof(a.end_stack[0]), "com.example.C.stop");
	s.ops->anim_end(s.ctx, &a);
	a.n_start_stack = a.n_end_stack = 0;
	s.ops->anim_start(s.ctx, &a);
}

static void starters_json(struct sink s)
{
	struct anim a = json_anim(7, "animator:alpha", "alpha", 5);

	a.starter = STARTER_SET;
	snprintf(a.set_caller, sizeof(a.set_caller), "com.example.Shade.expand");
	s.ops->anim_start(s.ctx, &a);
	a.set_caller[0] = '\0'; /* a later child while two sets ran */
	s.ops->anim_start(s.ctx, &a);
	a = json_anim(8, "animator", NULL, 5);
	a.starter = STARTER_VPA;
	s.ops->anim_start(s.ctx, &a);
}

Test(sink_json, the_starter_and_the_sets_caller_follow_the_identity)
{
	char *out = json_render(starters_json);

	cr_assert(strstr(out,
			 "\"id\":7,\"name\":\"animator:alpha\",\"kind\":\"ObjectAnimator\","
			 "\"properties\":[\"alpha\"],\"restarts\":0,\"started_by\":\"AnimatorSet\","
			 "\"set_caller\":\"com.example.Shade.expand\","),
		  "%s", out);
	cr_assert(strstr(out, "\"started_by\":\"AnimatorSet\",\"set_caller\":null,"), "%s", out);
	cr_assert(strstr(out, "\"id\":8,\"name\":\"animator\",\"kind\":\"ValueAnimator\","
			      "\"properties\":[],\"restarts\":0,"
			      "\"started_by\":\"ViewPropertyAnimator\",\"set_caller\":null,"),
		  "%s", out);
	free(out);
}

Test(sink_json, call_stacks_are_string_arrays_and_absent_when_unknown)
{
	char *out = json_render(stacks_json);

	cr_assert(
		strstr(out,
		       "\"restarts\":0,\"started_by\":null,\"set_caller\":null,\"start_delay_ns\":null,\"config\":null,\"start_stack\":[\"com.example.A.play\","
		       "\"com.example.\\\"B\\\".run\"]}\n"),
		"%s", out);
	cr_assert(strstr(out,
			 "\"start_stack\":[\"com.example.A.play\",\"com.example.\\\"B\\\".run\"],"
			 "\"end_stack\":[\"com.example.C.stop\"]}\n"),
		  "%s", out);
	cr_assert(
		strstr(out,
		       "\"restarts\":0,\"started_by\":null,\"set_caller\":null,\"start_delay_ns\":null,\"config\":null}\n"),
		"the third record has no stack: %s", out);
	free(out);
}

Test(sink_json, returns_enospc_once_the_output_cannot_be_written)
{
	FILE *f = fopen("/dev/full", "w");
	struct anim a = json_anim(7, "animator", NULL, 10);
	struct sink_json *j;
	struct sink s;

	cr_assert_not_null(f);
	setvbuf(f, NULL, _IONBF, 0); /* every fputs reaches the device */
	j = sink_json__new(f);
	s = sink_json__sink(j);
	cr_assert_eq(s.ops->anim_start(s.ctx, &a), -ENOSPC);
	sink_json__free(j);
	fclose(f);
}

Test(sink_json, writes_a_negative_cookie_as_a_signed_id)
{
	struct anim a = json_anim((uint64_t)-42, "animator", NULL, 10);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sink_json *j = sink_json__new(f);
	struct sink s = sink_json__sink(j);

	cr_assert_eq(s.ops->anim_start(s.ctx, &a), 0);
	sink_json__free(j);
	fclose(f);
	cr_assert(strstr(buf, ",\"id\":-42,"), "%s", buf);
	free(buf);
}

static void names_summary(struct sink s)
{
	struct summary sum = { .node_names = { .live = true,
					       .named = 12,
					       .no_offset = 3,
					       .unreadable = 2,
					       .not_class = 1,
					       .gone = 4,
					       .evicted = 5 },
			       .evicted = { .node_names = 5 } };

	s.ops->summary(s.ctx, &sum);
}

Test(sink_json, a_live_summary_says_how_its_nodes_were_named_and_a_replay_says_nothing)
{
	char *live = json_render(names_summary), *replay = json_render(json_scenario);

	cr_assert_not_null(strstr(live, ",\"node_names\":5,"), "%s", live);
	cr_assert_not_null(strstr(live, ",\"node_names\":{\"named\":12,\"no_offset\":3,"
					"\"unreadable\":2,\"not_class\":1,\"gone\":4},"),
			   "%s", live);
	cr_assert_null(strstr(replay, "\"node_names\":{"), "%s", replay);
	free(live);
	free(replay);
}

static void fits_json(struct sink s)
{
	struct anim a = json_anim(4, "animator:alpha", "alpha", 5);

	a.start_ns = 1000;
	a.end_ns = 2000;
	a.reason = END_COMPLETE;
	a.target_node = 0x51c0;
	a.target_inferred = true;
	snprintf(a.target_name, sizeof(a.target_name), "Row");
	a.n_fits = 2;
	a.fits[0] = (struct anim_fit){ 0x51c0, "Row", 12, 0 };
	a.fits[1] = (struct anim_fit){ 0xc000, "", 3, 0 };
	s.ops->anim_end(s.ctx, &a);
}

Test(sink_json, an_inferred_target_lists_the_nodes_that_fit)
{
	char *out = json_render(fits_json);

	cr_assert(strstr(out,
			 "\"target_source\":\"inferred\",\"target_fits\":["
			 "{\"node\":\"0x51c0\",\"node_name\":\"Row@51c0\",\"node_class\":\"Row\","
			 "\"frames\":12},{\"node\":\"0xc000\",\"node_name\":\"RenderNode@c000\","
			 "\"node_class\":null,\"frames\":3}],\"target_fits_more\":false,"
			 "\"changes\":{}"),
		  "%s", out);
	free(out);
}

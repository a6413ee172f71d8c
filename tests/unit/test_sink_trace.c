// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The Chrome Trace Event export: golden output for a hand-built sequence, strict JSON
 * for the whole file, and strict JSON for every record-boundary prefix plus ']' (the
 * property that makes a cut-off file loadable).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "sinks/fanout.h"
#include "sinks/trace.h"

struct st_out {
	char *buf;
	size_t len;
	FILE *f;
	struct sink_trace *t;
	struct sink s;
};

static void st_open(struct st_out *o)
{
	memset(o, 0, sizeof(*o));
	o->f = open_memstream(&o->buf, &o->len);
	cr_assert_not_null(o->f);
	o->t = sink_trace__new(o->f);
	cr_assert_not_null(o->t);
	o->s = sink_trace__sink(o->t);
}

/* Closes the trace and returns the whole file (the caller frees it). */
static char *st_close(struct st_out *o)
{
	sink_trace__free(o->t);
	fclose(o->f);
	return o->buf;
}

static struct anim st_anim(void)
{
	struct anim a = {
		.id = 44292905,
		.kind = ANIM_OBJECT,
		.n_props = 1,
		.pid = 24675,
		.start_tid = 24675,
		.end_tid = 24680,
		.start_ns = 69739902489000ull,
		.end_ns = 69740314489123ull,
		.frames = 25,
		.restarts = 1,
		.reason = END_ENDED,
		.reason_source = REASON_INFERRED,
	};

	strcpy(a.name, "animator:alpha");
	strcpy(a.props[0], "alpha");
	strcpy(a.process, "tutu.ABenchMark");
	return a;
}

static const uint64_t st_ids[] = { 44292905 };

static struct frame st_frame(void)
{
	struct frame f = {
		.pid = 24675,
		.tid = 24675,
		.seq = 7,
		.vsync_id = 1234567,
		.start_ns = 69739910000001ull,
		.dur_ns = 12345678,
		.n_anims = 1,
		.anim_ids = st_ids,
	};

	f.phase_ns[PHASE_ANIMATION] = 1000000;
	f.phase_ns[PHASE_TRAVERSAL] = 5000000;
	strcpy(f.process, "tutu.ABenchMark");
	return f;
}

/* The hand-built sequence: start, a frame, property values, the end, a note. */
static void st_play(struct st_out *o)
{
	struct anim a = st_anim();
	struct frame f = st_frame();
	struct node_props np = { .node = 0x7f00, .set_mask = 1u << PROP_ALPHA };
	struct frame_props fp = {
		.pid = 24675,
		.tid = 24675,
		.ts_ns = 69739910000001ull,
		.frame_seq = 7,
		.vsync_id = 1234567,
		.in_frame = true,
		.n_nodes = 1,
		.nodes = &np,
	};

	strcpy(np.node_name, "ImageView");
	np.values[PROP_ALPHA] = 0.5f;
	strcpy(fp.process, "tutu.ABenchMark");
	o->s.ops->anim_start(o->s.ctx, &a);
	o->s.ops->frame(o->s.ctx, &f);
	o->s.ops->frame_props(o->s.ctx, &fp);
	o->s.ops->anim_end(o->s.ctx, &a);
	o->s.ops->note(o->s.ctx, "reasons are \"inferred\"");
}

static const char st_golden[] =
	"[\n"
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":24675,\"tid\":24675,"
	"\"args\":{\"name\":\"tutu.ABenchMark\"}},\n"
	"{\"ph\":\"X\",\"name\":\"Choreographer#doFrame 1234567\",\"cat\":\"frame\","
	"\"pid\":24675,\"tid\":24675,\"ts\":69739910000.001,\"dur\":12345.678,"
	"\"args\":{\"seq\":7,\"phases_ns\":{\"animation\":1000000,\"traversal\":5000000},"
	"\"animators\":[\"0x2a3db29\"]}},\n"
	"{\"ph\":\"C\",\"name\":\"V|ImageView@7f00|alpha\",\"pid\":24675,\"tid\":24675,"
	"\"ts\":69739910000.001,\"args\":{\"value\":0.5}},\n"
	"{\"ph\":\"b\",\"name\":\"Anim|44292905|Obj|?|alpha:?->?|?|412ms\",\"cat\":\"animator\","
	"\"id\":\"0x2a3db29\",\"pid\":24675,\"tid\":24675,\"ts\":69739902489.000,"
	"\"args\":{\"reason\":\"ended\",\"reason_source\":\"inferred\",\"kind\":\"ObjectAnimator\","
	"\"properties\":[\"alpha\"],\"frames\":25,\"restarts\":1}},\n"
	"{\"ph\":\"e\",\"name\":\"Anim|44292905|Obj|?|alpha:?->?|?|412ms\",\"cat\":\"animator\","
	"\"id\":\"0x2a3db29\",\"pid\":24675,\"tid\":24680,\"ts\":69740314489.123,"
	"\"args\":{\"reason\":\"ended\",\"reason_source\":\"inferred\",\"kind\":\"ObjectAnimator\","
	"\"properties\":[\"alpha\"],\"frames\":25,\"restarts\":1}},\n"
	"{\"ph\":\"i\",\"name\":\"reasons are \\\"inferred\\\"\",\"cat\":\"note\",\"s\":\"g\","
	"\"pid\":0,\"tid\":0,\"ts\":69740314489.123}\n"
	"]\n";

Test(sink_trace, writes_the_golden_file_for_a_hand_built_sequence)
{
	struct st_out o;
	char *got;

	st_open(&o);
	st_play(&o);
	got = st_close(&o);
	cr_assert_str_eq(got, st_golden);
	free(got);
}

static json_object *st_parse_strict(const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *obj;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, text, (int)len);
	cr_assert_eq(json_tokener_get_error(tok), json_tokener_success, "%s at %zu: %.*s",
		     json_tokener_error_desc(json_tokener_get_error(tok)),
		     json_tokener_get_parse_end(tok), (int)len, text);
	cr_assert_eq(json_tokener_get_parse_end(tok), len, "trailing bytes after the JSON");
	json_tokener_free(tok);
	return obj;
}

Test(sink_trace, writes_strict_json_that_json_c_parses)
{
	enum json_tokener_error err;
	json_object *arr, *ev, *v;
	struct st_out o;
	char *got;

	st_open(&o);
	st_play(&o);
	got = st_close(&o);
	arr = json_tokener_parse_verbose(got, &err);
	cr_assert_eq(err, json_tokener_success, "%s", json_tokener_error_desc(err));
	cr_assert(json_object_is_type(arr, json_type_array));
	cr_assert_eq(json_object_array_length(arr), 6);
	ev = json_object_array_get_idx(arr, 4);
	cr_assert(json_object_object_get_ex(ev, "ts", &v));
	cr_assert(json_object_is_type(v, json_type_double));
	cr_assert_str_eq(json_object_get_string(json_object_object_get(ev, "ph")), "e");
	json_object_put(arr);
	arr = st_parse_strict(got, strlen(got));
	json_object_put(arr);
	free(got);
}

/* Cuts the file after each record ("}" before ",\n" or the end) and appends "]". */
Test(sink_trace, every_record_boundary_prefix_with_a_closing_bracket_is_valid_json)
{
	struct st_out o;
	size_t cuts = 0, records;
	char *got, *copy, *p;
	json_object *arr;

	st_open(&o);
	st_play(&o);
	fflush(o.f);
	/* Before free: the file as a crash would leave it (no closing bracket). */
	got = strdup(o.buf);
	free(st_close(&o));
	cr_assert_not_null(got);
	for (p = got; (p = strchr(p, '}')) != NULL; p++) {
		size_t len = (size_t)(p + 1 - got);

		if (!(p[1] == ',' && p[2] == '\n') && p[1] != '\0')
			continue; /* inside a record */
		copy = malloc(len + 2);
		memcpy(copy, got, len);
		memcpy(copy + len, "]", 2);
		arr = st_parse_strict(copy, len + 1);
		records = json_object_array_length(arr);
		cr_assert_eq(records, cuts + 1, "cut %zu holds %zu records", cuts, records);
		json_object_put(arr);
		free(copy);
		cuts++;
	}
	cr_assert_eq(cuts, 6);
	free(got);
}

Test(sink_trace, an_empty_trace_is_an_empty_array)
{
	struct st_out o;
	char *got;

	st_open(&o);
	got = st_close(&o);
	cr_assert_str_eq(got, "[\n\n]\n");
	free(got);
}

Test(sink_trace, marks_an_animator_cancelled_before_start_with_an_instant)
{
	struct anim a = st_anim();
	struct st_out o;
	char *got;

	a.start_ns = 0;
	a.reason = END_CANCEL_BEFORE_START;
	st_open(&o);
	o.s.ops->anim_end(o.s.ctx, &a);
	got = st_close(&o);
	cr_assert(strstr(got, "{\"ph\":\"i\",\"name\":\"Anim|44292905|Obj|?|alpha:?->?|?|?\","
			      "\"cat\":\"animator\",\"s\":\"t\",\"pid\":24675,"
			      "\"tid\":24680,\"ts\":69740314489.123,"),
		  "%s", got);
	cr_assert(strstr(got, "\"reason\":\"cancel_before_start\""), "%s", got);
	cr_assert_null(strstr(got, "\"ph\":\"b\""));
	free(got);
}

/* A CUJ is an async slice from its begin to its end, id its begin vsync id. */
Test(sink_trace, writes_a_cuj_as_an_async_slice)
{
	static const uint64_t ids[] = { 7, 8 };
	struct cuj c = { .pid = 24675,
			 .tid = 24675,
			 .begin_vsync = 1011,
			 .begin_ns = 1000000000,
			 .end_ns = 1216666667,
			 .ended = true,
			 .frames = 13,
			 .janky_frames = 1,
			 .frames_dropped = 2,
			 .n_anims = 2,
			 .anim_ids = ids };
	struct st_out o;
	char *got;

	snprintf(c.name, sizeof(c.name), "SHADE_EXPAND_COLLAPSE");
	snprintf(c.process, sizeof(c.process), "com.android.systemui");
	st_open(&o);
	cr_assert_eq(o.s.ops->cuj(o.s.ctx, &c), 0);
	got = st_close(&o);
	cr_assert(strstr(got,
			 "{\"ph\":\"b\",\"name\":\"CUJ|SHADE_EXPAND_COLLAPSE\","
			 "\"cat\":\"cuj\",\"id\":\"0x3f3\",\"pid\":24675,\"tid\":24675,"
			 "\"ts\":1000000.000,"
			 "\"args\":{\"frames\":13,\"janky_frames\":1,\"frames_dropped\":2,"
			 "\"animators\":2,\"animations\":0,\"ended\":true,\"cancelled\":false}}"),
		  "%s", got);
	cr_assert(strstr(got, "{\"ph\":\"e\",\"name\":\"CUJ|SHADE_EXPAND_COLLAPSE\","
			      "\"cat\":\"cuj\",\"id\":\"0x3f3\",\"pid\":24675,\"tid\":24675,"
			      "\"ts\":1216666.667,"),
		  "%s", got);
	free(got);
}

Test(sink_trace, names_a_process_once_and_escapes_names)
{
	struct anim a = st_anim();
	struct st_out o;
	char *got, *first;

	strcpy(a.props[0], "\x01\"q\"\xff");
	st_open(&o);
	o.s.ops->anim_start(o.s.ctx, &a);
	o.s.ops->anim_end(o.s.ctx, &a);
	o.s.ops->anim_end(o.s.ctx, &a);
	got = st_close(&o);
	first = strstr(got, "process_name");
	cr_assert_not_null(first);
	cr_assert_null(strstr(first + 1, "process_name"));
	cr_assert(strstr(got, "\"name\":\"Anim|44292905|Obj|?|"
			      "%01\\\"q\\\"\\ufffd:?->?|?|412ms\""),
		  "%s", got);
	free(got);
}

Test(sink_trace, writes_counters_with_exact_timestamps_and_rejects_non_finite_values)
{
	struct st_out o;
	char *got;

	st_open(&o);
	cr_assert_eq(sink_trace__counter(o.t, 999, 7, "V|View|translationX", -12.25), 0);
	cr_assert_eq(sink_trace__counter(o.t, 1000, 7, "V|View|alpha", NAN), -EINVAL);
	cr_assert_eq(sink_trace__counter(o.t, 1000, 7, "V|View|alpha", INFINITY), -EINVAL);
	got = st_close(&o);
	cr_assert_str_eq(got, "[\n{\"ph\":\"C\",\"name\":\"V|View|translationX\",\"pid\":7,"
			      "\"tid\":7,\"ts\":0.999,\"args\":{\"value\":-12.25}}\n]\n");
	free(got);
}

Test(sink_trace, frees_null)
{
	sink_trace__free(NULL);
	cr_assert_null(sink_trace__new(NULL));
	cr_assert_eq(errno, EINVAL);
}

struct st_count {
	int starts, ends, frames, summaries, notes;
};

static int cnt_start(void *ctx, const struct anim *a)
{
	((struct st_count *)ctx)->starts++;
	return 0;
}

static int cnt_end(void *ctx, const struct anim *a)
{
	((struct st_count *)ctx)->ends++;
	return 0;
}

static int cnt_frame(void *ctx, const struct frame *f)
{
	((struct st_count *)ctx)->frames++;
	return 0;
}

static int cnt_summary(void *ctx, const struct summary *s)
{
	((struct st_count *)ctx)->summaries++;
	return 0;
}

static int cnt_note(void *ctx, const char *m)
{
	((struct st_count *)ctx)->notes++;
	return 0;
}

static const struct sink_ops st_count_ops = {
	.anim_start = cnt_start,
	.anim_end = cnt_end,
	.frame = cnt_frame,
	.summary = cnt_summary,
	.note = cnt_note, /* frame_props left NULL: the fan-out must skip it */
};

Test(sink_trace, behind_a_fanout_it_writes_the_same_file_and_the_next_sink_gets_everything)
{
	struct st_count n = { 0 };
	struct summary sum = { .last_ns = 1 };
	struct sink_fanout *fo = sink_fanout__new();
	struct st_out o;
	char *got;

	st_open(&o);
	cr_assert_eq(sink_fanout__add(fo, o.s), 0);
	cr_assert_eq(sink_fanout__add(fo, (struct sink){ .ops = &st_count_ops, .ctx = &n }), 0);
	o.s = sink_fanout__sink(fo);
	st_play(&o);
	o.s.ops->summary(o.s.ctx, &sum);
	got = st_close(&o);
	cr_assert_str_eq(got, st_golden);
	cr_assert_eq(n.starts, 1);
	cr_assert_eq(n.ends, 1);
	cr_assert_eq(n.frames, 1);
	cr_assert_eq(n.summaries, 1);
	cr_assert_eq(n.notes, 1);
	sink_fanout__free(fo);
	free(got);
}

Test(sink_trace, animator_args_name_the_target_view_and_its_from_and_to_values)
{
	struct anim a = st_anim();
	struct st_out o;
	char *got;

	a.target_node = 0x7b0a51c0;
	strcpy(a.target_name, "RenderNode@51c0");
	a.n_changes = 1;
	a.changes[0] = (struct prop_change){ .prop = PROP_ALPHA, .from = 1.0f, .to = 0.25f };
	a.interpolator = "FastOutSlowIn";
	st_open(&o);
	o.s.ops->anim_end(o.s.ctx, &a);
	got = st_close(&o);
	cr_assert(strstr(got,
			 "\"frames\":25,\"restarts\":1,\"target\":\"0x7b0a51c0\","
			 "\"target_name\":\"RenderNode@51c0\",\"alpha\":{\"from\":1,\"to\":0.25}}"),
		  "%s", got);
	cr_assert(strstr(got, "{\"ph\":\"b\",\"name\":\"Anim|44292905|Obj|RenderNode@51c0|"
			      "alpha:1->0.25|FastOutSlowIn|412ms\""),
		  "%s", got);
	free(got);
}

/* Unmarked animations are named as the seed's DynamicAnimationTracer named springs, flings. */
Test(sink_trace, a_spring_and_a_fling_are_slices_named_with_their_fitted_parameters)
{
	struct animation sp = { .id = 1,
				.ended = true,
				.kind = FIT_SPRING,
				.pid = 24675,
				.tid = 24675,
				.node = 0x7b0a51c0,
				.n_props = 1,
				.start_ns = 1000000,
				.duration_ns = 500000000 };
	struct animation fl = sp;
	struct st_out o;
	char *got;

	sp.props[0] = (struct animation_prop){
		.prop = PROP_TRANSLATION_Y, .from = 0, .to = 300, .frames = 30, .fitted = true
	};
	sp.props[0].fit = (struct fit_result){ .kind = FIT_SPRING,
					       .stiffness = 200.004,
					       .damping_ratio = 0.5 };
	fl.id = 2;
	fl.kind = FIT_FLING;
	fl.props[0] = sp.props[0];
	fl.props[0].prop = PROP_TRANSLATION_X;
	fl.props[0].fit = (struct fit_result){ .kind = FIT_FLING,
					       .friction_scalar = 1,
					       .start_velocity = 2000 };
	st_open(&o);
	o.s.ops->animation_end(o.s.ctx, &sp);
	o.s.ops->animation_end(o.s.ctx, &fl);
	got = st_close(&o);
	cr_assert(strstr(got, "{\"ph\":\"b\",\"name\":\"Spring|1|RenderNode@51c0|translationY|"
			      "s=200.004,d=0.5|0->300\",\"cat\":\"animation\""),
		  "%s", got);
	cr_assert(strstr(got, "{\"ph\":\"e\",\"name\":\"Fling|2|RenderNode@51c0|translationX|"
			      "f=1|v0=2000\",\"cat\":\"animation\""),
		  "%s", got);
	free(got);
}

Test(sink_trace, a_jank_is_an_instant_on_the_ui_thread_with_its_cause_chain)
{
	struct jank j = {
		.kind = JANK_LATE,
		.pid = 24675,
		.tid = 24675,
		.process = "app",
		.frame_seq = 12,
		.vsync_id = -1,
		.ts_ns = 69740314489123ull,
		.duration_ns = 34000000,
		.budget_ns = 16666667,
		.ui = { 2, { { "Choreographer#doFrame", 34000000 }, { "traversal", 29000000 } } },
		.render = { 1, { { "DrawFrame", 4000000 } } }
	};
	struct st_out o;
	char *got;

	st_open(&o);
	o.s.ops->jank(o.s.ctx, &j);
	got = st_close(&o);
	cr_assert(strstr(got, "{\"ph\":\"i\",\"name\":\"jank: late frame 12\",\"cat\":\"jank\","
			      "\"s\":\"t\",\"pid\":24675,\"tid\":24675,\"ts\":69740314489.123,"
			      "\"args\":{\"duration_ns\":34000000,\"dropped_before\":0,"
			      "\"ui\":[\"Choreographer#doFrame\",\"traversal\"],"
			      "\"render\":[\"DrawFrame\"]}}"),
		  "%s", got);
	json_object_put(st_parse_strict(got, strlen(got)));
	free(got);
}

Test(sink_trace, reports_a_full_disk_when_it_opens)
{
	FILE *f = fopen("/dev/full", "w");

	cr_assert_not_null(f);
	errno = 0;
	cr_assert_null(sink_trace__new(f));
	cr_assert_eq(errno, ENOSPC);
	fclose(f);
}

Test(sink_trace, writes_a_negative_cookie_signed_in_the_name_and_the_id)
{
	struct anim a = { .id = (uint64_t)-42,
			  .pid = 10,
			  .start_tid = 10,
			  .end_tid = 10,
			  .start_ns = 1000,
			  .end_ns = 2000,
			  .reason = END_COMPLETE };
	struct st_out o;
	char *got;

	snprintf(a.name, sizeof(a.name), "animator");
	st_open(&o);
	o.s.ops->anim_end(o.s.ctx, &a);
	got = st_close(&o);
	cr_assert(strstr(got, "\"name\":\"Anim|-42|Val|?|?|?|0.001ms\""), "%s", got);
	cr_assert(strstr(got, "\"id\":\"-0x2a\""), "%s", got);
	free(got);
}

Test(sink_trace, a_followed_spring_is_a_slice_from_its_start_to_its_end_with_the_seeds_name)
{
	struct dyn_anim d = { .id = 105,
			      .kind = DYN_SPRING,
			      .ended = true,
			      .reason = END_CANCEL,
			      .pid = 24675,
			      .tid = 24676,
			      .start_ns = 1000000001,
			      .end_ns = 1216666667,
			      .frames = 13,
			      .has_target = true,
			      .node = 0x55d0a2b33f2cULL,
			      .prop = PROP_TRANSLATION_Y };
	struct st_out o;
	char *got;

	snprintf(d.node_name, sizeof(d.node_name), "NotifRow");
	snprintf(d.process, sizeof(d.process), "com.android.systemui");
	d.config = (struct dyn_config){ .has_spring = true,
					.has_state = true,
					.stiffness = 200,
					.damping_ratio = 0.8f,
					.final_position = -100 };
	st_open(&o);
	cr_assert_eq(o.s.ops->dyn_start(o.s.ctx, &d), 0);
	cr_assert_eq(o.s.ops->dyn_end(o.s.ctx, &d), 0);
	got = st_close(&o);
	cr_assert(strstr(got, "{\"ph\":\"b\",\"name\":\"Spring|105|NotifRow@3f2c|translationY|"
			      "s=200,d=0.8|0->-100\",\"cat\":\"dyn\",\"id\":\"0x69\",\"pid\":24675,"
			      "\"tid\":24676,\"ts\":1000000.001,\"args\":{\"kind\":\"Spring\","
			      "\"reason\":\"cancel\",\"frames\":13,\"end_inferred\":false,"
			      "\"node\":\"0x55d0a2b33f2c\"}}"),
		  "%s", got);
	cr_assert(strstr(got, "{\"ph\":\"e\",\"name\":\"Spring|105|NotifRow@3f2c|translationY|"
			      "s=200,d=0.8|0->-100\",\"cat\":\"dyn\",\"id\":\"0x69\",\"pid\":24675,"
			      "\"tid\":24676,\"ts\":1216666.667,"),
		  "%s", got);
	free(got);
}

/* Issue #22: a finding is an instant of the process, named by its kind, with its ids and text. */
Test(sink_trace, a_finding_is_a_process_instant_with_its_ids_and_sentence)
{
	struct finding f = { .kind = FINDING_REPLACED,
			     .pid = 24675,
			     .ts_ns = 1216666667,
			     .n_ids = 2,
			     .ids = { 168950273, 168950274 } };
	struct st_out o;
	char *got;

	snprintf(f.process, sizeof(f.process), "com.android.systemui");
	snprintf(f.text, sizeof(f.text), "#168950273 was cancelled by #168950274");
	st_open(&o);
	cr_assert_eq(o.s.ops->finding(o.s.ctx, &f), 0);
	got = st_close(&o);
	cr_assert(strstr(got, "{\"ph\":\"i\",\"name\":\"finding: replaced\",\"cat\":\"finding\","
			      "\"s\":\"p\",\"pid\":24675,\"tid\":24675,\"ts\":1216666.667,"
			      "\"args\":{\"ids\":[168950273,168950274],"
			      "\"text\":\"#168950273 was cancelled by #168950274\"}}"),
		  "%s", got);
	free(got);
}

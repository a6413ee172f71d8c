// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An animator's configuration (anim.config, issue #24) from engine__anim_config to the sinks:
 * attached to the S of its cookie (after a start delay too), taken along by an F without S,
 * printed in the Begin and End boxes and in animator_start/animator_end as the seed's
 * AnimatorTracer prints it, and a configured INFINITE repeat running at the end is repeating.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "sinks/box.h"
#include "sinks/json.h"

#define MS 1000000ull
#define PID 10
#define NODE 0x7b0a3f2cull

static char *buf;
static size_t len;
static FILE *out;
static struct engine *eng;
static struct sink_box *box;
static struct sink_json *js;

static void box_setup(void)
{
	out = open_memstream(&buf, &len);
	cr_assert_not_null(out);
	box = sink_box__new(out, &(struct sink_box_opts){ .utf8 = true });
	cr_assert_not_null(box);
	eng = engine__new(NULL, sink_box__sink(box));
	cr_assert_not_null(eng);
}

static void json_setup(void)
{
	out = open_memstream(&buf, &len);
	cr_assert_not_null(out);
	js = sink_json__new(out);
	cr_assert_not_null(js);
	eng = engine__new(NULL, sink_json__sink(js));
	cr_assert_not_null(eng);
}

/* Ends the session without its summary, so the text holds the animator's records only. */
static void teardown(void)
{
	engine__free(eng);
	sink_box__free(box);
	sink_json__free(js);
	box = NULL;
	js = NULL;
	fclose(out);
	free(buf);
	buf = NULL;
}

TestSuite(config_box, .init = box_setup, .fini = teardown);
TestSuite(config_json, .init = json_setup, .fini = teardown);

static void mark(uint64_t ts, char type, const char *name, int64_t cookie)
{
	struct marker m = { .type = (enum marker_type)type, .tgid = PID };

	m.name.p = name ? name : "";
	m.name.len = name ? strlen(name) : 0;
	m.value = cookie;
	engine__marker(eng, ts, PID, PID, "com.example.anim", &m);
}

/* The seed's example: alpha 1 -> 0 over 300 ms, INFINITE REVERSE, 100 ms late, on a row. */
static struct anim_config seed_config(void)
{
	struct anim_config c = {
		.known = true,
		.has_duration = true,
		.has_start_delay = true,
		.has_repeat = true,
		.duration_ms = 300,
		.start_delay_ms = 100,
		.repeat_count = AT_REPEAT_INFINITE,
		.repeat_mode = REPEAT_REVERSE,
		.interpolator = "AccelerateDecelerate",
		.has_values = true,
		.n_values = 1,
		.target_class = "com.android.systemui.statusbar.NotificationRow",
		.target_node = NODE,
	};

	c.values[0] = (struct config_value){
		.property = "alpha", .type = CONFIG_FLOAT, .has_range = true, .from = 1, .to = 0
	};
	return c;
}

/* start() at 1000 ms read c; its S comes start_delay_ms later. */
static void start(uint32_t cookie, const struct anim_config *c, const char *name)
{
	uint64_t t = 1000 * MS;

	engine__art_call(eng, t, PID, PID, ART_CALL_START, true, cookie);
	engine__anim_config(eng, t, PID, cookie, c);
	mark(t + (uint64_t)c->start_delay_ms * MS, 'S', name, cookie);
}

Test(config_box, the_begin_box_says_what_start_was_asked_as_the_seed_does)
{
	struct anim_config c = seed_config();

	start(42, &c, "animator:alpha");
	fflush(out);
	cr_assert_str_eq(buf, "┌── Begin animator:alpha ───────────────────────────────────────\n"
			      "│ ID:         42\n"
			      "│ Type:       ObjectAnimator\n"
			      "│ Target:     NotificationRow@3f2c (exact)\n"
			      "│ Properties: alpha: 1 → 0\n"
			      "│ Process:    com.example.anim (pid 10, tid 10)\n"
			      "│ Start:      1.100000 s\n"
			      "│ Duration:   300ms (repeat: INFINITE, REVERSE)\n"
			      "│ StartDelay: 100ms configured, 100.0 ms measured\n"
			      "│ Interpolator: AccelerateDecelerate\n"
			      "└──\n");
}

Test(config_box, two_holders_an_unnamed_one_and_a_colour_read_as_configured)
{
	struct anim_config c = { .known = true,
				 .has_duration = true,
				 .duration_ms = 250,
				 .has_start_delay = true,
				 .has_repeat = true,
				 .repeat_count = 2,
				 .repeat_mode = REPEAT_RESTART,
				 .interpolator = "PathInterpolator",
				 .has_values = true,
				 .n_values = 3,
				 .values_left_out = 1 };

	c.values[0] = (struct config_value){ "", CONFIG_FLOAT, true, 0, 100.5 };
	c.values[1] = (struct config_value){ "level", CONFIG_INT, true, -3, 12 };
	c.values[2] = (struct config_value){ "backgroundColor", CONFIG_ARGB, true,
					     (double)(int32_t)0xffff0000u, 0x7f00ff00 };
	start(43, &c, "animator");
	fflush(out);
	cr_assert(strstr(buf, "│ Properties: ?: 0 → 100.5, level: -3 → 12, backgroundColor: "
			      "0xffff0000 → 0x7f00ff00, 1 more\n"),
		  "%s", buf);
	cr_assert(strstr(buf, "│ Duration:   250ms (repeat: 2, RESTART)\n"
			      "│ Interpolator: PathInterpolator\n"),
		  "%s", buf);
	cr_assert_null(strstr(buf, "StartDelay"), "no delay configured: %s", buf);
	cr_assert_null(strstr(buf, "Target"), "a ValueAnimator has no target: %s", buf);
}

Test(config_box, the_end_box_sets_configured_beside_measured)
{
	struct anim_config c = seed_config();

	c.repeat_count = 0;
	c.start_delay_ms = 0;
	start(42, &c, "animator:alpha");
	mark(1312400000ull, 'F', "animator:alpha", 42);
	fflush(out);
	cr_assert(strstr(buf, "│ Duration:   300ms configured, 312.4 ms measured\n"), "%s", buf);
	cr_assert(strstr(buf, "│ Properties: alpha: 1 → 0 (configured)\n"), "%s", buf);
	cr_assert(strstr(buf, "│ Interpolator: AccelerateDecelerate configured\n"), "%s", buf);
}

Test(config_box, a_config_waits_for_the_s_of_its_own_cookie_only)
{
	struct anim_config c = seed_config();

	engine__anim_config(eng, 1000 * MS, PID, 41, &c);
	mark(1001 * MS, 'S', "animator:alpha", 42);
	fflush(out);
	cr_assert_null(strstr(buf, "Duration"), "%s", buf);
	cr_assert_null(strstr(buf, "(exact)"), "%s", buf);
	mark(1002 * MS, 'S', "animator:alpha", 41);
	fflush(out);
	cr_assert(strstr(buf, "│ ID:         41\n│ Type:       ObjectAnimator\n│ Target:     "
			      "NotificationRow@3f2c (exact)\n"),
		  "%s", buf);
}

Test(config_box, an_unknown_config_prints_what_it_printed_before)
{
	struct anim_config c = { .known = false, .has_duration = true, .duration_ms = 300 };

	start(42, &c, "animator:alpha");
	fflush(out);
	cr_assert_str_eq(buf, "┌── Begin animator:alpha ───────────────────────────────────────\n"
			      "│ ID:         42\n"
			      "│ Type:       ObjectAnimator\n"
			      "│ Properties: alpha\n"
			      "│ Process:    com.example.anim (pid 10, tid 10)\n"
			      "│ Start:      1.000000 s\n"
			      "└──\n");
}

Test(config_json, animator_start_and_end_carry_the_config_with_null_where_unknown)
{
	struct anim_config c = seed_config();
	const char *want =
		",\"config\":{\"duration_ms\":300,\"start_delay_ms\":100,\"repeat_count\":-1,"
		"\"repeat_mode\":\"REVERSE\",\"interpolator\":\"AccelerateDecelerate\","
		"\"values\":[{\"property\":\"alpha\",\"type\":\"float\",\"from\":1,\"to\":0}],"
		"\"values_left_out\":0,"
		"\"target_class\":\"com.android.systemui.statusbar.NotificationRow\","
		"\"target_node\":\"0x7b0a3f2c\"}";
	char *first, *second;

	start(42, &c, "animator:alpha");
	mark(1500 * MS, 'F', "animator:alpha", 42);
	fflush(out);
	first = strstr(buf, want);
	cr_assert_not_null(first, "%s", buf);
	cr_assert(!strncmp(strstr(buf, "{\"type\":\"animator_start\""), buf, 10));
	second = strstr(first + 1, want);
	cr_assert_not_null(second, "animator_end has it too: %s", buf);
	cr_assert(strstr(buf, "{\"type\":\"animator_end\"") < second);
}

Test(config_json, each_value_the_reader_could_not_tell_is_null)
{
	struct anim_config c = { .known = true,
				 .has_duration = true,
				 .duration_ms = 200,
				 .has_values = true,
				 .n_values = 1 };

	c.values[0] = (struct config_value){ "", CONFIG_ARGB, false, 0, 0 };
	start(42, &c, "animator");
	fflush(out);
	cr_assert(strstr(buf, ",\"config\":{\"duration_ms\":200,\"start_delay_ms\":null,"
			      "\"repeat_count\":null,\"repeat_mode\":null,\"interpolator\":null,"
			      "\"values\":[{\"property\":null,\"type\":\"argb\",\"from\":null,"
			      "\"to\":null}],\"values_left_out\":0,\"target_class\":null,"
			      "\"target_node\":null}}\n"),
		  "%s", buf);
	c.has_values = false;
	c.values[0] =
		(struct config_value){ "x", CONFIG_ARGB, true, (double)(int32_t)0xff00ff00u, 0x10 };
	engine__anim_config(eng, 2000 * MS, PID, 43, &c);
	c = (struct anim_config){ .known = true, .has_values = true, .n_values = 1 };
	c.values[0] =
		(struct config_value){ "x", CONFIG_ARGB, true, (double)(int32_t)0xff00ff00u, 0x10 };
	engine__anim_config(eng, 2000 * MS, PID, 44, &c);
	mark(2001 * MS, 'S', "animator", 43);
	mark(2002 * MS, 'S', "animator", 44);
	fflush(out);
	cr_assert(strstr(buf, "\"interpolator\":null,\"values\":null,\"values_left_out\":null,"),
		  "%s", buf);
	cr_assert(strstr(buf, "\"values\":[{\"property\":\"x\",\"type\":\"argb\","
			      "\"from\":\"0xff00ff00\",\"to\":\"0x00000010\"}]"),
		  "%s", buf);
}

Test(config_json, an_f_without_s_takes_its_config_along)
{
	struct anim_config c = seed_config();

	engine__art_call(eng, 1000 * MS, PID, PID, ART_CALL_START, true, 42);
	engine__anim_config(eng, 1000 * MS, PID, 42, &c);
	mark(1050 * MS, 'F', "animator:alpha", 42);
	fflush(out);
	cr_assert(strstr(buf, "\"reason\":\"cancel_before_start\""), "%s", buf);
	cr_assert(strstr(buf, "\"config\":{\"duration_ms\":300,\"start_delay_ms\":100,"), "%s",
		  buf);
	/* consumed: a later S of the cookie has none */
	mark(2000 * MS, 'S', "animator:alpha", 42);
	fflush(out);
	cr_assert(
		strstr(buf,
		       "\"restarts\":0,\"started_by\":null,\"set_caller\":null,\"start_delay_ns\":null,\"config\":null}"),
		"%s", buf);
}

/* The End box of a, ended 312.4 ms after its S, whose values fitted as fitted. */
static void end_box(const char *configured, const char *fitted)
{
	struct anim a = { .id = 42,
			  .name = "animator:alpha",
			  .kind = ANIM_OBJECT,
			  .pid = PID,
			  .start_ns = 1000 * MS,
			  .end_ns = 1312400000ull,
			  .reason = END_COMPLETE,
			  .interpolator = fitted,
			  .interp_rms = 0.0042 };
	struct sink s = sink_box__sink(box);

	a.config = seed_config();
	snprintf(a.config.interpolator, sizeof(a.config.interpolator), "%s", configured);
	s.ops->anim_end(s.ctx, &a);
	fflush(out);
}

Test(config_box, a_fitted_curve_that_is_not_the_configured_one_is_said_plainly)
{
	end_box("AccelerateDecelerate", "Linear");
	cr_assert(strstr(buf, "│ Interpolator: AccelerateDecelerate configured, Linear fitted "
			      "(rms 0.0042): the values do not follow the configured curve\n"),
		  "%s", buf);
}

Test(config_box, a_fitted_curve_that_is_the_configured_one_agrees)
{
	end_box("AccelerateDecelerate", "AccelerateDecelerate");
	cr_assert(strstr(buf,
			 "│ Interpolator: AccelerateDecelerate configured, AccelerateDecelerate "
			 "fitted (rms 0.0042): as configured\n"),
		  "%s", buf);
	cr_assert(strstr(buf, "│ Duration:   300ms (repeat: INFINITE, REVERSE) configured, "
			      "312.4 ms measured\n"),
		  "%s", buf);
}

Test(config_box, a_path_interpolator_is_set_beside_the_fit_without_a_verdict)
{
	end_box("PathInterpolator", "FastOutSlowIn");
	cr_assert(strstr(buf, "│ Interpolator: PathInterpolator configured, FastOutSlowIn fitted "
			      "(rms 0.0042)\n"),
		  "%s", buf);
}

Test(config_box, an_inferred_target_the_configuration_names_is_exact)
{
	struct anim a = { .id = 42,
			  .name = "animator:alpha",
			  .kind = ANIM_OBJECT,
			  .pid = PID,
			  .start_ns = 1000 * MS,
			  .end_ns = 1300 * MS,
			  .reason = END_COMPLETE,
			  .target_node = NODE,
			  .target_name = "NotificationRow",
			  .target_inferred = true };
	struct sink s = sink_box__sink(box);

	a.config = seed_config();
	s.ops->anim_end(s.ctx, &a);
	a.config.target_node = NODE + 8; /* another node: the inference stands as it is */
	s.ops->anim_end(s.ctx, &a);
	fflush(out);
	cr_assert(strstr(buf, "│ Target:     NotificationRow@3f2c (exact)\n"), "%s", buf);
	cr_assert(strstr(buf, "│ Target:     NotificationRow@3f2c (inferred)\n"), "%s", buf);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root), issue #24: the simulator's config scenario lays its animators out as
 * ART would (tests/sim/sim_heap.c, from the dex fixtures) under a fake boot class path, and
 * passes `this` to its ValueAnimator.start. animtrace must read each one's configuration
 * exactly at its start (animator_start's config, the target node before any frame), call the
 * INFINITE one repeating, and, with the objects laid out as another Android version would,
 * print no configuration and say why in one line.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"

#define TARGET "com.example.cfg"
#define COOKIE(i) (0x0a11fa00 + (i)) /* the simulator's target cookies */

TestSuite(config, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

struct run {
	struct e2e_jsonl got, exp;
	char err[PATH_MAX], out[PATH_MAX];
};

/* animtrace (format: json or box) around one config run of the simulator (extra: a
 * simulator flag); the output file's path in r->out. */
static void run_config_as(struct run *r, const char *extra, const char *format)
{
	char *out = r->out, exp_path[PATH_MAX], go[PATH_MAX], name[E2E_NAME_MAX];
	const char *args[] = { "--proc", name, "--format",	    format,
			       "-o",	 out,  "--no-atrace-setup", NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",	  name,	 "--scenario",
			      "config",	   "--linger-ms", "300", "--expect",
			      exp_path,	   "--go",	  go,	 extra,
			      NULL };
	pid_t at, s;

	e2e_name(name, TARGET);
	e2e_path(out, "out.jsonl");
	e2e_path(exp_path, "expect.jsonl");
	e2e_path(go, "go");
	at = e2e_animtrace(args, e2e_path(r->err, "err.txt"), NULL);
	s = e2e_spawn(sim, NULL);
	e2e_await(r->err, at, "animtrace: pid ", "end reasons from ART probes", NULL);
	e2e_go(go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(r->err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	if (!strcmp(format, "json"))
		e2e_jsonl_load(&r->got, out);
	e2e_jsonl_load(&r->exp, exp_path);
}

static void run_config(struct run *r, const char *extra)
{
	run_config_as(r, extra, "json");
}

static void run_free(struct run *r)
{
	e2e_jsonl_free(&r->got);
	e2e_jsonl_free(&r->exp);
}

/* The first record of type with id (or, for the simulator's config lines, cookie). */
static json_object *find(const struct e2e_jsonl *j, const char *type, const char *key, int64_t id)
{
	for (size_t i = 0; i < j->n; i++)
		if (e2e_type_is(j->v[i], type) && e2e_int(j->v[i], key) == id)
			return j->v[i];
	cr_assert_fail("no %s with %s %lld", type, key, (long long)id);
	return NULL;
}

/* animator_start of cookie has exactly config want, whose target_node (when "%s") is the
 * simulator's for that cookie. */
static void assert_config(const struct run *r, int i, const char *want)
{
	json_object *start = find(&r->got, "animator_start", "id", COOKIE(i));
	json_object *exp = find(&r->exp, "config", "cookie", COOKIE(i));
	char full[1024];

	snprintf(full, sizeof(full), want, e2e_str(exp, "target_node"));
	cr_assert_str_eq(json_object_to_json_string_ext(e2e_get(start, "config"),
							JSON_C_TO_STRING_PLAIN),
			 full, "%s", e2e_slurp(r->err));
}

Test(config, each_animator_has_its_exact_configuration_and_target_at_its_start)
{
	struct run r;
	json_object *end;
	int findings = 0;

	run_config(&r, NULL);
	assert_config(
		&r, 1,
		"{\"duration_ms\":300,\"start_delay_ms\":0,\"repeat_count\":-1,"
		"\"repeat_mode\":\"REVERSE\",\"interpolator\":\"AccelerateDecelerate\","
		"\"values\":[{\"property\":\"alpha\",\"type\":\"float\",\"from\":1,\"to\":0}],"
		"\"values_left_out\":0,\"target_class\":\"android.view.View\","
		"\"target_node\":\"%s\"}");
	assert_config(&r, 2,
		      "{\"duration_ms\":200,\"start_delay_ms\":100,\"repeat_count\":0,"
		      "\"repeat_mode\":\"RESTART\",\"interpolator\":\"PathInterpolator\","
		      "\"values\":[{\"property\":\"translationX\",\"type\":\"float\",\"from\":0,"
		      "\"to\":120}],\"values_left_out\":0,\"target_class\":\"android.view.View\","
		      "\"target_node\":\"%s\"}");
	assert_config(&r, 3,
		      "{\"duration_ms\":150,\"start_delay_ms\":0,\"repeat_count\":0,"
		      "\"repeat_mode\":\"RESTART\",\"interpolator\":\"AccelerateDecelerate\","
		      "\"values\":[{\"property\":\"backgroundColor\",\"type\":\"argb\","
		      "\"from\":\"0xffff0000\",\"to\":\"0xff0000ff\"}],\"values_left_out\":0,"
		      "\"target_class\":\"android.view.View\",\"target_node\":\"%s\"}");
	assert_config(
		&r, 4,
		"{\"duration_ms\":250,\"start_delay_ms\":0,\"repeat_count\":2,"
		"\"repeat_mode\":\"RESTART\",\"interpolator\":\"PathInterpolator\","
		"\"values\":[{\"property\":\"x\",\"type\":\"float\",\"from\":-40.5,\"to\":100},"
		"{\"property\":\"level\",\"type\":\"int\",\"from\":3,\"to\":50}],"
		"\"values_left_out\":0,\"target_class\":null,\"target_node\":null}");
	/* the INFINITE one runs until its process exits: repeating, as configured */
	end = find(&r.got, "animator_end", "id", COOKIE(1));
	cr_assert_str_eq(e2e_str(end, "reason"), "process_exit");
	for (size_t i = 0; i < r.got.n; i++) {
		json_object *f = r.got.v[i];

		if (!e2e_type_is(f, "finding"))
			continue;
		cr_assert_str_eq(e2e_str(f, "kind"), "repeating", "%s",
				 json_object_to_json_string(f));
		cr_assert_eq(json_object_get_int64(json_object_array_get_idx(e2e_get(f, "ids"), 0)),
			     COOKIE(1));
		findings++;
	}
	cr_assert_eq(findings, 1, "the INFINITE one, never stalled");
	cr_assert(strstr(e2e_slurp(r.err), "animator configurations: 4 read, 0 reads failed"), "%s",
		  e2e_slurp(r.err));
	run_free(&r);
}

/* The Begin boxes say what the code asked for, as the seed's AnimatorTracer printed it. */
Test(config, the_begin_boxes_say_what_the_code_asked_for)
{
	static const char *const want[] = {
		"Duration:   300ms (repeat: INFINITE, REVERSE)",
		"Interpolator: AccelerateDecelerate",
		"Properties: alpha: 1 → 0",
		"Duration:   200ms",
		"StartDelay: 100ms",
		"Interpolator: PathInterpolator",
		"Properties: translationX: 0 → 120",
		"Properties: backgroundColor: 0xffff0000 → 0xff0000ff",
		"Duration:   250ms (repeat: 2, RESTART)",
		"Properties: x: -40.5 → 100, level: 3 → 50",
		"Target:     View@",
	};
	struct run r = { 0 };
	const char *box;

	run_config_as(&r, NULL, "box");
	box = e2e_slurp(r.out);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_assert(strstr(box, want[i]), "no \"%s\" in:\n%s", want[i], box);
	cr_assert(strstr(box, "(exact)"), "%s", box);
	run_free(&r);
}

Test(config, a_heap_laid_out_for_another_android_prints_no_value_and_says_why_once)
{
	struct run r;
	char *err;
	const char *line = "warning: pid ";

	run_config(&r, "--wrong-layout");
	for (int i = 1; i <= 4; i++) {
		json_object *start = find(&r.got, "animator_start", "id", COOKIE(i));

		cr_assert(e2e_is_null(start, "config"), "%s", json_object_to_json_string(start));
	}
	err = e2e_slurp(r.err);
	cr_assert(strstr(err, ": animator configurations not read: mRepeatMode 0 is neither "
			      "RESTART nor REVERSE\n"),
		  "%s", err);
	cr_assert_eq(strstr(strstr(err, line) + 1, line), NULL, "one line: %s", err);
	run_free(&r);
}

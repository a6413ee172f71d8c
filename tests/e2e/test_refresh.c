// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root), --refresh (issue 15): the simulator's refresh scenario re-records
 * NotificationRow in frames 1-18 under an alpha animator, animates ScrimView's translationY
 * in 21-38 without redrawing, then re-records ScrimView in 41-85 with nothing running, each
 * of those frames asking for the next vsync through the fixture nativeScheduleVsync.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"

#define TARGET "com.example.refresh"

TestSuite(refresh, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

/* Runs the scenario under animtrace with extra args; out gets the JSON lines. */
static void run(const char *extra, const char *extra2, char *out, char *err, char *exp_path)
{
	char name[E2E_NAME_MAX], go[PATH_MAX];
	const char *args[] = { "--proc", name,	 "--format", "json", "-o", out, "--no-atrace-setup",
			       extra,	 extra2, NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",   name,	 "--scenario",
			      "refresh",   "--frames", "95",	 "--linger-ms",
			      "500",	   "--expect", exp_path, "--go",
			      go,	   NULL };
	pid_t at, s;

	e2e_name(name, TARGET);
	e2e_path(go, "go");
	e2e_path(out, "out.jsonl");
	e2e_path(exp_path, "expect.jsonl");
	at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	s = e2e_spawn(sim, NULL);
	/* with --refresh its probes come after the setter and ART ones: wait for their line */
	e2e_release(err, at, e2e_find_child(s, name), E2E_PROPS | E2E_ART, NULL);
	if (extra && !strcmp(extra, "--refresh"))
		e2e_await(err, at, "frame requests from", NULL);
	e2e_go(go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
}

/* The simulator's redraw of frame f ("" when none). */
static const char *expected_node(const struct e2e_jsonl *exp, int64_t f)
{
	for (size_t i = 0; i < exp->n; i++)
		if (e2e_type_is(exp->v[i], "redraw") && e2e_int(exp->v[i], "frame") == f)
			return e2e_str(exp->v[i], "node");
	return "";
}

static int expected_vsyncs(const struct e2e_jsonl *exp, int64_t f)
{
	int n = 0;

	for (size_t i = 0; i < exp->n; i++)
		n += e2e_type_is(exp->v[i], "vsync_request") && e2e_int(exp->v[i], "frame") == f;
	return n;
}

/* The frame whose vsync id is vsync, from the simulator's "frame" lines (ids are its own). */
static int64_t frame_of_vsync(const struct e2e_jsonl *exp, int64_t vsync)
{
	for (size_t i = 0; i < exp->n; i++)
		if (e2e_type_is(exp->v[i], "frame") && e2e_int(exp->v[i], "vsync") == vsync)
			return e2e_int(exp->v[i], "frame");
	cr_assert_fail("no frame with vsync id %lld in the expect file", (long long)vsync);
	return 0;
}

static void check_frames(const struct e2e_jsonl *got, const struct e2e_jsonl *exp)
{
	int frames = 0;

	for (size_t i = 0; i < got->n; i++) {
		json_object *o = got->v[i], *rd;
		int64_t f;
		const char *want;

		if (!e2e_type_is(o, "frame"))
			continue;
		f = frame_of_vsync(exp, e2e_int(o, "vsync_id"));
		rd = e2e_get(o, "redraws");
		want = expected_node(exp, f);
		cr_assert_eq(json_object_array_length(rd), *want ? 1 : 0, "frame %lld",
			     (long long)f);
		if (*want)
			cr_assert_str_eq(e2e_str(json_object_array_get_idx(rd, 0), "node"), want,
					 "frame %lld", (long long)f);
		cr_assert_eq(e2e_int(o, "vsync_requests"), expected_vsyncs(exp, f), "frame %lld",
			     (long long)f);
		frames++;
	}
	cr_assert_eq(frames, 95);
}

Test(refresh, redraws_per_frame_and_animator_and_one_storm_with_the_requesting_java_code)
{
	char out[PATH_MAX], err[PATH_MAX], exp_path[PATH_MAX];
	struct e2e_jsonl got, exp;
	int ends = 0, storms = 0;

	run("--refresh", "--stacks", out, err, exp_path);
	e2e_jsonl_load(&got, out);
	e2e_jsonl_load(&exp, exp_path);
	check_frames(&got, &exp);
	for (size_t i = 0; i < got.n; i++) {
		json_object *o = got.v[i];

		if (e2e_type_is(o, "animator_end")) {
			bool alpha = !strcmp(e2e_str(o, "name"), "animator:alpha");

			cr_assert_eq(e2e_int(o, "frames"), 18);
			/* alpha: frames 2-17. Frame 1 sets alpha to its start value (no change,
			 * so no target yet); frame 18's redraw comes after its F. */
			cr_assert_eq(e2e_int(o, "target_redraws"), alpha ? 16 : 0, "%s",
				     e2e_str(o, "name"));
			ends++;
		}
		if (e2e_type_is(o, "refresh_storm")) {
			json_object *st = e2e_get(o, "stack");

			cr_assert_str_eq(e2e_str(o, "node"), expected_node(&exp, 41));
			cr_assert_eq(e2e_int(o, "frames"), 45);
			cr_assert_eq(e2e_int(o, "node_frames"), 45);
			cr_assert_eq(e2e_int(o, "vsync_requests"), 45);
			cr_assert_str_eq(json_object_get_string(json_object_array_get_idx(st, 0)),
					 "android.view.Choreographer.scheduleVsyncLocked");
			cr_assert_str_eq(json_object_get_string(json_object_array_get_idx(st, 1)),
					 "com.example.battery.BatteryMeterView.onLevelChanged");
			storms++;
		}
	}
	cr_assert_eq(ends, 2);
	cr_assert_eq(storms, 1, "stderr:\n%s", e2e_slurp(err));
	e2e_jsonl_free(&got);
	e2e_jsonl_free(&exp);
}

Test(refresh, without_the_flag_nothing_of_it_is_attached)
{
	char out[PATH_MAX], err[PATH_MAX], exp_path[PATH_MAX];
	char *text;

	run("--stacks", NULL, out, err, exp_path);
	text = e2e_slurp(err);
	cr_assert_null(strstr(text, "redraws from"), "%s", text);
	cr_assert_null(strstr(text, "frame requests from"), "%s", text);
	cr_assert_null(strstr(e2e_slurp(out), "refresh_storm"));
	cr_assert_null(strstr(e2e_slurp(out), "vsync_requests"));
}

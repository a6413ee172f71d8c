// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live (root): the findings scenarios of animsim (tests/sim/README.md, sim_findings.c), one
 * per kind of finding and a clean one, with and without the ART probes. animtrace's finding
 * records must be exactly the simulator's "finding" expect lines (kind, ids, node, node_name,
 * property) with the facts of their text; a scenario with no problem gives none.
 */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"

TestSuite(findings_live, .init = e2e_setup, .fini = e2e_teardown, .timeout = 240);

struct run {
	char out[PATH_MAX], exp[PATH_MAX], err[PATH_MAX];
	struct e2e_jsonl j, x; /* animtrace's records, the simulator's expect lines */
	pid_t pid;
};

enum run_flags {
	RUN_NO_ART = 1,	   /* animtrace --no-art (the simulator still calls its ART fixture) */
	RUN_STACKS = 2,	   /* animtrace --stacks */
	RUN_STOP_LIVE = 4, /* tracing stops after the last frame, the process still running */
	RUN_BOX = 8,	   /* box output instead of JSON (then j stays empty) */
};

/*
 * animtrace traces animsim --scenario sc for frames frames; it plays once every probe is on
 * (the setters; ART too unless RUN_NO_ART). Tracing stops once the process exited, or with
 * RUN_STOP_LIVE right after its last frame while it lingers with its animators running.
 */
static void run(struct run *r, const char *sc, const char *frames, unsigned int flags)
{
	char go[PATH_MAX], name[E2E_NAME_MAX], pat[48];
	const char *args[12] = {
		"--proc", name,	  "--format",	      flags & RUN_BOX ? "box" : "json",
		"-o",	  r->out, "--no-atrace-setup"
	};
	const char *sim[] = { E2E_ANIMSIM,
			      "--name",
			      name,
			      "--scenario",
			      sc,
			      "--frames",
			      frames,
			      "--expect",
			      r->exp,
			      "--go",
			      go,
			      "--linger-ms",
			      flags & RUN_STOP_LIVE ? "60000" : "0",
			      NULL };
	int n = 7;

	e2e_name(name, "com.example.findings");
	e2e_path(r->out, "out");
	e2e_path(r->exp, "expect.jsonl");
	e2e_path(go, "go");
	if (flags & RUN_NO_ART)
		args[n++] = "--no-art";
	if (flags & RUN_STACKS)
		args[n++] = "--stacks";
	const char *env_add[] = { "LC_ALL=C.UTF-8", NULL }; /* the box's arrows and corners */
	struct e2e_spawn so = { .env = e2e_env(env_add) };
	pid_t at = e2e_animtrace(args, e2e_path(r->err, "err.txt"), &so);
	pid_t s = e2e_spawn(sim, NULL);

	free(so.env);

	r->pid = e2e_find_child(s, name);
	e2e_release(r->err, at, r->pid, E2E_PROPS | (flags & RUN_NO_ART ? 0 : E2E_ART), go);
	if (flags & RUN_STOP_LIVE) {
		/* the expect lines are written after the last frame, before the linger */
		e2e_await(r->exp, s, "\"type\":\"animator\"", NULL);
		snprintf(pat, sizeof(pat), "\"seq\":%s,", frames);
		e2e_await(r->out, at, "{\"type\":\"frame\"", pat, NULL);
		kill(at, SIGINT);
		cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
		cr_assert(e2e_running(s), "the simulator still runs when tracing stops");
		kill(s, SIGKILL);
		e2e_wait(s, "animsim");
	} else {
		cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
		snprintf(pat, sizeof(pat), "(pid %d) exited", r->pid);
		e2e_await(r->err, at, pat, NULL);
		kill(at, SIGINT);
		cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	}
	if (!(flags & RUN_BOX))
		e2e_jsonl_load(&r->j, r->out);
	e2e_jsonl_load(&r->x, r->exp);
}

static void run_free(struct run *r)
{
	if (r->j.v)
		e2e_jsonl_free(&r->j);
	e2e_jsonl_free(&r->x);
}

/* The id animtrace gave the unmarked animation of node (its animation_end). */
static int64_t animation_id(const struct run *r, const char *node)
{
	for (size_t i = 0; i < r->j.n; i++)
		if (e2e_type_is(r->j.v[i], "animation_end") &&
		    !strcmp(e2e_str(r->j.v[i], "node"), node))
			return e2e_int(r->j.v[i], "id");
	cr_assert_fail("no animation_end of %s", node);
	return 0;
}

/* "kind ids node_name(node) property[ and code]" of a finding (animtrace's or an expect
 * line; code: code that is no animator is among its writers). */
static void describe(char *buf, size_t size, json_object *o, const char *node_name,
		     int64_t unmarked_id, bool code)
{
	json_object *ids = e2e_get(o, "ids");
	size_t len = (size_t)snprintf(buf, size, "%s", e2e_str(o, "kind"));

	for (size_t k = 0; k < json_object_array_length(ids) && len < size; k++)
		len += (size_t)snprintf(
			buf + len, size - len, " %lld",
			(long long)(unmarked_id >= 0 ? unmarked_id :
						       json_object_get_int64(
							       json_object_array_get_idx(ids, k))));
	if (len < size)
		snprintf(buf + len, size - len, " %s(%s) %s%s", node_name, e2e_str(o, "node"),
			 e2e_str(o, "property"), code ? " and code" : "");
}

/* animtrace's findings of the run's process, exactly the expect lines, in any order:
 * "kind ids node_name(node) property[ and code]" each; returns how many. */
static int check_findings(const struct run *r)
{
	char got[8][256], want[8][256], name[96];
	int n_got = 0, n_want = 0;

	for (size_t i = 0; i < r->j.n; i++) {
		json_object *o = r->j.v[i];
		const char *label;

		if (!e2e_type_is(o, "finding") || e2e_int(o, "pid") != r->pid)
			continue;
		cr_assert_lt(n_got, 8, "too many findings");
		label = e2e_str(o, "node_name"); /* Class@xxxx: the class is what the app named */
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(label, "@"), label);
		describe(got[n_got++], sizeof(got[0]), o, name, -1,
			 strstr(e2e_str(o, "text"), "code that is no animator") != NULL);
	}
	for (size_t i = 0; i < r->x.n; i++) {
		json_object *o = r->x.v[i];

		if (!e2e_type_is(o, "finding"))
			continue;
		cr_assert_lt(n_want, 8);
		describe(want[n_want++], sizeof(want[0]), o, e2e_str(o, "node_name"),
			 json_object_get_boolean(e2e_get(o, "unmarked")) ?
				 animation_id(r, e2e_str(o, "node")) :
				 -1,
			 json_object_get_boolean(e2e_get(o, "code")));
	}
	cr_assert_eq(n_got, n_want, "%d findings, %d expected (first: %s)", n_got, n_want,
		     n_got ? got[0] : "none");
	for (int w = 0; w < n_want; w++) {
		int g = 0;

		while (g < n_got && strcmp(got[g], want[w]))
			g++;
		cr_assert_lt(g, n_got, "no finding \"%s\"; got \"%s\"%s%s", want[w], got[0],
			     n_got > 1 ? ", " : "", n_got > 1 ? got[1] : "");
		got[g][0] = '\0';
	}
	return n_got;
}

/* The text of the finding of kind whose first id is id (fails when there is none). */
static const char *finding_text(const struct run *r, const char *kind, int64_t id)
{
	for (size_t i = 0; i < r->j.n; i++) {
		json_object *o = r->j.v[i];

		if (e2e_type_is(o, "finding") && !strcmp(e2e_str(o, "kind"), kind) &&
		    json_object_get_int64(json_object_array_get_idx(e2e_get(o, "ids"), 0)) == id)
			return e2e_str(o, "text");
	}
	cr_assert_fail("no %s finding of %lld", kind, (long long)id);
	return NULL;
}

static void assert_has(const char *text, const char *part)
{
	cr_assert_not_null(strstr(text, part), "no \"%s\" in \"%s\"", part, text);
}

/* The expect file's cookie of the scenario's animator i (1-based, in its table order). */
static int64_t cookie(const struct run *r, int i)
{
	for (size_t k = 0; k < r->x.n; k++)
		if (e2e_type_is(r->x.v[k], "animator") && !--i)
			return e2e_int(r->x.v[k], "cookie");
	cr_assert_fail("no animator %d in the expect file", i);
	return 0;
}

/* The animator_end record of id. */
static json_object *end_of(const struct run *r, int64_t id)
{
	for (size_t i = 0; i < r->j.n; i++)
		if (e2e_type_is(r->j.v[i], "animator_end") && e2e_int(r->j.v[i], "id") == id)
			return r->j.v[i];
	cr_assert_fail("no animator_end of %lld", (long long)id);
	return NULL;
}

/* ---- flicker --------------------------------------------------------------------------- */

Test(findings_live, a_start_cancelled_in_its_frame_and_one_cancelled_in_the_next_flicker)
{
	struct run r = { 0 };

	run(&r, "flicker", "30", RUN_STACKS);
	cr_assert_eq(check_findings(&r), 2);
	const char *one = finding_text(&r, "flicker", cookie(&r, 1));
	const char *two = finding_text(&r, "flicker", cookie(&r, 2));

	/* the start and the end callers side by side: ObjectAnimator.start's app caller, and
	 * the app's cancel() */
	assert_has(one, "ended by cancel() before its second frame with values (1): started by "
			"com.example.anim.QuickSettings.toggle | ended by "
			"com.example.anim.PanelAnimator.stop, 0.");
	assert_has(two, "ended by cancel() before its second frame with values (1): started by "
			"com.example.anim.QuickSettings.toggle | ended by "
			"com.example.anim.PanelAnimator.stop, ");
	/* the second one's S and F are a frame apart: two doFrames, one of them with values */
	cr_assert_eq(e2e_int(end_of(&r, cookie(&r, 2)), "frames"), 2);
	cr_assert_eq(e2e_int(end_of(&r, cookie(&r, 1)), "frames"), 1);
	cr_assert_str_eq(e2e_str(end_of(&r, cookie(&r, 1)), "reason"), "cancel");
	run_free(&r);
}

/* Without the ART probes (and so on every replay) markers cannot tell a cancel: the one in
 * its S's frame is first_frame, never force_end; the one a frame later is a flicker whose
 * cause markers cannot name. */
Test(findings_live, without_art_probes_the_same_frame_cancel_is_first_frame_and_both_flicker)
{
	struct run r = { 0 };

	run(&r, "flicker", "30", RUN_NO_ART);
	cr_assert_eq(check_findings(&r), 2);
	cr_assert_str_eq(e2e_str(end_of(&r, cookie(&r, 1)), "reason"), "first_frame");
	cr_assert_str_eq(e2e_str(end_of(&r, cookie(&r, 2)), "reason"), "ended");
	assert_has(finding_text(&r, "flicker", cookie(&r, 1)),
		   "ended by cancel() or end() before its second frame with values (1)");
	assert_has(finding_text(&r, "flicker", cookie(&r, 2)),
		   "ended by cancel(), end() or a duration under a frame (no ART probes to tell)");
	run_free(&r);
}

/* The flicker scenario's markers as a capture: S and F of one animator in one doFrame. */
Test(findings_live, on_replay_an_s_and_f_in_one_frame_are_first_frame_not_force_end)
{
	char cap[PATH_MAX], out[PATH_MAX];
	FILE *f = fopen(e2e_path(cap, "flicker.txt"), "w");
	struct e2e_jsonl j;
	int ends = 0;

	cr_assert_not_null(f);
	fputs("# tracer: nop\n"
	      " com.example.app-300 (300) [000] .... 10.000000: tracing_mark_write: "
	      "B|300|Choreographer#doFrame 1000\n"
	      " com.example.app-300 (300) [000] .... 10.000100: tracing_mark_write: B|300|input\n"
	      " com.example.app-300 (300) [000] .... 10.000200: tracing_mark_write: "
	      "S|300|animator:alpha|168950273\n"
	      " com.example.app-300 (300) [000] .... 10.000300: tracing_mark_write: "
	      "F|300|animator:alpha|168950273\n"
	      " com.example.app-300 (300) [000] .... 10.000400: tracing_mark_write: E|300\n"
	      " com.example.app-300 (300) [000] .... 10.002000: tracing_mark_write: E|300\n"
	      " com.example.app-300 (300) [000] .... 10.016000: tracing_mark_write: "
	      "B|300|Choreographer#doFrame 1007\n"
	      " com.example.app-300 (300) [000] .... 10.018000: tracing_mark_write: E|300\n",
	      f);
	fclose(f);
	const char *argv[] = { E2E_ANIMTRACE, "--replay", cap,
			       "--pid",	      "300",	  "--format",
			       "json",	      "-o",	  e2e_path(out, "replay.jsonl"),
			       NULL };

	cr_assert_eq(e2e_exit_code(e2e_spawn(argv, NULL), "animtrace --replay"), 0);
	e2e_jsonl_load(&j, out);
	for (size_t i = 0; i < j.n; i++) {
		if (!e2e_type_is(j.v[i], "animator_end"))
			continue;
		ends++;
		cr_assert_str_eq(e2e_str(j.v[i], "reason"), "first_frame");
		cr_assert_str_eq(e2e_str(j.v[i], "reason_source"), "inferred");
	}
	cr_assert_eq(ends, 1);
	e2e_jsonl_free(&j);
}

/* ---- replaced -------------------------------------------------------------------------- */

Test(findings_live, an_object_animators_auto_cancel_is_a_replacement_with_its_evidence)
{
	struct run r = { 0 };
	json_object *stack;

	run(&r, "replace", "30", RUN_STACKS);
	cr_assert_eq(check_findings(&r), 1);
	assert_has(finding_text(&r, "replaced", cookie(&r, 1)),
		   " was cancelled by the start of animator:alpha ");
	assert_has(finding_text(&r, "replaced", cookie(&r, 1)),
		   "(AnimationHandler.autoCancelBasedOn in its cancel stack)");
	/* the evidence stays in the old one's EndCallStack */
	stack = e2e_get(end_of(&r, cookie(&r, 1)), "end_stack");
	cr_assert_str_eq(json_object_get_string(json_object_array_get_idx(stack, 0)),
			 "android.animation.AnimationHandler.autoCancelBasedOn");
	cr_assert_str_eq(json_object_get_string(json_object_array_get_idx(stack, 1)),
			 "android.animation.ObjectAnimator.start");
	cr_assert_str_eq(json_object_get_string(json_object_array_get_idx(stack, 2)),
			 "com.example.anim.QuickSettings.toggle");
	cr_assert_str_eq(e2e_str(end_of(&r, cookie(&r, 3)), "reason"), "cancel");
	run_free(&r);
}

Test(findings_live, without_art_probes_an_f_right_before_an_s_of_its_property_is_a_replacement)
{
	struct run r = { 0 };

	run(&r, "replace", "30", RUN_NO_ART);
	cr_assert_eq(check_findings(&r), 1);
	assert_has(finding_text(&r, "replaced", cookie(&r, 1)),
		   "(its F right before this S on the same thread)");
	run_free(&r);
}

/* ---- conflict -------------------------------------------------------------------------- */

Test(findings_live, two_animators_and_code_writing_one_alpha_in_one_frame_conflict)
{
	struct run r = { 0 };

	run(&r, "fight", "30", 0);
	/* the frames of both animators, then the one where the touch handler wrote too */
	cr_assert_eq(check_findings(&r), 2);
	run_free(&r);
}

/* Without animateValue windows the listener's writes are no animator's: the ObjectAnimator,
 * which sets its property once a frame, and another writer. */
Test(findings_live, without_art_probes_the_object_animator_and_another_writer_conflict)
{
	struct run r = { 0 };
	char want[128];
	int n = 0;

	run(&r, "fight", "30", RUN_NO_ART);
	snprintf(want, sizeof(want),
		 "by animator %lld and another writer (code or an animator no "
		 "probe names): they fight",
		 (long long)cookie(&r, 1));
	for (size_t i = 0; i < r.j.n; i++) {
		if (!e2e_type_is(r.j.v[i], "finding"))
			continue;
		n++;
		cr_assert_str_eq(e2e_str(r.j.v[i], "kind"), "conflict");
		assert_has(e2e_str(r.j.v[i], "text"), want);
	}
	cr_assert_eq(n, 1);
	run_free(&r);
}

/* ---- slow_spring ----------------------------------------------------------------------- */

Test(findings_live, a_soft_bouncy_spring_is_slow_and_a_stiff_one_beside_it_is_not)
{
	struct run r = { 0 };

	run(&r, "springs", "150", 0);
	cr_assert_eq(check_findings(&r), 1);
	for (size_t i = 0; i < r.j.n; i++) {
		const char *text;

		if (!e2e_type_is(r.j.v[i], "finding"))
			continue;
		text = e2e_str(r.j.v[i], "text");
		cr_assert(json_object_get_boolean(e2e_get(r.j.v[i], "unmarked")));
		/* both of the guide's reasons: it settles after 2 s, and it is under-damped
		 * and soft (fitted: stiffness 50, damping ratio 0.2) */
		assert_has(text, "settles in 2.");
		assert_has(text, "s (over 2 s); damping ratio 0.20 < 0.5 with stiffness 50 < 100");
	}
	run_free(&r);
}

/* ---- repeating and stalled ------------------------------------------------------------- */

/* The period the text of a repeating finding gives, in ms. */
static double period_ms(const char *text)
{
	const char *p = strstr(text, "repeats every ");

	cr_assert_not_null(p, "%s", text);
	return strtod(p + strlen("repeats every "), NULL);
}

static void check_leak(unsigned int flags)
{
	struct run r = { 0 };

	run(&r, "leak", "130", RUN_STOP_LIVE | flags);
	cr_assert_eq(check_findings(&r), 3);
	/* RESTART: the duration; REVERSE: there and back, 2 x 430 ms (51.6 frames); from about
	 * three periods the fold tells them within 3 % */
	cr_assert_float_eq(period_ms(finding_text(&r, "repeating", cookie(&r, 1))), 600, 18);
	cr_assert_float_eq(period_ms(finding_text(&r, "repeating", cookie(&r, 2))), 860, 26);
	assert_has(finding_text(&r, "stalled", cookie(&r, 3)), "paused or leaked");
	run_free(&r);
}

Test(findings_live, infinite_repeats_repeat_and_a_paused_animator_stalls_when_tracing_stops)
{
	check_leak(0);
}

Test(findings_live, without_art_probes_infinite_repeats_and_a_pause_are_told_the_same)
{
	check_leak(RUN_NO_ART);
}

/* ---- clean ----------------------------------------------------------------------------- */

static void check_clean(unsigned int flags)
{
	struct run r = { 0 };
	json_object *alpha, *slide;

	run(&r, "clean", "30", flags);
	cr_assert_eq(check_findings(&r), 0);
	/* a 0 -> 1 fade of a view at 1: from is its first written value */
	alpha = e2e_get(e2e_get(end_of(&r, cookie(&r, 1)), "changes"), "alpha");
	cr_assert_float_eq(json_object_get_double(e2e_get(alpha, "from")), 0, 0);
	cr_assert_float_eq(json_object_get_double(e2e_get(alpha, "to")), 1, 0);
	slide = e2e_get(end_of(&r, cookie(&r, 2)), "interpolator");
	cr_assert_str_eq(e2e_str(slide, "name"), "FastOutSlowIn");
	run_free(&r);
}

Test(findings_live, a_scenario_with_no_problem_gives_no_finding)
{
	check_clean(0);
}

Test(findings_live, without_art_probes_a_scenario_with_no_problem_gives_no_finding)
{
	check_clean(RUN_NO_ART);
}

/* The box an engineer reads: the fade's values and the slide's fitted interpolator, with the
 * ART probes on (exact attribution, reasons from the probes). */
Test(findings_live, the_boxes_say_alpha_0_to_1_and_fitted_fast_out_slow_in)
{
	struct run r = { 0 };
	char *text, *box;

	run(&r, "clean", "30", RUN_BOX);
	text = e2e_slurp(r.out);
	box = strstr(text, "┌── End animator:alpha ");
	cr_assert_not_null(box, "%s", text);
	cr_assert_not_null(strstr(box, "│ Properties: alpha: 0 → 1\n"), "%s", box);
	cr_assert_not_null(strstr(box, "│ Reason:     complete"), "%s", box);
	box = strstr(text, "┌── End animator:translationY ");
	cr_assert_not_null(box, "%s", text);
	cr_assert_not_null(strstr(box, "│ Interpolator: FastOutSlowIn (fitted, rms "), "%s", box);
	cr_assert_null(strstr(text, "Finding:"), "%s", text);
	free(text);
	run_free(&r);
}

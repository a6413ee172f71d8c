// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root), exact attribution: the simulator's listeners scenario runs every
 * write inside its animator's animateValue (ART fixture). animtrace's animator_end lines
 * must name every node each animator wrote, with exact from/to/sets, never mixing up the
 * two alpha animators; the delayed start() must show as start_delay_ns. Without the ART
 * probes (--no-art, or no oat mapped) targets fall back to the inferred rule.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <criterion/criterion.h>

#include "e2e.h"

#define TARGET "com.example.anim"
#define COOKIE(i) (0x0a11fa00 + (i)) /* the simulator's target cookies */
#define FRAME_NS 16666667LL	     /* 60 Hz */
#define SETS 12			     /* frames 3..14 change each tracked property */

TestSuite(attrib, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

struct run {
	struct e2e_jsonl got, exp;
	char err[PATH_MAX];
};

/*
 * animtrace (JSON) around one listeners run of the simulator; extra: an animtrace flag;
 * sim_art: the simulator's --art. The simulator plays once the probes named by the line
 * animtrace says last (probed) are attached: no write happens before they watch.
 */
static void run_listeners(struct run *r, const char *extra, const char *sim_art, const char *probed)
{
	char out[PATH_MAX], exp_path[PATH_MAX], go[PATH_MAX], name[E2E_NAME_MAX];
	const char *args[] = { "--proc", name, "--format", "json", "-o", out, "--no-atrace-setup",
			       extra,	 NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",	  name,	 "--scenario",
			      "listeners", "--linger-ms", "500", "--expect",
			      exp_path,	   "--go",	  go,	 sim_art ? "--art" : NULL,
			      sim_art,	   NULL };
	pid_t at, s;

	e2e_name(name, TARGET);
	e2e_path(out, "out.jsonl");
	e2e_path(exp_path, "expect.jsonl");
	e2e_path(go, "go");
	at = e2e_animtrace(args, e2e_path(r->err, "err.txt"), NULL);
	s = e2e_spawn(sim, NULL);
	e2e_await(r->err, at, "animtrace: pid ", probed, NULL);
	e2e_go(go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(r->err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	e2e_jsonl_load(&r->got, out);
	e2e_jsonl_load(&r->exp, exp_path);
}

static void run_free(struct run *r)
{
	e2e_jsonl_free(&r->got);
	e2e_jsonl_free(&r->exp);
}

/* The node the simulator created as class (its simple name), from its prop lines. */
static const char *node_of(const struct run *r, const char *simple)
{
	for (size_t i = 0; i < r->exp.n; i++) {
		json_object *o = r->exp.v[i];

		if (e2e_type_is(o, "prop") && !strcmp(e2e_str(o, "node_name"), simple))
			return e2e_str(o, "node");
	}
	cr_assert_fail("the simulator wrote nothing on %s", simple);
	return NULL;
}

static json_object *end_of(const struct run *r, int64_t id)
{
	for (size_t i = 0; i < r->got.n; i++) {
		json_object *o = r->got.v[i];

		if (e2e_type_is(o, "animator_end") && e2e_int(o, "id") == id)
			return o;
	}
	cr_assert_fail("no animator_end for %lld; stderr:\n%s", (long long)id, e2e_slurp(r->err));
	return NULL;
}

/* targets[i] is node, a View of class cls (its simple name), with exactly one property prop
 * going from -> to in SETS sets. */
static void assert_target(json_object *end, int i, const char *node, const char *cls,
			  const char *prop, double from, double to)
{
	json_object *targets = e2e_get(end, "targets");
	json_object *t, *p;

	cr_assert(i < (int)json_object_array_length(targets), "%s",
		  json_object_to_json_string(end));
	t = json_object_array_get_idx(targets, i);
	cr_assert_str_eq(e2e_str(t, "node"), node, "%s", json_object_to_json_string(t));
	cr_assert_str_eq(e2e_str(t, "node_class"), cls, "%s", json_object_to_json_string(t));
	cr_assert_eq(json_object_object_length(e2e_get(t, "properties")), 1);
	p = e2e_get(e2e_get(t, "properties"), prop);
	cr_assert_float_eq(json_object_get_double(e2e_get(p, "from")), from, 1e-6, "%s",
			   json_object_to_json_string(t));
	cr_assert_float_eq(json_object_get_double(e2e_get(p, "to")), to, 1e-6, "%s",
			   json_object_to_json_string(t));
	cr_assert_eq(e2e_int(p, "sets"), SETS, "%s", json_object_to_json_string(t));
}

Test(attrib, every_write_goes_to_the_animator_whose_animate_value_made_it)
{
	struct run r;
	json_object *va, *oa1, *oa2;

	run_listeners(&r, NULL, NULL, ": end reasons from ART probes in ");
	va = end_of(&r, COOKIE(1));
	oa1 = end_of(&r, COOKIE(2));
	oa2 = end_of(&r, COOKIE(3));
	cr_assert_str_eq(e2e_str(va, "target_source"), "exact");
	cr_assert_eq(json_object_array_length(e2e_get(va, "targets")), 2);
	/* Equal writes: the first written (alpha on the row) comes first and is the target. */
	assert_target(va, 0, node_of(&r, "NotificationRow"), "NotificationRow", "alpha", 1, 0);
	assert_target(va, 1, node_of(&r, "ScrimView"), "ScrimView", "translationY", 0, -120);
	cr_assert_str_eq(e2e_str(va, "target"), node_of(&r, "NotificationRow"));
	/* Same property, same frames, different views: each keeps its own. */
	cr_assert_str_eq(e2e_str(oa1, "target_source"), "exact");
	cr_assert_eq(json_object_array_length(e2e_get(oa1, "targets")), 1);
	assert_target(oa1, 0, node_of(&r, "StatusIconContainer"), "StatusIconContainer", "alpha", 1,
		      0.25);
	cr_assert_eq(json_object_array_length(e2e_get(oa2, "targets")), 1);
	assert_target(oa2, 0, node_of(&r, "QSPanel"), "QSPanel", "alpha", 1, 0.5);
	cr_assert_str_eq(e2e_str(oa2, "target"), node_of(&r, "QSPanel"));
	run_free(&r);
}

Test(attrib, the_start_delay_is_measured_from_start_to_the_s_marker)
{
	struct run r;
	json_object *sd = NULL, *end;
	int64_t got, want;

	run_listeners(&r, NULL, NULL, ": end reasons from ART probes in ");
	for (size_t i = 0; i < r.exp.n && !sd; i++)
		if (e2e_type_is(r.exp.v[i], "start_delay"))
			sd = r.exp.v[i];
	cr_assert_not_null(sd);
	end = end_of(&r, e2e_int(sd, "cookie"));
	got = e2e_int(end, "start_delay_ns");
	want = e2e_int(sd, "scheduled_ns");
	/* Frames run on absolute deadlines: a late call frame (a loaded machine) shortens the
	 * wait by its lateness, a late start frame lengthens it; either by less than a frame. */
	cr_assert(got > want - FRAME_NS && got < want + FRAME_NS,
		  "start_delay_ns %lld, scheduled %lld", (long long)got, (long long)want);
	/* The probe and the simulator's clock see the same wait, within a millisecond. */
	cr_assert(llabs(got - e2e_int(sd, "start_to_s_ns")) < 1000000, "%lld vs %lld",
		  (long long)got, (long long)e2e_int(sd, "start_to_s_ns"));
	/* Undelayed starts: start() writes its S at once. */
	cr_assert(e2e_int(end_of(&r, COOKIE(1)), "start_delay_ns") < 1000000);
	run_free(&r);
}

/* Without the probes: today's rule, which cannot tell the listener's views or the alphas. */
static void assert_inferred(const struct run *r)
{
	json_object *va = end_of(r, COOKIE(1)), *oa1 = end_of(r, COOKIE(2));

	cr_assert(e2e_is_null(va, "target_source"), "%s", json_object_to_json_string(va));
	cr_assert_eq(json_object_array_length(e2e_get(va, "targets")), 0);
	cr_assert_str_eq(e2e_str(oa1, "target_source"), "inferred");
	cr_assert_eq(json_object_array_length(e2e_get(oa1, "targets")), 0);
	cr_assert(e2e_is_null(oa1, "start_delay_ns"));
}

Test(attrib, with_no_art_targets_are_inferred_and_it_says_so)
{
	struct run r;

	run_listeners(&r, "--no-art", NULL, ": View property values from ");
	assert_inferred(&r);
	cr_assert(strstr(e2e_slurp(r.err), "--no-art: animator targets are inferred"), "%s",
		  e2e_slurp(r.err));
	run_free(&r);
}

Test(attrib, without_the_oat_targets_are_inferred)
{
	struct run r;

	run_listeners(&r, NULL, "none", ": View property values from ");
	assert_inferred(&r);
	run_free(&r);
}

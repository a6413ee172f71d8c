// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live (root): animsim --scenario dyn runs DynamicAnimations through their compiled methods:
 * the framework's copy in the boot oat, androidx's in a base.odex the process maps only after
 * animtrace first looked at it (late gate), and one spring whose methods are not compiled.
 * Each probed spring and fling is a lifecycle with its exact start and end (within a frame),
 * its reason, its start stack, its target and its fitted parameters; the cancelled spring says
 * cancel, its canceller, and is replaced by the next; none of them is reported again as an
 * unmarked animation, which the uncompiled spring still is. The probed runs are Java objects
 * (the framework's classes on the fixture boot class path, androidx's in the app's base.apk):
 * their parameters are also read, exactly, beside the fit. Synchronised on animtrace's stderr
 * and the simulator's gate files, never on sleeps.
 */
#include <limits.h>
#include <stdbool.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <criterion/criterion.h>

#include "e2e.h"

#define TARGET "com.example.dock"
#define FRAME_NS 16666667LL /* the simulator's 60 Hz */

TestSuite(dyn, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

static double num(json_object *o, const char *key)
{
	return json_object_get_double(e2e_get(o, key));
}

/* The records of type whose key equals value, in output order (up to max). */
static int find(const struct e2e_jsonl *j, const char *type, const char *key, const char *value,
		json_object **out, int max)
{
	int n = 0;

	for (size_t i = 0; i < j->n; i++) {
		json_object *v;

		if (!e2e_type_is(j->v[i], type) || !json_object_object_get_ex(j->v[i], key, &v) ||
		    !json_object_is_type(v, json_type_string) ||
		    strcmp(json_object_get_string(v), value))
			continue;
		if (n < max)
			out[n] = j->v[i];
		n++;
	}
	return n;
}

/* Exact start and end: start() and endAnimationInternal lie within a frame of the truth. */
static void check_times(json_object *r, json_object *x)
{
	int64_t start = e2e_int(r, "start_ns"), call = e2e_int(x, "start_call_ns");
	int64_t end = e2e_int(r, "end_ns"), after = e2e_int(x, "end_ns");

	cr_assert(start >= call && start - call < FRAME_NS, "start %lld, start() at %lld",
		  (long long)start, (long long)call);
	cr_assert(end <= after && after - end < FRAME_NS, "end %lld, the call returned at %lld",
		  (long long)end, (long long)after);
}

static void check_fit(json_object *r, json_object *x)
{
	json_object *fit = e2e_get(r, "fit");

	if (!strcmp(e2e_str(x, "kind"), "Spring")) {
		cr_assert_str_eq(e2e_str(fit, "kind"), "spring");
		cr_assert_float_eq(num(fit, "stiffness"), num(x, "stiffness"),
				   0.05 * num(x, "stiffness"));
		cr_assert_float_eq(num(fit, "damping_ratio"), num(x, "damping_ratio"),
				   0.05 * num(x, "damping_ratio"));
		cr_assert_float_eq(num(fit, "final_position"), num(x, "final_position"), 0.5);
	} else {
		cr_assert_str_eq(e2e_str(fit, "kind"), "fling");
		cr_assert_float_eq(num(fit, "friction_scalar"), num(x, "friction_scalar"),
				   0.05 * num(x, "friction_scalar"));
		cr_assert_float_eq(num(fit, "start_velocity"), num(x, "start_velocity"),
				   0.05 * num(x, "start_velocity"));
	}
}

/*
 * The parameters read from the heap (the framework copy's objects, on the fixture boot class
 * path) are exact beside the fit: stiffness = mNaturalFreq^2 (sqrt then square: a double's
 * rounding), the rest as stored; a run the reader could not read has no config at all.
 */
/* --no-heap: no reader, every run fitted only, as before the heap reader */
static bool no_heap;

static void check_read(json_object *r, json_object *x)
{
	json_object *c;

	if (no_heap || !json_object_get_boolean(e2e_get(x, "read"))) {
		cr_assert(!json_object_object_get_ex(r, "config", &c), "run %lld: a config unread",
			  (long long)e2e_int(x, "run"));
		return;
	}
	c = e2e_get(r, "config");
	cr_assert_str_eq(e2e_str(c, "source"), "heap");
	cr_assert_float_eq(num(c, "velocity"), num(x, "start_velocity"), 0);
	if (json_object_get_boolean(e2e_get(x, "start_value_set")))
		cr_assert_float_eq(num(c, "value"), num(x, "from"), 0);
	else /* start() reads the property itself: mValue is no start value yet */
		cr_assert(!json_object_object_get_ex(c, "value", NULL), "a value unset was given");
	/* sim_dyn.c's objects keep DynamicAnimation's MIN_VISIBLE_CHANGE_PIXELS (translations) */
	cr_assert_float_eq(num(c, "min_visible_change"), 1, 0);
	if (!strcmp(e2e_str(x, "kind"), "Spring")) {
		cr_assert_float_eq(num(c, "stiffness"), num(x, "stiffness"),
				   1e-12 * num(x, "stiffness"));
		cr_assert_float_eq(num(c, "damping_ratio"), num(x, "damping_ratio"), 0);
		cr_assert_float_eq(num(c, "final_position"), num(x, "final_position"), 0);
	} else {
		cr_assert_float_eq(num(c, "friction"),
				   (double)((float)num(x, "friction_scalar") * -4.2f), 0);
	}
}

/* One probed run x against its dyn_end r. */
static void check_run(json_object *r, json_object *x)
{
	cr_assert_str_eq(e2e_str(r, "kind"), e2e_str(x, "kind"));
	cr_assert_str_eq(e2e_str(r, "reason"), e2e_str(x, "reason"));
	cr_assert_str_eq(e2e_str(r, "property"), e2e_str(x, "property"));
	cr_assert_str_eq(e2e_str(r, "target_class"), e2e_str(x, "node_name"));
	cr_assert_float_eq(num(r, "from"), num(x, "from"), 0);
	cr_assert_float_eq(num(r, "to"), num(x, "to"), 0);
	cr_assert_eq(e2e_int(r, "frames"), e2e_int(x, "end_frame") - e2e_int(x, "start_frame"));
	check_times(r, x);
	check_read(r, x);
	cr_assert_str_eq(
		json_object_get_string(json_object_array_get_idx(e2e_get(r, "start_stack"), 0)),
		e2e_str(x, "caller"));
	if (!strcmp(e2e_str(x, "reason"), "cancel"))
		cr_assert_str_eq(json_object_get_string(
					 json_object_array_get_idx(e2e_get(r, "end_stack"), 0)),
				 e2e_str(x, "end_caller"));
	else
		check_fit(r, x);
}

static void check(const struct e2e_jsonl *out, const struct e2e_jsonl *ex)
{
	json_object *runs[8], *ends[4], *unmarked[4];
	int n = find(ex, "dyn", "role", "target", runs, 8), cancelled_id = 0;

	cr_assert_eq(n, 5, "five runs in the simulator's truth");
	for (int i = 0; i < n; i++) {
		json_object *x = runs[i];
		int k = find(out, "dyn_end", "target", e2e_str(x, "node"), ends, 4);
		int u = find(out, "animation_end", "node", e2e_str(x, "node"), unmarked, 4);

		if (!strcmp(e2e_str(x, "pkg"), "")) { /* not compiled: found from its values only */
			cr_assert_eq(k, 0, "no probe saw the uncompiled spring");
			cr_assert_eq(u, 1, "the uncompiled spring is one unmarked animation");
			check_fit(unmarked[0], x);
			continue;
		}
		cr_assert_eq(u, 0, "run %lld reported again as an unmarked animation",
			     (long long)e2e_int(x, "run"));
		/* the cancelled spring and its successor share their node: by start order */
		json_object *r = ends[e2e_int(x, "replaces_run") >= 0 && k == 2 ? 1 : 0];

		cr_assert(k >= 1, "no dyn_end on %s", e2e_str(x, "node"));
		check_run(r, x);
		if (!strcmp(e2e_str(x, "reason"), "cancel"))
			cancelled_id = (int)e2e_int(r, "id");
		if (e2e_int(x, "replaces_run") >= 0)
			cr_assert_eq(e2e_int(r, "replaces"), cancelled_id);
	}
	cr_assert_neq(cancelled_id, 0, "the cancelled spring was seen");
}

static void run(void)
{
	char out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX], gate[PATH_MAX], go[PATH_MAX];
	char name[E2E_NAME_MAX], pat[128];
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       out,
			       "--stacks",
			       "--no-atrace-setup",
			       no_heap ? "--no-heap" : NULL,
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",	  name, "--scenario", "dyn", "--frames",
			      "110",	   "--late-gate", gate, "--go",	      go,    "--expect",
			      ex,	   NULL };
	struct e2e_jsonl j, x;
	pid_t at, s, app;

	e2e_name(name, TARGET);
	e2e_path(go, "go");
	e2e_path(out, "out.jsonl");
	e2e_path(ex, "expect.jsonl");
	cr_assert_eq(mkdir(e2e_path(gate, "gate"), 0755), 0);
	at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	s = e2e_spawn(sim, NULL);
	app = e2e_find_child(s, name);
	e2e_release(err, at, app, E2E_PROPS | E2E_ART, go);
	snprintf(pat, sizeof(pat), "animtrace: pid %d: DynamicAnimation probes in ", app);
	e2e_await(err, at, pat, "boot-framework.oat (6 of 6 methods)", NULL);
	e2e_gate(gate, "load"); /* now it maps its base.odex */
	snprintf(pat, sizeof(pat), "animtrace: pid %d: base.odex appeared, probing", app);
	e2e_await(err, at, pat, NULL);
	snprintf(pat, sizeof(pat), "animtrace: pid %d: DynamicAnimation probes in ", app);
	e2e_await(err, at, pat, "base.odex (6 of 6 methods)", NULL);
	e2e_gate(gate, "go");
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	e2e_jsonl_load(&j, out);
	e2e_jsonl_load(&x, ex);
	check(&j, &x);
	e2e_jsonl_free(&x);
	e2e_jsonl_free(&j);
}

Test(dyn, springs_and_flings_from_the_boot_oat_and_a_late_odex_have_exact_lifecycles)
{
	run();
}

Test(dyn, without_the_heap_reader_the_same_runs_are_fitted_only)
{
	no_heap = true;
	run();
}

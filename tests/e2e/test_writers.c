// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root): who wrote what, and who started whom. The simulator's writers
 * scenario fights over one view's alpha (two animators, each inside its animateValue, and in
 * frame 5 the traversal too), starts an AnimatorSet's children through AnimatorSet's frames
 * of the ART fixture (one at once from AnimatorSet.start, one later from its frame callback)
 * and a ViewPropertyAnimator's animator. animtrace's frame_props must list every write with
 * its writer in order, the End curve must mark the shared frames, and the animators must be
 * typed by their starter with the set's caller. Without the ART probes (listeners scenario,
 * --no-art), an inferred target lists every node that fits.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"

#define TARGET "com.example.anim"
#define POKE_FRAME 5 /* the writers scenario's traversal write */

TestSuite(writers, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

struct run {
	struct e2e_jsonl got, exp;
	char out[PATH_MAX], err[PATH_MAX];
};

/* animtrace (fmt: "json" or "box" with --frames) around one run of scenario; extra: a flag. */
static void run_sim(struct run *r, const char *scenario, const char *fmt, const char *extra,
		    const char *probed)
{
	char exp_path[PATH_MAX], go[PATH_MAX], name[E2E_NAME_MAX];
	bool box = !strcmp(fmt, "box");
	const char *args[] = { "--proc",
			       name,
			       "--stacks",
			       "--format",
			       fmt,
			       "-o",
			       r->out,
			       "--no-atrace-setup",
			       "--color=never",
			       box ? "--frames" : extra,
			       box ? extra : NULL,
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",	  name,	 "--scenario",
			      scenario,	   "--linger-ms", "500", "--expect",
			      exp_path,	   "--go",	  go,	 NULL };
	pid_t at, s;

	e2e_name(name, TARGET);
	e2e_path(r->out, box ? "out.txt" : "out.jsonl");
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
	if (!box)
		e2e_jsonl_load(&r->got, r->out);
	e2e_jsonl_load(&r->exp, exp_path);
}

static void run_free(struct run *r)
{
	e2e_jsonl_free(&r->got);
	e2e_jsonl_free(&r->exp);
}

/* The simulator's animator lines named name, in its order: the cookie of the nth (from 0). */
static int64_t cookie_of(const struct run *r, const char *name, int nth)
{
	for (size_t i = 0; i < r->exp.n; i++) {
		json_object *o = r->exp.v[i];

		if (e2e_type_is(o, "animator") && !strcmp(e2e_str(o, "role"), "target") &&
		    !strcmp(e2e_str(o, "name"), name) && nth-- == 0)
			return e2e_int(o, "cookie");
	}
	cr_assert_fail("no animator %s", name);
	return 0;
}

static json_object *line_of(const struct e2e_jsonl *j, const char *type, int64_t id)
{
	for (size_t i = 0; i < j->n; i++)
		if (e2e_type_is(j->v[i], type) && e2e_int(j->v[i], "id") == id)
			return j->v[i];
	cr_assert_fail("no %s of %lld", type, (long long)id);
	return NULL;
}

/* The simulator's prop lines of frame on node class simple, property prop, in write order. */
static int sim_writes(const struct run *r, int frame, const char *simple, const char *prop,
		      json_object **out, int max)
{
	int n = 0;

	for (size_t i = 0; i < r->exp.n && n < max; i++) {
		json_object *o = r->exp.v[i];

		if (e2e_type_is(o, "prop") && !strcmp(e2e_str(o, "role"), "target") &&
		    e2e_int(o, "frame") == frame && !strcmp(e2e_str(o, "node_name"), simple) &&
		    !strcmp(e2e_str(o, "property"), prop))
			out[n++] = o;
	}
	return n;
}

/* animtrace's frame_props of node in the frame of vsync id vsync. */
static json_object *props_at(const struct run *r, int64_t vsync, const char *node)
{
	for (size_t i = 0; i < r->got.n; i++) {
		json_object *o = r->got.v[i];

		if (e2e_type_is(o, "frame_props") && !e2e_is_null(o, "frame_vsync_id") &&
		    e2e_int(o, "frame_vsync_id") == vsync && !strcmp(e2e_str(o, "node"), node))
			return o;
	}
	cr_assert_fail("no frame_props of %s at vsync %lld", node, (long long)vsync);
	return NULL;
}

Test(writers, frame_props_list_two_animators_and_code_writing_one_property_in_order)
{
	struct run r = { 0 };
	json_object *want[8], *fp, *writes, *w;
	int64_t first = 0, second = 0;
	int n;

	run_sim(&r, "writers", "json", NULL, ": end reasons from ART probes in ");
	first = cookie_of(&r, "animator:alpha", 0);
	second = cookie_of(&r, "animator:alpha", 1);
	n = sim_writes(&r, POKE_FRAME, "NotificationRow", "alpha", want, 8);
	cr_assert_eq(n, 3, "the scenario writes alpha three times in frame %d", POKE_FRAME);
	fp = props_at(&r, e2e_int(want[0], "vsync"), e2e_str(want[0], "node"));
	writes = e2e_get(e2e_get(fp, "writes"), "alpha");
	cr_assert_eq(json_object_array_length(writes), 3, "%s", json_object_to_json_string(fp));
	for (int i = 0; i < 3; i++) {
		w = json_object_array_get_idx(writes, i);
		cr_assert_float_eq(json_object_get_double(e2e_get(w, "value")),
				   json_object_get_double(e2e_get(want[i], "value")), 1e-7,
				   "write %d: %s", i, json_object_to_json_string(w));
	}
	w = json_object_array_get_idx(writes, 0);
	cr_assert_str_eq(e2e_str(w, "by"), "animator");
	cr_assert_eq(e2e_int(w, "id"), first);
	w = json_object_array_get_idx(writes, 1);
	cr_assert_str_eq(e2e_str(w, "by"), "animator");
	cr_assert_eq(e2e_int(w, "id"), second);
	w = json_object_array_get_idx(writes, 2);
	cr_assert(e2e_is_null(want[2], "animator"), "the third is the traversal's");
	cr_assert_str_eq(e2e_str(w, "by"), "not_an_animator");
	cr_assert_eq(e2e_int(e2e_get(fp, "sets"), "alpha"), 3);
	/* Frames 3..10: both animators write the row's alpha in each (8 frames shared). */
	json_object *t = json_object_array_get_idx(
		e2e_get(line_of(&r.got, "animator_end", first), "targets"), 0);
	cr_assert_eq(e2e_int(e2e_get(e2e_get(t, "properties"), "alpha"), "shared_frames"), 8, "%s",
		     json_object_to_json_string(t));
	t = json_object_array_get_idx(e2e_get(line_of(&r.got, "animator_end", second), "targets"),
				      0);
	cr_assert_eq(e2e_int(e2e_get(e2e_get(t, "properties"), "alpha"), "shared_frames"), 8);
	run_free(&r);
}

/* The expect file's art start line of cookie. */
static json_object *art_start(const struct run *r, int64_t cookie)
{
	for (size_t i = 0; i < r->exp.n; i++) {
		json_object *o = r->exp.v[i];

		if (e2e_type_is(o, "art") && !strcmp(e2e_str(o, "role"), "target") &&
		    !strcmp(e2e_str(o, "method"), "start") && e2e_int(o, "cookie") == cookie)
			return o;
	}
	cr_assert_fail("no start() of %lld", (long long)cookie);
	return NULL;
}

static void assert_same_stack(json_object *got, json_object *want)
{
	size_t n = json_object_array_length(want);

	cr_assert_eq(json_object_array_length(got), n, "%s, expected %s",
		     json_object_to_json_string(got), json_object_to_json_string(want));
	for (size_t i = 0; i < n; i++)
		cr_assert_str_eq(json_object_get_string(json_object_array_get_idx(got, i)),
				 json_object_get_string(json_object_array_get_idx(want, i)));
}

Test(writers, set_children_and_view_property_animators_are_typed_with_the_sets_caller)
{
	struct run r = { 0 };
	const char *set_caller = NULL;
	int sets = 0, vpas = 0, inherited = 0;

	run_sim(&r, "writers", "json", NULL, ": end reasons from ART probes in ");
	for (size_t i = 0; i < r.exp.n; i++) {
		json_object *o = r.exp.v[i], *art, *got;
		int64_t cookie;

		if (!e2e_type_is(o, "animator") || strcmp(e2e_str(o, "role"), "target"))
			continue;
		cookie = e2e_int(o, "cookie");
		art = art_start(&r, cookie);
		got = line_of(&r.got, "animator_start", cookie);
		assert_same_stack(e2e_get(got, "start_stack"), e2e_get(art, "stack"));
		if (e2e_is_null(art, "starter")) {
			cr_assert(e2e_is_null(got, "started_by"), "%s",
				  json_object_to_json_string(got));
			continue;
		}
		cr_assert_str_eq(e2e_str(got, "started_by"), e2e_str(art, "starter"));
		if (!strcmp(e2e_str(art, "starter"), "ViewPropertyAnimator")) {
			vpas++;
			cr_assert(e2e_is_null(got, "set_caller"));
			continue;
		}
		sets++;
		if (!e2e_is_null(art, "set_caller")) { /* AnimatorSet.start is on its stack */
			set_caller = e2e_str(art, "set_caller");
			cr_assert_str_eq(e2e_str(got, "set_caller"), set_caller);
		} else { /* started by the set's frame callback while the set's first child ran */
			cr_assert_not_null(set_caller, "the scenario starts the set first");
			cr_assert_str_eq(e2e_str(got, "set_caller"), set_caller);
			inherited++;
		}
	}
	cr_assert_eq(sets, 2);
	cr_assert_eq(inherited, 1);
	cr_assert_eq(vpas, 1);
	run_free(&r);
}

Test(writers, the_box_shows_each_writer_the_curve_marks_and_the_types)
{
	struct run r = { 0 };
	json_object *want[8];
	char line[256], *text;
	int64_t first, second;

	run_sim(&r, "writers", "box", NULL, ": end reasons from ART probes in ");
	text = e2e_slurp(r.out);
	first = cookie_of(&r, "animator:alpha", 0);
	second = cookie_of(&r, "animator:alpha", 1);
	cr_assert_eq(sim_writes(&r, POKE_FRAME, "NotificationRow", "alpha", want, 8), 3);
	snprintf(line, sizeof(line), " alpha=%.3f[#%lld],%.3f[#%lld],%.3f[not an animator]",
		 json_object_get_double(e2e_get(want[0], "value")), (long long)first,
		 json_object_get_double(e2e_get(want[1], "value")), (long long)second,
		 json_object_get_double(e2e_get(want[2], "value")));
	cr_assert_not_null(strstr(text, line), "no \"%s\" in:\n%s", line, text);
	/* The first animator's curve: 10 frames, both wrote in frames 3..10. */
	cr_assert_not_null(strstr(text, "  ^^^^^^^^ others also wrote it in 8 frames\n"), "%s",
			   text);
	cr_assert_not_null(strstr(text,
				  "│ Type:       ObjectAnimator in an AnimatorSet\n"
				  "│ Set by:     com.example.anim.ShadeController.animateExpand\n"),
			   "%s", text);
	cr_assert_not_null(strstr(text, "│ Type:       ViewPropertyAnimator\n"), "%s", text);
	free(text);
	run_free(&r);
}

/* Frames of the simulator in [from, to] in which it changed prop of the node of class simple. */
static int changed_frames(const struct run *r, const char *simple, const char *prop, int from,
			  int to)
{
	int n = 0, last = -1;

	for (size_t i = 0; i < r->exp.n; i++) {
		json_object *o = r->exp.v[i];
		int f;

		if (!e2e_type_is(o, "prop") || strcmp(e2e_str(o, "role"), "target") ||
		    strcmp(e2e_str(o, "node_name"), simple) ||
		    strcmp(e2e_str(o, "property"), prop) ||
		    !json_object_get_boolean(e2e_get(o, "changed")))
			continue;
		f = (int)e2e_int(o, "frame");
		if (f >= from && f <= to && f != last)
			n++;
		last = f;
	}
	return n;
}

static const char *node_of(const struct run *r, const char *simple)
{
	for (size_t i = 0; i < r->exp.n; i++)
		if (e2e_type_is(r->exp.v[i], "prop") &&
		    !strcmp(e2e_str(r->exp.v[i], "node_name"), simple))
			return e2e_str(r->exp.v[i], "node");
	cr_assert_fail("no node %s", simple);
	return NULL;
}

Test(writers, without_art_an_inferred_target_lists_every_node_that_fits)
{
	static const char *const fit[] = { "NotificationRow", "StatusIconContainer", "QSPanel" };
	struct run r = { 0 };

	run_sim(&r, "listeners", "json", "--no-art", ": View property values from ");
	for (int k = 0; k < 2; k++) { /* the two alpha animators */
		int64_t cookie = cookie_of(&r, "animator:alpha", k);
		json_object *sim = NULL, *end = line_of(&r.got, "animator_end", cookie), *fits;

		for (size_t i = 0; i < r.exp.n; i++)
			if (e2e_type_is(r.exp.v[i], "animator") &&
			    e2e_int(r.exp.v[i], "cookie") == cookie)
				sim = r.exp.v[i];
		cr_assert_not_null(sim);
		cr_assert_str_eq(e2e_str(end, "target_source"), "inferred");
		fits = e2e_get(end, "target_fits");
		cr_assert_eq(json_object_array_length(fits), 3, "%s",
			     json_object_to_json_string(end));
		for (int i = 0; i < 3; i++) {
			json_object *f = json_object_array_get_idx(fits, i);

			cr_assert_str_eq(e2e_str(f, "node"), node_of(&r, fit[i]), "%s",
					 json_object_to_json_string(f));
			cr_assert_str_eq(e2e_str(f, "node_class"), fit[i]);
			cr_assert_eq(e2e_int(f, "frames"),
				     changed_frames(&r, fit[i], "alpha",
						    (int)e2e_int(sim, "start_frame"),
						    (int)e2e_int(sim, "end_frame")),
				     "%s", json_object_to_json_string(f));
		}
		cr_assert(!json_object_get_boolean(e2e_get(end, "target_fits_more")));
	}
	run_free(&r);
}

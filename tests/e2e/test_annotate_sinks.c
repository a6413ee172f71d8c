// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root): --annotate takes nothing away from the other outputs. Four
 * animtraces watch one simulator run (physics, listeners, refresh scenarios): JSON and box,
 * each with a trace export, each once without and once with --annotate. The boxes, the JSON
 * lines and the trace exports must hold the same kinds of records, as many of each, with and
 * without it; and the kinds each scenario is known for must be there (unmarked springs and
 * flings, exact animator targets, a refresh storm), since those are what a sink chain that
 * forgot a callback loses.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"

TestSuite(annotate_sinks, .init = e2e_setup, .fini = e2e_teardown, .timeout = 240);

/* ---- kinds of records, counted -------------------------------------------------------- */

#define KINDS_MAX 64

struct kinds {
	int n;
	struct {
		char key[64];
		int count;
	} k[KINDS_MAX];
};

static void kind_add(struct kinds *ks, const char *key)
{
	for (int i = 0; i < ks->n; i++) {
		if (!strcmp(ks->k[i].key, key)) {
			ks->k[i].count++;
			return;
		}
	}
	cr_assert_lt(ks->n, KINDS_MAX, "more than %d kinds", KINDS_MAX);
	snprintf(ks->k[ks->n].key, sizeof(ks->k[0].key), "%s", key);
	ks->k[ks->n++].count = 1;
}

static int kind_count(const struct kinds *ks, const char *key)
{
	for (int i = 0; i < ks->n; i++)
		if (!strcmp(ks->k[i].key, key))
			return ks->k[i].count;
	return 0;
}

static void kinds_print(char *buf, size_t cap, const struct kinds *ks)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < ks->n && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "  %s: %d\n", ks->k[i].key,
					ks->k[i].count);
}

/* Every kind of a in b as often, and b has no other. */
static void kinds_equal(const struct kinds *a, const struct kinds *b, const char *what)
{
	char ta[4096], tb[4096];

	kinds_print(ta, sizeof(ta), a);
	kinds_print(tb, sizeof(tb), b);
	cr_assert_eq(a->n, b->n, "%s: without --annotate\n%swith it\n%s", what, ta, tb);
	for (int i = 0; i < a->n; i++)
		cr_assert_eq(kind_count(b, a->k[i].key), a->k[i].count,
			     "%s, %s: without --annotate\n%swith it\n%s", what, a->k[i].key, ta,
			     tb);
}

/* JSON lines: each line's "type". */
static void json_kinds(const char *path, struct kinds *ks)
{
	struct e2e_jsonl j;

	memset(ks, 0, sizeof(*ks));
	e2e_jsonl_load(&j, path);
	for (size_t i = 0; i < j.n; i++)
		kind_add(ks, e2e_str(j.v[i], "type"));
	e2e_jsonl_free(&j);
}

/* The trace export: each event's phase and category ("X frame", "b animator", "M -"). */
static void trace_kinds(const char *path, struct kinds *ks)
{
	json_object *trace = json_object_from_file(path), *cat;
	char key[64];

	memset(ks, 0, sizeof(*ks));
	cr_assert_not_null(trace, "%s does not load", path);
	cr_assert(json_object_is_type(trace, json_type_array));
	for (size_t i = 0; i < json_object_array_length(trace); i++) {
		json_object *ev = json_object_array_get_idx(trace, i);

		snprintf(key, sizeof(key), "%s %s", e2e_str(ev, "ph"),
			 json_object_object_get_ex(ev, "cat", &cat) ? json_object_get_string(cat) :
								      "-");
		kind_add(ks, key);
	}
	json_object_put(trace);
}

/*
 * The boxes: each box by its title up to a ':' ("Begin animator", "Spring Animation End",
 * "Summary"), and the one-line records: "Target" lines, "frame" lines (--frames), notes.
 * UTF-8 or ASCII drawing alike.
 */
static void box_kinds(const char *path, struct kinds *ks)
{
	static const char utf8_top[] = "┌── ";
	char *text = e2e_slurp(path), *save = NULL, key[64];

	memset(ks, 0, sizeof(*ks));
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		bool utf8 = !strncmp(l, utf8_top, strlen(utf8_top));
		char *after_v = l + strcspn(l, " "); /* past the vertical bar */

		if (utf8 || !strncmp(l, "+-- ", 4)) {
			char *t = l + (utf8 ? strlen(utf8_top) : 4);
			char *fill = strstr(t, utf8 ? " ─" : " ---");
			size_t n = strcspn(t, ":");

			if (fill && (size_t)(fill - t) < n)
				n = (size_t)(fill - t);
			snprintf(key, sizeof(key), "box %.*s", (int)n, t);
			kind_add(ks, key);
		} else if (!strncmp(after_v, " Target: #", 10)) {
			kind_add(ks, "Target");
		} else if (!strncmp(after_v, " frame ", 7)) {
			kind_add(ks, "frame");
		} else if (!strncmp(l, "note: ", 6)) {
			kind_add(ks, "note");
		}
	}
	free(text);
}

/* ---- four animtraces, one simulator run ----------------------------------------------- */

enum { JSON_PLAIN, JSON_ANNOT, BOX_PLAIN, BOX_ANNOT, RUNS };

struct runs {
	char out[RUNS][PATH_MAX], trace[RUNS][PATH_MAX], err[RUNS][PATH_MAX];
	struct kinds json[2], box[2], trace_json[2], trace_box[2];
};

/*
 * The scenario (sim args after the name, NULL-terminated in sim_extra) under four
 * animtraces with extra (may be NULL) each; each is released once it watches (what,
 * and with --refresh its vsync probes) and the simulator plays only then.
 */
static void run(struct runs *r, const char *scenario, const char *const *sim_extra,
		const char *extra, unsigned int what)
{
	static const char *const tags[RUNS] = { "json", "json-annot", "box", "box-annot" };
	char name[E2E_NAME_MAX], go[PATH_MAX], file[64];
	const char *sim[24] = { E2E_ANIMSIM, "--name", name, "--scenario", scenario, "--go", go };
	pid_t at[RUNS], s, app;
	int n = 7;

	e2e_name(name, "com.example.annotsinks");
	e2e_path(go, "go");
	while (*sim_extra)
		sim[n++] = *sim_extra++;
	for (int i = 0; i < RUNS; i++) {
		bool json = i == JSON_PLAIN || i == JSON_ANNOT;
		bool annot = i == JSON_ANNOT || i == BOX_ANNOT;
		const char *args[] = { "--proc",
				       name,
				       "--no-atrace-setup",
				       "-o",
				       r->out[i],
				       "--trace-out",
				       r->trace[i],
				       json ? "--format" : "--frames",
				       json ? "json" : "--color=never",
				       NULL,
				       NULL,
				       NULL };
		int k = 9;

		if (annot)
			args[k++] = "--annotate";
		args[k++] = extra;
		snprintf(file, sizeof(file), "%s.out", tags[i]);
		e2e_path(r->out[i], file);
		snprintf(file, sizeof(file), "%s.trace.json", tags[i]);
		e2e_path(r->trace[i], file);
		snprintf(file, sizeof(file), "%s.err", tags[i]);
		at[i] = e2e_animtrace(args, e2e_path(r->err[i], file), NULL);
	}
	s = e2e_spawn(sim, NULL);
	app = e2e_find_child(s, name);
	for (int i = 0; i < RUNS; i++) {
		e2e_release(r->err[i], at[i], app, what, NULL);
		if (extra && !strcmp(extra, "--refresh"))
			e2e_await(r->err[i], at[i], "frame requests from", NULL);
	}
	e2e_go(go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	for (int i = 0; i < RUNS; i++) {
		e2e_await(r->err[i], at[i], "exited", NULL);
		kill(at[i], SIGINT);
		cr_assert_eq(e2e_exit_code(at[i], "animtrace"), 0);
	}
	for (int a = 0; a < 2; a++) {
		json_kinds(r->out[JSON_PLAIN + a], &r->json[a]);
		trace_kinds(r->trace[JSON_PLAIN + a], &r->trace_json[a]);
		box_kinds(r->out[BOX_PLAIN + a], &r->box[a]);
		trace_kinds(r->trace[BOX_PLAIN + a], &r->trace_box[a]);
	}
}

/* The same kinds, as many, with and without --annotate; the annotating runs did annotate. */
static void check_same(const struct runs *r)
{
	kinds_equal(&r->json[0], &r->json[1], "JSON lines");
	kinds_equal(&r->box[0], &r->box[1], "boxes");
	kinds_equal(&r->trace_json[0], &r->trace_json[1], "trace export (with JSON)");
	kinds_equal(&r->trace_box[0], &r->trace_box[1], "trace export (with boxes)");
	kinds_equal(&r->trace_json[0], &r->trace_box[0], "trace export, JSON vs box run");
	cr_assert_eq(kind_count(&r->json[0], "annotation"), 0);
	cr_assert_eq(kind_count(&r->json[0], "summary"), 1);
	for (int i = 0; i < RUNS; i++) {
		bool annot = i == JSON_ANNOT || i == BOX_ANNOT;
		char *err = e2e_slurp(r->err[i]);

		cr_assert_null(strstr(err, "warning"), "%s", err);
		cr_assert_eq(strstr(err, "animtrace: annotations: ") != NULL, annot, "%s", err);
		free(err);
	}
	char *plain = e2e_slurp(r->out[JSON_PLAIN]), *annot = e2e_slurp(r->out[JSON_ANNOT]);

	cr_assert_null(strstr(plain, "\"annotation_delay_ns\""));
	cr_assert_not_null(strstr(annot, "\"annotation_delay_ns\""));
	free(plain);
	free(annot);
}

Test(annotate_sinks, physics_springs_and_flings_reach_every_output_with_annotate)
{
	static const char *const sim[] = { "--frames", "90", "--art", "none", NULL };
	struct runs r;

	run(&r, "physics", sim, NULL, E2E_PROPS);
	check_same(&r);
	for (int a = 0; a < 2; a++) {
		cr_assert_eq(kind_count(&r.json[a], "animation_start"), 2, "the spring, the fling");
		cr_assert_eq(kind_count(&r.json[a], "animation_end"), 2);
		cr_assert_eq(kind_count(&r.box[a], "box Animation Begin"), 2);
		cr_assert_eq(kind_count(&r.box[a], "box Spring Animation End"), 1);
		cr_assert_eq(kind_count(&r.box[a], "box Fling Animation End"), 1);
		cr_assert_eq(kind_count(&r.trace_json[a], "b animation"), 2);
		cr_assert_eq(kind_count(&r.trace_json[a], "e animation"), 2);
	}
}

Test(annotate_sinks, listeners_exact_targets_reach_every_output_with_annotate)
{
	static const char *const sim[] = { "--linger-ms", "500", NULL };
	struct runs r;

	run(&r, "listeners", sim, NULL, E2E_PROPS | E2E_ART);
	check_same(&r);
	for (int a = 0; a < 2; a++) {
		cr_assert_eq(kind_count(&r.json[a], "animator_start"), 4);
		cr_assert_eq(kind_count(&r.json[a], "animator_end"), 4);
		cr_assert_eq(kind_count(&r.json[a], "animator_target"), 4, "one per animator");
		cr_assert_eq(kind_count(&r.box[a], "Target"), 4);
		cr_assert_eq(kind_count(&r.trace_json[a], "b animator"), 4);
	}
}

Test(annotate_sinks, refresh_storm_reaches_every_output_with_annotate)
{
	static const char *const sim[] = { "--frames", "95", "--linger-ms", "500", NULL };
	struct runs r;

	run(&r, "refresh", sim, "--refresh", E2E_PROPS | E2E_ART);
	check_same(&r);
	for (int a = 0; a < 2; a++) {
		cr_assert_eq(kind_count(&r.json[a], "refresh_storm"), 1);
		cr_assert_eq(kind_count(&r.json[a], "frame"), 95);
		cr_assert_eq(kind_count(&r.box[a], "box Refresh storm"), 1);
		cr_assert_eq(kind_count(&r.box[a], "frame"), 95);
	}
}

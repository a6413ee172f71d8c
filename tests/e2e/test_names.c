// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root): View class names. Each node the simulator writes is shown by the
 * class it was created with (read from RenderNode::mName in the simulator's memory); a node
 * freed and made again at the same address is shown by its new name and is a new node; a
 * library whose name offset cannot be decoded falls back to RenderNode@xxxx and says why once.
 * Synchronised on animtrace's --verbose lines ("node ... is X") and on gate files the
 * simulator waits for before it frees a node or exits, never on sleeps.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"

#define TARGET "com.example.names"

TestSuite(names, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

/* The class of (vsync, node) as the simulator made that node: every write agrees. */
static const char *class_at(const struct exp_proc *t, int vsync, uint64_t node)
{
	const char *cls = NULL;

	for (int i = 0; i < t->n_props; i++)
		if (t->props[i].vsync == vsync && t->props[i].node == node) {
			cr_assert(!cls || !strcmp(cls, t->props[i].node_class));
			cls = t->props[i].node_class;
		}
	cr_assert_not_null(cls, "no write of node %llx in vsync %d", (unsigned long long)node,
			   vsync);
	return cls;
}

/* Every frame_props record of t: node_class is the class (or null when want_null) and
 * node_name its label. Returns how many there were. */
static int check_frame_classes(const struct e2e_jsonl *out, const struct exp_proc *t,
			       bool want_null)
{
	char label[96];
	int n = 0;

	for (size_t i = 0; i < out->n; i++) {
		json_object *o = out->v[i];
		uint64_t node;
		const char *cls;

		if (!e2e_type_is(o, "frame_props") || e2e_int(o, "pid") != t->pid)
			continue;
		node = strtoull(e2e_str(o, "node"), NULL, 16);
		cls = class_at(t, (int)e2e_int(o, "frame_vsync_id"), node);
		snprintf(label, sizeof(label), "%s@%04llx", want_null ? "RenderNode" : cls,
			 (unsigned long long)(node & 0xffff));
		if (want_null)
			cr_assert(e2e_is_null(o, "node_class"), "%s",
				  json_object_to_json_string(o));
		else
			cr_assert_str_eq(e2e_str(o, "node_class"), cls, "%s",
					 json_object_to_json_string(o));
		cr_assert_str_eq(e2e_str(o, "node_name"), label);
		n++;
	}
	return n;
}

static json_object *summary_names(const struct e2e_jsonl *out)
{
	json_object *s = out->v[out->n - 1];

	cr_assert(e2e_type_is(s, "summary"));
	return e2e_get(s, "node_names");
}

/* One traced run: animtrace (args, stderr to err) and the simulator (sim), whose child name
 * plays once animtrace has its setter and ART probes on it. */
struct run {
	pid_t at, sim, app;
};

static struct run start_run(const char *const args[], const char *err, const char *const sim[],
			    const char *name, const char *go)
{
	struct run r;

	r.at = e2e_animtrace(args, err, NULL);
	r.sim = e2e_spawn(sim, NULL);
	r.app = e2e_find_child(r.sim, name);
	e2e_release(err, r.at, r.app, E2E_PROPS | E2E_ART, go);
	return r;
}

/* Stops animtrace; both it and the simulator must exit 0. */
static void stop_run(const struct run *r)
{
	kill(r->at, SIGINT);
	cr_assert_eq(e2e_exit_code(r->at, "animtrace"), 0);
	cr_assert_eq(e2e_exit_code(r->sim, "animsim"), 0);
}

/* Waits for animtrace's --verbose line about the node of pid with unique id id. */
static void await_named(const char *err, pid_t at, pid_t pid, int id, const char *cls)
{
	char who[32], what[64];

	snprintf(who, sizeof(who), "animtrace: pid %d: node 0x", pid);
	snprintf(what, sizeof(what), " (id %d) is %s", id, cls);
	e2e_await(err, at, who, what, NULL);
}

static void await_last_frame(const char *out, pid_t at, pid_t pid)
{
	char pidpat[32];

	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", pid);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":24,", NULL);
}

Test(names, every_frame_props_record_carries_the_class_the_simulator_made_its_node_with)
{
	char name[E2E_NAME_MAX], go[PATH_MAX];
	char out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX];
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       "--verbose",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",   name,
			      "--go",	   go,	       "--linger-ms",
			      "3000",	   "--expect", e2e_path(ex, "ex.jsonl"),
			      NULL };
	struct exp_proc procs[2];
	struct e2e_jsonl j;

	e2e_name(name, TARGET);
	e2e_path(go, "go");
	struct run r = start_run(args, e2e_path(err, "err.txt"), sim, name, go);

	await_named(err, r.at, r.app, 1, "NotificationRow");
	await_named(err, r.at, r.app, 2, "ScrimView");
	await_last_frame(out, r.at, r.app);
	stop_run(&r);
	cr_assert_eq(exp_load(ex, procs, 2), 1);
	e2e_jsonl_load(&j, out);
	cr_assert_eq(check_frame_classes(&j, &procs[0], false), 34, "the basic scenario's 34");
	cr_assert_eq(e2e_int(summary_names(&j), "named"), 2);
	cr_assert_eq(e2e_int(summary_names(&j), "no_offset"), 0);
	e2e_jsonl_free(&j);
}

/* The animator_end of cookie in out. */
static json_object *end_of(const struct e2e_jsonl *out, int64_t cookie)
{
	for (size_t i = 0; i < out->n; i++)
		if (e2e_type_is(out->v[i], "animator_end") && e2e_int(out->v[i], "id") == cookie)
			return out->v[i];
	cr_assert_fail("no animator_end of %lld", (long long)cookie);
	return NULL;
}

static void check_end(const struct e2e_jsonl *out, int64_t cookie, const char *cls, uint64_t node,
		      double from, double to)
{
	json_object *e = end_of(out, cookie), *alpha;
	char label[96];

	snprintf(label, sizeof(label), "%s@%04llx", cls, (unsigned long long)(node & 0xffff));
	cr_assert_eq(strtoull(e2e_str(e, "target"), NULL, 16), node);
	cr_assert_str_eq(e2e_str(e, "target_name"), label);
	cr_assert_str_eq(e2e_str(e, "target_class"), cls);
	alpha = e2e_get(e2e_get(e, "changes"), "alpha");
	cr_assert_float_eq(json_object_get_double(e2e_get(alpha, "from")), from, 1e-6, "%s",
			   json_object_to_json_string(e));
	cr_assert_float_eq(json_object_get_double(e2e_get(alpha, "to")), to, 1e-6);
}

Test(names, a_node_freed_and_made_again_at_the_same_address_is_shown_by_its_new_name)
{
	char name[E2E_NAME_MAX], go[PATH_MAX];
	char out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX], gate[PATH_MAX];
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       "--verbose",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM,
			      "--name",
			      name,
			      "--go",
			      go,
			      "--scenario",
			      "realloc",
			      "--late-gate",
			      e2e_path(gate, "gate"),
			      "--expect",
			      e2e_path(ex, "ex.jsonl"),
			      NULL };
	struct exp_proc procs[2];
	struct e2e_jsonl j;

	cr_assert_eq(mkdir(gate, 0755), 0);
	e2e_name(name, TARGET);
	e2e_path(go, "go");
	struct run r = start_run(args, e2e_path(err, "err.txt"), sim, name, go);

	/* The fixture's ids: 1 and 2 for the two first nodes, then 3 and 4 at the same place. */
	await_named(err, r.at, r.app, 1, "NotificationRow");
	e2e_gate(gate, "realloc-7");
	await_named(err, r.at, r.app, 3, "QSPanel");
	e2e_gate(gate, "realloc-13");
	await_named(err, r.at, r.app, 4, "QSPanel");
	e2e_gate(gate, "exit");
	await_last_frame(out, r.at, r.app);
	stop_run(&r);
	cr_assert_eq(exp_load(ex, procs, 2), 1);
	const struct exp_proc *t = &procs[0];
	uint64_t node = t->props[0].node;

	for (int i = 0; i < t->n_props; i++)
		cr_assert_eq(t->props[i].node, node, "the fixture gave the freed address back");
	e2e_jsonl_load(&j, out);
	cr_assert_eq(check_frame_classes(&j, t, false), 15, "5 changes per animator");
	check_end(&j, 168950273, "NotificationRow", node, 1, 0);
	check_end(&j, 168950274, "QSPanel", node, 1, 0.5);
	/* Same class, new unique id: a new node, so not "from" the old QSPanel's 0.5. */
	check_end(&j, 168950275, "QSPanel", node, 1, 0.25);
	cr_assert_eq(e2e_int(summary_names(&j), "named"), 3);
	cr_assert_eq(e2e_int(summary_names(&j), "gone"), 0);
	e2e_jsonl_free(&j);
}

Test(names, a_library_without_a_decodable_name_offset_falls_back_and_says_why_once)
{
	char name[E2E_NAME_MAX], go[PATH_MAX];
	char out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX], want[PATH_MAX + 128];
	const char *lib = BUILD_DIR "/sim/libhwui-noname.so";
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       "--hwui",
			       lib,
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",   name,
			      "--go",	   go,	       "--hwui",
			      lib,	   "--expect", e2e_path(ex, "ex.jsonl"),
			      NULL };
	struct exp_proc procs[2];
	struct e2e_jsonl j;
	char *text, *first;

	e2e_name(name, TARGET);
	e2e_path(go, "go");
	struct run r = start_run(args, e2e_path(err, "err.txt"), sim, name, go);

	await_last_frame(out, r.at, r.app);
	stop_run(&r);
	cr_assert_eq(exp_load(ex, procs, 2), 1);
	e2e_jsonl_load(&j, out);
	cr_assert_eq(check_frame_classes(&j, &procs[0], true), 34);
	cr_assert_eq(e2e_int(summary_names(&j), "named"), 0);
	cr_assert_eq(e2e_int(summary_names(&j), "no_offset"), 2);
	text = e2e_slurp(err);
	snprintf(want, sizeof(want), "animtrace: no View class names from %s (", lib);
	first = strstr(text, want);
	cr_assert_not_null(first, "no \"%s\" in:\n%s", want, text);
	cr_assert_null(strstr(first + 1, want), "said twice:\n%s", text);
	cr_assert_not_null(strstr(text, "animtrace: View names: 0 nodes named, 2 without a name "
					"offset, 0 unreadable, 0 not a class name, 0 reallocated "
					"before read\n"),
			   "%s", text);
	free(text);
	e2e_jsonl_free(&j);
}

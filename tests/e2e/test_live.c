// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root): the real animtrace binary and its BPF programs against animsim,
 * a simulated Android app (tests/sim/README.md). Expected values come from the simulator's
 * --expect file, never from timing.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"

static char target[E2E_NAME_MAX], early[E2E_NAME_MAX], decoy[E2E_NAME_MAX];

static void setup(void)
{
	e2e_setup();
	e2e_name(target, "com.example.anim");
	e2e_name(early, "com.example.early");
	e2e_name(decoy, "com.example.decoy");
}

TestSuite(live, .init = setup, .fini = e2e_teardown, .timeout = 180);

/* animsim with the target and the decoy, lingering after its frames so the leaked animator
 * is still running when animtrace is stopped; it plays once animtrace (at) has attached every
 * probe to the target, whose pid goes to *pid. */
static pid_t start_sim_b(const char *expect, pid_t at, const char *err, pid_t *pid)
{
	char go[PATH_MAX];
	const char *argv[] = { E2E_ANIMSIM,	     "--name", target,	   "--decoy", decoy,
			       "--linger-ms",	     "3000",   "--expect", expect,    "--go",
			       e2e_path(go, "go-b"), NULL };
	pid_t b = e2e_spawn(argv, NULL);

	*pid = e2e_find_child(b, target);
	e2e_release(err, at, *pid, E2E_PROPS | E2E_ART, go);
	return b;
}

/* Waits until animtrace (at) wrote the end of animator:alpha and the last frame of pid. */
static void await_target_done(const char *out, pid_t at, pid_t pid, int frames)
{
	char pidpat[32], seqpat[32];

	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", pid);
	snprintf(seqpat, sizeof(seqpat), "\"seq\":%d,", frames);
	e2e_await(out, at, "{\"type\":\"animator_end\"", pidpat, "\"name\":\"animator:alpha\"",
		  NULL);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, seqpat, NULL);
}

static void check_only_pids(const struct e2e_jsonl *out, pid_t p1, pid_t p2)
{
	for (size_t i = 0; i < out->n; i++) {
		int64_t pid = e2e_int(out->v[i], "pid");

		if (e2e_type_is(out->v[i], "summary"))
			cr_assert_eq(pid, 0);
		else
			cr_assert(pid == p1 || pid == p2, "a record of pid %lld: %s",
				  (long long)pid, json_object_to_json_string(out->v[i]));
	}
}

static void check_summary(const struct e2e_jsonl *out, size_t running)
{
	json_object *s = out->v[out->n - 1];

	cr_assert(e2e_type_is(s, "summary"));
	cr_assert_eq(e2e_int(s, "drops"), 0);
	cr_assert_eq(e2e_int(s, "truncated"), 0);
	cr_assert_eq(e2e_int(s, "markers_rejected"), 0);
	cr_assert_eq(json_object_array_length(e2e_get(s, "running")), running);
}

static void check_diag(const char *err, const struct exp_proc *t)
{
	char *text = e2e_slurp(err);
	char line[128];

	snprintf(line, sizeof(line), "animtrace: tracing %s (pid %d)\n", t->process, t->pid);
	cr_assert_not_null(strstr(text, line), "no \"%s\" in stderr:\n%s", line, text);
	cr_assert_null(strstr(text, decoy), "stderr names the decoy:\n%s", text);
	free(text);
}

/* pid's findings, "kind ids;" each in record order, are want. */
static void check_findings(const struct e2e_jsonl *out, pid_t pid, const char *want)
{
	char got[1024] = "";
	size_t len = 0;

	for (size_t i = 0; i < out->n && len < sizeof(got); i++) {
		json_object *o = out->v[i], *ids;

		if (!e2e_type_is(o, "finding") || e2e_int(o, "pid") != pid)
			continue;
		ids = e2e_get(o, "ids");
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s", e2e_str(o, "kind"));
		for (size_t k = 0; k < json_object_array_length(ids) && len < sizeof(got); k++)
			len += (size_t)snprintf(got + len, sizeof(got) - len, " %lld",
						(long long)json_object_get_int64(
							json_object_array_get_idx(ids, k)));
		if (len < sizeof(got))
			len += (size_t)snprintf(got + len, sizeof(got) - len, ";");
	}
	cr_assert_str_eq(got, want, "findings of %d: %s", pid, got);
}

Test(live, traces_a_target_started_before_and_one_started_after_animtrace_and_ignores_the_decoy)
{
	char e1[PATH_MAX], e2[PATH_MAX], out[PATH_MAX], err[PATH_MAX], go[PATH_MAX];
	char procs[2 * E2E_NAME_MAX + 2];
	/* A without the ART fixture (reasons inferred), B with it (reasons from the probes). */
	const char *sim_a[] = {
		E2E_ANIMSIM, "--name", early,  "--go",	   e2e_path(go, "go-a"),     "--linger-ms",
		"3000",	     "--art",  "none", "--expect", e2e_path(e1, "e1.jsonl"), NULL
	};
	const char *args[] = { "--proc",
			       procs,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	struct exp_proc p1[4], p2[4];
	struct e2e_jsonl j;
	pid_t late;

	snprintf(procs, sizeof(procs), "%s,%s", target, early);
	pid_t a = e2e_spawn(sim_a, NULL);
	pid_t early_pid = e2e_find_child(a, early);
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);

	e2e_release(err, at, early_pid, E2E_PROPS, go);
	pid_t b = start_sim_b(e2e_path(e2, "e2.jsonl"), at, err, &late);

	await_target_done(out, at, early_pid, 24);
	await_target_done(out, at, late, 24);
	/* the leaked rotation (S in frame 4, never a value) stalls: half a second unchanged */
	usleep(600000);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	cr_assert_eq(e2e_exit_code(a, "animsim A"), 0);
	cr_assert_eq(e2e_exit_code(b, "animsim B"), 0);

	cr_assert_eq(exp_load(e1, p1, 4), 1);
	cr_assert_eq(exp_load(e2, p2, 4), 2);
	const struct exp_proc *t1 = exp_role(p1, 1, "target"), *t2 = exp_role(p2, 2, "target");
	const struct exp_proc *decoy = exp_role(p2, 2, "decoy");

	cr_assert_eq(t1->pid, early_pid);
	cr_assert_eq(t2->pid, late);
	cr_assert_eq(t1->frames, 24, "the frame count awaited above");
	cr_assert_eq(t2->frames, 24);
	e2e_jsonl_load(&j, out);
	exp_check_target(&j, t1);
	exp_check_target(&j, t2);
	cr_assert(!t1->art && t2->art, "A runs without the ART fixture, B with it");
	exp_check_props(&j, t1);
	exp_check_props(&j, t2);
	check_only_pids(&j, early_pid, late);
	check_summary(&j, 2);
	/* basic: the fight on alpha (frame 5), end() of scaleY in its frame, the leaked rotation */
	check_findings(&j, early_pid, "conflict 168950273;flicker 168950277;stalled 168950278;");
	check_findings(&j, late, "conflict 168950273;flicker 168950277;stalled 168950278;");
	char *text = e2e_slurp(out);

	exp_check_decoy_absent(text, decoy, 1);
	free(text);
	check_diag(err, t1);
	check_diag(err, t2);
	e2e_jsonl_free(&j);
}

/* One box-format run of the target and decoy; the expect file's processes go to procs. */
static void run_box(const char *color, const char *out, const char *wait_for,
		    struct exp_proc *procs)
{
	char err[PATH_MAX], e2[PATH_MAX], opt[32];
	const char *env_add[] = { "LC_ALL=C.UTF-8", NULL };
	struct e2e_spawn so = { .env = e2e_env(env_add) };
	const char *args[] = { "--proc", target, "--format",	      "box", opt,
			       "-o",	 out,	 "--no-atrace-setup", NULL };
	pid_t pid;

	snprintf(opt, sizeof(opt), "--color=%s", color);
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), &so);
	pid_t b = start_sim_b(e2e_path(e2, "e2.jsonl"), at, err, &pid);

	e2e_await(out, at, wait_for, NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	cr_assert_eq(e2e_exit_code(b, "animsim"), 0);
	free(so.env);
	cr_assert_eq(exp_load(e2, procs, 4), 2);
}

static const struct exp_anim *anim_named(const struct exp_proc *t, const char *name)
{
	for (int i = 0; i < t->n_anims; i++)
		if (!strcmp(t->anims[i].name, name))
			return &t->anims[i];
	cr_assert_fail("no %s in the expect file", name);
	return NULL;
}

/* The lines of the End box of name, up to its closing corner. */
static char *end_box(const char *text, const char *name)
{
	char title[96];
	const char *start, *end;

	snprintf(title, sizeof(title), "┌── End %s ", name);
	start = strstr(text, title);
	cr_assert_not_null(start, "no End box of %s in:\n%s", name, text);
	end = strstr(start, "└──");
	cr_assert_not_null(end, "End box of %s not closed", name);
	return strndup(start, end - start);
}

Test(live, box_format_shows_the_targets_animator_boxes_and_nothing_of_the_decoy)
{
	char out[PATH_MAX], want[256];
	struct exp_proc procs[4];

	run_box("never", e2e_path(out, "out.txt"), "┌── End animator:alpha ", procs);
	const struct exp_proc *t = exp_role(procs, 2, "target");
	const struct exp_anim *alpha = anim_named(t, "animator:alpha");
	char *text = e2e_slurp(out), *box;

	cr_assert_eq(alpha->cookie, 168950273);
	cr_assert_not_null(strstr(text, "┌── Begin animator:alpha ─"), "%s", text);
	cr_assert_not_null(strstr(text, "│ ID:         168950273\n"), "%s", text);
	snprintf(want, sizeof(want), "│ Process:    %s (pid %d", target, t->pid);
	cr_assert_not_null(strstr(text, want), "no \"%s\" in:\n%s", want, text);
	box = end_box(text, "animator:alpha");
	snprintf(want, sizeof(want), "│ Frames:     %d\n",
		 alpha->end_frame - alpha->start_frame + 1);
	cr_assert_not_null(strstr(box, want), "no \"%s\" in:\n%s", want, box);
	cr_assert_not_null(strstr(box, "│ Frames:     18\n"));
	/* The view it animated (node A of the simulator) and the values it went through. */
	snprintf(want, sizeof(want), "│ Target:     NotificationRow@%04llx (inferred)\n",
		 (unsigned long long)(t->props[0].node & 0xffff));
	cr_assert_str_eq(t->props[0].animator, "animator:alpha");
	cr_assert_not_null(strstr(box, want), "no \"%s\" in:\n%s", want, box);
	cr_assert_not_null(strstr(box, "│ Properties: alpha: 1 → 0\n"), "%s", box);
	cr_assert_null(strchr(text, '\033'), "--color=never wrote an escape sequence");
	exp_check_decoy_absent(text, exp_role(procs, 2, "decoy"), 0);
	free(box);
	free(text);
}

Test(live, box_format_with_color_always_writes_ansi_escapes)
{
	char out[PATH_MAX];
	struct exp_proc procs[4];

	run_box("always", e2e_path(out, "out.txt"), "Begin animator:alpha ", procs);
	char *text = e2e_slurp(out);

	cr_assert_not_null(strstr(text, "\033["), "no ANSI escape in:\n%s", text);
	cr_assert_not_null(strstr(text, "Begin animator:alpha "));
	exp_check_decoy_absent(text, exp_role(procs, 2, "decoy"), 0);
	free(text);
}

/* An app that never saw the VIEW tag on: its setters run, but not one marker comes (no
 * frames, no animators). animtrace says so in a note instead of printing a quiet session. */
Test(live, an_app_whose_atrace_view_tag_is_off_gets_a_note_saying_so)
{
	char go[PATH_MAX], out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX], exited[64], want[320];
	const char *args[] = { "--proc",
			       target,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "off.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",
			      target,	   "--tags-off",
			      "--go",	   e2e_path(go, "go-off"),
			      "--expect",  e2e_path(ex, "off-ex.jsonl"),
			      NULL };
	struct exp_proc procs[2];
	struct e2e_jsonl j;
	int changed = 0, notes = 0;

	pid_t at = e2e_animtrace(args, e2e_path(err, "off-err.txt"), NULL);
	pid_t s = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(s, target);

	e2e_release(err, at, app, E2E_PROPS | E2E_ART, go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	/* The note goes out with the process's exit, which animtrace reports first. */
	snprintf(exited, sizeof(exited), "(pid %d) exited", app);
	e2e_await(err, at, exited, NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);

	cr_assert_eq(exp_load(ex, procs, 2), 1);
	for (int i = 0; i < procs[0].n_props; i++)
		changed += procs[0].props[i].changed; /* the probe reports changed values only */
	cr_assert_gt(changed, 0);
	snprintf(want, sizeof(want),
		 "%s (pid %d): %d View property writes but no trace_marker writes: no frames or "
		 "animator lifecycles for it (is its atrace view tag on? animtrace doctor)",
		 target, app, changed);
	e2e_jsonl_load(&j, out);
	for (size_t i = 0; i < j.n; i++) {
		if (!e2e_type_is(j.v[i], "note"))
			continue;
		cr_assert_str_eq(e2e_str(j.v[i], "message"), want);
		notes++;
	}
	cr_assert_eq(notes, 1);
	cr_assert(e2e_type_is(j.v[j.n - 1], "summary"));
	cr_assert_eq(e2e_int(j.v[j.n - 1], "markers"), 0);
	cr_assert_eq(e2e_int(j.v[j.n - 1], "frames"), 0);
	e2e_jsonl_free(&j);
}

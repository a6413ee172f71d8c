// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Smoothness, live (root): the simulator's jank scenario (tests/sim/README.md) misses two
 * vsyncs before frame 10, makes frame 20 slow inside traversal > RV OnBindView > inflate
 * (after which two more vsyncs go by), and leaves an idle gap of ten vsyncs before frame 36
 * with no animator running. With vsync ids the misses come from the ids; without, from the
 * intervals (at 30 Hz, so a loaded machine's wake-up latency stays far below half a period).
 * The ids run plays FrameTimeline tokens (the simulator's default, +3..12 per vsync): the
 * engine takes its vsync grid from time, so the counts must not depend on the ids.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"

#define FRAMES 40

TestSuite(jank, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

/* Runs the jank scenario under animtrace; j gets its JSON lines, *x what the simulator says
 * it did (its vsync ids), the target's pid returned. */
static pid_t run_jank(bool ids, const char *fps, struct e2e_jsonl *j, struct exp_proc *x)
{
	char name[E2E_NAME_MAX], out[PATH_MAX], err[PATH_MAX], go[PATH_MAX], seq[32], pidpat[32];
	char exp_path[PATH_MAX];
	const char *sim[] = { E2E_ANIMSIM,
			      "--name",
			      name,
			      "--go",
			      e2e_path(go, "go"),
			      "--expect",
			      e2e_path(exp_path, "expect.jsonl"),
			      "--scenario",
			      "jank",
			      "--frames",
			      "40",
			      "--fps",
			      fps,
			      ids ? "--vsync-ids" : "--no-vsync-ids",
			      ids ? "tokens" : NULL,
			      NULL };
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       NULL };

	e2e_name(name, "com.example.jank");
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	pid_t sim_pid = e2e_spawn(sim, NULL);
	pid_t pid = e2e_find_child(sim_pid, name);

	e2e_release(err, at, pid, 0, go);
	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", pid);
	snprintf(seq, sizeof(seq), "\"seq\":%d,", FRAMES);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, seq, NULL);
	cr_assert_eq(e2e_exit_code(sim_pid, "animsim"), 0);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	e2e_jsonl_load(j, out);
	cr_assert_eq(exp_load(exp_path, x, 1), 1);
	return pid;
}

static json_object *frame_of(const struct e2e_jsonl *j, pid_t pid, int seq)
{
	for (size_t i = 0; i < j->n; i++)
		if (e2e_type_is(j->v[i], "frame") && e2e_int(j->v[i], "pid") == pid &&
		    e2e_int(j->v[i], "seq") == seq)
			return j->v[i];
	cr_assert_fail("no frame %d of pid %d", seq, pid);
	return NULL;
}

static bool is_true(json_object *o, const char *key)
{
	return json_object_get_boolean(e2e_get(o, key));
}

/* Every frame's dropped_before and janky: only frames 10, 21 (2 each) and 20 (late). */
static void check_frames(const struct e2e_jsonl *j, pid_t pid, uint64_t period)
{
	for (int seq = 1; seq <= FRAMES; seq++) {
		json_object *f = frame_of(j, pid, seq);
		int want_dropped = seq == 10 || seq == 21 ? 2 : 0;

		cr_assert_eq(e2e_int(f, "dropped_before"), want_dropped, "frame %d: %s", seq,
			     json_object_to_json_string(f));
		cr_assert_eq(is_true(f, "janky"), seq == 20, "frame %d: %s", seq,
			     json_object_to_json_string(f));
		if (seq > 9) /* measured from eight intervals on */
			cr_assert_eq(e2e_int(f, "budget_ns"), (int64_t)period, "frame %d", seq);
	}
}

static json_object *end_of(const struct e2e_jsonl *j, pid_t pid)
{
	for (size_t i = 0; i < j->n; i++)
		if (e2e_type_is(j->v[i], "animator_end") && e2e_int(j->v[i], "pid") == pid)
			return j->v[i];
	cr_assert_fail("no animator_end of pid %d", pid);
	return NULL;
}

static const char *chain_name(json_object *jank, const char *key, size_t i)
{
	json_object *chain = e2e_get(jank, key);

	cr_assert_gt(json_object_array_length(chain), i, "%s", json_object_to_json_string(jank));
	return e2e_str(json_object_array_get_idx(chain, i), "name");
}

/* Exactly three jank records: the gap before 10, the late frame 20, the gap before 21. */
static void check_janks(const struct e2e_jsonl *j, pid_t pid, int64_t cookie, bool ids,
			const struct exp_proc *x)
{
	static const struct {
		const char *kind;
		int seq, dropped;
	} want[] = {
		{ "dropped_frames", 10, 2 },
		{ "late_frame", 20, 0 },
		{ "dropped_frames", 21, 2 },
	};
	char name[64], draw[64];
	size_t n = 0;

	for (size_t i = 0; i < j->n; i++) {
		json_object *o = j->v[i];

		if (!e2e_type_is(o, "jank") || e2e_int(o, "pid") != pid)
			continue;
		cr_assert_lt(n, 3, "a fourth jank record: %s", json_object_to_json_string(o));
		cr_assert_str_eq(e2e_str(o, "kind"), want[n].kind);
		cr_assert_eq(e2e_int(o, "frame_seq"), want[n].seq);
		cr_assert_eq(e2e_int(o, "dropped_before"), want[n].dropped);
		json_object *anims = e2e_get(o, "animations");
		cr_assert_eq(json_object_array_length(anims), 1);
		cr_assert_eq(json_object_get_int64(json_object_array_get_idx(anims, 0)), cookie);
		if (want[n].seq == 20) {
			if (ids) {
				snprintf(name, sizeof(name), "Choreographer#doFrame %lld",
					 (long long)exp_vsync(x, 20));
				snprintf(draw, sizeof(draw), "DrawFrames %lld",
					 (long long)exp_vsync(x, 20));
			} else {
				snprintf(name, sizeof(name), "Choreographer#doFrame");
				snprintf(draw, sizeof(draw), "DrawFrame");
			}
			cr_assert_str_eq(chain_name(o, "ui_chain", 0), name);
			cr_assert_str_eq(chain_name(o, "ui_chain", 1), "traversal");
			cr_assert_str_eq(chain_name(o, "ui_chain", 2), "RV OnBindView");
			cr_assert_str_eq(chain_name(o, "ui_chain", 3), "inflate");
			cr_assert_str_eq(chain_name(o, "render_chain", 0), draw);
		}
		n++;
	}
	cr_assert_eq(n, 3, "%zu jank records", n);
}

static void check_summary(const struct e2e_jsonl *j, pid_t pid, uint64_t period, bool ids)
{
	json_object *procs = e2e_get(j->v[j->n - 1], "processes");

	for (size_t i = 0; i < json_object_array_length(procs); i++) {
		json_object *p = json_object_array_get_idx(procs, i);

		if (e2e_int(p, "pid") != pid)
			continue;
		cr_assert_eq(e2e_int(p, "refresh_period_ns"), (int64_t)period);
		/* ids are FrameTimeline tokens, not vsyncs: the period comes from time alone */
		cr_assert_str_eq(e2e_str(p, "refresh_source"), "intervals");
		cr_assert_eq(e2e_int(p, "frames"), FRAMES);
		cr_assert_eq(e2e_int(p, "frames_dropped"), 4);
		cr_assert_eq(e2e_int(p, "janky_frames"), 1);
		return;
	}
	cr_assert_fail("no summary line for pid %d", pid);
}

static void check_all(bool ids, const char *fps, uint64_t period)
{
	struct e2e_jsonl j;
	struct exp_proc x = { 0 };
	pid_t pid = run_jank(ids, fps, &j, &x);
	json_object *end = end_of(&j, pid);
	int64_t period_ms = (int64_t)period / 1000000;

	check_frames(&j, pid, period);
	cr_assert_str_eq(e2e_str(end, "name"), "animator:alpha");
	cr_assert_eq(e2e_int(end, "frames"), 30);
	cr_assert_eq(e2e_int(end, "frames_dropped"), 4);
	cr_assert_eq(e2e_int(end, "janky_frames"), 1);
	/* the slow frame holds 2.4 periods; the worst gap is the 3 periods after it */
	cr_assert_geq(e2e_int(end, "worst_frame_ns"), period_ms * 24 / 10 * 1000000);
	cr_assert_geq(e2e_int(end, "worst_gap_ns"), (int64_t)(3 * period) - 1000000);
	check_janks(&j, pid, e2e_int(end, "id"), ids, &x);
	check_summary(&j, pid, period, ids);
	e2e_jsonl_free(&j);
}

Test(jank, missed_vsync_ids_a_slow_frame_and_an_idle_gap_count_exactly)
{
	check_all(true, "60", 16666667);
}

Test(jank, without_vsync_ids_the_intervals_give_the_same_counts)
{
	check_all(false, "30", 33333333);
}

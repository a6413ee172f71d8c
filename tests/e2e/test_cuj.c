// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CUJs, live (root): the simulator's cuj scenario with the real frame model (--vsync-ids
 * tokens: ids rise by 3..12 per vsync, Choreographer#onVsync before each doFrame, a Handler
 * message delaying frame 12) writes FrameTracker's J<CUJ> track around frames 2..14, with two
 * animators inside and one after (tests/sim/README.md). The cuj record has exactly those
 * frames and animators; its janky and dropped counts are what its frame records say.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"

#define FRAMES 24

TestSuite(cuj, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

/* The simulator's own account of its CUJ (its "cuj" expect line). */
static json_object *exp_cuj(const struct e2e_jsonl *x)
{
	json_object *found = NULL;

	for (size_t i = 0; i < x->n; i++)
		if (e2e_type_is(x->v[i], "cuj")) {
			cr_assert_null(found, "two cuj lines in the expect file");
			found = x->v[i];
		}
	cr_assert_not_null(found, "no cuj line in the expect file");
	return found;
}

/* The simulator's one line of type type. */
static json_object *exp_one(const struct e2e_jsonl *x, const char *type)
{
	for (size_t i = 0; i < x->n; i++)
		if (e2e_type_is(x->v[i], type))
			return x->v[i];
	cr_assert_fail("no %s line in the expect file", type);
	return NULL;
}

/* The first record of type type of pid whose vsync_id is vsync. */
static json_object *rec_of_vsync(const struct e2e_jsonl *j, const char *type, pid_t pid,
				 int64_t vsync)
{
	for (size_t i = 0; i < j->n; i++)
		if (e2e_type_is(j->v[i], type) && e2e_int(j->v[i], "pid") == pid &&
		    !e2e_is_null(j->v[i], "vsync_id") && e2e_int(j->v[i], "vsync_id") == vsync)
			return j->v[i];
	return NULL;
}

/*
 * Frame 12 waited 20 ms behind a Handler message after its vsync: its start delay is what the
 * simulator measured from its vsync slot (within 1 ms: the grid is the envelope of the
 * frames' starts), it misses its deadline, and its jank record names the message.
 */
static void check_late_start(const struct e2e_jsonl *j, const struct e2e_jsonl *x, pid_t pid)
{
	json_object *late = exp_one(x, "late_start"), *h = exp_one(x, "handler");
	int64_t vsync = e2e_int(late, "vsync");
	json_object *f = rec_of_vsync(j, "frame", pid, vsync), *jk, *chain;

	cr_assert_not_null(f, "no frame of vsync %lld", (long long)vsync);
	cr_assert(llabs(e2e_int(f, "start_delay_ns") - e2e_int(late, "late_ns")) < 1000000,
		  "start_delay_ns %lld, the simulator measured %lld: %s",
		  (long long)e2e_int(f, "start_delay_ns"), (long long)e2e_int(late, "late_ns"),
		  json_object_to_json_string(f));
	cr_assert(json_object_get_boolean(e2e_get(f, "janky")), "%s",
		  json_object_to_json_string(f));
	jk = rec_of_vsync(j, "jank", pid, vsync);
	cr_assert_not_null(jk, "no jank record for the delayed frame");
	chain = e2e_get(jk, "start_chain");
	cr_assert_gt(json_object_array_length(chain), 0, "%s", json_object_to_json_string(jk));
	cr_assert_str_eq(e2e_str(json_object_array_get_idx(chain, 0), "name"), e2e_str(h, "name"),
			 "%s", json_object_to_json_string(jk));
}

static bool has_id(json_object *arr, int64_t id)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++)
		if (json_object_get_int64(json_object_array_get_idx(arr, i)) == id)
			return true;
	return false;
}

Test(cuj, a_cuj_is_reported_with_its_frames_and_animators)
{
	char name[E2E_NAME_MAX], out[PATH_MAX], err[PATH_MAX], go[PATH_MAX], exp_path[PATH_MAX];
	char seq[32], pidpat[32];
	const char *sim[] = { E2E_ANIMSIM,
			      "--name",
			      name,
			      "--go",
			      e2e_path(go, "go"),
			      "--expect",
			      e2e_path(exp_path, "expect.jsonl"),
			      "--scenario",
			      "cuj",
			      "--vsync-ids",
			      "tokens",
			      "--vsync-seed",
			      "7",
			      "--frames",
			      "24",
			      "--art",
			      "none",
			      NULL };
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	struct e2e_jsonl j, x;
	struct exp_proc procs[1];
	json_object *cuj = NULL, *want;
	int64_t janky = 0, dropped = 0, frames = 0;
	int cujs = 0;

	e2e_name(name, "com.android.systemui");
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
	e2e_jsonl_load(&j, out);
	e2e_jsonl_load(&x, exp_path);
	cr_assert_eq(exp_load(exp_path, procs, 1), 1);
	want = exp_cuj(&x);

	for (size_t i = 0; i < j.n; i++) {
		json_object *o = j.v[i];

		if (e2e_type_is(o, "cuj") && e2e_int(o, "pid") == pid) {
			cuj = o;
			cujs++;
		}
	}
	cr_assert_eq(cujs, 1, "%d cuj records", cujs);
	cr_assert_str_eq(e2e_str(cuj, "name"), "SHADE_EXPAND_COLLAPSE");
	cr_assert_str_eq(e2e_str(cuj, "name"), e2e_str(want, "name"));
	cr_assert_str_eq(e2e_str(cuj, "process"), name);
	cr_assert_eq(e2e_int(cuj, "cookie"), e2e_int(want, "cookie"), "the begin vsync id");
	cr_assert_eq(e2e_int(cuj, "cookie"), exp_vsync(&procs[0], 2));
	cr_assert(json_object_get_boolean(e2e_get(cuj, "ended")));
	cr_assert_eq(e2e_int(cuj, "frames"), 13, "frames 2..14: %s",
		     json_object_to_json_string(cuj));
	cr_assert_eq(e2e_int(cuj, "frames"), e2e_int(want, "frames"));
	cr_assert_eq(e2e_int(cuj, "animations"), 0);

	/* animator:alpha (frames 3..14) and animator:translationY (5..10), not scaleX (17..20) */
	json_object *ids = e2e_get(cuj, "animators");

	cr_assert_eq(json_object_array_length(ids), 2, "%s", json_object_to_json_string(cuj));
	cr_assert_eq(e2e_int(want, "animators"), 2);
	for (int i = 0; i < procs[0].n_anims; i++) {
		const struct exp_anim *a = &procs[0].anims[i];
		bool inside = a->start_frame <= 14 && a->end_frame >= 2;

		cr_assert_eq(has_id(ids, a->cookie), inside, "%s %lld", a->name,
			     (long long)a->cookie);
	}

	/* its frames are those of vsync ids 2..14 of the simulator's, and their records decide */
	for (size_t i = 0; i < j.n; i++) {
		json_object *o = j.v[i];
		int f;

		if (!e2e_type_is(o, "frame") || e2e_int(o, "pid") != pid)
			continue;
		f = exp_frame_of_vsync(&procs[0], e2e_int(o, "vsync_id"));
		cr_assert_gt(f, 0, "a frame the simulator did not make: %s",
			     json_object_to_json_string(o));
		if (f < 2 || f > 14)
			continue;
		frames++;
		janky += json_object_get_boolean(e2e_get(o, "janky"));
		dropped += e2e_int(o, "dropped_before");
		if (e2e_int(o, "dropped_before"))
			cr_log_warn("frame %d: %s", f, json_object_to_json_string(o));
	}
	cr_assert_eq(frames, 13);
	cr_assert_eq(e2e_int(cuj, "janky_frames"), janky);
	cr_assert_geq(janky, 1, "frame 12, held 1.2 periods, is late");
	cr_assert_eq(e2e_int(cuj, "frames_dropped"), dropped);
	cr_assert_eq(dropped, 0,
		     "the simulator plays every vsync slot: none passes without a frame");
	cr_assert(e2e_type_is(j.v[j.n - 1], "summary"));
	cr_assert_eq(e2e_int(j.v[j.n - 1], "cujs"), 1, "the summary counts it");
	check_late_start(&j, &x, pid);
	e2e_jsonl_free(&x);
	e2e_jsonl_free(&j);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CUJs, live (root): the simulator's cuj scenario with the real frame model (--vsync-ids
 * tokens: ids rise by 3..12 per vsync, Choreographer#onVsync before each doFrame, a Handler
 * message delaying frame 12) writes FrameTracker's CUJs as one Android version does
 * (--cuj-form: 12 S/F, 13 S/F with J<X>#FT# slices, 14 G/H with FT# instants, 15 the same and
 * J<X>#UIThread; tests/sim/README.md): SHADE_EXPAND_COLLAPSE around frames 2..14, with two
 * animators inside and one after, and SHADE_ROW_SWIPE over frames 16..19, cancelled. Each cuj
 * record has exactly those frames and animators, the simulator's name (no "J<", ">") and
 * begin vsync, and is cancelled where the version says so; its janky and dropped counts are
 * what its frame records say. Every version gives the same records.
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

/* One run of the cuj scenario with --cuj-form form: animtrace's JSON, the simulator's expect
 * lines and its account of the target. */
struct cuj_run {
	struct e2e_jsonl j, x;
	struct exp_proc proc;
	pid_t pid;
	char name[E2E_NAME_MAX];
};

static void run_cuj(struct cuj_run *r, const char *form)
{
	char out[PATH_MAX], err[PATH_MAX], go[PATH_MAX], exp_path[PATH_MAX];
	char seq[32], pidpat[32], f_out[32], f_err[32], f_go[32], f_exp[32];

	/* a run's own files: a go file left by the run before would start this one at once */
	snprintf(f_out, sizeof(f_out), "out-%s.jsonl", form);
	snprintf(f_err, sizeof(f_err), "err-%s.txt", form);
	snprintf(f_go, sizeof(f_go), "go-%s", form);
	snprintf(f_exp, sizeof(f_exp), "expect-%s.jsonl", form);

	const char *sim[] = { E2E_ANIMSIM,
			      "--name",
			      r->name,
			      "--go",
			      e2e_path(go, f_go),
			      "--expect",
			      e2e_path(exp_path, f_exp),
			      "--scenario",
			      "cuj",
			      "--cuj-form",
			      form,
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
			       r->name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, f_out),
			       "--no-atrace-setup",
			       NULL };

	e2e_name(r->name, "com.android.systemui");
	pid_t at = e2e_animtrace(args, e2e_path(err, f_err), NULL);
	pid_t sim_pid = e2e_spawn(sim, NULL);

	r->pid = e2e_find_child(sim_pid, r->name);
	e2e_release(err, at, r->pid, 0, go);
	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", r->pid);
	snprintf(seq, sizeof(seq), "\"seq\":%d,", FRAMES);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, seq, NULL);
	cr_assert_eq(e2e_exit_code(sim_pid, "animsim"), 0);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	e2e_jsonl_load(&r->j, out);
	e2e_jsonl_load(&r->x, exp_path);
	cr_assert_eq(exp_load(exp_path, &r->proc, 1), 1);
}

static void free_run(struct cuj_run *r)
{
	e2e_jsonl_free(&r->x);
	e2e_jsonl_free(&r->j);
}

/* The k-th line of type type of pid in l (any pid: pid 0), or NULL. */
static json_object *nth_of(const struct e2e_jsonl *l, const char *type, pid_t pid, int k)
{
	for (size_t i = 0; i < l->n; i++)
		if (e2e_type_is(l->v[i], type) && (!pid || e2e_int(l->v[i], "pid") == pid) &&
		    k-- == 0)
			return l->v[i];
	return NULL;
}

/* The frames of vsync ids begin..end of the simulator's: how many, janky, dropped before. */
static void frames_between(const struct cuj_run *r, int begin, int end, int64_t *frames,
			   int64_t *janky, int64_t *dropped)
{
	*frames = *janky = *dropped = 0;
	for (size_t i = 0; i < r->j.n; i++) {
		json_object *o = r->j.v[i];
		int f;

		if (!e2e_type_is(o, "frame") || e2e_int(o, "pid") != r->pid)
			continue;
		f = exp_frame_of_vsync(&r->proc, e2e_int(o, "vsync_id"));
		cr_assert_gt(f, 0, "a frame the simulator did not make: %s",
			     json_object_to_json_string(o));
		if (f < begin || f > end)
			continue;
		(*frames)++;
		*janky += json_object_get_boolean(e2e_get(o, "janky"));
		*dropped += e2e_int(o, "dropped_before");
	}
}

/*
 * The k-th cuj record is what the simulator wrote (its k-th cuj line): the name without "J<"
 * and ">", the begin vsync, cancelled and reason as the version says them, the frames between
 * its begin and end frames and what their records say, the animators that ran inside it.
 */
static json_object *check_cuj(const struct cuj_run *r, int k)
{
	json_object *c = nth_of(&r->j, "cuj", r->pid, k), *want = nth_of(&r->x, "cuj", 0, k);
	int64_t frames, janky, dropped;
	int begin, end;

	cr_assert_not_null(c, "no cuj record %d", k);
	cr_assert_not_null(want, "no cuj line %d in the expect file", k);
	begin = (int)e2e_int(want, "begin_frame");
	end = (int)e2e_int(want, "end_frame");
	cr_assert_str_eq(e2e_str(c, "name"), e2e_str(want, "name"));
	cr_assert_str_eq(e2e_str(c, "process"), r->name);
	cr_assert_eq(e2e_int(c, "begin_vsync"), e2e_int(want, "begin_vsync"), "%s",
		     json_object_to_json_string(c));
	cr_assert_eq(e2e_int(c, "begin_vsync"), exp_vsync(&r->proc, begin));
	cr_assert(json_object_get_boolean(e2e_get(c, "ended")));
	cr_assert_eq(json_object_get_boolean(e2e_get(c, "cancelled")),
		     json_object_get_boolean(e2e_get(want, "cancelled")), "%s",
		     json_object_to_json_string(c));
	cr_assert_eq(e2e_is_null(c, "reason"), e2e_is_null(want, "reason"));
	if (!e2e_is_null(want, "reason"))
		cr_assert_eq(e2e_int(c, "reason"), e2e_int(want, "reason"));
	cr_assert_eq(e2e_int(c, "frames"), e2e_int(want, "frames"), "frames %d..%d: %s", begin, end,
		     json_object_to_json_string(c));
	cr_assert_eq(e2e_int(c, "animations"), 0);
	cr_assert_eq(json_object_array_length(e2e_get(c, "animators")),
		     (size_t)e2e_int(want, "animators"), "%s", json_object_to_json_string(c));
	for (int i = 0; i < r->proc.n_anims; i++) {
		const struct exp_anim *a = &r->proc.anims[i];

		cr_assert_eq(has_id(e2e_get(c, "animators"), a->cookie),
			     a->start_frame <= end && a->end_frame >= begin, "%s %lld", a->name,
			     (long long)a->cookie);
	}
	frames_between(r, begin, end, &frames, &janky, &dropped);
	cr_assert_eq(frames, e2e_int(want, "frames"));
	cr_assert_eq(e2e_int(c, "janky_frames"), janky);
	cr_assert_eq(e2e_int(c, "frames_dropped"), dropped);
	cr_assert_eq(dropped, 0,
		     "the simulator plays every vsync slot: none passes without a frame");
	return c;
}

/* Both CUJs of a run, as the simulator wrote them; the summary counts them. */
static void check_run(const struct cuj_run *r)
{
	json_object *last = r->j.v[r->j.n - 1];

	cr_assert_null(nth_of(&r->j, "cuj", r->pid, 2), "two cuj records");
	cr_assert_str_eq(e2e_str(check_cuj(r, 0), "name"), "SHADE_EXPAND_COLLAPSE");
	cr_assert_str_eq(e2e_str(check_cuj(r, 1), "name"), "SHADE_ROW_SWIPE");
	cr_assert(e2e_type_is(last, "summary"));
	cr_assert_eq(e2e_int(last, "cujs"), 2, "the summary counts them");
}

/* Android 14's G/H and FT# instants: the first CUJ ended (reason 0), 13 frames, one janky (the
 * held frame 12), two animators; the second cancelled (reason 16), 4 frames, the scaleX. */
Test(cuj, a_cuj_is_reported_with_its_frames_and_animators)
{
	struct cuj_run r;
	json_object *c;

	run_cuj(&r, "14");
	check_run(&r);
	c = nth_of(&r.j, "cuj", r.pid, 0);
	cr_assert_eq(e2e_int(c, "frames"), 13, "frames 2..14");
	cr_assert_geq(e2e_int(c, "janky_frames"), 1, "frame 12, held 1.2 periods, is late");
	cr_assert_not(json_object_get_boolean(e2e_get(c, "cancelled")));
	cr_assert_eq(e2e_int(c, "reason"), 0);
	c = nth_of(&r.j, "cuj", r.pid, 1);
	cr_assert(json_object_get_boolean(e2e_get(c, "cancelled")));
	cr_assert_eq(e2e_int(c, "reason"), 16, "REASON_CANCEL_NORMAL");
	cr_assert_eq(e2e_int(c, "frames"), 4, "frames 16..19");
	check_late_start(&r.j, &r.x, r.pid);
	free_run(&r);
}

/* Android 12 (S/F, no FT# events): the same CUJs; the cancel reads as an end, no reason. */
Test(cuj, android_12_writes_async_sections)
{
	struct cuj_run r;

	run_cuj(&r, "12");
	check_run(&r);
	cr_assert_not(json_object_get_boolean(e2e_get(nth_of(&r.j, "cuj", r.pid, 1), "cancelled")));
	free_run(&r);
}

/* Android 13 (S/F and J<X>#FT# slices), 15 (14's and J<X>#UIThread): records that say what
 * 14's say, the cancel included. */
Test(cuj, android_13_and_15_give_the_records_of_14)
{
	static const char *const forms[] = { "13", "15" };

	for (int i = 0; i < 2; i++) {
		struct cuj_run r;

		run_cuj(&r, forms[i]);
		check_run(&r);
		cr_assert(json_object_get_boolean(
				  e2e_get(nth_of(&r.j, "cuj", r.pid, 1), "cancelled")),
			  "form %s", forms[i]);
		cr_assert_eq(e2e_int(nth_of(&r.j, "cuj", r.pid, 1), "reason"), 16);
		free_run(&r);
	}
}

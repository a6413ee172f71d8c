// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Real captures through replay_run, the engine and a recording sink: exact lifecycles. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "engine/engine.h"
#include "common/procsel.h"
#include "replay/replay.h"

#define TRACES TESTDATA "/traces/"
#define MAX_ENDS 64

struct seen {
	int n;
	struct anim ends[MAX_ENDS];
	uint64_t frames;
	uint64_t findings[FINDING_KIND_COUNT];
	uint64_t flicker_ids[MAX_ENDS];
};

static int on_finding(void *ctx, const struct finding *f)
{
	struct seen *s = ctx;

	if (f->kind == FINDING_FLICKER && s->findings[f->kind] < MAX_ENDS)
		s->flicker_ids[s->findings[f->kind]] = f->ids[0];
	s->findings[f->kind]++;
	return 0;
}

static int on_end(void *ctx, const struct anim *a)
{
	struct seen *s = ctx;

	if (s->n < MAX_ENDS)
		s->ends[s->n] = *a;
	s->n++;
	return 0;
}

static int on_summary(void *ctx, const struct summary *sum)
{
	((struct seen *)ctx)->frames = sum->frames;
	return 0;
}

static const struct sink_ops recording = { .anim_end = on_end,
					   .summary = on_summary,
					   .finding = on_finding };

/* Replays file with --pid pids or --proc names (NULL: unused) into s; returns replay_run's. */
static int replay(const char *file, const char *pids, const char *names, struct seen *s, char *msg,
		  size_t msglen)
{
	struct procfilter *f = procfilter__new();
	struct engine *e = engine__new(NULL, (struct sink){ &recording, s });
	struct replay_stats st;
	int ret;

	cr_assert(f && e);
	if (pids)
		cr_assert_eq(procfilter__add_pids(f, pids), 0);
	if (names)
		cr_assert_eq(procfilter__add_names(f, names), 0);
	ret = replay_run(file, f, e, &st, msg, msglen);
	if (!ret)
		engine__finish(e, st.last_ns, 0, 0);
	engine__free(e);
	procfilter__free(f);
	return ret;
}

static int count_named(const struct seen *s, const char *name)
{
	int n = 0;

	for (int i = 0; i < s->n && i < MAX_ENDS; i++)
		n += !strcmp(s->ends[i].name, name);
	return n;
}

static void assert_antutu(const struct seen *s)
{
	cr_assert_eq(s->n, 16);
	cr_assert_eq(count_named(s, "animator"), 4);
	cr_assert_eq(count_named(s, "animator:alpha"), 4);
	cr_assert_eq(count_named(s, "animator:scaleX"), 4);
	cr_assert_eq(count_named(s, "animator:scaleY"), 4);
	for (int i = 0; i < 16; i++) {
		cr_assert_eq(s->ends[i].pid, 24675);
		cr_assert_eq(s->ends[i].reason, END_FIRST_FRAME, "each F in the frame of its S");
		cr_assert_eq(s->ends[i].reason_source, REASON_INFERRED);
	}
	cr_assert_eq(s->frames, 202, "Choreographer#doFrame slices of 24675");
	/* each ended in its first frame (end() of an AnimatorSet that never ran): a flicker;
	 * their F and S alternate with other animators' between: no replacement */
	for (int k = 0; k < FINDING_KIND_COUNT; k++)
		cr_assert_eq(s->findings[k], k == FINDING_FLICKER ? 16 : 0, "%s",
			     finding_kind_str((enum finding_kind)k));
	for (int i = 0; i < 16; i++)
		cr_assert_eq(s->flicker_ids[i], s->ends[i].id);
}

Test(replay, antutu_text_by_pid_has_16_lifecycles_4_of_each_name)
{
	struct seen s = { 0 };
	char msg[256];

	cr_assert_eq(replay(TRACES "antutu-2018.ftrace.txt", "24675", NULL, &s, msg, sizeof(msg)),
		     0, "%s", msg);
	assert_antutu(&s);
}

Test(replay, antutu_systrace_html_by_pid_and_by_name_gives_the_same_16)
{
	struct seen by_pid = { 0 }, by_name = { 0 };
	char msg[256];

	cr_assert_eq(replay(TRACES "antutu-2018.systrace.html", "24675", NULL, &by_pid, msg,
			    sizeof(msg)),
		     0, "%s", msg);
	assert_antutu(&by_pid);
	cr_assert_eq(replay(TRACES "antutu-2018.systrace.html", NULL, "tutu.ABenchMark", &by_name,
			    msg, sizeof(msg)),
		     0, "%s", msg);
	assert_antutu(&by_name);
	for (int i = 0; i < 16; i++) {
		cr_assert_eq(by_pid.ends[i].id, by_name.ends[i].id);
		cr_assert_eq(by_pid.ends[i].end_ns, by_name.ends[i].end_ns);
	}
}

Test(replay, flyme_by_pid_has_4_animators_three_between_160_and_220_ms)
{
	static const uint64_t want_ns[] = { 25000, 213512000, 197953000, 166945000 };
	struct seen s = { 0 };
	char msg[256];

	cr_assert_eq(replay(TRACES "flyme-launcher-scroll-2019.ftrace.txt", "27619", NULL, &s, msg,
			    sizeof(msg)),
		     0, "%s", msg);
	cr_assert_eq(s.n, 4);
	for (int i = 0; i < 4; i++) {
		uint64_t d = s.ends[i].end_ns - s.ends[i].start_ns;

		cr_assert_eq(d, want_ns[i], "animator %d lasted %llu ns", i, (unsigned long long)d);
		cr_assert_str_eq(s.ends[i].name, "animator");
	}
	cr_assert_eq(s.frames, 36);
}

Test(replay, flyme_by_package_name_matches_its_15_character_comm)
{
	struct seen s = { 0 };
	char msg[256];

	cr_assert_eq(replay(TRACES "flyme-launcher-scroll-2019.ftrace.txt", NULL,
			    "com.meizu.flyme.launcher", &s, msg, sizeof(msg)),
		     0, "%s", msg);
	cr_assert_eq(s.n, 4);
	cr_assert_str_eq(s.ends[0].process, ".flyme.launcher");
}

Test(replay, a_name_no_process_has_lists_the_ones_the_capture_names)
{
	struct seen s = { 0 };
	char msg[768];

	cr_assert_eq(replay(TRACES "antutu-2018.ftrace.txt", NULL, "com.example.absent", &s, msg,
			    sizeof(msg)),
		     -ESRCH);
	cr_assert(strstr(msg, "no process in the capture matches --proc"), "%s", msg);
	cr_assert(strstr(msg, "tutu.ABenchMark (24675)"), "%s", msg);
	cr_assert_eq(s.n, 0);
}

Test(replay, a_missing_file_is_an_error_naming_it)
{
	struct seen s = { 0 };
	char msg[256];

	cr_assert_eq(replay(TRACES "no-such-capture.txt", NULL, NULL, &s, msg, sizeof(msg)),
		     -ENOENT);
	cr_assert(strstr(msg, "no-such-capture.txt: No such file or directory"), "%s", msg);
}

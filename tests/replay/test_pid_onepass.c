// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --pid replays in one pass: a process is called what the capture has shown of it so far, as
 * in a replay of every process, and a listed process that wrote no marker is still refused
 * before anything is written. --proc still learns every name first (a name can come late).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/procsel.h"
#include "engine/engine.h"
#include "replay/replay.h"

#define MAX_STARTS 8

struct starts {
	int n;
	struct anim a[MAX_STARTS];
};

static int on_start(void *ctx, const struct anim *a)
{
	struct starts *s = ctx;

	if (s->n < MAX_STARTS)
		s->a[s->n] = *a;
	s->n++;
	return 0;
}

static const struct sink_ops starts_sink = { .anim_start = on_start };

/*
 * Process 200: its main thread shows as "ui thread" in the task column, and only a later
 * sched_switch gives its comm "com.ex.app". Thread 204 starts an animator before and after.
 */
static const char capture_text[] =
	"# tracer: nop\n"
	"#\n"
	"     ui thread-200   (  200) [001] .... 100.000001: tracing_mark_write: B|200|x\n"
	"     pool-204 (  200) [001] .... 100.000002: tracing_mark_write: S|200|animator:alpha|1\n"
	"     x-205   (  300) [002] d..2 100.000003: sched_switch: prev_comm=x prev_pid=205 "
	"prev_prio=120 prev_state=S ==> next_comm=com.ex.app next_pid=200 next_prio=120\n"
	"     pool-204 (  200) [001] .... 100.000004: tracing_mark_write: S|200|animator:alpha|2\n"
	"     x-205   (  300) [002] .... 100.000005: tracing_mark_write: B|300|y\n";

static void write_capture(char *path, size_t len)
{
	int fd;

	snprintf(path, len, "/tmp/animtrace-pid-onepass-XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, capture_text, sizeof(capture_text) - 1),
		     (ssize_t)sizeof(capture_text) - 1);
	close(fd);
}

static int replay(const char *path, const char *pids, const char *names, struct starts *s,
		  char *msg, size_t msglen)
{
	struct procfilter *f = procfilter__new();
	struct engine *e = engine__new(NULL, (struct sink){ &starts_sink, s });
	struct replay_stats st;
	int ret;

	cr_assert(f && e);
	if (pids)
		cr_assert_eq(procfilter__add_pids(f, pids), 0);
	if (names)
		cr_assert_eq(procfilter__add_names(f, names), 0);
	ret = replay_run(path, f, e, &st, msg, msglen);
	if (!ret)
		engine__finish(e, st.last_ns, 0, 0);
	engine__free(e);
	procfilter__free(f);
	return ret;
}

Test(pid_onepass, a_pid_replay_names_a_process_as_the_replay_of_every_process_does)
{
	struct starts all = { 0 }, pid = { 0 };
	char path[64], msg[256] = "";

	write_capture(path, sizeof(path));
	cr_assert_eq(replay(path, NULL, NULL, &all, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(replay(path, "200", NULL, &pid, msg, sizeof(msg)), 0, "%s", msg);
	unlink(path);
	cr_assert_eq(all.n, 2);
	cr_assert_eq(pid.n, 2);
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(pid.a[i].id, all.a[i].id);
		cr_assert_str_eq(pid.a[i].process, all.a[i].process);
	}
	/* the name the capture had shown by then: the comm comes after the first start */
	cr_assert_str_eq(pid.a[0].process, "ui thread");
	cr_assert_str_eq(pid.a[1].process, "com.ex.app");
}

Test(pid_onepass, a_proc_replay_still_chooses_and_names_by_the_whole_capture)
{
	struct starts s = { 0 };
	char path[64], msg[256] = "";

	write_capture(path, sizeof(path));
	cr_assert_eq(replay(path, NULL, "com.ex.app", &s, msg, sizeof(msg)), 0, "%s", msg);
	unlink(path);
	cr_assert_eq(s.n, 2);
	cr_assert_str_eq(s.a[0].process, "com.ex.app");
	cr_assert_str_eq(s.a[1].process, "com.ex.app");
}

Test(pid_onepass, a_pid_that_wrote_no_marker_is_refused_with_the_ones_that_did)
{
	struct starts s = { 0 };
	char path[64], msg[256] = "";

	write_capture(path, sizeof(path));
	cr_assert_eq(replay(path, "205", NULL, &s, msg, sizeof(msg)), -ESRCH);
	unlink(path);
	cr_assert_str_eq(msg, "no process in the capture matches --pid; processes that wrote "
			      "markers: com.ex.app (200), 300");
	cr_assert_eq(s.n, 0);
}

/* ---- read once: the events before the process's first marker are not read again ---- */

#define MAX_FRAMES 256

struct frames {
	int n;
	struct frame f[MAX_FRAMES];
};

static int on_frame(void *ctx, const struct frame *f)
{
	struct frames *s = ctx;

	if (s->n < MAX_FRAMES && f->pid == 700)
		s->f[s->n++] = *f;
	return 0;
}

static const struct sink_ops frames_sink = { .frame = on_frame };

/*
 * SurfaceFlinger (500) counts VSYNC-app every 16 ms for `before` vsyncs, then app 700 draws
 * 60 frames, every seventh late, while the vsyncs go on: the vsyncs before the app's first
 * marker are what the replay owes the engine after --pid's check read them.
 */
static void write_vsyncs(char *path, size_t len, int before)
{
	FILE *f;
	double ts = 1000.0;

	snprintf(path, len, "/tmp/animtrace-pid-vsync-XXXXXX");
	cr_assert_geq(mkstemp(path), 0);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "# tracer: nop\n#\n");
	for (int i = 0; i < before + 60; i++, ts += 0.016667) {
		fprintf(f,
			"  surfaceflinger-500 (  500) [000] .... %.6f: tracing_mark_write: "
			"C|500|VSYNC-app|%d\n",
			ts, i % 2);
		if (i < before)
			continue;
		fprintf(f,
			"   com.ex.app-700 (  700) [001] .... %.6f: tracing_mark_write: "
			"B|700|Choreographer#doFrame\n",
			ts + 0.0001);
		fprintf(f, "   com.ex.app-700 (  700) [001] .... %.6f: tracing_mark_write: E|700\n",
			ts + ((i - before) % 7 ? 0.004 : 0.030));
	}
	fclose(f);
}

static void replay_frames(const char *path, const char *pids, struct frames *s)
{
	struct procfilter *f = procfilter__new();
	struct engine *e = engine__new(NULL, (struct sink){ &frames_sink, s });
	struct replay_stats st;
	char msg[256] = "";

	cr_assert(f && e);
	if (pids)
		cr_assert_eq(procfilter__add_pids(f, pids), 0);
	cr_assert_eq(replay_run(path, f, e, &st, msg, sizeof(msg)), 0, "%s", msg);
	engine__finish(e, st.last_ns, 0, 0);
	engine__free(e);
	procfilter__free(f);
}

/* --pid 700 sees the frames, vsyncs and jank that a replay of every process sees. */
static void expect_as_unfiltered(int before)
{
	struct frames *all = calloc(1, sizeof(*all)), *pid = calloc(1, sizeof(*pid));
	char path[64];
	int late = 0;

	cr_assert(all && pid);
	write_vsyncs(path, sizeof(path), before);
	replay_frames(path, NULL, all);
	replay_frames(path, "700", pid);
	unlink(path);
	cr_assert_eq(all->n, 60);
	cr_assert_eq(pid->n, all->n);
	for (int i = 0; i < pid->n; i++) {
		cr_assert_eq(pid->f[i].start_ns, all->f[i].start_ns, "frame %d", i);
		cr_assert_eq(pid->f[i].vsync_ns, all->f[i].vsync_ns, "frame %d", i);
		cr_assert_eq(pid->f[i].budget_ns, all->f[i].budget_ns, "frame %d", i);
		cr_assert_eq(pid->f[i].janky, all->f[i].janky, "frame %d", i);
		late += pid->f[i].janky;
	}
	cr_assert_eq(late, 9, "every seventh of 60 frames is late");
	free(all);
	free(pid);
}

Test(pid_onepass, vsyncs_read_by_the_check_reach_the_engine_as_in_a_replay_of_every_process)
{
	expect_as_unfiltered(1000); /* owed, then the run goes on from the first marker */
}

Test(pid_onepass, more_vsyncs_than_can_be_owed_make_the_run_start_over_with_the_same_result)
{
	expect_as_unfiltered(5000); /* past OWED_MAX (4096): the run reads from the start */
}

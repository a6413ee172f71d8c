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
	"     pool-204   (  200) [001] .... 100.000002: tracing_mark_write: S|200|animator:alpha|1\n"
	"     x-205   (  300) [002] d..2 100.000003: sched_switch: prev_comm=x prev_pid=205 "
	"prev_prio=120 prev_state=S ==> next_comm=com.ex.app next_pid=200 next_prio=120\n"
	"     pool-204   (  200) [001] .... 100.000004: tracing_mark_write: S|200|animator:alpha|2\n"
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

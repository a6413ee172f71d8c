// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The replay does not tell the selection a thread's name again when the line shows what it
 * told last (replay.c, struct told), unless names were forgotten since: a thread named, its
 * name evicted by a flood of other threads (common/caps.h CAP_PROC_IDS), then shown again by the
 * same task column must be named again, so its frame carries its process's name.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/caps.h"
#include "common/procsel.h"
#include "engine/engine.h"
#include "replay/replay.h"

struct frames {
	int n;
	char process[AT_PROC_MAX];
};

static int on_frame(void *ctx, const struct frame *f)
{
	struct frames *s = ctx;

	if (s->n++ == 0)
		snprintf(s->process, sizeof(s->process), "%s", f->process);
	return 0;
}

static const struct sink_ops frames_sink = { .frame = on_frame };

/* The task column of "myapp" (pid 100), the same bytes each time it is shown. */
#define MYAPP "  myapp-100  (  100) [000] .... "

/* myapp named, wakeups of twice CAP_PROC_IDS other threads (every name evicted once at
 * least: CLOCK's hand passes each slot), myapp's line again, then its frame. */
static char *write_capture(void)
{
	char *path = strdup("/tmp/animtrace-told-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	unsigned n = 2 * CAP_PROC_IDS + 4096;

	cr_assert_not_null(f);
	fputs("# tracer: nop\n", f);
	fputs(MYAPP "1.000000: cpu_idle: state=1 cpu_id=0\n", f);
	for (unsigned i = 0; i < n; i++)
		fprintf(f,
			"  a-10  (   10) [001] .... %u.%06u: sched_wakeup: comm=t%u pid=%u "
			"prio=120 target_cpu=001\n",
			2 + i / 1000000, i % 1000000, 100000 + i, 100000 + i);
	fputs(MYAPP "3.000000: cpu_idle: state=1 cpu_id=0\n", f);
	fputs(MYAPP "3.000001: tracing_mark_write: B|100|Choreographer#doFrame 1\n", f);
	fputs(MYAPP "3.000002: tracing_mark_write: E|100\n", f);
	cr_assert_eq(fclose(f), 0);
	return path;
}

Test(told_replay, a_name_evicted_is_told_again_by_the_same_task_column)
{
	char *path = write_capture(), msg[256] = "";
	struct procfilter *filter = procfilter__new();
	struct frames s = { 0 };
	struct engine *e = engine__new(NULL, (struct sink){ &frames_sink, &s });
	struct replay_stats st;

	cr_assert(filter && e);
	cr_assert_eq(replay_run(path, filter, e, &st, msg, sizeof(msg)), 0, "%s", msg);
	engine__finish(e, st.last_ns, 0, 0);
	unlink(path);
	free(path);
	cr_expect_eq(s.n, 1);
	cr_expect_str_eq(s.process, "myapp");
	engine__free(e);
	procfilter__free(filter);
}

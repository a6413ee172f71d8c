// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Whose vsync (engine/trust.h), through a whole replay: any app may write C|pid|VSYNC-app|..;
 * only SurfaceFlinger's is the display's. A capture where another process writes it too gives
 * the app the frames it has without that process, says so once and counts its markers, with
 * --pid (the writers are not selected: replay.c's path for other processes' vsyncs, owed
 * while --pid's check reads ahead) and without (every process: engine__marker's).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/procsel.h"
#include "engine/engine.h"
#include "replay/replay.h"

#define FRAMES 60

struct got {
	struct frame f[FRAMES + 8];
	int n;
	char notes[4][512];
	int n_notes;
	uint64_t foreign, period, dropped;
	int written; /* VSYNC-app markers of process 800 in the capture */
};

static int on_frame(void *ctx, const struct frame *f)
{
	struct got *g = ctx;

	if (f->pid == 700 && g->n < FRAMES + 8)
		g->f[g->n++] = *f;
	return 0;
}

static int on_note(void *ctx, const char *msg)
{
	struct got *g = ctx;

	if (g->n_notes < 4)
		snprintf(g->notes[g->n_notes], sizeof(g->notes[0]), "%s", msg);
	g->n_notes++;
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	struct got *g = ctx;

	g->foreign = s->vsync_foreign;
	for (int i = 0; i < s->n_procs; i++)
		if (s->procs[i].pid == 700) {
			g->period = s->procs[i].refresh_period_ns;
			g->dropped = s->procs[i].frames_dropped;
		}
	return 0;
}

static const struct sink_ops sink = { .frame = on_frame, .note = on_note, .summary = on_summary };

/*
 * SurfaceFlinger (500, named by its task column) toggles VSYNC-app every 16.667 ms, 20 times
 * before app 700's first marker, then app 700 draws 60 frames, every seventh late. With evil
 * (a task name, or "<...>" for a capture that never names it), process 800 toggles VSYNC-app
 * too, every 27.2 ms: the attack that moved an app's period to 27.2 ms and invented drops.
 */
static int write_capture(char *path, size_t len, const char *evil)
{
	double ts = 1000.0, evil_ts = 1000.0;
	int n_evil = 0;
	FILE *f;

	snprintf(path, len, "/tmp/animtrace-foreign-vsync-XXXXXX");
	cr_assert_geq(mkstemp(path), 0);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "# tracer: nop\n#\n");
	for (int i = 0; i < 20 + FRAMES; i++, ts += 0.016667) {
		for (; evil && evil_ts < ts; evil_ts += 0.0272, n_evil++)
			fprintf(f,
				"  %s-800 (  800) [002] .... %.6f: tracing_mark_write: "
				"C|800|VSYNC-app|%d\n",
				evil, evil_ts, (int)((evil_ts - 1000.0) / 0.0272) % 2);
		fprintf(f,
			"  surfaceflinger-500 (  500) [000] .... %.6f: tracing_mark_write: "
			"C|500|VSYNC-app|%d\n",
			ts, i % 2);
		if (i < 20)
			continue;
		fprintf(f,
			"   com.ex.app-700 (  700) [001] .... %.6f: tracing_mark_write: "
			"B|700|Choreographer#doFrame\n",
			ts + 0.0001);
		fprintf(f, "   com.ex.app-700 (  700) [001] .... %.6f: tracing_mark_write: E|700\n",
			ts + ((i - 20) % 7 ? 0.004 : 0.030));
	}
	fclose(f);
	return n_evil;
}

static void replay(const char *evil, const char *pids, struct got *g)
{
	struct procfilter *f = procfilter__new();
	struct engine *e = engine__new(NULL, (struct sink){ &sink, g });
	struct replay_stats st;
	char path[64], msg[256] = "";

	cr_assert(f && e);
	memset(g, 0, sizeof(*g));
	g->written = write_capture(path, sizeof(path), evil);
	if (pids)
		cr_assert_eq(procfilter__add_pids(f, pids), 0);
	cr_assert_eq(replay_run(path, f, e, &st, msg, sizeof(msg)), 0, "%s", msg);
	engine__finish(e, st.last_ns, 0, 0);
	engine__free(e);
	procfilter__free(f);
	unlink(path);
}

/* The app's frames with evil beside it are those without it; the writer is said once. */
static void same_frames(const char *evil, const char *pids, const char *why)
{
	struct got *want = calloc(1, sizeof(*want)), *got = calloc(1, sizeof(*got));
	char note[256];

	cr_assert(want && got);
	replay(NULL, pids, want);
	replay(evil, pids, got);
	cr_assert_eq(want->n, FRAMES);
	/* 16.667 ms steps: period.c snaps that to the 60 Hz period */
	cr_assert_eq(want->period, 16666667, "SurfaceFlinger's: %llu",
		     (unsigned long long)want->period);
	cr_assert_eq(want->foreign, 0);
	cr_assert_eq(got->n, want->n);
	for (int i = 0; i < got->n; i++) {
		cr_assert_eq(got->f[i].vsync_ns, want->f[i].vsync_ns, "frame %d", i);
		cr_assert_eq(got->f[i].budget_ns, want->f[i].budget_ns, "frame %d", i);
		cr_assert_eq(got->f[i].janky, want->f[i].janky, "frame %d", i);
		cr_assert_eq(got->f[i].dropped_before, want->f[i].dropped_before, "frame %d", i);
	}
	cr_assert_eq(got->period, want->period);
	cr_assert_eq(got->dropped, want->dropped);
	cr_assert_gt(got->written, 40);
	cr_assert_eq(got->foreign, (uint64_t)got->written, "every one of its markers counted");
	cr_assert_eq(got->n_notes, 1, "said once");
	snprintf(note, sizeof(note), "wrote SurfaceFlinger's VSYNC-app counter but %s", why);
	cr_assert(strstr(got->notes[0], note), "%s", got->notes[0]);
	free(want);
	free(got);
}

Test(foreign_vsync, a_named_app_writing_vsync_app_moves_no_frame_with_pid)
{
	same_frames("com.evil", "700", "is not SurfaceFlinger");
}

Test(foreign_vsync, a_named_app_writing_vsync_app_moves_no_frame_of_every_process)
{
	same_frames("com.evil", NULL, "is not SurfaceFlinger");
}

Test(foreign_vsync, an_unnamed_second_writer_is_not_taken_either)
{
	same_frames("<...>", "700", "is not the process that wrote it first");
}

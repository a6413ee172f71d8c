// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Smoothness of real captures: the refresh period per process, and its late frames checked
 * against this file's own small B/E parser (not the engine's code): every
 * Choreographer#doFrame slice longer than the reported period is a janky frame (janky frames
 * are more: a frame that started late, or whose draw ended late, misses its deadline too).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "common/procsel.h"
#include "replay/replay.h"

#define TRACES TESTDATA "/traces/"
#define MAX_PIDS 256
#define MAX_DEPTH 64

/* ---- the test's own parser ------------------------------------------------------------ */

struct open_slice {
	int pid;
	double ts;
	int doframe;
};

struct tid_stack {
	int tid, depth;
	struct open_slice s[MAX_DEPTH];
};

struct doframes {
	int pid;
	int n;
	double *dur_s; /* closed doFrame slices, in seconds */
};

struct parsed {
	struct tid_stack *tids;
	int n_tids;
	struct doframes procs[MAX_PIDS];
	int n_procs;
};

static struct tid_stack *stack_of(struct parsed *p, int tid)
{
	for (int i = 0; i < p->n_tids; i++)
		if (p->tids[i].tid == tid)
			return &p->tids[i];
	p->tids = realloc(p->tids, (p->n_tids + 1) * sizeof(*p->tids));
	cr_assert_not_null(p->tids);
	memset(&p->tids[p->n_tids], 0, sizeof(*p->tids));
	p->tids[p->n_tids].tid = tid;
	return &p->tids[p->n_tids++];
}

static struct doframes *proc_of(struct parsed *p, int pid)
{
	for (int i = 0; i < p->n_procs; i++)
		if (p->procs[i].pid == pid)
			return &p->procs[i];
	cr_assert_lt(p->n_procs, MAX_PIDS);
	p->procs[p->n_procs].pid = pid;
	return &p->procs[p->n_procs++];
}

/* "  name-123  ( 456) [001] .... 12.345678: tracing_mark_write: B|456|x": tid and ts. */
static int line_head(const char *line, const char *mark, int *tid, double *ts)
{
	const char *cpu = strstr(line, " [");
	const char *end, *dash, *t;

	if (!cpu || cpu > mark)
		return -1;
	end = cpu;
	while (end > line && end[-1] == ' ')
		end--;
	if (end > line && end[-1] == ')') /* the TGID column */
		while (end > line && *--end != '(')
			;
	while (end > line && end[-1] == ' ')
		end--;
	for (dash = end - 1; dash > line && *dash != '-'; dash--)
		;
	t = mark - 1; /* the timestamp ends at the ':' before " tracing_mark_write" */
	while (t > line && t[-1] != ' ')
		t--;
	*tid = atoi(dash + 1);
	*ts = atof(t);
	return *dash == '-' ? 0 : -1;
}

static void parse_marker(struct parsed *p, int tid, double ts, const char *pl)
{
	struct tid_stack *st = stack_of(p, tid);
	int pid = atoi(pl + 2);

	if (pl[0] == 'B' && pl[1] == '|') {
		const char *name = strchr(pl + 2, '|');

		if (st->depth < MAX_DEPTH)
			st->s[st->depth] = (struct open_slice){
				pid, ts, name && !strncmp(name + 1, "Choreographer#doFrame", 21)
			};
		st->depth++;
	} else if (pl[0] == 'E' && st->depth > 0) {
		struct open_slice *o = &st->s[--st->depth];

		if (st->depth < MAX_DEPTH && o->doframe) {
			struct doframes *d = proc_of(p, o->pid);

			d->dur_s = realloc(d->dur_s, (d->n + 1) * sizeof(double));
			cr_assert_not_null(d->dur_s);
			d->dur_s[d->n++] = ts - o->ts;
		}
	}
}

static void parse_file(const char *path, struct parsed *p)
{
	static const char mark[] = ": tracing_mark_write: ";
	FILE *f = fopen(path, "r");
	char line[4096];

	cr_assert_not_null(f, "%s", path);
	memset(p, 0, sizeof(*p));
	while (fgets(line, sizeof(line), f)) {
		char *m = strstr(line, mark);
		double ts;
		int tid;

		if (!m || line_head(line, m, &tid, &ts))
			continue;
		line[strcspn(line, "\n")] = '\0';
		parse_marker(p, tid, ts, m + strlen(mark));
	}
	fclose(f);
}

static int late_count(const struct doframes *d, uint64_t period_ns)
{
	int n = 0;

	for (int i = 0; i < d->n; i++) /* timestamps are microseconds: compare in whole us */
		n += (uint64_t)(d->dur_s[i] * 1e6 + 0.5) * 1000 > period_ns;
	return n;
}

static void parsed_free(struct parsed *p)
{
	for (int i = 0; i < p->n_procs; i++)
		free(p->procs[i].dur_s);
	free(p->tids);
}

/* ---- the engine's view ---------------------------------------------------------------- */

static struct proc_stat got[MAX_PIDS];
static int n_got;

static int on_summary(void *ctx, const struct summary *s)
{
	n_got = s->n_procs < MAX_PIDS ? s->n_procs : MAX_PIDS;
	memcpy(got, s->procs, n_got * sizeof(*got));
	return 0;
}

/* Frames longer than their budget that were not judged janky (none should be). */
static int long_not_janky, long_frames;

static int on_frame(void *ctx, const struct frame *f)
{
	if (f->dur_ns > f->budget_ns) {
		long_frames++;
		long_not_janky += !f->janky;
	}
	return 0;
}

static const struct sink_ops summary_only = { .summary = on_summary, .frame = on_frame };

static const struct proc_stat *replay_pid(const char *file, int pid)
{
	struct procfilter *f = procfilter__new();
	struct engine *e = engine__new(NULL, (struct sink){ &summary_only, NULL });
	struct replay_stats st;
	char msg[512], pids[16];

	cr_assert(f && e);
	snprintf(pids, sizeof(pids), "%d", pid);
	cr_assert_eq(procfilter__add_pids(f, pids), 0);
	n_got = 0;
	long_frames = long_not_janky = 0;
	cr_assert_eq(replay_run(file, f, e, &st, msg, sizeof(msg)), 0, "%s", msg);
	engine__finish(e, st.last_ns, 0, 0);
	engine__free(e);
	procfilter__free(f);
	for (int i = 0; i < n_got; i++)
		if ((int)got[i].pid == pid)
			return &got[i];
	cr_assert_fail("no summary line for pid %d", pid);
	return NULL;
}

static void check(const char *file, const struct doframes *d, uint64_t expect_ns)
{
	const struct proc_stat *ps = replay_pid(file, d->pid);
	double err = (double)ps->refresh_period_ns / (double)expect_ns - 1.0;

	cr_assert(err < 0.02 && err > -0.02, "pid %d: period %llu ns, expected %llu +- 2 %%",
		  d->pid, (unsigned long long)ps->refresh_period_ns, (unsigned long long)expect_ns);
	cr_assert_str_eq(ps->refresh_source, "vsync"); /* SurfaceFlinger's VSYNC-app */
	cr_assert_eq(long_not_janky, 0, "pid %d: %d of %d frames over their budget not janky",
		     d->pid, long_not_janky, long_frames);
	cr_assert_geq(ps->janky_frames, (uint64_t)late_count(d, ps->refresh_period_ns),
		      "pid %d: %llu janky frames, the parser counts %d doFrames over %llu ns",
		      d->pid, (unsigned long long)ps->janky_frames,
		      late_count(d, ps->refresh_period_ns),
		      (unsigned long long)ps->refresh_period_ns);
}

static const struct doframes *find(const struct parsed *p, int pid)
{
	for (int i = 0; i < p->n_procs; i++)
		if (p->procs[i].pid == pid)
			return &p->procs[i];
	cr_assert_fail("pid %d has no doFrame", pid);
	return NULL;
}

Test(smooth_replay, flyme_and_antutu_run_at_sixty_hertz_and_their_late_frames_match)
{
	struct parsed p;

	parse_file(TRACES "flyme-launcher-scroll-2019.ftrace.txt", &p);
	check(TRACES "flyme-launcher-scroll-2019.ftrace.txt", find(&p, 27619), 16666667);
	parsed_free(&p);
	parse_file(TRACES "antutu-2018.ftrace.txt", &p);
	check(TRACES "antutu-2018.ftrace.txt", find(&p, 24675), 16666667);
	parsed_free(&p);
}

static int by_frames(const void *a, const void *b)
{
	return ((const struct doframes *)b)->n - ((const struct doframes *)a)->n;
}

Test(smooth_replay, the_four_busiest_miui_processes_run_at_ninety_hertz_and_their_late_frames_match,
     .timeout = 60)
{
	const char *file = TRACES "miui-launcher-2021.ftrace.txt";
	struct parsed p;

	parse_file(file, &p);
	cr_assert_geq(p.n_procs, 4);
	qsort(p.procs, p.n_procs, sizeof(p.procs[0]), by_frames);
	for (int i = 0; i < 4; i++)
		check(file, &p.procs[i], 11111111);
	parsed_free(&p);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Bounded in time and memory whatever the input (README): `animtrace --replay` of a capture
 * built to fill one table peaks under 64 MB (the child's ru_maxrss from wait4) and takes at
 * most 10 times as long as a clean capture of as many lines built the same way, timed in the
 * same run. The captures are generated here, in a temporary file each.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ANIMTRACE BUILD_DIR "/animtrace"
#ifdef __SANITIZE_ADDRESS__
/* make asan: its shadow memory, quarantine and checked frees measure neither memory nor time
 * (the eviction of 3,000 threads costs it a second); the runs still check what was counted. */
#define RSS_MAX_KB (1024 * 1024)
#define SLOWER_MAX 1000.0
#else
#define RSS_MAX_KB (64 * 1024)
#define SLOWER_MAX 10.0
#endif
/* A clean run using less CPU than this is timed as this: the ratio of two very short runs is noise. */
#define CLEAN_MIN_S 0.05

/* Line i of a capture: a table-filling one when hostile, else one that adds no entity. */
typedef void (*line_fn)(FILE *f, unsigned i, bool hostile);

/* 40,000 threads of one process, each inside a B that never ends; clean: one thread's B/E. */
static void open_b_per_thread(FILE *f, unsigned i, bool hostile)
{
	unsigned tid = hostile ? 1000 + i : 1000;

	if (hostile || i % 2 == 0)
		fprintf(f,
			"  app-%u  ( 1000) [001] .... %u.%06u: tracing_mark_write: B|1000|work\n",
			tid, 1 + i / 1000000, i % 1000000);
	else
		fprintf(f, "  app-%u  ( 1000) [001] .... %u.%06u: tracing_mark_write: E|1000\n",
			tid, 1 + i / 1000000, i % 1000000);
}

/* A million thread ids woken (sched_wakeup names each); clean: one thread woken again. */
static void wakeup_tids(FILE *f, unsigned i, bool hostile)
{
	unsigned tid = hostile ? 100000 + i : 100000;

	fprintf(f,
		"  a-10  ( 10) [001] .... %u.%06u: sched_wakeup: comm=t%u pid=%u prio=120 "
		"target_cpu=001\n",
		1 + i / 1000000, i % 1000000, tid, tid);
}

/* A million processes writing a marker; clean: one process writing them all. */
static void marker_pids(FILE *f, unsigned i, bool hostile)
{
	unsigned pid = hostile ? 100000 + i : 100000;

	fprintf(f, "  a-%u  ( %u) [001] .... %u.%06u: tracing_mark_write: %c|%u|x\n", pid, pid,
		1 + i / 1000000, i % 1000000, hostile || i % 2 == 0 ? 'B' : 'E', pid);
}

static char *write_capture(line_fn line, unsigned n, bool hostile)
{
	char *path = strdup("/tmp/animtrace-bounds-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	cr_assert_not_null(f);
	fputs("# tracer: nop\n", f);
	for (unsigned i = 0; i < n; i++)
		line(f, i, hostile);
	cr_assert_eq(fclose(f), 0);
	return path;
}

struct run {
	double wall_s;
	double cpu_s; /* the child's own CPU time: what the ratio compares (wall time is load) */
	long rss_kb;
	char evicted[512];
};

/* Replays path with the JSON sink; keeps the wall time, peak RSS and the "evicted" object. */
static void replay(const char *path, struct run *r)
{
	int out[2];
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;

	cr_assert_eq(pipe(out), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(out[1], 1);
		dup2(null, 2);
		close(out[0]);
		execl(ANIMTRACE, ANIMTRACE, "--replay", path, "-f", "json", (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	f = fdopen(out[0], "r");
	r->evicted[0] = '\0';
	while (getline(&line, &cap, f) > 0) {
		const char *ev = strstr(line, "\"evicted\":{");
		const char *end = ev ? strchr(ev, '}') : NULL;

		if (end)
			snprintf(r->evicted, sizeof(r->evicted), "%.*s", (int)(end + 1 - ev), ev);
	}
	free(line);
	fclose(f);
	cr_assert_eq(wait4(pid, &status, 0, &ru), pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "animtrace: status %d", status);
	r->wall_s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	r->cpu_s = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		   (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	r->rss_kb = ru.ru_maxrss;
}

static void check_bounded(const char *what, line_fn line, unsigned n, const char *counter)
{
	char *hostile = write_capture(line, n, true), *clean = write_capture(line, n, false);
	struct run h, c;
	const char *ev;
	double base;

	replay(clean, &c);
	replay(hostile, &h);
	unlink(hostile);
	unlink(clean);
	free(hostile);
	free(clean);
	base = c.cpu_s > CLEAN_MIN_S ? c.cpu_s : CLEAN_MIN_S;
	cr_log_info("%s: %.2f s CPU (%.2f s wall) %ld KB (clean %.2f s CPU %ld KB) %s", what,
		    h.cpu_s, h.wall_s, h.rss_kb, c.cpu_s, c.rss_kb, h.evicted);
	cr_expect_lt(h.rss_kb, RSS_MAX_KB, "%s: peak RSS %ld KB", what, h.rss_kb);
	cr_expect_leq(h.cpu_s, SLOWER_MAX * base, "%s: %.2f s CPU, a clean capture %.2f s", what,
		      h.cpu_s, c.cpu_s);
	ev = strstr(h.evicted, counter); /* what filled up is counted: nothing lost silently */
	cr_expect(ev && ev[strlen(counter)] >= '1' && ev[strlen(counter)] <= '9', "%s: %s", what,
		  h.evicted);
}

Test(bounds, threads_each_inside_an_open_slice, .timeout = 120)
{
	check_bounded("40,000 threads with an open B", open_b_per_thread, 40000, "\"threads\":");
}

Test(bounds, a_million_thread_ids_in_sched_wakeup, .timeout = 120)
{
	check_bounded("1M tids in sched_wakeup", wakeup_tids, 1000000, "\"thread_names\":");
}

Test(bounds, a_million_processes_writing_markers, .timeout = 120)
{
	check_bounded("1M pids writing markers", marker_pids, 1000000, "\"processes\":");
}

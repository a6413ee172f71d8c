/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The processes a benchmark drives, started and awaited through tests/e2e's harness (its
 * children are ended by pid at exit): bench's helper programs over pipes, animtrace runs with
 * their stderr in a log, and timed runs to completion.
 */
#ifndef ANIMTRACE_BENCH_PROC_H
#define ANIMTRACE_BENCH_PROC_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* A helper program (setter_loop, marker_flood, bare_uprobe): one command a line on its
 * stdin, one reply line on its stdout; it says "ready ..." first and exits at EOF. */
struct helper {
	pid_t pid;
	int in, out;
	char name[32];
	char err[PATH_MAX]; /* its stderr */
	char ready[256];    /* its "ready ..." line */
};

/* Starts argv (argv[0] a path) and returns once it said "ready". */
void helper_start(struct helper *h, const char *const argv[]);
/* Sends cmd as one line; its reply line goes to reply (60 s at most). */
void helper_ask(struct helper *h, const char *cmd, char *reply, size_t cap);
/* Closes its stdin and waits for it to exit 0. */
void helper_stop(struct helper *h);

/* An animtrace run, its stderr in log. */
struct at_run {
	pid_t pid;
	char log[PATH_MAX];
	uint64_t attach_ns; /* from its start to its "ready" line */
};

/* Starts animtrace with args (NULL-terminated) and returns once it is ready and, when target
 * is not 0, traces target with the probes of what (E2E_PROPS, E2E_ART, see e2e_release). */
void at_start(struct at_run *r, const char *bin, const char *const args[], pid_t target,
	      unsigned int what);
/* SIGINT, then waits for its exit. */
void at_stop(struct at_run *r);

/* SIGINT to pid (a spawned child), then the time until it exits, polled every 0.1 ms; it is
 * left for e2e_wait to reap. */
uint64_t proc_sigint_exit_ns(pid_t pid);
/* The kB of field (VmHWM, VmRSS) in /proc/pid/status; -1 when not there. */
long proc_status_kb(pid_t pid, const char *field);
/* Whether a line of /proc/pid/maps holds sub. */
bool proc_maps_hold(pid_t pid, const char *sub);

/* The last "stats:" line of a run (--stats), and how many there were. */
struct at_stats {
	uint64_t markers, props, lost, ring_full;
	unsigned int lines;
};

void at_stats(const struct at_run *r, struct at_stats *s);
/* Waits up to ms until the last stats line counts want's props, markers (seen + lost) and
 * lines; false if it never did. */
bool at_await(const struct at_run *r, const struct at_stats *want, int ms);

/* Runs argv (found in PATH) to a zero exit, stdout to the file out, and times it. */
struct timed {
	uint64_t ns;
	long maxrss_kb; /* ru_maxrss of the child, from wait4 */
};
void proc_timed(const char *const argv[], const char *out, struct timed *t);

/* The first line of argv's stdout (argv[0] a path); the run must exit 0. */
char *proc_line(const char *const argv[], char *dst, size_t cap);
/* dst = the path of name in PATH; NULL when it is not installed. */
char *proc_which(const char *name, char *dst, size_t cap);
/* dst (PATH_MAX) = a fresh name in the temp dir, base.N.log: a file a run writes is never
 * one an earlier run wrote (a poll for a line would find the old one before the new run
 * truncated it). */
char *proc_log_path(char *dst, const char *base);
/* The first line of the file path holding sub, into dst (NULL: none). */
char *log_line(const char *path, const char *sub, char *dst, size_t cap);

#endif

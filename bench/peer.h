/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * bpftrace, the peer the live benchmarks measure animtrace beside (issue #36): its runs
 * (a script written to a file, started on one process, ready once its probes are attached,
 * ended by SIGINT to bpftrace itself so it prints its maps), and the rows of the summary
 * section (b_peer.c), one per thing both tools were measured doing, or why bpftrace could
 * not do it.
 */
#ifndef ANIMTRACE_BENCH_PEER_H
#define ANIMTRACE_BENCH_PEER_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* bpftrace in PATH: its path, NULL when it is not installed (bench/deps.sh installs it). */
const char *peer_path(void);
/* Its `--version` line ("bpftrace v0.17.0"); "not installed" without it. */
const char *peer_version(void);
/* Why a bpftrace cell is empty when it is not installed. */
#define PEER_MISSING "bpftrace not installed (`make bench` installs it: bench/deps.sh)"

struct bt_run {
	pid_t pid;
	char script[PATH_MAX], out[PATH_MAX], err[PATH_MAX]; /* fresh files each run */
	uint64_t attach_ns; /* from its start until it said every probe is attached */
};

/*
 * Writes text to a fresh script file and starts `bpftrace --unsafe [opts] [-p pid] SCRIPT`
 * (pid 0: no -p; opts NULL-terminated, may be NULL) with the NAME=VALUE strings of env
 * (NULL-terminated, may be NULL) added to its environment; returns once bpftrace says every
 * probe is attached, the bench failing if it exits first.
 */
void bt_start(struct bt_run *r, const char *text, pid_t pid, const char *const opts[],
	      const char *const env[]);
/* SIGINT to bpftrace itself (it prints its maps then); waits for its exit 0. Returns the
 * ns from the signal to its exit. */
uint64_t bt_stop(struct bt_run *r);
/* The count map @name in its output after exit ("@name: N"); -1 when it printed none. */
long long bt_count(const struct bt_run *r, const char *name);
/* Fails the bench unless @name counted exactly want: a number bpftrace missed calls for
 * would flatter it. */
void bt_check_count(const struct bt_run *r, const char *name, unsigned long long want,
		    const char *what);
/* A stream writing a script into dst (cap bytes, NUL-terminated at fclose). */
FILE *bt_script_open(char *dst, size_t cap);
/* The script bpftrace ran, as a fenced block for results.md. */
void bt_print_script(FILE *md, const char *text);

/* The uprobes animtrace attaches to a process with LIB and OAT mapped, as `many_uprobes
 * --list` finds them with the project's symbol code (bpftrace cannot read MiniDebugInfo, so
 * its scripts name these file offsets). */
#define BT_MAX_PROBES 64
struct bt_probes {
	int n;
	struct {
		char kind[8]; /* "setter", "return", "art" */
		int art;      /* enum at_art_method, for "art" */
		unsigned long long off;
	} v[BT_MAX_PROBES];
};
struct bench_env;
void bt_probes_find(struct bt_probes *p, const struct bench_env *env, const char *lib,
		    const char *oat);
/* Writes "uprobe:PATH:0xOFF" for every probe of kind (and, for "art", of art, or any when
 * art < 0) to f, joined by ",\n"; returns how many. */
int bt_points(FILE *f, const struct bt_probes *p, const char *path, const char *kind, int art);

/*
 * The setter capture of b_setter and b_art: entry stashes the node by tid; a true return
 * reads the float at node + field (tag bits cleared) into a map with the time, pid, tid and
 * node (and, with animator, the `this` the thread's last animateValue saw, @cur[tid]), and
 * counts @changes. off is the setter's file offset: with --unsafe in a stripped file
 * bpftrace 0.17 uses the address as given (src/attached_probe.cpp resolve_offset_uprobe).
 */
void bt_setter_script(FILE *f, const char *lib, unsigned long long off, unsigned int field,
		      pid_t pid, bool animator);

/* A row of the summary: what both did, animtrace's and bpftrace's numbers with their unit,
 * and the ratio animtrace / bpftrace. */
void peer_ratio(const char *what, double at, double bt, const char *unit, const char *note);
/* A row bpftrace has no number for, and why. */
void peer_cannot(const char *what, const char *at, const char *why);

struct peer_row {
	char what[128];
	char at[48], bt[48], ratio[16];
	char note[320];
};
/* The rows added so far, in order. */
size_t peer_rows(const struct peer_row **v);

#endif

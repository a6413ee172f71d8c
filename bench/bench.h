/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * bench: animtrace's benchmarks, one driver per benchmark (b_<name>.c) in a registry, as the
 * kernel's tools/testing/selftests/bpf/bench.c has them. bench.c runs the selected ones in
 * order: setup (find what is measured), measure (the runs), report (its section of
 * results.md below the heading, markdown) and an optional summary line on stdout.
 *
 * A benchmark that cannot measure what it claims stops the run: bench_fail() prints why and
 * exits, and the exit handler ends every child (tests/e2e's teardown).
 */
#ifndef ANIMTRACE_BENCH_H
#define ANIMTRACE_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BENCH_MAX_RATES 16

struct bench_env {
	const char *build;     /* build tree: animtrace, sim/, bench/ */
	const char *testdata;  /* the shared test data */
	const char *animtrace; /* the binary measured */
	const char *baseline;  /* --baseline: another animtrace for the replay table, or NULL */
	int runs;	       /* --runs: replay and attach runs */
	unsigned long calls;   /* --calls: loop calls per way */
	int rounds;	       /* --rounds: the calls are made in this many rotated rounds */
	long rates[BENCH_MAX_RATES]; /* --rates: marker rates (/s) */
	int n_rates;
	double secs;	       /* --secs: marker flood per rate */
	int frames;	       /* --frames: the annotation run's simulator frames */
};

struct bench {
	const char *name;    /* --only NAME */
	const char *heading; /* its section's heading line in results.md */
	bool live;	     /* needs root, BPF and the simulator's fixtures */
	void (*setup)(const struct bench_env *env);
	void (*measure)(void);
	void (*report)(FILE *md);
	void (*summary)(FILE *out); /* NULL: none */
};

extern const struct bench bench_replay, bench_fit, bench_setter, bench_art, bench_marker,
	bench_attach, bench_annotate, bench_refresh, bench_footprint, bench_artstart, bench_peer;

/* Prints "bench: " and the message, then exits 1. */
_Noreturn void bench_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* CLOCK_MONOTONIC in ns. */
uint64_t bench_now_ns(void);
void bench_nap_ms(int ms);
/* dst = "YYYY-MM-DD HH:MM:SS UTC", now. */
char *bench_date(char *dst, size_t cap);
/* dst = the 1, 5 and 15 minute load averages. */
char *bench_loadavg(char *dst, size_t cap);
/* dst = animtrace's default ring buffer size as --buffer-size takes it ("256K"). */
char *bench_default_ring(char *dst, size_t cap);
/* dst = build/rel resolved to an absolute path (uprobes and /proc maps name real files). */
char *bench_file(char *dst, const struct bench_env *env, const char *rel);

/* Peak RSS of animtrace in each marker run, for the attach section (b_marker.c); n is 0
 * when the marker benchmark did not run. */
struct marker_rss {
	const char *ring;
	long rate;
	long kb;
};
size_t marker_bench_rss(const struct marker_rss **v);

#endif

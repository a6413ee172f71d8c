/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The per-call benchmarks (setter, art, refresh): one setter_loop process runs loops of calls
 * while the probes of one way at a time are attached, the ways taking turns in rounds.
 */
#ifndef ANIMTRACE_BENCH_WAYS_H
#define ANIMTRACE_BENCH_WAYS_H

#include <stdbool.h>
#include <sys/types.h>

#include "bench.h"
#include "proc.h"

/* rounds rounds of run(way, calls) for every way, the order rotated by one each round, so
 * the background load of the machine falls on every way alike. */
void ways_rotate(int rounds, int n_ways, unsigned long calls,
		 void (*run)(int way, unsigned long calls));

/* bench/setter_loop with the fixture libraries libs (NULL-terminated, absolute paths). */
void loop_start(struct helper *loop, const struct bench_env *env, const char *const libs[]);
/* One loop "cmd n" of setter_loop; its reply must count n calls (and n changes when
 * changes); returns its ns per call. */
double loop_ns(struct helper *loop, const char *cmd, unsigned long n, bool changes);
/* loop_ns, and *cpu_ns = the loop thread's CPU time per call (`run` only): the calls and
 * their traps without the time the thread waited for a CPU, steadier on a loaded machine. */
double loop_run(struct helper *loop, const char *cmd, unsigned long n, bool changes,
		double *cpu_ns);

/* bench/bare_uprobe's empty uprobe (entry) or uprobe+uretprobe on sym of lib in pid,
 * attached when it returns; helper_stop detaches it. */
void bare_start(struct helper *h, const struct bench_env *env, const char *lib, const char *sym,
		pid_t pid, bool entry);
/* dst = "vaddr 0x.. offset 0x..": where bare_uprobe finds sym in lib. */
char *bare_addr(char *dst, size_t cap, const struct bench_env *env, const char *lib,
		const char *sym);

#endif

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Loops of calls, rounds of ways and bare uprobes, see ways.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ways.h"

void ways_rotate(int rounds, int n_ways, unsigned long calls,
		 void (*run)(int way, unsigned long calls))
{
	for (int i = 0; i < rounds; i++)
		for (int j = 0; j < n_ways; j++)
			run((i + j) % n_ways, calls);
}

static char *helper_bin(char *dst, const struct bench_env *env, const char *name)
{
	snprintf(dst, PATH_MAX, "%s/bench/%s", env->build, name);
	return dst;
}

void loop_start(struct helper *loop, const struct bench_env *env, const char *const libs[])
{
	const char *argv[8];
	char bin[PATH_MAX];
	int n = 0;

	argv[n++] = helper_bin(bin, env, "setter_loop");
	while (*libs && n < 7)
		argv[n++] = *libs++;
	argv[n] = NULL;
	helper_start(loop, argv);
}

double loop_run(struct helper *loop, const char *cmd, unsigned long n, bool changes,
		double *cpu_ns)
{
	char line[64], reply[256];
	unsigned long calls = 0, changed = 0;
	double ns = 0, cpu = 0;
	int got;

	snprintf(line, sizeof(line), "%s %lu", cmd, n);
	helper_ask(loop, line, reply, sizeof(reply));
	got = sscanf(reply, "ns_per_call %lf calls %lu changed %lu cpu_ns_per_call %lf", &ns,
		     &calls, &changed, &cpu);
	if (got < 2 || calls != n || (changes && (got < 3 || changed != n)) ||
	    (cpu_ns && got < 4))
		bench_fail("setter_loop %s: '%s'", line, reply);
	if (cpu_ns)
		*cpu_ns = cpu;
	return ns;
}

double loop_ns(struct helper *loop, const char *cmd, unsigned long n, bool changes)
{
	return loop_run(loop, cmd, n, changes, NULL);
}

void bare_start(struct helper *h, const struct bench_env *env, const char *lib, const char *sym,
		pid_t pid, bool entry)
{
	char bin[PATH_MAX], p[16];
	const char *argv[6] = { helper_bin(bin, env, "bare_uprobe") };
	int n = 1;

	if (entry)
		argv[n++] = "--entry";
	argv[n++] = lib;
	argv[n++] = sym;
	argv[n++] = p;
	snprintf(p, sizeof(p), "%d", (int)pid);
	helper_start(h, argv);
}

char *bare_addr(char *dst, size_t cap, const struct bench_env *env, const char *lib,
		const char *sym)
{
	char bin[PATH_MAX];
	const char *argv[] = { helper_bin(bin, env, "bare_uprobe"), lib, sym, NULL };

	proc_line(argv, dst, cap);
	if (strncmp(dst, "vaddr 0x", 8))
		bench_fail("no %s in %s: '%s'", sym, lib, dst);
	return dst;
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Marker capture rate (live): one marker_flood process writes trace_marker at paced rates;
 * for each rate and ring size a fresh animtrace --pid on it, stopped once its stats account
 * for every marker written (or 3 s). Its peak RSS per run goes to the attach section.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "e2e/e2e.h"
#include "proc.h"

#define SMALL_RING "64K"
#define N_RINGS 2
#define MAX_RUNS (N_RINGS * BENCH_MAX_RATES)

static char default_ring[16]; /* AT_RINGBUF_DEFAULT, as --buffer-size takes it */
static const char *const rings[N_RINGS] = { default_ring, SMALL_RING };

struct run {
	long rate, achieved;
	const char *ring;
	unsigned long long written, captured, lost, ring_full;
	long long drops; /* the summary record's, -1: none */
	char cpu[1024];	 /* its "stats: cpu" lines at exit */
};

static struct {
	const struct bench_env *env;
	struct helper flood;
	char mean_bytes[16];
	struct run runs[MAX_RUNS];
	struct marker_rss rss[MAX_RUNS];
	size_t n;
} m;

size_t marker_bench_rss(const struct marker_rss **v)
{
	*v = m.rss;
	return m.n;
}

static void setup(const struct bench_env *env)
{
	char bin[PATH_MAX];
	const char *argv[] = { bin, NULL };

	m.env = env;
	bench_default_ring(default_ring, sizeof(default_ring));
	snprintf(bin, sizeof(bin), "%s/bench/marker_flood", env->build);
	helper_start(&m.flood, argv);
}

/* The "drops" of the last summary record of path; -1 when it has none. */
static long long summary_drops(const char *path)
{
	struct e2e_jsonl j;
	long long drops = -1;

	e2e_jsonl_load(&j, path);
	for (size_t i = 0; i < j.n; i++)
		if (e2e_type_is(j.v[i], "summary"))
			drops = e2e_int(j.v[i], "drops");
	e2e_jsonl_free(&j);
	return drops;
}

static void cpu_lines(const char *log, char *dst, size_t cap)
{
	char *text = e2e_slurp(log), *save = NULL;
	size_t n = 0;

	dst[0] = '\0';
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (!strncmp(l, "stats: cpu", 10) && n < cap)
			n += (size_t)snprintf(dst + n, cap - n, "%s\n", l);
	free(text);
}

static void run_one(long rate, const char *ring)
{
	char pid[16], out[PATH_MAX], cmd[64], reply[256];
	const char *args[] = { "--pid", pid, "--no-art", "--no-atrace-setup", "--stats",
			       "--buffer-size", ring, "--format", "json", "-o",
			       e2e_path(out, "marker.jsonl"), NULL };
	struct run *r = &m.runs[m.n];
	struct at_stats st;
	struct at_run at;
	double achieved;

	snprintf(pid, sizeof(pid), "%d", (int)m.flood.pid);
	at_start(&at, m.env->animtrace, args, m.flood.pid, E2E_MARKERS);
	snprintf(cmd, sizeof(cmd), "flood %ld %g", rate, m.env->secs);
	helper_ask(&m.flood, cmd, reply, sizeof(reply));
	if (sscanf(reply, "wrote %llu secs %*f rate %lf bytes %15s", &r->written, &achieved,
		   m.mean_bytes) != 3)
		bench_fail("marker_flood: '%s'", reply);
	/* Until the stats account for every marker (seen or lost), 3 s at most; then one more
	 * stats line so the counts are final. */
	at_await(&at, &(struct at_stats){ .markers = r->written }, 3000);
	bench_nap_ms(1100);
	m.rss[m.n] = (struct marker_rss){ ring, rate, proc_status_kb(at.pid, "VmHWM") };
	at_stop(&at);
	at_stats(&at, &st);
	r->rate = rate;
	r->achieved = (long)(achieved + 0.5);
	r->ring = ring;
	r->captured = st.markers;
	r->lost = st.lost;
	r->ring_full = st.ring_full;
	r->drops = summary_drops(out);
	cpu_lines(at.log, r->cpu, sizeof(r->cpu));
	m.n++;
}

static void measure(void)
{
	for (int k = 0; k < N_RINGS; k++)
		for (int i = 0; i < m.env->n_rates; i++)
			run_one(m.env->rates[i], rings[k]);
	helper_stop(&m.flood);
}

/* Nothing lost and every marker seen. */
static bool clean(const struct run *r)
{
	return r->drops == 0 && r->lost == 0 && r->captured == r->written;
}

static const struct run *find(const char *ring, long rate)
{
	for (size_t i = 0; i < m.n; i++)
		if (!strcmp(m.runs[i].ring, ring) && (!rate || m.runs[i].rate == rate))
			return &m.runs[i];
	return NULL;
}

/* The highest rate asked with a clean run on the default ring, or NULL. */
static const struct run *best(void)
{
	const struct run *b = NULL;

	for (size_t i = 0; i < m.n; i++)
		if (m.runs[i].ring == rings[0] && clean(&m.runs[i]))
			b = &m.runs[i];
	return b;
}

/* The first run on the small ring that lost markers, or NULL. */
static const struct run *sample(void)
{
	for (size_t i = 0; i < m.n; i++)
		if (m.runs[i].ring == rings[1] && m.runs[i].lost)
			return &m.runs[i];
	return NULL;
}

static void report_table(FILE *md)
{
	fprintf(md, "| rate asked (/s) | ring | achieved (/s) | written | captured "
		    "| drops (JSON) | lost (stats) | ring full (stats) |\n"
		    "|---:|---|---:|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < m.n; i++) {
		const struct run *r = &m.runs[i];
		char drops[24] = "?";

		if (r->drops >= 0)
			snprintf(drops, sizeof(drops), "%lld", r->drops);
		fprintf(md, "| %ld | %s | %ld | %llu | %llu | %s | %llu | %llu |\n", r->rate,
			r->ring, r->achieved, r->written, r->captured, drops, r->lost,
			r->ring_full);
	}
}

static void report_verdict(FILE *md)
{
	const struct run *b = best(), *at100 = find(rings[0], 100000), *s = sample();

	fprintf(md, "\n"
		    "Highest rate with zero drops and every marker captured (default %s ring):\n"
		    "**%ld/s asked,\n"
		    "%ld/s achieved**",
		rings[0], b ? b->rate : 0, b ? b->achieved : 0);
	if (b && b->achieved < 0.9 * (double)b->rate)
		fprintf(md, " (the writer, not animtrace, was the limit: it could not\n"
			    "produce more on this VM)");
	fprintf(md, ". Target (zero drops at 100,000 markers/s):\n");
	if (!at100)
		fprintf(md, "not measured (100000 is not among the rates).\n");
	else if (clean(at100))
		fprintf(md, "met.\n");
	else
		fprintf(md, "missed: %llu markers lost at 100,000/s.\n",
			(unsigned long long)(at100->drops > 0 ? at100->drops : 0) + at100->lost);
	fprintf(md, "Past it, or with a %s ring, drops show as the summary record's `\"drops\"`,\n"
		    "in each stats line (`N lost (ring full N, read faults N)`) and per CPU\n"
		    "at exit",
		SMALL_RING);
	if (s)
		fprintf(md, "; e.g. with the %s ring at %ld/s:\n\n```\n%s```\n\n", SMALL_RING,
			s->rate, s->cpu);
	else
		fprintf(md, " (no run with the %s ring lost any here).\n\n", SMALL_RING);
}

static void report(FILE *md)
{
	fprintf(md, "`bench/marker_flood` writes libcutils-format markers to trace_marker on one\n"
		    "fd, one write() each: `B|<pid>|bench:marker_flood xxx..` (40 bytes) then\n"
		    "`E|<pid>`, alternating (mean %s bytes), paced on 1 ms absolute deadlines\n"
		    "for %g s per rate. For each rate a fresh `animtrace --pid PID --no-art\n"
		    "--no-atrace-setup --stats --buffer-size RING --format json -o FILE` (JSON\n"
		    "to a scratch file instead of /dev/null, to read the summary record) is\n"
		    "attached first; after the flood it runs until its stats lines count every\n"
		    "marker written (or 3 s more), then gets SIGINT. \"achieved\" is what the\n"
		    "writer managed (markers/s), \"captured\" the markers animtrace's stats\n"
		    "counted, \"drops\" the summary record's `drops`, \"lost\" and \"ring full\"\n"
		    "the last stats line (`N lost (ring full N, ...)`).\n\n",
		m.mean_bytes, m.env->secs);
	report_table(md);
	report_verdict(md);
}

static void summary(FILE *out)
{
	const struct run *b = best(), *at100 = find(rings[0], 100000);

	fprintf(out, "bench: markers: zero drops up to %ld/s asked (%ld/s achieved); ",
		b ? b->rate : 0, b ? b->achieved : 0);
	if (at100)
		fprintf(out, "lost at 100k/s: %llu (target 0)\n",
			(unsigned long long)(at100->drops > 0 ? at100->drops : 0) + at100->lost);
	else
		fprintf(out, "100k/s not measured\n");
}

const struct bench bench_marker = {
	.name = "marker",
	.heading = "## Marker capture rate (live)",
	.live = true,
	.setup = setup,
	.measure = measure,
	.report = report,
	.summary = summary,
};

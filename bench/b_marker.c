// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Marker capture rate (live): one marker_flood process writes trace_marker at paced rates;
 * for each rate and ring size a fresh animtrace --pid on it, stopped once its stats account
 * for every marker written (or 3 s). Its peak RSS per run goes to the attach section.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "bench.h"
#include "e2e/e2e.h"
#include "peer.h"
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

/* bpftrace on the same flood: the markers it printed, its "Lost N events", its peak RSS. */
struct bt_marker {
	long rate, achieved;
	unsigned long long written, captured, lost;
	long kb;
};

static struct {
	const struct bench_env *env;
	struct helper flood;
	int fd; /* the flood's trace_marker fd */
	struct bt_marker bt[BENCH_MAX_RATES];
	size_t n_bt;
	char script[512]; /* bpftrace's, as the last run ran it */
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
	if (sscanf(m.flood.ready, "ready %*d fd %d", &m.fd) != 1)
		bench_fail("marker_flood: '%s'", m.flood.ready);
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

/* bpftrace's output so far: lines are read as they come (its stdout is line-buffered). */
struct bt_lines {
	FILE *f;
	unsigned long long markers, lost;
};

static void bt_lines_read(struct bt_lines *c)
{
	char line[256];
	unsigned long long n;

	while (fgets(line, sizeof(line), c->f)) {
		if (!strncmp(line, "M ", 2))
			c->markers++;
		else if (sscanf(line, "Lost %llu events", &n) == 1)
			c->lost += n;
	}
	clearerr(c->f); /* more may come */
}

/*
 * The copy animtrace makes of one process's trace_marker writes, as a bpftrace script: at
 * every write(2) of the flood's pid to its trace_marker fd, the bytes (str() of the user
 * buffer, up to the count) printed with the tid through bpftrace's perf buffers.
 */
static void bt_script(void)
{
	snprintf(m.script, sizeof(m.script),
		 "tracepoint:raw_syscalls:sys_enter\n"
		 "/pid == %d && args->id == %d && args->args[0] == %d/ {\n"
		 "\tprintf(\"M %%d %%s\\n\", tid, str(uptr(args->args[1]), args->args[2]));\n"
		 "}\n",
		 (int)m.flood.pid, SYS_write, m.fd);
}

/* Like run_one: attached first, the flood, then until its output accounts for every marker
 * (printed or lost), 3 s at most: bpftrace 0.17 drops what it has not printed at SIGINT
 * (src/bpftrace.cpp perf_event_printer returns once exitsig_recv is set). */
static void bt_run(long rate)
{
	struct bt_marker *r = &m.bt[m.n_bt++];
	struct bt_lines c = { 0 };
	char cmd[64], reply[256];
	double achieved;
	struct bt_run bt;

	bt_script();
	bt_start(&bt, m.script, m.flood.pid, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "flood %ld %g", rate, m.env->secs);
	helper_ask(&m.flood, cmd, reply, sizeof(reply));
	if (sscanf(reply, "wrote %llu secs %*f rate %lf", &r->written, &achieved) != 2)
		bench_fail("marker_flood: '%s'", reply);
	c.f = fopen(bt.out, "r");
	if (!c.f)
		bench_fail("%s: cannot read", bt.out);
	for (int t = 0; t <= 3000; t += 20) {
		bt_lines_read(&c);
		if (c.markers + c.lost >= r->written)
			break;
		bench_nap_ms(20);
	}
	r->kb = proc_status_kb(bt.pid, "VmHWM");
	bt_stop(&bt);
	bt_lines_read(&c);
	fclose(c.f);
	*r = (struct bt_marker){ rate, (long)(achieved + 0.5), r->written, c.markers, c.lost, r->kb };
}

static void add_peer_rows(void);

/* The default ring's rates take turns with bpftrace, which goes first every other rate. */
static void measure(void)
{
	for (int k = 0; k < N_RINGS; k++) {
		for (int i = 0; i < m.env->n_rates; i++) {
			bool bt = k == 0 && peer_path();

			if (bt && i % 2)
				bt_run(m.env->rates[i]);
			run_one(m.env->rates[i], rings[k]);
			if (bt && !(i % 2))
				bt_run(m.env->rates[i]);
		}
	}
	helper_stop(&m.flood);
	add_peer_rows();
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

static const struct bt_marker *bt_find(long rate)
{
	for (size_t i = 0; i < m.n_bt; i++)
		if (m.bt[i].rate == rate)
			return &m.bt[i];
	return NULL;
}

static double pct(unsigned long long part, unsigned long long whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* Markers captured of those written, animtrace / bpftrace, at the default ring's rate. */
static void add_peer_row(long rate)
{
	const struct run *a = find(rings[0], rate);
	const struct bt_marker *b = bt_find(rate);
	char what[128], note[256];

	if (!a || !b)
		return;
	snprintf(what, sizeof(what), "trace_marker writes of one process copied, %ld/s asked (%% "
				     "of those written)", rate);
	snprintf(note, sizeof(note), "animtrace %llu of %llu, %llu lost, the writer at %ld/s; "
				     "bpftrace %llu of %llu, %llu lost, %llu not printed by SIGINT, "
				     "the writer at %ld/s",
		 a->captured, a->written, a->lost + (a->drops > 0 ? (unsigned long long)a->drops : 0),
		 a->achieved, b->captured, b->written, b->lost,
		 b->written - b->captured - b->lost, b->achieved);
	peer_ratio(what, pct(a->captured, a->written), pct(b->captured, b->written), "%", note);
}

static void add_peer_rows(void)
{
	const struct bt_marker *b = bt_find(100000);
	const struct marker_rss *r = NULL;

	if (!peer_path()) {
		peer_cannot("trace_marker writes of one process copied", "measured", PEER_MISSING);
		return;
	}
	add_peer_row(100000);
	add_peer_row(m.env->rates[m.env->n_rates - 1]);
	for (size_t i = 0; i < m.n; i++)
		if (m.rss[i].ring == rings[0] && m.rss[i].rate == 100000)
			r = &m.rss[i];
	if (b && r)
		peer_ratio("peak RSS (VmHWM) while copying 100,000 markers/s (KiB)", (double)r->kb,
			   (double)b->kb, "KiB",
			   "read just before SIGINT; bpftrace's includes the LLVM it compiles its "
			   "script with");
}

static void report_bt(FILE *md)
{
	if (!m.n_bt) {
		fprintf(md, "bpftrace: %s.\n\n", PEER_MISSING);
		return;
	}
	fprintf(md, "bpftrace (%s) copying the same writes, each rate of the default ring's run\n"
		    "taking turns with animtrace's (bpftrace first every other rate):\n"
		    "`bpftrace --unsafe -p PID SCRIPT`, its stdout (line-buffered, its default)\n"
		    "to a file, with this script (its perf buffers: 64 pages per CPU, its default).\n"
		    "After the flood it runs until its output accounts for every marker (printed\n"
		    "or in a `Lost N events` line) or 3 s more, then gets SIGINT: bpftrace 0.17\n"
		    "drops what it has not printed by then (\"not printed\").\n\n",
		peer_version());
	bt_print_script(md, m.script);
	fprintf(md, "| rate asked (/s) | achieved (/s) | written | bpftrace printed | lost "
		    "(its count) | not printed | animtrace at this rate: achieved (/s), captured "
		    "of written | peak RSS bpftrace / animtrace (KiB) |\n"
		    "|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (size_t i = 0; i < m.n_bt; i++) {
		const struct bt_marker *b = &m.bt[i];
		const struct run *a = find(rings[0], b->rate);
		long at_kb = -1;

		for (size_t k = 0; k < m.n; k++)
			if (m.rss[k].ring == rings[0] && m.rss[k].rate == b->rate)
				at_kb = m.rss[k].kb;
		fprintf(md, "| %ld | %ld | %llu | %llu | %llu | %llu | %ld, %llu of %llu | %ld / %ld |\n",
			b->rate, b->achieved, b->written, b->captured, b->lost,
			b->written - b->captured - b->lost, a ? a->achieved : 0, a ? a->captured : 0,
			a ? a->written : 0, b->kb, at_kb);
	}
	fprintf(md, "\n"
		    "Where the writer achieved less beside bpftrace than beside animtrace, the\n"
		    "difference is what bpftrace's probe and its printing took from the writer\n"
		    "on this machine's CPUs.\n\n");
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
	report_bt(md);
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

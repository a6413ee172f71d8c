// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soak_check: checks one `make soak` run. animtrace's JSON lines against the simulator's
 * totals (nothing lost, every lifecycle accounted for) and the RSS samples (flat).
 * usage: soak_check OUT.jsonl EXPECT.jsonl STDERR.txt RSS.txt; prints the numbers, exit 0
 * when every check holds, 1 otherwise.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#define MAX_OPEN 64

struct run {
	long long pid, frames, starts, ends, exit_ends, running, prop_sets, markers, drops;
	long long open[MAX_OPEN];
	int n_open, failures;
};

static void fail(struct run *r, const char *what, long long got, long long want)
{
	printf("FAIL: %s: %lld, want %lld\n", what, got, want);
	r->failures++;
}

static long long num(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : -1;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "";
}

static int find_open(const struct run *r, long long id)
{
	for (int i = 0; i < r->n_open; i++)
		if (r->open[i] == id)
			return i;
	return -1;
}

static void on_start(struct run *r, json_object *o)
{
	r->starts++;
	if (find_open(r, num(o, "id")) >= 0)
		fail(r, "a start of an animator already running, id", num(o, "id"), 0);
	else if (r->n_open < MAX_OPEN)
		r->open[r->n_open++] = num(o, "id");
}

/* Every end closes a start, except an F without S (cancel before start). */
static void on_end(struct run *r, json_object *o)
{
	int i = find_open(r, num(o, "id"));
	bool exit_end = !strcmp(str(o, "reason"), "process_exit");

	if (exit_end)
		r->exit_ends++;
	else
		r->ends++;
	if (i >= 0)
		r->open[i] = r->open[--r->n_open];
	else if (strcmp(str(o, "reason"), "cancel_before_start"))
		fail(r, "an end without a start, id", num(o, "id"), 0);
}

static void on_frame_props(struct run *r, json_object *o)
{
	json_object *sets = NULL;

	if (!json_object_object_get_ex(o, "sets", &sets))
		return;
	json_object_object_foreach(sets, key, val)
	{
		(void)key;
		r->prop_sets += json_object_get_int64(val);
	}
}

static void on_summary(struct run *r, json_object *o)
{
	json_object *running = NULL;

	r->markers = num(o, "markers");
	r->drops = num(o, "drops");
	if (!json_object_object_get_ex(o, "running", &running))
		return;
	for (size_t i = 0; i < json_object_array_length(running); i++) {
		json_object *a = json_object_array_get_idx(running, i);
		int k = find_open(r, num(a, "id"));

		if (num(a, "pid") != r->pid)
			continue;
		r->running++;
		if (k < 0)
			fail(r, "running at exit but never started, id", num(a, "id"), 0);
		else
			r->open[k] = r->open[--r->n_open];
	}
}

static void on_record(struct run *r, json_object *o)
{
	const char *type = str(o, "type");

	if (!strcmp(type, "summary"))
		on_summary(r, o);
	else if (num(o, "pid") != r->pid)
		return;
	else if (!strcmp(type, "frame"))
		r->frames++;
	else if (!strcmp(type, "animator_start"))
		on_start(r, o);
	else if (!strcmp(type, "animator_end"))
		on_end(r, o);
	else if (!strcmp(type, "frame_props"))
		on_frame_props(r, o);
}

/* Calls fn on every JSON line of path; -1 when the file or a line is bad. */
static int each_line(const char *path, void (*fn)(void *, json_object *), void *ctx)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int ret = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		json_object *o = json_tokener_parse(line);

		lineno++;
		if (!o) {
			printf("FAIL: %s:%ld: not JSON\n", path, lineno);
			ret = -1;
			break;
		}
		fn(ctx, o);
		json_object_put(o);
	}
	free(line);
	fclose(f);
	return ret;
}

static json_object *totals;

static void keep_totals(void *ctx, json_object *o)
{
	(void)ctx;
	if (!strcmp(str(o, "type"), "totals") && !totals)
		totals = json_object_get(o);
}

static void record_cb(void *ctx, json_object *o)
{
	on_record(ctx, o);
}

/* The last "N lost" of the --stats lines. */
static long long last_lost(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	long long lost = -1;

	while (f && fgets(line, sizeof(line), f)) {
		char *s = strstr(line, " truncated, ");

		if (!strncmp(line, "stats: ", 7) && s)
			lost = strtoll(s + 12, NULL, 10);
	}
	if (f)
		fclose(f);
	return lost;
}

static void check_rss(struct run *r, const char *path)
{
	FILE *f = fopen(path, "r");
	long long kb, first = -1, last = -1, peak = 0;
	int n = 0;

	while (f && fscanf(f, "%lld", &kb) == 1) {
		first = first < 0 ? kb : first;
		last = kb;
		peak = kb > peak ? kb : peak;
		n++;
	}
	if (f)
		fclose(f);
	printf("rss: %d samples, first %lld kB, last %lld kB, peak %lld kB\n", n, first, last,
	       peak);
	if (n < 2)
		fail(r, "RSS samples", n, 2);
	else if (last * 10 > first * 11)
		fail(r, "last RSS kB (more than first + 10%)", last, first * 11 / 10);
}

static void check_counts(struct run *r)
{
	long long want_markers = num(totals, "markers");

	printf("animtrace: %lld frames, %lld starts, %lld ends (+%lld by exit, %lld running), "
	       "%lld property sets, %lld markers, %lld drops\n",
	       r->frames, r->starts, r->ends, r->exit_ends, r->running, r->prop_sets, r->markers,
	       r->drops);
	printf("simulator: %lld frames, %lld starts, %lld ends, %lld property changes, "
	       "%lld markers\n",
	       num(totals, "frames"), num(totals, "starts"), num(totals, "ends"),
	       num(totals, "prop_changes"), want_markers);
	if (r->drops != 0)
		fail(r, "drops", r->drops, 0);
	if (r->markers != want_markers)
		fail(r, "markers", r->markers, want_markers);
	if (r->frames != num(totals, "frames"))
		fail(r, "frames", r->frames, num(totals, "frames"));
	if (r->starts != num(totals, "starts"))
		fail(r, "animator starts", r->starts, num(totals, "starts"));
	if (r->ends != num(totals, "ends"))
		fail(r, "animator ends", r->ends, num(totals, "ends"));
	if (r->prop_sets != num(totals, "prop_changes"))
		fail(r, "property sets", r->prop_sets, num(totals, "prop_changes"));
	if (r->n_open)
		fail(r, "started animators neither ended nor running", r->n_open, 0);
}

int main(int argc, char **argv)
{
	struct run r = { 0 };
	long long lost;

	if (argc != 5) {
		fprintf(stderr, "usage: soak_check OUT.jsonl EXPECT.jsonl STDERR.txt RSS.txt\n");
		return 2;
	}
	if (each_line(argv[2], keep_totals, NULL) || !totals) {
		printf("FAIL: no totals line in %s\n", argv[2]);
		return 1;
	}
	r.pid = num(totals, "pid");
	if (each_line(argv[1], record_cb, &r))
		return 1;
	check_counts(&r);
	lost = last_lost(argv[3]);
	printf("stats: last line says %lld lost\n", lost);
	if (lost != 0)
		fail(&r, "lost in the last stats line", lost, 0);
	check_rss(&r, argv[4]);
	json_object_put(totals);
	printf("soak: %s\n", r.failures ? "FAILED" : "passed");
	return r.failures ? 1 : 0;
}

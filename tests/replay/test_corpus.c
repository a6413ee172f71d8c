// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The marker and capture parsers over whole real captures. Expected counts were measured
 * and cross-checked with grep; every rejected payload was read by eye (they are all
 * trace_event_clock_sync lines, which are not markers).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "replay/capture.h"
#include "common/marker.h"

#define TRACES TESTDATA "/traces/"

struct type_counts {
	size_t b, e, s, f, c, i, n, g, h;
};

static void count_type(struct type_counts *t, enum marker_type type)
{
	switch (type) {
	case MARKER_BEGIN:
		t->b++;
		break;
	case MARKER_END:
		t->e++;
		break;
	case MARKER_ASYNC_BEGIN:
		t->s++;
		break;
	case MARKER_ASYNC_END:
		t->f++;
		break;
	case MARKER_COUNTER:
		t->c++;
		break;
	case MARKER_INSTANT:
		t->i++;
		break;
	case MARKER_INSTANT_TRACK:
		t->n++;
		break;
	case MARKER_TRACK_BEGIN:
		t->g++;
		break;
	case MARKER_TRACK_END:
		t->h++;
		break;
	}
}

static void expect_types(const struct type_counts *got, const struct type_counts *want)
{
	cr_expect_eq(got->b, want->b, "B: %zu", got->b);
	cr_expect_eq(got->e, want->e, "E: %zu", got->e);
	cr_expect_eq(got->s, want->s, "S: %zu", got->s);
	cr_expect_eq(got->f, want->f, "F: %zu", got->f);
	cr_expect_eq(got->c, want->c, "C: %zu", got->c);
	cr_expect_eq(got->i + got->n + got->g + got->h, 0);
}

Test(corpus, parses_every_payload_of_the_perfetto_atrace_corpus)
{
	static const struct type_counts want = {
		.b = 20641,
		.e = 20641,
		.s = 105,
		.f = 97,
		.c = 13081,
	};
	/* Bare payloads, one a line: not a capture (no ftrace columns), so read as lines. */
	FILE *c = fopen(TRACES "perfetto-example-30s.atrace-payloads.txt", "r");
	size_t lines = 0, parsed = 0, rejected = 0, bare_end = 0, empty_begin = 0, cut = 0;
	struct type_counts types = { 0 };
	char *line = NULL;
	size_t cap = 0, len;
	ssize_t got;
	struct marker m;

	cr_assert_not_null(c, "errno %d", errno);
	while ((got = getline(&line, &cap, c)) > 0) {
		len = (size_t)got - (line[got - 1] == '\n');
		lines++;
		if (marker_parse(line, len, &m)) {
			rejected++;
			continue;
		}
		parsed++;
		count_type(&types, m.type);
		bare_end += m.type == MARKER_END && m.tgid == -1;
		empty_begin += m.type == MARKER_BEGIN && m.name.len == 0;
		/* 1023 bytes: libcutils cut the name to fit its 1024-byte buffer (with the NUL) */
		cut += m.type == MARKER_BEGIN && len == 1023;
	}
	free(line);
	fclose(c);
	cr_assert_eq(lines, 54565);
	cr_assert_eq(parsed + rejected, lines);
	cr_assert_eq(parsed, 54565);
	cr_assert_eq(rejected, 0);
	expect_types(&types, &want);
	cr_expect_eq(bare_end, 3);
	cr_expect_eq(empty_begin, 1);
	cr_expect_eq(cut, 4);
}

struct capture_expect {
	char file[64];
	size_t lines, markers, sched, skip, invalid, extras;
	size_t marker_ok, marker_rejected;
	struct type_counts types;
	uint64_t first_ns, last_ns;
};

struct capture_counts {
	size_t lines, markers, sched, skip, invalid, extras, marker_ok, marker_rejected;
	size_t clock_sync;
	struct type_counts types;
	uint64_t first_ns, last_ns;
};

static void count_marker(struct capture_counts *n, const struct capture_line *l)
{
	struct marker m;

	if (marker_parse(l->payload.p, l->payload.len, &m)) {
		n->marker_rejected++;
		n->clock_sync += strv_starts_with(l->payload, "trace_event_clock_sync: ");
		return;
	}
	n->marker_ok++;
	count_type(&n->types, m.type);
}

static struct capture_counts count_capture(const char *path)
{
	struct capture_counts n = { .first_ns = UINT64_MAX };
	struct capture *c = capture__open(path);
	struct capture_line l;
	const char *line;
	size_t len;
	int kind;

	cr_assert_not_null(c, "%s: errno %d", path, errno);
	while (capture__next(c, &line, &len)) {
		n.lines++;
		kind = capture_parse_line(line, len, &l);
		if (kind < 0) {
			n.invalid++;
			continue;
		}
		if (kind == CAPTURE_SKIP) {
			n.skip++;
			continue;
		}
		n.first_ns = l.ts_ns < n.first_ns ? l.ts_ns : n.first_ns;
		n.last_ns = l.ts_ns > n.last_ns ? l.ts_ns : n.last_ns;
		n.extras += (size_t)l.n_extra;
		if (kind == CAPTURE_SCHED) {
			n.sched++;
			continue;
		}
		n.markers++;
		count_marker(&n, &l);
	}
	capture__free(c);
	return n;
}

static void expect_capture(const struct capture_expect *w)
{
	char path[256];
	struct capture_counts n;

	snprintf(path, sizeof(path), "%s%s", TRACES, w->file);
	n = count_capture(path);
	cr_expect_eq(n.lines, w->lines, "lines %zu", n.lines);
	cr_expect_eq(n.markers, w->markers, "markers %zu", n.markers);
	cr_expect_eq(n.sched, w->sched, "sched %zu", n.sched);
	cr_expect_eq(n.skip, w->skip, "skip %zu", n.skip);
	cr_expect_eq(n.invalid, w->invalid, "invalid %zu", n.invalid);
	cr_expect_eq(n.extras, w->extras, "extras %zu", n.extras);
	cr_expect_eq(n.marker_ok, w->marker_ok, "marker_ok %zu", n.marker_ok);
	cr_expect_eq(n.marker_rejected, w->marker_rejected, "rejected %zu", n.marker_rejected);
	cr_expect_eq(n.clock_sync, n.marker_rejected, "rejects that are not clock syncs");
	cr_expect_eq(n.first_ns, w->first_ns, "first %llu", (unsigned long long)n.first_ns);
	cr_expect_eq(n.last_ns, w->last_ns, "last %llu", (unsigned long long)n.last_ns);
	expect_types(&n.types, &w->types);
}

/*
 * extras: two names per sched_switch, one per sched_wakeup/sched_waking/task_rename
 * (antutu 2 * 8844 + 5289, flyme 2 * 16397 + 2 * 8681, miui 2 * 58652 + 32400 + 18).
 */
Test(corpus, parses_every_line_of_the_antutu_capture)
{
	static const struct capture_expect w = {
		.file = "antutu-2018.ftrace.txt",
		.lines = 17260,
		.markers = 2742,
		.sched = 14506,
		.skip = 12,
		.invalid = 0,
		.extras = 22977,
		.marker_ok = 2740,
		.marker_rejected = 2,
		.types = { .b = 936, .e = 936, .s = 16, .f = 16, .c = 836 },
		.first_ns = 69739347047000ull,
		.last_ns = 69744347233000ull,
	};

	expect_capture(&w);
}

Test(corpus, parses_every_line_of_the_flyme_capture)
{
	static const struct capture_expect w = {
		.file = "flyme-launcher-scroll-2019.ftrace.txt",
		.lines = 99987,
		.markers = 10444,
		.sched = 89531,
		.skip = 12,
		.invalid = 0,
		.extras = 50156,
		.marker_ok = 10441,
		.marker_rejected = 3,
		.types = { .b = 4690, .e = 4840, .s = 36, .f = 36, .c = 839 },
		.first_ns = 958955762532000ull,
		.last_ns = 958958374946000ull,
	};

	expect_capture(&w);
}

Test(corpus, parses_every_line_of_the_miui_capture)
{
	static const struct capture_expect w = {
		.file = "miui-launcher-2021.ftrace.txt",
		.lines = 190680,
		.markers = 51107,
		.sched = 139561,
		.skip = 12,
		.invalid = 0,
		.extras = 149722,
		.marker_ok = 51104,
		.marker_rejected = 3,
		.types = { .b = 20553, .e = 20553, .s = 13, .f = 13, .c = 9972 },
		.first_ns = 28304424846000ull,
		.last_ns = 28308073844000ull,
	};

	expect_capture(&w);
}

/* The names PROVENANCE.md lists: 4 each of four animator names in process 24675. */
Test(corpus, finds_the_antutu_animator_names_with_their_cookies)
{
	static const char names[][24] = {
		"animator",
		"animator:alpha",
		"animator:scaleX",
		"animator:scaleY",
	};
	struct capture *c = capture__open(TRACES "antutu-2018.systrace.html");
	size_t per_name[4] = { 0 }, i;
	struct capture_line l;
	const char *line;
	struct marker m;
	size_t len;

	cr_assert_not_null(c, "errno %d", errno);
	while (capture__next(c, &line, &len)) {
		if (capture_parse_line(line, len, &l) != CAPTURE_MARKER ||
		    marker_parse(l.payload.p, l.payload.len, &m) || m.type != MARKER_ASYNC_BEGIN)
			continue;
		cr_assert_eq(m.tgid, 24675);
		cr_assert_eq(l.tgid, 24675);
		cr_assert_gt(m.value, 0);
		for (i = 0; i < 4; i++)
			per_name[i] += strv_eq(m.name, names[i]);
	}
	capture__free(c);
	for (i = 0; i < 4; i++)
		cr_expect_eq(per_name[i], 4, "%s: %zu", names[i], per_name[i]);
}

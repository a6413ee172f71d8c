// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * capture_parse_line on each line of the input, and capture_parse_line_tasks after the lines
 * before it (tasks kept per CPU), then marker_parse on each marker payload; the line must mean
 * what it meant to the parser before it read fields at their places
 * (tests/replay/capture_line_ref.c).
 */
#include <errno.h>
#include <string.h>

#include "replay/capture.h"
#include "fuzz.h"
#include "../replay/capture_line_ref.h"

static bool same_strv(struct strv a, struct strv b)
{
	return a.len == b.len && (a.len == 0 || a.p == b.p);
}

/* The reference parser's reading of the same line. */
static void check_ref(const char *line, size_t len, int kind, const struct capture_line *cl)
{
	struct capture_line ref;

	FUZZ_CHECK(capture_parse_line_ref(line, len, &ref) == kind);
	if (kind < 0 || kind == CAPTURE_SKIP)
		return;
	FUZZ_CHECK(cl->ts_ns == ref.ts_ns && cl->tgid == ref.tgid && cl->tid == ref.tid);
	FUZZ_CHECK(same_strv(cl->comm, ref.comm) && same_strv(cl->payload, ref.payload));
	FUZZ_CHECK(cl->n_extra == ref.n_extra);
	for (int i = 0; i < cl->n_extra; i++)
		FUZZ_CHECK(cl->extra_tid[i] == ref.extra_tid[i] &&
			   same_strv(cl->extra_comm[i], ref.extra_comm[i]));
}

/* The task columns kept from the input's lines before (capture_parse_line_tasks). */
static struct capture_tasks tasks;

static void check_line(const char *line, size_t len, bool kept)
{
	struct capture_line cl;
	int kind, i;

	memset(&cl, 0, sizeof(cl));
	kind = kept ? capture_parse_line_tasks(&tasks, line, len, &cl) :
		      capture_parse_line(line, len, &cl);
	FUZZ_CHECK(kind == -EINVAL || kind == CAPTURE_MARKER || kind == CAPTURE_SCHED ||
		   kind == CAPTURE_SKIP);
	check_ref(line, len, kind, &cl);
	if (kind < 0 || kind == CAPTURE_SKIP)
		return;
	fuzz_check_slice(cl.comm, line, len);
	FUZZ_CHECK(cl.n_extra >= 0 && cl.n_extra <= 2);
	for (i = 0; i < cl.n_extra; i++)
		fuzz_check_slice(cl.extra_comm[i], line, len);
	if (kind == CAPTURE_MARKER) {
		fuzz_check_slice(cl.payload, line, len);
		fuzz_marker(cl.payload.p, cl.payload.len);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *nl;
	char *copy;
	size_t len;

	memset(&tasks, 0, sizeof(tasks));
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = (size_t)((nl ? nl : end) - p);
		/* An exact-size copy of each line, so a read past its end is an ASan report. */
		copy = malloc(len ? len : 1);
		if (!copy)
			return 0;
		memcpy(copy, p, len);
		check_line(copy, len, false);
		check_line(copy, len, true);
		free(copy);
		p += len + 1;
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Text captures -> (ts, tgid, tid, comm, payload). Reads ftrace text as atrace and
 * systrace write it (with or without the TGID column, "<...>" task names, the
 * "tracing_mark_write:" and "print:" event forms) and systrace .html files (the
 * trace-data block that holds the ftrace text). Knows nothing about animators.
 */
#ifndef ANIMTRACE_CAPTURE_H
#define ANIMTRACE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "marker.h"

enum capture_line_kind {
	CAPTURE_MARKER = 0, /* a tracing_mark_write:/print: event: payload is set */
	CAPTURE_SCHED = 1,  /* any other event line: only task info is set */
	CAPTURE_SKIP = 2,   /* comment, header, blank line */
};

struct capture_line {
	uint64_t ts_ns;
	int32_t tgid;       /* from the TGID column; -1 when absent or "-----" */
	int32_t tid;
	struct strv comm;   /* task name as printed; "<...>" when unknown */
	struct strv payload; /* CAPTURE_MARKER: the marker text after the event name */
	/* Names learnt from sched_switch/sched_wakeup fields on this line (tid -> comm). */
	int32_t extra_tid[2];
	struct strv extra_comm[2];
	int n_extra;
};

/*
 * Parses one ftrace text line (without its newline). Returns a capture_line_kind, or
 * -EINVAL for a malformed line (which the caller counts). Pure.
 */
int capture_parse_line(const char *line, size_t len, struct capture_line *out);

struct capture;

/*
 * Opens a capture file (ftrace text or systrace .html, detected from the content).
 * Returns NULL and sets errno (ENOENT, EINVAL for an unknown format, ...).
 */
struct capture *capture__open(const char *path);

/*
 * Next line of the ftrace text. Returns 1 with *line and *len set (no newline; valid until
 * capture__free), 0 at the end.
 */
int capture__next(struct capture *c, const char **line, size_t *len);

/* Restarts from the first line (replay reads twice: names first, then events). */
void capture__rewind(struct capture *c);

/* Bytes of ftrace text in the capture (for throughput figures). */
size_t capture__size(const struct capture *c);

void capture__free(struct capture *c);

#endif

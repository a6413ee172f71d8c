/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Captures -> (ts, tgid, tid, comm, payload). Reads ftrace text as atrace and
 * systrace write it (with or without the TGID column, "<...>" task names, the
 * "tracing_mark_write:" and "print:" event forms), systrace .html files (the
 * trace-data block that holds the ftrace text) and Perfetto protobuf traces (ftrace
 * print events, names from process trees; see pftrace.h). Knows nothing about animators.
 */
#ifndef ANIMTRACE_CAPTURE_H
#define ANIMTRACE_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "marker.h"

enum capture_line_kind {
	CAPTURE_MARKER = 0, /* a tracing_mark_write:/print: event: payload is set */
	CAPTURE_SCHED = 1,  /* any other event line: only task info is set */
	CAPTURE_SKIP = 2,   /* comment, header, blank line */
	CAPTURE_END = 3,    /* capture__next_event: no more events */
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
 * Opens a capture file (ftrace text, systrace .html or Perfetto protobuf, detected from
 * the content). Returns NULL and sets errno (ENOENT, EINVAL for an unknown format, ...).
 */
struct capture *capture__open(const char *path);

/*
 * Next line of the ftrace text. Returns 1 with *line and *len set (no newline; valid until
 * capture__free), 0 at the end. A protobuf capture has no text lines: use
 * capture__next_event, which works for every format.
 */
int capture__next(struct capture *c, const char **line, size_t *len);

/*
 * Next event of any capture format, parsed. Returns a capture_line_kind (CAPTURE_END at
 * the end), or -EINVAL for a malformed text line (which the caller counts). Strings in
 * *out stay valid until capture__free. For a protobuf capture: first one CAPTURE_SCHED
 * per thread the trace names (tid, tgid or -1, comm), then every print event as
 * CAPTURE_MARKER in timestamp order, with tgid and comm from those names (-1 and ""
 * when unknown) and the payload without its trailing newline.
 */
int capture__next_event(struct capture *c, struct capture_line *out);

/* True when the capture is a Perfetto protobuf trace. */
bool capture__is_protobuf(const struct capture *c);

/* Restarts from the first line or event (replay reads twice: names first, then events). */
void capture__rewind(struct capture *c);

/* Bytes of ftrace text in the capture, or of the protobuf file (for throughput figures). */
size_t capture__size(const struct capture *c);

void capture__free(struct capture *c);

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Boxed text sink in the style of AOSP AnimatorTracer logs: one Begin/End box per animator,
 * optional one line per frame, and a summary. Writes only to the caller's FILE *.
 */
#ifndef ANIMTRACE_SINK_BOX_H
#define ANIMTRACE_SINK_BOX_H

#include <stdbool.h>
#include <stdio.h>

#include "model/model.h"

struct sink_box_opts {
	bool color;  /* ANSI colours (the caller decides, e.g. from isatty) */
	bool frames; /* one line per frame */
	bool utf8;   /* box-drawing characters; ASCII (+-- | `--) otherwise */
};

struct sink_box;

/* Returns NULL and sets errno. out must outlive the sink; o may be NULL (all false). */
struct sink_box *sink_box__new(FILE *out, const struct sink_box_opts *o);

/* The engine-facing view of b, valid until sink_box__free. */
struct sink sink_box__sink(struct sink_box *b);

/* Frees b (and its memory stream); accepts NULL. */
void sink_box__free(struct sink_box *b);

/*
 * The same boxes rendered into memory, without colour, for a sink that sends them elsewhere
 * (sinks/logcat.h): one formatter for every text output. A memory box sink's callbacks
 * (sink_box__sink) and the two below write into its buffer; sink_box__take hands it over.
 */
struct sink_box *sink_box__new_mem(bool utf8);

/* What was rendered since the last take (NUL-terminated, *len bytes; valid until the next
 * call on b), and empties the buffer. NULL when rendering failed (memory). */
const char *sink_box__take(struct sink_box *b, size_t *len);

/* One frame's property values as the frame lines print them: a line per node. */
void sink_box__frame_values(struct sink_box *b, const struct frame_props *fp);

/* A finding on its own: its box line ("│ Finding:    flicker: <sentence>"), then what it
 * concerns, whose and when ("│ Concerns:   animator #12, com.foo (pid 9), at 1.5 s"). */
void sink_box__finding(struct sink_box *b, const struct finding *f);

/* A string another process controls, as the boxes print it: C0 controls and DEL become '?'
 * (the escape of every text output; dst of size bytes, returned). */
const char *box_escape(char *dst, size_t size, const char *src);

#endif

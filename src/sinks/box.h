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

void sink_box__free(struct sink_box *b);

#endif

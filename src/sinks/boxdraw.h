/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The box sink's internals, shared by its two files (sinks/box.c: animators, frames, jank;
 * sinks/box_summary.c: the summary): the sink's state and the drawing primitives. Internal to
 * src/sinks/; users include sinks/box.h.
 */
#ifndef ANIMTRACE_BOXDRAW_H
#define ANIMTRACE_BOXDRAW_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/termesc.h"
#include "model/model.h"
#include "sinks/box.h"

#define BOX_WIDTH 64

#define ANSI_GREEN "\033[32m"
#define ANSI_RED "\033[31m"
#define ANSI_YELLOW "\033[33m"
#define ANSI_DIM "\033[2m"
#define ANSI_BOLD "\033[1m"
#define ANSI_RESET "\033[0m"

struct glyphs {
	const char *tl, *h, *v, *bl, *arrow;
	const char *const *spark; /* sparkline levels, lowest first */
	int n_spark;
};

/* A frame's property values, held until the frame's own line is printed. */
struct pending {
	struct frame_props fp;
	struct node_props *nodes; /* owned copy of fp.nodes */
};

/* Findings held for the box of what they concern, which comes later (a ring). */
#define BOX_FINDINGS 32

struct sink_box {
	FILE *out;
	struct sink_box_opts o;
	const struct glyphs *g;
	struct pending *pend; /* at most one per process: the frame waiting for its draw */
	size_t n_pend, cap_pend;
	struct finding fnd[BOX_FINDINGS];
	int n_fnd, next_fnd;
	bool mem_stream; /* sink_box__new_mem: out writes into mem */
	char *mem;
	size_t mem_len;
};

/* src escaped for the terminal into dst (common/termesc.h): every string from another
 * process or a capture goes through here once, where the box sink prints it. */
static inline const char *clean(char *dst, size_t size, const char *src)
{
	return termesc_str(dst, size, src);
}

/* "NotificationRow@51c0" (View names come from the target's memory), escaped. */
static inline const char *box_node_label(char *buf, size_t size, const char *name, uint64_t node)
{
	char label[AT_NODE_LABEL_MAX];

	return clean(buf, size, node_label(label, sizeof(label), name, node));
}

static inline void fmt_sec(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%06llu s", (unsigned long long)(ns / 1000000000ull),
		 (unsigned long long)(ns % 1000000000ull / 1000));
}

static inline void fmt_ms(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%03llu ms", (unsigned long long)(ns / 1000000ull),
		 (unsigned long long)(ns % 1000000ull / 1000));
}

/* Tenths of a millisecond, rounded: "16.7". */
static inline void fmt_ms1(char *buf, size_t size, uint64_t ns)
{
	uint64_t tenths = (ns + 50000) / 100000;

	snprintf(buf, size, "%llu.%llu", (unsigned long long)(tenths / 10),
		 (unsigned long long)(tenths % 10));
}

static const char *color_on(struct sink_box *b, const char *code)
{
	return b->o.color ? code : "";
}

/* "┌── <title> ────…" padded to BOX_WIDTH columns (for ASCII titles). */
static inline void box_open(struct sink_box *b, const char *color, const char *title)
{
	int fill = BOX_WIDTH - 5 - (int)strlen(title);

	fprintf(b->out, "%s%s%s%s %s ", color_on(b, color), b->g->tl, b->g->h, b->g->h, title);
	for (int i = 0; i < (fill < 3 ? 3 : fill); i++)
		fputs(b->g->h, b->out);
	fprintf(b->out, "%s\n", color_on(b, ANSI_RESET));
}

static inline void box_close(struct sink_box *b)
{
	fprintf(b->out, "%s%s%s\n", b->g->bl, b->g->h, b->g->h);
}

static inline void __attribute__((format(printf, 2, 3)))
box_line(struct sink_box *b, const char *fmt, ...)
{
	va_list ap;

	fprintf(b->out, "%s ", b->g->v);
	va_start(ap, fmt);
	vfprintf(b->out, fmt, ap);
	va_end(ap);
	fputc('\n', b->out);
}

static inline void box_blank(struct sink_box *b)
{
	fprintf(b->out, "%s\n", b->g->v);
}

/*
 * An animator's configuration (sinks/box_config.c); each prints nothing and returns false
 * when it has nothing configured to say. begin: Duration, StartDelay and Interpolator as
 * configured; end: "Duration: 300ms configured, 312.4 ms measured"; interp: the configured
 * interpolator beside the fitted one, a mismatch said plainly; props: "Properties: alpha:
 * 1 → 0" (mark: followed by "(configured)"); target: "Target: NotificationRow@3f2c (exact)".
 */
bool box__config_begin(struct sink_box *b, const struct anim *a);
bool box__config_end(struct sink_box *b, const struct anim *a);
bool box__config_interp(struct sink_box *b, const struct anim *a);
bool box__config_props(struct sink_box *b, const struct anim *a, bool mark);
bool box__config_target(struct sink_box *b, const struct anim *a);

/* The summary box and what follows it (sinks/box_summary.c). */
int box__summary(void *ctx, const struct summary *s);

/* The box of an animator still running at exit. */
void box__running(struct sink_box *b, const struct anim *a, uint64_t last_ns);

/* Prints the property values of frames still waiting for their line. */
void box__pending_flush(struct sink_box *b);

#endif

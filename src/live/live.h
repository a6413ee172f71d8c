/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Live driver: finds trace_marker, loads and attaches the probes, keeps the BPF allow
 * list in step with the processes the filter selects (including ones that start later,
 * forked from zygote and renamed without exec), and feeds records to the engine until
 * the duration ends or a signal arrives.
 */
#ifndef ANIMTRACE_LIVE_H
#define ANIMTRACE_LIVE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct engine;
struct procfilter;
struct sink_annotate;

struct live_opts {
	const struct procfilter *filter; /* NULL or empty: every process */
	bool atrace_setup;		 /* set and restore debug.atrace.* on Android */
	double duration_s;		 /* 0: until a signal */
	bool stats;			 /* a stats line every second and per-CPU drops at exit */
	size_t ringbuf_bytes;
	const char *proc_root;	  /* "/proc" unless testing */
	bool props;		  /* probe the RenderNode setters of each traced process */
	const char *hwui_path;	  /* the library holding the setters; NULL: from /proc/<pid>/maps */
	const char *hwui_offsets; /* "prop=off,..." field offset overrides, or NULL */
	bool art;		  /* probe ValueAnimator.start/cancel/end in the boot oat */
	const char *art_oat;	  /* the oat holding them; NULL: boot-framework.oat from maps */
	bool no_heap;		  /* --no-heap: no animator configurations from the Java heap */
	uint32_t stack_bytes;	  /* --stacks: user stack copied per ART call and unwound; 0: off */
	bool refresh; /* --refresh: display-list and vsync request probes (who redraws) */
	FILE *out;    /* the sink's stream: tracing stops when writing to it failed (EPIPE) */
	/* --annotate: the sink (already behind the engine's fan-out) that writes to trace_marker;
	 * live opens it on the marker file it found, checks the file on every tick and reports
	 * its delays at exit. NULL: off. */
	struct sink_annotate *annotate;
};

/* Set by the signal handler; live_run returns soon after it becomes non-zero. */
extern volatile sig_atomic_t live_stop;

/*
 * Traces until stopped, then calls engine__finish. Status lines go to diag (diag.h). Returns
 * 0, or a negative errno after saying in one line what is missing (not root, no BTF, ...).
 */
int live_run(const struct live_opts *o, struct engine *e);

#endif

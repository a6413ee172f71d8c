/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the lifecycle engine reports and sinks render: animators, frames, the summary.
 * Plain data; the engine owns every pointer and keeps it valid for the duration of the
 * sink call only (a sink that needs something later copies it).
 */
#ifndef ANIMTRACE_MODEL_H
#define ANIMTRACE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define AT_NAME_MAX 128
#define AT_PROC_MAX 64
#define AT_MAX_PROPS 8

enum anim_kind {
	ANIM_VALUE = 0,  /* "animator": a ValueAnimator (or subclass without a property) */
	ANIM_OBJECT = 1, /* "animator:<props>": ObjectAnimator */
};

enum end_reason {
	END_NONE = 0,        /* still running */
	END_COMPLETE,        /* ran to its end */
	END_CANCEL,          /* cancel() */
	END_FORCE_END,       /* end() */
	END_ENDED,           /* F marker: complete or cancel, markers cannot tell which */
	END_CANCEL_BEFORE_START, /* F without S: cancel() during the start delay */
	END_PROCESS_EXIT,    /* the process died while it ran */
	END_RUNNING_AT_EXIT, /* still running when animtrace stopped ("leaked animator") */
};

enum reason_source {
	REASON_INFERRED = 0, /* from markers and timing alone */
	REASON_ART = 1,      /* from ValueAnimator.cancel/end probes */
};

struct anim {
	uint64_t id;        /* the marker cookie (identityHashCode) */
	char name[AT_NAME_MAX];      /* "animator" or "animator:alpha" */
	enum anim_kind kind;
	int n_props;
	char props[AT_MAX_PROPS][32]; /* from the name: "animator:a,b" -> {a, b} */
	uint32_t pid;       /* tgid */
	uint32_t start_tid, end_tid;
	char process[AT_PROC_MAX];
	uint64_t start_ns;  /* 0 when no S was seen (cancel before start) */
	uint64_t end_ns;    /* 0 while running */
	uint32_t frames;    /* Choreographer#doFrame slices overlapping [start, end] */
	uint32_t restarts;  /* times this cookie started before (cookie reuse) */
	enum end_reason reason;
	enum reason_source reason_source;
};

enum frame_phase {
	PHASE_INPUT = 0,
	PHASE_ANIMATION,
	PHASE_INSETS_ANIMATION,
	PHASE_TRAVERSAL,
	PHASE_COMMIT,
	PHASE_DRAW, /* RenderThread DrawFrame(s) */
	PHASE_COUNT,
};

struct frame {
	uint32_t pid, tid;   /* tid: the UI thread that ran Choreographer#doFrame */
	char process[AT_PROC_MAX];
	uint64_t seq;        /* 1, 2, ... per process */
	int64_t vsync_id;    /* -1 when the marker had none (Android 11 and earlier) */
	uint64_t start_ns, dur_ns;
	uint64_t phase_ns[PHASE_COUNT]; /* 0 when the phase did not run */
	int n_anims;         /* animators running during this frame */
	const uint64_t *anim_ids;
};

struct name_stat {
	char name[AT_NAME_MAX];
	uint32_t count, cancels, running;
	uint64_t total_ns, max_ns, median_ns;
};

struct summary {
	uint64_t first_ns, last_ns;
	uint64_t anims_started, anims_ended;
	uint64_t frames;
	uint64_t markers, markers_rejected;
	int n_names;
	const struct name_stat *names;       /* sorted by count, then name */
	int n_longest;
	const struct anim *longest;          /* up to 5, longest first */
	int n_running;
	const struct anim *running;          /* still running at finish */
	/* Filled by the caller (live capture), zero in replay. */
	uint64_t drops;
	uint64_t truncated;
};

/* Renders engine output. Any callback may be NULL. */
struct sink_ops {
	void (*anim_start)(void *ctx, const struct anim *a);
	void (*anim_end)(void *ctx, const struct anim *a);
	void (*frame)(void *ctx, const struct frame *f);
	void (*summary)(void *ctx, const struct summary *s);
	void (*note)(void *ctx, const char *msg); /* informational line (e.g. "reasons are inferred") */
};

struct sink {
	const struct sink_ops *ops;
	void *ctx;
};

const char *end_reason_str(enum end_reason r);       /* "complete", "cancel", ... */
const char *reason_source_str(enum reason_source s); /* "inferred", "art" */
const char *anim_kind_str(enum anim_kind k);         /* "ValueAnimator", "ObjectAnimator" */
const char *frame_phase_str(enum frame_phase p);     /* "input", ..., "draw" */

#endif

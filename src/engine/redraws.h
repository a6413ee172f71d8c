/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Who redraws (--refresh): the Views re-recorded and the vsync requests of each frame, refresh storms, and the Views redrawn most. */
#ifndef ANIMTRACE_ENGINE_REDRAWS_H
#define ANIMTRACE_ENGINE_REDRAWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct emit;
struct engine;
struct frame_st;
struct node_st;
struct proc;

/* --refresh: Views re-recorded and vsync requests of a frame while open or since the
 * previous frame closed, and the Java callers of its last request */
struct redraws_frame {
	struct redraw_node *nodes;
	size_t n, cap;
	uint32_t dropped, vsync_req;
	int n_vstack;
	char vstack[AT_STACK_FRAMES][AT_FRAME_NAME];
};

/* The Views of a refresh storm in progress, by frames redrawn. */
#define STORM_VIEWS 8
struct storm_st {
	uint32_t frames, vsyncs;
	uint64_t first_ns, end_ns;
	int n_views;
	struct redraw_node views[STORM_VIEWS];
	uint32_t view_frames[STORM_VIEWS];
	uint32_t views_other; /* distinct Views beyond STORM_VIEWS */
	int n_stack;
	char stack[AT_STACK_FRAMES][AT_FRAME_NAME];
};

struct redraws_proc {
	bool on; /* --refresh probes ran in it */
	struct storm_st storm;
};

struct redraws {
	bool on; /* --refresh probes ran in some process */
	struct redraw_stat top[AT_REDRAW_TOP];
	int n_top;
};

/* fs goes out: its frame record lists its redraws and vsync requests (rp on: --refresh ran). */
void redraws__attach(const struct redraws_proc *rp, struct frame_st *fs);

/* p's nodes enter the engine-wide ranking of Views by frames redrawn (at its exit or the end). */
void redraws__rank(struct redraws *rs, const struct proc *p);

/* The run of p's frames redrawn with no animator ended: a refresh storm when it lasted
 * REFRESH_STORM_FRAMES, sent once. */
void redraws__storm_end(struct proc *p, struct emit *out);

/* p's frame fs ended: with --refresh its Views count a frame redrawn (their nodes'
 * redraw_frames), and it goes on p's refresh storm or ends it. */
void redraws__frame_closed(struct proc *p, const struct frame_st *fs, struct emit *out);

/* rf collects for the next doFrame. */
void redraws__frame_reset(struct redraws_frame *rf);


/* Frees what rf holds. */
void redraws__frame_free(struct redraws_frame *rf);

/* --refresh probes ran in the process: its frames, animators and the summary say so. */
void redraws__active(struct redraws *rs, struct redraws_proc *rp);

/* n of p re-recorded its display list: once per frame in the frame collecting now (listed up to
 * 64 Views, more counted), and while a doFrame is open for the running animators targeting n. */
void redraws__redraw(struct proc *p, const struct node_st *n);

/* The process asked for a vsync (stack: its Java callers, innermost first; n_stack may be 0):
 * counted for the frame collecting now, with the last callers. */
void redraws__vsync_request(struct redraws_frame *rf, const char (*stack)[AT_FRAME_NAME],
			    int n_stack);

#endif

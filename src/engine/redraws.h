/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who redraws (--refresh): the Views re-recorded and the vsync requests of each frame,
 * refresh storms (runs of frames redrawn while no animator runs), and the engine-wide ranking
 * of Views by frames redrawn. Owns struct redraws_frame (in each frame), the storms and the
 * ranking, and the nodes' redraw_frames counts. Calls props (to look nodes up).
 */
#ifndef ANIMTRACE_ENGINE_REDRAWS_H
#define ANIMTRACE_ENGINE_REDRAWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct emit;
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

/* --refresh probes ran in the process: its frames, animators and the summary say so. */
void redraws__active(struct redraws *rs, struct redraws_proc *rp);

/* n of p re-recorded its display list: once per frame collecting now (64 Views listed, more
 * counted), and for running animators targeting it while a doFrame is open. */
void redraws__redraw(struct proc *p, const struct node_st *n);

/* The process asked for a vsync (its Java callers, n_stack of stack): counted for rf. */
void redraws__vsync_request(struct redraws_frame *rf, const char (*stack)[AT_FRAME_NAME],
			    int n_stack);

/* fs of p ended: its Views count a frame redrawn, and it goes on p's refresh storm or ends it. */
void redraws__frame_closed(struct proc *p, const struct frame_st *fs, struct emit *out);

/* rf collects for the next doFrame. */
void redraws__frame_reset(struct redraws_frame *rf);

/* fs goes out: its record lists its redraws and vsync requests. */
void redraws__attach(const struct redraws_proc *rp, struct frame_st *fs);

/* Ends p's run of frames redrawn with no animator: a refresh storm, sent once, when it lasted. */
void redraws__storm_end(struct proc *p, struct emit *out);

/* p's Views enter the engine-wide ranking by frames redrawn (at its exit or the end). */
void redraws__rank(struct redraws *rs, const struct proc *p);

/* Frees what rf holds. */
void redraws__frame_free(struct redraws_frame *rf);

#endif

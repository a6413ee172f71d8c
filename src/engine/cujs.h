/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * CUJs (struct cuj, model.h): the async-for-track slices InteractionJankMonitor's FrameTracker
 * writes around an interaction, G|pid|J<CUJ>|J<CUJ>|<begin vsync id> ... H|pid|J<CUJ>|<same>
 * (ANDROID.md sections 1 and 3), with the frames, animators and unmarked animations of their
 * process that ran inside them. Owns struct cuj_st and each process's open CUJs; counts the
 * CUJs reported for the summary. Calls nothing; the engine feeds it frames as they go out.
 */
#ifndef ANIMTRACE_ENGINE_CUJS_H
#define ANIMTRACE_ENGINE_CUJS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/marker.h"
#include "model/model.h"

struct emit;
struct anim_run;

#define CUJ_OPEN_MAX 8	      /* CUJs open at once in one process; a ninth is not followed */
#define CUJ_ANIMATIONS_MAX 32 /* unmarked animation ids kept per CUJ (to count each once) */

struct cuj_st {
	struct cuj c;		 /* the record being built */
	char track[AT_NAME_MAX]; /* "J<CUJ>" as written */
	/* its H was seen, or a G of its track began it again: frames that began before until_ns
	 * still count, it goes out after them */
	bool closing;
	uint64_t until_ns;
	uint64_t from_ns; /* frames that began at or after it count: its begin, or the start
			       * of the doFrame its begin was written in */
	uint64_t ids[AT_CUJ_ANIMS];
	uint64_t animation_ids[CUJ_ANIMATIONS_MAX];
	uint32_t n_animation_ids;
};

struct cujs_proc {
	struct cuj_st *open; /* CUJ_OPEN_MAX entries once the process began one */
	int n;
};

struct cujs {
	uint64_t count; /* CUJs reported */
};

/* Whether m begins a CUJ (G whose track and name are the same "J..." string) or may end one
 * (H on a "J..." track). */
bool cujs__is_cuj(const struct marker *m);

/*
 * The G or H marker m of pid (process) at ts_ns on tid; frame_ns: the start of the doFrame
 * open on tid then (0: none). A G opens a CUJ (FrameTracker begins in a Choreographer
 * callback: the doFrame it was written in is its first frame), with the animators
 * running in the process (running) as its first; a second G of an open CUJ's track restarts
 * it (the first is closing, unended). An H marks the open CUJ of its track (the cookie decides
 * between two) as ending: it goes out once a frame that began at or after its end does
 * (cujs__frame), or at cujs__flush.
 */
void cujs__marker(struct cujs *cs, struct cujs_proc *cp, uint32_t pid, uint32_t tid,
		  const char *process, const struct marker *m, uint64_t ts_ns, uint64_t frame_ns,
		  const struct anim_run *running, struct emit *out);

/* A frame of the process went out: the ending CUJs it follows go out, the open ones that it
 * began in count it, its janky flag, its dropped vsyncs and its animators. */
void cujs__frame(struct cujs *cs, struct cujs_proc *cp, const struct frame *f, struct emit *out);

/* Animator id started in the process: it runs inside every CUJ open now. */
void cujs__anim_started(struct cujs_proc *cp, uint64_t id);

/* An unmarked animation of the process was recognised or ended: it counts once for every CUJ
 * its span [start_ns, start_ns + duration_ns] overlaps. */
void cujs__animation(struct cujs_proc *cp, const struct animation *a);

/* The process exits or the session ends: every CUJ goes out (ended or not). */
void cujs__flush(struct cujs *cs, struct cujs_proc *cp, struct emit *out);

void cujs__proc_free(struct cujs_proc *cp);

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * CUJs (struct cuj, model.h): the interactions InteractionJankMonitor's FrameTracker traces, with
 * the frames, animators and unmarked animations of their process that ran inside them. Owns
 * struct cuj_st and each process's open CUJs; counts the CUJs reported for the summary. Calls
 * nothing; the engine feeds it frames as they go out.
 *
 * What each Android version writes (frameworks/base core/java/com/android/internal/jank/
 * FrameTracker.java; the text is libcutils trace-dev.inc's, ANDROID.md section 1). The session
 * name is InteractionJankMonitor's "J<" + the CUJ's name + ">" ("J<NAME::tag>" when tagged);
 * the cookie is (int) mBeginVsyncId:
 *   12: Trace.beginAsyncSection(name, cookie) at begin, endAsyncSection(name, cookie) at its end
 *       and at a cancel alike: S|pid|J<X>|cookie ... F|pid|J<X>|cookie. No FT# events.
 *   13: the same S/F, and markEvent(desc) as a zero-length slice on the UI thread,
 *       Trace.beginSection(name + "#" + desc) + endSection: B|pid|J<X>#FT#begin, then S;
 *       B|pid|J<X>#FT#end#<reason> or B|pid|J<X>#FT#cancel#<reason> before F (also
 *       FT#deferMonitoring, FT#finish#<n>).
 *   14+: Trace.asyncTraceForTrackBegin(TRACE_TAG_APP, name, name, cookie):
 *       G|pid|J<X>|J<X>|cookie, then markEvent(event, value) as Trace.instantForTrack(
 *       TRACE_TAG_APP, name, event + "#" + value): N|pid|J<X>|FT#beginVsync#<id>,
 *       N|pid|J<X>|FT#layerId#<id>; at its end N|pid|J<X>|FT#end#<reason> and FT#endVsync#<id>,
 *       or N|pid|J<X>|FT#cancel#<reason>, then asyncTraceForTrackEnd: H|pid|J<X>|cookie.
 *       15+ adds Trace.instant(name + "#UIThread") (I|pid|J<X>#UIThread) on the UI thread.
 *   Perfetto SDK (15+ when android.os.Trace goes to Perfetto, and Perfetto's own tests): the
 *       same calls as TrackEvent slices on a process track named J<X>; replay/pftrackevent.c
 *       restates them as the 14+ markers above, so the three transports give one record.
 * Perfetto reads them the same way (google/perfetto src/trace_processor/perfetto_sql/stdlib/
 * android/cujs/base.sql @ ec5d16b1: a slice named J<*> on a process track; the state from
 * "*FT#cancel*" / "*FT#end*" markers, on the CUJ's track or named J<X>#FT#... for 13).
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
	char track[AT_NAME_MAX]; /* the session, "J<CUJ>", as written */
	bool cut;		 /* the session was longer: track is what fitted */
	int64_t cookie;		 /* of its begin, which its end repeats */
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

/* Whether s is a FrameTracker session name or starts with one: "J<" first. Inline: asked of
 * every B marker's name. */
static inline bool cujs__maybe(struct strv s)
{
	return s.len >= 3 && s.p[0] == 'J' && s.p[1] == '<';
}

/* Whether m is FrameTracker's (see above): a CUJ's begin (S, or G whose name is its track), its
 * end (F, H) or one of its FT# events (N on its track, 13's B named J<X>#FT#...). */
bool cujs__is_cuj(const struct marker *m);

/*
 * The CUJ marker m of pid (process) at ts_ns on tid; frame_ns: the start of the doFrame open on
 * tid then (0: none). A begin opens a CUJ (FrameTracker begins in a Choreographer callback: the
 * doFrame it was written in is its first frame), with the animators running in the process
 * (running) as its first; a second begin of an open CUJ's session restarts it (the first is
 * closing, unended). An end marks the open CUJ of its session (the cookie decides between two)
 * as ending: it goes out once a frame that began at or after its end does (cujs__frame), or at
 * cujs__flush. An FT# event sets its CUJ's begin vsync (FT#beginVsync), its reason (FT#end) or
 * cancels it (FT#cancel); FrameTracker writes them before its end, the newest CUJ of the
 * session not yet out takes them.
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

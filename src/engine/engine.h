/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Lifecycle engine: animator state machines, frames and phases, driven by timestamped
 * markers. Pure: no I/O, no clock; everything it learns goes to the sink.
 */
#ifndef ANIMTRACE_ENGINE_H
#define ANIMTRACE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/marker.h"
#include "model/model.h"

struct engine;
struct ft_frame;

struct engine_opts {
	/* S and F closer than this are "end() before it ran" (force_end, inferred). */
	uint64_t instant_ns; /* 0 -> 1 ms */
};

/* Returns NULL and sets errno on allocation failure. The sink must outlive the engine. */
struct engine *engine__new(const struct engine_opts *opts, struct sink sink);

/*
 * Feeds one parsed marker written by thread tid of process pid at ts_ns. process is
 * the process name as known to the caller (may be NULL or ""), copied when needed.
 * Timestamps must not go backwards per thread.
 */
void engine__marker(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
		    const char *process, const struct marker *m);

/*
 * A SurfaceFlinger FrameTimeline frame (Perfetto captures), given in start order merged with
 * the markers, so before the doFrame of its token: expected surface frames give that frame
 * its vsync and deadline (and the process its vsync grid), actual ones SurfaceFlinger's
 * verdict on it. Other kinds are ignored. Returns 0, -EINVAL (no pid) or -ENOMEM.
 */
int engine__timeline(struct engine *e, const struct ft_frame *f);

/*
 * Process pid (named process: NULL or "" when unknown) toggled a VSYNC-app counter at ts_ns,
 * when it is not traced: one vsync of the display when it is SurfaceFlinger (engine/trust.h),
 * else counted and said once. The markers of a traced process (C|pid|VSYNC-app|..) go the
 * same way through engine__marker.
 */
void engine__display_vsync(struct engine *e, uint64_t ts_ns, uint32_t pid, const char *process);

/*
 * The caller (live: its uid against its package's) found pid, named name (NULL: as known), not
 * to be what its name says, for the reason why: it is marked (a note once, its summary line),
 * and its VSYNC-app counter is never the display's.
 */
void engine__process_impostor(struct engine *e, uint32_t pid, const char *name, const char *why);

/*
 * A RenderNode setter of thread tid changed prop of node to value. node_name may be NULL
 * (the engine then names it "RenderNode@<low 16 bits>"). Changes are grouped per frame of
 * the process's UI thread and sent as frame_props when the frame ends; changes outside a
 * doFrame are sent flagged (in_frame false). An animator whose name carries prop and that
 * runs in the same process while the node changes gets that node as its (inferred) target.
 * prev, when not NULL, is the value the property had before this change (read by the probe
 * at the setter's entry): it is where an animation that starts here started from.
 */
void engine__prop(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid, uint64_t node,
		  const char *node_name, enum view_prop prop, float value, const float *prev);

/*
 * The node at this address of pid has unique id uid (read by the probe): another id than
 * before means another node, whose name is unknown until given and whose values are no
 * "from". Call before the engine__prop of the same write.
 */
void engine__node_id(struct engine *e, uint32_t pid, uint64_t node, uint64_t uid);

/*
 * Replay: what the capture reader read and could not use (copied), for the summary's input
 * object; call before finish. Live never calls it: its summary has no input object.
 */
void engine__input(struct engine *e, const struct input_stats *in);

/* How the live side named the nodes it passed (for the summary); call before finish. */
void engine__node_names(struct engine *e, const struct node_name_stats *st);

/* ValueAnimator methods seen by the ART entry probes. */
enum art_call {
	ART_CALL_START = 0,
	ART_CALL_CANCEL,
	ART_CALL_END,
};

/*
 * ART probes were attached to pid's ValueAnimator.cancel and .end at since_ns: an F
 * written from then on that neither of them caused is a natural completion
 * (reason_source "art"); earlier ones keep inferred reasons.
 */
void engine__art_active(struct engine *e, uint32_t pid, uint64_t since_ns);

/*
 * Thread tid entered a ValueAnimator method on the animator whose identity hash is cookie
 * (has_cookie false: the lock word held no hash, the call cannot be matched). A cancel or
 * end followed on the same thread by the F of the same cookie gives that F its reason.
 */
void engine__art_call(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
		      enum art_call call, bool has_cookie, uint32_t cookie);

/*
 * engine__art_call with the Java callers of the call (--stacks), innermost first, without
 * android.animation.* frames (an auto-cancel's and AnimatorSet's kept): a start's become
 * anim.start_stack of the S of the same cookie that follows on the same thread (AnimatorSet's
 * frames say who started it, engine/starter.h, and are then left out); a cancel's or end's,
 * end_stack of the F it causes.
 */
void engine__art_call_stack(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			    enum art_call call, bool has_cookie, uint32_t cookie,
			    const char (*stack)[AT_FRAME_NAME], int n_stack);

/*
 * The ValueAnimator.start probe read the configuration c of the animator whose identity hash
 * is cookie (live: the heap reader): the S of that cookie that follows in pid carries it as
 * anim.config (also after a start delay); an F without S takes it along. Call after the
 * engine__art_call of the same start().
 */
void engine__anim_config(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t cookie,
			 const struct anim_config *c);

/*
 * --refresh probes were attached to pid: its frames, animators and the summary say how many
 * redraws they saw (zero included).
 */
void engine__refresh_active(struct engine *e, uint32_t pid);

/*
 * node of pid re-recorded its display list (node_name may be NULL, as for engine__prop).
 * It counts for the doFrame in progress, else for the next one.
 */
void engine__redraw(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid, uint64_t node,
		    const char *node_name);

/*
 * Thread tid of pid asked for the next vsync (Choreographer -> nativeScheduleVsync), with
 * its Java callers (--stacks, innermost first; n_stack 0 when unknown). Counted like a redraw.
 */
void engine__vsync_request(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			   const char (*stack)[AT_FRAME_NAME], int n_stack);

/*
 * Thread tid entered ValueAnimator.animateValue or ObjectAnimator.animateValue on the
 * animator whose identity hash is cookie: the property writes of tid from now on are that
 * animator's (exact targets), until its next animateValue entry, the end of the enclosing
 * "animation" phase slice, or, entered outside one, tid's next marker. has_cookie false:
 * the writes that follow are attributed to nobody (and inferred as before).
 */
void engine__art_animate(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			 bool has_cookie, uint32_t cookie);

/* DynamicAnimation methods seen by the ART entry probes (engine/dynanims.h). */
enum dyn_call {
	DYN_CALL_START = 0,    /* DynamicAnimation.start */
	DYN_CALL_SPRING_START, /* SpringAnimation.start: the object is a spring */
	DYN_CALL_CANCEL,       /* DynamicAnimation.cancel */
	DYN_CALL_SKIP,	       /* SpringAnimation.skipToEnd */
	DYN_CALL_END,	       /* endAnimationInternal(canceled): arg = canceled */
	DYN_CALL_FRAME,	       /* doAnimationFrame(frameTime): arg = frameTime in ms */
};

/*
 * Thread tid of pid entered call on the DynamicAnimation obj (its heap reference) with arg
 * (see enum dyn_call) and its Java callers (--stacks; n_stack 0 when unknown). Its runs go
 * out as dyn_start and dyn_end; the writes of tid inside its doAnimationFrame are its (exact).
 */
void engine__dyn_call(struct engine *e, uint64_t ts_ns, uint32_t pid, uint32_t tid,
		      enum dyn_call call, uint64_t obj, uint64_t arg,
		      const char (*stack)[AT_FRAME_NAME], int n_stack);

/*
 * The hook of the heap reader (live/heap, in progress elsewhere): what it read of obj's
 * SpringForce/DragForce and state, given after its start(); its dyn_end carries it beside the
 * fit. Not called today.
 */
void engine__dyn_config(struct engine *e, uint32_t pid, uint64_t obj, const struct dyn_config *c);

/* pid is traced as name (live knows it from /proc before the process writes a marker). */
void engine__process_name(struct engine *e, uint32_t pid, const char *name);

/* Counts a payload that failed marker_parse (for the summary). */
void engine__rejected(struct engine *e);

/* The process exited: its running animators end with END_PROCESS_EXIT. */
void engine__process_exit(struct engine *e, uint64_t ts_ns, uint32_t pid);

/* Adds what the caller's own tables evicted (the replay's thread names) to the summary's. */
void engine__evicted(struct engine *e, const struct evictions *add);

/*
 * Ends the session at ts_ns: pending frames are flushed, running animators are reported
 * as END_RUNNING_AT_EXIT in the summary (not as animator_end), and the summary is sent.
 * drops/truncated are copied into the summary. Call once.
 */
void engine__finish(struct engine *e, uint64_t ts_ns, uint64_t drops, uint64_t truncated);

/* 0, or the first -errno a sink returned (the engine sends nothing more after it). */
int engine__sink_error(const struct engine *e);

void engine__free(struct engine *e);

#endif

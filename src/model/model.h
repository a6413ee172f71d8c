/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the lifecycle engine reports and sinks render: animators, frames, the summary.
 * Plain data; the engine owns every pointer and keeps it valid for the duration of the
 * sink call only (a sink that needs something later copies it).
 *
 * src_ts_ns, in the records that have it: the timestamp of the input event (the engine__*
 * call) that caused the record, which the engine stamps on it on its way to the sinks
 * (--annotate measures its delay from it). Copies kept for the summary hold a stale one.
 */
#ifndef ANIMTRACE_MODEL_H
#define ANIMTRACE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animtrace/props.h"
#include "model/fit.h"
#include "model/input.h"

#define AT_NAME_MAX 128
#define AT_PROC_MAX 64
#define AT_MAX_PROPS 8
#define AT_STACK_FRAMES 16 /* Java callers kept per call stack (--stacks) */
#define AT_FRAME_NAME 96   /* also the unwinder's frame names (unwind.h) */

enum anim_kind {
	ANIM_VALUE = 0,	 /* "animator": a ValueAnimator (or subclass without a property) */
	ANIM_OBJECT = 1, /* "animator:<props>": ObjectAnimator */
};

/* View properties whose RenderNode setters are probed (props.h; order = enum at_prop). */
enum view_prop {
#define PROP_ENUM(e, b, j, json, sh) PROP_##e,
	AT_PROPS(PROP_ENUM)
#undef PROP_ENUM
		PROP_COUNT,
};

/*
 * The per-frame values of one property of an animator's target: the last value of each
 * frame, evenly downsampled once more frames ran than there are points (each point is then
 * the last value of `stride` consecutive frames, so the final value is always the last point).
 */
#define AT_SERIES_MAX 64
struct prop_series {
	uint16_t n;	    /* points in v */
	uint32_t stride;    /* frames per point: 1, 2, 4, ... (0 before the first point) */
	uint32_t frames;    /* frames that changed the property */
	uint64_t frame_key; /* engine-private: which frame the last point belongs to */
	/* bit i: in a frame of point i another writer (an animator or code) also wrote this
	 * property of this node; shared_frames counts those frames (known only with the
	 * animateValue probes: a write outside their windows is no animator's) */
	uint64_t shared;
	uint32_t shared_frames;
	uint64_t shared_key; /* engine-private: the last frame counted in shared_frames */
	float v[AT_SERIES_MAX];
	/* the doFrame start of the frame of v[i] (its bucket's last), minus the animator's
	 * start_ns in us: negative when the frame began before the S marker */
	int32_t t_us[AT_SERIES_MAX];
};

/* A property an animator moved on its target view: its first and last written value. */
struct prop_change {
	enum view_prop prop;
	float from, to;
};

/*
 * One property an animator wrote on one node (exact attribution, animateValue probes):
 * from: the animator's first written value; to: its last written value;
 * sets: its writes that changed the value; series: its per-frame values.
 */
#define AT_TARGET_PROPS 4
struct target_prop {
	enum view_prop prop;
	float from, to;
	uint32_t sets;
	struct prop_series series;
};

/* A node an animator wrote, with what it wrote there (memory: see CAP_ANIM_TARGETS). */
struct anim_target {
	uint64_t node;
	char node_name[64];	 /* see node_props.node_name */
	char node_class[64];	 /* the View class when the engine knows it, else "" (JSON null) */
	uint32_t writes;	 /* every write of the animator to this node */
	uint32_t props_left_out; /* writes to properties beyond AT_TARGET_PROPS */
	int n_props;
	struct target_prop props[AT_TARGET_PROPS];
};

/* What started an animator, read from its start stack (engine/starter.h). */
enum anim_starter {
	STARTER_UNKNOWN = 0, /* no start stack (--stacks off), or no framework starter in it */
	STARTER_SET,	     /* an AnimatorSet (its start, its frame callback or a listener) */
	STARTER_VPA,	     /* ViewPropertyAnimator.startAnimation */
};

#define AT_FITS 4 /* nodes listed that fit an inferred target (struct anim) */

enum end_reason {
	END_NONE = 0,		 /* still running */
	END_COMPLETE,		 /* ran to its end */
	END_CANCEL,		 /* cancel() */
	END_FORCE_END,		 /* end() */
	END_ENDED,		 /* F marker: complete or cancel, markers cannot tell which */
	END_CANCEL_BEFORE_START, /* F without S: cancel() during the start delay */
	END_PROCESS_EXIT,	 /* the process died while it ran */
	END_RUNNING_AT_EXIT,	 /* still running when animtrace stopped */
	/* F in the frame of its S, ART probes off: cancel() or end(), markers cannot tell which
	 * (end() of an animator that never ran writes S and F back to back) */
	END_FIRST_FRAME,
};

enum reason_source {
	REASON_INFERRED = 0, /* from markers and timing alone */
	REASON_ART = 1,	     /* from ValueAnimator.cancel/end probes */
};

/*
 * What the code asked of an animator (issue #24), read from its ValueAnimator object at its
 * start() by the live heap reader: known is false when nothing was read (a replay, or a
 * reader disabled for the process). Each value has its own "has" so the sinks can print null
 * where the reader could not tell one value but could tell the others.
 */
#define AT_CONFIG_VALUES 4
enum config_type {
	CONFIG_FLOAT = 0, /* FloatKeyframe, or a property of a float setter */
	CONFIG_INT,	  /* IntKeyframe */
	CONFIG_ARGB,	  /* IntKeyframe animated by an ArgbEvaluator: a colour, 0xAARRGGBB */
};

/* ValueAnimator.RESTART (1) and REVERSE (2) (frameworks/base core/java/android/animation/
 * ValueAnimator.java: RESTART = 1, REVERSE = 2, INFINITE = -1). */
enum repeat_mode {
	REPEAT_MODE_UNKNOWN = 0,
	REPEAT_RESTART = 1,
	REPEAT_REVERSE = 2,
};

#define AT_REPEAT_INFINITE (-1) /* ValueAnimator.INFINITE */

/* One PropertyValuesHolder: its property and its first and last keyframes' values. */
struct config_value {
	char property[32]; /* "" when the holder names none (ValueAnimator.ofFloat) */
	enum config_type type;
	bool has_range;	 /* from and to are known */
	double from, to; /* exact for float, int and ARGB */
};

struct anim_config {
	bool known;
	bool has_duration, has_start_delay, has_repeat;
	int64_t duration_ms;	/* mDuration: unscaled, as the code set it */
	int64_t start_delay_ms; /* mStartDelay */
	int32_t repeat_count;	/* mRepeatCount: AT_REPEAT_INFINITE or 0.. */
	enum repeat_mode repeat_mode;
	char interpolator[64]; /* "AccelerateDecelerate", "PathInterpolator"; "" unknown */
	bool has_values;
	int n_values;
	struct config_value values[AT_CONFIG_VALUES];
	uint32_t values_left_out; /* holders beyond AT_CONFIG_VALUES */
	char target_class[128];	  /* ObjectAnimator's target's class, binary name; "" unknown */
	uint64_t target_node;	  /* its View's native RenderNode; 0 unknown */
};

struct anim {
	uint64_t id;		/* the marker cookie (identityHashCode) */
	char name[AT_NAME_MAX]; /* "animator" or "animator:alpha" */
	enum anim_kind kind;
	int n_props;
	char props[AT_MAX_PROPS][32]; /* from the name: "animator:a,b" -> {a, b} */
	uint32_t pid;		      /* tgid */
	uint32_t start_tid, end_tid;
	char process[AT_PROC_MAX];
	uint64_t start_ns; /* 0 when no S was seen (cancel before start) */
	uint64_t end_ns;   /* 0 while running */
	uint32_t frames;   /* Choreographer#doFrame slices overlapping [start, end] */
	uint32_t restarts; /* times this cookie started before (cookie reuse) */
	enum end_reason reason;
	enum reason_source reason_source;
	/* Set at the end when property probes ran: the view the animator moved. */
	uint64_t target_node; /* RenderNode pointer; 0 when unknown */
	char target_name[64]; /* see node_props.node_name */
	bool target_inferred; /* linked by property and thread, not by identity */
	bool target_exact;    /* the target came from the animateValue probes */
	/*
	 * An inferred target is the first node seen changing a property the animator names; the
	 * nodes that fit (each changed such a property while it ran, and no animator was exactly
	 * linked to it) are listed here, first seen first, with the frames each changed in;
	 * n_fits > 1: the target is one of several. fits_more: further nodes fit, not listed.
	 */
	int n_fits;
	struct anim_fit {
		uint64_t node;
		char node_name[64];
		uint32_t frames;
		uint64_t frame_key; /* engine-private: the last frame counted */
	} fits[AT_FITS];
	bool fits_more;
	int n_changes;
	struct prop_change changes[AT_MAX_PROPS];
	struct prop_series series[AT_MAX_PROPS]; /* series[i]: the values of changes[i] */
	/*
	 * --stacks: Java callers ("com.foo.Bar.baz"), innermost first, android.animation.*
	 * frames already left out but for an auto-cancel's (AnimationHandler.autoCancelBasedOn,
	 * ObjectAnimator.start: a replacement's evidence). start_stack: of the ValueAnimator.start() whose S this is;
	 * end_stack: of the cancel()/end() that caused the F. n_* = 0 when unknown.
	 */
	int n_start_stack;
	char start_stack[AT_STACK_FRAMES][AT_FRAME_NAME];
	int n_end_stack;
	char end_stack[AT_STACK_FRAMES][AT_FRAME_NAME];
	/*
	 * Who started it (from start_stack, whose AnimatorSet frames are then left out):
	 * STARTER_SET: set_caller is the Java caller of AnimatorSet.start, "" when unknown (a
	 * child the set started in a later frame, while more than one set it could belong to ran:
	 * sets_open says how many, 0 when none).
	 */
	enum anim_starter starter;
	char set_caller[AT_FRAME_NAME];
	uint32_t sets_open;
	/*
	 * Smoothness over its frames: vsyncs missed between two of its frames (after its
	 * first), its doFrames longer than the refresh period, the longest of its doFrames and
	 * the longest start-to-start interval between two of its consecutive frames.
	 */
	uint32_t frames_dropped, janky_frames;
	uint64_t worst_frame_ns, worst_gap_ns;
	/* --refresh (refresh_traced): its frames in which its target re-recorded its display
	 * list. A property animation should redraw nothing; one that does costs a redraw. */
	bool refresh_traced;
	uint32_t target_redraws;
	/* At the end, when its values were seen: fit_interpolator's name ("FastOutSlowIn",
	 * "custom") and rms of the first property that moved over 3 or more frames; NULL when
	 * none did. */
	const char *interpolator;
	double interp_rms;
	/*
	 * Exact attribution: every node it wrote, most writes first (targets[0] is the target
	 * above); valid during the sink call only (NULL in the summary's copies). targets_left_out
	 * counts the writes to nodes beyond CAP_ANIM_TARGETS.
	 */
	int n_targets;
	const struct anim_target *targets;
	uint32_t targets_left_out;
	/* From the ValueAnimator.start probe to its S marker: the start delay applied. */
	bool has_start_delay;
	uint64_t start_delay_ns;
	/* What start() was asked to do (config.known false when not read). */
	struct anim_config config;
	uint64_t src_ts_ns;
};

/*
 * An animation no animator marker explains (SpringAnimation, FlingAnimation, Folme,
 * Compose, a hand-written Choreographer loop), found in the per-frame property values:
 * the properties of one node that changed on consecutive frames together. See
 * src/segment.h for how runs are found and grouped.
 */
struct animation_prop {
	enum view_prop prop;
	float from, to;	 /* the value before its first change, its last value */
	uint32_t frames; /* frames that changed it */
	bool fitted;	 /* fit is set (animation_end only) */
	struct fit_result fit;
};

struct animation {
	uint64_t id;	    /* 1, 2, ... in the order they were recognised */
	bool ended;	    /* false in animation_start: kind is not known yet */
	enum fit_kind kind; /* animation_end: the kind of its first property; start: FIT_OTHER */
	enum end_reason reason; /* END_COMPLETE (settled), END_PROCESS_EXIT, END_RUNNING_AT_EXIT */
	uint32_t pid, tid;	/* tid: the UI thread of its frames */
	char process[AT_PROC_MAX];
	uint64_t node;
	char node_name[64];
	int n_props;
	struct animation_prop props[AT_MAX_PROPS];
	uint64_t start_ns;    /* the doFrame start of its first frame (the one that wrote the
			       * start value, when that was the frame right before the first change) */
	uint64_t duration_ns; /* to the doFrame start of its last change (start: so far) */
	uint32_t frames;      /* frames from the first to the last change, those without one too */
	/* smoothness over those frames, as for an animator */
	uint32_t frames_dropped, janky_frames;
	uint64_t worst_frame_ns, worst_gap_ns;
	uint64_t src_ts_ns;
};

/*
 * A SpringAnimation or FlingAnimation (DynamicAnimation: the framework's copy or androidx's)
 * followed by the ART probes on its methods (engine/dynanims.h): no marker is written for it.
 */
enum dyn_kind {
	DYN_UNKNOWN = 0, /* another DynamicAnimation subclass, or the kind is not known yet */
	DYN_SPRING,	 /* SpringAnimation.start was entered for it */
	DYN_FLING,	 /* not a spring, and its values fit FlingAnimation's DragForce */
};

/*
 * What the heap says of its configuration when read (the heap reader's: SpringForce's natural
 * frequency, damping ratio and final position; DragForce's friction; mValue, mVelocity,
 * mMinVisibleChange). has_* false: not read (no heap reader, or it failed).
 */
/* FlingAnimation.DragForce.DEFAULT_FRICTION (float -4.2f): mFriction = it * the friction scalar
 * that setFriction takes and the fit reports */
#define DYN_DEFAULT_FRICTION (-4.2f)

struct dyn_config {
	bool has_spring, has_fling, has_state;
	bool has_value; /* value known: setStartValue gave it (else start() reads the property) */
	double stiffness, damping_ratio, final_position; /* SpringForce */
	double friction;				 /* DragForce (-4.2 * scalar) */
	double value, velocity, min_visible_change;	 /* at start() */
};

struct dyn_anim {
	uint64_t id; /* 1, 2, ... per session, in start order */
	enum dyn_kind kind;
	bool ended;		/* false in dyn_start */
	enum end_reason reason; /* END_CANCEL, END_COMPLETE, END_FORCE_END (skipToEnd),
				 * END_PROCESS_EXIT, END_RUNNING_AT_EXIT */
	uint32_t pid, tid;	/* tid: the thread of start() */
	char process[AT_PROC_MAX];
	uint64_t obj;	   /* the DynamicAnimation's heap reference (its `this`) */
	uint64_t start_ns; /* start() entered */
	uint64_t end_ns;   /* endAnimationInternal entered (dyn_end) */
	/* no endAnimationInternal seen (not compiled): ended after its frames stopped, at its
	 * last doAnimationFrame (or its cancel()) */
	bool end_inferred;
	uint64_t first_frame_ns, last_frame_ns; /* its doAnimationFrame times (ms -> ns) */
	uint32_t frames;			/* doAnimationFrame calls */
	/* its target: the first property it wrote inside its doAnimationFrame */
	bool has_target;
	uint64_t node;
	char node_name[64];
	enum view_prop prop;
	float from, to; /* its first and last values written */
	bool fitted;	/* fit is set (dyn_end, 3+ frames) */
	struct fit_result fit;
	struct dyn_config config;
	uint64_t replaces; /* id of the run cancelled by the same caller just before (0: none) */
	int n_start_stack; /* start()'s Java callers, DynamicAnimation frames left out */
	char start_stack[AT_STACK_FRAMES][AT_FRAME_NAME];
	int n_end_stack; /* cancel()'s or skipToEnd()'s */
	char end_stack[AT_STACK_FRAMES][AT_FRAME_NAME];
	uint64_t src_ts_ns;
};

/*
 * An answer about animators or unmarked animations, not only data: which problem it is, the
 * ids it concerns and one sentence (src/engine/findings.h defines each kind and its numbers).
 */
enum finding_kind {
	FINDING_FLICKER = 0, /* cancelled or end()ed before its second frame with values */
	FINDING_REPLACED,    /* cancelled by the start of another on the same node and property */
	FINDING_CONFLICT,    /* one property of one node, several writers in one frame */
	FINDING_SLOW_SPRING, /* a spring that settles slowly or is set up to oscillate long */
	FINDING_REPEATING,   /* running at the end, its values repeat: an INFINITE repeat */
	FINDING_STALLED,     /* running at the end, its values no longer change: paused, leaked */
	FINDING_KIND_COUNT,
};

#define AT_FINDING_IDS 4
#define AT_FINDING_TEXT 320
struct finding {
	enum finding_kind kind;
	uint32_t pid;
	char process[AT_PROC_MAX];
	uint64_t ts_ns; /* when it became known */
	bool unmarked;	/* ids are unmarked animations' (struct animation), not animators' */
	int n_ids;
	uint64_t ids[AT_FINDING_IDS]; /* replaced: the old one, then the new one */
	uint64_t node;		      /* 0 when unknown */
	char node_name[64];	      /* as node_props.node_name; "" when unknown */
	bool has_prop;
	enum view_prop prop;
	char text[AT_FINDING_TEXT]; /* one sentence */
	uint64_t src_ts_ns;
};

/* A RenderNode that re-recorded its display list (--refresh). */
struct redraw_node {
	uint64_t node;
	char node_name[64]; /* as node_props.node_name */
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

/*
 * SurfaceFlinger's FrameTimeline verdict on the frame of one token (Perfetto captures): its
 * actual surface frame's jank bits (common/frametimeline.h: Perfetto's names) and present.
 */
#define AT_LAYER_MAX 96
struct frame_timeline {
	bool judged;	    /* FrameTimeline had an actual surface frame for its token */
	uint8_t present;    /* enum ft_present */
	uint32_t jank_type; /* enum ft_jank bits */
	char layer[AT_LAYER_MAX];
};

struct frame {
	uint32_t pid, tid; /* tid: the UI thread that ran Choreographer#doFrame */
	char process[AT_PROC_MAX];
	uint64_t seq;	  /* 1, 2, ... per process */
	int64_t vsync_id; /* -1 when the marker had none (Android 11 and earlier) */
	uint64_t start_ns, dur_ns;
	uint64_t phase_ns[PHASE_COUNT]; /* 0 when the phase did not run */
	int n_anims;			/* animators running during this frame */
	const uint64_t *anim_ids;
	uint64_t budget_ns; /* the display period when the frame began (engine/period.h) */
	/* the vsync it answered (FrameTimeline's expected start for its token, else the vsync
	 * grid's latest point at or before start_ns), start_ns - vsync_ns, and the time it had
	 * to end by (vsync_ns + budget_ns, or FrameTimeline's expected end) */
	uint64_t vsync_ns, start_delay_ns, deadline_ns;
	bool janky; /* it ended (doFrame or its draw, the later) after deadline_ns */
	/* vsyncs missed since the previous frame of its thread, counted only when an animator
	 * ran across the gap (an idle gap counts nothing) */
	uint32_t dropped_before;
	/* --refresh (refresh true): the Views that re-recorded in this frame (or since the
	 * previous frame ended), each once, and the vsync requests made in that time */
	bool refresh;
	int n_redraws;
	const struct redraw_node *redraws;
	uint32_t redraws_dropped; /* distinct nodes beyond the per-frame cap */
	uint32_t vsync_requests;
	struct frame_timeline timeline; /* judged false when FrameTimeline did not judge it */
	uint64_t src_ts_ns;
};

/*
 * Slices of one thread, outermost first: a slice, then its longest child, then that child's
 * longest child... ("traversal 45.1 ms > RV OnBindView 41.0 ms > inflate 30.2 ms").
 */
#define AT_CHAIN_MAX 5
#define AT_SLICE_NAME 48
struct slice_chain {
	int n;
	struct {
		char name[AT_SLICE_NAME];
		uint64_t dur_ns;
	} s[AT_CHAIN_MAX];
};

enum jank_kind {
	JANK_LATE = 0, /* a doFrame longer than the refresh period */
	JANK_DROPPED,  /* vsyncs missed before a frame while an animator ran */
	JANK_BLOCK,    /* a UI-thread slice longer than the period while an animator ran */
};

/* Why an animation stuttered: one late frame, one gap or one long UI-thread slice. */
struct jank {
	enum jank_kind kind;
	uint32_t pid, tid; /* tid: the UI thread */
	char process[AT_PROC_MAX];
	uint64_t frame_seq;   /* the late frame, the frame after the gap; 0 for a block */
	int64_t vsync_id;     /* -1 when none */
	uint64_t ts_ns;	      /* start of the late frame, the gap or the block */
	uint64_t duration_ns; /* of the late frame, the gap or the block */
	uint64_t budget_ns;
	uint64_t vsync_ns, start_delay_ns, deadline_ns; /* of the frame (struct frame); 0: block */
	uint32_t dropped_before;
	int n_anims; /* the animators it hit */
	const uint64_t *anim_ids;
	/* UI thread: the doFrame (late), the longest slice in the gap, or the block, with its
	 * longest descendants; RenderThread: its draw of the frame or its longest slice in the
	 * gap (n 0 when none) */
	struct slice_chain ui, render;
	/* late: the longest slice of its thread between its vsync and its start (n 0: none) */
	struct slice_chain start;
	struct frame_timeline timeline; /* late: FrameTimeline's verdict on the frame */
	uint64_t src_ts_ns;
};

/* Who made one write of a property (enum prop_writer). */
enum prop_writer {
	WRITER_UNKNOWN = 0, /* no animateValue probe has named a writer in this process */
	WRITER_ANIMATOR,    /* inside an animator's animateValue (prop_write.anim) */
	WRITER_CODE,	    /* outside every animateValue while the probes watch: no animator */
	WRITER_DYNAMIC,	    /* inside a DynamicAnimation's doAnimationFrame (prop_write.anim: the
			     * run's id, as dyn_start/dyn_end give it) */
};

/* One write of a property in a frame: its value and its writer. */
struct prop_write {
	float value;
	uint8_t writer; /* enum prop_writer */
	uint64_t anim;	/* WRITER_ANIMATOR: the animator's id (cookie); WRITER_DYNAMIC: the
			      * DynamicAnimation run's id */
};

/*
 * Writes kept per property per frame: the first AT_PROP_WRITES - 1 and the latest (the last
 * slot follows the last write); writes_left_out counts those in between that were not kept.
 */
#define AT_PROP_WRITES 4

/* One node's property values in one frame: last value wins, sets counts the writes. */
struct node_props {
	uint64_t node;
	char node_name[64]; /* the View class, or "RenderNode@<low 16 bits>" */
	uint32_t set_mask;  /* bit per enum view_prop that changed in this frame */
	float values[PROP_COUNT];
	uint16_t sets[PROP_COUNT]; /* > 1: the property was written more than once ("fighting") */
	uint32_t writer_mask;	   /* bit per prop: writer[] names the animator of its last write */
	uint64_t writer[PROP_COUNT]; /* that animator's id (cookie), from the animateValue probes */
	/* each write in order, with its writer (see AT_PROP_WRITES) */
	uint8_t n_writes[PROP_COUNT];
	uint16_t writes_left_out[PROP_COUNT];
	struct prop_write writes[PROP_COUNT][AT_PROP_WRITES];
};

/* The property changes of one process in one frame (or outside any frame). */
struct frame_props {
	uint32_t pid, tid;
	char process[AT_PROC_MAX];
	uint64_t ts_ns;	    /* the frame's start, or the first change outside a frame */
	uint64_t frame_seq; /* 0 when the changes happened outside any doFrame */
	int64_t vsync_id;   /* -1 when none */
	bool in_frame;
	int n_nodes;
	const struct node_props *nodes;
	uint64_t src_ts_ns;
};

/*
 * A process that re-recorded Views or requested frames on REFRESH_STORM_FRAMES or more
 * consecutive frames with no animator running (reported once, when it stops).
 */
#define REFRESH_STORM_FRAMES 30
struct refresh_storm {
	uint32_t pid;
	char process[AT_PROC_MAX];
	uint64_t node; /* the View redrawn in most of its frames; 0: only requests */
	char node_name[64];
	uint32_t node_frames; /* frames in which node re-recorded */
	uint32_t n_views;     /* distinct Views redrawn during the storm */
	uint32_t frames;      /* consecutive frames of the storm */
	uint32_t vsync_requests;
	uint64_t first_ns;    /* start of its first frame */
	uint64_t duration_ns; /* to the end of its last frame */
	int n_stack;	      /* a vsync request's Java callers (--stacks), innermost first */
	char stack[AT_STACK_FRAMES][AT_FRAME_NAME];
	uint64_t src_ts_ns;
};

/*
 * A CUJ ("critical user journey"): an interaction SystemUI or Launcher measures with
 * InteractionJankMonitor. Its FrameTracker names it "J<" + the CUJ's name + ">" (with "::tag"
 * before the ">" when tagged) and writes it, by Android version (engine/cujs.h), as an async
 * section S/F (12, 13), an async track slice G/H (14+) or a Perfetto TrackEvent slice; name is
 * what stands between the "J<" and the ">". Reported when it ended (after the frames that began
 * before its end went out), or at the process's exit or the end of the session (ended false).
 */
#define AT_CUJ_ANIMS 32 /* animator ids listed per CUJ; more are counted in anims_left_out */
struct cuj {
	uint32_t pid, tid; /* tid: the thread that wrote its begin */
	char process[AT_PROC_MAX];
	char name[AT_NAME_MAX]; /* the CUJ's name: SHADE_EXPAND_COLLAPSE for J<SHADE_EXPAND_COLLAPSE> */
	/* FrameTracker's begin vsync id: its FT#beginVsync instant (14+), else the cookie of its
	 * begin ((int) mBeginVsyncId, 12+); 0 when neither says it */
	int64_t begin_vsync;
	uint64_t begin_ns;
	uint64_t end_ns; /* 0 when no end was seen */
	bool ended;
	/* FrameTracker said FT#cancel before its end (13+; 12 writes a cancel as an end) */
	bool cancelled;
	/* FrameTracker's reason (its FT#end or FT#cancel value: 0 normal, 1 surface destroyed,
	 * 16 cancelled, 17 not begun, 18 same vsync, 19 timeout); has_reason false when unsaid */
	bool has_reason;
	int32_t reason;
	/* the doFrames of its process from the one its begin was written in (FrameTracker begins
	 * in a Choreographer callback) to the last that began before end_ns, and what their
	 * frame records say: late (janky) ones and vsyncs missed before them (dropped_before) */
	uint32_t frames, janky_frames, frames_dropped;
	/* the animators (cookies) that ran inside it: running at its begin, started in it, or
	 * running in one of its frames; in the order first seen */
	int n_anims;
	const uint64_t *anim_ids;
	uint32_t anims_left_out;
	uint32_t animations; /* unmarked animations (struct animation) that ran inside it */
	uint64_t src_ts_ns;
};

/* A View by how many frames re-recorded it (--refresh), for the summary's ranking. */
#define AT_REDRAW_TOP 10
struct redraw_stat {
	uint32_t pid;
	uint64_t node;
	char node_name[64];
	uint64_t frames;
};

/*
 * A marker animtrace --annotate wrote, found again in a capture: G/H/N on track
 * AT_ANNOT_TRACK or a counter (C) whose name starts with AT_ANNOT_COUNTER. Counted and passed
 * on as what it is, never taken for an app's animator, slice or frame.
 */
#define AT_ANNOT_TRACK "animtrace"
#define AT_ANNOT_SEP "\xc2\xa6" /* U+00A6: the '|' of the seed's names (sinks/animname.h) */
#define AT_ANNOT_COUNTER "V" AT_ANNOT_SEP
/* The counters of builds before the seed's names (commit a3af2e2): "V <node> <prop>". */
#define AT_ANNOT_COUNTER_OLD "V "
#define AT_ANNOT_NAME 256
struct annotation {
	uint32_t pid, tid; /* pid: the process it annotates; tid: the thread that wrote it */
	char process[AT_PROC_MAX];
	uint64_t ts_ns;
	char type;		    /* 'G', 'H', 'N' or 'C' (enum marker_type) */
	char name[AT_NAME_MAX * 2]; /* "" for H */
	int64_t value;		    /* cookie (G, H), counter value (C), 0 (N) */
};

/* --annotate: time from the source event's timestamp to the write of its annotation. */
struct annot_delay {
	uint64_t count; /* annotations written */
	uint64_t p50_ns, p99_ns, max_ns;
};

struct name_stat {
	char name[AT_NAME_MAX];
	uint32_t count, cancels, running;
	uint64_t total_ns, max_ns, median_ns;
	uint64_t frames; /* doFrames its animators ran in (ended and still running) */
};

/*
 * What the engine's memory caps (src/caps.h) turned away. Each is a count of things that
 * are then missing from, or approximate in, the output; all zero on ordinary input:
 *   animators    running animators dropped unreported (too many open)
 *   anim_keys    animator keys forgotten (restart counts start afresh)
 *   names        animator lifecycles counted under "(other names)"
 *   durations    ended durations left out of the median (a reservoir sample is kept)
 *   processes    markers of processes beyond the process cap, ignored
 *   threads      threads forgotten: idle ones first, then the least recently used with their
 *                open slices (a later E of one is ignored)
 *   slices       B slices nested deeper than the cap, ignored with their E
 *   nodes        RenderNodes forgotten (their next change has no "from")
 *   node_frames  node-frames not reported (too many nodes in one frame)
 *   proc_stats   exited processes left out of the summary's per-process smoothness
 *   prop_runs    property runs not followed (too many at once): animations missed
 *   node_names   View class names forgotten (live only: read again when seen again)
 *   thread_names thread ids forgotten with their name and process (task columns, sched
 *                lines): a later marker of one has no process unless its line says
 *   pids         process ids forgotten from the sets of selected processes and of those
 *                that wrote markers (replay selection and its messages)
 *   prop_writes  writes of a property in a frame not listed with their writers (past
 *                AT_PROP_WRITES; their frame's node_props.writes_left_out counts them too)
 */
/* Unformatted: one X a line, which clang-format 14 folds into a staircase. */
/* clang-format off */
#define AT_EVICTIONS(X) \
	X(animators) \
	X(anim_keys) \
	X(names) \
	X(durations) \
	X(processes) \
	X(threads) \
	X(slices) \
	X(nodes) \
	X(node_frames) \
	X(proc_stats) \
	X(prop_runs) \
	X(node_names) \
	X(thread_names) \
	X(pids) \
	X(prop_writes)
/* clang-format on */

struct evictions {
#define AT_EVICTION_FIELD(f) uint64_t f;
	AT_EVICTIONS(AT_EVICTION_FIELD)
#undef AT_EVICTION_FIELD
};

/* Live only: how the View class names of RenderNodes were read (all zero in a replay). */
struct node_name_stats {
	bool live;	     /* a live capture filled it */
	uint64_t named;	     /* nodes whose class name was read */
	uint64_t no_offset;  /* nodes of a library whose mName offset is unknown */
	uint64_t unreadable; /* nodes whose name could not be read */
	uint64_t not_class;  /* nodes whose name is no Java simple class name */
	uint64_t gone;	     /* nodes freed and reallocated before their name was read */
	uint64_t evicted;    /* cache entries evicted (struct evictions.node_names) */
};

/* An animator that stuttered, for a process's ranking in the summary. */
#define AT_WORST_ANIMS 5
struct anim_smooth {
	uint64_t id;
	char name[AT_NAME_MAX];
	uint32_t frames, frames_dropped, janky_frames;
};

/* Smoothness of one process over the session. */
#define AT_IDENTITY_MAX 160

struct proc_stat {
	uint32_t pid;
	char process[AT_PROC_MAX];
	/* not what its name says (live: its uid is not its package's), and why; "" when not
	 * found so (engine/trust.h) */
	char impostor[AT_IDENTITY_MAX];
	uint64_t refresh_period_ns;
	const char *refresh_source; /* "vsync", "intervals", "assumed" */
	uint64_t frames, janky_frames, frames_dropped;
	/* frames FrameTimeline judged, where its verdict (App Deadline Missed, App Resynced
	 * Jitter, Unknown) and janky agree and disagree */
	uint64_t timeline_agree, timeline_disagree;
	int n_worst; /* its animators by dropped + late frames, most first */
	struct anim_smooth worst[AT_WORST_ANIMS];
};

/* --logcat / --logcat-out (sinks/logcat.h): what went to the Android log. Entries are
 * counted in messages: a box split into parts is one message per part. */
struct logcat_stats {
	uint64_t sent;	       /* messages logd's socket (or the text file) took */
	uint64_t split;	       /* entries over the payload limit, sent in numbered parts */
	uint64_t refused;      /* messages the socket refused (EAGAIN, ENOBUFS): lost */
	uint64_t failed;       /* messages lost to another error (last_errno) */
	int last_errno;	       /* of the last failed one */
	uint64_t rate_limited; /* per-frame entries left out by the rate limit (each second's
				* count is logged in their place) */
};

#define AT_UNMARKED_MAX 5
#define AT_FINDINGS_TOP 16

struct summary {
	uint64_t first_ns, last_ns;
	uint64_t anims_started, anims_ended;
	uint64_t frames;
	uint64_t markers, markers_rejected;
	int n_names;
	const struct name_stat *names; /* sorted by count, then name */
	int n_longest;
	const struct anim *longest; /* up to 5, longest first */
	int n_running;
	const struct anim *running; /* still running at finish */
	int n_longest_frames;
	const struct frame *longest_frames; /* up to 3, longest first; anim_ids NULL, n_anims 0 */
	/* Property writes in frames (not those outside any doFrame). */
	uint64_t prop_frames;	/* frames with at least one property change */
	uint64_t prop_sets;	/* setter calls that changed a value, in those frames */
	uint32_t prop_sets_max; /* the most in one frame */
	struct evictions evicted;
	/* Unmarked animations (struct animation) that ended, per enum fit_kind, and the
	 * DynamicAnimations the ART probes followed (struct dyn_anim: spring, fling; a kind
	 * not known is other). */
	uint64_t animations[FIT_OTHER + 1];
	int n_unmarked;
	const struct animation *unmarked; /* the longest, up to AT_UNMARKED_MAX, longest first */
	int n_procs;
	const struct proc_stat *procs; /* every process with frames, in first-seen order */
	bool refresh;		       /* --refresh probes ran in some process */
	int n_redraw_views;
	const struct redraw_stat *redraw_views; /* most redrawn first, up to AT_REDRAW_TOP */
	/* Filled by the caller (live capture), zero in replay. */
	struct node_name_stats node_names;
	/* Replay: what the capture reader could not use (engine__input); NULL live. */
	const struct input_stats *input;
	uint64_t drops;
	uint64_t truncated;
	uint64_t annotations;	/* markers recognised as annotations (struct annotation) */
	uint64_t vsync_foreign; /* VSYNC-app markers not SurfaceFlinger's: not used (trust.h) */
	uint64_t cujs;		/* CUJs reported (struct cuj) */
	/* findings of the session, ranked (most serious kind first, then in time order), up to
	 * AT_FINDINGS_TOP; findings_by_kind counts all of them */
	uint64_t findings_by_kind[FINDING_KIND_COUNT];
	int n_findings;
	const struct finding *findings;
	/* NULL unless --annotate wrote: set by its sink's summary_fill (sinks/annotate.h) */
	const struct annot_delay *annot_delay;
	/* NULL unless --logcat or --logcat-out: set by its sink's summary_fill */
	const struct logcat_stats *logcat;
};

/*
 * Renders engine output: AT_SINK_OPS(X) is X(callback, record type) for every callback of
 * struct sink_ops, and declares it. Code that must handle every callback (a fan-out) is
 * generated from this list, so a callback added here cannot be forgotten there.
 * Any callback may be NULL. Each returns 0, or a negative errno when its output failed (the
 * engine then stops calling the sink and keeps the error).
 */
#define AT_SINK_OPS(X)                                                                          \
	X(anim_start, const struct anim *)                                                      \
	X(anim_end, const struct anim *)                                                        \
	X(frame, const struct frame *)                                                          \
	X(summary, const struct summary *)                                                      \
	X(frame_props, const struct frame_props *)                                              \
	/* an informational line (e.g. "reasons are inferred") */                               \
	X(note, const char *)                                                                   \
	X(jank, const struct jank *)		       /* after the frame it concerns */        \
	X(refresh_storm, const struct refresh_storm *) /* once, when it ends */                 \
	/* an unmarked animation was recognised (after its third changing frame) / ended */     \
	X(animation_start, const struct animation *)                                            \
	X(animation_end, const struct animation *)                                              \
	X(annotation, const struct annotation *) /* animtrace's own marker */                   \
	/* an animator's first frame with exact writes: a->targets says what it moves so far */ \
	X(anim_target, const struct anim *)                                                     \
	/* a CUJ ended (or the process or session did while it ran) */                          \
	X(cuj, const struct cuj *)                                                              \
	/* right before summary, once: a sink adds what only it knows (annot_delay); the   \
	 * pointers it sets must stay valid until the sink is freed */    \
	X(summary_fill, struct summary *)                                                       \
	/* before the end of what it concerns (anim_end, animation_end; at the session's end \
	 * before the summary) */  \
	X(finding, const struct finding *)                                                      \
	/* a DynamicAnimation started (start() probe) / ended (endAnimationInternal, exit) */   \
	X(dyn_start, const struct dyn_anim *)                                                   \
	X(dyn_end, const struct dyn_anim *)

struct sink_ops {
#define AT_SINK_OP(cb, type) int (*cb)(void *ctx, type rec);
	AT_SINK_OPS(AT_SINK_OP)
#undef AT_SINK_OP
};

struct sink {
	const struct sink_ops *ops;
	void *ctx;
};

const char *dyn_kind_str(enum dyn_kind k);	     /* "Spring", "Fling", "Dyn" */
const char *end_reason_str(enum end_reason r);	     /* "complete", "cancel", ... */
const char *reason_source_str(enum reason_source s); /* "inferred", "art" */
const char *anim_kind_str(enum anim_kind k);	     /* "ValueAnimator", "ObjectAnimator" */
/* "ObjectAnimator in an AnimatorSet", "ViewPropertyAnimator", else anim_kind_str's */
const char *anim_type_str(enum anim_kind k, enum anim_starter s);
/* NULL, "AnimatorSet", "ViewPropertyAnimator" */
const char *anim_starter_str(enum anim_starter s);
const char *frame_phase_str(enum frame_phase p); /* "input", ..., "draw" */
const char *view_prop_str(enum view_prop p);	 /* "alpha", "translationX", ... */
const char *view_prop_short(enum view_prop p);	 /* "alpha", "transX", ... (box columns) */
const char *finding_kind_str(enum finding_kind k);
/* FrameTracker's name of a CUJ's reason ("REASON_END_NORMAL", ...), or NULL for another. */
const char *cuj_reason_str(int32_t reason);	 /* "flicker", "replaced", ... */
const char *repeat_mode_str(enum repeat_mode m); /* "RESTART", "REVERSE", "unknown" */
/* A configured value as the seed prints it: "1", "0.5", "-3" (int), "0xff00ff00" (ARGB). */
const char *config_value_str(char *buf, size_t size, enum config_type type, double v);
/* "Foo" of "com.example.Foo" or "com.example.Outer$Foo"; the name itself without '.'/'$'. */
const char *simple_class(const char *binary_name);

/* Room for a node label: a 63-byte class, '@', four hex digits and the NUL. */
#define AT_NODE_LABEL_MAX 72
/* The View class a node name holds (node_props.node_name, anim.target_name), or NULL. */
const char *node_class(const char *name);
/* "NotificationRow@80e0": the class (else "RenderNode"), '@', the node's low 16 bits. */
const char *node_label(char *buf, size_t size, const char *name, uint64_t node);

#endif

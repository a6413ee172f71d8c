/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * SurfaceFlinger's FrameTimeline (Android 12+) as Perfetto records it: one frame = a start
 * event (expected or actual, display or surface) and a FrameEnd with the same cookie. The
 * types, their values and their names, in one place; readers (pftrace) fill them, the
 * engine reads them. Pure: no I/O, no allocation.
 *
 * Values from google/perfetto @ec5d16b1 (2026-08):
 *   protos/third_party/android/frameworks/native/tracing/frameworks_native_trace_packet.proto
 *   (FrameTimelineEvent, TracePacket extension field 76), the same numbers as the older
 *   protos/perfetto/trace/android/frame_timeline_event.proto (@05ee2239), which lacks only
 *   the fields after is_buffer (jank_severity_type and later: Perfetto 2023-11; written by
 *   SurfaceFlinger from Android 14 (lineage-21.0), not by Android 13).
 * Names from src/trace_processor/importers/proto/frame_timeline_event_parser.cc (same
 * commit): the strings trace processor shows in its "Jank type" and "Present type" args.
 *
 * Timestamps: SurfaceFlinger writes CLOCK_BOOTTIME (timestamp_clock_id 6; it adds its
 * monotonic->boot offset, FrameTimeline::flushPendingPresentFences, Android 13:
 * LineageOS/android_frameworks_native lineage-20.0
 * services/surfaceflinger/FrameTimeline/FrameTimeline.cpp), the clock of ftrace events in
 * a Perfetto trace, so frames and print events compare directly.
 *
 * What the times are (same file, SurfaceFrame/DisplayFrame::tracePredictions/traceActuals):
 *   expected surface: the token's predicted [vsync, deadline] for the app's frame
 *   actual surface:   [frame start (or the prediction when unknown), buffer ready
 *                     (or the drop time when dropped)]
 *   expected display: SurfaceFlinger's predicted [wake-up, ready] for its composition
 *   actual display:   [composition start, present fence signal]
 */
#ifndef ANIMTRACE_FRAMETIMELINE_H
#define ANIMTRACE_FRAMETIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/marker.h"

/* BUILTIN_CLOCK_BOOTTIME (google/perfetto protos/perfetto/common/builtin_clock.proto). */
#define FT_CLOCK_BOOTTIME 6

/* FrameTimelineEvent's oneof `event`: the kind is the field number. */
enum ft_kind {
	FT_EXPECTED_DISPLAY = 1, /* ExpectedDisplayFrameStart expected_display_frame_start = 1 */
	FT_ACTUAL_DISPLAY = 2,	 /* ActualDisplayFrameStart actual_display_frame_start = 2 */
	FT_EXPECTED_SURFACE = 3, /* ExpectedSurfaceFrameStart expected_surface_frame_start = 3 */
	FT_ACTUAL_SURFACE = 4,	 /* ActualSurfaceFrameStart actual_surface_frame_start = 4 */
	FT_FRAME_END = 5,	 /* FrameEnd frame_end = 5 */
};

/* FrameTimelineEvent.PresentType. */
enum ft_present {
	FT_PRESENT_UNSPECIFIED = 0,
	FT_PRESENT_ON_TIME = 1,
	FT_PRESENT_LATE = 2,
	FT_PRESENT_EARLY = 3,
	FT_PRESENT_DROPPED = 4,
	FT_PRESENT_UNKNOWN = 5,
};

/* FrameTimelineEvent.PredictionType. */
enum ft_prediction {
	FT_PREDICTION_UNSPECIFIED = 0,
	FT_PREDICTION_VALID = 1,
	FT_PREDICTION_EXPIRED = 2,
	FT_PREDICTION_UNKNOWN = 3,
};

/* FrameTimelineEvent.JankSeverityType (not written by Android 13). */
enum ft_severity {
	FT_SEVERITY_UNKNOWN = 0,
	FT_SEVERITY_NONE = 1,
	FT_SEVERITY_PARTIAL = 2,
	FT_SEVERITY_FULL = 3,
};

/* FrameTimelineEvent.JankType: a bitmask (0 = unspecified, exactly 1 = no jank). */
enum ft_jank {
	FT_JANK_NONE = 1,
	FT_JANK_SF_SCHEDULING = 2,
	FT_JANK_PREDICTION_ERROR = 4,
	FT_JANK_DISPLAY_HAL = 8,
	FT_JANK_SF_CPU_DEADLINE_MISSED = 16,
	FT_JANK_SF_GPU_DEADLINE_MISSED = 32,
	FT_JANK_APP_DEADLINE_MISSED = 64,
	FT_JANK_BUFFER_STUFFING = 128,
	FT_JANK_UNKNOWN = 256,
	FT_JANK_SF_STUFFING = 512,
	FT_JANK_DROPPED = 1024,
	FT_JANK_NON_ANIMATING = 2048,
	FT_JANK_APP_RESYNCED_JITTER = 4096,
	FT_JANK_DISPLAY_NOT_ON = 8192,
	FT_JANK_DISPLAY_MODE_CHANGE_IN_PROGRESS = 16384,
	FT_JANK_DISPLAY_POWER_MODE_CHANGE_IN_PROGRESS = 32768,
};

/*
 * One FrameTimelineEvent, decoded. Fields a kind does not carry are 0 (false, empty):
 * display frames have no display_token or layer; expected frames no present, jank,
 * prediction or flags; FrameEnd only a cookie.
 */
struct ft_event {
	uint8_t kind;		 /* enum ft_kind */
	uint8_t present_type;	 /* enum ft_present; out-of-range values kept, saturated at 255 */
	uint8_t prediction_type; /* enum ft_prediction, likewise */
	uint8_t jank_severity;	 /* enum ft_severity; when absent, NONE for jank_type == NONE
				  * and else UNKNOWN, as trace processor infers it */
	bool on_time_finish, gpu_composition;
	bool is_buffer, has_is_buffer; /* actual surface frames (has_: the field was there) */
	int64_t cookie;		       /* pairs a start with its FrameEnd */
	int64_t token;		       /* surface: the app's vsync id (Choreographer#doFrame <id>);
				  * display: SurfaceFlinger's own vsync id */
	int64_t display_token;	       /* surface: the display frame that composited it */
	int32_t pid;		       /* surface: the app; display: SurfaceFlinger */
	uint32_t jank_type;	       /* enum ft_jank bits */
	struct strv layer;	       /* surface: layer_name (points into the decoded message) */
};

/* A start event and its end: one slice of Perfetto's Expected/Actual Timeline tracks. */
struct ft_frame {
	struct ft_event ev; /* the start; ev.layer points into the reader's storage */
	uint64_t start_ns;  /* the start packet's timestamp */
	uint64_t end_ns;    /* the FrameEnd's timestamp; 0 when !ended */
	uint32_t clock_id;  /* the start packet's timestamp_clock_id: FT_CLOCK_BOOTTIME, or
				  * 0 when absent (the trace clock, boottime on Android) */
	bool ended;	    /* false: no FrameEnd came (trace ended, or the reader's table
				  * of open frames was full: see pf_timeline_stats) */
};

/* True for the four start kinds. */
bool ft_kind_is_start(unsigned kind);
/* "expected_display", "actual_display", "expected_surface", "actual_surface", "frame_end";
 * "unknown" otherwise. */
const char *ft_kind_name(unsigned kind);

/* "unspecified", "on_time", "late", "early", "dropped", "unknown" (also out of range). */
const char *ft_present_name(unsigned present_type);
/* Trace processor's: "Unspecified Present", "On-time Present", "Late Present", "Early
 * Present", "Dropped Frame", "Unknown Present"; out of range: "Unspecified Present" (it
 * counts those as parser errors and shows its index 0). */
const char *ft_present_perfetto(unsigned present_type);
/* Trace processor's "Unspecified Prediction", "Valid Prediction", "Expired Prediction",
 * "Unknown Prediction"; out of range: "Unspecified Prediction". */
const char *ft_prediction_perfetto(unsigned prediction_type);
/* Trace processor's "Unknown", "None", "Partial", "Full"; out of range: "Unknown". */
const char *ft_severity_perfetto(unsigned severity);

/*
 * Trace processor's reasons for a jank bitmask, in its order (bit order, except that "App
 * Resynced Jitter" follows "App Deadline Missed"): 0 -> "Unspecified", exactly 1 -> "None";
 * else one name per set bit it knows (bit 0 and bits over 15 are ignored, as it does).
 * Stores up to n names and returns how many there are (which may exceed n).
 */
size_t ft_jank_names(uint32_t jank_type, const char **out, size_t n);

/*
 * Those names joined with ", " as trace processor shows them ("App Deadline Missed,
 * Buffer Stuffing"), NUL-terminated, truncated to len. Returns the full length, like
 * snprintf.
 */
size_t ft_jank_string(uint32_t jank_type, char *buf, size_t len);

/* Trace processor's test for a surface frame's own jank (SurfaceFrameJanky): App Deadline
 * Missed, App Resynced Jitter or Unknown Jank; never for 0, NONE, NON_ANIMATING alone or
 * DISPLAY_NOT_ON alone. */
bool ft_jank_is_app(uint32_t jank_type);

#endif

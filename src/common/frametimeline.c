// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * FrameTimeline names. Every string below is copied from google/perfetto @ec5d16b1
 * src/trace_processor/importers/proto/frame_timeline_event_parser.cc: the jank reasons
 * from JankTypeBitmaskToStringId, the others from FrameTimelineEventParser's constructor
 * (present_type_ids_, prediction_type_ids_, jank_severity_type_ids_).
 */
#include <string.h>

#include "common/frametimeline.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* In JankTypeBitmaskToStringId's order: App Resynced Jitter follows App Deadline Missed. */
static const struct {
	uint32_t bit;
	const char *name;
} jank_names[] = {
	{ FT_JANK_SF_SCHEDULING, "SurfaceFlinger Scheduling" },
	{ FT_JANK_PREDICTION_ERROR, "Prediction Error" },
	{ FT_JANK_DISPLAY_HAL, "Display HAL" },
	{ FT_JANK_SF_CPU_DEADLINE_MISSED, "SurfaceFlinger CPU Deadline Missed" },
	{ FT_JANK_SF_GPU_DEADLINE_MISSED, "SurfaceFlinger GPU Deadline Missed" },
	{ FT_JANK_APP_DEADLINE_MISSED, "App Deadline Missed" },
	{ FT_JANK_APP_RESYNCED_JITTER, "App Resynced Jitter" },
	{ FT_JANK_BUFFER_STUFFING, "Buffer Stuffing" },
	{ FT_JANK_UNKNOWN, "Unknown Jank" },
	{ FT_JANK_SF_STUFFING, "SurfaceFlinger Stuffing" },
	{ FT_JANK_DROPPED, "Dropped Frame" },
	{ FT_JANK_NON_ANIMATING, "Non Animating" },
	{ FT_JANK_DISPLAY_NOT_ON, "Display not ON" },
	{ FT_JANK_DISPLAY_MODE_CHANGE_IN_PROGRESS, "ModeChange in progress" },
	{ FT_JANK_DISPLAY_POWER_MODE_CHANGE_IN_PROGRESS, "PowerModeChange in progress" },
};

/* Indexed by enum ft_present: our short name, then trace processor's. */
static const char *const present_names[][2] = {
	[FT_PRESENT_UNSPECIFIED] = { "unspecified", "Unspecified Present" },
	[FT_PRESENT_ON_TIME] = { "on_time", "On-time Present" },
	[FT_PRESENT_LATE] = { "late", "Late Present" },
	[FT_PRESENT_EARLY] = { "early", "Early Present" },
	[FT_PRESENT_DROPPED] = { "dropped", "Dropped Frame" },
	[FT_PRESENT_UNKNOWN] = { "unknown", "Unknown Present" },
};

static const char *const prediction_names[] = {
	[FT_PREDICTION_UNSPECIFIED] = "Unspecified Prediction",
	[FT_PREDICTION_VALID] = "Valid Prediction",
	[FT_PREDICTION_EXPIRED] = "Expired Prediction",
	[FT_PREDICTION_UNKNOWN] = "Unknown Prediction",
};

static const char *const severity_names[] = {
	[FT_SEVERITY_UNKNOWN] = "Unknown",
	[FT_SEVERITY_NONE] = "None",
	[FT_SEVERITY_PARTIAL] = "Partial",
	[FT_SEVERITY_FULL] = "Full",
};

static const char *const kind_names[] = {
	[FT_EXPECTED_DISPLAY] = "expected_display",
	[FT_ACTUAL_DISPLAY] = "actual_display",
	[FT_EXPECTED_SURFACE] = "expected_surface",
	[FT_ACTUAL_SURFACE] = "actual_surface",
	[FT_FRAME_END] = "frame_end",
};

bool ft_kind_is_start(unsigned kind)
{
	return kind >= FT_EXPECTED_DISPLAY && kind <= FT_ACTUAL_SURFACE;
}

const char *ft_kind_name(unsigned kind)
{
	return kind < ARRAY_SIZE(kind_names) && kind_names[kind] ? kind_names[kind] : "unknown";
}

const char *ft_present_name(unsigned present_type)
{
	if (present_type >= ARRAY_SIZE(present_names))
		return present_names[FT_PRESENT_UNKNOWN][0];
	return present_names[present_type][0];
}

const char *ft_present_perfetto(unsigned present_type)
{
	if (present_type >= ARRAY_SIZE(present_names))
		present_type = FT_PRESENT_UNSPECIFIED;
	return present_names[present_type][1];
}

const char *ft_prediction_perfetto(unsigned prediction_type)
{
	if (prediction_type >= ARRAY_SIZE(prediction_names))
		prediction_type = FT_PREDICTION_UNSPECIFIED;
	return prediction_names[prediction_type];
}

const char *ft_severity_perfetto(unsigned severity)
{
	if (severity >= ARRAY_SIZE(severity_names))
		severity = FT_SEVERITY_UNKNOWN;
	return severity_names[severity];
}

size_t ft_jank_names(uint32_t jank_type, const char **out, size_t n)
{
	size_t k = 0;

	if (jank_type == 0 || jank_type == FT_JANK_NONE) {
		if (n)
			out[0] = jank_type ? "None" : "Unspecified";
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(jank_names); i++) {
		if (!(jank_type & jank_names[i].bit))
			continue;
		if (k < n)
			out[k] = jank_names[i].name;
		k++;
	}
	return k;
}

size_t ft_jank_string(uint32_t jank_type, char *buf, size_t len)
{
	const char *names[ARRAY_SIZE(jank_names)];
	size_t n = ft_jank_names(jank_type, names, ARRAY_SIZE(names)), total = 0;

	for (size_t i = 0; i < n; i++) {
		const char *parts[2] = { i ? ", " : "", names[i] };

		for (int j = 0; j < 2; j++) {
			size_t m = strlen(parts[j]);

			if (total < len)
				memcpy(buf + total, parts[j], total + m < len ? m : len - total);
			total += m;
		}
	}
	if (len)
		buf[total < len ? total : len - 1] = '\0';
	return total;
}

bool ft_jank_is_app(uint32_t jank_type)
{
	const uint32_t app = FT_JANK_APP_DEADLINE_MISSED | FT_JANK_APP_RESYNCED_JITTER |
			     FT_JANK_UNKNOWN;

	if (jank_type == 0 || jank_type == FT_JANK_NONE || jank_type == FT_JANK_NON_ANIMATING ||
	    jank_type == FT_JANK_DISPLAY_NOT_ON)
		return false;
	return (jank_type & app) != 0;
}

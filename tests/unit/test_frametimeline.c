// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * FrameTimeline names against trace processor's strings (google/perfetto
 * src/trace_processor/importers/proto/frame_timeline_event_parser.cc).
 */
#include <string.h>

#include <criterion/criterion.h>

#include "common/frametimeline.h"

static void expect_jank(uint32_t mask, const char *want)
{
	char buf[512];
	size_t n = ft_jank_string(mask, buf, sizeof(buf));

	cr_assert_str_eq(buf, want, "jank %#x", mask);
	cr_assert_eq(n, strlen(want), "jank %#x", mask);
}

Test(frametimeline, names_jank_types_as_trace_processor_does)
{
	expect_jank(0, "Unspecified");
	expect_jank(FT_JANK_NONE, "None");
	expect_jank(FT_JANK_SF_SCHEDULING, "SurfaceFlinger Scheduling");
	expect_jank(FT_JANK_PREDICTION_ERROR, "Prediction Error");
	expect_jank(FT_JANK_DISPLAY_HAL, "Display HAL");
	expect_jank(FT_JANK_SF_CPU_DEADLINE_MISSED, "SurfaceFlinger CPU Deadline Missed");
	expect_jank(FT_JANK_SF_GPU_DEADLINE_MISSED, "SurfaceFlinger GPU Deadline Missed");
	expect_jank(64, "App Deadline Missed");
	expect_jank(FT_JANK_BUFFER_STUFFING, "Buffer Stuffing");
	expect_jank(FT_JANK_UNKNOWN, "Unknown Jank");
	expect_jank(FT_JANK_SF_STUFFING, "SurfaceFlinger Stuffing");
	expect_jank(FT_JANK_DROPPED, "Dropped Frame");
	expect_jank(FT_JANK_NON_ANIMATING, "Non Animating");
	expect_jank(FT_JANK_APP_RESYNCED_JITTER, "App Resynced Jitter");
	expect_jank(FT_JANK_DISPLAY_NOT_ON, "Display not ON");
	expect_jank(FT_JANK_DISPLAY_MODE_CHANGE_IN_PROGRESS, "ModeChange in progress");
	expect_jank(FT_JANK_DISPLAY_POWER_MODE_CHANGE_IN_PROGRESS, "PowerModeChange in progress");
}

Test(frametimeline, joins_several_reasons_in_trace_processors_order)
{
	expect_jank(FT_JANK_APP_DEADLINE_MISSED | FT_JANK_BUFFER_STUFFING,
		    "App Deadline Missed, Buffer Stuffing");
	/* Not bit order: App Resynced Jitter (4096) comes right after App Deadline Missed. */
	expect_jank(FT_JANK_APP_RESYNCED_JITTER | FT_JANK_BUFFER_STUFFING |
			    FT_JANK_APP_DEADLINE_MISSED | FT_JANK_SF_SCHEDULING,
		    "SurfaceFlinger Scheduling, App Deadline Missed, App Resynced Jitter, "
		    "Buffer Stuffing");
	/* NONE among others, and bits it does not know, say nothing. */
	expect_jank(FT_JANK_NONE | FT_JANK_DROPPED | 1u << 20, "Dropped Frame");
	expect_jank(1u << 16, "");
}

Test(frametimeline, returns_every_name_and_the_full_count_when_out_is_short)
{
	const char *names[2] = { NULL, NULL };
	uint32_t all = 0xfffe;

	cr_assert_eq(ft_jank_names(all, names, 2), 15);
	cr_assert_str_eq(names[0], "SurfaceFlinger Scheduling");
	cr_assert_str_eq(names[1], "Prediction Error");
	cr_assert_eq(ft_jank_names(all, NULL, 0), 15);
	cr_assert_eq(ft_jank_names(0, NULL, 0), 1);
}

Test(frametimeline, truncates_the_joined_string_like_snprintf)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	cr_assert_eq(ft_jank_string(FT_JANK_APP_DEADLINE_MISSED | FT_JANK_BUFFER_STUFFING, buf,
				    sizeof(buf)),
		     strlen("App Deadline Missed, Buffer Stuffing"));
	cr_assert_str_eq(buf, "App Dea");
	cr_assert_eq(ft_jank_string(FT_JANK_NONE, NULL, 0), 4);
}

Test(frametimeline, names_present_types_short_and_as_trace_processor_does)
{
	static const char *const shorts[] = { "unspecified", "on_time", "late",
					      "early",	     "dropped", "unknown" };
	static const char *const perfetto[] = { "Unspecified Present", "On-time Present",
						"Late Present",	       "Early Present",
						"Dropped Frame",       "Unknown Present" };

	for (unsigned i = 0; i < 6; i++) {
		cr_assert_str_eq(ft_present_name(i), shorts[i]);
		cr_assert_str_eq(ft_present_perfetto(i), perfetto[i]);
	}
	cr_assert_str_eq(ft_present_name(6), "unknown");
	cr_assert_str_eq(ft_present_perfetto(255), "Unspecified Present");
}

Test(frametimeline, names_prediction_and_severity_types_as_trace_processor_does)
{
	cr_assert_str_eq(ft_prediction_perfetto(FT_PREDICTION_UNSPECIFIED),
			 "Unspecified Prediction");
	cr_assert_str_eq(ft_prediction_perfetto(FT_PREDICTION_VALID), "Valid Prediction");
	cr_assert_str_eq(ft_prediction_perfetto(FT_PREDICTION_EXPIRED), "Expired Prediction");
	cr_assert_str_eq(ft_prediction_perfetto(FT_PREDICTION_UNKNOWN), "Unknown Prediction");
	cr_assert_str_eq(ft_prediction_perfetto(4), "Unspecified Prediction");
	cr_assert_str_eq(ft_severity_perfetto(FT_SEVERITY_UNKNOWN), "Unknown");
	cr_assert_str_eq(ft_severity_perfetto(FT_SEVERITY_NONE), "None");
	cr_assert_str_eq(ft_severity_perfetto(FT_SEVERITY_PARTIAL), "Partial");
	cr_assert_str_eq(ft_severity_perfetto(FT_SEVERITY_FULL), "Full");
	cr_assert_str_eq(ft_severity_perfetto(9), "Unknown");
}

Test(frametimeline, names_event_kinds_by_their_field_numbers)
{
	cr_assert_str_eq(ft_kind_name(1), "expected_display");
	cr_assert_str_eq(ft_kind_name(2), "actual_display");
	cr_assert_str_eq(ft_kind_name(3), "expected_surface");
	cr_assert_str_eq(ft_kind_name(4), "actual_surface");
	cr_assert_str_eq(ft_kind_name(5), "frame_end");
	cr_assert_str_eq(ft_kind_name(0), "unknown");
	cr_assert_str_eq(ft_kind_name(6), "unknown");
	cr_assert(ft_kind_is_start(FT_EXPECTED_DISPLAY) && ft_kind_is_start(FT_ACTUAL_SURFACE));
	cr_assert(!ft_kind_is_start(FT_FRAME_END) && !ft_kind_is_start(0));
}

Test(frametimeline, tells_an_apps_own_jank_as_trace_processor_does)
{
	cr_assert(ft_jank_is_app(FT_JANK_APP_DEADLINE_MISSED));
	cr_assert(ft_jank_is_app(FT_JANK_APP_RESYNCED_JITTER | FT_JANK_BUFFER_STUFFING));
	cr_assert(ft_jank_is_app(FT_JANK_UNKNOWN));
	cr_assert(!ft_jank_is_app(0));
	cr_assert(!ft_jank_is_app(FT_JANK_NONE));
	cr_assert(!ft_jank_is_app(FT_JANK_BUFFER_STUFFING));
	cr_assert(!ft_jank_is_app(FT_JANK_SF_CPU_DEADLINE_MISSED));
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CUJs: Perfetto's own CUJ tests, held against `animtrace --replay`.
 *
 * The inputs: Perfetto's diff tests build their traces with Python generators
 * (test/synth_common.py); each case below writes the same events, in the same file order,
 * with this suite's own writer (tests/pf_write.h) into a Perfetto trace, rather than keeping
 * the serialised file: no code of Perfetto's, nor anything built by it, is kept here. The
 * generators were also serialised as Perfetto's runner does (protoc with
 * protos/perfetto/trace/trace.proto, chrome_track_event.proto, chrome_enums.proto and
 * frameworks_native_trace_packet.proto; python3-protobuf; see RECIPES.md) and replayed: the
 * cuj records were the ones asserted here (checked on 2026-12-02 at the commit below).
 *
 * Source of every case: google/perfetto @ ec5d16b14b743ba6063d720956d6d6af6610fd72.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "pf_write.h"
#include "replay_lines.h"

enum { BEGIN = 1, END = 2, INSTANT = 3 };

static FILE *new_trace(char **path)
{
	int fd;
	FILE *f;

	*path = strdup("/tmp/animtrace-conf-cuj-XXXXXX");
	fd = mkstemp(*path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	cr_assert_not_null(f);
	return f;
}

/* The cuj records of a trace, and the trace gone. */
static char *cujs_of(FILE *f, char *path)
{
	char *got;

	cr_assert_eq(fclose(f), 0);
	got = replay_lines(path, "cuj");
	unlink(path);
	free(path);
	return got;
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* add_instant_for_track of the generator: a zero-length TrackEvent slice. */
static void instant_for_track(FILE *f, uint64_t ts, uint64_t track, const char *name)
{
	pf_track_event(f, ts, BEGIN, track, name);
	pf_track_event(f, ts, END, track, NULL);
}

/*
 * source: test/trace_processor/diff_tests/metrics/graphics/android_jank_cuj.py (the trace of
 * test_android_jank_cuj in metrics/graphics/tests.py, expected android_jank_cuj.out), its CUJ
 * part: com.android.systemui (pid 1000), a process track (1234) and three tracks under it;
 * TrackEvent slices J<FIRST_CUJ> 5..100000000 (track 321), J<SHADE_ROW_EXPAND> 10..901000010
 * (654), J<CANCELED> 100100000..999000000 (987); FrameTracker's FT# events as zero-length
 * slices on them (beginVsync#10, layerId#0, endVsync#90 / #160, MissedHWUICallback and
 * MissedSFCallback #150), written before the CUJ slices in the file, and FT#cancel#0 on the
 * third at 990000000, written last; J<X>#UIThread instants. (Its frames and FrameTimeline are
 * left out: they answer other questions.)
 * question: which CUJs ran, named how, from which begin vsync, and which were cancelled?
 * answer (android_jank_cuj.out): two CUJs, FIRST_CUJ and SHADE_ROW_EXPAND, of
 * com.android.systemui; J<CANCELED> is not listed (stdlib android/cujs/base.sql keeps
 * `state != 'canceled'` only).
 * difference: animtrace reports the cancelled CUJ too, said as cancelled (reason 0, no begin
 * vsync: it has no FT#beginVsync), so that an interaction let go is not lost; the two others
 * are Perfetto's, with begin vsync 10.
 */
Test(conformance_cuj, android_jank_cuj_trackevent_cujs)
{
	char *path;
	FILE *f = new_trace(&path);
	char *got;

	pf_proc(f, 1000, 0, "com.android.systemui");
	pf_track(f, 1234, 0, 1000);
	pf_track(f, 321, 1234, 0);
	pf_track(f, 654, 1234, 0);
	pf_track(f, 987, 1234, 0);
	pf_print(f, 6, 1000, "I|1000|J<FIRST_CUJ>#UIThread");
	pf_print(f, 11, 1000, "I|1000|J<SHADE_ROW_EXPAND>#UIThread");
	instant_for_track(f, 7, 321, "FT#beginVsync#10");
	instant_for_track(f, 15, 321, "FT#layerId#0");
	instant_for_track(f, 100000000 - 1, 321, "FT#endVsync#90");
	instant_for_track(f, 12, 654, "FT#beginVsync#10");
	instant_for_track(f, 20, 654, "FT#layerId#0");
	instant_for_track(f, 900000000 - 1, 654, "FT#endVsync#160");
	instant_for_track(f, 950100000, 654, "FT#MissedHWUICallback#150");
	instant_for_track(f, 950100000, 654, "FT#MissedSFCallback#150");
	pf_track_event(f, 5, BEGIN, 321, "J<FIRST_CUJ>");
	pf_track_event(f, 100000000, END, 321, NULL);
	pf_track_event(f, 10, BEGIN, 654, "J<SHADE_ROW_EXPAND>");
	pf_track_event(f, 901000010, END, 654, NULL);
	pf_track_event(f, 100100000, BEGIN, 987, "J<CANCELED>");
	pf_track_event(f, 999000000, END, 987, NULL);
	instant_for_track(f, 990000000, 987, "FT#cancel#0");
	got = cujs_of(f, path);
	cr_assert(strstr(got, "\"process\":\"com.android.systemui\",\"name\":\"FIRST_CUJ\","
			      "\"begin_vsync\":10,\"begin_ns\":5,\"end_ns\":100000000,"
			      "\"ended\":true,\"duration_ns\":99999995,\"cancelled\":false,"
			      "\"reason\":null,"),
		  "%s", got);
	cr_assert(strstr(got, "\"name\":\"SHADE_ROW_EXPAND\",\"begin_vsync\":10,\"begin_ns\":10,"
			      "\"end_ns\":901000010,\"ended\":true,\"duration_ns\":901000000,"
			      "\"cancelled\":false,"),
		  "%s", got);
	cr_assert(strstr(got, "\"name\":\"CANCELED\",\"begin_vsync\":0,\"begin_ns\":100100000,"
			      "\"end_ns\":999000000,\"ended\":true,\"duration_ns\":898900000,"
			      "\"cancelled\":true,\"reason\":0,"),
		  "%s", got);
	cr_assert_eq(lines(got), 3, "three records: %s", got);
	free(got);
}

/* One CUJ of the generator below: S/F around it (cookie 0, synth_common's), and its UI
 * thread's N instants on the CUJ's track. */
struct synth_cuj {
	int pid, tid;
	const char *name;
	uint64_t begin, end;
	const char *events[3];
	uint64_t at[3];
};

static void synth_cuj(FILE *f, const struct synth_cuj *c)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "S|%d|%s|0", c->pid, c->name);
	pf_print(f, c->begin, c->tid, buf);
	snprintf(buf, sizeof(buf), "F|%d|%s|0", c->pid, c->name);
	pf_print(f, c->end, c->tid, buf);
	snprintf(buf, sizeof(buf), "I|%d|%s#UIThread", c->pid, c->name);
	pf_print(f, c->begin + 1, c->tid, buf);
	for (int i = 0; i < 3; i++) {
		snprintf(buf, sizeof(buf), "N|%d|%s|%s", c->pid, c->name, c->events[i]);
		pf_print(f, c->at[i], c->tid, buf);
	}
}

/* add_frame of the generator (a doFrame slice) and the RenderThread's DrawFrames slice. */
static void synth_frame(FILE *f, int pid, int tid, int rt, int vsync, uint64_t b, uint64_t e,
			uint64_t db, uint64_t de)
{
	char buf[96];

	snprintf(buf, sizeof(buf), "B|%d|Choreographer#doFrame %d", pid, vsync);
	pf_print(f, b, tid, buf);
	snprintf(buf, sizeof(buf), "E|%d", pid);
	pf_print(f, e, tid, buf);
	snprintf(buf, sizeof(buf), "B|%d|DrawFrames %d", pid, vsync);
	pf_print(f, db, rt, buf);
	snprintf(buf, sizeof(buf), "E|%d", pid);
	pf_print(f, de, rt, buf);
}

/*
 * source: test/trace_processor/diff_tests/metrics/android/
 * android_blocking_calls_cuj_per_frame_metric.py (the trace of test_android_sysui_jank_cujs in
 * stdlib/android/sysui_cujs_test.py): SystemUI (pid 5000, UI thread 5020 "BackPanelUiThre")
 * runs J<BACK_PANEL_ARROW> twice, 25..77 ms and 83..102 ms (S/F, cookie 0), Launcher
 * (com.google.android.apps.nexuslauncher, 6000, UI thread 6020) J<CUJ_NAME> 120..145 ms, each
 * with FT#beginVsync, FT#layerId and FT#endVsync instants on its track (N) and its
 * J<X>#UIThread instant; doFrames (vsync 15, 20, 22, 24, 65; 75, 80, 82) with their
 * DrawFrames; two latency CUJs L<IGNORED_CUJ_1>, L<IGNORED_CUJ_2>. (Its binder, animation and
 * sched slices are left out: they answer other questions.)
 * question: which jank CUJs ran, in which process, on which thread, from which begin vsync?
 * answer (sysui_cujs_test.py, android_sysui_jank_cujs): BACK_PANEL_ARROW (com.android.systemui,
 * begin_vsync 20, state "completed"), BACK_PANEL_ARROW (60, "completed"), CUJ_NAME
 * (com.google.android.apps.nexuslauncher, 80, "completed"); UI threads the BackPanelUiThre and
 * the launcher's.
 * difference: (1) ts/ts_end: Perfetto bounds a CUJ by its frames (27..65 ms for the first);
 * animtrace by FrameTracker's begin and end markers (25..77 ms). (2) state: Perfetto's
 * "completed" comes from its GLOB '*FT#end*', which FT#endVsync matches; FrameTracker writes
 * its end reason as FT#end#<reason>, absent here, so animtrace says ended, not cancelled,
 * reason null. (3) The L<...> latency CUJs are not jank CUJs and animtrace does not read
 * them. The frames each CUJ holds are animtrace's own count (doFrames from its begin to its
 * end): 3 (vsync 20, 22, 24), 1 (65), 2 (80, 82).
 */
Test(conformance_cuj, sysui_jank_cujs_async_sections)
{
	static const struct synth_cuj cujs[] = {
		{ 5000,
		  5020,
		  "J<BACK_PANEL_ARROW>",
		  25000000,
		  77000000,
		  { "FT#beginVsync#20", "FT#layerId#0", "FT#endVsync#30" },
		  { 25000001, 25000010, 76000001 } },
		{ 5000,
		  5020,
		  "J<BACK_PANEL_ARROW>",
		  83000000,
		  102000000,
		  { "FT#beginVsync#60", "FT#layerId#2", "FT#endVsync#70" },
		  { 83000001, 83000010, 101000001 } },
		{ 6000,
		  6020,
		  "J<CUJ_NAME>",
		  120000000,
		  145000000,
		  { "FT#beginVsync#80", "FT#layerId#1", "FT#endVsync#90" },
		  { 120000002, 120000010, 144000001 } },
	};
	static const struct {
		int pid, tid, rt, vsync;
		uint64_t b, e, db, de;
	} frames[] = {
		{ 5000, 5020, 1555, 15, 9000000, 15000000, 10000000, 12000000 },
		{ 5000, 5020, 1555, 20, 26000000, 32000000, 27000000, 28000000 },
		{ 5000, 5020, 1555, 22, 43000000, 49000000, 44000000, 45000000 },
		{ 5000, 5020, 1555, 24, 60000000, 65000000, 61000000, 62000000 },
		{ 5000, 5020, 1555, 65, 84000000, 89000000, 85000000, 86000000 },
		{ 6000, 6020, 1655, 75, 103000000, 110000000, 104000000, 105000000 },
		{ 6000, 6020, 1655, 80, 120000000, 126000000, 121000000, 122000000 },
		{ 6000, 6020, 1655, 82, 141000000, 143000000, 142000000, 142500000 },
	};
	char *path, *got;
	FILE *f = new_trace(&path);

	pf_proc(f, 5000, 0, "com.android.systemui");
	pf_proc(f, 6000, 0, "com.google.android.apps.nexuslauncher");
	pf_proc(f, 5000, 5020, "BackPanelUiThre");
	pf_proc(f, 5000, 1555, "RenderThread");
	pf_proc(f, 6000, 1655, "RenderThread");
	synth_cuj(f, &cujs[0]);
	synth_cuj(f, &cujs[1]);
	for (int i = 0; i < 5; i++)
		synth_frame(f, frames[i].pid, frames[i].tid, frames[i].rt, frames[i].vsync,
			    frames[i].b, frames[i].e, frames[i].db, frames[i].de);
	synth_cuj(f, &cujs[2]);
	for (int i = 5; i < 8; i++)
		synth_frame(f, frames[i].pid, frames[i].tid, frames[i].rt, frames[i].vsync,
			    frames[i].b, frames[i].e, frames[i].db, frames[i].de);
	pf_print(f, 150000000, 5020, "S|5000|L<IGNORED_CUJ_1>|0");
	pf_print(f, 155000000, 5020, "F|5000|L<IGNORED_CUJ_1>|0");
	got = cujs_of(f, path);
	cr_assert(strstr(got, "\"pid\":5000,\"tid\":5020,\"process\":\"com.android.systemui\","
			      "\"name\":\"BACK_PANEL_ARROW\",\"begin_vsync\":20,"
			      "\"begin_ns\":25000000,\"end_ns\":77000000,\"ended\":true,"
			      "\"duration_ns\":52000000,\"cancelled\":false,\"reason\":null,"
			      "\"frames\":3,"),
		  "%s", got);
	cr_assert(strstr(got, "\"name\":\"BACK_PANEL_ARROW\",\"begin_vsync\":60,"
			      "\"begin_ns\":83000000,\"end_ns\":102000000,\"ended\":true,"
			      "\"duration_ns\":19000000,\"cancelled\":false,\"reason\":null,"
			      "\"frames\":1,"),
		  "%s", got);
	cr_assert(strstr(got, "\"pid\":6000,\"tid\":6020,"
			      "\"process\":\"com.google.android.apps.nexuslauncher\","
			      "\"name\":\"CUJ_NAME\",\"begin_vsync\":80,\"begin_ns\":120000000,"
			      "\"end_ns\":145000000,\"ended\":true,\"duration_ns\":25000000,"
			      "\"cancelled\":false,\"reason\":null,\"frames\":2,"),
		  "%s", got);
	cr_assert_null(strstr(got, "IGNORED"), "%s", got);
	free(got);
}

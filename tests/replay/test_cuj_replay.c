// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One interaction, three transports (engine/cujs.h): Android 13's S/F with its J<X>#FT#
 * slices and 14's G/H with its FT# instants, in ftrace text, and Perfetto TrackEvent slices
 * (replay/pftrackevent.h) in a Perfetto trace whose frames are print events. `animtrace
 * --replay` of each gives the same cuj JSON records, byte for byte: J<NAME> says NAME, the
 * begin vsync, the cancel and FrameTracker's reason.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pf_write.h"
#include "replay_lines.h"

#define PID 1000
#define PERIOD 16666667ull
#define T0 100000000000ull
#define FRAMES 10

enum form { A13, A14, TE };

/* One event of the interaction: a marker at ts (text forms), or a TrackEvent (TE). */
struct ev {
	uint64_t ts;
	char text[160];
	int te_type;	   /* 1 slice begin, 2 slice end, 3 instant; 0: none (text only) */
	char te_name[64];  /* its name */
	uint64_t te_track; /* the CUJ's track */
};

/*
 * Frames 0..9 (doFrame 1000 + i at T0 + i periods, 5 ms long). SHADE_EXPAND_COLLAPSE begins
 * 1 ms into frame 2 (begin vsync 1002) and ends 2 ms into frame 6; SHADE_ROW_SWIPE begins in
 * frame 7 (1007), FrameTracker cancels it (16) in frame 8.
 */
static int script(enum form f, struct ev *out)
{
	static const struct {
		int frame, ms;
		const char *cuj;
		int64_t vsync;
		int reason; /* -1: a begin */
		uint64_t track;
	} steps[] = {
		{ 2, 1, "SHADE_EXPAND_COLLAPSE", 1002, -1, 321 },
		{ 6, 2, "SHADE_EXPAND_COLLAPSE", 1002, 0, 321 },
		{ 7, 1, "SHADE_ROW_SWIPE", 1007, -1, 654 },
		{ 8, 2, "SHADE_ROW_SWIPE", 1007, 16, 654 },
	};
	int n = 0;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		uint64_t ts =
			T0 + (uint64_t)steps[i].frame * PERIOD + (uint64_t)steps[i].ms * 1000000;
		const char *c = steps[i].cuj, *kind = steps[i].reason ? "cancel" : "end";
		long long v = (long long)steps[i].vsync;
		int r = steps[i].reason;
		struct ev *e = &out[n];

		memset(e, 0, 4 * sizeof(*e));
		for (int k = 0; k < 4; k++) {
			e[k].ts = ts;
			e[k].te_track = steps[i].track;
		}
		/* begin: 13 FT#begin then S; 14 and TrackEvent G (a slice) then FT#beginVsync */
		if (r < 0 && f == A13) {
			snprintf(e[0].text, sizeof(e[0].text), "B|%d|J<%s>#FT#begin", PID, c);
			snprintf(e[1].text, sizeof(e[1].text), "E|%d", PID);
			snprintf(e[2].text, sizeof(e[2].text), "S|%d|J<%s>|%lld", PID, c, v);
			n += 3;
		} else if (r < 0) {
			snprintf(e[0].text, sizeof(e[0].text), "G|%d|J<%s>|J<%s>|%lld", PID, c, c,
				 v);
			snprintf(e[1].text, sizeof(e[1].text), "N|%d|J<%s>|FT#beginVsync#%lld", PID,
				 c, v);
			e[0].te_type = 1;
			snprintf(e[0].te_name, sizeof(e[0].te_name), "J<%s>", c);
			e[1].te_type = 3;
			snprintf(e[1].te_name, sizeof(e[1].te_name), "FT#beginVsync#%lld", v);
			n += 2;
		} else if (f == A13) {
			snprintf(e[0].text, sizeof(e[0].text), "B|%d|J<%s>#FT#%s#%d", PID, c, kind,
				 r);
			snprintf(e[1].text, sizeof(e[1].text), "E|%d", PID);
			snprintf(e[2].text, sizeof(e[2].text), "F|%d|J<%s>|%lld", PID, c, v);
			n += 3;
		} else {
			snprintf(e[0].text, sizeof(e[0].text), "N|%d|J<%s>|FT#%s#%d", PID, c, kind,
				 r);
			snprintf(e[1].text, sizeof(e[1].text), "H|%d|J<%s>|%lld", PID, c, v);
			e[0].te_type = 3;
			snprintf(e[0].te_name, sizeof(e[0].te_name), "FT#%s#%d", kind, r);
			e[1].te_type = 2;
			n += 2;
		}
	}
	return n;
}

static void text_line(FILE *f, uint64_t ts, const char *text)
{
	fprintf(f, "        systemui-%d  ( %d) [001] ...1 %llu.%09llu: tracing_mark_write: %s\n",
		PID, PID, (unsigned long long)(ts / 1000000000),
		(unsigned long long)(ts % 1000000000), text);
}

/* The process, its process track and the CUJs' tracks under it (unnamed, as in Perfetto's
 * android_jank_cuj.py). */
static void pf_tracks(FILE *f)
{
	pf_proc(f, PID, 0, "systemui");
	pf_track(f, 1234, 0, PID);
	pf_track(f, 321, 1234, 0);
	pf_track(f, 654, 1234, 0);
}

/* A capture of the frames and the interaction in form f, in a new temporary file. */
static char *write_capture(enum form form)
{
	char *path = strdup("/tmp/animtrace-cuj-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct ev evs[32];
	int n = script(form, evs), k = 0;
	char buf[64];

	cr_assert_not_null(f);
	if (form == TE)
		pf_tracks(f);
	else
		fputs("# tracer: nop\n", f);
	for (int i = 0; i < FRAMES; i++) {
		uint64_t start = T0 + (uint64_t)i * PERIOD, end = start + 5000000;

		snprintf(buf, sizeof(buf), "B|%d|Choreographer#doFrame %d", PID, 1000 + i);
		if (form == TE)
			pf_print(f, start, PID, buf);
		else
			text_line(f, start, buf);
		for (; k < n && evs[k].ts < end; k++) /* the interaction's, inside the frame */
			if (form == TE && evs[k].te_type)
				pf_track_event(f, evs[k].ts, evs[k].te_type, evs[k].te_track,
					       evs[k].te_name[0] ? evs[k].te_name : NULL);
			else if (form != TE)
				text_line(f, evs[k].ts, evs[k].text);
		snprintf(buf, sizeof(buf), "E|%d", PID);
		if (form == TE)
			pf_print(f, end, PID, buf);
		else
			text_line(f, end, buf);
	}
	cr_assert_eq(k, n, "every event falls in a frame");
	cr_assert_eq(fclose(f), 0);
	return path;
}

Test(cuj_replay, thirteen_fourteen_and_trackevent_give_the_same_records)
{
	static const enum form forms[] = { A13, A14, TE };
	char *got[3];

	for (int i = 0; i < 3; i++) {
		char *path = write_capture(forms[i]);

		got[i] = replay_lines(path, "cuj");
		unlink(path);
		free(path);
	}
	cr_assert_str_eq(got[0], got[1], "13:\n%s14:\n%s", got[0], got[1]);
	cr_assert_str_eq(got[2], got[1], "TrackEvent:\n%s14:\n%s", got[2], got[1]);
	cr_assert(strstr(got[1], "\"name\":\"SHADE_EXPAND_COLLAPSE\",\"begin_vsync\":1002,"
				 "\"begin_ns\":100034333334,\"end_ns\":100102000002,"),
		  "%s", got[1]);
	cr_assert(strstr(got[1], "\"ended\":true,\"duration_ns\":67666668,\"cancelled\":false,"
				 "\"reason\":0,\"frames\":5,"),
		  "%s", got[1]);
	cr_assert(strstr(got[1], "\"name\":\"SHADE_ROW_SWIPE\",\"begin_vsync\":1007,"), "%s",
		  got[1]);
	cr_assert(strstr(got[1], "\"cancelled\":true,\"reason\":16,\"frames\":2,"), "%s", got[1]);
	for (int i = 0; i < 3; i++)
		free(got[i]);
}

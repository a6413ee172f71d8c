/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a capture reader made of its input: how much it read, and every part of it that it
 * could not use, so that nothing is lost silently. Filled by replay (replay__run), said once
 * on stderr at the end (input_stats_describe), and meant for the summary record.
 */
#ifndef ANIMTRACE_INPUT_H
#define ANIMTRACE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Timestamps that are damage, not time: the event is dropped and counted (time_jumps). */
#define INPUT_TS_MAX INT64_MAX		      /* past 292 years of nanoseconds */
#define INPUT_TS_BACK_NS 1000000000ull	      /* more than 1 s before the latest one */
#define INPUT_TS_FORWARD_NS 86400000000000ull /* more than a day after it */

struct input_stats {
	bool protobuf;	  /* a Perfetto trace (packets), else text (lines) */
	uint64_t bytes;	  /* bytes of the capture read (of ftrace text in an html file) */
	uint64_t lines;	  /* text lines read */
	uint64_t packets; /* Perfetto TracePackets read, those inside compressed_packets too */
	/* The damage; all 0 for an intact capture. */
	uint64_t damaged;      /* lines that do not parse (a NUL byte, over 64 KiB, no ftrace form);
			      * damaged Perfetto packets, events and messages */
	uint64_t bad_blocks;   /* compressed_packets that do not inflate whole */
	uint64_t skipped;      /* bytes skipped to find the next whole packet after damage */
	uint64_t truncated;    /* 1 when the capture ends inside a line, html block or packet:
			      * that cut part is dropped */
	uint64_t truncated_at; /* the byte where it ends then */
	uint64_t time_jumps;   /* marker events dropped for their timestamp: past INPUT_TS_MAX,
			      * jumping back by over INPUT_TS_BACK_NS or on by over
			      * INPUT_TS_FORWARD_NS */
	uint64_t dropped;      /* Perfetto print events beyond the reader's index caps */
	uint64_t unread_events; /* Perfetto TrackEvents of CUJs that could not be read: on a track
				 * no descriptor names, on another clock than boottime, beyond
				 * the reader's caps (replay/pftrackevent.h) */
	uint64_t untrusted;	/* Perfetto FrameTimeline events a producer other than
			      * SurfaceFlinger wrote: not used (engine/trust.h) */
};

/* True when any count of damage is not 0. */
bool input_stats_damaged(const struct input_stats *s);

/*
 * The damage as one clause list, e.g. "2 damaged packets, 3025 bytes skipped, cut at byte
 * 500000" (no newline), "" when there is none. Returns the length it needed (snprintf).
 */
int input_stats_describe(const struct input_stats *s, char *buf, size_t cap);

#endif

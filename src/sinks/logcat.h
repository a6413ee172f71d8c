/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --logcat and --logcat-out: every record into the Android log, as the seed's patched tracers
 * write it (shared/seeds/000: AnimatorTracer 5.2, DynamicAnimationTracer 5.3,
 * ViewPropertyTracer 15.5, ViewRefreshTracer 17.4; the tags and levels of its table 8):
 *   AnimatorTracer  I  an animator's Begin and End boxes, and its "Target:" line
 *   DynAnimTracer   I  SpringAnimation/FlingAnimation boxes (ART probes) and the animations
 *                      found without markers (springs, flings, curves fitted from values)
 *   ViewPropTrace   I  one entry per frame: "── F:<frame ms> ── ..." then a line per View
 *   ViewRefresh     D  "invalidate <View> (...)" per View that re-recorded in a frame,
 *                      "scheduleVsync ..." per frame that asked for one, and refresh storms;
 *                      a stack follows as "\tat <frame>" lines, as Log.d(TAG, msg, e) prints
 *   AnimFinding     W  a finding (engine/findings.h): its box line and what it concerns
 *   animtrace       I  jank and CUJ boxes, notes and the summary
 * FolmeTracer has no entry: no record of animtrace is a Folme animation (MIUI's Folme runs
 * unmarked, so its animations come as DynAnimTracer's unmarked ones).
 *
 * A box is one entry whose message holds its lines (the seed's Log.i(TAG, sb.toString());
 * logcat prints each line with the header). The text is the box sink's (sinks/box.h, rendered
 * into memory without colour); every string from a traced process goes through its escape.
 *
 * Live (--logcat), the way liblog writes: one datagram per message to logd's socket
 * (/dev/socket/logdw, SOCK_DGRAM, non-blocking), the log id main, the writer's tid and
 * CLOCK_REALTIME, without liblog (see logcat.c for the format and its sources). An entry
 * longer than LOGCAT_PAYLOAD_MAX is split at line ends into numbered parts, each starting with
 * a line "(part i/n)" (", continued mid-line" when a single line was longer than a part);
 * nothing is cut. What the socket refuses is counted, never retried.
 *
 * Per-frame entries (ViewPropTrace, ViewRefresh's per-frame ones) are limited to `rate` a
 * second of record time per tag; the entries left out in a second are counted and said in
 * their place: "── 60 frames not logged in the second from 1.234567 s (...) ──".
 *
 * Text (--logcat-out): the same messages as `logcat -v threadtime` prints them, a line per
 * message line: "MM-DD HH:MM:SS.mmm  PID  TID P TAG     : line", with the record's time
 * (the capture's clock, since boot: the date shows as 01-01 for a day's capture), its process
 * and thread (the seed's tracers logged from the app's threads; 0 for the summary).
 */
#ifndef ANIMTRACE_SINK_LOGCAT_H
#define ANIMTRACE_SINK_LOGCAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

/* LOGGER_ENTRY_MAX_PAYLOAD: priority, tag, NUL, message, NUL (AOSP system/logging liblog
 * include/log/log.h, earlier log/log_read.h: 4068, "an attempt to write more than this
 * amount will result in a truncated log entry") */
#define LOGCAT_PAYLOAD_MAX 4068
#define LOGCAT_HEADER_SIZE 11 /* android_log_header_t: id, tid, sec, nsec (packed) */
#define LOGCAT_SOCKET "/dev/socket/logdw"
/* A test hook: another path for logd's socket (a fake logd's). */
#define LOGCAT_SOCKET_ENV "ANIMTRACE_LOGDW"
#define LOGCAT_RATE_DEFAULT 60

/* android_LogPriority (android/log.h) */
enum logcat_prio {
	LOGCAT_DEBUG = 3,
	LOGCAT_INFO = 4,
	LOGCAT_WARN = 5,
};

struct sink_logcat_opts {
	FILE *text;	   /* threadtime text here (--logcat-out); NULL: none */
	unsigned int rate; /* per-frame entries a second per tag; 0: all */
};

struct sink_logcat;

/* Returns NULL and sets errno. Writes to the socket once connected, to o->text always. */
struct sink_logcat *sink_logcat__new(const struct sink_logcat_opts *o);

/* Connects to logd's socket at path (non-blocking datagrams). 0 or -errno (-ENOENT,
 * -ECONNREFUSED: no logd there); the sink then writes the text only. */
int sink_logcat__connect(struct sink_logcat *l, const char *path);

/* The engine-facing view of l, valid until sink_logcat__free. Its summary_fill sets the
 * summary's logcat counts (valid until sink_logcat__free). */
struct sink sink_logcat__sink(struct sink_logcat *l);

/* What was written, refused and left out so far. */
void sink_logcat__stats(const struct sink_logcat *l, struct logcat_stats *out);

/* Closes the socket (not the text file) and frees l; accepts NULL. */
void sink_logcat__free(struct sink_logcat *l);

/* ---- formats (pure) ---- */

/* One datagram as liblog sends it: header (log id main, tid, sec, nsec, little-endian), then
 * prio, tag, NUL, msg (len bytes), NUL. Its length, or 0 when over cap or over the payload
 * limit. */
size_t logcat_encode(uint8_t *buf, size_t cap, uint16_t tid, uint32_t sec, uint32_t nsec,
		     enum logcat_prio prio, const char *tag, const char *msg, size_t len);

/* "01-01 00:00:12.345  1234  1240 I AnimatorTracer: ", logcat -v threadtime's prefix. */
size_t logcat_threadtime(char *buf, size_t cap, uint64_t ts_ns, uint32_t pid, uint32_t tid,
			 enum logcat_prio prio, const char *tag);

/*
 * The parts of a message of len bytes whose parts hold at most room bytes of text each:
 * cut[i] is where part i ends (parts after the first start after the '\n' that ended the one
 * before, or right at a cut inside a line: mid[i] true). Returns the number of parts (1 when
 * it fits), or 0 when more than max would be needed or room is 0.
 */
size_t logcat_split(const char *msg, size_t len, size_t room, size_t *cut, bool *mid, size_t max);

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Damaged captures made on the fly (no stored large files), for the replay and end-to-end
 * tests: Perfetto traces with damaged packets, bad or oversized compressed_packets and
 * garbage, text captures cut inside a marker or with a timestamp jump. Each writes a file and
 * says, in struct dc_expect, what an honest reader must report about it.
 *
 * Every capture is process 10 ("com.example.dc", threads 10 and 11) drawing frames:
 * "B|10|Choreographer#doFrame" / "E|10" pairs 16.7 ms apart.
 */
#ifndef ANIMTRACE_TESTS_DAMAGED_CAPTURES_H
#define ANIMTRACE_TESTS_DAMAGED_CAPTURES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define DC_PID 10
#define DC_NAME "com.example.dc"
#define DC_FRAME_NS 16666667ull
#define DC_START_NS 5000000000000ull /* 5000 s after boot */

/* A growing byte buffer; a failed allocation aborts (these are tests). */
struct dc_buf {
	uint8_t *b;
	size_t len, cap;
};

static inline void dc_put(struct dc_buf *w, const void *p, size_t n)
{
	if (w->len + n > w->cap) {
		w->cap = (w->len + n) * 2 + 256;
		w->b = realloc(w->b, w->cap);
		if (!w->b)
			abort();
	}
	memcpy(w->b + w->len, p, n);
	w->len += n;
}

static inline void dc_varint(struct dc_buf *w, uint64_t v)
{
	uint8_t c;

	do {
		c = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		dc_put(w, &c, 1);
		v >>= 7;
	} while (v);
}

static inline void dc_uint(struct dc_buf *w, uint32_t id, uint64_t v)
{
	dc_varint(w, (uint64_t)id << 3);
	dc_varint(w, v);
}

static inline void dc_bytes(struct dc_buf *w, uint32_t id, const void *p, size_t n)
{
	dc_varint(w, (uint64_t)id << 3 | 2);
	dc_varint(w, n);
	dc_put(w, p, n);
}

static inline void dc_msg(struct dc_buf *w, uint32_t id, const struct dc_buf *sub)
{
	dc_bytes(w, id, sub->b, sub->len);
}

/* TracePacket { ftrace_events { cpu 0, event { timestamp, pid 11, print { buf } } } } */
static inline void dc_print_packet(struct dc_buf *trace, uint64_t ts, const char *buf)
{
	struct dc_buf pr = { 0 }, ev = { 0 }, bundle = { 0 }, pkt = { 0 };

	dc_bytes(&pr, 2, buf, strlen(buf));
	dc_uint(&ev, 1, ts);
	dc_uint(&ev, 2, DC_PID + 1);
	dc_msg(&ev, 3, &pr);
	dc_uint(&bundle, 1, 0);
	dc_msg(&bundle, 2, &ev);
	dc_msg(&pkt, 1, &bundle);
	dc_msg(trace, 1, &pkt);
	free(pr.b), free(ev.b), free(bundle.b), free(pkt.b);
}

/* TracePacket { process_tree { process { pid 10, cmdline DC_NAME }, thread { 11, tgid 10 } } } */
static inline void dc_names_packet(struct dc_buf *trace)
{
	struct dc_buf proc = { 0 }, th = { 0 }, tree = { 0 }, pkt = { 0 };

	dc_uint(&proc, 1, DC_PID);
	dc_bytes(&proc, 3, DC_NAME, strlen(DC_NAME));
	dc_uint(&th, 1, DC_PID + 1);
	dc_uint(&th, 3, DC_PID);
	dc_msg(&tree, 1, &proc);
	dc_msg(&tree, 2, &th);
	dc_msg(&pkt, 2, &tree);
	dc_msg(trace, 1, &pkt);
	free(proc.b), free(th.b), free(tree.b), free(pkt.b);
}

/* Frames [from, to) as print packets: a doFrame begin and end each. */
static inline void dc_frames(struct dc_buf *trace, int from, int to)
{
	for (int i = from; i < to; i++) {
		dc_print_packet(trace, DC_START_NS + (uint64_t)i * DC_FRAME_NS,
				"B|10|Choreographer#doFrame\n");
		dc_print_packet(trace, DC_START_NS + (uint64_t)i * DC_FRAME_NS + 4000000, "E|10\n");
	}
}

/* Deterministic garbage (an LCG), with no 0x0a so that no packet can hide in it. */
static inline void dc_garbage(struct dc_buf *w, size_t n, uint64_t seed)
{
	uint8_t c;

	for (size_t i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		c = (uint8_t)(seed >> 56);
		c = c == 0x0a ? 0x0b : c;
		dc_put(w, &c, 1);
	}
}

static inline void dc_write(const char *path, const struct dc_buf *w)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(w->b, 1, w->len, f) != w->len || fclose(f))
		abort();
}

/* What replaying one of these captures must report. */
struct dc_expect {
	unsigned frames; /* doFrame slices fed to the engine */
	uint64_t damaged, bad_blocks, skipped, truncated, time_jumps;
	const char *message; /* the one warning line (exact substring of stderr) */
};

/* 10 frames, 3000 bytes of garbage, 10 more frames: one damaged stretch, skipped. */
static inline struct dc_expect dc_damaged_protobuf(const char *path)
{
	struct dc_buf t = { 0 };

	dc_names_packet(&t);
	dc_frames(&t, 0, 10);
	dc_garbage(&t, 3000, 1);
	dc_frames(&t, 10, 20);
	dc_write(path, &t);
	free(t.b);
	return (struct dc_expect){
		.frames = 20,
		.damaged = 1,
		.skipped = 3000,
		.message = "animtrace: warning: damaged capture: 1 damaged packet or message, "
			   "3000 bytes skipped\n"
	};
}

/* compressed_packets (TracePacket field 50) holding the deflated Trace inner. cut: keep only
 * that fraction of the zlib stream (a damaged block). */
static inline void dc_compressed_packet(struct dc_buf *trace, const struct dc_buf *inner,
					double cut)
{
	uLongf zlen = compressBound(inner->len);
	uint8_t *z = malloc(zlen);
	struct dc_buf pkt = { 0 };

	if (!z || compress2(z, &zlen, inner->b, inner->len, 6) != Z_OK)
		abort();
	dc_bytes(&pkt, 50, z, (size_t)((double)zlen * cut));
	dc_msg(trace, 1, &pkt);
	free(z);
	free(pkt.b);
}

/*
 * A compressed block of 400 frames whose zlib stream is cut at half: the frames inflated
 * before the cut are read, the block is counted; then 10 whole frames.
 */
static inline struct dc_expect dc_bad_compressed(const char *path)
{
	struct dc_buf t = { 0 }, inner = { 0 };

	dc_names_packet(&t);
	dc_frames(&inner, 0, 400);
	dc_compressed_packet(&t, &inner, 0.5);
	dc_frames(&t, 400, 410);
	dc_write(path, &t);
	free(t.b);
	free(inner.b);
	return (struct dc_expect){ .frames = 0 /* 10 + what inflated: checked as > 10 */,
				   .bad_blocks = 1,
				   .message = "animtrace: warning: damaged capture: 1 compressed "
					      "block that did not inflate whole\n" };
}

/* One compressed block that inflates to more than the reader's 16 MiB packet window. */
static inline struct dc_expect dc_oversized_compressed(const char *path, unsigned frames)
{
	struct dc_buf t = { 0 }, inner = { 0 };

	dc_names_packet(&t);
	dc_frames(&inner, 0, (int)frames);
	dc_compressed_packet(&t, &inner, 1.0);
	dc_write(path, &t);
	free(t.b);
	free(inner.b);
	return (struct dc_expect){ .frames = frames, .message = "" };
}

/* An ftrace text line of the capture's app: "name-tid (tgid) [000] .... s.us: print: text". */
static inline void dc_text_line(FILE *f, uint64_t ts, const char *payload)
{
	fprintf(f, "  dc-%d ( %d) [000] .... %llu.%06llu: tracing_mark_write: %s\n", DC_PID + 1,
		DC_PID, (unsigned long long)(ts / 1000000000ull),
		(unsigned long long)(ts % 1000000000ull / 1000), payload);
}

static inline void dc_text_frames(FILE *f, int from, int to)
{
	for (int i = from; i < to; i++) {
		uint64_t ts = DC_START_NS + (uint64_t)i * DC_FRAME_NS;

		dc_text_line(f, ts, "B|10|Choreographer#doFrame");
		dc_text_line(f, ts + 4000000, "E|10");
	}
}

/* 20 frames, then the file ends inside a marker: "B|10|Choreographer#doFr" (no newline). */
static inline struct dc_expect dc_cut_text(const char *path)
{
	FILE *f = fopen(path, "w");
	long size;

	if (!f)
		abort();
	fputs("# tracer: nop\n", f);
	dc_text_frames(f, 0, 20);
	fprintf(f,
		"  dc-%d ( %d) [000] .... 5000.400000: tracing_mark_write: B|10|Choreographer#doFr",
		DC_PID + 1, DC_PID);
	size = ftell(f);
	if (fclose(f))
		abort();
	static char msg[128];

	snprintf(msg, sizeof(msg),
		 "animtrace: warning: damaged capture: cut at byte %ld (its "
		 "last line dropped)\n",
		 size);
	return (struct dc_expect){ .frames = 20, .truncated = 1, .message = msg };
}

/*
 * 10 frames, a frame whose end is written 10^10 s after boot (past 2^63 ns: a 317-year frame
 * when fed on), a begin 2 days later, a begin 1 hour earlier, then 10 more frames.
 */
static inline struct dc_expect dc_time_jump_text(const char *path)
{
	FILE *f = fopen(path, "w");
	uint64_t ts = DC_START_NS + 10 * DC_FRAME_NS;

	if (!f)
		abort();
	fputs("# tracer: nop\n", f);
	dc_text_frames(f, 0, 10);
	dc_text_line(f, ts, "B|10|Choreographer#doFrame");
	fprintf(f, "  dc-%d ( %d) [000] .... 10000000000.000000: tracing_mark_write: E|10\n",
		DC_PID + 1, DC_PID);
	dc_text_line(f, ts + 2 * 86400000000000ull, "B|10|Choreographer#doFrame");
	dc_text_line(f, ts - 3600000000000ull, "B|10|Choreographer#doFrame");
	dc_text_line(f, ts + 5000000, "E|10");
	dc_text_frames(f, 11, 21);
	if (fclose(f))
		abort();
	return (struct dc_expect){
		.frames = 21,
		.time_jumps = 3,
		.message = "animtrace: warning: damaged capture: 3 events with an impossible "
			   "timestamp dropped\n"
	};
}

/* A print of ts 2^64 - 1 ns among 20 frames of a Perfetto trace (it sorts last). */
static inline struct dc_expect dc_time_jump_protobuf(const char *path)
{
	struct dc_buf t = { 0 };

	dc_names_packet(&t);
	dc_frames(&t, 0, 10);
	dc_print_packet(&t, UINT64_MAX, "E|10\n");
	dc_frames(&t, 10, 20);
	dc_write(path, &t);
	free(t.b);
	return (struct dc_expect){
		.frames = 20,
		.time_jumps = 1,
		.message = "animtrace: warning: damaged capture: 1 event with an impossible "
			   "timestamp dropped\n"
	};
}

/*
 * One good packet, then bytes of garbage salted every 256 bytes with packet headers whose
 * 4-byte lengths reach almost to the end of the file (each fits, none parses): reading
 * every such body made resync quadratic. Then one more good packet.
 */
static inline void dc_garbage_protobuf(const char *path, size_t bytes)
{
	struct dc_buf t = { 0 };
	size_t start, end;

	dc_names_packet(&t);
	dc_frames(&t, 0, 1);
	start = t.len;
	dc_garbage(&t, bytes, 7);
	end = t.len;
	for (size_t at = start; at + 5 < end; at += 256) {
		uint64_t len = end - at - 5 - 16;

		t.b[at] = 0x0a;
		for (int i = 0; i < 4; i++, len >>= 7)
			t.b[at + 1 + i] = (uint8_t)((len & 0x7f) | (i < 3 ? 0x80 : 0));
	}
	dc_frames(&t, 1, 2);
	dc_write(path, &t);
	free(t.b);
}

#endif

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The real Pixel 7 Pro Perfetto trace through capture__next_event and marker_parse, and
 * the protobuf reader against truncations and byte flips of it (run under ASan by
 * `make asan`: each damaged copy is a heap buffer of exactly its length).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "replay/capture.h"
#include "common/marker.h"
#include "replay/pftrace.h"

#define PIXEL_TRACE TESTDATA "/traces/pixel7pro-android13-nowinandroid.perfetto-trace"
#define PIXEL_PRINTS 6246
#define PIXEL_BYTES 893026

Test(pftrace_replay, hands_every_print_of_the_pixel_trace_to_marker_parse)
{
	struct capture *c = capture__open(PIXEL_TRACE);
	size_t kinds[4] = { 0 }, parsed = 0, rejected = 0, b = 0, e = 0, s = 0, f = 0;
	size_t back_in_time = 0;
	uint64_t first = 0, last = 0;
	struct capture_line l;
	struct marker m;
	int k;

	cr_assert_not_null(c, "errno %d", errno);
	cr_assert(capture__is_protobuf(c));
	cr_assert_eq(capture__size(c), PIXEL_BYTES);
	while ((k = capture__next_event(c, &l)) != CAPTURE_END) {
		cr_assert(k >= 0 && k < CAPTURE_END, "kind %d", k);
		kinds[k]++;
		if (k != CAPTURE_MARKER)
			continue;
		back_in_time += l.ts_ns < last;
		first = first ? first : l.ts_ns;
		last = l.ts_ns;
		if (marker_parse(l.payload.p, l.payload.len, &m)) {
			rejected++;
			continue;
		}
		parsed++;
		b += m.type == MARKER_BEGIN;
		e += m.type == MARKER_END;
		s += m.type == MARKER_ASYNC_BEGIN;
		f += m.type == MARKER_ASYNC_END;
	}
	capture__free(c);
	cr_assert_eq(kinds[CAPTURE_MARKER], PIXEL_PRINTS);
	cr_assert_eq(kinds[CAPTURE_SCHED], 0, "the trace has no process tree");
	cr_assert_eq(parsed + rejected, PIXEL_PRINTS);
	cr_assert_eq(parsed, 6246);
	cr_assert_eq(rejected, 0);
	cr_expect_eq(b, 3122);
	cr_expect_eq(e, 3122);
	cr_expect_eq(s, 1);
	cr_expect_eq(f, 1);
	/* 75 events are out of order in the file (per-CPU bundles); none after sorting. */
	cr_assert_eq(back_in_time, 0);
	cr_assert_eq(first, 578089983483139ull);
	cr_assert_eq(last, 578098592792225ull);
}

Test(pftrace_replay, reads_the_first_print_of_the_pixel_trace_exactly)
{
	struct capture *c = capture__open(PIXEL_TRACE);
	struct capture_line l;

	cr_assert_not_null(c);
	cr_assert_eq(capture__next_event(c, &l), CAPTURE_MARKER);
	cr_assert_eq(l.ts_ns, 578089983483139ull);
	cr_assert_eq(l.tid, 9305);
	cr_assert_eq(l.tgid, -1);
	cr_assert_eq(l.comm.len, 0);
	cr_assert(strv_eq(l.payload, "B|9305|Firebase"), "\"%.*s\"", (int)l.payload.len,
		  l.payload.p);
	capture__free(c);
}

static uint8_t *load_pixel(size_t *len)
{
	FILE *fp = fopen(PIXEL_TRACE, "rb");
	uint8_t *d = malloc(PIXEL_BYTES);

	cr_assert_not_null(fp);
	cr_assert_not_null(d);
	*len = fread(d, 1, PIXEL_BYTES, fp);
	fclose(fp);
	cr_assert_eq(*len, PIXEL_BYTES);
	return d;
}

/* Parses a copy of exactly n bytes; returns its print count, or -1 when rejected. */
static long parse_copy(const uint8_t *d, size_t n, size_t flip_at, uint8_t flip)
{
	uint8_t *copy = malloc(n ? n : 1);
	struct pftrace *t;
	long prints = -1;

	cr_assert_not_null(copy);
	memcpy(copy, d, n);
	if (flip_at < n)
		copy[flip_at] ^= flip;
	t = pftrace__new(copy, n);
	if (t) {
		prints = (long)pftrace__n_prints(t);
		for (size_t i = 0; i < pftrace__n_threads(t); i++)
			cr_assert_not_null(pftrace__thread(t, pftrace__thread_at(t, i)->tid));
		pftrace__free(t);
	}
	free(copy);
	return prints;
}

/* Events of whole packets before the cut survive; a longer prefix never has fewer. */
Test(pftrace_replay, survives_truncation_at_many_offsets_and_keeps_whole_packets)
{
	size_t len, n, step;
	long prev = 0, got;
	uint8_t *d = load_pixel(&len);

	/* Every cut in the first KB, then about 400 evenly spaced, then the whole file. */
	step = len / 400;
	for (n = 0;; n = n < 1024 ? n + 1 : n + step < len ? n + step : len) {
		got = parse_copy(d, n, SIZE_MAX, 0);
		got = got < 0 ? 0 : got;
		cr_assert_geq(got, prev, "cut at %zu: %ld prints, %ld before", n, got, prev);
		cr_assert_leq(got, PIXEL_PRINTS);
		prev = got;
		if (n == len)
			break;
	}
	cr_assert_eq(prev, PIXEL_PRINTS);
	free(d);
}

Test(pftrace_replay, survives_byte_flips_anywhere_in_the_trace)
{
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	size_t len, at;
	uint8_t *d = load_pixel(&len);
	long got;

	for (int i = 0; i < 600; i++) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		/* Half the flips in the first 4 KB, where the headers and first packets are. */
		at = (size_t)(rng >> 33) % (i % 2 ? len : 4096);
		got = parse_copy(d, len, at, (uint8_t)(1u << ((rng >> 20) & 7)));
		cr_assert_leq(got, PIXEL_PRINTS + 1, "flip at %zu: %ld prints", at, got);
	}
	free(d);
}

/*
 * Resynchronisation: one flipped byte costs at most the packet it hit. Measured before it:
 * a flip at 134284 lost 4799 of the 6246 prints (the walk stopped there); now none are lost
 * (189 bytes, one packet's header stretch, are skipped). A flip at 360315 hits the top level
 * of a 3025-byte packet and loses exactly its 69 prints.
 */
Test(pftrace_replay, loses_at_most_one_packet_to_a_flipped_byte)
{
	static const struct {
		size_t at;
		long lost;
		uint64_t bytes;
	} cases[] = {
		{ 134284, 0, 189 },
		{ 360315, 69, 3025 },
	};
	uint64_t rng = 12345;
	size_t len, at;
	uint8_t *d = load_pixel(&len);
	long got, worst = 0, total = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pftrace *t;
		struct pf_damage dm;

		d[cases[i].at] ^= 1;
		t = pftrace__new(d, len);
		d[cases[i].at] ^= 1;
		cr_assert_not_null(t);
		pftrace__damage(t, &dm);
		cr_expect_eq((long)pftrace__n_prints(t), PIXEL_PRINTS - cases[i].lost, "at %zu",
			     cases[i].at);
		cr_expect_eq(dm.skipped_bytes, cases[i].bytes, "at %zu", cases[i].at);
		cr_expect_eq(dm.skipped_packets, 1);
		pftrace__free(t);
	}
	for (int i = 0; i < 500; i++) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		at = (size_t)(rng >> 33) % len;
		got = PIXEL_PRINTS - parse_copy(d, len, at, (uint8_t)(1u << ((rng >> 20) & 7)));
		worst = got > worst ? got : worst;
		total += got;
	}
	cr_expect_leq(worst, 69, "worst loss %ld prints", worst);
	cr_expect_leq(total, 500, "%ld prints lost in 500 flips", total);
	free(d);
}

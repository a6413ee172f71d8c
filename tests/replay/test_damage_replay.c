// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Damaged captures made on the fly (tests/damaged_captures.h) through replay_run and the
 * engine: what each reader could not use is counted in struct input_stats, what it could
 * is fed on, and a timestamp that is damage never becomes a frame. Resynchronising after
 * garbage takes time linear in its size.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "damaged_captures.h"
#include "engine/engine.h"
#include "replay/capture.h"
#include "replay/replay.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/animtrace-damage-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "%s/capture", dir);
	unlink(cmd);
	rmdir(dir);
}

TestSuite(damage_replay, .init = setup, .fini = teardown, .timeout = 120);

static char *capture_path(void)
{
	static char path[96];

	snprintf(path, sizeof(path), "%s/capture", dir);
	return path;
}

struct result {
	struct replay_stats st;
	uint64_t frames, longest_frame_ns, last_ns;
};

static int on_summary(void *ctx, const struct summary *sum)
{
	struct result *r = ctx;

	r->frames = sum->frames;
	r->longest_frame_ns = sum->n_longest_frames ? sum->longest_frames[0].dur_ns : 0;
	r->last_ns = sum->last_ns;
	return 0;
}

static const struct sink_ops summary_only = { .summary = on_summary };

static struct result replay_capture(void)
{
	struct result r = { 0 };
	struct engine *e = engine__new(NULL, (struct sink){ &summary_only, &r });
	char msg[256] = "";

	cr_assert_not_null(e);
	cr_assert_eq(replay_run(capture_path(), NULL, e, &r.st, msg, sizeof(msg)), 0, "%s", msg);
	engine__finish(e, r.st.last_ns, 0, 0);
	engine__free(e);
	return r;
}

/* The damage counts replay found are exactly the expected ones. */
static void expect_damage(const struct input_stats *in, const struct dc_expect *x)
{
	cr_expect_eq(in->damaged, x->damaged, "damaged %llu", (unsigned long long)in->damaged);
	cr_expect_eq(in->bad_blocks, x->bad_blocks, "bad_blocks %llu",
		     (unsigned long long)in->bad_blocks);
	cr_expect_eq(in->skipped, x->skipped, "skipped %llu", (unsigned long long)in->skipped);
	cr_expect_eq(in->truncated, x->truncated, "truncated %llu",
		     (unsigned long long)in->truncated);
	cr_expect_eq(in->time_jumps, x->time_jumps, "time_jumps %llu",
		     (unsigned long long)in->time_jumps);
	cr_expect_eq(in->dropped, 0);
}

Test(damage_replay, a_damaged_protobuf_is_counted_and_the_packets_around_it_are_read)
{
	struct dc_expect x = dc_damaged_protobuf(capture_path());
	struct result r = replay_capture();

	expect_damage(&r.st.input, &x);
	cr_assert(r.st.input.protobuf);
	cr_assert_eq(r.st.input.packets, 1 + 2 * 20, "packets %llu",
		     (unsigned long long)r.st.input.packets);
	cr_assert_eq(r.frames, x.frames);
	cr_assert(input_stats_damaged(&r.st.input));
}

Test(damage_replay, a_bad_compressed_block_is_counted_and_what_inflated_before_it_is_read)
{
	struct dc_expect x = dc_bad_compressed(capture_path());
	struct result r = replay_capture();

	expect_damage(&r.st.input, &x);
	/* The 10 whole frames after the block, and the first of the block's 400. */
	cr_assert_gt(r.frames, 10 + 100, "frames %llu", (unsigned long long)r.frames);
	cr_assert_lt(r.frames, 10 + 400, "frames %llu", (unsigned long long)r.frames);
}

Test(damage_replay, a_compressed_block_over_16_mib_inflated_loses_no_event)
{
	/* About 200 bytes of packets per frame: 100000 frames inflate to about 20 MiB. */
	struct dc_expect x = dc_oversized_compressed(capture_path(), 100000);
	struct result r = replay_capture();

	expect_damage(&r.st.input, &x);
	cr_assert_eq(r.frames, x.frames, "frames %llu", (unsigned long long)r.frames);
	cr_assert_eq(r.st.input.packets, 1 + 1 + 2 * 100000);
}

Test(damage_replay, a_text_capture_cut_inside_a_marker_drops_that_marker_and_says_so)
{
	struct dc_expect x = dc_cut_text(capture_path());
	struct result r = replay_capture();

	expect_damage(&r.st.input, &x);
	cr_assert_eq(r.st.input.truncated_at, (uint64_t)r.st.input.bytes);
	cr_assert_eq(r.st.markers, 40, "the cut begin was fed: %llu markers",
		     (unsigned long long)r.st.markers);
	cr_assert_eq(r.frames, x.frames);
	cr_assert_eq(r.st.input.lines, 1 + 40 + 1);
}

Test(damage_replay, timestamps_that_jump_are_dropped_and_make_no_giant_frame)
{
	struct dc_expect x = dc_time_jump_text(capture_path());
	struct result r = replay_capture();

	expect_damage(&r.st.input, &x);
	cr_assert_eq(r.frames, x.frames, "frames %llu", (unsigned long long)r.frames);
	cr_assert_lt(r.longest_frame_ns, 20000000, "a frame of %llu ns",
		     (unsigned long long)r.longest_frame_ns);
	cr_assert_lt(r.st.last_ns, DC_START_NS + 86400000000000ull);
}

Test(damage_replay, a_perfetto_print_at_2_to_the_64_ns_is_dropped)
{
	struct dc_expect x = dc_time_jump_protobuf(capture_path());
	struct result r = replay_capture();

	expect_damage(&r.st.input, &x);
	cr_assert_eq(r.frames, x.frames);
	cr_assert_lt(r.st.last_ns, DC_START_NS + 86400000000000ull, "last %llu",
		     (unsigned long long)r.st.last_ns);
	cr_assert_lt(r.longest_frame_ns, 20000000);
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The least CPU time of one open of a garbage protobuf of this many bytes (all resync), over
 * as many opens as take 50 ms (3 at least): no absolute threshold, only steadier figures. */
static double open_garbage(size_t bytes)
{
	double best = 1e9, total = 0;

	dc_garbage_protobuf(capture_path(), bytes);
	for (int i = 0; i < 3 || (total < 0.05 && i < 500); i++) {
		double t0 = cpu_seconds();
		struct capture *c = capture__open(capture_path());
		struct capture_damage d;
		double t = cpu_seconds() - t0;

		cr_assert_not_null(c);
		capture__damage(c, &d);
		cr_assert_eq(d.skipped_packets, 1);
		cr_assert_eq(d.skipped_bytes, bytes);
		capture__free(c);
		best = t < best ? t : best;
		total += t;
	}
	return best;
}

Test(damage_replay, resynchronising_after_garbage_takes_time_linear_in_its_size)
{
	double one = open_garbage(1u << 20), four = open_garbage(4u << 20);

	/* Linear: about 4; the quadratic scan took 16 and more (1 MiB: seconds). */
	cr_log_info("resync: 1 MiB %.5f s, 4 MiB %.5f s", one, four);
	cr_assert_lt(four, 6 * one, "1 MiB %.4f s, 4 MiB %.4f s", one, four);
}

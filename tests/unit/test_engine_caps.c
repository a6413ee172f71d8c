// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The engine's memory caps (src/common/caps.h): what each turns away is counted, never lost silently. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/caps.h"
#include "engine/engine.h"
#include "engine/state.h"

#define MS 1000000ull

/* A sink that only counts, so inputs far past every cap can be fed. */
struct counts {
	uint64_t starts, ends, cancel_before_start, frames, node_sets;
	struct summary sum;
	int n_running;
	uint32_t other_names_count;
	uint64_t median_ns;
};

static struct counts cnt;

static int on_start(void *ctx, const struct anim *a)
{
	cnt.starts++;
	return 0;
}

static int on_end(void *ctx, const struct anim *a)
{
	cnt.ends++;
	if (a->reason == END_CANCEL_BEFORE_START)
		cnt.cancel_before_start++;
	return 0;
}

static int on_frame(void *ctx, const struct frame *f)
{
	cnt.frames++;
	return 0;
}

static int on_frame_props(void *ctx, const struct frame_props *fp)
{
	cnt.node_sets += (uint64_t)fp->n_nodes;
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	cnt.sum = *s;
	cnt.n_running = s->n_running;
	for (int i = 0; i < s->n_names; i++) {
		if (!strcmp(s->names[i].name, "(other names)"))
			cnt.other_names_count = s->names[i].count;
		if (i == 0)
			cnt.median_ns = s->names[i].median_ns;
	}
	cnt.sum.names = NULL;
	cnt.sum.running = NULL;
	cnt.sum.longest = NULL;
	cnt.sum.longest_frames = NULL;
	return 0;
}

static const struct sink_ops count_ops = {
	.anim_start = on_start,
	.anim_end = on_end,
	.frame = on_frame,
	.summary = on_summary,
	.frame_props = on_frame_props,
};

static struct engine *eng;
static uint64_t now_ns;

static void setup(void)
{
	memset(&cnt, 0, sizeof(cnt));
	now_ns = 1000 * MS;
	eng = engine__new(NULL, (struct sink){ &count_ops, NULL });
	cr_assert_not_null(eng);
}

static void teardown(void)
{
	engine__free(eng);
}

TestSuite(engine_caps, .init = setup, .fini = teardown, .timeout = 60);

/* Feeds one marker written as text (the parser is the same one replay and live use). */
static void feed(uint32_t pid, uint32_t tid, const char *text)
{
	struct marker m;

	cr_assert_eq(marker_parse(text, strlen(text), &m), 0, "%s", text);
	engine__marker(eng, now_ns++, pid, tid, "app", &m);
}

static void async(uint32_t pid, char type, const char *name, long cookie)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%c|%u|%s|%ld", type, pid, name, cookie);
	feed(pid, pid, buf);
}

static void finish(void)
{
	engine__finish(eng, now_ns, 0, 0);
}

Test(engine_caps, running_animators_past_the_process_cap_evict_the_oldest_and_their_f_is_ignored)
{
	for (long i = 0; i < CAP_OPEN_ANIMS_PROC + 5; i++)
		async(10, 'S', "animator", i);
	for (long i = 0; i < 5; i++) /* the evicted ones end: no phantom cancel_before_start */
		async(10, 'F', "animator", i);
	async(10, 'F', "animator", 5); /* the oldest survivor ends normally */
	finish();
	cr_assert_eq(cnt.starts, CAP_OPEN_ANIMS_PROC + 5);
	cr_assert_eq(cnt.sum.evicted.animators, 5);
	cr_assert_eq(cnt.ends, 1);
	cr_assert_eq(cnt.cancel_before_start, 0);
	cr_assert_eq(cnt.n_running, CAP_OPEN_ANIMS_PROC - 1);
}

Test(engine_caps, running_animators_past_the_total_cap_are_evicted_from_the_busiest_process)
{
	int per = CAP_OPEN_ANIMS_PROC - 24; /* under the process cap */
	int procs = CAP_OPEN_ANIMS / per + 1;

	for (int p = 0; p < procs; p++)
		for (long i = 0; i < per; i++)
			async(100 + p, 'S', "animator", i);
	finish();
	cr_assert_eq(cnt.sum.evicted.animators, (uint64_t)(procs * per - CAP_OPEN_ANIMS));
	cr_assert_eq(cnt.n_running, CAP_OPEN_ANIMS);
}

Test(engine_caps, a_million_unterminated_starts_keep_the_caps_and_count_the_rest)
{
	for (long i = 0; i < 1000000; i++)
		async(10, 'S', "animator", i);
	finish();
	cr_assert_eq(cnt.starts, 1000000);
	cr_assert_eq(cnt.sum.evicted.animators, 1000000 - CAP_OPEN_ANIMS_PROC);
	cr_assert_eq(cnt.n_running, CAP_OPEN_ANIMS_PROC);
	cr_assert(cnt.sum.evicted.anim_keys > 0);
}

Test(engine_caps, a_full_key_table_forgets_only_animators_that_are_not_running)
{
	async(10, 'S', "animator", -1); /* stays running across the sweep */
	for (long i = 0; i < CAP_ANIM_KEYS; i++) {
		async(10, 'S', "animator", i);
		async(10, 'F', "animator", i);
	}
	async(10, 'F', "animator", -1);
	finish();
	cr_assert_eq(cnt.sum.evicted.anim_keys, CAP_ANIM_KEYS - 1);
	cr_assert_eq(cnt.ends, CAP_ANIM_KEYS + 1);
	cr_assert_eq(cnt.cancel_before_start, 0);
	cr_assert_eq(cnt.n_running, 0);
}

Test(engine_caps, names_past_the_cap_share_one_statistics_row)
{
	char name[64];

	for (int i = 0; i < CAP_NAMES + 6; i++) {
		snprintf(name, sizeof(name), "animator:p%d", i);
		async(10, 'S', name, i);
		async(10, 'F', name, i);
	}
	finish();
	cr_assert_eq(cnt.sum.n_names, CAP_NAMES + 1);
	cr_assert_eq(cnt.other_names_count, 6);
	cr_assert_eq(cnt.sum.evicted.names, 12); /* 6 starts and 6 ends */
	cr_assert_eq(cnt.ends, CAP_NAMES + 6);
}

Test(engine_caps, durations_past_the_cap_keep_a_sample_for_the_median)
{
	for (long i = 0; i < CAP_DURATIONS + 100; i++) {
		async(10, 'S', "animator", i);
		now_ns += 5 * MS;
		async(10, 'F', "animator", i);
	}
	finish();
	cr_assert_eq(cnt.sum.evicted.durations, 100);
	cr_assert_eq(cnt.median_ns, 5 * MS + 1); /* every duration is 5 ms + the 1 ns step */
}

Test(engine_caps, slices_nested_past_the_cap_are_closed_by_their_own_e)
{
	char buf[64];

	for (int i = 0; i < CAP_SLICE_DEPTH + 44; i++)
		feed(10, 10, "B|10|nested");
	for (int i = 0; i < CAP_SLICE_DEPTH + 44; i++)
		feed(10, 10, "E|10");
	snprintf(buf, sizeof(buf), "B|10|Choreographer#doFrame 7");
	feed(10, 10, buf);
	feed(10, 10, "E|10");
	finish();
	cr_assert_eq(cnt.sum.evicted.slices, 44);
	cr_assert_eq(cnt.frames, 1);
}

Test(engine_caps, a_full_thread_table_forgets_idle_threads)
{
	for (uint32_t tid = 1; tid <= CAP_THREADS + 1; tid++) {
		feed(10, 1000 + tid, "B|10|work");
		feed(10, 1000 + tid, "E|10");
	}
	finish();
	cr_assert_eq(cnt.sum.evicted.threads, CAP_THREADS);
}

/* Threads that never end their slice: the oldest quarter goes at once, the newest is kept. */
Test(engine_caps, a_full_thread_table_of_open_slices_forgets_the_least_recently_used)
{
	uint32_t n = 3 * CAP_THREADS;

	for (uint32_t tid = 1; tid <= n; tid++)
		feed(10, 1000 + tid, "B|10|work");
	feed(10, 1000 + n, "E|10"); /* the newest still has its slice */
	feed(10, 1000 + n, "B|10|Choreographer#doFrame 9");
	feed(10, 1000 + n, "E|10");
	finish();
	cr_assert_geq(cnt.sum.evicted.threads, n - CAP_THREADS);
	cr_assert_leq(cnt.sum.evicted.threads, n - CAP_THREADS / 4 * 3);
	cr_assert_eq(cnt.frames, 1);
}

Test(engine_caps, a_full_node_table_forgets_nodes_outside_the_current_frame)
{
	for (uint64_t n = 1; n <= CAP_NODES_PROC + 1; n++) {
		feed(10, 10, "B|10|Choreographer#doFrame");
		engine__prop(eng, now_ns++, 10, 10, n * 16, NULL, PROP_ALPHA, 0.5f, NULL);
		feed(10, 10, "E|10");
	}
	finish();
	cr_assert_eq(cnt.sum.evicted.nodes, CAP_NODES_PROC);
	cr_assert_eq(cnt.node_sets, CAP_NODES_PROC + 1);
}

Test(engine_caps, one_endless_frame_of_new_nodes_is_sent_early_rather_than_growing)
{
	for (uint64_t n = 1; n <= 2 * CAP_NODES_PROC; n++)
		engine__prop(eng, now_ns++, 10, 10, n * 16, NULL, PROP_ALPHA, 0.5f, NULL);
	finish();
	cr_assert_eq(cnt.sum.evicted.nodes, CAP_NODES_PROC);
	cr_assert_eq(cnt.sum.evicted.node_frames, 2 * CAP_NODES_PROC - 2 * CAP_FRAME_NODES);
}

/* Processes each outside a frame, filling their own tables: the engine-wide cap holds them,
 * each process giving up its own old nodes; nothing over the cap, nothing uncounted. */
Test(engine_caps, the_nodes_of_all_processes_are_capped_together)
{
	uint32_t procs = 2 * CAP_NODES / CAP_NODES_PROC;
	uint64_t n = 0;

	for (uint32_t pid = 100; pid < 100 + procs; pid++)
		for (uint64_t i = 0; i < CAP_NODES_PROC; i++, n++)
			engine__prop(eng, now_ns++, pid, pid, (n + 1) * 16, NULL, PROP_ALPHA, 0.5f,
				     NULL);
	cr_assert_leq(eng->props.nodes, CAP_NODES); /* engine/state.h */
	finish();
	cr_assert_geq(cnt.sum.evicted.nodes, n - CAP_NODES);
}

Test(engine_caps, processes_past_the_cap_are_counted_and_exited_ones_make_room)
{
	for (uint32_t pid = 1; pid <= CAP_PROCS + 3; pid++)
		async(pid, 'S', "animator", 1);
	cr_assert_eq(cnt.starts, CAP_PROCS);
	engine__process_exit(eng, now_ns++, 1);
	async(5000, 'S', "animator", 1);
	finish();
	cr_assert_eq(cnt.starts, CAP_PROCS + 1);
	cr_assert_eq(cnt.sum.evicted.processes, 3);
	cr_assert_eq(cnt.ends, 1); /* pid 1's animator, ended by its exit */
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Lifecycle engine: hand-built marker sequences into a sink that records everything. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"

#define MS 1000000ull
#define PERIOD 16666667ull /* 60 Hz */
#define CAP_MAX 64
#define IDS_MAX 8

struct rec {
	struct anim starts[CAP_MAX], ends[CAP_MAX];
	int n_starts, n_ends;
	struct frame frames[CAP_MAX];
	uint64_t frame_ids[CAP_MAX][IDS_MAX];
	int n_frames;
	uint64_t frames_total; /* also counts the ones past CAP_MAX */
	int n_summaries;
	struct summary sum;
	struct name_stat names[8];
	struct anim longest[5], running[8];
	char order[256]; /* s, e, f, p per callback: checks interleaving */
	int n_order;
	struct frame_props fps[CAP_MAX];
	struct node_props fp_nodes[CAP_MAX][IDS_MAX];
	int n_fps;
	char note[256];
};

static struct rec rec;

static void rec_order(char c)
{
	if (rec.n_order < (int)sizeof(rec.order) - 1)
		rec.order[rec.n_order++] = c;
}

static int on_start(void *ctx, const struct anim *a)
{
	if (rec.n_starts < CAP_MAX)
		rec.starts[rec.n_starts++] = *a;
	rec_order('s');
	return 0;
}

static int on_end(void *ctx, const struct anim *a)
{
	if (rec.n_ends < CAP_MAX)
		rec.ends[rec.n_ends++] = *a;
	rec_order('e');
	return 0;
}

static int on_frame(void *ctx, const struct frame *f)
{
	rec.frames_total++;
	if (rec.n_frames >= CAP_MAX)
		return 0;
	cr_assert(f->n_anims <= IDS_MAX);
	rec.frames[rec.n_frames] = *f;
	if (f->n_anims)
		memcpy(rec.frame_ids[rec.n_frames], f->anim_ids, f->n_anims * sizeof(uint64_t));
	rec.frames[rec.n_frames].anim_ids = rec.frame_ids[rec.n_frames];
	rec.n_frames++;
	rec_order('f');
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	rec.n_summaries++;
	rec.sum = *s;
	cr_assert(s->n_names <= 8 && s->n_running <= 8 && s->n_longest <= 5);
	if (s->n_names)
		memcpy(rec.names, s->names, s->n_names * sizeof(*s->names));
	if (s->n_longest)
		memcpy(rec.longest, s->longest, s->n_longest * sizeof(*s->longest));
	if (s->n_running)
		memcpy(rec.running, s->running, s->n_running * sizeof(*s->running));
	return 0;
}

static int on_frame_props(void *ctx, const struct frame_props *fp)
{
	rec_order('p');
	if (rec.n_fps >= CAP_MAX)
		return 0;
	rec.fps[rec.n_fps] = *fp;
	memcpy(rec.fp_nodes[rec.n_fps], fp->nodes,
	       (fp->n_nodes < IDS_MAX ? fp->n_nodes : IDS_MAX) * sizeof(*fp->nodes));
	rec.fps[rec.n_fps].nodes = rec.fp_nodes[rec.n_fps];
	rec.n_fps++;
	return 0;
}

static int on_note(void *ctx, const char *msg)
{
	snprintf(rec.note, sizeof(rec.note), "%s", msg);
	return 0;
}

static const struct sink_ops rec_ops = {
	.anim_start = on_start,
	.anim_end = on_end,
	.frame = on_frame,
	.summary = on_summary,
	.frame_props = on_frame_props,
	.note = on_note,
};

static struct engine *eng;

static void setup(void)
{
	memset(&rec, 0, sizeof(rec));
	eng = engine__new(NULL, (struct sink){ &rec_ops, NULL });
	cr_assert_not_null(eng);
}

static void teardown(void)
{
	engine__free(eng);
}

TestSuite(engine, .init = setup, .fini = teardown);

static void mark(uint64_t ts, uint32_t pid, uint32_t tid, const char *proc, char type,
		 const char *name, int64_t cookie)
{
	struct marker m = { .type = (enum marker_type)type, .tgid = (int32_t)pid };

	m.name.p = name ? name : "";
	m.name.len = name ? strlen(name) : 0;
	m.value = cookie;
	engine__marker(eng, ts, pid, tid, proc, &m);
}

static void B(uint64_t ts, uint32_t pid, uint32_t tid, const char *name)
{
	mark(ts, pid, tid, "", 'B', name, 0);
}

static void E(uint64_t ts, uint32_t pid, uint32_t tid)
{
	mark(ts, pid, tid, "", 'E', NULL, 0);
}

static void S(uint64_t ts, uint32_t pid, const char *name, int64_t cookie)
{
	mark(ts, pid, pid, "com.example.anim", 'S', name, cookie);
}

static void F(uint64_t ts, uint32_t pid, const char *name, int64_t cookie)
{
	mark(ts, pid, pid, "com.example.anim", 'F', name, cookie);
}

/* doFrame at t: animation phase [t+0.5, t+1.5] ms, traversal [t+2, t+5] ms, ends at t+8. */
static void frame_begin(uint64_t t, uint32_t pid, int64_t vsync)
{
	char name[64];

	if (vsync < 0)
		snprintf(name, sizeof(name), "Choreographer#doFrame");
	else
		snprintf(name, sizeof(name), "Choreographer#doFrame %lld", (long long)vsync);
	B(t, pid, pid, name);
	B(t + MS / 2, pid, pid, "animation");
}

static void frame_end(uint64_t t, uint32_t pid)
{
	E(t + 3 * MS / 2, pid, pid);
	B(t + 2 * MS, pid, pid, "traversal");
	E(t + 5 * MS, pid, pid);
	E(t + 8 * MS, pid, pid);
}

static void frame60(uint64_t t, uint32_t pid, int64_t vsync)
{
	frame_begin(t, pid, vsync);
	frame_end(t, pid);
}

/* frame60 with vsync id vsync, then its RenderThread (tid 12) DrawFrames: 1.5 ms, ended at
 * t + 10 ms. */
static void frame60_drawn(uint64_t t, uint32_t pid, int64_t vsync)
{
	char name[64];

	frame60(t, pid, vsync);
	snprintf(name, sizeof(name), "DrawFrames %lld", (long long)vsync);
	B(t + 8 * MS + 500000, pid, 12, name);
	E(t + 10 * MS, pid, 12);
}

Test(engine, an_object_animator_of_300_ms_spans_18_frames_at_60_hz)
{
	const uint64_t T = 1000 * MS, f0 = T + 15666661;

	S(T, 1234, "animator:alpha", 44292905);
	for (int k = 0; k < 20; k++) {
		uint64_t t = f0 + k * PERIOD;

		frame_begin(t, 1234, -1);
		if (k == 17) {
			cr_assert_eq(t, T + 299 * MS);
			F(T + 300 * MS, 1234, "animator:alpha", 44292905);
		}
		frame_end(t, 1234);
	}
	engine__finish(eng, T + 400 * MS, 0, 0);

	cr_assert_eq(rec.n_starts, 1);
	cr_assert_eq(rec.starts[0].kind, ANIM_OBJECT);
	cr_assert_eq(rec.starts[0].n_props, 1);
	cr_assert_str_eq(rec.starts[0].props[0], "alpha");
	cr_assert_str_eq(rec.starts[0].name, "animator:alpha");
	cr_assert_str_eq(rec.starts[0].process, "com.example.anim");
	cr_assert_eq(rec.starts[0].id, 44292905);
	cr_assert_eq(rec.starts[0].start_ns, T);
	cr_assert_eq(rec.starts[0].frames, 0);
	cr_assert_eq(rec.n_ends, 1);
	cr_assert_eq(rec.ends[0].end_ns - rec.ends[0].start_ns, 300 * MS);
	cr_assert_eq(rec.ends[0].frames, 18);
	cr_assert_eq(rec.ends[0].reason, END_ENDED);
	cr_assert_eq(rec.ends[0].reason_source, REASON_INFERRED);
	cr_assert_eq(rec.ends[0].restarts, 0);
	cr_assert_eq(rec.n_frames, 20);
	for (int k = 0; k < 20; k++) {
		cr_assert_eq(rec.frames[k].seq, (uint64_t)k + 1);
		cr_assert_eq(rec.frames[k].vsync_id, -1);
		cr_assert_eq(rec.frames[k].start_ns, f0 + k * PERIOD);
		cr_assert_eq(rec.frames[k].dur_ns, 8 * MS);
		cr_assert_eq(rec.frames[k].phase_ns[PHASE_ANIMATION], 1 * MS);
		cr_assert_eq(rec.frames[k].phase_ns[PHASE_TRAVERSAL], 3 * MS);
		cr_assert_eq(rec.frames[k].phase_ns[PHASE_DRAW], 0);
		cr_assert_eq(rec.frames[k].n_anims, k < 18 ? 1 : 0, "frame %d", k);
	}
	cr_assert_eq(rec.frame_ids[17][0], 44292905);
	cr_assert_eq(rec.n_summaries, 1);
	cr_assert_eq(rec.sum.anims_started, 1);
	cr_assert_eq(rec.sum.anims_ended, 1);
	cr_assert_eq(rec.sum.frames, 20);
	cr_assert_eq(rec.sum.markers, 2 + 20 * 6);
	cr_assert_eq(rec.sum.first_ns, T);
	cr_assert_eq(rec.sum.last_ns, T + 400 * MS);
	cr_assert_eq(rec.sum.n_names, 1);
	cr_assert_str_eq(rec.names[0].name, "animator:alpha");
	cr_assert_eq(rec.names[0].count, 1);
	cr_assert_eq(rec.names[0].total_ns, 300 * MS);
	cr_assert_eq(rec.names[0].median_ns, 300 * MS);
	cr_assert_eq(rec.names[0].max_ns, 300 * MS);
	cr_assert_eq(rec.sum.n_longest, 1);
	cr_assert_eq(rec.longest[0].id, 44292905);
	cr_assert_eq(rec.sum.n_running, 0);
}

Test(engine, an_s_inside_a_do_frame_counts_that_frame)
{
	frame_begin(100 * MS, 7, 1);
	S(100 * MS + MS, 7, "animator", 5);
	frame_end(100 * MS, 7);
	frame60(100 * MS + PERIOD, 7, 2);
	F(100 * MS + 2 * PERIOD, 7, "animator", 5);
	engine__finish(eng, 200 * MS, 0, 0);
	cr_assert_eq(rec.starts[0].frames, 1);
	cr_assert_eq(rec.starts[0].kind, ANIM_VALUE);
	cr_assert_eq(rec.starts[0].n_props, 0);
	cr_assert_eq(rec.ends[0].frames, 2);
	cr_assert_eq(rec.n_frames, 2);
	cr_assert_eq(rec.frames[0].n_anims, 1);
	cr_assert_eq(rec.frames[0].vsync_id, 1);
	cr_assert_eq(rec.frames[1].n_anims, 1);
	cr_assert_eq(rec.frames[1].vsync_id, 2);
}

Test(engine, f_without_s_is_a_cancel_before_start)
{
	F(5 * MS, 42, "animator:scaleX", 77);
	engine__finish(eng, 10 * MS, 0, 0);
	cr_assert_eq(rec.n_starts, 0);
	cr_assert_eq(rec.n_ends, 1);
	cr_assert_eq(rec.ends[0].reason, END_CANCEL_BEFORE_START);
	cr_assert_eq(rec.ends[0].start_ns, 0);
	cr_assert_eq(rec.ends[0].end_ns, 5 * MS);
	cr_assert_eq(rec.ends[0].end_tid, 42);
	cr_assert_eq(rec.ends[0].frames, 0);
	cr_assert_eq(rec.sum.anims_started, 0);
	cr_assert_eq(rec.sum.anims_ended, 1);
	cr_assert_eq(rec.names[0].count, 1);
	cr_assert_eq(rec.names[0].cancels, 1);
	cr_assert_eq(rec.names[0].total_ns, 0);
	cr_assert_eq(rec.sum.n_longest, 0);
}

Test(engine, s_and_f_closer_than_1_ms_without_frames_ended_in_their_first_frame_never_force_end)
{
	S(10 * MS, 1, "animator", 1);
	F(10 * MS + 200000, 1, "animator", 1);
	S(20 * MS, 1, "animator", 2);
	F(21 * MS, 1, "animator", 2); /* exactly 1 ms: an ordinary end */
	engine__finish(eng, 30 * MS, 0, 0);
	cr_assert_eq(rec.n_ends, 2);
	cr_assert_eq(rec.ends[0].reason, END_FIRST_FRAME);
	cr_assert_str_eq(end_reason_str(rec.ends[0].reason), "first_frame");
	cr_assert_eq(rec.ends[0].end_ns - rec.ends[0].start_ns, 200000);
	cr_assert_eq(rec.ends[1].reason, END_ENDED);
	cr_assert_eq(rec.names[0].cancels, 0);
}

Test(engine, the_first_frame_window_without_frames_follows_opts_instant_ns)
{
	struct engine_opts o = { .instant_ns = 5 * MS };

	engine__free(eng);
	eng = engine__new(&o, (struct sink){ &rec_ops, NULL });
	S(10 * MS, 1, "animator", 1);
	F(14 * MS, 1, "animator", 1);
	engine__finish(eng, 30 * MS, 0, 0);
	cr_assert_eq(rec.ends[0].reason, END_FIRST_FRAME);
}

Test(engine, cookie_reuse_after_f_counts_restarts)
{
	S(0 + 1 * MS, 9, "animator:alpha", 3);
	F(101 * MS, 9, "animator:alpha", 3);
	S(200 * MS, 9, "animator:alpha", 3);
	F(500 * MS, 9, "animator:alpha", 3);
	S(600 * MS, 9, "animator:alpha", 3);
	F(650 * MS, 9, "animator:alpha", 3);
	engine__finish(eng, 700 * MS, 0, 0);
	cr_assert_eq(rec.n_starts, 3);
	cr_assert_eq(rec.starts[0].restarts, 0);
	cr_assert_eq(rec.starts[1].restarts, 1);
	cr_assert_eq(rec.starts[2].restarts, 2);
	cr_assert_eq(rec.ends[2].restarts, 2);
	cr_assert_eq(rec.names[0].count, 3);
	cr_assert_eq(rec.names[0].total_ns, 450 * MS);
	cr_assert_eq(rec.names[0].median_ns, 100 * MS);
	cr_assert_eq(rec.names[0].max_ns, 300 * MS);
	cr_assert_eq(rec.sum.n_longest, 3);
	cr_assert_eq(rec.longest[0].start_ns, 200 * MS);
	cr_assert_eq(rec.longest[1].start_ns, 1 * MS);
	cr_assert_eq(rec.longest[2].start_ns, 600 * MS);
}

Test(engine, an_even_count_median_is_the_mean_of_the_middle_two)
{
	S(0 + 1 * MS, 9, "animator", 3);
	F(101 * MS, 9, "animator", 3);
	S(200 * MS, 9, "animator", 3);
	F(501 * MS, 9, "animator", 3);
	engine__finish(eng, 700 * MS, 0, 0);
	cr_assert_eq(rec.names[0].median_ns, 200500000);
}

Test(engine, s_while_running_ends_the_old_run_and_starts_again)
{
	S(10 * MS, 9, "animator", 3);
	S(50 * MS, 9, "animator", 3);
	F(90 * MS, 9, "animator", 3);
	engine__finish(eng, 100 * MS, 0, 0);
	cr_assert_str_eq(rec.order, "sese");
	cr_assert_eq(rec.ends[0].reason, END_ENDED);
	cr_assert_eq(rec.ends[0].start_ns, 10 * MS);
	cr_assert_eq(rec.ends[0].end_ns, 50 * MS);
	cr_assert_eq(rec.ends[0].restarts, 0);
	cr_assert_eq(rec.starts[1].restarts, 1);
	cr_assert_eq(rec.ends[1].start_ns, 50 * MS);
	cr_assert_eq(rec.ends[1].end_ns, 90 * MS);
	cr_assert_eq(rec.sum.anims_started, 2);
	cr_assert_eq(rec.sum.anims_ended, 2);
}

Test(engine, the_same_cookie_under_two_names_is_two_animators)
{
	S(10 * MS, 9, "animator:alpha", 3);
	S(11 * MS, 9, "animator:scaleX", 3);
	engine__finish(eng, 100 * MS, 0, 0);
	cr_assert_eq(rec.n_ends, 0);
	cr_assert_eq(rec.sum.n_running, 2);
	cr_assert_eq(rec.starts[1].restarts, 0);
}

Test(engine, process_exit_ends_only_that_process_animators)
{
	S(10 * MS, 100, "animator:alpha", 1);
	S(20 * MS, 100, "animator", 2);
	S(30 * MS, 200, "animator", 3);
	engine__process_exit(eng, 40 * MS, 100);
	engine__finish(eng, 50 * MS, 0, 0);
	cr_assert_eq(rec.n_ends, 2);
	cr_assert_eq(rec.ends[0].id, 1);
	cr_assert_eq(rec.ends[0].reason, END_PROCESS_EXIT);
	cr_assert_eq(rec.ends[0].end_ns, 40 * MS);
	cr_assert_eq(rec.ends[0].end_tid, 0);
	cr_assert_eq(rec.ends[1].id, 2);
	cr_assert_eq(rec.ends[1].reason, END_PROCESS_EXIT);
	cr_assert_eq(rec.sum.n_running, 1);
	cr_assert_eq(rec.running[0].id, 3);
	cr_assert_eq(rec.running[0].pid, 200);
}

Test(engine, finish_reports_running_animators_in_the_summary_only)
{
	S(10 * MS, 6, "animator:alpha", 12);
	S(20 * MS, 5, "animator", 13);
	S(30 * MS, 5, "animator:alpha", 11);
	frame60(40 * MS, 5, -1);
	engine__finish(eng, 100 * MS, 7, 3);
	cr_assert_eq(rec.n_ends, 0);
	cr_assert_eq(rec.sum.anims_started, 3);
	cr_assert_eq(rec.sum.anims_ended, 0);
	cr_assert_eq(rec.sum.n_running, 3);
	cr_assert_eq(rec.running[0].id, 12);
	cr_assert_eq(rec.running[1].id, 13);
	cr_assert_eq(rec.running[2].id, 11);
	cr_assert_eq(rec.running[2].reason, END_RUNNING_AT_EXIT);
	cr_assert_eq(rec.running[2].end_ns, 0);
	cr_assert_eq(rec.running[2].frames, 1);
	cr_assert_eq(rec.running[0].frames, 0);
	cr_assert_eq(rec.sum.drops, 7);
	cr_assert_eq(rec.sum.truncated, 3);
	cr_assert_eq(rec.sum.n_names, 2);
	cr_assert_str_eq(rec.names[0].name, "animator:alpha");
	cr_assert_eq(rec.names[0].count, 2);
	cr_assert_eq(rec.names[0].running, 2);
	cr_assert_str_eq(rec.names[1].name, "animator");
	cr_assert_eq(rec.names[1].running, 1);
	cr_assert_eq(rec.frames[0].n_anims, 2);
	cr_assert_eq(rec.frame_ids[0][0], 13);
	cr_assert_eq(rec.frame_ids[0][1], 11);
}

Test(engine, draw_frames_with_vsync_ids_match_their_frame)
{
	const uint64_t t = 1000 * MS;

	frame60(t, 10, 100);
	B(t + 8 * MS + 500000, 10, 12, "DrawFrames 100");
	B(t + 9 * MS, 10, 12, "syncFrameState");
	E(t + 10 * MS, 10, 12);
	E(t + 14 * MS + 500000, 10, 12);
	cr_assert_eq(rec.n_frames, 1); /* emitted as soon as its draw ended */
	frame60(t + PERIOD, 10, 101);
	B(t + PERIOD + 9 * MS, 10, 12, "DrawFrames 999");
	E(t + PERIOD + 10 * MS, 10, 12);
	cr_assert_eq(rec.n_frames, 1); /* another vsync's draw does not complete 101 */
	frame60(t + 2 * PERIOD, 10, 102);
	cr_assert_eq(rec.n_frames, 2);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_frames, 3);
	cr_assert_eq(rec.frames[0].vsync_id, 100);
	cr_assert_eq(rec.frames[0].phase_ns[PHASE_DRAW], 6 * MS);
	cr_assert_eq(rec.frames[0].tid, 10);
	cr_assert_eq(rec.frames[1].vsync_id, 101);
	cr_assert_eq(rec.frames[1].phase_ns[PHASE_DRAW], 0);
	cr_assert_eq(rec.frames[2].vsync_id, 102);
	cr_assert_eq(rec.frames[2].seq, 3);
	cr_assert_eq(rec.sum.frames, 3);
}

Test(engine, draw_frame_without_ids_matches_the_last_ended_frame)
{
	const uint64_t t = 1000 * MS;

	frame60(t, 10, -1);
	B(t + 9 * MS, 10, 10, "DrawFrame"); /* on the UI thread: not RenderThread */
	E(t + 10 * MS, 10, 10);
	cr_assert_eq(rec.n_frames, 0);
	B(t + 10 * MS, 10, 11, "DrawFrame");
	E(t + 13 * MS, 10, 11);
	cr_assert_eq(rec.n_frames, 1);
	cr_assert_eq(rec.frames[0].phase_ns[PHASE_DRAW], 3 * MS);
	B(t + 14 * MS, 10, 11, "DrawFrame"); /* no frame waiting: ignored */
	E(t + 15 * MS, 10, 11);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_frames, 1);
}

/* A RenderThread behind the UI thread: frame 101's draw ends after doFrame 102 began. */
Test(engine, a_draw_that_ends_after_the_next_doframe_began_counts_for_its_own_frame)
{
	const uint64_t t = 1000 * MS;

	frame60_drawn(t, 10, 100);
	frame60(t + PERIOD, 10, 101);
	B(t + PERIOD + 9 * MS, 10, 12, "DrawFrames 101");
	B(t + 2 * PERIOD, 10, 10, "Choreographer#doFrame 102");
	cr_assert_eq(rec.n_frames, 1, "101 waits for its draw");
	E(t + 2 * PERIOD + MS / 4, 10, 12);
	cr_assert_eq(rec.n_frames, 2);
	cr_assert_eq(rec.frames[1].vsync_id, 101);
	cr_assert_eq(rec.frames[1].phase_ns[PHASE_DRAW], PERIOD - 9 * MS + MS / 4);
	B(t + 2 * PERIOD + MS / 2, 10, 10, "animation");
	frame_end(t + 2 * PERIOD, 10);
	B(t + 2 * PERIOD + 9 * MS, 10, 12, "DrawFrames 102");
	E(t + 2 * PERIOD + 11 * MS, 10, 12);
	cr_assert_eq(rec.n_frames, 3);
	cr_assert_eq(rec.frames[2].vsync_id, 102);
	cr_assert_eq(rec.frames[2].phase_ns[PHASE_DRAW], 2 * MS);
}

/* The process's first draw, begun before the next doFrame and ended after it, still counts. */
Test(engine, the_first_draw_under_way_when_the_next_doframe_begins_counts_for_its_frame)
{
	const uint64_t t = 1000 * MS;

	frame60(t, 10, -1);
	B(t + 9 * MS, 10, 11, "DrawFrame");
	B(t + PERIOD, 10, 10, "Choreographer#doFrame");
	cr_assert_eq(rec.n_frames, 0, "frame 1 waits: a draw is under way");
	E(t + PERIOD + MS, 10, 11);
	cr_assert_eq(rec.n_frames, 1);
	cr_assert_eq(rec.frames[0].phase_ns[PHASE_DRAW], PERIOD - 8 * MS);
}

/* With vsync ids a quick draw may end before its own doFrame: the frame goes out at its end. */
Test(engine, a_draw_that_ends_before_its_doframe_ends_is_kept_for_that_frame)
{
	const uint64_t t = 1000 * MS;

	frame60_drawn(t, 10, 100);
	frame_begin(t + PERIOD, 10, 101);
	E(t + PERIOD + 3 * MS / 2, 10, 10);
	B(t + PERIOD + 2 * MS, 10, 10, "traversal");
	E(t + PERIOD + 5 * MS, 10, 10);
	B(t + PERIOD + 5 * MS + MS / 2, 10, 12, "DrawFrames 101");
	E(t + PERIOD + 7 * MS, 10, 12);
	cr_assert_eq(rec.n_frames, 1, "101 is still open");
	E(t + PERIOD + 8 * MS, 10, 10);
	cr_assert_eq(rec.n_frames, 2);
	cr_assert_eq(rec.frames[1].vsync_id, 101);
	cr_assert_eq(rec.frames[1].phase_ns[PHASE_DRAW], 3 * MS / 2);
	cr_assert_eq(rec.frames[1].dur_ns, 8 * MS);
}

/* Without ids the draw goes to the frame that waits for one, even once the next began. */
Test(engine, without_ids_a_late_draw_goes_to_the_frame_waiting_for_it)
{
	const uint64_t t = 1000 * MS;

	frame60(t, 10, -1);
	B(t + 9 * MS, 10, 11, "DrawFrame");
	E(t + 10 * MS, 10, 11);
	frame60(t + PERIOD, 10, -1);
	B(t + PERIOD + 9 * MS, 10, 11, "DrawFrame");
	B(t + 2 * PERIOD, 10, 10, "Choreographer#doFrame");
	E(t + 2 * PERIOD + MS / 4, 10, 11);
	cr_assert_eq(rec.n_frames, 2);
	cr_assert_eq(rec.frames[1].seq, 2);
	cr_assert_eq(rec.frames[1].phase_ns[PHASE_DRAW], PERIOD - 9 * MS + MS / 4);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_frames, 3);
	cr_assert_eq(rec.frames[2].phase_ns[PHASE_DRAW], 0);
}

/*
 * Without ids, as on a device: the UI thread hands the frame over inside its traversal and the
 * draw begins there; a quick draw that ends before the doFrame does is still that frame's.
 */
Test(engine, without_ids_a_draw_begun_inside_its_doframe_is_that_frames)
{
	const uint64_t t = 1000 * MS;

	frame60(t, 10, -1);
	B(t + 9 * MS, 10, 11, "DrawFrame");
	E(t + 10 * MS, 10, 11);
	frame_begin(t + PERIOD, 10, -1);
	E(t + PERIOD + 3 * MS / 2, 10, 10);
	B(t + PERIOD + 2 * MS, 10, 10, "traversal");
	B(t + PERIOD + 3 * MS, 10, 11, "DrawFrame");
	E(t + PERIOD + 4 * MS, 10, 11);
	E(t + PERIOD + 5 * MS, 10, 10);
	cr_assert_eq(rec.n_frames, 1, "frame 2 is still open");
	E(t + PERIOD + 6 * MS, 10, 10);
	cr_assert_eq(rec.n_frames, 2);
	cr_assert_eq(rec.frames[1].seq, 2);
	cr_assert_eq(rec.frames[1].phase_ns[PHASE_DRAW], MS);
	cr_assert_eq(rec.frames[1].dur_ns, 6 * MS);
}

Test(engine, nested_phases_are_summed_per_frame)
{
	const uint64_t t = 1000 * MS;

	B(t - 2 * MS, 3, 3, "traversal"); /* outside any doFrame */
	E(t - 1 * MS, 3, 3);
	B(t, 3, 3, "Choreographer#doFrame 5");
	B(t + 1 * MS, 3, 3, "input");
	B(t + 1 * MS + 100, 3, 3, "deliverInputEvent");
	E(t + 2 * MS, 3, 3);
	E(t + 2 * MS, 3, 3);
	B(t + 2 * MS, 3, 3, "animation");
	B(t + 2 * MS, 3, 3, "insets_animation");
	E(t + 3 * MS, 3, 3);
	E(t + 4 * MS, 3, 3);
	B(t + 4 * MS, 3, 3, "traversal");
	B(t + 4 * MS, 3, 3, "measure");
	E(t + 5 * MS, 3, 3);
	E(t + 5 * MS, 3, 3);
	B(t + 6 * MS, 3, 3, "traversal");
	E(t + 8 * MS, 3, 3);
	B(t + 8 * MS, 3, 3, "commit");
	E(t + 8 * MS + 250000, 3, 3);
	B(t + 9 * MS, 3, 3, "Traversal"); /* names match exactly */
	E(t + 10 * MS, 3, 3);
	E(t + 11 * MS, 3, 3);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_frames, 1);
	cr_assert_eq(rec.frames[0].dur_ns, 11 * MS);
	cr_assert_eq(rec.frames[0].phase_ns[PHASE_INPUT], 1 * MS);
	cr_assert_eq(rec.frames[0].phase_ns[PHASE_ANIMATION], 2 * MS);
	cr_assert_eq(rec.frames[0].phase_ns[PHASE_INSETS_ANIMATION], 1 * MS);
	cr_assert_eq(rec.frames[0].phase_ns[PHASE_TRAVERSAL], 3 * MS);
	cr_assert_eq(rec.frames[0].phase_ns[PHASE_COMMIT], 250000);
	cr_assert_eq(rec.frames[0].phase_ns[PHASE_DRAW], 0);
}

Test(engine, an_unbalanced_e_is_ignored)
{
	const uint64_t t = 1000 * MS;
	struct marker bare = { .type = MARKER_END, .tgid = -1 };

	E(t - 1 * MS, 3, 3); /* the capture started inside a slice */
	frame60(t, 3, -1);
	E(t + 9 * MS, 3, 3);
	E(t + 10 * MS, 3, 3);
	B(t + PERIOD, 3, 3, "Choreographer#doFrame");
	engine__marker(eng, t + PERIOD + 4 * MS, 0, 3, NULL, &bare); /* bare E, unknown pid */
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_frames, 2);
	cr_assert_eq(rec.frames[0].dur_ns, 8 * MS);
	cr_assert_eq(rec.frames[1].dur_ns, 4 * MS);
	cr_assert_eq(rec.frames[1].pid, 3);
	cr_assert_eq(rec.sum.markers, 6 + 3 + 2);
}

Test(engine, a_do_frame_never_ended_is_flushed_at_finish)
{
	B(10 * MS, 3, 3, "Choreographer#doFrame 9");
	engine__finish(eng, 30 * MS, 0, 0);
	cr_assert_eq(rec.n_frames, 1);
	cr_assert_eq(rec.frames[0].dur_ns, 20 * MS);
	cr_assert_eq(rec.frames[0].vsync_id, 9);
}

Test(engine, two_interleaved_processes_keep_separate_frames_and_animators)
{
	const uint64_t t = 1000 * MS;

	mark(t, 1, 1, "", 'S', "animator:alpha", 101);
	mark(t + 1, 2, 2, "", 'S', "animator", 202);
	for (int k = 0; k < 3; k++) {
		frame_begin(t + MS + k * PERIOD, 1, 10 + k);
		frame_begin(t + 2 * MS + k * PERIOD, 2, -1);
		frame_end(t + MS + k * PERIOD, 1);
		frame_end(t + 2 * MS + k * PERIOD, 2);
	}
	mark(t + 3 * PERIOD, 1, 1, "com.a", 'F', "animator:alpha", 101);
	mark(t + 3 * PERIOD, 2, 2, "com.b", 'F', "animator", 202);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_frames, 6);
	for (int i = 0; i < 6; i++) {
		uint32_t pid = rec.frames[i].pid;

		cr_assert_eq(rec.frames[i].n_anims, 1);
		cr_assert_eq(rec.frame_ids[i][0], pid == 1 ? 101u : 202u);
		if (i >= 4)
			cr_assert_str_eq(rec.frames[i].process, pid == 1 ? "com.a" : "com.b");
		else
			cr_assert_str_eq(rec.frames[i].process, "", "emitted before the name came");
	}
	cr_assert_eq(rec.frames[4].pid, 1);
	cr_assert_eq(rec.frames[4].seq, 3);
	cr_assert_eq(rec.frames[4].vsync_id, 12);
	cr_assert_eq(rec.frames[5].pid, 2);
	cr_assert_eq(rec.frames[5].seq, 3);
	cr_assert_str_eq(rec.starts[0].process, "");
	cr_assert_str_eq(rec.ends[0].process, "com.a");
	cr_assert_str_eq(rec.ends[1].process, "com.b");
	cr_assert_eq(rec.ends[0].frames, 3);
	cr_assert_eq(rec.ends[1].frames, 3);
}

Test(engine, only_animator_names_are_animators)
{
	S(1 * MS, 1, "animatorX", 1);
	S(2 * MS, 1, "Animator", 2);
	S(3 * MS, 1, "launch", 3);
	S(4 * MS, 1, "animator:translationX,translationY", 4);
	S(5 * MS, 1, "animator:null", 5);
	engine__finish(eng, 10 * MS, 0, 0);
	cr_assert_eq(rec.n_starts, 2);
	cr_assert_eq(rec.starts[0].n_props, 2);
	cr_assert_str_eq(rec.starts[0].props[0], "translationX");
	cr_assert_str_eq(rec.starts[0].props[1], "translationY");
	cr_assert_eq(rec.starts[1].kind, ANIM_OBJECT);
	cr_assert_str_eq(rec.starts[1].props[0], "null");
	cr_assert_eq(rec.sum.markers, 5);
}

Test(engine, rejected_payloads_are_counted)
{
	engine__rejected(eng);
	engine__rejected(eng);
	engine__finish(eng, 0, 0, 0);
	cr_assert_eq(rec.sum.markers_rejected, 2);
	cr_assert_eq(rec.sum.markers, 0);
}

Test(engine, a_long_capture_with_many_animators_is_handled)
{
	/* 100k frames plus 50k animator lifecycles with unique cookies. */
	for (int k = 0; k < 100000; k++) {
		uint64_t t = MS + k * PERIOD;

		if (k >= 3 && (k - 3) % 2 == 0)
			F(t, 1, "animator", k - 3);
		if (k % 2 == 0)
			S(t, 1, "animator", k);
		frame60(t + MS, 1, k);
	}
	engine__finish(eng, 100000 * PERIOD + 10 * MS, 0, 0);
	cr_assert_eq(rec.frames_total, 100000);
	cr_assert_eq(rec.sum.anims_started, 50000);
	cr_assert_eq(rec.sum.anims_ended, 49999);
	cr_assert_eq(rec.sum.n_running, 1);
	cr_assert_eq(rec.running[0].id, 99998);
	cr_assert_eq(rec.running[0].frames, 2);
	cr_assert_eq(rec.names[0].count, 50000);
	cr_assert_eq(rec.names[0].median_ns, 3 * PERIOD);
	cr_assert_eq(rec.sum.markers, 100000 * 6 + 100000 - 1);
}

Test(engine, free_accepts_null)
{
	engine__free(NULL);
}

/* ---- per-frame View property values ------------------------------------------------ */

#define NODE_A 0x7b0a51c0ull
#define NODE_B 0x7b0a9e08ull

static void prop(uint64_t ts, uint32_t pid, uint32_t tid, uint64_t node, const char *name,
		 enum view_prop p, float v)
{
	engine__prop(eng, ts, pid, tid, node, name, p, v, NULL);
}

Test(engine, changes_in_a_do_frame_are_sent_per_node_before_the_frame_record)
{
	const uint64_t t = 1000 * MS;

	frame_begin(t, 10, 77);
	prop(t + MS, 10, 10, NODE_A, "NotificationRow", PROP_ALPHA, 0.75f);
	prop(t + MS, 10, 10, NODE_B, "ScrimView", PROP_TRANSLATION_Y, -45.0f);
	prop(t + MS, 10, 10, NODE_A, "NotificationRow", PROP_SCALE_X, 2.0f);
	frame_end(t, 10);
	cr_assert_str_eq(rec.order, "p", "sent at the doFrame end; its record waits for a draw");
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_str_eq(rec.order, "pf");
	cr_assert_eq(rec.n_fps, 1);
	cr_assert_eq(rec.fps[0].pid, 10);
	cr_assert_eq(rec.fps[0].tid, 10);
	cr_assert_eq(rec.fps[0].ts_ns, t);
	cr_assert_eq(rec.fps[0].frame_seq, 1);
	cr_assert_eq(rec.fps[0].vsync_id, 77);
	cr_assert(rec.fps[0].in_frame);
	cr_assert_eq(rec.fps[0].n_nodes, 2);
	cr_assert_eq(rec.fp_nodes[0][0].node, NODE_A);
	cr_assert_str_eq(rec.fp_nodes[0][0].node_name, "NotificationRow");
	cr_assert_eq(rec.fp_nodes[0][0].set_mask, 1u << PROP_ALPHA | 1u << PROP_SCALE_X);
	cr_assert_eq(rec.fp_nodes[0][0].values[PROP_ALPHA], 0.75f);
	cr_assert_eq(rec.fp_nodes[0][0].values[PROP_SCALE_X], 2.0f);
	cr_assert_eq(rec.fp_nodes[0][0].sets[PROP_ALPHA], 1);
	cr_assert_eq(rec.fp_nodes[0][0].sets[PROP_TRANSLATION_Y], 0);
	cr_assert_eq(rec.fp_nodes[0][1].node, NODE_B);
	cr_assert_eq(rec.fp_nodes[0][1].set_mask, 1u << PROP_TRANSLATION_Y);
	cr_assert_eq(rec.fp_nodes[0][1].values[PROP_TRANSLATION_Y], -45.0f);
	cr_assert_eq(rec.sum.first_ns, t);
}

Test(engine, the_last_value_of_a_frame_wins_and_a_second_write_counts_two)
{
	const uint64_t t = 1000 * MS;

	frame_begin(t, 10, -1);
	prop(t + MS, 10, 10, NODE_A, "NotificationRow", PROP_ALPHA, 0.75f);
	prop(t + MS + 1, 10, 10, NODE_A, "NotificationRow", PROP_ALPHA, 0.5f);
	frame_end(t, 10);
	frame_begin(t + PERIOD, 10, -1);
	prop(t + PERIOD + MS, 10, 10, NODE_A, "NotificationRow", PROP_ALPHA, 0.25f);
	frame_end(t + PERIOD, 10);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_str_eq(rec.order, "pfpf");
	cr_assert_eq(rec.n_fps, 2);
	cr_assert_eq(rec.fps[0].n_nodes, 1);
	cr_assert_eq(rec.fps[0].vsync_id, -1);
	cr_assert_eq(rec.fp_nodes[0][0].values[PROP_ALPHA], 0.5f);
	cr_assert_eq(rec.fp_nodes[0][0].sets[PROP_ALPHA], 2);
	cr_assert_eq(rec.fps[1].frame_seq, 2);
	cr_assert_eq(rec.fp_nodes[1][0].values[PROP_ALPHA], 0.25f);
	cr_assert_eq(rec.fp_nodes[1][0].sets[PROP_ALPHA], 1);
}

Test(engine, frames_without_changes_send_no_frame_props)
{
	frame60(1000 * MS, 10, 1);
	frame60(1000 * MS + PERIOD, 10, 2);
	engine__finish(eng, 1100 * MS, 0, 0);
	cr_assert_eq(rec.n_fps, 0);
	cr_assert_str_eq(rec.order, "ff");
}

Test(engine, changes_outside_a_frame_are_flushed_flagged_at_the_next_do_frame)
{
	const uint64_t t = 1000 * MS;

	frame60(t, 10, 1);
	prop(t + 10 * MS, 10, 12, NODE_A, NULL, PROP_ROTATION, 90.0f);
	prop(t + 11 * MS, 10, 10, NODE_A, NULL, PROP_ROTATION, 45.0f);
	cr_assert_eq(rec.n_fps, 0);
	frame_begin(t + PERIOD, 10, 2);
	cr_assert_str_eq(rec.order, "fp", "the done frame first, then the changes after it");
	prop(t + PERIOD + MS, 10, 10, NODE_A, NULL, PROP_ROTATION, 30.0f);
	frame_end(t + PERIOD, 10);
	prop(t + PERIOD + 9 * MS, 10, 10, NODE_A, NULL, PROP_ROTATION, 0.0f);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_str_eq(rec.order, "fppfp");
	cr_assert_eq(rec.n_fps, 3);
	cr_assert(!rec.fps[0].in_frame);
	cr_assert_eq(rec.fps[0].frame_seq, 0);
	cr_assert_eq(rec.fps[0].vsync_id, -1);
	cr_assert_eq(rec.fps[0].ts_ns, t + 10 * MS);
	cr_assert_eq(rec.fps[0].tid, 12);
	cr_assert_eq(rec.fp_nodes[0][0].values[PROP_ROTATION], 45.0f);
	cr_assert_eq(rec.fp_nodes[0][0].sets[PROP_ROTATION], 2);
	cr_assert(rec.fps[1].in_frame);
	cr_assert_eq(rec.fps[1].frame_seq, 2);
	cr_assert_eq(rec.fps[1].vsync_id, 2);
	cr_assert(!rec.fps[2].in_frame, "flushed at finish");
	cr_assert_eq(rec.fps[2].ts_ns, t + PERIOD + 9 * MS);
	cr_assert_eq(rec.fp_nodes[2][0].values[PROP_ROTATION], 0.0f);
}

Test(engine, a_change_by_another_thread_during_a_do_frame_belongs_to_it)
{
	const uint64_t t = 1000 * MS;

	frame_begin(t, 10, 5);
	prop(t + MS, 10, 13, NODE_A, "A", PROP_ELEVATION, 4.0f);
	frame_end(t, 10);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_fps, 1);
	cr_assert(rec.fps[0].in_frame);
	cr_assert_eq(rec.fps[0].tid, 10, "the frame's UI thread");
	cr_assert_eq(rec.fps[0].frame_seq, 1);
}

Test(engine, nodes_without_a_name_are_named_by_the_low_16_bits_and_stay_stable)
{
	const uint64_t t = 1000 * MS;

	prop(t, 10, 10, NODE_A, NULL, PROP_ALPHA, 0.5f);
	prop(t, 10, 10, 0xffff00000000beefull, "", PROP_ALPHA, 0.5f);
	prop(t, 10, 10, NODE_B, "ScrimView", PROP_ALPHA, 0.5f);
	frame_begin(t + MS, 10, -1);
	prop(t + 2 * MS, 10, 10, NODE_B, NULL, PROP_ALPHA, 0.25f);
	prop(t + 2 * MS, 10, 10, NODE_A, NULL, PROP_ALPHA, 0.25f);
	prop(t + 2 * MS, 10, 10, 0, "null node", PROP_ALPHA, 0.25f);
	frame_end(t + MS, 10);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_fps, 2);
	cr_assert_eq(rec.fps[0].n_nodes, 3);
	cr_assert_str_eq(rec.fp_nodes[0][0].node_name, "RenderNode@51c0");
	cr_assert_str_eq(rec.fp_nodes[0][1].node_name, "RenderNode@beef");
	cr_assert_str_eq(rec.fp_nodes[0][2].node_name, "ScrimView");
	cr_assert_eq(rec.fps[1].n_nodes, 2, "node 0 is ignored");
	cr_assert_str_eq(rec.fp_nodes[1][0].node_name, "ScrimView", "the name sticks");
	cr_assert_str_eq(rec.fp_nodes[1][1].node_name, "RenderNode@51c0");
}

Test(engine, two_processes_keep_separate_property_batches)
{
	const uint64_t t = 1000 * MS;

	mark(t, 1, 1, "com.a", 'S', "animator:alpha", 101);
	mark(t, 2, 2, "com.b", 'S', "animator:alpha", 202);
	frame_begin(t + MS, 1, 10);
	frame_begin(t + 2 * MS, 2, 20);
	prop(t + 3 * MS, 1, 1, NODE_A, "RowA", PROP_ALPHA, 0.5f);
	prop(t + 3 * MS, 2, 2, NODE_A, "RowB", PROP_ALPHA, 0.75f);
	prop(t + 4 * MS, 2, 2, NODE_A, NULL, PROP_ALPHA, 0.5f);
	frame_end(t + MS, 1);
	frame_end(t + 2 * MS, 2);
	mark(t + PERIOD, 1, 1, "com.a", 'F', "animator:alpha", 101);
	mark(t + PERIOD, 2, 2, "com.b", 'F', "animator:alpha", 202);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_fps, 2);
	cr_assert_eq(rec.fps[0].pid, 1);
	cr_assert_str_eq(rec.fps[0].process, "com.a");
	cr_assert_eq(rec.fps[0].vsync_id, 10);
	cr_assert_str_eq(rec.fp_nodes[0][0].node_name, "RowA");
	cr_assert_eq(rec.fp_nodes[0][0].sets[PROP_ALPHA], 1);
	cr_assert_eq(rec.fps[1].pid, 2);
	cr_assert_eq(rec.fps[1].vsync_id, 20);
	cr_assert_str_eq(rec.fp_nodes[1][0].node_name, "RowB");
	cr_assert_eq(rec.fp_nodes[1][0].values[PROP_ALPHA], 0.5f);
	cr_assert_eq(rec.fp_nodes[1][0].sets[PROP_ALPHA], 2);
	cr_assert_str_eq(rec.ends[0].target_name, "RowA");
	cr_assert_eq(rec.ends[0].changes[0].from, 0.5f);
	cr_assert_str_eq(rec.ends[1].target_name, "RowB");
	cr_assert_eq(rec.ends[1].changes[0].from, 0.75f);
	cr_assert_eq(rec.ends[1].changes[0].to, 0.5f);
}

/* The simulator's alpha animator: 18 frames, alpha 1 - i/17, unchanged in frame 1. */
Test(engine, a_running_alpha_animator_takes_the_changed_node_as_its_inferred_target)
{
	const uint64_t t = 1000 * MS;

	for (int i = 0; i < 18; i++) {
		uint64_t f = t + i * PERIOD;

		frame_begin(f, 10, 1000 + i);
		if (i == 0) {
			S(f + MS / 2, 10, "animator:alpha", 168950273);
			S(f + MS / 2, 10, "animator:translationY", 168950274);
			S(f + MS / 2, 10, "animator", 3);
		}
		if (i > 0) {
			prop(f + MS, 10, 10, NODE_A, "NotificationRow", PROP_ALPHA, 1 - i / 17.0f);
			prop(f + MS, 10, 10, NODE_B, "ScrimView", PROP_TRANSLATION_Y,
			     -100.0f * i / 17);
		}
		if (i == 17) {
			F(f + MS, 10, "animator:alpha", 168950273);
			F(f + MS, 10, "animator:translationY", 168950274);
			F(f + MS, 10, "animator", 3);
		}
		frame_end(f, 10);
	}
	engine__finish(eng, t + 400 * MS, 0, 0);
	cr_assert_eq(rec.n_fps, 17);
	cr_assert_eq(rec.n_ends, 3);
	cr_assert_eq(rec.starts[0].target_node, 0, "not known at the start");
	cr_assert_eq(rec.ends[0].target_node, NODE_A);
	cr_assert_str_eq(rec.ends[0].target_name, "NotificationRow");
	cr_assert(rec.ends[0].target_inferred);
	cr_assert_eq(rec.ends[0].n_changes, 1);
	cr_assert_eq(rec.ends[0].changes[0].prop, PROP_ALPHA);
	cr_assert_eq(rec.ends[0].changes[0].from, 1 - 1 / 17.0f, "the first value seen");
	cr_assert_eq(rec.ends[0].changes[0].to, 0.0f);
	cr_assert_eq(rec.ends[1].target_node, NODE_B);
	cr_assert_eq(rec.ends[1].changes[0].prop, PROP_TRANSLATION_Y);
	cr_assert_eq(rec.ends[1].changes[0].to, -100.0f);
	cr_assert_eq(rec.ends[2].target_node, 0, "a ValueAnimator names no property");
	cr_assert_eq(rec.ends[2].n_changes, 0);
}

Test(engine, from_is_the_value_the_node_had_before_the_animator_changed_it)
{
	const uint64_t t = 1000 * MS;

	prop(t, 10, 10, NODE_A, "Row", PROP_ALPHA, 1.0f);
	prop(t, 10, 10, NODE_A, "Row", PROP_SCALE_X, 3.0f);
	S(t + MS, 10, "animator:alpha,scaleX", 1);
	S(t + MS, 10, "animator:alpha", 2);
	prop(t + 2 * MS, 10, 10, NODE_B, "Other", PROP_SCALE_Y, 0.5f); /* not named: no link */
	prop(t + 3 * MS, 10, 10, NODE_A, "Row", PROP_ALPHA, 0.5f);
	prop(t + 4 * MS, 10, 10, NODE_B, "Other", PROP_ALPHA, 0.5f); /* first node wins */
	prop(t + 5 * MS, 10, 10, NODE_A, "Row", PROP_SCALE_X, 2.0f);
	prop(t + 6 * MS, 10, 10, NODE_A, "Row", PROP_ALPHA, 0.0f);
	prop(t + 7 * MS, 11, 11, NODE_A, "Row", PROP_ALPHA, 0.75f); /* another process */
	F(t + 10 * MS, 10, "animator:alpha,scaleX", 1);
	prop(t + 11 * MS, 10, 10, NODE_A, "Row", PROP_ALPHA, 0.25f); /* after its end */
	F(t + 12 * MS, 10, "animator:alpha", 2);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.ends[0].target_node, NODE_A);
	cr_assert_eq(rec.ends[0].n_changes, 2);
	cr_assert_eq(rec.ends[0].changes[0].prop, PROP_ALPHA);
	cr_assert_eq(rec.ends[0].changes[0].from, 1.0f);
	cr_assert_eq(rec.ends[0].changes[0].to, 0.0f);
	cr_assert_eq(rec.ends[0].changes[1].prop, PROP_SCALE_X);
	cr_assert_eq(rec.ends[0].changes[1].from, 3.0f);
	cr_assert_eq(rec.ends[0].changes[1].to, 2.0f);
	cr_assert_eq(rec.ends[1].target_node, NODE_A);
	cr_assert_eq(rec.ends[1].n_changes, 1);
	cr_assert_eq(rec.ends[1].changes[0].to, 0.25f);
	cr_assert_eq(rec.n_fps, 2, "all outside frames: one batch per process");
	cr_assert_eq(rec.fps[0].n_nodes, 2);
}

Test(engine, the_value_before_the_first_change_seen_is_where_the_animation_started)
{
	const uint64_t t = 1000 * MS;
	const float before = 1.0f, later = 0.5f;

	S(t, 10, "animator:alpha", 1);
	/* The probe read 1.0 at the setter's entry: the unchanged frame-1 set left no record. */
	engine__prop(eng, t + MS, 10, 10, NODE_A, "Row", PROP_ALPHA, 1 - 1 / 17.0f, &before);
	/* Once the node's value is known, prev does not override it. */
	engine__prop(eng, t + 2 * MS, 10, 10, NODE_A, "Row", PROP_ALPHA, 0.0f, &later);
	F(t + 3 * MS, 10, "animator:alpha", 1);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.ends[0].changes[0].from, 1.0f);
	cr_assert_eq(rec.ends[0].changes[0].to, 0.0f);
}

Test(engine, a_running_animator_at_finish_carries_its_target_in_the_summary)
{
	S(1 * MS, 10, "animator:rotation", 6);
	prop(2 * MS, 10, 10, NODE_A, NULL, PROP_ROTATION, 10.0f);
	engine__finish(eng, 100 * MS, 0, 0);
	cr_assert_eq(rec.sum.n_running, 1);
	cr_assert_eq(rec.running[0].target_node, NODE_A);
	cr_assert_str_eq(rec.running[0].target_name, "RenderNode@51c0");
	cr_assert_eq(rec.running[0].changes[0].from, 10.0f);
}

Test(engine, process_exit_flushes_its_changes_and_forgets_its_nodes)
{
	prop(1 * MS, 10, 10, NODE_A, "Row", PROP_ALPHA, 0.5f);
	engine__process_exit(eng, 2 * MS, 10);
	cr_assert_eq(rec.n_fps, 1);
	S(3 * MS, 10, "animator:alpha", 1);
	prop(4 * MS, 10, 10, NODE_A, NULL, PROP_ALPHA, 0.25f);
	F(5 * MS, 10, "animator:alpha", 1);
	engine__finish(eng, 10 * MS, 0, 0);
	cr_assert_str_eq(rec.ends[0].target_name, "RenderNode@51c0");
	cr_assert_eq(rec.ends[0].changes[0].from, 0.25f, "no value from the dead process");
}

Test(engine, more_than_256_nodes_in_a_frame_are_counted_in_a_note)
{
	frame_begin(10 * MS, 10, -1);
	for (int i = 0; i < 300; i++) {
		prop(11 * MS, 10, 10, 0x1000 + 16 * i, NULL, PROP_ALPHA, 0.5f);
		prop(11 * MS, 10, 10, 0x1000 + 16 * i, NULL, PROP_SCALE_X, 0.5f);
	}
	frame_end(10 * MS, 10);
	engine__finish(eng, 100 * MS, 0, 0);
	cr_assert_eq(rec.n_fps, 1);
	cr_assert_eq(rec.fps[0].n_nodes, 256);
	cr_assert_str_eq(rec.note, "property changes of 44 node-frames not reported "
				   "(over 256 nodes in a frame)");
}

/* ---- end reasons from the ART probes ------------------------------------------------- */

static void art(uint64_t ts, uint32_t pid, uint32_t tid, enum art_call c, uint32_t cookie)
{
	engine__art_call(eng, ts, pid, tid, c, true, cookie);
}

Test(engine, art_probes_tell_cancel_end_and_natural_completion_apart)
{
	const uint64_t t = 1000 * MS;

	engine__art_active(eng, 10, 0);
	S(t, 10, "animator:alpha", 1);
	S(t, 10, "animator", 2);
	S(t, 10, "animator:scaleY", 3);
	art(t + 50 * MS, 10, 10, ART_CALL_CANCEL, 2);
	F(t + 50 * MS + 20000, 10, "animator", 2);
	art(t + 60 * MS, 10, 10, ART_CALL_END, 3);
	F(t + 60 * MS + 20000, 10, "animator:scaleY", 3);
	F(t + 300 * MS, 10, "animator:alpha", 1);
	cr_assert_eq(rec.n_ends, 3);
	cr_assert_eq(rec.ends[0].reason, END_CANCEL);
	cr_assert_eq(rec.ends[0].reason_source, REASON_ART);
	cr_assert_eq(rec.ends[1].reason, END_FORCE_END);
	cr_assert_eq(rec.ends[1].reason_source, REASON_ART);
	cr_assert_eq(rec.ends[2].reason, END_COMPLETE);
	cr_assert_eq(rec.ends[2].reason_source, REASON_ART);
}

Test(engine, an_art_call_explains_only_an_f_of_its_cookie_on_its_thread_soon_after)
{
	const uint64_t t = 1000 * MS;

	engine__art_active(eng, 10, 0);
	S(t, 10, "animator", 1);
	S(t, 10, "animator", 2);
	S(t, 10, "animator", 3);
	art(t + MS, 10, 10, ART_CALL_CANCEL, 9); /* another animator: not running, no F */
	F(t + MS + 1000, 10, "animator", 1);
	art(t + 2 * MS, 10, 11, ART_CALL_CANCEL, 2); /* another thread */
	F(t + 2 * MS + 1000, 10, "animator", 2);
	art(t + 3 * MS, 10, 10, ART_CALL_CANCEL, 3); /* over a second before the F */
	F(t + 1500 * MS, 10, "animator", 3);
	art(t + 1600 * MS, 10, 10, ART_CALL_CANCEL, 4); /* idle: no F; then it starts */
	art(t + 1700 * MS, 10, 10, ART_CALL_START, 4);
	S(t + 1700 * MS + 1000, 10, "animator", 4);
	F(t + 1800 * MS, 10, "animator", 4); /* completes: the old cancel() is no cause */
	cr_assert_eq(rec.n_ends, 4);
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(rec.ends[i].reason, END_COMPLETE, "end %d", i);
		cr_assert_eq(rec.ends[i].reason_source, REASON_ART, "end %d", i);
	}
}

Test(engine, a_thread_descheduled_between_the_probe_and_its_marker_keeps_the_reason)
{
	const uint64_t t = 1000 * MS;

	engine__art_active(eng, 10, 0);
	S(t, 10, "animator", 1);
	art(t + 10 * MS, 10, 10, ART_CALL_CANCEL, 1);
	F(t + 60 * MS, 10, "animator", 1); /* 50 ms later: a loaded device, or qemu */
	cr_assert_eq(rec.n_ends, 1);
	cr_assert_eq(rec.ends[0].reason, END_CANCEL);
	cr_assert_eq(rec.ends[0].reason_source, REASON_ART);
}

Test(engine, without_art_probes_calls_change_nothing_and_cancel_before_start_keeps_its_name)
{
	const uint64_t t = 1000 * MS;

	S(t, 10, "animator", 1);
	F(t + 100 * MS, 10, "animator", 1);
	art(t + 200 * MS, 10, 10, ART_CALL_CANCEL, 2);
	F(t + 200 * MS + 1000, 10, "animator:scaleX", 2);
	engine__art_call(eng, t + 300 * MS, 10, 10, ART_CALL_CANCEL, false, 0);
	cr_assert_eq(rec.n_ends, 2);
	cr_assert_eq(rec.ends[0].reason, END_ENDED);
	cr_assert_eq(rec.ends[0].reason_source, REASON_INFERRED);
	cr_assert_eq(rec.ends[1].reason, END_CANCEL_BEFORE_START);
	cr_assert_eq(rec.ends[1].reason_source, REASON_ART, "the probe saw the cancel()");
}

Test(engine, an_f_written_before_the_art_probes_were_attached_keeps_an_inferred_reason)
{
	const uint64_t t = 1000 * MS;

	S(t, 10, "animator", 1);
	S(t, 10, "animator", 2);
	engine__art_active(eng, 10, t + 50 * MS);
	F(t + 40 * MS, 10, "animator", 1); /* read from the ring after the attach */
	F(t + 60 * MS, 10, "animator", 2);
	cr_assert_eq(rec.n_ends, 2);
	cr_assert_eq(rec.ends[0].reason, END_ENDED);
	cr_assert_eq(rec.ends[0].reason_source, REASON_INFERRED);
	cr_assert_eq(rec.ends[1].reason, END_COMPLETE);
	cr_assert_eq(rec.ends[1].reason_source, REASON_ART);
}

static int failing_calls;

static int fail_start(void *ctx, const struct anim *a)
{
	failing_calls++;
	return -ENOSPC;
}

static const struct sink_ops failing_ops = { .anim_start = fail_start, .anim_end = fail_start };

Test(engine, stops_calling_a_sink_after_its_first_error_and_keeps_it)
{
	struct engine *e = engine__new(NULL, (struct sink){ &failing_ops, NULL });
	struct marker m = { .type = MARKER_ASYNC_BEGIN, .tgid = 10, .name = { "animator", 8 } };

	failing_calls = 0;
	cr_assert_eq(engine__sink_error(e), 0);
	for (int i = 0; i < 3; i++) {
		m.value = i + 1;
		engine__marker(e, 1000 + i, 10, 10, "p", &m);
	}
	cr_assert_eq(failing_calls, 1);
	cr_assert_eq(engine__sink_error(e), -ENOSPC);
	engine__finish(e, 2000, 0, 0);
	cr_assert_eq(failing_calls, 1);
	engine__free(e);
}

Test(engine, cuts_a_long_utf8_animator_name_at_a_character_boundary)
{
	char name[300] = "animator:x";
	size_t n = strlen(name);

	/* "é" is 2 bytes from byte 10 on: byte 127, the first one cut, continues one. */
	while (n + 2 < 250) {
		name[n++] = '\xc3';
		name[n++] = '\xa9';
	}
	name[n] = '\0';
	mark(1000, 10, 10, "p", 'S', name, 1);
	cr_assert_eq(rec.n_starts, 1);
	cr_assert_eq(strlen(rec.starts[0].name), 126, "%zu", strlen(rec.starts[0].name));
	cr_assert_eq(memcmp(rec.starts[0].name, name, 126), 0);
}

/* The live side's probe saw mUniqueId: same address and class, another id = another node. */
Test(engine, a_new_unique_id_at_the_same_address_starts_a_new_node_even_with_the_same_class)
{
	const uint64_t t = 1000 * MS;
	const float one = 1.0f;

	S(t, 10, "animator:alpha", 1);
	engine__node_id(eng, 10, NODE_A, 7);
	prop(t + MS, 10, 10, NODE_A, "QSPanel", PROP_ALPHA, 0.0f);
	F(t + 2 * MS, 10, "animator:alpha", 1);
	S(t + 3 * MS, 10, "animator:alpha", 2);
	engine__node_id(eng, 10, NODE_A, 7); /* the same node: its last value is the "from" */
	prop(t + 4 * MS, 10, 10, NODE_A, "QSPanel", PROP_ALPHA, 0.5f);
	F(t + 5 * MS, 10, "animator:alpha", 2);
	S(t + 6 * MS, 10, "animator:alpha", 3);
	engine__node_id(eng, 10, NODE_A, 8); /* freed and made again: a fresh node at 1 */
	engine__prop(eng, t + 7 * MS, 10, 10, NODE_A, "QSPanel", PROP_ALPHA, 0.25f, &one);
	F(t + 8 * MS, 10, "animator:alpha", 3);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_ends, 3);
	cr_assert_eq(rec.ends[1].changes[0].from, 0.0f);
	cr_assert_eq(rec.ends[2].changes[0].from, 1.0f, "not the old node's 0.5");
	cr_assert_str_eq(rec.ends[2].target_name, "QSPanel");
}

Test(engine, a_new_unique_id_without_a_name_forgets_the_old_nodes_name)
{
	const uint64_t t = 1000 * MS;

	engine__node_id(eng, 10, NODE_A, 1);
	prop(t, 10, 10, NODE_A, "NotificationRow", PROP_ALPHA, 0.5f);
	engine__node_id(eng, 10, NODE_A, 2);
	prop(t + MS, 10, 10, NODE_A, NULL, PROP_ALPHA, 0.25f);
	engine__finish(eng, t + 100 * MS, 0, 0);
	cr_assert_eq(rec.n_fps, 1);
	cr_assert_str_eq(rec.fp_nodes[0][0].node_name, "RenderNode@51c0");
}

/* ---- property writes without markers --------------------------------------------- */

Test(engine, property_writes_without_one_marker_are_said_at_exit_and_at_the_end)
{
	prop(10 * MS, 30, 30, 0x1000, NULL, PROP_ALPHA, 0.5f);
	prop(11 * MS, 30, 30, 0x1000, NULL, PROP_ALPHA, 0.25f);
	prop(12 * MS, 31, 31, 0x2000, NULL, PROP_ALPHA, 0.5f);
	engine__process_name(eng, 31, "com.example.feed"); /* live knows it from /proc */
	engine__process_exit(eng, 13 * MS, 30);
	cr_assert_str_eq(rec.note, "pid 30: 2 View property writes but no trace_marker writes: "
				   "no frames or animator lifecycles for it (is its atrace view "
				   "tag on? animtrace doctor)");
	rec.note[0] = '\0';
	engine__finish(eng, 20 * MS, 0, 0);
	cr_assert_str_eq(rec.note, "com.example.feed (pid 31): 1 View property writes but no "
				   "trace_marker writes: "
				   "no frames or animator lifecycles for it (is its atrace view "
				   "tag on? animtrace doctor)");
}

Test(engine, one_marker_of_its_own_keeps_a_process_s_property_writes_unremarked)
{
	frame_begin(10 * MS, 30, -1);
	prop(11 * MS, 30, 30, 0x1000, NULL, PROP_ALPHA, 0.5f);
	prop(12 * MS, 31, 31, 0x2000, NULL, PROP_ALPHA, 0.5f);
	frame_end(12 * MS, 30);
	B(13 * MS, 31, 31, "inflate"); /* any marker of its own, not only frames */
	engine__process_exit(eng, 14 * MS, 30);
	cr_assert_str_eq(rec.note, "");
	engine__finish(eng, 20 * MS, 0, 0);
	cr_assert_str_eq(rec.note, "");
}

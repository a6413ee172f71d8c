// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Every record the engine sends carries src_ts_ns, the timestamp of the input event (the
 * engine__* call) that caused it: what --annotate measures its delay from. A session with
 * an animator (exact targets, a late frame), an unmarked animation and a refresh storm sends
 * every record type that has one; each must hold the timestamp of the call it came out of.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "engine/engine.h"

#define MS 1000000ull
#define PID 60
#define RT 61
#define NODE_A 0x7100080e0ull /* the animator's */
#define NODE_B 0x710001a2bull /* the unmarked animation's */
#define NODE_C 0x710003c40ull /* redrawn with nothing running: the storm */

enum {
	R_ANIM_START,
	R_ANIM_END,
	R_ANIM_TARGET,
	R_FRAME,
	R_FRAME_PROPS,
	R_JANK,
	R_STORM,
	R_ANIMATION_START,
	R_ANIMATION_END,
	R_COUNT
};

static const char *const names[R_COUNT] = {
	"anim_start", "anim_end",      "anim_target",	  "frame",	   "frame_props",
	"jank",	      "refresh_storm", "animation_start", "animation_end",
};

static struct engine *eng;
static uint64_t cur; /* the timestamp of the engine call being made */
static int seen[R_COUNT];

static int check(int kind, uint64_t src)
{
	cr_assert_eq(src, cur, "%s: src_ts_ns %llu, made during the call at %llu", names[kind],
		     (unsigned long long)src, (unsigned long long)cur);
	seen[kind]++;
	return 0;
}

/* One callback per record type: kind, parameter, record. */
#define CHECK_CB(fn, kind, type)                    \
	static int fn(void *ctx, const type *rec)   \
	{                                           \
		return check(kind, rec->src_ts_ns); \
	}
CHECK_CB(on_anim_start, R_ANIM_START, struct anim)
CHECK_CB(on_anim_end, R_ANIM_END, struct anim)
CHECK_CB(on_anim_target, R_ANIM_TARGET, struct anim)
CHECK_CB(on_frame, R_FRAME, struct frame)
CHECK_CB(on_frame_props, R_FRAME_PROPS, struct frame_props)
CHECK_CB(on_jank, R_JANK, struct jank)
CHECK_CB(on_storm, R_STORM, struct refresh_storm)
CHECK_CB(on_animation_start, R_ANIMATION_START, struct animation)
CHECK_CB(on_animation_end, R_ANIMATION_END, struct animation)

static const struct sink_ops ops = {
	.anim_start = on_anim_start,
	.anim_end = on_anim_end,
	.anim_target = on_anim_target,
	.frame = on_frame,
	.frame_props = on_frame_props,
	.jank = on_jank,
	.refresh_storm = on_storm,
	.animation_start = on_animation_start,
	.animation_end = on_animation_end,
};

static void mark(uint64_t ts, uint32_t tid, char type, const char *name, int64_t cookie)
{
	struct marker m = { .type = (enum marker_type)type, .tgid = PID };

	m.name.p = name ? name : "";
	m.name.len = name ? strlen(name) : 0;
	m.value = cookie;
	cur = ts;
	engine__marker(eng, ts, PID, tid, "com.example", &m);
}

static void set(uint64_t ts, uint64_t node, enum view_prop p, float v)
{
	cur = ts;
	engine__prop(eng, ts, PID, PID, node, "View", p, v, NULL);
}

/* Frame f's start: every 16 ms, and one vsync missed after the late frame 5. */
static uint64_t frame_t(int f)
{
	return (uint64_t)(f + (f > 5)) * 16 * MS;
}

/*
 * Frame f (30 ms long when late): the animator (cookie 3, frames 1-20) moves
 * A's alpha inside its animateValue; B's translationX moves on its own in frames 25-40 and
 * settles; C is redrawn, asking for the next vsync, in frames 45-84 with nothing running.
 */
static void frame(int f, bool late)
{
	static const char(*none)[AT_FRAME_NAME] = NULL;
	uint64_t t = frame_t(f);
	float x = (float)f;

	mark(t, PID, 'B', "Choreographer#doFrame", 0);
	mark(t + 1 * MS, PID, 'B', "animation", 0);
	if (f <= 20) {
		cur = t + 2 * MS;
		engine__art_animate(eng, cur, PID, PID, true, 3);
		set(t + 3 * MS, NODE_A, PROP_ALPHA, 1.0f - x / 20.0f);
	}
	if (f >= 25 && f <= 40)
		set(t + 4 * MS, NODE_B, PROP_TRANSLATION_X, 100.0f * (x - 24.0f) * (x - 24.0f));
	mark(t + 5 * MS, PID, 'E', NULL, 0);
	if (f >= 45 && f < 85) {
		cur = t + 6 * MS;
		engine__redraw(eng, cur, PID, PID, NODE_C, "Meter");
		cur = t + 7 * MS;
		engine__vsync_request(eng, cur, PID, PID, none, 0);
	}
	mark(t + (late ? 30 : 8) * MS, PID, 'E', NULL, 0);
	mark(t + (late ? 31 : 9) * MS, RT, 'B', "DrawFrame", 0);
	mark(t + (late ? 32 : 10) * MS, RT, 'E', NULL, 0);
}

Test(record_source, every_record_carries_the_timestamp_of_the_event_that_caused_it)
{
	eng = engine__new(NULL, (struct sink){ &ops, NULL });
	cr_assert_not_null(eng);
	engine__refresh_active(eng, PID);
	mark(8 * MS, PID, 'S', "animator", 3);
	for (int f = 1; f <= 90; f++) {
		frame(f, f == 5);
		if (f == 20)
			mark(frame_t(20) + 11 * MS, PID, 'F', "animator", 3);
	}
	cur = frame_t(100);
	engine__finish(eng, cur, 0, 0);
	for (int k = 0; k < R_COUNT; k++)
		cr_assert_gt(seen[k], 0, "no %s record: the session does not cover it", names[k]);
	cr_assert_eq(seen[R_ANIM_START], 1);
	cr_assert_eq(seen[R_ANIM_END], 1);
	cr_assert_eq(seen[R_STORM], 1);
	cr_assert_eq(seen[R_ANIMATION_START], 1);
	cr_assert_eq(seen[R_ANIMATION_END], 1);
	cr_assert_eq(engine__sink_error(eng), 0);
	engine__free(eng);
}

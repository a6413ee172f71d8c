// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * No false positives: the real captures hold no setter data, so no unmarked animation may
 * come out of them, whatever their frames and animators do.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "replay/replay.h"

#define TRACES TESTDATA "/traces/"

struct seen {
	uint64_t starts, ends, frames, anim_ends, kinds;
};

static int on_animation_start(void *ctx, const struct animation *a)
{
	((struct seen *)ctx)->starts++;
	return 0;
}

static int on_animation_end(void *ctx, const struct animation *a)
{
	((struct seen *)ctx)->ends++;
	return 0;
}

static int on_frame(void *ctx, const struct frame *f)
{
	((struct seen *)ctx)->frames++;
	return 0;
}

static int on_anim_end(void *ctx, const struct anim *a)
{
	((struct seen *)ctx)->anim_ends++;
	return 0;
}

static int on_summary(void *ctx, const struct summary *s)
{
	for (int k = 0; k <= FIT_OTHER; k++)
		((struct seen *)ctx)->kinds += s->animations[k];
	return 0;
}

static const struct sink_ops counting = {
	.animation_start = on_animation_start,
	.animation_end = on_animation_end,
	.frame = on_frame,
	.anim_end = on_anim_end,
	.summary = on_summary,
};

/* Every process of the capture; returns what the sink saw. */
static struct seen replay_all(const char *file)
{
	struct seen seen = { 0 };
	struct engine *e = engine__new(NULL, (struct sink){ &counting, &seen });
	struct replay_stats st;
	char msg[256] = "";

	cr_assert_not_null(e);
	cr_assert_eq(replay_run(file, NULL, e, &st, msg, sizeof(msg)), 0, "%s: %s", file, msg);
	engine__finish(e, 0, 0, 0);
	engine__free(e);
	return seen;
}

Test(unmarked_replay, the_real_captures_hold_no_unmarked_animation)
{
	static const char *const files[] = {
		TRACES "antutu-2018.ftrace.txt",
		TRACES "antutu-2018.systrace.html",
		TRACES "flyme-launcher-scroll-2019.ftrace.txt",
		TRACES "miui-launcher-2021.ftrace.txt",
		TRACES "pixel7pro-android13-nowinandroid.perfetto-trace",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct seen s = replay_all(files[i]);

		/* the Perfetto capture's doFrames are track events the engine does not see */
		if (!strstr(files[i], "perfetto"))
			cr_assert_gt(s.frames, 0, "%s: its frames went through the segmenter",
				     files[i]);
		cr_assert_eq(s.starts, 0, "%s", files[i]);
		cr_assert_eq(s.ends, 0, "%s", files[i]);
		cr_assert_eq(s.kinds, 0, "%s", files[i]);
	}
}

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * DynamicAnimation's compiled methods for the simulator, built twice from dyn_fixture.c: with
 * the framework's package (com.android.internal.dynamicanimation.animation, into the fixture
 * boot-framework.oat) and with androidx's (androidx.dynamicanimation.animation, into the app's
 * own base.odex, which the simulator maps late). Named and called as ART compiles them (the
 * quick ABI: ArtMethod* first, the 32-bit `this` second, the next argument third), and
 * following DynamicAnimation.java (cited in src/symbols/art.c): SpringAnimation.start calls
 * DynamicAnimation.start; cancel ends with endAnimationInternal(true) when running; each
 * doAnimationFrame writes the property (setPropertyValue) and ends with
 * endAnimationInternal(false) once the step says it is done.
 */
#ifndef ANIMSIM_DYN_FIXTURE_H
#define ANIMSIM_DYN_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#define DYN_STACK_MAX 3

/* One animation frame's step: computes and writes the value; true when it is done. */
typedef bool (*dyn_step_fn)(void *ctx, long dt_ms);

struct dyn_fixture_methods {
	const char *pkg; /* "androidx.dynamicanimation.animation." or the framework's */
	/* A new DynamicAnimation object below 4 GiB (no identity hash); 0 with errno set. */
	uint32_t (*new_object)(void);
	/* SpringAnimation.start through the app's DockView.snapTo */
	void (*spring_start)(uint32_t obj);
	/* DynamicAnimation.start (FlingAnimation has no start of its own) via DockView.fling */
	void (*fling_start)(uint32_t obj);
	/* DockView.retarget: cancel() of old, then SpringAnimation.start of next */
	void (*retarget)(uint32_t old, uint32_t next);
	/* SpringAnimation.skipToEnd(): the next frame ends it */
	void (*skip)(uint32_t obj);
	/* AnimationHandler's callback: doAnimationFrame(frame_ms) of obj, step on every frame but
	 * the first (the first writes the start value: step with dt 0 does that); true: it ended */
	bool (*frame)(uint32_t obj, int64_t frame_ms, dyn_step_fn step, void *ctx);
	/* the app callers of each, innermost first */
	const char *start_stack[DYN_STACK_MAX], *fling_stack[DYN_STACK_MAX],
		*retarget_stack[DYN_STACK_MAX];
};

/* The framework copy's table (in the fixture boot-framework.oat). */
const struct dyn_fixture_methods *dyn_fixture_framework(void);
/* androidx's (exported by the fixture base.odex; looked up with dlsym). */
const struct dyn_fixture_methods *dyn_fixture_androidx(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The simulator's stand-in for ART's boot-framework.oat: functions named like compiled
 * framework methods (android.animation.ValueAnimator.start/cancel/end, no signature, overloads
 * sharing a name) called with the quick ABI (ArtMethod* first, the 32-bit `this` reference
 * second), on objects below 4 GiB whose lock word holds the identity hash. Each call comes
 * through a chain of app-level callers with Java-style names, so an unwinder has frames.
 */
#ifndef ANIMSIM_ART_FIXTURE_H
#define ANIMSIM_ART_FIXTURE_H

#include <stdint.h>

/* Lock word state "hash" (top two bits 10): the low 28 bits are System.identityHashCode. */
#define ART_LOCK_HASH_STATE (2u << 30)
#define ART_HASH_MASK 0x0fffffffu
#define ART_LOCK_WORD_OFF 4

enum art_call {
	ART_CALL_START = 0,  /* ValueAnimator.start() */
	ART_CALL_START_BOOL, /* ValueAnimator.start(boolean): the overload, same name */
	ART_CALL_CANCEL,     /* ValueAnimator.cancel() */
	ART_CALL_END,	     /* ValueAnimator.end() */
	/* ValueAnimator.start() of an AnimatorSet's child, through AnimatorSet's frames (API 26+):
	 * at once from AnimatorSet.start (an app caller of its own), or in a later frame from
	 * AnimatorSet.doAnimationFrame (AnimationHandler, Choreographer) */
	ART_CALL_START_SET,
	ART_CALL_START_SET_FRAME,
	/* ValueAnimator.start() from ViewPropertyAnimator.startAnimation (an app's start()) */
	ART_CALL_START_VPA,
	ART_CALL_COUNT,
};

#define ART_STACK_MAX 4

struct art_fixture_methods {
	const char *method[ART_CALL_COUNT]; /* "start", "start", "cancel", "end", "start"... */
	/* The callers of each call animtrace reports, innermost first, NULL-terminated (the
	 * android.animation frames between are left out, as animtrace leaves them out). */
	const char *stack[ART_CALL_COUNT][ART_STACK_MAX];
	/* Who started the animator ("AnimatorSet", "ViewPropertyAnimator", NULL: its own code)
	 * and, for a set, the caller of AnimatorSet.start (NULL when not on this stack). */
	const char *starter[ART_CALL_COUNT];
	const char *set_caller[ART_CALL_COUNT];
	/* Calls the method on obj through its caller chain. */
	void (*call[ART_CALL_COUNT])(uint32_t obj);
	/* A new animator object whose identity hash is cookie (< 2^28); 0 with errno set. */
	uint32_t (*new_object)(uint32_t cookie);
	/* --scenario refresh: asks for the next vsync through native (nativeScheduleVsync of the
	 * fixture libandroid_runtime) from Java-named framework and app callers */
	void (*request_vsync)(void (*native)(void *env, void *clazz, int64_t receiver),
			      int64_t receiver);
	const char *vsync_stack[ART_STACK_MAX]; /* those callers, innermost first */
	/*
	 * One animation frame of obj, as AnimationHandler runs it: object_animator 0 enters
	 * ValueAnimator.animateValue, which calls update (its update listeners); 1 enters
	 * ObjectAnimator.animateValue, which calls ValueAnimator.animateValue with the same
	 * this first (super), then update (its PropertyValuesHolders setting the property).
	 */
	void (*animate_value)(uint32_t obj, int object_animator, void (*update)(void *ctx),
			      void *ctx);
	/*
	 * ObjectAnimator.start() on obj from app code: AnimationHandler.autoCancelBasedOn(obj)
	 * calls old's ValueAnimator.cancel() (old 0: nothing to cancel), whose endAnimation the
	 * caller plays in cancelled(ctx) (the F), then super.start(): ValueAnimator.start.
	 */
	void (*object_start)(uint32_t obj, uint32_t old, void (*cancelled)(void *ctx), void *ctx);
	const char *object_start_stack[ART_STACK_MAX]; /* the app's callers, innermost first */
};

/* The registration table; valid for the life of the library. */
const struct art_fixture_methods *art_fixture_methods(void);

#endif /* ANIMSIM_ART_FIXTURE_H */

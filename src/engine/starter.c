// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Who started an animator (engine/starter.h). The frames, from AOSP frameworks/base
 * core/java/android/animation/AnimatorSet.java and core/java/android/view/
 * ViewPropertyAnimator.java:
 *  - API 26+: AnimatorSet.start() -> start(boolean, boolean) -> startAnimation() ->
 *    handleAnimationEvents() -> Animator/ValueAnimator.startWithoutPulsing() ->
 *    ValueAnimator.start() for the children due at once; the later ones from
 *    AnimationHandler -> AnimatorSet.doAnimationFrame() -> handleAnimationEvents() -> ...
 *  - before: AnimatorSet.start() -> child.start() for the children without dependencies;
 *    AnimatorSet$DependencyListener.startIfReady() (from a child's onAnimationStart/End) and
 *    an anonymous listener of the start delay (AnimatorSet$1) for the others.
 *  - ViewPropertyAnimator.start() or its posted mAnimationStarter.run() -> startAnimation() ->
 *    ValueAnimator.ofFloat(1.0f).start().
 * Both start() overloads of AnimatorSet share ART's name, as ValueAnimator's do.
 * Read: the pre-O AnimatorSet of aosp-mirror/platform_frameworks_base at 004689b5 (start()
 * calling node.animation.start(), DependencyListener.startIfReady, the delay's anonymous
 * listener) and the O+ one (handleAnimationEvents calling node.mAnimation.startWithoutPulsing,
 * which ValueAnimator overrides to call start(), whose start(false) calls startAnimation(),
 * where the S is written); ViewPropertyAnimator.startAnimation ends in animator.start().
 */
#include <stdio.h>
#include <string.h>

#include "engine/starter.h"

#define SET_CLASS "android.animation.AnimatorSet"
#define SET_START SET_CLASS ".start"
#define VPA_START "android.view.ViewPropertyAnimator.startAnimation"
#define ANIMATION_PKG "android.animation."

/* A frame of AnimatorSet or of one of its inner classes (AnimatorSet$Node, $1, ...). */
static bool set_frame(const char *name)
{
	size_t n = sizeof(SET_CLASS) - 1;

	return !strncmp(name, SET_CLASS, n) && (name[n] == '.' || name[n] == '$');
}

/* The caller of the outermost AnimatorSet.start in a's stack (NULL: none): the set's. */
static const char *set_caller(const struct anim *a)
{
	int outer = -1;

	for (int i = 0; i < a->n_start_stack; i++)
		if (!strcmp(a->start_stack[i], SET_START))
			outer = i;
	for (int i = outer + 1; outer >= 0 && i < a->n_start_stack; i++)
		if (strncmp(a->start_stack[i], ANIMATION_PKG, sizeof(ANIMATION_PKG) - 1))
			return a->start_stack[i];
	return NULL;
}

/* a's start stack without the AnimatorSet frames (read above), as the unwinder leaves out
 * every other android.animation frame. */
static void strip_set_frames(struct anim *a)
{
	int k = 0;

	for (int i = 0; i < a->n_start_stack; i++) {
		if (set_frame(a->start_stack[i]))
			continue;
		if (k != i)
			memcpy(a->start_stack[k], a->start_stack[i], sizeof(a->start_stack[k]));
		k++;
	}
	a->n_start_stack = k;
}

/* The set started by caller: found, or made in place of the least recently used. */
static struct starter_set *set_get(struct starter_proc *sp, const char *caller)
{
	struct starter_set *s = NULL;

	for (int i = 0; i < sp->n_sets; i++)
		if (!strcmp(sp->sets[i].caller, caller))
			return &sp->sets[i];
	if (sp->n_sets < CAP_STARTER_SETS) {
		s = &sp->sets[sp->n_sets++];
	} else {
		s = &sp->sets[0];
		for (int i = 1; i < sp->n_sets; i++)
			if (sp->sets[i].seq < s->seq)
				s = &sp->sets[i];
	}
	memset(s, 0, sizeof(*s));
	snprintf(s->caller, sizeof(s->caller), "%s", caller);
	return s;
}

/* id now runs as a child of s (the oldest member is forgotten when s is full). */
static void member_add(struct starter_proc *sp, struct starter_set *s, uint64_t id)
{
	int i;

	s->seq = ++sp->tick;
	for (i = 0; i < s->n_members; i++) {
		if (s->members[i].id == id) { /* restarted (cookie reuse) */
			s->members[i].running = true;
			return;
		}
	}
	i = s->n_members < CAP_STARTER_MEMBERS ? s->n_members++ : s->next_member;
	s->next_member = (i + 1) % CAP_STARTER_MEMBERS;
	s->members[i].id = id;
	s->members[i].running = true;
}

/* s has a child running, or one that ended in the frame begun at frame_ns (a sequence: the
 * next child starts in the frame its predecessor ended in). */
static bool set_open(const struct starter_set *s, uint64_t frame_ns)
{
	for (int i = 0; i < s->n_members; i++)
		if (s->members[i].running)
			return true;
	return frame_ns && s->last_end_ns >= frame_ns;
}

/* A child with no AnimatorSet.start on its stack: the set it belongs to, when one alone is
 * open; *n_open says how many are. */
static struct starter_set *set_open_one(struct starter_proc *sp, uint64_t frame_ns,
					uint32_t *n_open)
{
	struct starter_set *one = NULL;

	*n_open = 0;
	for (int i = 0; i < sp->n_sets; i++) {
		if (!set_open(&sp->sets[i], frame_ns))
			continue;
		one = &sp->sets[i];
		++*n_open;
	}
	return *n_open == 1 ? one : NULL;
}

void starter__started(struct starter_proc *sp, struct anim *a, uint64_t frame_ns)
{
	const char *caller;
	struct starter_set *s;
	bool in_set = false;

	a->starter = STARTER_UNKNOWN;
	a->set_caller[0] = '\0';
	a->sets_open = 0;
	for (int i = 0; i < a->n_start_stack; i++) {
		if (!strcmp(a->start_stack[i], VPA_START)) {
			a->starter = STARTER_VPA;
			return;
		}
		in_set |= set_frame(a->start_stack[i]);
	}
	if (!in_set)
		return;
	a->starter = STARTER_SET;
	caller = set_caller(a);
	s = caller ? set_get(sp, caller) : set_open_one(sp, frame_ns, &a->sets_open);
	if (s) {
		snprintf(a->set_caller, sizeof(a->set_caller), "%s", s->caller);
		member_add(sp, s, a->id);
	}
	strip_set_frames(a);
}

void starter__ended(struct starter_proc *sp, const struct anim *a, uint64_t ts_ns)
{
	if (a->starter != STARTER_SET)
		return;
	for (int i = 0; i < sp->n_sets; i++) {
		struct starter_set *s = &sp->sets[i];

		for (int k = 0; k < s->n_members; k++) {
			if (s->members[k].id != a->id || !s->members[k].running)
				continue;
			s->members[k].running = false;
			s->last_end_ns = ts_ns;
			return;
		}
	}
}

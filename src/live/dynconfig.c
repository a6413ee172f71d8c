// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A DynamicAnimation's configuration from its object (live/dynconfig.h). */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "live/dynconfig.h"

/* The two packages' class descriptors: "L" PKG "DynamicAnimation;" and so on. */
static const char *const pkgs[] = { "Lcom/android/internal/dynamicanimation/animation/",
				    "Landroidx/dynamicanimation/animation/" };

struct rd {
	struct heap *h;
	const char *pkg;
	char *why;
	size_t n;
};

static int __attribute__((format(printf, 3, 4))) fail(struct rd *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, r->n, fmt, ap);
	va_end(ap);
	return err < 0 ? err : -EINVAL;
}

/* "L<pkg>name;" into buf. */
static const char *cls(const struct rd *r, const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s;", r->pkg, name);
	return buf;
}

/* Field name of the class pkg.simple of obj: must be readable. */
static int get(struct rd *r, uint64_t obj, const char *simple, const char *name, void *out,
	       size_t size)
{
	char c[128];
	int err = heap__get(r->h, obj, cls(r, simple, c, sizeof(c)), name, out, size);

	if (err)
		return fail(r, err, "%s.%s of 0x%llx unreadable (%s)", c, name,
			    (unsigned long long)obj, strerror(-err));
	return 0;
}

/* 1 when obj is a pkg.simple, 0 when not; failing to tell fails the read. */
static int is_a(struct rd *r, uint64_t obj, const char *simple)
{
	char c[128];
	int is = heap__is_a(r->h, obj, cls(r, simple, c, sizeof(c)));

	if (is < 0)
		return fail(r, is, "the class of 0x%llx unreadable (%s)", (unsigned long long)obj,
			    strerror(-is));
	return is;
}

/* Which package's DynamicAnimation obj is (r->pkg set), or why not. */
static int package(struct rd *r, uint64_t obj)
{
	const char *desc;
	int err = heap__class_of(r->h, obj, &desc);

	if (err)
		return fail(r, err, "the class of `this` 0x%llx at start() unreadable (%s)",
			    (unsigned long long)obj, strerror(-err));
	for (size_t i = 0; i < sizeof(pkgs) / sizeof(pkgs[0]); i++) {
		char c[128];
		int is;

		snprintf(c, sizeof(c), "%sDynamicAnimation;", pkgs[i]);
		is = heap__is_a(r->h, obj, c);
		if (is == 1) {
			r->pkg = pkgs[i];
			return 0;
		}
	}
	return fail(r, 0, "`this` 0x%llx at DynamicAnimation.start is a %s, no DynamicAnimation",
		    (unsigned long long)obj, desc);
}

/* mValue (when mStartValueIsSet), mVelocity, mMinVisibleChange. */
static int state(struct rd *r, uint64_t obj, struct dyn_config *c)
{
	float value, velocity, min_change;
	uint8_t set = 0;
	int err = get(r, obj, "DynamicAnimation", "mValue", &value, 4);

	err = err ?: get(r, obj, "DynamicAnimation", "mVelocity", &velocity, 4);
	err = err ?: get(r, obj, "DynamicAnimation", "mMinVisibleChange", &min_change, 4);
	err = err ?: get(r, obj, "DynamicAnimation", "mStartValueIsSet", &set, 1);
	if (err)
		return err;
	if (!isfinite(velocity))
		return fail(r, 0, "mVelocity %g is no velocity", (double)velocity);
	if (!isfinite(min_change) || min_change <= 0)
		return fail(r, 0, "mMinVisibleChange %g is not positive", (double)min_change);
	if (set > 1)
		return fail(r, 0, "mStartValueIsSet holds %u, no boolean", set);
	/* set: a value setStartValue gave, finite (UNSET is FLT_MAX, startAnimationInternal's
	 * range check refuses it); unset: UNSET, or the previous run's last value */
	if (set && (!isfinite(value) || value == FLT_MAX))
		return fail(r, 0, "mValue %g set by setStartValue is no value", (double)value);
	c->has_state = true;
	c->has_value = set;
	c->value = set ? value : 0;
	c->velocity = velocity;
	c->min_visible_change = min_change;
	return 0;
}

/* SpringAnimation.mSpring: SpringForce's natural frequency, damping ratio, final position. */
static int spring(struct rd *r, uint64_t obj, struct dyn_config *c)
{
	double freq, ratio, final_pos;
	uint32_t force;
	int is, err = get(r, obj, "SpringAnimation", "mSpring", &force, 4);

	if (err || !force) /* null: start() throws (sanityCheck): nothing to read */
		return err;
	if ((is = is_a(r, force, "SpringForce")) <= 0)
		return is ?: fail(r, 0, "SpringAnimation.mSpring 0x%x is no SpringForce", force);
	err = get(r, force, "SpringForce", "mNaturalFreq", &freq, 8);
	err = err ?: get(r, force, "SpringForce", "mDampingRatio", &ratio, 8);
	err = err ?: get(r, force, "SpringForce", "mFinalPosition", &final_pos, 8);
	if (err)
		return err;
	if (!isfinite(freq) || freq <= 0)
		return fail(r, 0, "SpringForce.mNaturalFreq %g is not positive", freq);
	if (!isfinite(ratio) || ratio < 0)
		return fail(r, 0, "SpringForce.mDampingRatio %g is negative", ratio);
	if (final_pos == DBL_MAX) /* UNSET: start() throws */
		return 0;
	if (!isfinite(final_pos) || fabs(final_pos) > FLT_MAX)
		return fail(r, 0, "SpringForce.mFinalPosition %g is no float position", final_pos);
	c->has_spring = true;
	c->stiffness = freq * freq;
	c->damping_ratio = ratio;
	c->final_position = final_pos;
	return 0;
}

/* FlingAnimation.mFlingForce: DragForce's friction (-4.2 * the scalar: negative). */
static int fling(struct rd *r, uint64_t obj, struct dyn_config *c)
{
	uint32_t force;
	float friction;
	int is, err = get(r, obj, "FlingAnimation", "mFlingForce", &force, 4);

	if (err)
		return err;
	if (!force)
		return fail(r, 0, "FlingAnimation.mFlingForce is null (it is final, set at birth)");
	if ((is = is_a(r, force, "FlingAnimation$DragForce")) <= 0)
		return is ?: fail(r, 0, "FlingAnimation.mFlingForce 0x%x is no DragForce", force);
	err = get(r, force, "FlingAnimation$DragForce", "mFriction", &friction, 4);
	if (err)
		return err;
	if (!isfinite(friction) || friction >= 0)
		return fail(r, 0, "DragForce.mFriction %g is not negative", (double)friction);
	c->has_fling = true;
	c->friction = friction;
	return 0;
}

int dynconfig_read(struct heap *h, uint64_t obj, struct dyn_config *c, char *why, size_t n)
{
	struct rd r = { h, NULL, why, n };
	int is, err;

	memset(c, 0, sizeof(*c));
	if (n)
		why[0] = '\0';
	err = package(&r, obj);
	err = err ?: state(&r, obj, c);
	if (!err && (is = is_a(&r, obj, "SpringAnimation")) != 0)
		err = is < 0 ? is : spring(&r, obj, c);
	else if (!err && (is = is_a(&r, obj, "FlingAnimation")) != 0)
		err = is < 0 ? is : fling(&r, obj, c);
	if (err)
		memset(c, 0, sizeof(*c));
	return err;
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* An animator's configuration from its ValueAnimator object (live/animconfig.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "animtrace/wire.h"
#include "live/animconfig.h"

#define VA "Landroid/animation/ValueAnimator;"
#define OA "Landroid/animation/ObjectAnimator;"
#define PVH "Landroid/animation/PropertyValuesHolder;"
#define KFS "Landroid/animation/KeyframeSet;"
#define FKF "Landroid/animation/Keyframe$FloatKeyframe;"
#define IKF "Landroid/animation/Keyframe$IntKeyframe;"
#define ARGB "Landroid/animation/ArgbEvaluator;"
#define VIEW "Landroid/view/View;"
#define RNODE "Landroid/graphics/RenderNode;"

/* One read's state: the heap and where to say why it failed. */
struct rd {
	struct heap *h;
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

/* A field read that must succeed: its failure is the read's. */
static int get(struct rd *r, uint64_t obj, const char *cls, const char *name, void *out,
	       size_t size)
{
	int err = heap__get(r->h, obj, cls, name, out, size);

	if (err)
		return fail(r, err, "%s.%s of 0x%llx unreadable (%s)", cls, name,
			    (unsigned long long)obj, strerror(-err));
	return 0;
}

/* 1 when obj is a cls, 0 when not; a failure to tell is the read's. */
static int is_a(struct rd *r, uint64_t obj, const char *cls)
{
	int is = heap__is_a(r->h, obj, cls);

	if (is < 0)
		return fail(r, is, "the class of 0x%llx unreadable (%s)", (unsigned long long)obj,
			    strerror(-is));
	return is;
}

/* "Lcom/foo/Bar;" -> "com.foo.Bar" (the descriptor itself when it is no class). */
static void binary_name(const char *desc, char *out, size_t n)
{
	size_t len = strlen(desc);

	if (len < 3 || desc[0] != 'L' || desc[len - 1] != ';') {
		snprintf(out, n, "%s", desc);
		return;
	}
	snprintf(out, n, "%.*s", (int)(len - 2), desc + 1);
	for (char *p = out; *p; p++)
		if (*p == '/')
			*p = '.';
}

void animconfig_interp_name(const char *desc, char *out, size_t n)
{
	static const char *const framework[] = { "android.view.animation.",
						 "androidx.interpolator.view.animation.",
						 "android.support.v4.view.animation." };
	static const char suffix[] = "Interpolator";
	char name[256];
	const char *dot, *simple;
	size_t len;

	binary_name(desc, name, sizeof(name));
	dot = strrchr(name, '.');
	simple = dot ? dot + 1 : name;
	len = strlen(simple);
	for (size_t i = 0; i < sizeof(framework) / sizeof(framework[0]); i++) {
		if (strncmp(name, framework[i], strlen(framework[i])) || strchr(simple, '$') ||
		    !strcmp(simple, "PathInterpolator") || len <= sizeof(suffix) - 1 ||
		    strcmp(simple + len - (sizeof(suffix) - 1), suffix))
			continue;
		snprintf(out, n, "%.*s", (int)(len - (sizeof(suffix) - 1)), simple);
		return;
	}
	snprintf(out, n, "%s", simple);
}

/* The class of obj as a descriptor, or NULL when its dex is not at hand (-ENOENT: unknown,
 * not wrong); other failures are the read's. */
static int class_name(struct rd *r, uint64_t obj, const char **desc)
{
	int err = heap__class_of(r->h, obj, desc);

	if (err == -ENOENT) {
		*desc = NULL;
		return 0;
	}
	if (err)
		return fail(r, err, "the class of 0x%llx unreadable (%s)", (unsigned long long)obj,
			    strerror(-err));
	return 0;
}

/* mDuration, mStartDelay, mRepeatCount, mRepeatMode: each within its bounds. */
static int timing(struct rd *r, uint64_t obj, struct anim_config *c)
{
	int64_t dur, delay;
	int32_t count, mode;
	int err;

	err = get(r, obj, VA, "mDuration", &dur, 8);
	err = err ?: get(r, obj, VA, "mStartDelay", &delay, 8);
	err = err ?: get(r, obj, VA, "mRepeatCount", &count, 4);
	err = err ?: get(r, obj, VA, "mRepeatMode", &mode, 4);
	if (err)
		return err;
	if (dur < 0 || dur > ANIMCONFIG_MAX_MS)
		return fail(r, 0, "mDuration %lld ms is no duration", (long long)dur);
	if (delay < 0 || delay > ANIMCONFIG_MAX_MS)
		return fail(r, 0, "mStartDelay %lld ms is no start delay", (long long)delay);
	if (count < AT_REPEAT_INFINITE || count > ANIMCONFIG_MAX_REPEAT)
		return fail(r, 0, "mRepeatCount %d is no repeat count", count);
	if (mode != REPEAT_RESTART && mode != REPEAT_REVERSE)
		return fail(r, 0, "mRepeatMode %d is neither RESTART nor REVERSE", mode);
	c->has_duration = c->has_start_delay = c->has_repeat = true;
	c->duration_ms = dur;
	c->start_delay_ms = delay;
	c->repeat_count = count;
	c->repeat_mode = (enum repeat_mode)mode;
	return 0;
}

static int interpolator(struct rd *r, uint64_t obj, struct anim_config *c)
{
	const char *desc;
	uint32_t ip;
	int err = get(r, obj, VA, "mInterpolator", &ip, 4);

	if (err || !ip) /* null: unknown (setInterpolator(null) stores a LinearInterpolator) */
		return err;
	err = class_name(r, ip, &desc);
	if (!err && desc)
		animconfig_interp_name(desc, c->interpolator, sizeof(c->interpolator));
	return err;
}

/* The value of the Keyframe at kf into *v, typed by its class (ObjectKeyframe: unknown). */
static int keyframe(struct rd *r, uint64_t kf, bool *known, double *v, bool *is_int)
{
	float f;
	int32_t i;
	int is, err;

	*known = false;
	if (!kf)
		return 0;
	if ((is = is_a(r, kf, FKF)) < 0)
		return is;
	if (is) {
		err = get(r, kf, FKF, "mValue", &f, 4);
		if (!err && !isfinite(f))
			return fail(r, 0, "a FloatKeyframe holds %g", (double)f);
		*known = !err;
		*v = f;
		*is_int = false;
		return err;
	}
	if ((is = is_a(r, kf, IKF)) <= 0)
		return is;
	err = get(r, kf, IKF, "mValue", &i, 4);
	*known = !err;
	*v = i;
	*is_int = true;
	return err;
}

/* The first and last keyframes of a holder's KeyframeSet (a PathKeyframes: unknown). */
static int keyframes(struct rd *r, uint64_t holder, struct config_value *v)
{
	uint32_t set, first, last;
	bool k1, k2, int1 = false, int2 = false;
	int is, err = get(r, holder, PVH, "mKeyframes", &set, 4);

	if (err || !set)
		return err;
	if ((is = is_a(r, set, KFS)) <= 0)
		return is;
	err = get(r, set, KFS, "mFirstKeyframe", &first, 4);
	err = err ?: get(r, set, KFS, "mLastKeyframe", &last, 4);
	err = err ?: keyframe(r, first, &k1, &v->from, &int1);
	err = err ?: keyframe(r, last, &k2, &v->to, &int2);
	if (err)
		return err;
	if (k1 && k2 && int1 != int2)
		return fail(r, 0, "a KeyframeSet mixes float and int keyframes");
	v->has_range = k1 && k2;
	if (int1 && v->type == CONFIG_FLOAT)
		v->type = CONFIG_INT;
	return 0;
}

/* One PropertyValuesHolder: its name, whether it animates colours, its first and last values. */
static int holder(struct rd *r, uint64_t pvh, struct config_value *v)
{
	uint32_t name, eval;
	const char *desc = NULL;
	int is, err;

	memset(v, 0, sizeof(*v));
	if ((is = is_a(r, pvh, PVH)) <= 0)
		return is    ?:
			       fail(r, 0, "mValues holds 0x%llx, no PropertyValuesHolder",
				    (unsigned long long)pvh);
	err = get(r, pvh, PVH, "mPropertyName", &name, 4);
	if (!err && name) {
		err = heap__string(r->h, name, v->property, sizeof(v->property), NULL);
		if (err < 0)
			return fail(r, err, "a holder's mPropertyName is no string");
	}
	err = get(r, pvh, PVH, "mEvaluator", &eval, 4);
	if (!err && eval)
		err = class_name(r, eval, &desc);
	if (err)
		return err;
	v->type = CONFIG_FLOAT;
	err = keyframes(r, pvh, v);
	if (!err && v->type == CONFIG_INT && desc && !strcmp(desc, ARGB))
		v->type = CONFIG_ARGB;
	return err;
}

static int values(struct rd *r, uint64_t obj, struct anim_config *c)
{
	uint32_t arr, len, pvh[AT_CONFIG_VALUES];
	const char *desc;
	int err = get(r, obj, VA, "mValues", &arr, 4);

	if (err || !arr)
		return err;
	err = class_name(r, arr, &desc);
	if (err)
		return err;
	if (!desc || strcmp(desc, "[" PVH))
		return fail(r, 0, "mValues is %s, not a PropertyValuesHolder[]", desc ? desc : "?");
	err = heap__array_length(r->h, arr, &len);
	if (err || len > AT_HEAP_HOLDERS)
		return fail(r, err, "mValues has %u holders", len);
	c->n_values = len < AT_CONFIG_VALUES ? (int)len : AT_CONFIG_VALUES;
	c->values_left_out = len - (uint32_t)c->n_values;
	err = c->n_values ? heap__array_read(r->h, arr, 4, 0, (uint32_t)c->n_values, pvh) : 0;
	if (err)
		return fail(r, err, "mValues unreadable (%s)", strerror(-err));
	for (int i = 0; i < c->n_values && !err; i++)
		err = holder(r, pvh[i], &c->values[i]);
	c->has_values = !err;
	return err;
}

/* The View's native RenderNode (View.mRenderNode -> RenderNode.mNativeRenderNode). */
static int render_node(struct rd *r, uint64_t view, struct anim_config *c)
{
	uint32_t node;
	int64_t native;
	int err = get(r, view, VIEW, "mRenderNode", &node, 4);

	if (err || !node)
		return err;
	if (is_a(r, node, RNODE) != 1)
		return fail(r, 0, "View.mRenderNode 0x%x is no RenderNode", node);
	err = get(r, node, RNODE, "mNativeRenderNode", &native, 8);
	if (err)
		return err;
	/* a heap pointer (the top byte may carry a TBI/MTE tag, as the hwui probes strip) */
	if (!native || (native & 7) || AT_UNTAG((uint64_t)native) >= 1ull << 48)
		return fail(r, 0, "RenderNode.mNativeRenderNode 0x%llx is no native pointer",
			    (unsigned long long)native);
	c->target_node = AT_UNTAG((uint64_t)native);
	return 0;
}

/* ObjectAnimator: mTarget's referent, its class and, for a View, its RenderNode. */
static int target(struct rd *r, uint64_t obj, struct anim_config *c)
{
	uint32_t ref, referent;
	const char *desc;
	int is, err = get(r, obj, OA, "mTarget", &ref, 4);

	if (err || !ref)
		return err;
	err = heap__referent(r->h, ref, &referent);
	if (err)
		return fail(r, err, "ObjectAnimator.mTarget 0x%x is no Reference", ref);
	if (!referent) /* cleared: the target was collected */
		return 0;
	err = class_name(r, referent, &desc);
	if (err || !desc)
		return err;
	binary_name(desc, c->target_class, sizeof(c->target_class));
	if ((is = is_a(r, referent, VIEW)) <= 0)
		return is;
	return render_node(r, referent, c);
}

int animconfig_read(struct heap *h, uint64_t obj, struct anim_config *c, char *why, size_t n)
{
	struct rd r = { h, why, n };
	int is, err;

	memset(c, 0, sizeof(*c));
	if (n)
		why[0] = '\0';
	if ((is = is_a(&r, obj, VA)) <= 0)
		return is    ?:
			       fail(&r, 0,
				    "`this` 0x%llx at ValueAnimator.start is no ValueAnimator",
				    (unsigned long long)obj);
	err = timing(&r, obj, c);
	err = err ?: interpolator(&r, obj, c);
	err = err ?: values(&r, obj, c);
	if (!err && (is = is_a(&r, obj, OA)) != 0)
		err = is < 0 ? is : target(&r, obj, c);
	if (err) {
		memset(c, 0, sizeof(*c));
		return err;
	}
	c->known = true;
	return 0;
}

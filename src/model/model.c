// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Stable names for the model enums: sinks print them and JSON consumers match on them. */
#include <stdio.h>
#include <string.h>

#include "model/model.h"

const char *end_reason_str(enum end_reason r)
{
	static const char *const names[] = {
		[END_NONE] = "none",
		[END_COMPLETE] = "complete",
		[END_CANCEL] = "cancel",
		[END_FORCE_END] = "force_end",
		[END_ENDED] = "ended",
		[END_CANCEL_BEFORE_START] = "cancel_before_start",
		[END_PROCESS_EXIT] = "process_exit",
		[END_RUNNING_AT_EXIT] = "running_at_exit",
		[END_FIRST_FRAME] = "first_frame",
	};

	if ((unsigned int)r >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[r];
}

const char *reason_source_str(enum reason_source s)
{
	return s == REASON_ART ? "art" : "inferred";
}

const char *anim_kind_str(enum anim_kind k)
{
	return k == ANIM_OBJECT ? "ObjectAnimator" : "ValueAnimator";
}

const char *anim_starter_str(enum anim_starter s)
{
	return s == STARTER_SET ? "AnimatorSet" : s == STARTER_VPA ? "ViewPropertyAnimator" : NULL;
}

const char *anim_type_str(enum anim_kind k, enum anim_starter s)
{
	if (s == STARTER_VPA) /* its own ValueAnimator.ofFloat(1.0f): the kind says nothing */
		return "ViewPropertyAnimator";
	if (s == STARTER_SET)
		return k == ANIM_OBJECT ? "ObjectAnimator in an AnimatorSet" :
					  "ValueAnimator in an AnimatorSet";
	return anim_kind_str(k);
}

const char *frame_phase_str(enum frame_phase p)
{
	static const char *const names[] = {
		[PHASE_INPUT] = "input",
		[PHASE_ANIMATION] = "animation",
		[PHASE_INSETS_ANIMATION] = "insets_animation",
		[PHASE_TRAVERSAL] = "traversal",
		[PHASE_COMMIT] = "commit",
		[PHASE_DRAW] = "draw",
	};

	if ((unsigned int)p >= PHASE_COUNT)
		return "unknown";
	return names[p];
}

/* [0]: the ObjectAnimator property name, so "animator:<prop>" can be matched; [1]: short. */
static const char *prop_name(enum view_prop p, int which)
{
#define PROP_NAMES(e, b, j, json, sh) [PROP_##e] = { json, sh },
	static const char *const names[][2] = { AT_PROPS(PROP_NAMES) };
#undef PROP_NAMES

	if ((unsigned int)p >= PROP_COUNT)
		return "unknown";
	return names[p][which];
}

const char *view_prop_str(enum view_prop p)
{
	return prop_name(p, 0);
}

const char *view_prop_short(enum view_prop p)
{
	return prop_name(p, 1);
}

/* The engine names a node it has no class for "RenderNode@xxxx"; a class has no '@'. */
const char *node_class(const char *name)
{
	return name && *name && !strchr(name, '@') ? name : NULL;
}

/* The seed tracers' form (NotificationRow@3f2c), one place for every sink. */
const char *node_label(char *buf, size_t size, const char *name, uint64_t node)
{
	const char *cls = node_class(name);

	snprintf(buf, size, "%s@%04x", cls ? cls : "RenderNode", (unsigned int)(node & 0xffff));
	return buf;
}

const char *dyn_kind_str(enum dyn_kind k)
{
	/* the seed's DynamicAnimationTracer names: Spring|, Fling|, Dyn| */
	return k == DYN_SPRING ? "Spring" : k == DYN_FLING ? "Fling" : "Dyn";
}

const char *finding_kind_str(enum finding_kind k)
{
	static const char *const names[] = {
		[FINDING_FLICKER] = "flicker",	   [FINDING_REPLACED] = "replaced",
		[FINDING_CONFLICT] = "conflict",   [FINDING_SLOW_SPRING] = "slow_spring",
		[FINDING_REPEATING] = "repeating", [FINDING_STALLED] = "stalled",
	};

	if ((unsigned int)k >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[k];
}

/*
 * FrameTracker's @Reasons constants (frameworks/base core/java/com/android/internal/jank/
 * FrameTracker.java, the same values in Android 13 to 16; 12 has none).
 */
const char *cuj_reason_str(int32_t reason)
{
	switch (reason) {
	case -1:
		return "REASON_END_UNKNOWN";
	case 0:
		return "REASON_END_NORMAL";
	case 1:
		return "REASON_END_SURFACE_DESTROYED";
	case 16:
		return "REASON_CANCEL_NORMAL";
	case 17:
		return "REASON_CANCEL_NOT_BEGUN";
	case 18:
		return "REASON_CANCEL_SAME_VSYNC";
	case 19:
		return "REASON_CANCEL_TIMEOUT";
	default:
		return NULL;
	}
}

const char *repeat_mode_str(enum repeat_mode m)
{
	return m == REPEAT_RESTART ? "RESTART" : m == REPEAT_REVERSE ? "REVERSE" : "unknown";
}

const char *config_value_str(char *buf, size_t size, enum config_type type, double v)
{
	/* ints and colours are Java ints: a colour's sign bit is its alpha's high bit */
	if (type == CONFIG_ARGB)
		snprintf(buf, size, "0x%08x", (uint32_t)(int32_t)v);
	else if (type == CONFIG_INT)
		snprintf(buf, size, "%d", (int32_t)v);
	else
		snprintf(buf, size, "%g", v);
	return buf;
}

const char *simple_class(const char *binary_name)
{
	const char *dot = strrchr(binary_name, '.');
	const char *s = dot ? dot + 1 : binary_name;
	const char *dollar = strrchr(s, '$');

	return dollar && dollar[1] ? dollar + 1 : s;
}

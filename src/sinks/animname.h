/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The names engineers search for in Perfetto, as the patched-AOSP tracers animtrace replaces
 * wrote them (../shared/seeds/000_32262949c7a3612a.txt: AnimatorTracer.buildSectionName,
 * DynamicAnimationTracer.buildSectionName, the V| counters of 7.2), formatted from records and
 * parsed back: the one place for their grammar.
 *
 *   Anim|<id>|<type>|<target>|<prop>:<from>-><to>[,<prop>:<from>-><to>]...[,+<n>]|<interp>|<dur>
 *   Spring|<id>|<target>|<prop>[,+<n>]|s=<stiffness>,d=<damping ratio>|<from>-><to>
 *   Fling|<id>|<target>|<prop>[,+<n>]|f=<friction>|v0=<start velocity>
 *   V|<target>|<prop>                                       (a counter of one View property)
 *   Dyn|<id>|<target>|<prop>      (a DynamicAnimation not known to be a spring or a fling, as the
 *                                  seed's tracer named one of another subclass)
 *
 * type: Obj (ObjectAnimator), Val (ValueAnimator), Unmarked (no marker: a curve found in the
 * property values that fits no spring or fling; its id is the animation's). target: the node as
 * node_label() names it (NotificationRow@3f2c). Up to ANIMNAME_PROPS properties, then ",+<n>"
 * for the others. dur: milliseconds, to the microsecond, trailing zeros cut ("300ms",
 * "133.282ms"). Every field that is not known is "?" (a start before its values, a replay
 * without setter probes); an id is always known.
 *
 * Numbers: a View value (a float) is the shortest decimal that reads back as the same float,
 * integers without a point ("1", "-100"), as Java's AnimatorTracer.formatFloat prints them
 * but with C's exponent ("1e+20"); a fitted number has 6 significant digits (%.6g, as the JSON
 * records have it); NaN and infinities are "NaN", "Infinity", "-Infinity" (Java's words).
 *
 * Names (target, property, interpolator, type) are percent-escaped where they hold a byte the
 * grammar uses: '%', '|', ',', ':', a control byte, the bytes of U+00A6, a leading '+', or
 * are exactly "?": "my|prop" is "my%7Cprop". Spaces stay.
 *
 * Separator: ANIMNAME_PIPE '|' (the trace export: JSON strings carry it) or ANIMNAME_ATRACE
 * U+00A6 BROKEN BAR (--annotate: Perfetto's atrace parser cuts S, F, G, N and C names at the
 * first '|', systrace_parser.h ParseSystraceTracePoint; U+00A6 is the glyph ASCII's '|' was
 * drawn with, and it survives). The parser takes either.
 */
#ifndef ANIMTRACE_SINK_ANIMNAME_H
#define ANIMTRACE_SINK_ANIMNAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define ANIMNAME_PROPS 3  /* listed in a name, as the seed's tracer did */
#define ANIMNAME_WORD 128 /* a name field, unescaped, with its NUL; longer ones are cut */
#define ANIMNAME_MAX 1024 /* a whole formatted name fits (AT_MARKER_MAX) */
#define ANIMNAME_ATRACE_SEP AT_ANNOT_SEP /* U+00A6 BROKEN BAR */

enum animname_kind {
	ANIMNAME_ANIM = 0, /* an animator, or an unmarked animation of no physics */
	ANIMNAME_SPRING,
	ANIMNAME_FLING,
	ANIMNAME_COUNTER,
	ANIMNAME_DYN,
};

enum animname_sep {
	ANIMNAME_PIPE = 0,
	ANIMNAME_ATRACE,
};

/*
 * One number of a name; known false prints "?". fitted: %.6g; is_int: a Java int ("%d");
 * argb: a colour, "0x%08x" (the seed's formatValue: an int with alpha bits); else the float's
 * shortest.
 */
struct animname_num {
	bool known;
	bool fitted;
	bool is_int, argb;
	double v;
};

struct animname_prop {
	char name[ANIMNAME_WORD]; /* "" prints "?" */
	struct animname_num from, to;
};

/*
 * Everything a name says. The builders below fill it from a record; a caller that knows more
 * (an animator's configured duration, interpolator or values, read from its heap) overwrites
 * the fields before formatting.
 */
struct animname {
	enum animname_kind kind;
	int64_t id;
	char type[16];		    /* Anim: "Obj", "Val", "Unmarked" */
	char target[ANIMNAME_WORD]; /* "" prints "?" */
	int n_props;
	struct animname_prop props[ANIMNAME_PROPS]; /* spring: props[0] carries from -> to */
	uint32_t props_left_out;		    /* ",+<n>" */
	char interp[ANIMNAME_WORD];		    /* Anim; "" prints "?" */
	bool has_duration;			    /* Anim */
	uint64_t duration_ns;			/* printed to the microsecond, cut (not rounded) */
	struct animname_num stiffness, damping; /* Spring */
	struct animname_num friction, velocity; /* Fling: friction scalar, start velocity */
};

/*
 * An animator: type from its kind, properties from its marker name with the values it wrote
 * on its target (a->changes, first -> last written value) and then the target properties it
 * moved that the name does not list; interpolator and S..F duration when it ended with them.
 * Where its configuration was read at start() (a->config, issue #24), what the code asked for
 * wins, as the seed's AnimatorTracer.buildSectionName printed it: the configured duration
 * (getDuration()), interpolator (the name box_config prints: animconfig_interp_name), the
 * holders' properties and first -> last keyframe values (a holder without values keeps the
 * measured ones), and the target's class where its node has no View name.
 */
void animname_from_anim(struct animname *n, const struct anim *a);

/*
 * An unmarked animation: Spring or Fling when its first property fitted as one (parameters
 * fitted, from -> to observed), else Anim|<id>|Unmarked with its fitted interpolator and its
 * duration. At animation_start (a->ended false) its kind is unknown: Unmarked, to "?".
 */
void animname_from_animation(struct animname *n, const struct animation *a);

/*
 * A DynamicAnimation the ART probes followed (engine/dynanims.h), as the seed's
 * DynamicAnimationTracer.buildSectionName named it: Spring|, Fling| or Dyn| by its kind, its id,
 * its target node and property (its first write), then a spring's stiffness, damping ratio and
 * start value -> final position, or a fling's friction scalar (FlingAnimation.getFriction) and
 * start velocity: as read from the heap at start() (d->config: the seed's values, printed as
 * floats), fitted otherwise; a spring's from -> to without the heap is its first -> last
 * written value once it ended.
 */
void animname_from_dyn(struct animname *n, const struct dyn_anim *d);

/*
 * Writes n into buf (cap > 0: always NUL-terminated, cut at a UTF-8 boundary when too long).
 * Returns the length written.
 */
size_t animname_format(char *buf, size_t cap, const struct animname *n, enum animname_sep sep);

/* "V|<node_label>|<prop>" into buf (cap > 0). Returns the length written. */
size_t animname_counter(char *buf, size_t cap, enum animname_sep sep, const char *node_name,
			uint64_t node, enum view_prop prop);

/*
 * Parses the name s[0, len) into *out (kind ANIMNAME_COUNTER: target and props[0].name).
 * Returns the number of bytes the grammar's fields took, which is len unless a separator and
 * more fields follow them (the caller's own: --annotate's end instant), or -EINVAL when s is
 * no such name. Also reads the seed's Val form without a target (Anim|43|Val|?:0->1|Linear|200ms)
 * and a property without values (Anim|1|Obj|X@1|alpha|?|?).
 */
int animname_parse(const char *s, size_t len, struct animname *out);

#endif

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The seed tracers' slice and counter names (sinks/animname.h): built from records, formatted,
 * parsed back. Pure: no I/O, no allocation, no libm.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/marker.h"
#include "sinks/animname.h"

/* ---- building from records ------------------------------------------------------------ */

static void set_word(char *dst, size_t cap, const char *s)
{
	size_t n = utf8_prefix(s, strlen(s), cap - 1);

	memcpy(dst, s, n);
	dst[n] = '\0';
}

static struct animname_num num_float(float v)
{
	return (struct animname_num){ .known = true, .v = v };
}

static struct animname_num num_fit(double v)
{
	return (struct animname_num){ .known = true, .fitted = true, .v = v };
}

/* Adds a property (counted in props_left_out past ANIMNAME_PROPS); its slot or NULL. */
static struct animname_prop *add_prop(struct animname *n, const char *name)
{
	struct animname_prop *p;

	if (n->n_props >= ANIMNAME_PROPS) {
		n->props_left_out++;
		return NULL;
	}
	p = &n->props[n->n_props++];
	set_word(p->name, sizeof(p->name), name);
	return p;
}

/* Its changes on its target view (none without one: the JSON record has none either). */
static int n_changes(const struct anim *a)
{
	return a->target_node ? a->n_changes : 0;
}

/* The change of the property called name, or NULL: marker names use View's property names. */
static const struct prop_change *find_change(const struct anim *a, const char *name)
{
	for (int i = 0; i < n_changes(a) && i < AT_MAX_PROPS; i++)
		if (!strcmp(view_prop_str(a->changes[i].prop), name))
			return &a->changes[i];
	return NULL;
}

static bool named(const struct anim *a, const char *name)
{
	for (int i = 0; i < a->n_props && i < AT_MAX_PROPS; i++)
		if (!strcmp(a->props[i], name))
			return true;
	return false;
}

/* A configured value, typed as its holder's keyframes are (model.h config_value). */
static struct animname_num num_config(enum config_type type, double v)
{
	if (type == CONFIG_FLOAT)
		return num_float((float)v);
	return (struct animname_num){
		.known = true, .is_int = type == CONFIG_INT, .argb = type == CONFIG_ARGB, .v = v
	};
}

/* The configured properties and values replace the measured ones (header). */
static void config_props(struct animname *n, const struct anim *a)
{
	const struct anim_config *c = &a->config;

	if (!c->has_values || !c->n_values)
		return;
	n->n_props = 0;
	n->props_left_out = 0;
	for (int i = 0; i < c->n_values && i < AT_CONFIG_VALUES; i++) {
		const struct config_value *v = &c->values[i];
		const struct prop_change *m = *v->property ? find_change(a, v->property) : NULL;
		struct animname_prop *p = add_prop(n, v->property);

		if (p && v->has_range) {
			p->from = num_config(v->type, v->from);
			p->to = num_config(v->type, v->to);
		} else if (p && m) {
			p->from = num_float(m->from);
			p->to = num_float(m->to);
		}
	}
	n->props_left_out += c->values_left_out;
}

/* The target's class from the configuration where the node names none: "Button@3f2c". */
static void config_target(struct animname *n, const struct anim *a)
{
	const struct anim_config *c = &a->config;
	uint64_t node = c->target_node ? c->target_node : a->target_node;
	char cls[ANIMNAME_WORD - 6]; /* room for "@xxxx" */

	if (!*c->target_class || (a->target_node && node_class(a->target_name)))
		return;
	set_word(cls, sizeof(cls), simple_class(c->target_class));
	if (node)
		snprintf(n->target, sizeof(n->target), "%s@%04x", cls,
			 (unsigned int)(node & 0xffff));
	else
		snprintf(n->target, sizeof(n->target), "%s", cls);
}

static void config_overrides(struct animname *n, const struct anim *a)
{
	if (!a->config.known)
		return;
	config_target(n, a);
	config_props(n, a);
	if (*a->config.interpolator)
		set_word(n->interp, sizeof(n->interp), a->config.interpolator);
	if (a->config.has_duration) {
		n->has_duration = true;
		n->duration_ns = (uint64_t)a->config.duration_ms * 1000000;
	}
}

void animname_from_anim(struct animname *n, const struct anim *a)
{
	memset(n, 0, sizeof(*n));
	n->kind = ANIMNAME_ANIM;
	n->id = (int64_t)a->id;
	snprintf(n->type, sizeof(n->type), "%s", a->kind == ANIM_OBJECT ? "Obj" : "Val");
	if (a->target_node)
		node_label(n->target, sizeof(n->target), a->target_name, a->target_node);
	for (int i = 0; i < a->n_props && i < AT_MAX_PROPS; i++) {
		const struct prop_change *c = find_change(a, a->props[i]);
		struct animname_prop *p = add_prop(n, a->props[i]);

		if (p && c) {
			p->from = num_float(c->from);
			p->to = num_float(c->to);
		}
	}
	for (int i = 0; i < n_changes(a) && i < AT_MAX_PROPS; i++) {
		const struct prop_change *c = &a->changes[i];
		struct animname_prop *p;

		if (named(a, view_prop_str(c->prop)))
			continue;
		p = add_prop(n, view_prop_str(c->prop));
		if (p) {
			p->from = num_float(c->from);
			p->to = num_float(c->to);
		}
	}
	if (a->interpolator)
		set_word(n->interp, sizeof(n->interp), a->interpolator);
	/* ended (a start record may carry an earlier run's end: cookies are reused) */
	n->has_duration = a->reason != END_NONE && a->start_ns && a->end_ns >= a->start_ns;
	n->duration_ns = n->has_duration ? a->end_ns - a->start_ns : 0;
	config_overrides(n, a);
}

/* Unmarked, no physics: its properties with values, its interpolator and duration once ended. */
static void unmarked(struct animname *n, const struct animation *a, const struct fit_result *f)
{
	n->kind = ANIMNAME_ANIM;
	snprintf(n->type, sizeof(n->type), "Unmarked");
	for (int i = 0; i < a->n_props && i < AT_MAX_PROPS; i++) {
		struct animname_prop *p = add_prop(n, view_prop_str(a->props[i].prop));

		if (!p)
			continue;
		p->from = num_float(a->props[i].from);
		if (a->ended) /* before its end, "to" is only where it is so far */
			p->to = num_float(a->props[i].to);
	}
	if (f && f->kind == FIT_INTERPOLATED && f->interpolator)
		set_word(n->interp, sizeof(n->interp), f->interpolator);
	n->has_duration = a->ended;
	n->duration_ns = a->ended ? a->duration_ns : 0;
}

void animname_from_animation(struct animname *n, const struct animation *a)
{
	const struct animation_prop *ap = a->n_props ? &a->props[0] : NULL;
	const struct fit_result *f = a->ended && ap && ap->fitted ? &ap->fit : NULL;

	memset(n, 0, sizeof(*n));
	n->id = (int64_t)a->id;
	node_label(n->target, sizeof(n->target), a->node_name, a->node);
	if (!f || (f->kind != FIT_SPRING && f->kind != FIT_FLING)) {
		unmarked(n, a, f);
		return;
	}
	add_prop(n, view_prop_str(ap->prop));
	n->props_left_out = (uint32_t)(a->n_props - 1);
	if (f->kind == FIT_SPRING) {
		n->kind = ANIMNAME_SPRING;
		n->props[0].from = num_float(ap->from);
		n->props[0].to = num_float(ap->to);
		n->stiffness = num_fit(f->stiffness);
		n->damping = num_fit(f->damping_ratio);
	} else {
		n->kind = ANIMNAME_FLING;
		n->friction = num_fit(f->friction_scalar);
		n->velocity = num_fit(f->start_velocity);
	}
}

/*
 * DragForce keeps mFriction = DEFAULT_FRICTION (-4.2f) * the scalar, and FlingAnimation's
 * getFriction() returns getFrictionScalar(): mFriction / DEFAULT_FRICTION, in float
 * (FlingAnimation.java, its DragForce: setFrictionScalar, getFrictionScalar; the framework's
 * com.android.internal.dynamicanimation copy and androidx's alike).
 */
#define DRAG_DEFAULT_FRICTION (-4.2f)

static void dyn_spring(struct animname *n, const struct dyn_anim *d)
{
	const struct dyn_config *c = &d->config;
	bool fit = d->fitted && d->fit.kind == FIT_SPRING;
	struct animname_prop *p = &n->props[0];

	n->kind = ANIMNAME_SPRING;
	if (!n->n_props)
		n->n_props = 1; /* the range needs its slot; the name prints "?" */
	if (c->has_spring) {
		n->stiffness = num_float((float)c->stiffness);
		n->damping = num_float((float)c->damping_ratio);
		p->to = num_float((float)c->final_position);
	} else if (fit) {
		n->stiffness = num_fit(d->fit.stiffness);
		n->damping = num_fit(d->fit.damping_ratio);
	}
	if (c->has_state && c->has_value) /* setStartValue gave it; else start() read the view */
		p->from = num_float((float)c->value);
	else if (d->ended && d->has_target)
		p->from = num_float(d->from);
	if (!c->has_spring && d->ended && d->has_target)
		p->to = num_float(d->to);
}

static void dyn_fling(struct animname *n, const struct dyn_anim *d)
{
	const struct dyn_config *c = &d->config;
	bool fit = d->fitted && d->fit.kind == FIT_FLING;

	n->kind = ANIMNAME_FLING;
	if (c->has_fling)
		n->friction = num_float((float)c->friction / DRAG_DEFAULT_FRICTION);
	else if (fit)
		n->friction = num_fit(d->fit.friction_scalar);
	if (c->has_state)
		n->velocity = num_float((float)c->velocity);
	else if (fit)
		n->velocity = num_fit(d->fit.start_velocity);
}

void animname_from_dyn(struct animname *n, const struct dyn_anim *d)
{
	memset(n, 0, sizeof(*n));
	n->id = (int64_t)d->id;
	n->kind = ANIMNAME_DYN;
	if (d->has_target) {
		node_label(n->target, sizeof(n->target), d->node_name, d->node);
		add_prop(n, view_prop_str(d->prop));
	}
	if (d->kind == DYN_SPRING)
		dyn_spring(n, d);
	else if (d->kind == DYN_FLING)
		dyn_fling(n, d);
}

/* ---- formatting ------------------------------------------------------------------------ */

/* Room for every field escaped (3 bytes per byte at most), before the cut to the caller's cap. */
#define SCRATCH (4 * ANIMNAME_MAX)

struct wr {
	char p[SCRATCH];
	size_t len;
	const char *sep;
};

static void put_n(struct wr *w, const char *s, size_t n)
{
	if (n > sizeof(w->p) - 1 - w->len)
		n = sizeof(w->p) - 1 - w->len;
	memcpy(w->p + w->len, s, n);
	w->len += n;
	w->p[w->len] = '\0';
}

static void put(struct wr *w, const char *s)
{
	put_n(w, s, strlen(s));
}

static bool is_sep_at(const char *s, size_t i, size_t len)
{
	return s[i] == '|' || (i + 1 < len && !memcmp(s + i, ANIMNAME_ATRACE_SEP, 2));
}

/* A name field: "?" when empty; escaped where it holds a byte of the grammar (see header). */
static void put_name(struct wr *w, const char *s)
{
	size_t len = strlen(s);
	char esc[4];

	if (!len || !strcmp(s, "?")) {
		put(w, len ? "%3F" : "?");
		return;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		bool bar = is_sep_at(s, i, len) && c != '|';

		/* a leading '+' would read as ",+<n>" (properties left out) */
		if (c == '%' || c == '|' || c == ',' || c == ':' || c < 0x20 || c == 0x7f || bar ||
		    (c == '+' && !i)) {
			snprintf(esc, sizeof(esc), "%%%02X", c);
			put(w, esc);
			if (bar) { /* the U+00A6 sequence: its second byte too */
				put(w, "%A6");
				i++;
			}
		} else {
			put_n(w, s + i, 1);
		}
	}
}

/* The shortest decimal that reads back (strtod, then float) as f; integers without a point. */
static void fmt_float(char *buf, size_t cap, float f)
{
	double d = f;

	if (d == 0) {
		snprintf(buf, cap, "0"); /* -0 too, as Java's formatFloat */
		return;
	}
	if (d > -1e15 && d < 1e15 && d == (double)(long long)d) {
		snprintf(buf, cap, "%lld", (long long)d);
		return;
	}
	for (int p = 1; p <= 9; p++) {
		snprintf(buf, cap, "%.*g", p, d);
		if ((float)strtod(buf, NULL) == f)
			return;
	}
}

/* A View value is a float: one past FLT_MAX is an infinity, as Java would print it. */
static void put_num(struct wr *w, const struct animname_num *x)
{
	double v = x->fitted || x->is_int || x->argb ? x->v : (double)(float)x->v;
	char buf[40];

	if (!x->known)
		snprintf(buf, sizeof(buf), "?");
	else if (isnan(v))
		snprintf(buf, sizeof(buf), "NaN");
	else if (isinf(v))
		snprintf(buf, sizeof(buf), "%s", v < 0 ? "-Infinity" : "Infinity");
	else if (x->argb || x->is_int) /* a Java int: exact, never through a float */
		config_value_str(buf, sizeof(buf), x->argb ? CONFIG_ARGB : CONFIG_INT, x->v);
	else if (x->fitted)
		snprintf(buf, sizeof(buf), "%.6g", v);
	else
		fmt_float(buf, sizeof(buf), (float)v);
	put(w, buf);
}

static void put_sep(struct wr *w)
{
	put(w, w->sep);
}

/* "<prop>[:<from>-><to>],...[,+<n>]"; "?" for no property at all. */
static void put_props(struct wr *w, const struct animname *n, bool values)
{
	char more[24];

	if (!n->n_props && !n->props_left_out) {
		put(w, "?");
		return;
	}
	for (int i = 0; i < n->n_props && i < ANIMNAME_PROPS; i++) {
		if (i)
			put(w, ",");
		put_name(w, n->props[i].name);
		if (!values)
			continue;
		put(w, ":");
		put_num(w, &n->props[i].from);
		put(w, "->");
		put_num(w, &n->props[i].to);
	}
	if (n->props_left_out) {
		snprintf(more, sizeof(more), "%s+%u", n->n_props ? "," : "", n->props_left_out);
		put(w, more);
	}
}

/* Milliseconds to the microsecond, trailing zeros cut: 300ms, 133.282ms, 0.05ms. */
static void put_duration(struct wr *w, const struct animname *n)
{
	char buf[48];
	unsigned int us = (unsigned int)(n->duration_ns / 1000 % 1000);
	int digits = 3;

	if (!n->has_duration) {
		put(w, "?");
		return;
	}
	while (digits && us % 10 == 0) {
		us /= 10;
		digits--;
	}
	if (digits)
		snprintf(buf, sizeof(buf), "%llu.%0*ums",
			 (unsigned long long)(n->duration_ns / 1000000), digits, us);
	else
		snprintf(buf, sizeof(buf), "%llums",
			 (unsigned long long)(n->duration_ns / 1000000));
	put(w, buf);
}

static void put_head(struct wr *w, const char *word, int64_t id)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)id);
	put(w, word);
	put_sep(w);
	put(w, buf);
	put_sep(w);
}

static void fmt_anim(struct wr *w, const struct animname *n)
{
	put_head(w, "Anim", n->id);
	put_name(w, n->type[0] ? n->type : "Val");
	put_sep(w);
	put_name(w, n->target);
	put_sep(w);
	put_props(w, n, true);
	put_sep(w);
	put_name(w, n->interp);
	put_sep(w);
	put_duration(w, n);
}

static void fmt_spring(struct wr *w, const struct animname *n)
{
	struct animname_num none = { 0 };

	put_head(w, "Spring", n->id);
	put_name(w, n->target);
	put_sep(w);
	put_props(w, n, false);
	put_sep(w);
	put(w, "s=");
	put_num(w, &n->stiffness);
	put(w, ",d=");
	put_num(w, &n->damping);
	put_sep(w);
	put_num(w, n->n_props ? &n->props[0].from : &none);
	put(w, "->");
	put_num(w, n->n_props ? &n->props[0].to : &none);
}

static void fmt_fling(struct wr *w, const struct animname *n)
{
	put_head(w, "Fling", n->id);
	put_name(w, n->target);
	put_sep(w);
	put_props(w, n, false);
	put_sep(w);
	put(w, "f=");
	put_num(w, &n->friction);
	put_sep(w);
	put(w, "v0=");
	put_num(w, &n->velocity);
}

static void fmt_dyn(struct wr *w, const struct animname *n)
{
	put_head(w, "Dyn", n->id);
	put_name(w, n->target);
	put_sep(w);
	put_props(w, n, false);
}

static void fmt_counter(struct wr *w, const struct animname *n)
{
	put(w, "V");
	put_sep(w);
	put_name(w, n->target);
	put_sep(w);
	put_name(w, n->n_props ? n->props[0].name : "");
}

/* The scratch text cut to cap at a UTF-8 boundary. */
static size_t finish(char *buf, size_t cap, const struct wr *w)
{
	size_t n;

	if (!cap)
		return 0;
	n = utf8_prefix(w->p, w->len, cap - 1);
	memcpy(buf, w->p, n);
	buf[n] = '\0';
	return n;
}

size_t animname_format(char *buf, size_t cap, const struct animname *n, enum animname_sep sep)
{
	struct wr w;

	w.len = 0;
	w.p[0] = '\0';
	w.sep = sep == ANIMNAME_ATRACE ? ANIMNAME_ATRACE_SEP : "|";
	switch (n->kind) {
	case ANIMNAME_SPRING:
		fmt_spring(&w, n);
		break;
	case ANIMNAME_FLING:
		fmt_fling(&w, n);
		break;
	case ANIMNAME_COUNTER:
		fmt_counter(&w, n);
		break;
	case ANIMNAME_DYN:
		fmt_dyn(&w, n);
		break;
	default:
		fmt_anim(&w, n);
		break;
	}
	return finish(buf, cap, &w);
}

size_t animname_counter(char *buf, size_t cap, enum animname_sep sep, const char *node_name,
			uint64_t node, enum view_prop prop)
{
	struct animname n = { .kind = ANIMNAME_COUNTER, .n_props = 1 };

	node_label(n.target, sizeof(n.target), node_name, node);
	set_word(n.props[0].name, sizeof(n.props[0].name), view_prop_str(prop));
	return animname_format(buf, cap, &n, sep);
}

/* ---- parsing --------------------------------------------------------------------------- */

#define FIELDS_MAX 12

struct field {
	const char *p;
	size_t len;
};

static bool field_is(struct field f, const char *s)
{
	return f.len == strlen(s) && !memcmp(f.p, s, f.len);
}

/* Splits s at '|' and U+00A6; *end[i]: the offset just past field i. Returns the count. */
static int split(const char *s, size_t len, struct field *f, size_t *end)
{
	int n = 0;
	size_t start = 0;

	for (size_t i = 0; i <= len && n < FIELDS_MAX; i++) {
		if (i < len && !is_sep_at(s, i, len))
			continue;
		f[n] = (struct field){ s + start, i - start };
		end[n++] = i;
		if (i < len && s[i] != '|')
			i++; /* the second byte of U+00A6 */
		start = i + 1;
	}
	return n;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* A name field unescaped into dst (cap bytes, cut at a UTF-8 boundary); "?" is "". */
static void get_name(char *dst, size_t cap, struct field f)
{
	size_t n = 0;

	if (field_is(f, "?"))
		f.len = 0;
	for (size_t i = 0; i < f.len && n < cap - 1; i++) {
		int hi = -1, lo = -1;

		if (f.p[i] == '%' && i + 2 < f.len) {
			hi = hexval(f.p[i + 1]);
			lo = hexval(f.p[i + 2]);
		}
		if (hi >= 0 && lo >= 0) {
			dst[n++] = (char)(hi << 4 | lo);
			i += 2;
		} else {
			dst[n++] = f.p[i];
		}
	}
	n = utf8_prefix(dst, n, n);
	dst[n] = '\0';
}

/* A number: "?" (unknown), NaN, [-]Infinity, or what strtod reads whole. */
static int get_num(struct field f, struct animname_num *x)
{
	char buf[64], *end;

	memset(x, 0, sizeof(*x));
	if (field_is(f, "?"))
		return 0;
	if (!f.len || f.len >= sizeof(buf) || f.p[0] == ' ')
		return -EINVAL;
	memcpy(buf, f.p, f.len);
	buf[f.len] = '\0';
	x->v = strtod(buf, &end);
	if (*end)
		return -EINVAL;
	x->known = true;
	x->argb = f.len > 2 && !memcmp(f.p, "0x", 2); /* a colour, as the seed's formatValue */
	if (x->argb && !(x->v >= 0 && x->v <= UINT32_MAX))
		return -EINVAL;
	if (x->argb) /* a Java int, as the record has it: the alpha's high bit is the sign */
		x->v = (int32_t)(uint32_t)x->v;
	/* integer text within a Java int prints back the same as an int (a float's too) */
	x->is_int = !x->argb &&
		    strspn(buf + (buf[0] == '-'), "0123456789") == strlen(buf + (buf[0] == '-')) &&
		    x->v >= INT32_MIN && x->v <= INT32_MAX;
	return 0;
}

static int get_id(struct field f, int64_t *id)
{
	char buf[32], *end;
	long long v;

	if (!f.len || f.len >= sizeof(buf) || (f.p[0] != '-' && (f.p[0] < '0' || f.p[0] > '9')))
		return -EINVAL;
	memcpy(buf, f.p, f.len);
	buf[f.len] = '\0';
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (*end || errno)
		return -EINVAL;
	*id = v;
	return 0;
}

/* Splits f at the first occurrence of tok into a and b; false when tok is not there. */
static bool cut(struct field f, const char *tok, struct field *a, struct field *b)
{
	size_t t = strlen(tok);

	for (size_t i = 0; i + t <= f.len; i++) {
		if (!memcmp(f.p + i, tok, t)) {
			*a = (struct field){ f.p, i };
			*b = (struct field){ f.p + i + t, f.len - i - t };
			return true;
		}
	}
	return false;
}

/* "<from>-><to>" into two numbers. */
static int get_range(struct field f, struct animname_num *from, struct animname_num *to)
{
	struct field a, b;

	if (!cut(f, "->", &a, &b))
		return -EINVAL;
	return get_num(a, from) ?: get_num(b, to);
}

/* "+<n>": the count of properties left out. */
static bool get_more(struct field f, uint32_t *more)
{
	unsigned long v = 0;

	if (f.len < 2 || f.len > 10 || f.p[0] != '+')
		return false;
	for (size_t i = 1; i < f.len; i++) {
		if (f.p[i] < '0' || f.p[i] > '9')
			return false;
		v = v * 10 + (unsigned long)(f.p[i] - '0');
	}
	*more = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	return true;
}

/* One item of a property list: "+<n>", "<name>" or "<name>:<from>-><to>". */
static int get_prop_item(struct animname *n, struct field item)
{
	struct field name = item, range = { 0 };
	bool values = cut(item, ":", &name, &range);
	struct animname_prop *p;
	uint32_t more;

	if (!values && get_more(item, &more)) {
		n->props_left_out += more;
		return 0;
	}
	if (n->n_props >= ANIMNAME_PROPS) {
		n->props_left_out++;
		return 0;
	}
	p = &n->props[n->n_props++];
	get_name(p->name, sizeof(p->name), name);
	return values ? get_range(range, &p->from, &p->to) : 0;
}

static int get_props(struct animname *n, struct field f)
{
	struct field item, rest = f;

	if (field_is(f, "?"))
		return 0;
	while (cut(rest, ",", &item, &rest))
		if (get_prop_item(n, item))
			return -EINVAL;
	return get_prop_item(n, rest);
}

/* "<ms>ms" to the nanosecond (6 decimals at most), or "?". Integer arithmetic: exact. */
static int get_duration(struct field f, struct animname *n)
{
	uint64_t ms = 0, frac = 0;
	size_t i = 0, int_digits = 0, frac_digits = 0;

	if (field_is(f, "?") || field_is(f, "?ms"))
		return 0;
	if (f.len < 3 || memcmp(f.p + f.len - 2, "ms", 2))
		return -EINVAL;
	f.len -= 2;
	for (; i < f.len && f.p[i] >= '0' && f.p[i] <= '9' && int_digits < 13; i++, int_digits++)
		ms = ms * 10 + (uint64_t)(f.p[i] - '0');
	if (!int_digits)
		return -EINVAL;
	if (i < f.len && f.p[i] == '.')
		for (i++; i < f.len && f.p[i] >= '0' && f.p[i] <= '9' && frac_digits < 6;
		     i++, frac_digits++)
			frac = frac * 10 + (uint64_t)(f.p[i] - '0');
	if (i != f.len)
		return -EINVAL;
	while (frac_digits++ < 6)
		frac *= 10;
	n->has_duration = true;
	n->duration_ns = ms * 1000000 + frac;
	return 0;
}

/* "<key>=<number>": a spring's or fling's parameter, formatted again as fitted (%.6g). */
static int get_keyed(struct field f, const char *key, struct animname_num *x)
{
	size_t k = strlen(key);
	int err;

	if (f.len < k || memcmp(f.p, key, k))
		return -EINVAL;
	err = get_num((struct field){ f.p + k, f.len - k }, x);
	x->fitted = x->known;
	return err;
}

/* Anim|id|type|[target|]props|interp|dur: the seed's Val form has no target. */
static int parse_anim(struct animname *n, const struct field *f, int nf)
{
	int i = 3;

	if (nf < 6)
		return -EINVAL;
	get_name(n->type, sizeof(n->type), f[2]);
	if (nf == 6 || memchr(f[3].p, ':', f[3].len))
		n->target[0] = '\0';
	else
		get_name(n->target, sizeof(n->target), f[i++]);
	if (i + 3 > nf)
		return -EINVAL;
	get_name(n->interp, sizeof(n->interp), f[i + 1]);
	return get_props(n, f[i]) ?: get_duration(f[i + 2], n) ?: i + 2;
}

static int parse_spring(struct animname *n, const struct field *f, int nf)
{
	struct field s, d;

	if (nf < 6 || !cut(f[4], ",", &s, &d))
		return -EINVAL;
	get_name(n->target, sizeof(n->target), f[2]);
	if (get_props(n, f[3]) || get_keyed(s, "s=", &n->stiffness) ||
	    get_keyed(d, "d=", &n->damping))
		return -EINVAL;
	if (!n->n_props) { /* the range still needs a slot */
		n->n_props = 1;
		n->props[0].name[0] = '\0';
	}
	return get_range(f[5], &n->props[0].from, &n->props[0].to) ?: 5;
}

static int parse_fling(struct animname *n, const struct field *f, int nf)
{
	if (nf < 6)
		return -EINVAL;
	get_name(n->target, sizeof(n->target), f[2]);
	if (get_props(n, f[3]) || get_keyed(f[4], "f=", &n->friction) ||
	    get_keyed(f[5], "v0=", &n->velocity))
		return -EINVAL;
	return 5;
}

static int parse_dyn(struct animname *n, const struct field *f, int nf)
{
	if (nf < 4)
		return -EINVAL;
	get_name(n->target, sizeof(n->target), f[2]);
	return get_props(n, f[3]) ?: 3;
}

int animname_parse(const char *s, size_t len, struct animname *out)
{
	struct field f[FIELDS_MAX];
	size_t end[FIELDS_MAX];
	int nf, last;

	memset(out, 0, sizeof(*out));
	if (!s || len > INT_MAX)
		return -EINVAL;
	nf = split(s, len, f, end);
	if (nf >= 3 && field_is(f[0], "V")) {
		out->kind = ANIMNAME_COUNTER;
		out->n_props = 1;
		get_name(out->target, sizeof(out->target), f[1]);
		get_name(out->props[0].name, sizeof(out->props[0].name), f[2]);
		return (int)end[2];
	}
	if (nf < 2 || get_id(f[1], &out->id))
		return -EINVAL;
	if (field_is(f[0], "Anim")) {
		out->kind = ANIMNAME_ANIM;
		last = parse_anim(out, f, nf);
	} else if (field_is(f[0], "Spring")) {
		out->kind = ANIMNAME_SPRING;
		last = parse_spring(out, f, nf);
	} else if (field_is(f[0], "Fling")) {
		out->kind = ANIMNAME_FLING;
		last = parse_fling(out, f, nf);
	} else if (field_is(f[0], "Dyn")) {
		out->kind = ANIMNAME_DYN;
		last = parse_dyn(out, f, nf);
	} else {
		return -EINVAL;
	}
	return last < 0 ? last : (int)end[last];
}

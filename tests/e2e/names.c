// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Seed names checked against JSON records (names.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "names.h"

struct animname names_parse(const char *name, bool trailer)
{
	struct animname n;
	int r = animname_parse(name, strlen(name), &n);

	cr_assert_geq(r, 0, "\"%s\" does not parse", name);
	if (!trailer)
		cr_assert_eq((size_t)r, strlen(name), "\"%s\": only %d bytes parse", name, r);
	return n;
}

/* A name's number against a JSON float (a View value): the same float; null is not finite. */
static void same_value(const struct animname_num *x, json_object *v, const char *what)
{
	float got = (float)x->v, want = (float)json_object_get_double(v);

	cr_assert(x->known, "%s: unknown, want %s", what, json_object_to_json_string(v));
	if (!v) {
		cr_assert(!isfinite(got), "%s: %g, want null", what, x->v);
		return;
	}
	cr_assert(!memcmp(&got, &want, sizeof(got)), "%s: %.9g, want %.9g", what, got, want);
}

/* A fitted number: the record's %.6g read back is the name's exactly. */
static void same_fit(const struct animname_num *x, json_object *fit, const char *key)
{
	json_object *v = e2e_get(fit, key);

	cr_assert(x->known, "%s unknown", key);
	if (!v)
		cr_assert(!isfinite(x->v), "%s: %g, want null", key, x->v);
	else
		cr_assert(x->v == json_object_get_double(v), "%s: %.9g, want %.9g", key, x->v,
			  json_object_get_double(v));
}

static const char *anim_type(json_object *rec)
{
	return !strcmp(e2e_str(rec, "kind"), "ObjectAnimator") ? "Obj" : "Val";
}

/* The properties the marker names, then the other ones it changed on its target. */
static int expected_props(json_object *rec, const char **names, json_object **vals, int max)
{
	json_object *props = e2e_get(rec, "properties"), *changes = NULL, *v;
	int n = 0;

	json_object_object_get_ex(rec, "changes", &changes);
	for (size_t i = 0; i < json_object_array_length(props) && n < max; i++, n++) {
		names[n] = json_object_get_string(json_object_array_get_idx(props, i));
		vals[n] = changes && json_object_object_get_ex(changes, names[n], &v) ? v : NULL;
	}
	if (!changes)
		return n;
	json_object_object_foreach(changes, key, val)
	{
		bool listed = false;

		for (int i = 0; i < n; i++)
			listed |= !strcmp(names[i], key);
		if (!listed && n < max) {
			names[n] = key;
			vals[n++] = val;
		}
	}
	return n;
}

static void check_props(const struct animname *n, json_object *rec, bool values)
{
	const char *names[16];
	json_object *vals[16];
	int want = expected_props(rec, names, vals, 16);
	char what[128];

	cr_assert_eq(n->n_props + (int)n->props_left_out, want, "%d + %u properties, want %d",
		     n->n_props, n->props_left_out, want);
	for (int i = 0; i < n->n_props; i++) {
		snprintf(what, sizeof(what), "#%lld %s", (long long)n->id, names[i]);
		cr_assert_str_eq(n->props[i].name, names[i]);
		if (values && vals[i]) {
			same_value(&n->props[i].from, e2e_get(vals[i], "from"), what);
			same_value(&n->props[i].to, e2e_get(vals[i], "to"), what);
		} else {
			cr_assert(!n->props[i].from.known && !n->props[i].to.known, "%s: values",
				  what);
		}
	}
}

/* The record's "config" object, or NULL when it has none (not read, or null). */
static json_object *config_of(json_object *rec)
{
	json_object *c = NULL;

	if (!json_object_object_get_ex(rec, "config", &c) || !c ||
	    json_object_get_type(c) != json_type_object)
		return NULL;
	return c;
}

/* Within the 6 significant digits of a JSON %g (no libm in the runner: fabs is a builtin). */
static bool close_to(double got, double want)
{
	double scale = fabs(want) > 1 ? fabs(want) : 1;

	return fabs(got - want) <= 5e-6 * scale;
}

/* A configured value (jsonconfig.h: a number, or a colour's "0x..." string) against the
 * name's: an int or a colour exactly, a float to the 6 digits the JSON record has (%g). */
static void same_config_value(const struct animname_num *x, json_object *v, const char *what)
{
	cr_assert(x->known, "%s: unknown", what);
	if (json_object_get_type(v) == json_type_string) {
		uint32_t want = (uint32_t)strtoul(json_object_get_string(v), NULL, 16);

		cr_assert(x->argb, "%s: no colour", what);
		cr_assert_eq((uint32_t)(int32_t)x->v, want, "%s: 0x%08x, want 0x%08x", what,
			     (uint32_t)(int32_t)x->v, want);
		return;
	}
	double want = json_object_get_double(v);

	cr_assert(close_to(x->v, want), "%s: %.9g, want %.9g", what, x->v, want);
}

/* The configured holders: names, values where configured (measured otherwise), left out. */
static void check_config_props(const struct animname *n, json_object *rec, json_object *vals,
			       const char *name)
{
	int want = (int)json_object_array_length(vals);
	json_object *changes = NULL, *ch;

	json_object_object_get_ex(rec, "changes", &changes);
	cr_assert_eq(n->n_props + (int)n->props_left_out,
		     want + (int)e2e_int(config_of(rec), "values_left_out"), "%s", name);
	for (int i = 0; i < n->n_props && i < want; i++) {
		json_object *v = json_object_array_get_idx(vals, (size_t)i);
		const char *prop = e2e_is_null(v, "property") ? "" : e2e_str(v, "property");

		cr_assert_str_eq(n->props[i].name, prop, "%s", name);
		if (!e2e_is_null(v, "from")) {
			same_config_value(&n->props[i].from, e2e_get(v, "from"), name);
			same_config_value(&n->props[i].to, e2e_get(v, "to"), name);
		} else if (changes && *prop && json_object_object_get_ex(changes, prop, &ch)) {
			same_value(&n->props[i].from, e2e_get(ch, "from"), name);
			same_value(&n->props[i].to, e2e_get(ch, "to"), name);
		}
	}
}

/* "View@3f2c": the configured class where the node has no View name (animname.h). */
static void expected_target(char *buf, size_t cap, json_object *rec, json_object *cfg)
{
	json_object *l = NULL, *t = NULL;
	const char *label = json_object_object_get_ex(rec, "target_name", &l) && l ?
				    json_object_get_string(l) :
				    "";
	const char *cls, *dot, *node = NULL;

	snprintf(buf, cap, "%s", label);
	if (!cfg || e2e_is_null(cfg, "target_class") ||
	    (*label && strncmp(label, "RenderNode@", 11)))
		return;
	cls = e2e_str(cfg, "target_class");
	dot = strrchr(cls, '.');
	cls = dot ? dot + 1 : cls;
	if ((dot = strrchr(cls, '$')) && dot[1])
		cls = dot + 1;
	if (!e2e_is_null(cfg, "target_node"))
		node = e2e_str(cfg, "target_node");
	else if (json_object_object_get_ex(rec, "target", &t) && t)
		node = json_object_get_string(t);
	if (node)
		snprintf(buf, cap, "%s@%04x", cls,
			 (unsigned int)(strtoull(node, NULL, 16) & 0xffff));
	else
		snprintf(buf, cap, "%s", cls);
}

void names_check_anim_end(const char *name, json_object *end)
{
	struct animname n = names_parse(name, false);
	json_object *interp, *cfg = config_of(end), *vals = NULL;
	char target[160];

	cr_assert_eq(n.kind, ANIMNAME_ANIM, "%s", name);
	cr_assert_eq(n.id, e2e_int(end, "id"), "%s", name);
	cr_assert_str_eq(n.type, anim_type(end), "%s", name);
	expected_target(target, sizeof(target), end, cfg);
	cr_assert_str_eq(n.target, target, "%s", name);
	if (cfg && json_object_object_get_ex(cfg, "values", &vals) && vals &&
	    json_object_array_length(vals))
		check_config_props(&n, end, vals, name);
	else
		check_props(&n, end, true);
	if (cfg && !e2e_is_null(cfg, "interpolator"))
		cr_assert_str_eq(n.interp, e2e_str(cfg, "interpolator"), "%s", name);
	else if (json_object_object_get_ex(end, "interpolator", &interp))
		cr_assert_str_eq(n.interp, e2e_str(interp, "name"), "%s", name);
	else
		cr_assert_str_eq(n.interp, "", "%s", name);
	if (cfg && !e2e_is_null(cfg, "duration_ms")) {
		cr_assert(n.has_duration, "%s", name);
		cr_assert_eq(n.duration_ns, (uint64_t)e2e_int(cfg, "duration_ms") * 1000000, "%s",
			     name);
		return;
	}
	cr_assert_eq(n.has_duration, !e2e_is_null(end, "duration_ns"), "%s", name);
	if (n.has_duration)
		cr_assert_eq(n.duration_ns, (uint64_t)e2e_int(end, "duration_ns") / 1000 * 1000,
			     "%s", name);
}

void names_check_anim_start(const char *name, json_object *start)
{
	struct animname n = names_parse(name, false);
	json_object *cfg = config_of(start), *vals = NULL;
	char target[160];

	cr_assert_eq(n.kind, ANIMNAME_ANIM, "%s", name);
	cr_assert_eq(n.id, e2e_int(start, "id"), "%s", name);
	cr_assert_str_eq(n.type, anim_type(start), "%s", name);
	expected_target(target, sizeof(target), start, cfg);
	cr_assert_str_eq(n.target, target, "%s", name);
	if (cfg && json_object_object_get_ex(cfg, "values", &vals) && vals &&
	    json_object_array_length(vals))
		check_config_props(&n, start, vals, name);
	else
		check_props(&n, start, false);
	/* what the code asked for is known at start(); nothing measured is yet */
	cr_assert_str_eq(n.interp,
			 cfg && !e2e_is_null(cfg, "interpolator") ? e2e_str(cfg, "interpolator") :
								    "",
			 "%s", name);
	cr_assert_eq(n.has_duration, cfg && !e2e_is_null(cfg, "duration_ms"), "%s", name);
	if (n.has_duration)
		cr_assert_eq(n.duration_ns, (uint64_t)e2e_int(cfg, "duration_ms") * 1000000, "%s",
			     name);
}

/* The first property (the one its kind and fit are of) and its fit's parameters. */
void names_check_animation_end(const char *name, json_object *end)
{
	struct animname n = names_parse(name, false);
	json_object *props = e2e_get(end, "properties"), *first = NULL, *fit = NULL;
	const char *kind = e2e_str(end, "kind"), *first_name = NULL;
	int count = 0;

	json_object_object_foreach(props, key, val)
	{
		if (!count++) {
			first_name = key;
			first = val;
		}
	}
	cr_assert_not_null(first, "%s: no property", name);
	json_object_object_get_ex(end, "fit", &fit);
	cr_assert_eq(n.id, e2e_int(end, "id"), "%s", name);
	cr_assert_str_eq(n.target, e2e_str(end, "node_name"), "%s", name);
	cr_assert_str_eq(n.props[0].name, first_name, "%s", name);
	if (!strcmp(kind, "spring") || !strcmp(kind, "fling")) {
		cr_assert_eq(n.kind, !strcmp(kind, "spring") ? ANIMNAME_SPRING : ANIMNAME_FLING,
			     "%s", name);
		cr_assert_eq(n.n_props + (int)n.props_left_out, count, "%s", name);
		cr_assert_not_null(fit, "%s", name);
		if (n.kind == ANIMNAME_SPRING) {
			same_fit(&n.stiffness, fit, "stiffness");
			same_fit(&n.damping, fit, "damping_ratio");
			same_value(&n.props[0].from, e2e_get(first, "from"), name);
			same_value(&n.props[0].to, e2e_get(first, "to"), name);
		} else {
			same_fit(&n.friction, fit, "friction_scalar");
			same_fit(&n.velocity, fit, "start_velocity");
		}
		return;
	}
	cr_assert_eq(n.kind, ANIMNAME_ANIM, "%s", name);
	cr_assert_str_eq(n.type, "Unmarked", "%s", name);
	same_value(&n.props[0].from, e2e_get(first, "from"), name);
	same_value(&n.props[0].to, e2e_get(first, "to"), name);
	cr_assert_str_eq(n.interp,
			 fit && !strcmp(kind, "interpolated") ? e2e_str(fit, "interpolator") : "",
			 "%s", name);
	cr_assert(n.has_duration, "%s", name);
	cr_assert_eq(n.duration_ns, (uint64_t)e2e_int(end, "duration_ns") / 1000 * 1000, "%s",
		     name);
}

/* A heap-read number (JSON %.6g) against the name's float. */
static void near(const struct animname_num *x, double want, const char *what)
{
	cr_assert(x->known, "%s unknown", what);
	cr_assert(close_to(x->v, want), "%s: %.9g, want %.9g", what, x->v, want);
}

static bool has(json_object *o, const char *key, json_object **v)
{
	return o && json_object_object_get_ex(o, key, v) && *v;
}

/* The fit of kind (spring, fling) in the record, or NULL. */
static json_object *fit_of(json_object *end, const char *kind)
{
	json_object *fit = NULL;

	return has(end, "fit", &fit) && !strcmp(e2e_str(fit, "kind"), kind) ? fit : NULL;
}

static void check_dyn_spring(const struct animname *n, json_object *end, json_object *cfg,
			     bool target, const char *name)
{
	json_object *fit = fit_of(end, "spring"), *v;

	if (has(cfg, "stiffness", &v)) {
		near(&n->stiffness, json_object_get_double(v), name);
		near(&n->damping, json_object_get_double(e2e_get(cfg, "damping_ratio")), name);
		near(&n->props[0].to, json_object_get_double(e2e_get(cfg, "final_position")), name);
	} else if (fit) {
		same_fit(&n->stiffness, fit, "stiffness");
		same_fit(&n->damping, fit, "damping_ratio");
	} else {
		cr_assert(!n->stiffness.known && !n->damping.known, "%s", name);
	}
	if (has(cfg, "value", &v))
		near(&n->props[0].from, json_object_get_double(v), name);
	else if (target)
		same_value(&n->props[0].from, e2e_get(end, "from"), name);
	if (!has(cfg, "stiffness", &v) && target)
		same_value(&n->props[0].to, e2e_get(end, "to"), name);
}

static void check_dyn_fling(const struct animname *n, json_object *end, json_object *cfg,
			    const char *name)
{
	json_object *fit = fit_of(end, "fling"), *v;

	if (has(cfg, "friction", &v)) /* DragForce: -4.2 * the scalar the name carries */
		near(&n->friction, json_object_get_double(v) / -4.2, name);
	else if (fit)
		same_fit(&n->friction, fit, "friction_scalar");
	if (has(cfg, "velocity", &v))
		near(&n->velocity, json_object_get_double(v), name);
	else if (fit)
		same_fit(&n->velocity, fit, "start_velocity");
}

void names_check_dyn_end(const char *name, json_object *end)
{
	struct animname n = names_parse(name, false);
	const char *kind = e2e_str(end, "kind");
	bool target = !e2e_is_null(end, "target");
	json_object *cfg = NULL;

	json_object_object_get_ex(end, "config", &cfg);
	cr_assert_eq(n.id, e2e_int(end, "id"), "%s", name);
	cr_assert_eq(n.kind,
		     !strcmp(kind, "Spring") ? ANIMNAME_SPRING :
		     !strcmp(kind, "Fling")  ? ANIMNAME_FLING :
					       ANIMNAME_DYN,
		     "%s", name);
	cr_assert_str_eq(n.target, target ? e2e_str(end, "target_name") : "", "%s", name);
	if (target)
		cr_assert_str_eq(n.props[0].name, e2e_str(end, "property"), "%s", name);
	if (n.kind == ANIMNAME_SPRING)
		check_dyn_spring(&n, end, cfg, target, name);
	else if (n.kind == ANIMNAME_FLING)
		check_dyn_fling(&n, end, cfg, name);
}

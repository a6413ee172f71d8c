// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Seed names checked against JSON records (names.h). */
#include <math.h>
#include <stdio.h>
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

void names_check_anim_end(const char *name, json_object *end)
{
	struct animname n = names_parse(name, false);
	json_object *interp;

	cr_assert_eq(n.kind, ANIMNAME_ANIM, "%s", name);
	cr_assert_eq(n.id, e2e_int(end, "id"), "%s", name);
	cr_assert_str_eq(n.type, anim_type(end), "%s", name);
	cr_assert_str_eq(n.target,
			 e2e_is_null(end, "target_name") ? "" : e2e_str(end, "target_name"), "%s",
			 name);
	check_props(&n, end, true);
	if (json_object_object_get_ex(end, "interpolator", &interp))
		cr_assert_str_eq(n.interp, e2e_str(interp, "name"), "%s", name);
	else
		cr_assert_str_eq(n.interp, "", "%s", name);
	cr_assert_eq(n.has_duration, !e2e_is_null(end, "duration_ns"), "%s", name);
	if (n.has_duration)
		cr_assert_eq(n.duration_ns, (uint64_t)e2e_int(end, "duration_ns") / 1000 * 1000,
			     "%s", name);
}

void names_check_anim_start(const char *name, json_object *start)
{
	struct animname n = names_parse(name, false);

	cr_assert_eq(n.kind, ANIMNAME_ANIM, "%s", name);
	cr_assert_eq(n.id, e2e_int(start, "id"), "%s", name);
	cr_assert_str_eq(n.type, anim_type(start), "%s", name);
	cr_assert_str_eq(n.target, "", "%s", name);
	check_props(&n, start, false);
	cr_assert_str_eq(n.interp, "", "%s", name);
	cr_assert_not(n.has_duration, "%s", name);
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

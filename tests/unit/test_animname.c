// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * animname: the seed tracers' names, exactly, from hand-built records; the seed's own examples
 * parse; every odd value (negative, NaN, infinities, the largest and smallest floats) and every
 * odd name (spaces, '|', ',', ':', '%', U+00A6, "?") comes back as it went in; bad input is
 * refused, never read past.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "sinks/animname.h"

#define BAR ANIMNAME_ATRACE_SEP
#define NODE 0x55d0a2b380e0ULL

static struct anim alpha_anim(void)
{
	struct anim a = { .id = 168950273, .kind = ANIM_OBJECT, .n_props = 1, .pid = 4242 };

	snprintf(a.name, sizeof(a.name), "animator:alpha");
	snprintf(a.props[0], sizeof(a.props[0]), "alpha");
	a.start_ns = 1000000000ULL;
	a.end_ns = a.start_ns + 283333333ULL;
	a.reason = END_COMPLETE;
	a.target_node = NODE;
	snprintf(a.target_name, sizeof(a.target_name), "NotificationRow");
	a.n_changes = 1;
	a.changes[0] = (struct prop_change){ PROP_ALPHA, 1.0f, 0.0f };
	a.interpolator = "FastOutSlowIn";
	return a;
}

static const char *fmt(const struct animname *n, enum animname_sep sep)
{
	static char buf[ANIMNAME_MAX];

	cr_assert_eq(animname_format(buf, sizeof(buf), n, sep), strlen(buf));
	return buf;
}

static struct animname parse_all(const char *s)
{
	struct animname n;
	int r = animname_parse(s, strlen(s), &n);

	cr_assert_eq(r, (int)strlen(s), "\"%s\": %d", s, r);
	return n;
}

/* Parses s, formats it again with the separator it had: the same text. */
static struct animname round_trip(const char *s)
{
	struct animname n = parse_all(s);

	cr_assert_str_eq(fmt(&n, strstr(s, BAR) ? ANIMNAME_ATRACE : ANIMNAME_PIPE), s);
	return n;
}

static bool same_float(double parsed, float want)
{
	float got = (float)parsed;

	return isnan(want) ? isnan(got) : !memcmp(&got, &want, sizeof(got));
}

Test(animname, an_object_animator_that_ended_is_named_as_the_seeds_tracer_named_it)
{
	struct anim a = alpha_anim();
	struct animname n;

	animname_from_anim(&n, &a);
	cr_assert_str_eq(
		fmt(&n, ANIMNAME_PIPE),
		"Anim|168950273|Obj|NotificationRow@80e0|alpha:1->0|FastOutSlowIn|283.333ms");
	cr_assert_str_eq(fmt(&n, ANIMNAME_ATRACE),
			 "Anim" BAR "168950273" BAR "Obj" BAR "NotificationRow@80e0" BAR
			 "alpha:1->0" BAR "FastOutSlowIn" BAR "283.333ms");
}

Test(animname, at_its_start_only_the_marker_is_known_and_the_rest_is_a_question_mark)
{
	struct anim a = alpha_anim();
	struct animname n;

	a.target_node = 0;
	a.n_changes = 0;
	a.end_ns = 0;
	a.interpolator = NULL;
	animname_from_anim(&n, &a);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), "Anim|168950273|Obj|?|alpha:?->?|?|?");
}

Test(animname, a_value_animator_names_the_properties_it_moved_and_a_negative_cookie)
{
	struct anim a = { .id = (uint64_t)-42,
			  .kind = ANIM_VALUE,
			  .start_ns = 1,
			  .end_ns = 1 + 5000000,
			  .reason = END_CANCEL,
			  .target_node = NODE,
			  .n_changes = 2 };
	struct animname n;

	a.changes[0] = (struct prop_change){ PROP_ALPHA, 0.0f, 1.0f };
	a.changes[1] = (struct prop_change){ PROP_TRANSLATION_Y, 0.0f, -100.0f };
	animname_from_anim(&n, &a);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Anim|-42|Val|RenderNode@80e0|alpha:0->1,translationY:0->-100|?|5ms");
	n = round_trip("Anim|-42|Val|RenderNode@80e0|alpha:0->1,translationY:0->-100|?|5ms");
	cr_assert_eq(n.id, -42);
}

Test(animname, more_than_three_properties_end_in_plus_the_rest)
{
	struct anim a = alpha_anim();
	struct animname n;

	a.n_props = 4;
	snprintf(a.props[1], sizeof(a.props[1]), "scaleX");
	snprintf(a.props[2], sizeof(a.props[2]), "progress");
	snprintf(a.props[3], sizeof(a.props[3]), "scaleY");
	a.n_changes = 2;
	a.changes[1] = (struct prop_change){ PROP_ELEVATION, 2.0f, 8.0f };
	animname_from_anim(&n, &a);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Anim|168950273|Obj|NotificationRow@80e0|"
			 "alpha:1->0,scaleX:?->?,progress:?->?,+2|FastOutSlowIn|283.333ms");
	n = round_trip("Anim|168950273|Obj|NotificationRow@80e0|"
		       "alpha:1->0,scaleX:?->?,progress:?->?,+2|FastOutSlowIn|283.333ms");
	cr_assert_eq(n.n_props, 3);
	cr_assert_eq(n.props_left_out, 2);
	cr_assert_str_eq(n.props[2].name, "progress");
	cr_assert_not(n.props[2].from.known);
}

static struct animation physics(enum fit_kind kind)
{
	struct animation a = { .id = 3,
			       .ended = true,
			       .kind = kind,
			       .node = NODE,
			       .n_props = 1,
			       .start_ns = 5000000000ULL,
			       .duration_ns = 733333333ULL };

	snprintf(a.node_name, sizeof(a.node_name), "ImageView");
	a.props[0] = (struct animation_prop){ .prop = PROP_TRANSLATION_Y,
					      .from = 0.0f,
					      .to = -100.0f,
					      .frames = 44,
					      .fitted = true };
	a.props[0].fit.kind = kind;
	return a;
}

Test(animname, a_spring_and_a_fling_carry_their_fitted_parameters_to_six_digits)
{
	struct animation s = physics(FIT_SPRING), f = physics(FIT_FLING);
	struct animname n;

	s.props[0].fit.stiffness = 199.98734;
	s.props[0].fit.damping_ratio = 0.5;
	animname_from_animation(&n, &s);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Spring|3|ImageView@80e0|translationY|s=199.987,d=0.5|0->-100");
	s.n_props = 2;
	s.props[1] = s.props[0];
	s.props[1].prop = PROP_TRANSLATION_X;
	animname_from_animation(&n, &s);
	cr_assert_str_eq(fmt(&n, ANIMNAME_ATRACE),
			 "Spring" BAR "3" BAR "ImageView@80e0" BAR "translationY,+1" BAR
			 "s=199.987,d=0.5" BAR "0->-100");
	f.props[0].prop = PROP_TRANSLATION_X;
	f.props[0].fit.friction_scalar = 1.1;
	f.props[0].fit.start_velocity = -2345.678;
	animname_from_animation(&n, &f);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Fling|3|ImageView@80e0|translationX|f=1.1|v0=-2345.68");
}

Test(animname, an_unmarked_curve_is_an_anim_of_type_unmarked_and_its_start_has_no_end_value)
{
	struct animation a = physics(FIT_INTERPOLATED);
	struct animname n;

	a.props[0].prop = PROP_ALPHA;
	a.props[0].to = 1.0f;
	a.props[0].fit.interpolator = "FastOutSlowIn";
	animname_from_animation(&n, &a);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Anim|3|Unmarked|ImageView@80e0|alpha:0->1|FastOutSlowIn|733.333ms");
	a.props[0].fit.kind = FIT_OTHER;
	a.props[0].fit.interpolator = NULL;
	animname_from_animation(&n, &a);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Anim|3|Unmarked|ImageView@80e0|alpha:0->1|?|733.333ms");
	a.ended = false; /* animation_start: kind unknown, no fit yet */
	a.props[0].fitted = false;
	a.node_name[0] = '\0';
	animname_from_animation(&n, &a);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), "Anim|3|Unmarked|RenderNode@80e0|alpha:0->?|?|?");
}

Test(animname, a_counter_is_V_node_property)
{
	char buf[ANIMNAME_MAX];
	struct animname n;

	animname_counter(buf, sizeof(buf), ANIMNAME_PIPE, "NotificationRow", NODE, PROP_ALPHA);
	cr_assert_str_eq(buf, "V|NotificationRow@80e0|alpha");
	animname_counter(buf, sizeof(buf), ANIMNAME_ATRACE, "", NODE, PROP_TRANSLATION_Y);
	cr_assert_str_eq(buf, "V" BAR "RenderNode@80e0" BAR "translationY");
	n = round_trip(buf);
	cr_assert_eq(n.kind, ANIMNAME_COUNTER);
	cr_assert_str_eq(n.target, "RenderNode@80e0");
	cr_assert_str_eq(n.props[0].name, "translationY");
}

Test(animname, the_seeds_own_examples_parse_to_their_fields)
{
	struct animname n = round_trip("Anim|42|Obj|NotifRow@3f2c|alpha:1->0|AccelDecel|300ms");

	cr_assert_eq(n.kind, ANIMNAME_ANIM);
	cr_assert_eq(n.id, 42);
	cr_assert_str_eq(n.type, "Obj");
	cr_assert_str_eq(n.target, "NotifRow@3f2c");
	cr_assert_eq(n.n_props, 1);
	cr_assert_str_eq(n.props[0].name, "alpha");
	cr_assert(n.props[0].from.known && n.props[0].from.v == 1.0);
	cr_assert(n.props[0].to.known && n.props[0].to.v == 0.0);
	cr_assert_str_eq(n.interp, "AccelDecel");
	cr_assert(n.has_duration);
	cr_assert_eq(n.duration_ns, 300000000ULL);

	/* Java's Float.toString: "1.0" */
	n = parse_all("Anim|42|Obj|Button@3f2c|alpha:1.0->0.0|AccelDecel|300ms");
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Anim|42|Obj|Button@3f2c|alpha:1->0|AccelDecel|300ms");

	/* the seed's ValueAnimator: no target field, its property's name unknown */
	n = parse_all("Anim|43|Val|?:0->1|Linear|200ms");
	cr_assert_str_eq(n.type, "Val");
	cr_assert_str_eq(n.target, "");
	cr_assert_str_eq(n.props[0].name, "");
	cr_assert(n.props[0].to.known && n.props[0].to.v == 1.0);
	cr_assert_str_eq(n.interp, "Linear");
	cr_assert_eq(n.duration_ns, 200000000ULL);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), "Anim|43|Val|?|?:0->1|Linear|200ms");

	n = round_trip("Spring|105|NotifRow@3f2c|translationY|s=200,d=0.8|0->-100");
	cr_assert_eq(n.kind, ANIMNAME_SPRING);
	cr_assert_eq(n.id, 105);
	cr_assert_str_eq(n.target, "NotifRow@3f2c");
	cr_assert_str_eq(n.props[0].name, "translationY");
	cr_assert(n.stiffness.v == 200.0 && n.damping.v == 0.8);
	cr_assert(n.props[0].from.v == 0.0 && n.props[0].to.v == -100.0);

	n = round_trip("Fling|7|RecyclerView@1a2b|translationX|f=1.5|v0=-2000");
	cr_assert_eq(n.kind, ANIMNAME_FLING);
	cr_assert(n.friction.v == 1.5 && n.velocity.v == -2000.0);
	cr_assert_not(n.has_duration);

	n = round_trip("V|NotificationRow@3f2c|alpha");
	cr_assert_eq(n.kind, ANIMNAME_COUNTER);
}

/* Each float through a name and back, as from and as -from: the same bits (NaN: a NaN). */
Test(animname, odd_values_come_back_exactly)
{
	static const struct {
		float v;
		char text[24], neg[24];
	} cases[] = {
		{ -100.0f, "-100", "100" },
		{ 0.1f, "0.1", "-0.1" },
		{ -0.0f, "0", "0" },
		{ 1.0f / 3.0f, "0.33333334", "-0.33333334" },
		{ 0.941176474f, "0.9411765", "-0.9411765" },
		{ 16777216.0f, "16777216", "-16777216" },
		{ 1e20f, "1e+20", "-1e+20" },
		{ FLT_MAX, "3.4028235e+38", "-3.4028235e+38" },
		{ 1e-45f, "1e-45", "-1e-45" },
		{ 1.17549435e-38f, "1.1754944e-38", "-1.1754944e-38" },
		{ NAN, "NaN", "NaN" },
		{ INFINITY, "Infinity", "-Infinity" },
	};
	char want[160];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct anim a = alpha_anim();
		struct animname n;
		const char *got;

		a.changes[0].from = cases[i].v;
		a.changes[0].to = -cases[i].v;
		animname_from_anim(&n, &a);
		got = fmt(&n, ANIMNAME_PIPE);
		snprintf(want, sizeof(want),
			 "Anim|168950273|Obj|NotificationRow@80e0|alpha:%s->%s|FastOutSlowIn|"
			 "283.333ms",
			 cases[i].text, cases[i].neg);
		cr_assert_str_eq(got, want);
		n = parse_all(got);
		cr_assert(same_float(n.props[0].from.v, cases[i].v == 0 ? 0.0f : cases[i].v),
			  "%s: %a", got, n.props[0].from.v);
		cr_assert(same_float(n.props[0].to.v, cases[i].v == 0 ? 0.0f : -cases[i].v),
			  "%s: %a", got, n.props[0].to.v);
	}
}

Test(animname, fitted_numbers_huge_negative_and_not_a_number)
{
	struct animation s = physics(FIT_SPRING);
	struct animname n;

	s.props[0].fit.stiffness = 1.2345678e12;
	s.props[0].fit.damping_ratio = NAN;
	s.props[0].from = -INFINITY;
	animname_from_animation(&n, &s);
	cr_assert_str_eq(
		fmt(&n, ANIMNAME_PIPE),
		"Spring|3|ImageView@80e0|translationY|s=1.23457e+12,d=NaN|-Infinity->-100");
	n = round_trip("Spring|3|ImageView@80e0|translationY|s=1.23457e+12,d=NaN|-Infinity->-100");
	cr_assert(n.stiffness.v == 1.23457e12);
	cr_assert(isnan(n.damping.v));
	cr_assert(isinf(n.props[0].from.v) && n.props[0].from.v < 0);
}

Test(animname, durations_are_milliseconds_to_the_microsecond)
{
	static const struct {
		uint64_t ns, back;
		char text[24];
	} cases[] = {
		{ 300000000ULL, 300000000ULL, "300ms" },
		{ 133282451ULL, 133282000ULL, "133.282ms" },
		{ 50000ULL, 50000ULL, "0.05ms" },
		{ 999ULL, 0, "0ms" },
		{ 0, 0, "0ms" },
		{ 3600000000000ULL, 3600000000000ULL, "3600000ms" },
	};
	char want[96];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct animname n = { .kind = ANIMNAME_ANIM,
				      .id = 1,
				      .has_duration = true,
				      .duration_ns = cases[i].ns };

		snprintf(want, sizeof(want), "Anim|1|Val|?|?|?|%s", cases[i].text);
		cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), want);
		n = parse_all(want);
		cr_assert(n.has_duration);
		cr_assert_eq(n.duration_ns, cases[i].back, "%s", want);
	}
	cr_assert_eq(parse_all("Anim|1|Val|?|?|?|133.282451ms").duration_ns, 133282451ULL);
	cr_assert_not(parse_all("Anim|1|Val|?|?|?|?").has_duration);
}

Test(animname, names_with_spaces_bars_commas_colons_percents_and_broken_bars_come_back)
{
	struct anim a = alpha_anim();
	struct animname n, back;
	const char *got;

	a.kind = ANIM_VALUE;
	a.n_props = 2;
	a.n_changes = 0;
	snprintf(a.props[0], sizeof(a.props[0]), "my prop|1,2:3");
	snprintf(a.props[1], sizeof(a.props[1]), "100%%" BAR "\n");
	a.interpolator = "?";
	animname_from_anim(&n, &a);
	snprintf(n.target, sizeof(n.target), "Row View|x@80e0");
	got = fmt(&n, ANIMNAME_ATRACE);
	cr_assert_str_eq(got,
			 "Anim" BAR "168950273" BAR "Val" BAR "Row View%7Cx@80e0" BAR
			 "my prop%7C1%2C2%3A3:?->?,100%25%C2%A6%0A:?->?" BAR "%3F" BAR "283.333ms");
	back = parse_all(got);
	cr_assert_str_eq(back.target, "Row View|x@80e0");
	cr_assert_eq(back.n_props, 2);
	cr_assert_str_eq(back.props[0].name, "my prop|1,2:3");
	cr_assert_str_eq(back.props[1].name, "100%" BAR "\n");
	cr_assert_str_eq(back.interp, "?");
	cr_assert_str_eq(fmt(&back, ANIMNAME_ATRACE), got);
}

/* Found by the fuzzer (tests/fuzz/fuzz_animname.c): names that read as something else. */
Test(animname, a_name_like_plus_n_and_a_value_past_the_largest_float_keep_their_meaning)
{
	struct animname n = { .kind = ANIMNAME_FLING, .id = 7, .n_props = 1 };

	snprintf(n.props[0].name, sizeof(n.props[0].name), "+2");
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), "Fling|7|?|%2B2|f=?|v0=?");
	n = round_trip("Fling|7|?|%2B2|f=?|v0=?");
	cr_assert_eq(n.n_props, 1);
	cr_assert_eq(n.props_left_out, 0);
	cr_assert_str_eq(n.props[0].name, "+2");
	n = parse_all("Anim|43|Val|?:7e56->-1e39|?|?");
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), "Anim|43|Val|?|?:Infinity->-Infinity|?|?");
}

Test(animname, what_follows_the_grammars_fields_is_left_to_the_caller)
{
	const char *s = "Anim" BAR "1" BAR "Obj" BAR "?" BAR "alpha:?->?" BAR "?" BAR "?" BAR
			"end complete 3 frames";
	struct animname n;
	int r = animname_parse(s, strlen(s), &n);

	cr_assert_gt(r, 0);
	cr_assert_str_eq(s + r, BAR "end complete 3 frames");
	cr_assert_str_eq(n.type, "Obj");
	s = "Spring|2|V@1|x|s=1,d=2|0->1|more";
	r = animname_parse(s, strlen(s), &n);
	cr_assert_str_eq(s + r, "|more");
}

Test(animname, malformed_names_are_refused)
{
	static const char *const bad[] = {
		"",
		"Anim",
		"Anim|",
		"Anim|x|Obj|T|alpha:1->0|?|1ms",
		"Anim|1|Obj|T|alpha:1-0|?|1ms",
		"Anim|1|Obj|T|alpha:1->0|?|1s",
		"Anim|1|Obj|T|alpha:1->0|?|ms",
		"Anim|1|Obj|T|alpha:1->0|?|1.5.5ms",
		"Anim|1|Obj|T|alpha:one->0|?|1ms",
		"Anim|99999999999999999999|Obj|T|a:1->0|?|1ms",
		"Anim|1|Obj|T|alpha:1->0",
		"Spring|1|T|p|s=1|0->1",
		"Spring|1|T|p|s=1,d=1|0",
		"Spring|1|T|p|k=1,d=1|0->1",
		"Fling|1|T|p|f=1",
		"Fling|1|T|p|f=1|v=2",
		"V|x",
		"Jank|1|2|3|4|5|6",
		"Anim|1|2",
		"Anim|1|Obj|T|alpha: 1->0|?|1ms",
	};
	struct animname n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(animname_parse(bad[i], strlen(bad[i]), &n), -EINVAL, "\"%s\"", bad[i]);
	cr_assert_eq(animname_parse(NULL, 0, &n), -EINVAL);
}

/* Every prefix of a valid name, read from a buffer of exactly that size: nothing past it. */
Test(animname, every_prefix_is_parsed_within_its_length)
{
	const char *full = "Anim" BAR "168950273" BAR "Obj" BAR "Row%7Cx@80e0" BAR
			   "alpha:1->0,+2" BAR "FastOutSlowIn" BAR "283.333ms";
	size_t len = strlen(full);
	struct animname n;

	for (size_t k = 0; k <= len; k++) {
		char *p = malloc(k ? k : 1);
		int r;

		cr_assert_not_null(p);
		memcpy(p, full, k);
		r = animname_parse(p, k, &n);
		cr_assert(r == -EINVAL || (r >= 0 && (size_t)r <= k), "prefix %zu: %d", k, r);
		free(p);
	}
	cr_assert_eq(animname_parse(full, len, &n), (int)len);
}

Test(animname, a_name_too_long_for_the_buffer_is_cut_at_a_utf8_boundary)
{
	struct animname n = { .kind = ANIMNAME_ANIM, .id = 1 };
	char buf[15];

	snprintf(n.target, sizeof(n.target), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	cr_assert_eq(animname_format(buf, sizeof(buf), &n, ANIMNAME_PIPE), 13);
	cr_assert_str_eq(buf, "Anim|1|Val|\xc3\xa9");
}

/* ---- an animator's configuration, read from its object at start() (issue #24) ---------- */

static struct anim_config alpha_config(void)
{
	struct anim_config c = { .known = true,
				 .has_duration = true,
				 .duration_ms = 300,
				 .has_values = true,
				 .n_values = 1 };

	snprintf(c.interpolator, sizeof(c.interpolator), "AccelerateDecelerate");
	snprintf(c.values[0].property, sizeof(c.values[0].property), "alpha");
	c.values[0].type = CONFIG_FLOAT;
	c.values[0].has_range = true;
	c.values[0].from = 1.0;
	c.values[0].to = 0.0;
	snprintf(c.target_class, sizeof(c.target_class), "android.widget.Button");
	c.target_node = 0x7b00a1c03f2cULL;
	return c;
}

Test(animname, at_start_a_configured_animator_is_named_as_the_seed_printed_it)
{
	struct anim a = {
		.id = 42, .kind = ANIM_OBJECT, .n_props = 1, .pid = 4242, .start_ns = 1000
	};
	struct animname n;

	snprintf(a.props[0], sizeof(a.props[0]), "alpha");
	a.config = alpha_config();
	animname_from_anim(&n, &a);
	/* the seed's own example (seed 六), but for the interpolator: describeInterpolator drops
	 * only the "Interpolator" suffix, as box_config prints it */
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Anim|42|Obj|Button@3f2c|alpha:1->0|AccelerateDecelerate|300ms");
	cr_assert_str_eq(fmt(&n, ANIMNAME_ATRACE),
			 "Anim" BAR "42" BAR "Obj" BAR "Button@3f2c" BAR "alpha:1->0" BAR
			 "AccelerateDecelerate" BAR "300ms");
	a.config.known = false; /* the same animator without configuration: only the marker */
	animname_from_anim(&n, &a);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), "Anim|42|Obj|?|alpha:?->?|?|?");
}

Test(animname, at_its_end_the_configuration_wins_over_what_was_measured)
{
	struct anim a = alpha_anim(); /* ran 283.333 ms, wrote 1 -> 0, fitted FastOutSlowIn */
	struct animname n;

	a.changes[0] = (struct prop_change){ PROP_ALPHA, 0.9f, 0.25f };
	a.config = alpha_config();
	animname_from_anim(&n, &a);
	/* the View has a name: the node's label stays (its class is the View's own) */
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), "Anim|168950273|Obj|NotificationRow@80e0|"
						 "alpha:1->0|AccelerateDecelerate|300ms");
	/* a node without a name takes the configured class, at the node the animator moved */
	a.target_name[0] = '\0';
	a.config.target_node = 0;
	animname_from_anim(&n, &a);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), "Anim|168950273|Obj|Button@80e0|"
						 "alpha:1->0|AccelerateDecelerate|300ms");
	/* what the configuration does not know is measured */
	a.config.has_duration = false;
	a.config.interpolator[0] = '\0';
	a.config.values[0].has_range = false;
	animname_from_anim(&n, &a);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), "Anim|168950273|Obj|Button@80e0|"
						 "alpha:0.9->0.25|FastOutSlowIn|283.333ms");
}

Test(animname, configured_ints_colours_and_unnamed_holders_come_back_exactly)
{
	struct anim a = { .id = 43, .kind = ANIM_VALUE, .pid = 4242, .start_ns = 1000 };
	struct anim_config c = { .known = true,
				 .has_duration = true,
				 .duration_ms = 200,
				 .has_values = true,
				 .n_values = 3,
				 .values_left_out = 2 };
	struct animname n;
	const char *s;

	snprintf(c.interpolator, sizeof(c.interpolator), "Linear");
	c.values[0] = (struct config_value){ "", CONFIG_FLOAT, true, 0, 1 };
	c.values[1] = (struct config_value){ "backgroundColor", CONFIG_ARGB, true,
					     (double)(int32_t)0xff00ff00u, (double)0x0000ff00 };
	c.values[2] = (struct config_value){ "scrollY", CONFIG_INT, true, 16777217, -3 };
	a.config = c;
	animname_from_anim(&n, &a);
	s = fmt(&n, ANIMNAME_PIPE);
	cr_assert_str_eq(s, "Anim|43|Val|?|?:0->1,backgroundColor:0xff00ff00->0x0000ff00,"
			    "scrollY:16777217->-3,+2|Linear|200ms");
	n = parse_all(s);
	cr_assert_eq(n.n_props, 3);
	cr_assert_eq(n.props_left_out, 2);
	cr_assert(n.props[1].from.argb && n.props[1].from.v == (double)(int32_t)0xff00ff00u);
	cr_assert_eq(n.props[1].to.v, 0x0000ff00);
	cr_assert_eq(n.props[2].from.v, 16777217);
	cr_assert_str_eq(n.interp, "Linear");
	cr_assert_eq(n.duration_ns, 200000000ULL);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Anim|43|Val|?|?:0->1,backgroundColor:0xff00ff00"
			 "->0x0000ff00,scrollY:16777217->-3,+2|Linear|200ms");
}

/* ---- DynamicAnimations the ART probes followed (issue #25) --------------------------- */

static struct dyn_anim dyn(enum dyn_kind kind)
{
	struct dyn_anim d = { .id = 105,
			      .kind = kind,
			      .ended = true,
			      .reason = END_COMPLETE,
			      .pid = 4242,
			      .tid = 4242,
			      .start_ns = 5000000000ULL,
			      .end_ns = 5733333333ULL,
			      .frames = 44,
			      .has_target = true,
			      .node = NODE,
			      .prop = PROP_TRANSLATION_Y,
			      .from = 0.0f,
			      .to = -99.5f,
			      .fitted = true };

	snprintf(d.node_name, sizeof(d.node_name), "NotifRow");
	d.fit.kind = kind == DYN_FLING ? FIT_FLING : FIT_SPRING;
	d.fit.stiffness = 199.98734;
	d.fit.damping_ratio = 0.80012;
	d.fit.friction_scalar = 1.1;
	d.fit.start_velocity = -2345.678;
	return d;
}

Test(animname, a_followed_spring_is_named_from_the_heap_or_else_from_its_fit)
{
	struct dyn_anim d = dyn(DYN_SPRING);
	struct animname n;

	animname_from_dyn(&n, &d); /* fitted; from -> to as written */
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Spring|105|NotifRow@80e0|translationY|s=199.987,d=0.80012|0->-99.5");
	d.config = (struct dyn_config){ .has_spring = true,
					.has_state = true,
					.has_value = true,
					.stiffness = 200,
					.damping_ratio = 0.8f,
					.final_position = -100,
					.value = 0 };
	animname_from_dyn(&n, &d); /* the seed's own example (5.3, seed 十二) */
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Spring|105|NotifRow@80e0|translationY|s=200,d=0.8|0->-100");
	cr_assert_str_eq(fmt(&n, ANIMNAME_ATRACE), "Spring" BAR "105" BAR "NotifRow@80e0" BAR
						   "translationY" BAR "s=200,d=0.8" BAR "0->-100");
	/* a start value read but not set (animateToFinalPosition: start() reads the view): the
	 * written from */
	d.config.value = 42;
	d.config.has_value = false;
	animname_from_dyn(&n, &d);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Spring|105|NotifRow@80e0|translationY|s=200,d=0.8|0->-100");
	d.config.has_value = true; /* setStartValue(42) */
	animname_from_dyn(&n, &d);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Spring|105|NotifRow@80e0|translationY|s=200,d=0.8|42->-100");
	d = dyn(DYN_SPRING); /* at its start, without the heap: nothing but what it is */
	d.ended = d.fitted = d.has_target = false;
	animname_from_dyn(&n, &d);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE), "Spring|105|?|?|s=?,d=?|?->?");
	n = parse_all("Spring|105|NotifRow@80e0|translationY|s=200,d=0.8|0->-100");
	cr_assert_eq(n.kind, ANIMNAME_SPRING);
	cr_assert_eq(n.stiffness.v, 200);
	cr_assert(same_float(n.damping.v, 0.8f));
	cr_assert_eq(n.props[0].to.v, -100);
}

Test(animname, a_followed_fling_and_a_dynamic_animation_of_no_known_kind)
{
	struct dyn_anim d = dyn(DYN_FLING);
	struct animname n;

	d.prop = PROP_TRANSLATION_X;
	animname_from_dyn(&n, &d);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Fling|105|NotifRow@80e0|translationX|f=1.1|v0=-2345.68");
	/* DragForce keeps -4.2f * the scalar; getFriction() gives the scalar back */
	d.config = (struct dyn_config){
		.has_fling = true, .has_state = true, .friction = -4.2f * 0.75f, .velocity = -2000
	};
	animname_from_dyn(&n, &d);
	cr_assert_str_eq(fmt(&n, ANIMNAME_PIPE),
			 "Fling|105|NotifRow@80e0|translationX|f=0.75|v0=-2000");
	d = dyn(DYN_UNKNOWN);
	d.ended = d.fitted = false;
	animname_from_dyn(&n, &d);
	cr_assert_str_eq(fmt(&n, ANIMNAME_ATRACE),
			 "Dyn" BAR "105" BAR "NotifRow@80e0" BAR "translationY");
	n = round_trip("Dyn" BAR "105" BAR "NotifRow@80e0" BAR "translationY");
	cr_assert_eq(n.kind, ANIMNAME_DYN);
	cr_assert_eq(n.id, 105);
	cr_assert_str_eq(n.target, "NotifRow@80e0");
	cr_assert_str_eq(n.props[0].name, "translationY");
}

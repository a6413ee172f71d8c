// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The trace export's animator slice names on real captures, every process: each parses back
 * (sinks/animname.h) to the record it came from: id, type, properties, duration to the
 * microsecond. A replay has no setter probes: target, values and interpolator are "?".
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "replay/replay.h"
#include "sinks/animname.h"
#include "sinks/fanout.h"
#include "sinks/trace.h"

#define TRACES TESTDATA "/traces/"

static struct {
	struct anim *ends;
	size_t n, cap;
} got;

static int on_end(void *ctx, const struct anim *a)
{
	if (got.n == got.cap) {
		got.cap = got.cap ? 2 * got.cap : 64;
		got.ends = realloc(got.ends, got.cap * sizeof(*got.ends));
		cr_assert_not_null(got.ends);
	}
	got.ends[got.n++] = *a;
	return 0;
}

static const struct sink_ops recording = { .anim_end = on_end };

/* file through the engine into the trace export (and the recording sink); the export's text. */
static json_object *replay_with_trace(const char *file)
{
	struct sink_fanout *fo = sink_fanout__new();
	char *text = NULL, msg[512];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sink_trace *t = sink_trace__new(f);
	struct replay_stats st;
	struct engine *e;
	json_object *o;

	cr_assert(fo && f && t);
	cr_assert_eq(sink_fanout__add(fo, sink_trace__sink(t)), 0);
	cr_assert_eq(sink_fanout__add(fo, (struct sink){ &recording, NULL }), 0);
	e = engine__new(NULL, sink_fanout__sink(fo));
	cr_assert_not_null(e);
	got.n = 0;
	cr_assert_eq(replay_run(file, NULL, e, &st, msg, sizeof(msg)), 0, "%s", msg);
	engine__finish(e, st.last_ns, 0, 0);
	engine__free(e);
	cr_assert_eq(sink_trace__free(t), 0);
	sink_fanout__free(fo);
	fclose(f);
	o = json_tokener_parse(text);
	cr_assert_not_null(o, "%s: the export does not parse", file);
	free(text);
	return o;
}

/* An event's "ts" (microseconds, three decimals) in nanoseconds. */
static uint64_t at_ns(json_object *ev)
{
	json_object *ts;

	cr_assert(json_object_object_get_ex(ev, "ts", &ts));
	return (uint64_t)(json_object_get_double(ts) * 1000.0 + 0.5);
}

/* The name of the async begin (or, never started, the instant) of animator a. */
static const char *name_of(json_object *trace, const struct anim *a)
{
	const char *found = NULL;
	char id[32];
	long long v = (long long)a->id;

	snprintf(id, sizeof(id), "%s0x%llx", v < 0 ? "-" : "",
		 v < 0 ? -(unsigned long long)v : (unsigned long long)v);
	for (size_t i = 0; i < json_object_array_length(trace); i++) {
		json_object *ev = json_object_array_get_idx(trace, i), *ph, *pid, *x, *name;
		struct animname n;

		if (!json_object_object_get_ex(ev, "ph", &ph) ||
		    !json_object_object_get_ex(ev, "pid", &pid) ||
		    json_object_get_int64(pid) != a->pid ||
		    !json_object_object_get_ex(ev, "name", &name))
			continue;
		if (a->start_ns && !strcmp(json_object_get_string(ph), "b") &&
		    json_object_object_get_ex(ev, "id", &x) &&
		    !strcmp(json_object_get_string(x), id) &&
		    at_ns(ev) == a->start_ns) { /* a cookie starts again: the one of this start */
			cr_assert_null(found, "two slices of animator %s", id);
			found = json_object_get_string(name);
		} else if (!a->start_ns && !strcmp(json_object_get_string(ph), "i") &&
			   animname_parse(json_object_get_string(name),
					  strlen(json_object_get_string(name)), &n) > 0 &&
			   n.kind == ANIMNAME_ANIM && n.id == (int64_t)a->id &&
			   at_ns(ev) == a->end_ns) {
			found = json_object_get_string(name);
		}
	}
	cr_assert_not_null(found, "no slice of animator %s of pid %u", id, a->pid);
	return found;
}

static void check_name(const char *name, const struct anim *a)
{
	struct animname n;
	int props = a->n_props < ANIMNAME_PROPS ? a->n_props : ANIMNAME_PROPS;
	bool ended = a->reason != END_NONE && a->start_ns && a->end_ns >= a->start_ns;

	cr_assert_eq(animname_parse(name, strlen(name), &n), (int)strlen(name), "%s", name);
	cr_assert_eq(n.kind, ANIMNAME_ANIM, "%s", name);
	cr_assert_eq(n.id, (int64_t)a->id, "%s", name);
	cr_assert_str_eq(n.type, a->kind == ANIM_OBJECT ? "Obj" : "Val", "%s", name);
	cr_assert_str_eq(n.target, "", "%s", name);
	cr_assert_eq(n.n_props, props, "%s", name);
	cr_assert_eq(n.props_left_out, (uint32_t)(a->n_props - props), "%s", name);
	for (int i = 0; i < props; i++) {
		cr_assert_str_eq(n.props[i].name, a->props[i], "%s", name);
		cr_assert(!n.props[i].from.known && !n.props[i].to.known, "%s", name);
	}
	cr_assert_str_eq(n.interp, "", "%s", name);
	cr_assert_eq(n.has_duration, ended, "%s", name);
	if (ended)
		cr_assert_eq(n.duration_ns, (a->end_ns - a->start_ns) / 1000 * 1000, "%s", name);
}

/* Every animator of file; returns how many. */
static size_t check_capture(const char *file)
{
	json_object *trace = replay_with_trace(file);

	for (size_t i = 0; i < got.n; i++)
		check_name(name_of(trace, &got.ends[i]), &got.ends[i]);
	json_object_put(trace);
	return got.n;
}

Test(names_replay, every_animator_slice_of_three_real_captures_parses_back_to_its_record,
     .timeout = 120)
{
	/* their animators, as test_replay and test_vsync_replay count them */
	static const struct {
		char file[64];
		size_t anims;
	} caps[] = {
		{ "antutu-2018.ftrace.txt", 16 },
		{ "flyme-launcher-scroll-2019.ftrace.txt", 4 },
		{ "pixel6a-android13-startup.perfetto-trace", 8 },
	};
	char path[256];

	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		snprintf(path, sizeof(path), TRACES "%s", caps[i].file);
		cr_assert_eq(check_capture(path), caps[i].anims, "%s", caps[i].file);
	}
	free(got.ends);
}

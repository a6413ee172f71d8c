// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root): --trace-out next to --format json. The trace file is loaded with
 * json-c in strict mode and checked record by record against the JSON lines of the same
 * run (the engine's records): one async slice pair per animator, one complete event per
 * frame, one counter sample per property value. Then animtrace is killed with SIGKILL and
 * the cut-off file must still load once "]" is appended, as the format allows.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"
#include "names.h"

static char target_name[E2E_NAME_MAX], decoy_name[E2E_NAME_MAX];

static void setup(void)
{
	e2e_setup();
	e2e_name(target_name, "com.example.anim");
	e2e_name(decoy_name, "com.example.decoy");
}

TestSuite(trace_out, .init = setup, .fini = e2e_teardown, .timeout = 180);

/* The whole text as one JSON value, strictly: nothing but whitespace may follow it. */
static json_object *parse_strict(const char *text)
{
	struct json_tokener *tok = json_tokener_new();
	size_t len = strlen(text), end;
	json_object *o;

	cr_assert_not_null(tok);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, text, (int)len);
	cr_assert_not_null(o, "the trace does not parse (%s) at byte %zu",
			   json_tokener_error_desc(json_tokener_get_error(tok)),
			   json_tokener_get_parse_end(tok));
	for (end = json_tokener_get_parse_end(tok); end < len; end++)
		cr_assert(strchr(" \t\r\n", text[end]), "text after the array at byte %zu", end);
	json_tokener_free(tok);
	cr_assert(json_object_is_type(o, json_type_array), "the trace is no JSON array");
	return o;
}

/* A "ts"/"dur" in microseconds with three decimals, back to nanoseconds. */
static int64_t us_to_ns(json_object *ev, const char *key)
{
	double us = json_object_get_double(e2e_get(ev, key));

	return (int64_t)(us * 1000.0 + 0.5); /* rounded by hand: the runner has no libm */
}

static bool ph_is(json_object *ev, const char *ph)
{
	return !strcmp(e2e_str(ev, "ph"), ph);
}

static size_t count_ph(json_object *trace, const char *ph, pid_t pid)
{
	size_t n = 0;

	for (size_t i = 0; i < json_object_array_length(trace); i++) {
		json_object *ev = json_object_array_get_idx(trace, i);

		n += ph_is(ev, ph) && e2e_int(ev, "pid") == pid;
	}
	return n;
}

/* The only event of pid and phase ph named name with "id" (NULL: any); fails otherwise. */
static json_object *find_one(json_object *trace, pid_t pid, const char *ph, const char *name,
			     const char *id)
{
	json_object *found = NULL;

	for (size_t i = 0; i < json_object_array_length(trace); i++) {
		json_object *ev = json_object_array_get_idx(trace, i), *v;

		if (!ph_is(ev, ph) || strcmp(e2e_str(ev, "name"), name) ||
		    e2e_int(ev, "pid") != pid)
			continue;
		if (id && (!json_object_object_get_ex(ev, "id", &v) ||
			   strcmp(json_object_get_string(v), id)))
			continue;
		cr_assert_null(found, "two \"%s\" events named %s", ph, name);
		found = ev;
	}
	cr_assert_not_null(found, "no \"%s\" event named %s (id %s)", ph, name, id ? id : "-");
	return found;
}

/* The only event of pid and phase ph in category cat with "id" id; fails otherwise. */
static json_object *find_id(json_object *trace, pid_t pid, const char *ph, const char *cat,
			    const char *id)
{
	json_object *found = NULL, *v;

	for (size_t i = 0; i < json_object_array_length(trace); i++) {
		json_object *ev = json_object_array_get_idx(trace, i);

		if (!ph_is(ev, ph) || e2e_int(ev, "pid") != pid ||
		    !json_object_object_get_ex(ev, "cat", &v) ||
		    strcmp(json_object_get_string(v), cat) ||
		    !json_object_object_get_ex(ev, "id", &v) ||
		    strcmp(json_object_get_string(v), id))
			continue;
		cr_assert_null(found, "two \"%s\" %s events with id %s", ph, cat, id);
		found = ev;
	}
	cr_assert_not_null(found, "no \"%s\" %s event with id %s", ph, cat, id);
	return found;
}

/* An animator's id as the export writes it: signed hex. */
static void hex_id(char *buf, size_t cap, int64_t id)
{
	snprintf(buf, cap, "%s0x%llx", id < 0 ? "-" : "",
		 (unsigned long long)(id < 0 ? -(uint64_t)id : (uint64_t)id));
}

/*
 * animator_end -> the b/e pair (cat animator, id its cookie) with its reason, named as the seed
 * named it: the name parses back to the record's id, type, target, properties with their from
 * and to, interpolator and duration (names.h).
 */
static void check_anim(json_object *trace, json_object *end)
{
	int64_t dur = e2e_int(end, "duration_ns"), start = e2e_int(end, "start_ns");
	pid_t pid = (pid_t)e2e_int(end, "pid");
	json_object *b, *e;
	const char *name;
	char id[32];

	hex_id(id, sizeof(id), e2e_int(end, "id"));
	b = find_id(trace, pid, "b", "animator", id);
	e = find_id(trace, pid, "e", "animator", id);
	name = e2e_str(b, "name");
	cr_assert_str_eq(e2e_str(e, "name"), name);
	names_check_anim_end(name, end);
	cr_assert_eq(us_to_ns(b, "ts"), start, "%s", name);
	cr_assert_eq(us_to_ns(e, "ts"), start + dur, "%s", name);
	cr_assert_eq(e2e_int(e, "tid"), e2e_int(end, "tid"));
	cr_assert_str_eq(e2e_str(e2e_get(b, "args"), "reason"), e2e_str(end, "reason"));
	cr_assert_str_eq(e2e_str(e2e_get(e, "args"), "reason"), e2e_str(end, "reason"));
}

/* An animator cancelled before it started has no slice: an instant of its name and reason. */
static void check_unstarted(json_object *trace, json_object *end)
{
	json_object *ev = NULL;

	for (size_t i = 0; i < json_object_array_length(trace); i++) {
		json_object *x = json_object_array_get_idx(trace, i);

		if (!ph_is(x, "i") || e2e_int(x, "pid") != e2e_int(end, "pid") ||
		    strncmp(e2e_str(x, "name"), "Anim|", 5) ||
		    names_parse(e2e_str(x, "name"), false).id != e2e_int(end, "id"))
			continue;
		cr_assert_null(ev, "two instants for animator %lld", (long long)e2e_int(end, "id"));
		ev = x;
	}
	cr_assert_not_null(ev, "no instant for animator %lld", (long long)e2e_int(end, "id"));
	names_check_anim_end(e2e_str(ev, "name"), end);
	cr_assert_str_eq(e2e_str(e2e_get(ev, "args"), "reason"), e2e_str(end, "reason"));
	cr_assert_eq(us_to_ns(ev, "ts"), e2e_int(end, "ts_ns"));
}

/* animation_end -> the b/e pair (cat animation), Spring|, Fling| or Anim|<id>|Unmarked|. */
static void check_animation(json_object *trace, json_object *end)
{
	pid_t pid = (pid_t)e2e_int(end, "pid");
	json_object *b, *e;
	char id[32];

	snprintf(id, sizeof(id), "0x%llx", (unsigned long long)e2e_int(end, "id"));
	b = find_id(trace, pid, "b", "animation", id);
	e = find_id(trace, pid, "e", "animation", id);
	cr_assert_str_eq(e2e_str(e, "name"), e2e_str(b, "name"));
	names_check_animation_end(e2e_str(b, "name"), end);
	cr_assert_eq(us_to_ns(b, "ts"), e2e_int(end, "start_ns"));
	cr_assert_eq(us_to_ns(e, "ts"), e2e_int(end, "start_ns") + e2e_int(end, "duration_ns"));
}

/* dyn_end -> the b/e pair (cat dyn) from its start() to its end, exactly, named Spring|,
 * Fling| or Dyn| as the seed's DynamicAnimationTracer named it (names.h). */
static void check_dyn(json_object *trace, json_object *end)
{
	pid_t pid = (pid_t)e2e_int(end, "pid");
	int64_t start = e2e_int(end, "start_ns"), stop = e2e_int(end, "end_ns");
	json_object *b, *e;
	char id[32];

	snprintf(id, sizeof(id), "0x%llx", (unsigned long long)e2e_int(end, "id"));
	b = find_id(trace, pid, "b", "dyn", id);
	e = find_id(trace, pid, "e", "dyn", id);
	cr_assert_str_eq(e2e_str(e, "name"), e2e_str(b, "name"));
	names_check_dyn_end(e2e_str(b, "name"), end);
	cr_assert_eq(us_to_ns(b, "ts"), start, "%s", e2e_str(b, "name"));
	cr_assert_eq(us_to_ns(e, "ts"), stop > start ? stop : start, "%s", e2e_str(b, "name"));
	cr_assert_str_eq(e2e_str(e2e_get(e, "args"), "reason"), e2e_str(end, "reason"));
}

/* frame -> one X event on its UI thread with its start, duration and sequence number. */
static void check_frame(json_object *trace, json_object *fr)
{
	char name[64];
	json_object *ev = NULL;

	snprintf(name, sizeof(name), "Choreographer#doFrame %lld",
		 (long long)e2e_int(fr, "vsync_id"));
	for (size_t i = 0; i < json_object_array_length(trace); i++) {
		json_object *x = json_object_array_get_idx(trace, i);

		if (ph_is(x, "X") && e2e_int(x, "pid") == e2e_int(fr, "pid") &&
		    e2e_int(e2e_get(x, "args"), "seq") == e2e_int(fr, "seq")) {
			cr_assert_null(ev, "two X events for %s", name);
			ev = x;
		}
	}
	cr_assert_not_null(ev, "no X event for %s", name);
	cr_assert_str_eq(e2e_str(ev, "name"), name);
	cr_assert_eq(e2e_int(ev, "tid"), e2e_int(fr, "tid"));
	cr_assert_eq(us_to_ns(ev, "ts"), e2e_int(fr, "ts_ns"));
	cr_assert_eq(us_to_ns(ev, "dur"), e2e_int(fr, "duration_ns"));
}

static bool same_float(json_object *a, json_object *b)
{
	float x = (float)json_object_get_double(a), y = (float)json_object_get_double(b);

	return !memcmp(&x, &y, sizeof(x));
}

/*
 * frame_props -> one C event V|<node>|<prop> per value, same time and the same float.
 * used[] marks the counters already matched, so each is matched once.
 */
static size_t check_values(json_object *trace, json_object *fp, bool *used)
{
	size_t n = 0;

	json_object_object_foreach(e2e_get(fp, "values"), prop, val)
	{
		char name[160];
		bool found = false;

		snprintf(name, sizeof(name), "V|%s|%s", e2e_str(fp, "node_name"), prop);
		for (size_t i = 0; i < json_object_array_length(trace) && !found; i++) {
			json_object *c = json_object_array_get_idx(trace, i);

			if (used[i] || !ph_is(c, "C") || strcmp(e2e_str(c, "name"), name) ||
			    us_to_ns(c, "ts") != e2e_int(fp, "ts_ns") ||
			    e2e_int(c, "pid") != e2e_int(fp, "pid") ||
			    !same_float(e2e_get(e2e_get(c, "args"), "value"), val))
				continue;
			used[i] = found = true;
		}
		cr_assert(found, "no counter %s = %s at %lld", name,
			  json_object_to_json_string(val), (long long)e2e_int(fp, "ts_ns"));
		n++;
	}
	return n;
}

/* What check_records matched for one process. */
struct matched {
	size_t ends, animations, frames, values, dyns;
};

/*
 * Every record of out for pid against the trace, and no more slices, frames or counters
 * than that. Only pid: another run of the simulator on this machine has the same name.
 */
static struct matched check_records(const struct e2e_jsonl *out, json_object *trace, pid_t pid)
{
	struct matched m = { 0 };
	bool *used = calloc(json_object_array_length(trace) + 1, sizeof(*used));

	cr_assert_not_null(used);
	for (size_t i = 0; i < out->n; i++) {
		json_object *r = out->v[i];

		if (e2e_type_is(r, "summary") || e2e_int(r, "pid") != pid)
			continue;
		if (e2e_type_is(r, "animator_end") && !e2e_is_null(r, "start_ns")) {
			check_anim(trace, r);
			m.ends++;
		} else if (e2e_type_is(r, "animator_end")) {
			check_unstarted(trace, r);
		} else if (e2e_type_is(r, "animation_end")) {
			check_animation(trace, r);
			m.animations++;
		} else if (e2e_type_is(r, "dyn_end")) {
			check_dyn(trace, r);
			m.dyns++;
		} else if (e2e_type_is(r, "frame")) {
			check_frame(trace, r);
			m.frames++;
		} else if (e2e_type_is(r, "frame_props")) {
			m.values += check_values(trace, r, used);
		}
	}
	free(used);
	cr_assert_eq(count_ph(trace, "b", pid), m.ends + m.animations + m.dyns);
	cr_assert_eq(count_ph(trace, "e", pid), m.ends + m.animations + m.dyns);
	cr_assert_eq(count_ph(trace, "X", pid), m.frames);
	cr_assert_eq(count_ph(trace, "C", pid), m.values);
	return m;
}

static void check_trace(const struct e2e_jsonl *out, json_object *trace, pid_t pid)
{
	struct matched m = check_records(out, trace, pid);

	/*
	 * The basic scenario: 4 animators end after they started; 24 frames; node A's alpha and
	 * node B's translationY change in frames 2..18 (frame 1 sets the values they have).
	 */
	cr_assert_eq(m.ends, 4);
	cr_assert_eq(m.frames, 24);
	cr_assert_eq(m.values, 2 * 17, "%zu values", m.values);
}

/* The target and the decoy, playing once animtrace (at) has every probe on the target, whose
 * pid goes to *target. */
static pid_t start_sim(const char *expect, pid_t at, const char *err, pid_t *target)
{
	char go[PATH_MAX];
	const char *argv[] = { E2E_ANIMSIM,	   "--name", target_name, "--decoy", decoy_name,
			       "--linger-ms",	   "3000",   "--expect",  expect,    "--go",
			       e2e_path(go, "go"), NULL };
	pid_t sim = e2e_spawn(argv, NULL);

	*target = e2e_find_child(sim, target_name);
	e2e_release(err, at, *target, E2E_PROPS | E2E_ART, go);
	return sim;
}

Test(trace_out, the_trace_file_holds_every_animator_frame_and_value_of_the_json_output)
{
	char out[PATH_MAX], trace[PATH_MAX], err[PATH_MAX], exp[PATH_MAX], pidpat[32];
	const char *args[] = { "--proc",
			       target_name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "o.jsonl"),
			       "--trace-out",
			       e2e_path(trace, "t.json"),
			       "--no-atrace-setup",
			       NULL };
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL), target;
	pid_t sim = start_sim(e2e_path(exp, "e.jsonl"), at, err, &target);
	struct e2e_jsonl j;
	json_object *t;
	char *text;

	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", target);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":24,", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	cr_assert_eq(e2e_exit_code(sim, "animsim"), 0);
	e2e_jsonl_load(&j, out);
	text = e2e_slurp(trace);
	t = parse_strict(text);
	check_trace(&j, t, target);
	json_object_put(t);
	free(text);
	e2e_jsonl_free(&j);
}

/*
 * The physics scenario (a spring, a fling and a fade without ART probes): every slice name
 * parses back to the JSON records, the Spring| and Fling| ones with their fitted parameters.
 */
Test(trace_out, spring_fling_and_animator_slice_names_parse_back_to_the_json_records)
{
	char name[E2E_NAME_MAX], go[PATH_MAX], out[PATH_MAX], trace[PATH_MAX], err[PATH_MAX];
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "o.jsonl"),
			       "--trace-out",
			       e2e_path(trace, "t.json"),
			       "--no-atrace-setup",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name", name,   "--scenario", "physics", "--frames",
			      "90",	   "--art",  "none", "--go",	   go,	      NULL };
	int springs = 0, flings = 0;
	struct e2e_jsonl j;
	struct matched m;
	json_object *t;
	char *text;

	e2e_name(name, "com.example.tracephys");
	e2e_path(go, "go");
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	pid_t s = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(s, name);

	e2e_release(err, at, app, E2E_PROPS, go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	e2e_jsonl_load(&j, out);
	text = e2e_slurp(trace);
	t = parse_strict(text);
	m = check_records(&j, t, app);
	for (size_t i = 0; i < json_object_array_length(t); i++) {
		const char *n = e2e_str(json_object_array_get_idx(t, i), "name");

		springs += ph_is(json_object_array_get_idx(t, i), "b") && !strncmp(n, "Spring|", 7);
		flings += ph_is(json_object_array_get_idx(t, i), "b") && !strncmp(n, "Fling|", 6);
	}
	cr_assert_eq(m.animations, 2, "the spring and the fling");
	cr_assert_eq(springs, 1);
	cr_assert_eq(flings, 1);
	cr_assert_geq(m.ends, 1, "the fade");
	json_object_put(t);
	free(text);
	e2e_jsonl_free(&j);
}

/* The trace file of a run against its JSON lines (pid's records), loaded strictly. */
static struct matched check_files(const char *out, const char *trace, pid_t pid)
{
	struct e2e_jsonl j;
	struct matched m;
	char *text = e2e_slurp(trace);
	json_object *t = parse_strict(text);

	e2e_jsonl_load(&j, out);
	m = check_records(&j, t, pid);
	json_object_put(t);
	free(text);
	e2e_jsonl_free(&j);
	return m;
}

/*
 * The config scenario (issue #24: animators whose configuration is read from their objects at
 * start()): each slice name carries what the code asked for (duration, interpolator, values,
 * the target's class), parsed back to the animator_end's config; one by hand, exactly.
 */
Test(trace_out, configured_animators_are_named_with_their_configuration)
{
	char name[E2E_NAME_MAX], go[PATH_MAX], out[PATH_MAX], trace[PATH_MAX], err[PATH_MAX];
	char exp[PATH_MAX], want[160];
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "o.jsonl"),
			       "--trace-out",
			       e2e_path(trace, "t.json"),
			       "--no-atrace-setup",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM,  "--name",		name,
			      "--scenario", "config",		"--linger-ms",
			      "300",	    "--expect",		e2e_path(exp, "e.jsonl"),
			      "--go",	    e2e_path(go, "go"), NULL };
	struct e2e_jsonl x;
	struct matched m;
	pid_t at, s, app = 0;
	char *text;

	e2e_name(name, "com.example.tracecfg");
	at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	s = e2e_spawn(sim, NULL);
	e2e_await(err, at, "animtrace: pid ", "end reasons from ART probes", NULL);
	e2e_go(go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	e2e_jsonl_load(&x, exp);
	for (size_t i = 0; i < x.n && !app; i++)
		if (e2e_type_is(x.v[i], "config") && !strcmp(e2e_str(x.v[i], "role"), "target"))
			app = (pid_t)e2e_int(x.v[i], "pid");
	cr_assert_neq(app, 0, "the simulator names its process");
	m = check_files(out, trace, app);
	cr_assert_eq(m.ends, 4, "the four configured animators");
	/* the ARGB one (cookie 0x0a11fa03): 150 ms, AccelerateDecelerate, red -> blue */
	text = e2e_slurp(trace);
	for (size_t i = 0; i < x.n; i++) {
		if (!e2e_type_is(x.v[i], "config") || e2e_int(x.v[i], "cookie") != 0x0a11fa03)
			continue;
		snprintf(want, sizeof(want),
			 "Anim|168950275|Obj|View@%04llx|backgroundColor:"
			 "0xffff0000->0xff0000ff|AccelerateDecelerate|150ms\"",
			 strtoull(e2e_str(x.v[i], "target_node"), NULL, 16) & 0xffff);
		cr_assert(strstr(text, want), "no %s in %s", want, text);
	}
	free(text);
	e2e_jsonl_free(&x);
}

/*
 * The dyn scenario (issue #25: springs and flings followed by the ART probes): each is an async
 * slice from its start() to its end, exactly, named Spring|/Fling| with its parameters, parsed
 * back to its dyn_end record.
 */
Test(trace_out, followed_springs_and_flings_are_slices_from_start_to_end)
{
	char out[PATH_MAX], err[PATH_MAX], trace[PATH_MAX], gate[PATH_MAX], go[PATH_MAX];
	char name[E2E_NAME_MAX], pat[128];
	const char *args[] = { "--proc",
			       name,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "o.jsonl"),
			       "--trace-out",
			       e2e_path(trace, "t.json"),
			       "--no-atrace-setup",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM,	  "--name", name,	   "--scenario", "dyn",
			      "--frames",	  "110",    "--late-gate", gate,	 "--go",
			      e2e_path(go, "go"), NULL };
	struct matched m;
	pid_t at, s, app;

	e2e_name(name, "com.example.tracedyn");
	cr_assert_eq(mkdir(e2e_path(gate, "gate"), 0755), 0);
	at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	s = e2e_spawn(sim, NULL);
	app = e2e_find_child(s, name);
	e2e_release(err, at, app, E2E_PROPS | E2E_ART, go);
	snprintf(pat, sizeof(pat), "animtrace: pid %d: DynamicAnimation probes in ", app);
	e2e_await(err, at, pat, "boot-framework.oat (6 of 6 methods)", NULL);
	e2e_gate(gate, "load");
	snprintf(pat, sizeof(pat), "animtrace: pid %d: DynamicAnimation probes in ", app);
	e2e_await(err, at, pat, "base.odex (6 of 6 methods)", NULL);
	e2e_gate(gate, "go");
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	m = check_files(out, trace, app);
	/* four probed runs (two springs, one cancelled, a fling, the late odex's spring); the
	 * uncompiled spring is an unmarked animation */
	cr_assert_eq(m.dyns, 4, "%zu runs", m.dyns);
	cr_assert_eq(m.animations, 1, "%zu unmarked", m.animations);
}

/* Records in a snapshot of the trace file: each starts with {"ph": and is complete once
 * its closing brace was flushed, which is the last byte unless the file was cut mid-record. */
static size_t complete_records(const char *text)
{
	size_t n = 0, len = strlen(text);

	for (const char *p = text; (p = strstr(p, "{\"ph\":")); p++)
		n++;
	while (len && strchr(" \n", text[len - 1]))
		len--;
	return n && len && text[len - 1] != '}' ? n - 1 : n;
}

Test(trace_out, a_trace_cut_off_by_sigkill_loads_once_the_bracket_is_appended)
{
	char trace[PATH_MAX], err[PATH_MAX], exp[PATH_MAX];
	const char *args[] = { "--proc",
			       target_name,
			       "--format",
			       "json",
			       "--trace-out",
			       e2e_path(trace, "t.json"),
			       "--no-atrace-setup",
			       NULL };
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL), target;
	pid_t sim = start_sim(e2e_path(exp, "e.jsonl"), at, err, &target);
	char *before, *after, *fixed, doframe[64];
	struct exp_proc procs[2];
	size_t n_before, len;
	int n_procs;
	json_object *t;
	int status;

	/* Mid-session: frame 6 was written; the animators of frames 1..18 still run. Its vsync id
	 * is the simulator's (its "frame" line), not 1000 + 5. */
	e2e_await(exp, sim, "{\"type\":\"frame\"", "\"frame\":6,", NULL);
	n_procs = exp_load(exp, procs, 2);
	snprintf(doframe, sizeof(doframe), "Choreographer#doFrame %lld",
		 (long long)exp_vsync(exp_role(procs, n_procs, "target"), 6));
	e2e_await(trace, at, doframe, NULL);
	before = e2e_slurp(trace);
	n_before = complete_records(before);
	kill(at, SIGKILL);
	status = e2e_wait(at, "animtrace");
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "status %#x", status);
	kill(sim, SIGINT);
	e2e_wait(sim, "animsim");

	after = e2e_slurp(trace);
	cr_assert_eq(strncmp(after, before, strlen(before)), 0, "what was written changed");
	len = strlen(after);
	while (len && strchr(" \n", after[len - 1]))
		len--;
	cr_assert(len && after[len - 1] != ']', "a killed animtrace closed the array");
	cr_assert_geq(n_before, 6, "frames 1..5 and the process name were written");
	fixed = malloc(len + 3);
	cr_assert_not_null(fixed);
	memcpy(fixed, after, len);
	strcpy(fixed + len, "\n]");
	t = parse_strict(fixed);
	cr_assert_geq(json_object_array_length(t), n_before);
	cr_assert_str_eq(e2e_str(find_one(t, target, "X", doframe, NULL), "cat"), "frame");
	json_object_put(t);
	free(fixed);
	free(after);
	free(before);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* animsim's --expect file and exact checks of animtrace's JSON lines against it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "expect.h"

static struct exp_proc *proc_of(struct exp_proc *procs, int *n, int max, int pid)
{
	for (int i = 0; i < *n; i++)
		if (procs[i].pid == pid)
			return &procs[i];
	cr_assert_lt(*n, max, "too many processes in the expect file");
	procs[*n] = (struct exp_proc){ .pid = pid };
	return &procs[(*n)++];
}

static int frame_or_zero(json_object *o, const char *key)
{
	return e2e_is_null(o, key) ? 0 : (int)e2e_int(o, key);
}

static void add_anim(struct exp_proc *p, json_object *o)
{
	struct exp_anim *a;

	cr_assert_lt(p->n_anims, EXP_MAX_ANIMS);
	a = &p->anims[p->n_anims++];
	snprintf(a->name, sizeof(a->name), "%s", e2e_str(o, "name"));
	a->cookie = e2e_int(o, "cookie");
	a->start_frame = frame_or_zero(o, "start_frame");
	a->end_frame = frame_or_zero(o, "end_frame");
	snprintf(a->end, sizeof(a->end), "%s", e2e_is_null(o, "end") ? "" : e2e_str(o, "end"));
}

static void add_prop(struct exp_proc *p, json_object *o)
{
	struct exp_prop *x;

	cr_assert_lt(p->n_props, EXP_MAX_PROPS);
	x = &p->props[p->n_props++];
	x->frame = (int)e2e_int(o, "frame");
	x->vsync = (int)e2e_int(o, "vsync");
	x->node = strtoull(e2e_str(o, "node"), NULL, 16);
	snprintf(x->property, sizeof(x->property), "%s", e2e_str(o, "property"));
	snprintf(x->node_class, sizeof(x->node_class), "%s", e2e_str(o, "node_name"));
	/* %.9g in the file: the float round-trips exactly through double. */
	x->value = (float)json_object_get_double(e2e_get(o, "value"));
	x->changed = json_object_get_boolean(e2e_get(o, "changed"));
	snprintf(x->animator, sizeof(x->animator), "%s",
		 e2e_is_null(o, "animator") ? "" : e2e_str(o, "animator"));
}

static double num_or_zero(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : 0;
}

static void str_or_empty(char *dst, size_t size, json_object *o, const char *key)
{
	json_object *v;

	snprintf(dst, size, "%s",
		 json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "");
}

static void add_phys(struct exp_proc *p, json_object *o)
{
	struct exp_phys *x;

	cr_assert_lt(p->n_phys, EXP_MAX_PHYS);
	x = &p->phys[p->n_phys++];
	snprintf(x->kind, sizeof(x->kind), "%s", e2e_str(o, "kind"));
	x->node = strtoull(e2e_str(o, "node"), NULL, 16);
	snprintf(x->property, sizeof(x->property), "%s", e2e_str(o, "property"));
	x->start_frame = (int)e2e_int(o, "start_frame");
	x->end_frame = (int)e2e_int(o, "end_frame");
	x->from = json_object_get_double(e2e_get(o, "from"));
	x->to = json_object_get_double(e2e_get(o, "to"));
	x->stiffness = num_or_zero(o, "stiffness");
	x->damping_ratio = num_or_zero(o, "damping_ratio");
	x->friction_scalar = num_or_zero(o, "friction_scalar");
	x->start_velocity = num_or_zero(o, "start_velocity");
	str_or_empty(x->interpolator, sizeof(x->interpolator), o, "interpolator");
	str_or_empty(x->animator, sizeof(x->animator), o, "animator");
}

const struct exp_phys *exp_phys_kind(const struct exp_proc *t, const char *kind)
{
	for (int i = 0; i < t->n_phys; i++)
		if (!strcmp(t->phys[i].kind, kind))
			return &t->phys[i];
	cr_assert_fail("no %s animation in the expect file", kind);
	return NULL;
}

int exp_load(const char *path, struct exp_proc *procs, int max)
{
	struct e2e_jsonl j;
	int n = 0;

	e2e_jsonl_load(&j, path);
	for (size_t i = 0; i < j.n; i++) {
		json_object *o = j.v[i];
		struct exp_proc *p;

		p = proc_of(procs, &n, max, (int)e2e_int(o, "pid"));
		if (e2e_type_is(o, "animator")) {
			add_anim(p, o);
			continue;
		}
		if (e2e_type_is(o, "prop")) {
			add_prop(p, o);
			continue;
		}
		if (e2e_type_is(o, "art")) {
			p->art = true;
			continue;
		}
		if (e2e_type_is(o, "physics")) {
			add_phys(p, o);
			continue;
		}
		if (e2e_type_is(o, "frame")) {
			int f = (int)e2e_int(o, "frame");

			if (f > 0 && f <= EXP_MAX_FRAMES)
				p->vsync[f] = e2e_int(o, "vsync");
			continue;
		}
		if (!e2e_type_is(o, "process"))
			continue;
		snprintf(p->process, sizeof(p->process), "%s", e2e_str(o, "process"));
		snprintf(p->role, sizeof(p->role), "%s", e2e_str(o, "role"));
		p->frames = (int)e2e_int(o, "frames");
		p->first_vsync = (int)e2e_int(o, "first_vsync");
	}
	e2e_jsonl_free(&j);
	return n;
}

int64_t exp_vsync(const struct exp_proc *t, int f)
{
	cr_assert(f > 0 && f <= EXP_MAX_FRAMES && t->vsync[f],
		  "pid %d: no vsync id for frame %d "
		  "in the expect file",
		  t->pid, f);
	return t->vsync[f];
}

int exp_frame_of_vsync(const struct exp_proc *t, int64_t vsync)
{
	for (int f = 1; f <= EXP_MAX_FRAMES; f++)
		if (t->vsync[f] == vsync)
			return f;
	return 0;
}

const struct exp_proc *exp_role(const struct exp_proc *procs, int n, const char *role)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(procs[i].role, role))
			return &procs[i];
	cr_assert_fail("no %s process in the expect file", role);
	return NULL;
}

/*
 * Markers cannot tell a completion from a cancel after start: both are "ended", and an F in
 * the frame of its S is "first_frame" (cancel or end()). The ART probes on
 * ValueAnimator.cancel/end can.
 */
static const char *want_reason(const struct exp_anim *a, bool art)
{
	if (!strcmp(a->end, "end"))
		return art ? "force_end" : "first_frame";
	if (!strcmp(a->end, "cancel") && !a->start_frame)
		return "cancel_before_start";
	if (!art)
		return a->start_frame == a->end_frame ? "first_frame" : "ended";
	return !strcmp(a->end, "cancel") ? "cancel" : "complete";
}

/* id, name, kind, properties, process and pid of an animator object. */
static void check_identity(json_object *r, const struct exp_proc *t, const struct exp_anim *a)
{
	const char *prop = strchr(a->name, ':');
	json_object *props = e2e_get(r, "properties");

	cr_assert_eq(e2e_int(r, "pid"), t->pid);
	cr_assert_str_eq(e2e_str(r, "process"), t->process);
	cr_assert_eq(e2e_int(r, "id"), a->cookie);
	cr_assert_str_eq(e2e_str(r, "name"), a->name);
	cr_assert_str_eq(e2e_str(r, "kind"), prop ? "ObjectAnimator" : "ValueAnimator", "%s",
			 a->name);
	cr_assert(json_object_is_type(props, json_type_array));
	cr_assert_eq(json_object_array_length(props), prop ? 1u : 0u, "%s", a->name);
	if (prop)
		cr_assert_str_eq(json_object_get_string(json_object_array_get_idx(props, 0)),
				 prop + 1);
	cr_assert_eq(e2e_int(r, "restarts"), 0);
}

static void check_end(json_object *r, const struct exp_proc *t, const struct exp_anim *a)
{
	check_identity(r, t, a);
	cr_assert_eq(e2e_int(r, "tid"), t->pid, "%s ends on the UI thread", a->name);
	cr_assert_str_eq(e2e_str(r, "reason"), want_reason(a, t->art), "%s", a->name);
	cr_assert_str_eq(e2e_str(r, "reason_source"), t->art ? "art" : "inferred", "%s", a->name);
	if (!a->start_frame) {
		cr_assert(e2e_is_null(r, "start_ns"), "%s", a->name);
		cr_assert(e2e_is_null(r, "duration_ns"), "%s", a->name);
		cr_assert_eq(e2e_int(r, "frames"), 0, "%s", a->name);
		return;
	}
	cr_assert_eq(e2e_int(r, "duration_ns"), e2e_int(r, "ts_ns") - e2e_int(r, "start_ns"), "%s",
		     a->name);
	cr_assert_eq(e2e_int(r, "frames"), a->end_frame - a->start_frame + 1, "%s", a->name);
}

static json_object *summary_of(const struct e2e_jsonl *out)
{
	cr_assert_gt(out->n, 0u, "no output at all");
	for (size_t i = 0; i + 1 < out->n; i++)
		cr_assert(!e2e_type_is(out->v[i], "summary"), "a summary before the last line");
	cr_assert(e2e_type_is(out->v[out->n - 1], "summary"), "the last line is no summary");
	return out->v[out->n - 1];
}

/* A leaked animator is listed once in the summary's "running" list. */
static void check_running(const struct e2e_jsonl *out, const struct exp_proc *t,
			  const struct exp_anim *a)
{
	json_object *running = e2e_get(summary_of(out), "running"), *r = NULL;
	int found = 0;

	for (size_t i = 0; i < json_object_array_length(running); i++) {
		json_object *o = json_object_array_get_idx(running, i);

		if (e2e_int(o, "pid") == t->pid && e2e_int(o, "id") == a->cookie) {
			r = o;
			found++;
		}
	}
	cr_assert_eq(found, 1, "%s of pid %d listed %d times as running", a->name, t->pid, found);
	check_identity(r, t, a);
	cr_assert_str_eq(e2e_str(r, "reason"), "running_at_exit");
	cr_assert(!e2e_is_null(r, "start_ns"));
	cr_assert(e2e_is_null(r, "duration_ns"));
	cr_assert_eq(e2e_int(r, "frames"), t->frames - a->start_frame + 1, "%s", a->name);
}

static int count_records(const struct e2e_jsonl *out, const char *type, int pid, int64_t id,
			 json_object **last)
{
	int n = 0;

	for (size_t i = 0; i < out->n; i++) {
		json_object *o = out->v[i];

		if (!e2e_type_is(o, type) || e2e_int(o, "pid") != pid ||
		    (id >= 0 && e2e_int(o, "id") != id))
			continue;
		n++;
		*last = o;
	}
	return n;
}

static void check_anims(const struct e2e_jsonl *out, const struct exp_proc *t)
{
	int ended = 0;
	json_object *r = NULL;

	cr_assert_gt(t->n_anims, 0, "pid %d: no animator in the expect file", t->pid);
	for (int i = 0; i < t->n_anims; i++) {
		const struct exp_anim *a = &t->anims[i];
		int starts = count_records(out, "animator_start", t->pid, a->cookie, &r);

		cr_assert_eq(starts, a->start_frame ? 1 : 0, "%s of pid %d: %d starts", a->name,
			     t->pid, starts);
		if (starts)
			check_identity(r, t, a);
		int ends = count_records(out, "animator_end", t->pid, a->cookie, &r);

		cr_assert_eq(ends, a->end_frame ? 1 : 0, "%s of pid %d: %d ends", a->name, t->pid,
			     ends);
		if (ends)
			check_end(r, t, a);
		else
			check_running(out, t, a);
		ended += ends;
	}
	cr_assert_eq(count_records(out, "animator_end", t->pid, -1, &r), ended,
		     "pid %d has animator_end records of unknown animators", t->pid);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The animators running during frame f, sorted. */
static int active_in(const struct exp_proc *t, int f, int64_t *ids)
{
	int n = 0;

	for (int i = 0; i < t->n_anims; i++) {
		const struct exp_anim *a = &t->anims[i];

		if (a->start_frame && a->start_frame <= f && (!a->end_frame || f <= a->end_frame))
			ids[n++] = a->cookie;
	}
	qsort(ids, n, sizeof(*ids), cmp_i64);
	return n;
}

static void check_frame_anims(json_object *fr, const struct exp_proc *t, int f)
{
	int64_t want[EXP_MAX_ANIMS], got[EXP_MAX_ANIMS];
	json_object *arr = e2e_get(fr, "animators");
	int n = active_in(t, f, want), m = (int)json_object_array_length(arr);

	cr_assert_eq(m, n, "frame %d of pid %d: %d animators, want %d: %s", f, t->pid, m, n,
		     json_object_to_json_string(fr));
	for (int i = 0; i < m; i++)
		got[i] = json_object_get_int64(json_object_array_get_idx(arr, i));
	qsort(got, m, sizeof(*got), cmp_i64);
	for (int i = 0; i < m; i++)
		cr_assert_eq(got[i], want[i], "frame %d of pid %d: %s", f, t->pid,
			     json_object_to_json_string(fr));
}

static void check_frame(json_object *fr, const struct exp_proc *t, int f)
{
	static const char *const phases[] = { "input", "animation", "traversal", "draw" };
	json_object *ph = e2e_get(fr, "phases");

	cr_assert_eq(e2e_int(fr, "seq"), f, "pid %d: frames out of order", t->pid);
	cr_assert_eq(e2e_int(fr, "vsync_id"), exp_vsync(t, f));
	cr_assert_eq(e2e_int(fr, "tid"), t->pid, "frames run on the UI thread");
	cr_assert_str_eq(e2e_str(fr, "process"), t->process);
	cr_assert_eq(json_object_object_length(ph), 4, "frame %d: %s", f,
		     json_object_to_json_string(fr));
	for (int p = 0; p < 4; p++)
		cr_assert_gt(e2e_int(ph, phases[p]), 0, "frame %d: %s", f,
			     json_object_to_json_string(fr));
	check_frame_anims(fr, t, f);
}

static void check_frames(const struct e2e_jsonl *out, const struct exp_proc *t)
{
	int f = 0;

	for (size_t i = 0; i < out->n; i++)
		if (e2e_type_is(out->v[i], "frame") && e2e_int(out->v[i], "pid") == t->pid)
			check_frame(out->v[i], t, ++f);
	cr_assert_eq(f, t->frames, "pid %d: %d frame records, want %d", t->pid, f, t->frames);
}

void exp_check_target(const struct e2e_jsonl *out, const struct exp_proc *t)
{
	check_anims(out, t);
	check_frames(out, t);
}

void exp_check_decoy_absent(const char *text, const struct exp_proc *decoy, int json)
{
	char pat[64];

	cr_assert_null(strstr(text, decoy->process), "the decoy's name is in the output");
	snprintf(pat, sizeof(pat), json ? "\"pid\":%d," : "(pid %d,", decoy->pid);
	cr_assert_null(strstr(text, pat), "the decoy's pid is in the output");
	if (!json) {
		snprintf(pat, sizeof(pat), "(pid %d)", decoy->pid);
		cr_assert_null(strstr(text, pat), "the decoy's pid is in the output");
	}
	for (int i = 0; i < decoy->n_anims; i++) {
		snprintf(pat, sizeof(pat), json ? "\"id\":%lld," : "ID:         %lld\n",
			 (long long)decoy->anims[i].cookie);
		cr_assert_null(strstr(text, pat), "the decoy's animator %s is in the output",
			       decoy->anims[i].name);
	}
}

/* ---- per-frame property values --------------------------------------------------------- */

static json_object *find_frame_props(const struct e2e_jsonl *out, int pid, int vsync, uint64_t node)
{
	json_object *found = NULL;

	for (size_t i = 0; i < out->n; i++) {
		json_object *o = out->v[i];

		if (!e2e_type_is(o, "frame_props") || e2e_int(o, "pid") != pid ||
		    e2e_int(o, "frame_vsync_id") != vsync ||
		    strtoull(e2e_str(o, "node"), NULL, 16) != node)
			continue;
		cr_assert_null(found, "two frame_props for vsync %d node %llx", vsync,
			       (unsigned long long)node);
		found = o;
	}
	return found;
}

/* The last changed value of (frame, node, property), and how many changes it had. */
static int expected_sets(const struct exp_proc *t, const struct exp_prop *x, float *last)
{
	int n = 0;

	for (int i = 0; i < t->n_props; i++) {
		const struct exp_prop *y = &t->props[i];

		if (y->changed && y->frame == x->frame && y->node == x->node &&
		    !strcmp(y->property, x->property)) {
			*last = y->value;
			n++;
		}
	}
	return n;
}

static void check_one_change(const struct e2e_jsonl *out, const struct exp_proc *t,
			     const struct exp_prop *x)
{
	json_object *fp = find_frame_props(out, t->pid, x->vsync, x->node), *v;
	float last = 0;
	int sets = expected_sets(t, x, &last);

	cr_assert_not_null(fp, "pid %d: no frame_props for vsync %d node %llx (%s)", t->pid,
			   x->vsync, (unsigned long long)x->node, x->property);
	cr_assert(json_object_get_boolean(e2e_get(fp, "in_frame")));
	v = e2e_get(e2e_get(fp, "values"), x->property);
	cr_assert_not_null(v, "vsync %d: no %s in %s", x->vsync, x->property,
			   json_object_to_json_string(fp));
	/* Both sides print floats with %.9g: equal as floats means bit-identical. */
	cr_assert((float)json_object_get_double(v) == last, "vsync %d %s: %.9g, want %.9g",
		  x->vsync, x->property, json_object_get_double(v), (double)last);
	cr_assert_eq(e2e_int(e2e_get(fp, "sets"), x->property), sets, "vsync %d %s", x->vsync,
		     x->property);
}

/* Every frame_props record of t stands for at least one changed setter call. */
static void check_no_extra_props(const struct e2e_jsonl *out, const struct exp_proc *t)
{
	for (size_t i = 0; i < out->n; i++) {
		json_object *o = out->v[i];
		int hits = 0;

		if (!e2e_type_is(o, "frame_props") || e2e_int(o, "pid") != t->pid)
			continue;
		for (int k = 0; k < t->n_props; k++)
			hits += t->props[k].changed &&
				t->props[k].vsync == e2e_int(o, "frame_vsync_id") &&
				t->props[k].node == strtoull(e2e_str(o, "node"), NULL, 16);
		cr_assert_gt(hits, 0, "a change the simulator did not make: %s",
			     json_object_to_json_string(o));
	}
}

/* An animator that drove a property names its node as target and goes first -> last. */
static void check_target(const struct e2e_jsonl *out, const struct exp_proc *t,
			 const struct exp_anim *a)
{
	const struct exp_prop *first = NULL, *last = NULL;
	json_object *r = NULL, *ch;

	for (int i = 0; i < t->n_props; i++)
		if (!strcmp(t->props[i].animator, a->name)) {
			first = first ? first : &t->props[i];
			last = t->props[i].changed ? &t->props[i] : last;
		}
	if (!first || !a->end_frame || !count_records(out, "animator_end", t->pid, a->cookie, &r))
		return;
	cr_assert_eq(strtoull(e2e_str(r, "target"), NULL, 16), first->node, "%s", a->name);
	cr_assert_str_eq(e2e_str(r, "target_source"), "inferred");
	ch = e2e_get(e2e_get(r, "changes"), first->property);
	cr_assert_not_null(ch, "%s: no change of %s", a->name, first->property);
	cr_assert((float)json_object_get_double(e2e_get(ch, "from")) == first->value, "%s from",
		  a->name);
	cr_assert((float)json_object_get_double(e2e_get(ch, "to")) == last->value, "%s to",
		  a->name);
}

void exp_check_props(const struct e2e_jsonl *out, const struct exp_proc *t)
{
	int changed = 0;

	for (int i = 0; i < t->n_props; i++)
		if (t->props[i].changed) {
			check_one_change(out, t, &t->props[i]);
			changed++;
		}
	cr_assert_gt(changed, 0, "pid %d: the simulator changed no property", t->pid);
	check_no_extra_props(out, t);
	for (int i = 0; i < t->n_anims; i++)
		check_target(out, t, &t->anims[i]);
}

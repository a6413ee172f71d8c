// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root): --annotate. The simulator runs while animtrace annotates, with
 * tracing on in the top-level tracefs instance; the kernel's trace after a start marker of
 * the test's own is replayed with animtrace --replay, and the annotations found there must
 * say exactly what the simulator did (its --expect file). The test saves and restores
 * tracing_on and buffer_size_kb and never clears the buffer. Then: tracefs unmounted under
 * a running animtrace --annotate (in its own mount namespace) is one warning, not the end.
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/mount.h>
#include <sys/stat.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"
#include "names.h"
#include "perfetto_rules.h"

#define BAR AT_ANNOT_SEP

#define TARGET "com.example.annotate"
#define TRACEFS "/sys/kernel/tracing"
#define BUFFER_KB "4096" /* per CPU: the run's markers, with room for other writers */

static char saved_on[32], saved_kb[32];

/*
 * The first number of path. A buffer never used yet reads "7 (expanded: 1408)": it grows to
 * 1408 at its first use, so that is what it is given back (writing 7 would keep it at 7).
 */
static void read_word(const char *path, char *buf, size_t cap)
{
	char *text = e2e_slurp(path), *exp = strstr(text, "(expanded: ");

	buf[0] = '\0';
	if (exp)
		snprintf(buf, cap, "%ld", atol(exp + strlen("(expanded: ")));
	else
		snprintf(buf, cap, "%ld", atol(text));
	if (!text[0])
		buf[0] = '\0';
	free(text);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, s, strlen(s));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* Restores what tracing_setup changed, whatever the test's outcome (the suite's .fini). */
static void tracing_restore(void)
{
	if (saved_kb[0])
		write_str(TRACEFS "/buffer_size_kb", saved_kb);
	if (saved_on[0])
		write_str(TRACEFS "/tracing_on", saved_on);
	saved_kb[0] = saved_on[0] = '\0';
}

static void fini(void)
{
	tracing_restore();
	e2e_teardown();
}

TestSuite(annotate, .init = e2e_setup, .fini = fini, .timeout = 180);

/* tracefs mounted where a fresh machine (or CI's namespace) has none: as animtrace does. */
static void ensure_tracefs(void)
{
	if (access(TRACEFS "/trace_marker", W_OK))
		mount("nodev", TRACEFS, "tracefs", 0, NULL);
	cr_assert_eq(access(TRACEFS "/trace_marker", W_OK), 0, "no writable %s/trace_marker",
		     TRACEFS);
}

static void tracing_setup(void)
{
	ensure_tracefs();
	read_word(TRACEFS "/tracing_on", saved_on, sizeof(saved_on));
	read_word(TRACEFS "/buffer_size_kb", saved_kb, sizeof(saved_kb));
	cr_assert(saved_on[0] && saved_kb[0], "cannot read tracing_on / buffer_size_kb");
	if (atol(saved_kb) < atol(BUFFER_KB))
		cr_assert_eq(write_str(TRACEFS "/buffer_size_kb", BUFFER_KB), 0);
	else
		saved_kb[0] = '\0'; /* big enough: nothing to restore */
	cr_assert_eq(write_str(TRACEFS "/tracing_on", "1"), 0);
}

/*
 * The trace after the line holding start (and the header lines before it) into path:
 * the run's part of the kernel buffer, whatever others wrote before.
 */
static void extract_after(const char *start, const char *path)
{
	char *text = e2e_slurp(TRACEFS "/trace"), *at = strstr(text, start);
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	cr_assert_not_null(at, "the start marker %s is not in %s/trace", start, TRACEFS);
	for (char *l = text; l < at && *l == '#'; l = strchr(l, '\n') + 1)
		fwrite(l, 1, strcspn(l, "\n") + 1, f);
	at = strchr(at, '\n');
	fputs(at ? at + 1 : "", f);
	fclose(f);
	free(text);
}

static int64_t scaled(const char *prop, float v)
{
	bool milli = !strcmp(prop, "alpha") || !strncmp(prop, "scale", 5) ||
		     !strncmp(prop, "rotation", 8);

	double x = milli ? (double)v * 1000.0 : (double)v;

	return (int64_t)(x < 0 ? x - 0.5 : x + 0.5); /* llround, without libm for this binary */
}

/* The annotations of pid with marker type and a name starting with prefix, in order. */
static int find_annots(const struct e2e_jsonl *j, int pid, const char *type, const char *prefix,
		       json_object **out, int max)
{
	int n = 0;

	for (size_t i = 0; i < j->n; i++) {
		json_object *o = j->v[i];

		if (!e2e_type_is(o, "annotation") || e2e_int(o, "pid") != pid ||
		    strcmp(e2e_str(o, "marker"), type) ||
		    strncmp(e2e_str(o, "name"), prefix, strlen(prefix)))
			continue;
		cr_assert_str_eq(e2e_str(o, "source"), "annotation");
		if (n < max)
			out[n] = o;
		n++;
	}
	return n;
}

/* One slice per animator that started (G ... H, cookie as id), one end instant per end. */
static void check_slices(const struct e2e_jsonl *j, const struct exp_proc *t)
{
	json_object *g[4], *h[64], *e[4];
	char prefix[64];

	for (int i = 0; i < t->n_anims; i++) {
		const struct exp_anim *a = &t->anims[i];

		snprintf(prefix, sizeof(prefix), "Anim" BAR "%lld" BAR, (long long)a->cookie);
		int ng = find_annots(j, t->pid, "G", prefix, g, 4);
		int ne = find_annots(j, t->pid, "N", prefix, e, 4);

		cr_assert_eq(ng, a->start_frame ? 1 : 0, "%s: %d slices", a->name, ng);
		/* the leaked one too: it ends when the process exits */
		cr_assert_eq(ne, 1, "%s: %d end instants", a->name, ne);
		if (ng)
			cr_assert_eq(e2e_int(g[0], "value"), a->cookie);
	}
	/* Every slice closed (the leaked animator's at exit), each by its own cookie. */
	int nh = find_annots(j, t->pid, "H", "", h, 64), want = 0;

	for (int i = 0; i < t->n_anims; i++)
		want += t->anims[i].start_frame != 0;
	cr_assert_eq(nh, want);
}

/* animator:alpha: its name, target and values, as the End box has them. */
static void check_alpha(const struct e2e_jsonl *j, const struct exp_proc *t)
{
	json_object *o[2];
	char want[160];

	cr_assert_eq(find_annots(j, t->pid, "G", "Anim" BAR "168950273" BAR, o, 2), 1);
	cr_assert_str_eq(e2e_str(o[0], "name"),
			 "Anim" BAR "168950273" BAR "Obj" BAR "?" BAR "alpha:?->?" BAR "?" BAR "?");
	cr_assert_str_eq(t->props[0].animator, "animator:alpha");
	snprintf(want, sizeof(want),
		 "Anim" BAR "168950273" BAR "Obj" BAR "%s@%04llx" BAR "alpha:1->0" BAR,
		 t->props[0].node_class, (unsigned long long)(t->props[0].node & 0xffff));
	cr_assert_eq(find_annots(j, t->pid, "N", "Anim" BAR "168950273" BAR, o, 2), 1);
	cr_assert(!strncmp(e2e_str(o[0], "name"), want, strlen(want)), "\"%s\" is not \"%s...\"",
		  e2e_str(o[0], "name"), want);
	cr_assert_not_null(strstr(e2e_str(o[0], "name"), BAR "end complete 18 frames "));
}

/* The simulator's last changed value of (node, prop) per frame, scaled, in frame order. */
static int expected_series(const struct exp_proc *t, uint64_t node, const char *prop, int64_t *v,
			   int max)
{
	int n = 0, frame = 0;

	for (int i = 0; i < t->n_props; i++) {
		const struct exp_prop *p = &t->props[i];

		if (p->node != node || strcmp(p->property, prop) || !p->changed)
			continue;
		if (p->frame != frame && n < max)
			n++;
		frame = p->frame;
		v[n - 1] = scaled(prop, p->value);
	}
	return n;
}

/* For each changed (node, property): one counter per frame, the simulator's values. */
static void check_counters(const struct e2e_jsonl *j, const struct exp_proc *t)
{
	json_object *c[64];
	int64_t want[64];
	char prefix[96];
	int checked = 0;

	for (int i = 0; i < t->n_props; i++) {
		const struct exp_prop *p = &t->props[i];
		bool first = true;

		for (int k = 0; k < i; k++)
			first &= !(t->props[k].node == p->node &&
				   !strcmp(t->props[k].property, p->property));
		if (!first)
			continue;
		int n = expected_series(t, p->node, p->property, want, 64);

		snprintf(prefix, sizeof(prefix), "V" BAR "%s@%04llx" BAR "%s", p->node_class,
			 (unsigned long long)(p->node & 0xffff), p->property);
		int got = find_annots(j, t->pid, "C", prefix, c, 64);

		cr_assert_eq(got, n, "%s: %d counter values, want %d", prefix, got, n);
		for (int k = 0; k < n; k++)
			cr_assert_eq(e2e_int(c[k], "value"), want[k],
				     "%s, value %d: %lld, want %lld", prefix, k,
				     (long long)e2e_int(c[k], "value"), (long long)want[k]);
		checked++;
	}
	cr_assert_geq(checked, 2, "alpha of node A and translationY of node B");
}

/* The replay counts the annotations and takes none of them for an animator or a frame. */
static void check_summary(const struct e2e_jsonl *j, const struct exp_proc *t)
{
	json_object *s = j->v[j->n - 1], *all[1];
	int started = 0, annots = 0, anim_records = 0;

	for (int i = 0; i < t->n_anims; i++)
		started += t->anims[i].start_frame != 0;
	for (size_t i = 0; i < j->n; i++) {
		if (e2e_type_is(j->v[i], "annotation"))
			annots++;
		if (e2e_type_is(j->v[i], "animator_start") && e2e_int(j->v[i], "pid") == t->pid)
			anim_records++;
	}
	cr_assert(e2e_type_is(s, "summary"));
	cr_assert_eq(anim_records, started, "app animators: %d, want %d", anim_records, started);
	cr_assert_eq(e2e_int(s, "annotations"), annots);
	cr_assert_gt(find_annots(j, t->pid, "C", "V" BAR, all, 1), 0);
	cr_assert_eq(e2e_int(s, "markers_rejected"), 0);
}

/* ---- the markers as Perfetto reads them --------------------------------------------- */

struct counted {
	int g, n, h, c, springs, flings, findings, dyn_g, dyn_n;
};

/* The live run's record of type for pid with "id" id; fails when there is none. */
static json_object *find_rec(const struct e2e_jsonl *live, const char *type, int pid, int64_t id)
{
	for (size_t i = 0; i < live->n; i++)
		if (e2e_type_is(live->v[i], type) && e2e_int(live->v[i], "pid") == pid &&
		    e2e_int(live->v[i], "id") == id)
			return live->v[i];
	cr_assert_fail("no %s record of id %lld", type, (long long)id);
	return NULL;
}

static bool is_unmarked(const struct animname *n)
{
	return n->kind != ANIMNAME_ANIM || !strcmp(n->type, "Unmarked");
}

/*
 * An N "finding: <kind> #<id>,...: <text>" (sinks/annotate.h): one of the live run's finding
 * records, its kind, ids and sentence ('|' written '/'), whole.
 */
static void check_finding(const struct e2e_jsonl *live, int pid, const char *name)
{
	char want[2 * ANIMNAME_MAX];

	for (size_t i = 0; i < live->n; i++) {
		json_object *f = live->v[i], *ids;
		size_t len;

		if (!e2e_type_is(f, "finding") || e2e_int(f, "pid") != pid)
			continue;
		ids = e2e_get(f, "ids");
		len = (size_t)snprintf(
			want, sizeof(want), "finding: %s%s", e2e_str(f, "kind"),
			json_object_get_boolean(e2e_get(f, "unmarked")) ? " animation" : "");
		for (size_t k = 0; k < json_object_array_length(ids) && len < sizeof(want); k++)
			len += (size_t)snprintf(want + len, sizeof(want) - len, "%s#%lld",
						k ? "," : " ",
						(long long)json_object_get_int64(
							json_object_array_get_idx(ids, k)));
		if (len < sizeof(want))
			snprintf(want + len, sizeof(want) - len, ": %s", e2e_str(f, "text"));
		for (char *c = want; *c; c++)
			*c = *c == '|' ? '/' : *c;
		if (!strcmp(want, name))
			return;
	}
	cr_assert_fail("no finding record reads \"%s\"", name);
}

/* A G: the start's name, its cookie (an unmarked animation's past 2^32). */
static void check_begin(const struct e2e_jsonl *live, int pid, const struct pf_point *p,
			const char *name)
{
	struct animname n = names_parse(name, false);

	if (p->value >= (2LL << 32)) { /* a DynamicAnimation the probes followed */
		cr_assert_eq(p->value, (2LL << 32) + n.id, "%s", name);
		find_rec(live, "dyn_start", pid, n.id);
		return;
	}

	if (is_unmarked(&n)) {
		json_object *st = find_rec(live, "animation_start", pid, n.id);

		cr_assert_eq(p->value, (1LL << 32) + n.id, "%s", name);
		cr_assert_str_eq(n.target, e2e_str(st, "node_name"), "%s", name);
		return;
	}
	cr_assert_eq(p->value, n.id, "%s", name);
	names_check_anim_start(name, find_rec(live, "animator_start", pid, n.id));
}

/* An N: the whole name against the end record, then "¦end <reason> <n> frames <n> dropped". */
static void check_end(const struct e2e_jsonl *live, int pid, const char *name, struct counted *c)
{
	struct animname n;
	int r = animname_parse(name, strlen(name), &n);
	char seed[ANIMNAME_MAX], tail[160];
	json_object *end;

	cr_assert_gt(r, 0, "%s", name);
	snprintf(seed, sizeof(seed), "%.*s", r, name);
	if (strlen(name) > 7 && !strcmp(name + strlen(name) - 7, " probed")) {
		end = find_rec(live, "dyn_end", pid, n.id);
		names_check_dyn_end(seed, end);
		snprintf(tail, sizeof(tail), BAR "end %s %lld frames probed",
			 e2e_str(end, "reason"), (long long)e2e_int(end, "frames"));
		cr_assert_str_eq(name + r, tail);
		c->dyn_n++;
		return;
	}
	if (is_unmarked(&n)) {
		end = find_rec(live, "animation_end", pid, n.id);
		names_check_animation_end(seed, end);
		c->springs += n.kind == ANIMNAME_SPRING;
		c->flings += n.kind == ANIMNAME_FLING;
	} else {
		end = find_rec(live, "animator_end", pid, n.id);
		names_check_anim_end(seed, end);
	}
	snprintf(tail, sizeof(tail), BAR "end %s %lld frames %lld dropped", e2e_str(end, "reason"),
		 (long long)e2e_int(end, "frames"), (long long)e2e_int(end, "frames_dropped"));
	cr_assert_str_eq(name + r, tail);
}

/*
 * Every marker animtrace wrote for pid into the capture, read with Perfetto's rules: each parses,
 * each G and N name is whole (no '|' cut it) and reads back to the live run's JSON records.
 */
static struct counted check_capture(const char *cap, int pid, const struct e2e_jsonl *live)
{
	static const char tag[] = "tracing_mark_write: ";
	char *text = e2e_slurp(cap), *save = NULL, name[2 * ANIMNAME_MAX];
	struct counted c = { 0 };

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *payload = strstr(l, tag);
		struct pf_point p;

		if (!payload)
			continue;
		payload += strlen(tag);
		if (pf_parse(payload, strlen(payload), &p) != PF_SUCCESS || p.tgid != (uint32_t)pid)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)p.name.len, p.name.p);
		if (p.phase == 'C' && !strncmp(name, "V" BAR, strlen("V" BAR))) {
			cr_assert_eq(names_parse(name, false).kind, ANIMNAME_COUNTER, "%s", name);
			c.c++;
		}
		if (!(p.track.len == strlen(AT_ANNOT_TRACK) &&
		      !memcmp(p.track.p, AT_ANNOT_TRACK, p.track.len)))
			continue;
		if (p.phase == 'G') {
			check_begin(live, pid, &p, name);
			c.g += p.value < (2LL << 32);
			c.dyn_g += p.value >= (2LL << 32);
		} else if (p.phase == 'N' && !strncmp(name, "finding: ", 9)) {
			check_finding(live, pid, name);
			c.findings++;
		} else if (p.phase == 'N' && strncmp(name, "Jank ", 5)) {
			check_end(live, pid, name, &c);
			c.n++;
		} else if (p.phase == 'H') {
			c.h++;
		}
	}
	free(text);
	return c;
}

/* Records of type for pid in the live run. */
static int count_recs(const struct e2e_jsonl *live, const char *type, int pid)
{
	int n = 0;

	for (size_t i = 0; i < live->n; i++)
		n += e2e_type_is(live->v[i], type) && e2e_int(live->v[i], "pid") == pid;
	return n;
}

Test(annotate, a_capture_taken_meanwhile_holds_the_annotations_and_replays_them_as_such)
{
	char name[E2E_NAME_MAX], go[PATH_MAX];
	char out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX], cap[PATH_MAX], rep[PATH_MAX];
	char start[96], pidpat[32];
	const char *args[] = { "--proc",
			       name,
			       "--annotate",
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	const char *sim[] = {
		E2E_ANIMSIM, "--name", name, "--go", go, "--expect", e2e_path(ex, "e.jsonl"), NULL
	};
	const char *replay[] = {
		E2E_ANIMTRACE, "--replay", e2e_path(cap, "capture.txt"),  "--format",
		"json",	       "-o",	   e2e_path(rep, "replay.jsonl"), NULL
	};
	struct exp_proc procs[2];
	struct e2e_jsonl j, live;
	struct counted counted;

	tracing_setup();
	snprintf(start, sizeof(start), "animtrace-e2e-annotate-start-%d-%ld", getpid(),
		 (long)time(NULL));
	cr_assert_eq(write_str(TRACEFS "/trace_marker", start), 0);
	e2e_name(name, TARGET);
	e2e_path(go, "go");
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	pid_t b = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(b, name);

	e2e_release(err, at, app, E2E_PROPS | E2E_ART, go);

	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", app);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":24,", NULL);
	cr_assert_eq(e2e_exit_code(b, "animsim"), 0);
	e2e_await(err, at, "exited", NULL); /* its leaked animator's end is annotated */
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	extract_after(start, cap);
	tracing_restore();
	cr_assert_eq(e2e_exit_code(e2e_spawn(replay, NULL), "animtrace --replay"), 0);
	cr_assert_eq(exp_load(ex, procs, 2), 1);
	cr_assert_eq(procs[0].pid, app);
	e2e_jsonl_load(&live, out);
	counted = check_capture(cap, app, &live);
	/* each finding (the basic scenario has at least its conflict) an instant of its own */
	cr_assert_gt(counted.findings, 0);
	cr_assert_eq(counted.findings, count_recs(&live, "finding", app), "%d findings",
		     counted.findings);
	e2e_jsonl_free(&live);
	/* a G and an H per animator that started, an N per animator; the alpha of node A and the
	 * translationY of node B in frames 2..18 */
	int started = 0;

	for (int i = 0; i < procs[0].n_anims; i++)
		started += procs[0].anims[i].start_frame != 0;
	cr_assert_eq(counted.g, started, "%d G, %d started", counted.g, started);
	cr_assert_eq(counted.h, started, "%d H, %d started", counted.h, started);
	cr_assert_eq(counted.n, procs[0].n_anims, "%d N", counted.n);
	cr_assert_eq(counted.c, 2 * 17, "%d C", counted.c);
	e2e_jsonl_load(&j, rep);
	check_slices(&j, &procs[0]);
	check_alpha(&j, &procs[0]);
	check_counters(&j, &procs[0]);
	check_summary(&j, &procs[0]);
	e2e_jsonl_free(&j);
	char *text = e2e_slurp(err);

	cr_assert_null(strstr(text, "warning"), "%s", text);
	cr_assert_not_null(strstr(text, "animtrace: annotations: "), "no delay line in:\n%s", text);
	free(text);
}

/*
 * The physics scenario (a spring, a fling, a fade; no ART probes): the unmarked spring and fling
 * are slices of their own in the capture, named Spring¦ and Fling¦ with the parameters of their
 * animation_end records, and every name reads as Perfetto reads it.
 */
Test(annotate, springs_and_flings_are_annotated_with_the_seeds_names)
{
	char name[E2E_NAME_MAX], go[PATH_MAX], out[PATH_MAX], err[PATH_MAX], cap[PATH_MAX];
	char start[96];
	const char *args[] = { "--proc",
			       name,
			       "--annotate",
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name", name,   "--scenario", "physics", "--frames",
			      "90",	   "--art",  "none", "--go",	   go,	      NULL };
	struct e2e_jsonl live;
	struct counted c;

	tracing_setup();
	snprintf(start, sizeof(start), "animtrace-e2e-annotate-physics-%d-%ld", getpid(),
		 (long)time(NULL));
	cr_assert_eq(write_str(TRACEFS "/trace_marker", start), 0);
	e2e_name(name, "com.example.annotphys");
	e2e_path(go, "go");
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	pid_t s = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(s, name);

	e2e_release(err, at, app, E2E_PROPS, go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	extract_after(start, e2e_path(cap, "capture.txt"));
	tracing_restore();
	e2e_jsonl_load(&live, out);
	c = check_capture(cap, app, &live);
	cr_assert_eq(count_recs(&live, "animation_end", app), 2);
	cr_assert_eq(c.springs, 1);
	cr_assert_eq(c.flings, 1);
	cr_assert_eq(c.g, count_recs(&live, "animation_start", app) +
				  count_recs(&live, "animator_start", app));
	cr_assert_eq(c.h, c.g);
	cr_assert_eq(c.n, count_recs(&live, "animation_end", app) +
				  count_recs(&live, "animator_end", app));
	e2e_jsonl_free(&live);
}

/*
 * The dyn scenario (springs and flings followed by the ART probes, issue #25): each is a slice
 * of its own on the track, cookie past 2^33, its N named Spring¦/Fling¦ with the parameters of
 * its dyn_end record, read as Perfetto reads it.
 */
Test(annotate, followed_springs_and_flings_are_annotated_with_the_seeds_names)
{
	char name[E2E_NAME_MAX], go[PATH_MAX], out[PATH_MAX], err[PATH_MAX], cap[PATH_MAX];
	char start[96], gate[PATH_MAX], pat[128];
	const char *args[] = { "--proc",
			       name,
			       "--annotate",
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",	  name, "--scenario", "dyn", "--frames",
			      "110",	   "--late-gate", gate, "--go",	      go,    NULL };
	struct e2e_jsonl live;
	struct counted c;

	tracing_setup();
	snprintf(start, sizeof(start), "animtrace-e2e-annotate-dyn-%d-%ld", getpid(),
		 (long)time(NULL));
	cr_assert_eq(write_str(TRACEFS "/trace_marker", start), 0);
	e2e_name(name, "com.example.annotdyn");
	e2e_path(go, "go");
	cr_assert_eq(mkdir(e2e_path(gate, "gate"), 0755), 0);
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	pid_t s = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(s, name);

	e2e_release(err, at, app, E2E_PROPS | E2E_ART, go);
	snprintf(pat, sizeof(pat), "animtrace: pid %d: DynamicAnimation probes in ", app);
	e2e_await(err, at, pat, "boot-framework.oat (6 of 6 methods)", NULL);
	e2e_gate(gate, "load");
	e2e_await(err, at, pat, "base.odex (6 of 6 methods)", NULL);
	e2e_gate(gate, "go");
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	extract_after(start, e2e_path(cap, "capture.txt"));
	tracing_restore();
	e2e_jsonl_load(&live, out);
	c = check_capture(cap, app, &live);
	cr_assert_eq(count_recs(&live, "dyn_end", app), 4, "the four probed runs");
	cr_assert_eq(c.dyn_g, count_recs(&live, "dyn_start", app));
	cr_assert_eq(c.dyn_n, 4);
	cr_assert_eq(c.h, c.g + c.dyn_g);
	e2e_jsonl_free(&live);
}

/* ---- tracefs unmounted during the run ----------------------------------------------- */

#define UMNT_TARGET "com.example.annotumount"
#define STOPPED "animtrace: warning: annotations stopped: " TRACEFS "/trace_marker: "

static int count_of(const char *text, const char *s)
{
	int n = 0;

	for (const char *p = strstr(text, s); p; p = strstr(p + 1, s))
		n++;
	return n;
}

Test(annotate, tracefs_unmounted_under_a_running_animtrace_is_one_warning_and_tracing_goes_on)
{
	char name[E2E_NAME_MAX], go[PATH_MAX];
	char out[PATH_MAX], err[PATH_MAX], atpid[16], pidpat[32];
	const char *argv[] = { "/usr/bin/unshare",
			       "-m",
			       "--propagation",
			       "private",
			       E2E_ANIMTRACE,
			       "--proc",
			       name,
			       "--annotate",
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name", name, "--go", go, NULL };

	ensure_tracefs();
	/* unshare execs animtrace: this pid is animtrace's, in a mount namespace of its own */
	e2e_name(name, UMNT_TARGET);
	e2e_path(go, "go");
	pid_t at = e2e_spawn(argv, &(struct e2e_spawn){ .err = e2e_path(err, "err.txt") });

	e2e_await(err, at, "animtrace: ready", NULL);
	snprintf(atpid, sizeof(atpid), "%d", at);
	/* Lazy: animtrace holds trace_marker open; the machine's own mount is untouched. */
	const char *umnt[] = { "/usr/bin/nsenter", "-t", atpid,	  "-m", "--",
			       "/bin/umount",	   "-l", TRACEFS, NULL };

	cr_assert_eq(e2e_exit_code(e2e_spawn(umnt, NULL), "umount in animtrace's namespace"), 0);
	e2e_await(err, at, STOPPED, NULL);
	pid_t b = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(b, name);

	e2e_release(err, at, app, E2E_PROPS | E2E_ART, go);

	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", app);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":24,", NULL);
	cr_assert_eq(e2e_exit_code(b, "animsim"), 0);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	char *text = e2e_slurp(err);

	cr_assert_eq(count_of(text, STOPPED), 1, "%s", text);
	cr_assert_not_null(strstr(text, STOPPED "No such file or directory; tracing goes on\n"),
			   "%s", text);
	free(text);
	cr_assert_eq(access(TRACEFS "/trace_marker", F_OK), 0,
		     "the test's own namespace lost its tracefs");
}

/* ---- no feedback loop ---------------------------------------------------------------- */

#define ALL_TARGET "com.example.annotall"

Test(annotate, tracing_every_process_animtrace_never_reads_back_its_own_annotations)
{
	char out[PATH_MAX], err[PATH_MAX], pidpat[32];
	const char *args[] = {
		"--annotate",	     "--format", "json", "-o", e2e_path(out, "out.jsonl"),
		"--no-atrace-setup", NULL
	};
	const char *sim[] = { E2E_ANIMSIM, "--name", ALL_TARGET, NULL };
	struct e2e_jsonl j;

	ensure_tracefs();
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	pid_t b = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(b, ALL_TARGET);

	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", app);
	e2e_await(out, at, "{\"type\":\"animator_end\"", pidpat, "\"name\":\"animator:alpha\"",
		  NULL);
	cr_assert_eq(e2e_exit_code(b, "animsim"), 0);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	e2e_jsonl_load(&j, out);
	json_object *s = j.v[j.n - 1], *d;

	cr_assert(e2e_type_is(s, "summary"));
	cr_assert(!json_object_object_get_ex(s, "annotations", NULL), "read back: %s",
		  json_object_to_json_string(s));
	for (size_t i = 0; i < j.n; i++)
		cr_assert(!e2e_type_is(j.v[i], "annotation"), "%s",
			  json_object_to_json_string(j.v[i]));
	d = e2e_get(s, "annotation_delay_ns");
	cr_assert_geq(e2e_int(d, "count"), 2, "the alpha animator's start and end at least");
	cr_assert(e2e_int(d, "p50") <= e2e_int(d, "p99") && e2e_int(d, "p99") <= e2e_int(d, "max"));
	e2e_jsonl_free(&j);
}

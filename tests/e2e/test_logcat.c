// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Live end-to-end (root), --logcat (issue 33): the simulator's refresh scenario (animators,
 * property frames, redraws, a refresh storm) traced with --refresh --stacks -F into a box file
 * and --logcat into a fake logd (tests/logd/fakelogd: its own decoder of liblog's datagrams),
 * through ANIMTRACE_LOGDW. Every entry must be the box output's text under the seed's tag and
 * priority, in order, whole once its parts are rejoined (tests/logd/logcheck.h). The flood
 * case: a fake logd whose queue holds 4 datagrams and that reads none until animtrace has
 * exited; what it did not receive is exactly what animtrace says logd refused.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "logd/logcheck.h"

#define TARGET "com.example.logcat"
#define FAKELOGD BUILD_DIR "/tests/fakelogd"

TestSuite(logcat, .init = e2e_setup, .fini = e2e_teardown, .timeout = 180);

struct run {
	char box[PATH_MAX], err[PATH_MAX], logd[PATH_MAX], text[PATH_MAX], hold[PATH_MAX];
	pid_t logd_pid;
};

/* The fake logd at tempdir/logdw; qlen: its queue; hold: it reads nothing until r->hold. */
static void start_logd(struct run *r, const char *qlen, bool hold)
{
	char sock[PATH_MAX], out[PATH_MAX];
	const char *argv[] = { FAKELOGD,   sock,   r->logd,  "--qlen", qlen,
			       "--rcvbuf", "2048", "--hold", r->hold,  NULL };

	e2e_path(sock, "logdw");
	e2e_path(r->logd, "logd.txt");
	e2e_path(r->hold, "hold");
	if (!hold)
		e2e_go(r->hold);
	r->logd_pid = e2e_spawn(argv, &(struct e2e_spawn){ .out = e2e_path(out, "logd.out") });
	e2e_await(out, r->logd_pid, "fakelogd: ready", NULL);
}

/* The refresh scenario under animtrace --logcat (and rate, and --logcat-out when text). */
static void run_scenario(struct run *r, const char *rate, bool text)
{
	char name[E2E_NAME_MAX], go[PATH_MAX], sock[PATH_MAX], env[PATH_MAX + 32];
	const char *args[] = { "--proc",   name,
			       "-o",	   r->box,
			       "-F",	   "--refresh",
			       "--stacks", "--no-atrace-setup",
			       "--logcat", "--logcat-rate",
			       rate,	   text ? "--logcat-out" : NULL,
			       r->text,	   NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name", name,   "--scenario", "refresh",
			      "--frames",  "95",     "--go", go,	   NULL };
	const char *add[] = { env, "LC_ALL=C.UTF-8", NULL }; /* boxes drawn as logcat's are */
	pid_t at, s;

	e2e_name(name, TARGET);
	e2e_path(go, "go");
	e2e_path(r->box, "box.txt");
	e2e_path(r->text, "logcat.txt");
	snprintf(env, sizeof(env), "ANIMTRACE_LOGDW=%s", e2e_path(sock, "logdw"));
	at = e2e_animtrace(args, e2e_path(r->err, "err.txt"),
			   &(struct e2e_spawn){ .env = e2e_env(add) });
	s = e2e_spawn(sim, NULL);
	e2e_release(r->err, at, e2e_find_child(s, name), E2E_PROPS | E2E_ART, NULL);
	e2e_await(r->err, at, "frame requests from", NULL);
	e2e_go(go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	e2e_await(r->err, at, "exited", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
}

static void stop_logd(struct run *r)
{
	e2e_go(r->hold);
	kill(r->logd_pid, SIGTERM);
	cr_assert_eq(e2e_exit_code(r->logd_pid, "fakelogd"), 0);
}

/* "logcat: N messages written (...), R refused by logd" from animtrace's stderr. */
static void written_refused(const char *err, unsigned long long *n, unsigned long long *r)
{
	const char *p = strstr(err, "logcat: ");

	cr_assert(p && sscanf(p,
			      "logcat: %llu messages written (%*u entries in parts), %llu "
			      "refused by logd",
			      n, r) == 2,
		  "%s", err);
}

static size_t count_lines_starting(const char *text, const char *prefix)
{
	size_t n = 0;

	for (const char *p = text; *p;) {
		n += !strncmp(p, prefix, strlen(prefix));
		p = strchr(p, '\n');
		p = p ? p + 1 : "";
	}
	return n;
}

/* ViewRefresh entries the box output's frame lines call for: a View each, a "(+N)", and one
 * for the vsync requests of a frame that made some. */
static size_t refresh_entries(const char *box)
{
	size_t n = 0;

	for (const char *p = box; (p = strstr(p, "│ frame ")); p++) {
		const char *end = strchr(p, '\n'), *r = strstr(p, " redrawn:");

		if (r && r < end)
			for (n++; (r = strchr(r, ',')) && r < end; r++)
				n++;
		r = strstr(p, " (+");
		n += r && r < end;
		r = strstr(p, " vsync requests: ");
		n += r && r < end;
	}
	return n;
}

/* Frame lines with node lines under them: the ViewPropTrace batches. */
static size_t batches(const char *box)
{
	size_t n = 0;

	for (const char *p = box; (p = strstr(p, "│ frame ")); p++) {
		const char *end = strchr(p, '\n');

		n += end && !strncmp(end + 1, "│   ", strlen("│   "));
	}
	return n;
}

Test(logcat, every_record_reaches_logd_under_the_seeds_tags_as_the_boxes_print_it)
{
	struct run r;
	struct lc_log log = { 0 };
	struct lc_counts c;
	unsigned long long n, refused;
	char *box, *err;

	start_logd(&r, "2400", false); /* Android's init.rc queue */
	run_scenario(&r, "0", false);
	stop_logd(&r);
	box = e2e_slurp(r.box);
	err = e2e_slurp(r.err);
	lc_parse_fakelogd(&log, e2e_slurp(r.logd));
	cr_assert_eq(log.bad, 0, "%s", log.why);
	written_refused(err, &n, &refused);
	cr_assert_eq(refused, 0, "%s", err);
	cr_assert_eq(n, log.n, "animtrace wrote %llu, the fake logd read %zu", n, log.n);
	lc_rejoin(&log);
	cr_assert_eq(log.bad, 0, "%s", log.why);
	lc_check(&log, box, &c);
	cr_assert_eq(c.failed, 0, "%s", c.why);
	cr_assert_eq(c.boxes, lc_count_boxes(box), "boxes: %zu in logcat, %zu printed", c.boxes,
		     lc_count_boxes(box));
	cr_assert_gt(c.boxes, 4);
	cr_assert_eq(c.targets, count_lines_starting(box, "│ Target: #"));
	cr_assert_eq(c.batches, batches(box));
	cr_assert_gt(c.batches, 30);
	cr_assert_eq(c.refresh, refresh_entries(box));
	cr_assert_gt(c.refresh, 45); /* the storm's 45 frames redraw and ask for a vsync each */
	cr_assert_eq(c.limited, 0);
	/* the storm's box under ViewRefresh, its stack in it */
	cr_assert(strstr(box, "RequestedBy:"));
	lc_free(&log);
}

Test(logcat, what_a_full_logd_refused_is_counted_exactly_and_the_rest_arrives_whole)
{
	struct run r;
	struct lc_log got = { 0 }, all = { 0 };
	unsigned long long n, refused;
	size_t j = 0;

	start_logd(&r, "4", true);
	run_scenario(&r, "0", true);
	stop_logd(&r);
	written_refused(e2e_slurp(r.err), &n, &refused);
	lc_parse_fakelogd(&got, e2e_slurp(r.logd));
	lc_parse_threadtime(&all, e2e_slurp(r.text));
	cr_assert_eq(got.bad + all.bad, 0, "%s%s", got.why, all.why);
	cr_assert_gt(refused, 0);
	cr_assert_eq(n, got.n, "written %llu, received %zu", n, got.n);
	cr_assert_eq(n + refused, all.n, "written %llu + refused %llu, messages %zu", n, refused,
		     all.n);
	/* what arrived is what was written, in order, each message whole */
	for (size_t i = 0; i < got.n; i++) {
		while (j < all.n && strcmp(all.e[j].msg, got.e[i].msg))
			j++;
		cr_assert_lt(j, all.n, "received but not written: %.200s", got.e[i].msg);
		cr_assert_str_eq(all.e[j].tag, got.e[i].tag);
		j++;
	}
	lc_free(&got);
	lc_free(&all);
}

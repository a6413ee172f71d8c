// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* --replay end-to-end through the binary, on real captures (../shared/testdata/traces). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "e2e.h"

#define ANTUTU TESTDATA "/traces/antutu-2018.ftrace.txt"
#define ANTUTU_HTML TESTDATA "/traces/antutu-2018.systrace.html"
#define FLYME TESTDATA "/traces/flyme-launcher-scroll-2019.ftrace.txt"

TestSuite(replay_cli, .init = e2e_setup, .fini = e2e_teardown, .timeout = 120);

/* animtrace --replay file <opt> <sel> --format json -o <tmp>/name; status 0. */
static char *replay(const char *file, const char *opt, const char *sel, const char *name, char *out)
{
	char err[PATH_MAX];
	const char *argv[] = { E2E_ANIMTRACE, "--replay", file,
			       opt,	      sel,	  "--format",
			       "json",	      "-o",	  e2e_path(out, name),
			       NULL };
	pid_t pid = e2e_spawn(argv, &(struct e2e_spawn){ .err = e2e_path(err, "err.txt") });
	int code = e2e_exit_code(pid, "animtrace --replay");
	char *text = e2e_slurp(err);

	cr_assert_eq(code, 0, "%s %s %s: stderr:\n%s", file, opt, sel, text);
	free(text);
	return out;
}

/* The animator_end lines of a JSON lines file, as one string, for exact comparisons. */
static char *end_lines(const char *path)
{
	char *text = e2e_slurp(path), *save = NULL, *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (!strncmp(l, "{\"type\":\"animator_end\"", 22))
			fprintf(m, "%s\n", l);
	fclose(m);
	free(text);
	return buf;
}

static int count_ends(const struct e2e_jsonl *j, const char *name)
{
	int n = 0;

	for (size_t i = 0; i < j->n; i++)
		n += e2e_type_is(j->v[i], "animator_end") &&
		     (!name || !strcmp(e2e_str(j->v[i], "name"), name));
	return n;
}

Test(replay_cli, antutu_by_pid_gives_16_animator_ends_4_of_each_name)
{
	char out[PATH_MAX];
	struct e2e_jsonl j;

	e2e_jsonl_load(&j, replay(ANTUTU, "--pid", "24675", "pid.jsonl", out));
	cr_assert_eq(count_ends(&j, NULL), 16);
	cr_assert_eq(count_ends(&j, "animator"), 4);
	cr_assert_eq(count_ends(&j, "animator:alpha"), 4);
	cr_assert_eq(count_ends(&j, "animator:scaleX"), 4);
	cr_assert_eq(count_ends(&j, "animator:scaleY"), 4);
	for (size_t i = 0; i < j.n; i++)
		if (e2e_type_is(j.v[i], "animator_end")) {
			cr_assert_eq(e2e_int(j.v[i], "pid"), 24675);
			cr_assert_str_eq(e2e_str(j.v[i], "process"), "tutu.ABenchMark");
		}
	cr_assert(e2e_type_is(j.v[j.n - 1], "summary"));
	e2e_jsonl_free(&j);
}

Test(replay_cli, antutu_by_name_and_the_systrace_html_give_the_same_16_ends_as_by_pid)
{
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX];
	char *by_pid = end_lines(replay(ANTUTU, "--pid", "24675", "pid.jsonl", a));
	char *by_name = end_lines(replay(ANTUTU, "--proc", "tutu.ABenchMark", "name.jsonl", b));
	char *html = end_lines(replay(ANTUTU_HTML, "--pid", "24675", "html.jsonl", c));
	struct e2e_jsonl j;

	e2e_jsonl_load(&j, b);
	cr_assert_eq(count_ends(&j, NULL), 16);
	cr_assert_str_eq(by_name, by_pid);
	cr_assert_str_eq(html, by_pid);
	e2e_jsonl_free(&j);
	free(by_pid);
	free(by_name);
	free(html);
}

Test(replay_cli, flyme_launcher_by_pid_gives_4_animators_with_their_exact_durations)
{
	static const int64_t want[] = { 25000, 213512000, 197953000, 166945000 };
	char out[PATH_MAX];
	struct e2e_jsonl j;
	int k = 0, long_ones = 0;

	e2e_jsonl_load(&j, replay(FLYME, "--pid", "27619", "pid.jsonl", out));
	cr_assert_eq(count_ends(&j, "animator"), 4);
	cr_assert_eq(count_ends(&j, NULL), 4);
	for (size_t i = 0; i < j.n; i++) {
		int64_t d;

		if (!e2e_type_is(j.v[i], "animator_end"))
			continue;
		d = e2e_int(j.v[i], "duration_ns");
		cr_assert_eq(d, want[k], "animator_end %d: %lld ns", k, (long long)d);
		long_ones += d >= 160000000 && d <= 220000000;
		k++;
	}
	cr_assert_eq(long_ones, 3);
	e2e_jsonl_free(&j);
}

Test(replay_cli, flyme_launcher_by_its_package_name_matches_the_15_char_comm)
{
	char a[PATH_MAX], b[PATH_MAX];
	char *by_pid = end_lines(replay(FLYME, "--pid", "27619", "pid.jsonl", a));
	char *by_name =
		end_lines(replay(FLYME, "--proc", "com.meizu.flyme.launcher", "name.jsonl", b));

	cr_assert_neq(strlen(by_pid), 0u);
	cr_assert_str_eq(by_name, by_pid);
	free(by_pid);
	free(by_name);
}

Test(replay_cli, a_capture_without_task_names_asks_for_pid_when_given_proc)
{
	char cap[PATH_MAX], err[PATH_MAX];
	FILE *f = fopen(e2e_path(cap, "anon.txt"), "w");

	cr_assert_not_null(f);
	fputs("# tracer: nop\n"
	      "  <...>-100   [000] .... 100.000000: tracing_mark_write: S|100|animator:alpha|7\n"
	      "  <...>-100   [000] .... 100.100000: tracing_mark_write: F|100|animator:alpha|7\n",
	      f);
	fclose(f);
	const char *argv[] = { E2E_ANIMTRACE, "--replay", cap, "--proc", "com.foo", NULL };
	pid_t pid = e2e_spawn(argv, &(struct e2e_spawn){ .err = e2e_path(err, "err.txt") });
	char *text;

	cr_assert_eq(e2e_exit_code(pid, "animtrace --replay"), 1);
	text = e2e_slurp(err);
	cr_assert_not_null(strstr(text, "<...>"), "stderr:\n%s", text);
	cr_assert_not_null(strstr(text, "--pid"), "stderr:\n%s", text);
	free(text);

	char out[PATH_MAX];
	struct e2e_jsonl j;

	e2e_jsonl_load(&j, replay(cap, "--pid", "100", "pid.jsonl", out));
	cr_assert_eq(count_ends(&j, "animator:alpha"), 1, "--pid works on the same capture");
	e2e_jsonl_free(&j);
}

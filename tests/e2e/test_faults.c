// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * End-to-end faults: no root, a pid that does not exist, bad arguments, and an output pipe
 * whose reader goes away while a traced app is running.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "e2e.h"

#define TARGET "com.example.anim"
#define NOBODY 65534

TestSuite(faults, .init = e2e_setup, .fini = e2e_teardown, .timeout = 120);

/* Runs animtrace with args to completion; its stderr is left in err. */
static int run(const char *const args[], const char *err, uid_t uid)
{
	const char *argv[16] = { E2E_ANIMTRACE };
	int n = 1;

	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	return e2e_exit_code(e2e_spawn(argv, &(struct e2e_spawn){ .err = err, .uid = uid }),
			     "animtrace");
}

static void check_stderr(const char *err, const char *want)
{
	char *text = e2e_slurp(err);

	cr_assert_not_null(strstr(text, want), "no \"%s\" in stderr:\n%s", want, text);
	free(text);
}

Test(faults, an_unprivileged_user_gets_status_1_and_is_told_it_needs_root)
{
	char err[PATH_MAX];
	const char *args[] = { "--proc", TARGET, "--no-atrace-setup", "--duration", "5", NULL };

	cr_assert_eq(run(args, e2e_path(err, "err.txt"), NOBODY), 1);
	check_stderr(err, "needs root");
}

Test(faults, a_pid_that_does_not_exist_is_reported_as_no_such_process)
{
	char err[PATH_MAX];
	const char *args[] = { "--pid", "999999999", "--no-atrace-setup", "--duration", "1",
			       "--format", "json", NULL };

	/* Nothing can ever match: it says so and exits at once, as an error. */
	cr_assert_eq(run(args, e2e_path(err, "err.txt"), 0), 1);
	check_stderr(err, "animtrace: pid 999999999: no such process\n");
}

static void bad_args(const char *opt, const char *val, const char *want)
{
	char err[PATH_MAX];
	const char *args[] = { opt, val, "--no-atrace-setup", "--duration", "1", NULL };

	int code = run(args, e2e_path(err, "err.txt"), 0);

	cr_assert_eq(code, 2, "%s '%s': exit status %d, want 2", opt, val, code);
	check_stderr(err, want);
}

Test(faults, format_xml_is_refused_with_status_2)
{
	bad_args("--format", "xml", "'xml'");
}

Test(faults, a_negative_duration_is_refused_with_status_2)
{
	bad_args("--duration", "-1", "'-1'");
}

Test(faults, a_pid_that_is_not_a_number_is_refused_with_status_2)
{
	bad_args("--pid", "abc", "abc");
}

Test(faults, an_empty_process_name_is_refused_with_status_2)
{
	bad_args("--proc", "", "empty process name");
}

/* Reads until one whole line came through the pipe. */
static void read_a_line(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[4096];

	for (int waited = 0; waited < E2E_WAIT_MS; waited += 100) {
		int r = poll(&pfd, 1, 100);
		ssize_t n;

		if (r <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		cr_assert_gt(n, 0, "animtrace closed its output before a line: %s",
			     n ? strerror(errno) : "EOF");
		if (memchr(buf, '\n', n))
			return;
	}
	cr_assert_fail("no output line through the pipe after %d ms", E2E_WAIT_MS);
}

Test(faults, a_reader_closing_the_output_pipe_ends_animtrace_without_sigpipe)
{
	char err[PATH_MAX], e2[PATH_MAX];
	int fds[2];

	cr_assert_eq(pipe2(fds, O_CLOEXEC), 0);
	const char *args[] = { "--proc", TARGET, "--format", "json", "--no-atrace-setup", NULL };
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"),
				 &(struct e2e_spawn){ .out_fd = fds[1] });
	const char *sim[] = { E2E_ANIMSIM, "--name", TARGET, "--linger-ms", "3000",
			      "--expect", e2e_path(e2, "e2.jsonl"), NULL };

	close(fds[1]);
	pid_t b = e2e_spawn(sim, NULL);

	read_a_line(fds[0]);
	close(fds[0]);
	int st = e2e_wait(at, "animtrace");

	cr_assert(WIFEXITED(st), "animtrace died of signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	cr_assert(WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 1, "exit status %d",
		  WEXITSTATUS(st));
	cr_assert_eq(e2e_exit_code(b, "animsim"), 0);
}

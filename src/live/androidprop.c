// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Android property programs. See androidprop.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "live/androidprop.h"

static int run_timeout_ms = 5000;

void androidprop_set_timeout_ms(int ms)
{
	run_timeout_ms = ms > 0 ? ms : 5000;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool on_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[PATH_MAX];
	struct stat st;

	for (p = path ? path : "/bin:/usr/bin"; p; p = *end ? end + 1 : NULL) {
		end = strchrnul(p, ':');
		if (snprintf(file, sizeof(file), "%.*s/%s", (int)(end - p), end == p ? "." : p,
			     prog) >= (int)sizeof(file))
			continue;
		if (!stat(file, &st) && S_ISREG(st.st_mode) && !access(file, X_OK))
			return true;
	}
	return false;
}

/* In the child: only async-signal-safe calls until exec. */
static void child_exec(char *const argv[], int out_fd)
{
	int null = open("/dev/null", O_RDWR);

	/* Own process group: a ^C meant for us must not kill a restore in progress. */
	setpgid(0, 0);
	if (out_fd >= 0) {
		dup2(out_fd, 1);
		fcntl(1, F_SETFD, 0);
	}
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 2);
		if (out_fd < 0)
			dup2(null, 1);
		if (null > 2)
			close(null);
	}
	execvp(argv[0], argv);
	_exit(127);
}

/* Reads until EOF; never blocks past deadline (a poll timeout or EINTR polls again). */
static int read_output(int fd, char *out, size_t cap, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char chunk[256];
	size_t got = 0;
	ssize_t n;

	for (;;) {
		int64_t left = deadline - now_ms();
		int r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0)
			continue;
		n = read(fd, chunk, sizeof(chunk));
		if (n == 0)
			break;
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -errno;
		for (ssize_t i = 0; i < n && got + 1 < cap; i++)
			out[got++] = chunk[i];
	}
	out[got] = '\0';
	return 0;
}

/* The child leads its own group: kill the group, so a script's children die with it. */
static void kill_child(pid_t pid)
{
	if (kill(-pid, SIGKILL))
		kill(pid, SIGKILL);
}

static int reap(pid_t pid, int64_t deadline)
{
	const struct timespec nap = { .tv_nsec = 2 * 1000 * 1000 };
	int st;

	for (;;) {
		pid_t r = waitpid(pid, &st, deadline ? WNOHANG : 0);

		if (r == pid)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) /* ECHILD: the caller ignores SIGCHLD and the kernel reaped it */
			return errno == ECHILD ? 0 : -errno;
		if (now_ms() >= deadline) {
			kill_child(pid);
			reap(pid, 0);
			return -ETIMEDOUT;
		}
		nanosleep(&nap, NULL);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 127 ? -ENOENT : -EIO;
}

/* Run argv; with out, capture its stdout (cut at cap - 1 bytes). 0 when it exited 0. */
static int run(char *const argv[], char *out, size_t cap)
{
	int64_t deadline = now_ms() + run_timeout_ms;
	int fds[2] = { -1, -1 }, err = 0, werr;
	pid_t pid;

	if (out && pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid == 0)
		child_exec(argv, fds[1]);
	if (pid > 0)
		setpgid(pid, pid); /* also here: a kill right after fork must reach the group */
	if (pid < 0)
		err = -errno;
	if (fds[1] >= 0)
		close(fds[1]);
	if (pid > 0 && out)
		err = read_output(fds[0], out, cap, deadline);
	if (fds[0] >= 0)
		close(fds[0]);
	if (pid < 0)
		return err;
	if (err == -ETIMEDOUT) {
		kill_child(pid); /* also what it left running with our pipe */
		deadline = 0;
	}
	werr = reap(pid, deadline);
	return err ? err : werr;
}

int androidprop_get(const char *name, char *val, size_t cap)
{
	char *argv[] = { "getprop", (char *)name, NULL };
	char out[256];
	int err = run(argv, out, sizeof(out));
	size_t n;

	if (err)
		return err;
	n = strcspn(out, "\n"); /* getprop ends the value with a newline */
	n = n < cap ? n : cap - 1;
	memcpy(val, out, n);
	val[n] = '\0';
	return 0;
}

int androidprop_set(const char *name, const char *val)
{
	char *argv[] = { "setprop", (char *)name, (char *)val, NULL };

	return run(argv, NULL, 0);
}

int androidprop_poke(void)
{
	char *argv[] = { "service", "call", "activity", "1599295570", NULL };

	return run(argv, NULL, 0);
}

bool androidprop_available(void)
{
	return on_path("getprop");
}

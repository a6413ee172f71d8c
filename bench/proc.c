// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The processes a benchmark drives, see proc.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "e2e/e2e.h"
#include "proc.h"

#include "child_signals.h"

#define REPLY_MS 60000 /* a probed loop of 10^6 calls takes ~20 s */
#define ATTACH_POLL_MS 1

char *proc_log_path(char *dst, const char *base)
{
	static int seq;
	char name[64];

	snprintf(name, sizeof(name), "%s.%d.log", base, seq++);
	return e2e_path(dst, name);
}

static void read_reply(struct helper *h, char *dst, size_t cap)
{
	uint64_t end = bench_now_ns() + REPLY_MS * 1000000ULL;
	struct pollfd p = { .fd = h->out, .events = POLLIN };
	size_t n = 0;
	char c;

	for (;;) {
		int left = (int)((end - bench_now_ns()) / 1000000);
		ssize_t r;

		if (bench_now_ns() >= end || poll(&p, 1, left) == 0)
			bench_fail("%s did not answer in %d s: %s", h->name, REPLY_MS / 1000,
				   e2e_slurp(h->err));
		r = read(h->out, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			bench_fail("%s exited: %s", h->name, e2e_slurp(h->err));
		if (c == '\n')
			break;
		if (n + 1 < cap)
			dst[n++] = c;
	}
	dst[n] = '\0';
}

void helper_start(struct helper *h, const char *const argv[])
{
	const char *base = strrchr(argv[0], '/');
	int in[2], out[2];
	char line[256];

	snprintf(h->name, sizeof(h->name), "%s", base ? base + 1 : argv[0]);
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
		bench_fail("pipe: %s", strerror(errno));
	proc_log_path(h->err, h->name);
	h->pid = e2e_spawn(argv, &(struct e2e_spawn){ .err = h->err, .in_fd = in[0],
						      .out_fd = out[1] });
	close(in[0]);
	close(out[1]);
	h->in = in[1];
	h->out = out[0];
	read_reply(h, line, sizeof(line));
	if (strncmp(line, "ready", 5))
		bench_fail("%s: '%s' instead of ready", h->name, line);
	snprintf(h->ready, sizeof(h->ready), "%s", line);
}

void helper_ask(struct helper *h, const char *cmd, char *reply, size_t cap)
{
	if (dprintf(h->in, "%s\n", cmd) < 0)
		bench_fail("%s: %s: %s", h->name, cmd, strerror(errno));
	read_reply(h, reply, cap);
}

void helper_stop(struct helper *h)
{
	int code;

	close(h->in);
	code = e2e_exit_code(h->pid, h->name);
	close(h->out);
	if (code)
		bench_fail("%s exited %d: %s", h->name, code, e2e_slurp(h->err));
	e2e_forget_exited();
}

/* Polls the log every ms (e2e_await's 25 ms would blur the attach time) for "ready". */
static void await_ready(struct at_run *r, uint64_t t0)
{
	for (int t = 0; t * ATTACH_POLL_MS < E2E_WAIT_MS; t++) {
		bool gone = !e2e_running(r->pid);
		char *text = e2e_slurp(r->log);
		bool ready = strstr(text, "animtrace: ready") != NULL;

		if (ready)
			r->attach_ns = bench_now_ns() - t0;
		if (!ready && gone)
			bench_fail("animtrace exited before it was ready:\n%s", text);
		free(text);
		if (ready)
			return;
		bench_nap_ms(ATTACH_POLL_MS);
	}
	bench_fail("animtrace not ready after %d ms: %s", E2E_WAIT_MS, e2e_slurp(r->log));
}

void at_start(struct at_run *r, const char *bin, const char *const args[], pid_t target,
	      unsigned int what)
{
	const char *argv[32] = { bin };
	uint64_t t0;
	int n = 1;

	while (*args && n < 31)
		argv[n++] = *args++;
	argv[n] = NULL;
	proc_log_path(r->log, "animtrace");
	t0 = bench_now_ns();
	r->pid = e2e_spawn(argv, &(struct e2e_spawn){ .err = r->log });
	await_ready(r, t0);
	if (target)
		e2e_release(r->log, r->pid, target, what, NULL);
}

void at_stop(struct at_run *r)
{
	kill(r->pid, SIGINT);
	e2e_wait(r->pid, "animtrace");
	e2e_forget_exited();
}

uint64_t proc_sigint_exit_ns(pid_t pid)
{
	uint64_t t0 = bench_now_ns();
	siginfo_t si;

	if (kill(pid, SIGINT))
		bench_fail("kill %d: %s", (int)pid, strerror(errno));
	for (;;) {
		si.si_pid = 0;
		/* WNOWAIT: the harness reaps it (e2e_wait) and forgets it. */
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT))
			bench_fail("waitid %d: %s", (int)pid, strerror(errno));
		if (si.si_pid == pid)
			return bench_now_ns() - t0;
		if (bench_now_ns() - t0 > E2E_WAIT_MS * 1000000ULL)
			bench_fail("pid %d running %d ms after SIGINT", (int)pid, E2E_WAIT_MS);
		usleep(100);
	}
}

long proc_status_kb(pid_t pid, const char *field)
{
	char path[64], line[256];
	size_t len = strlen(field);
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	while (f && kb < 0 && fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':')
			kb = strtol(line + len + 1, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

bool proc_maps_hold(pid_t pid, const char *sub)
{
	char path[64], line[512];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, sub) != NULL;
	if (f)
		fclose(f);
	return found;
}

void at_stats(const struct at_run *r, struct at_stats *s)
{
	char *text = e2e_slurp(r->log), *save = NULL;

	*s = (struct at_stats){ 0 };
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		unsigned long long m, p, lost, full;

		if (strncmp(l, "stats: ", 7) ||
		    sscanf(l, "stats: %*u markers/s, %llu markers, %llu property changes, %*u "
			      "truncated, %llu lost (ring full %llu", &m, &p, &lost, &full) != 4)
			continue;
		*s = (struct at_stats){ m, p, lost, full, s->lines + 1 };
	}
	free(text);
}

bool at_await(const struct at_run *r, const struct at_stats *want, int ms)
{
	for (int t = 0; t <= ms; t += 20) {
		struct at_stats s;

		at_stats(r, &s);
		if (s.props >= want->props && s.markers + s.lost >= want->markers &&
		    s.lines >= want->lines)
			return true;
		bench_nap_ms(20);
	}
	return false;
}

/* Not e2e_spawn and e2e_wait: those poll every 25 ms, which would be the time measured. */
void proc_timed(const char *const argv[], const char *out, struct timed *t)
{
	struct rusage ru;
	uint64_t t0 = bench_now_ns();
	pid_t pid = fork();
	int st;

	if (pid < 0)
		bench_fail("fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int in = open("/dev/null", O_RDONLY);

		default_signals();
		if (fd < 0 || in < 0 || dup2(fd, 1) < 0 || dup2(in, 0) < 0)
			_exit(126);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) != pid)
		bench_fail("wait4: %s", strerror(errno));
	t->ns = bench_now_ns() - t0;
	t->maxrss_kb = ru.ru_maxrss;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		bench_fail("%s %s failed (wait status %#x)", argv[0], argv[1] ? argv[1] : "", st);
}

char *proc_line(const char *const argv[], char *dst, size_t cap)
{
	char out[PATH_MAX], *text;
	pid_t pid;

	proc_log_path(out, "stdout");
	pid = e2e_spawn(argv, &(struct e2e_spawn){ .out = out });
	if (e2e_exit_code(pid, argv[0]))
		bench_fail("%s %s failed", argv[0], argv[1] ? argv[1] : "");
	e2e_forget_exited();
	text = e2e_slurp(out);
	snprintf(dst, cap, "%.*s", (int)strcspn(text, "\n"), text);
	free(text);
	return dst;
}

char *proc_which(const char *name, char *dst, size_t cap)
{
	const char *path = getenv("PATH");
	char *dirs = strdup(path ? path : "/usr/bin:/bin"), *save = NULL;
	char *found = NULL;

	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save))
		if (snprintf(dst, cap, "%s/%s", d, name) < (int)cap && !access(dst, X_OK))
			found = dst;
	free(dirs);
	return found;
}

char *log_line(const char *path, const char *sub, char *dst, size_t cap)
{
	char *text = e2e_slurp(path), *save = NULL, *found = NULL;

	for (char *l = strtok_r(text, "\n", &save); l && !found; l = strtok_r(NULL, "\n", &save))
		if (strstr(l, sub) && snprintf(dst, cap, "%s", l) >= 0)
			found = dst;
	free(text);
	return found;
}

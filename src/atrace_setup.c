// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Android tracing properties: set, re-assert, restore. See atrace_setup.h. */
#include "atrace_setup.h"
#include "procfilter.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROP_FLAGS "debug.atrace.tags.enableflags"
#define PROP_APP_NUMBER "debug.atrace.app_number"
#define PROP_APP_FMT "debug.atrace.app_%d"
#define RUN_TIMEOUT_MS 5000

struct prop {
	char name[40];
	char old[ATRACE_SETUP_VALUE_MAX + 1];  /* before us; "" = unset */
	char want[ATRACE_SETUP_VALUE_MAX + 1]; /* what we keep there */
	bool is_flags;			       /* want follows the current value */
	bool touched;			       /* written at least once: restore it */
};

struct atrace_setup {
	enum atrace_setup_state status;
	char **apps;
	size_t n_apps;
	struct prop *props; /* in write order: app entries, app_number, flags */
	size_t n_props;
	size_t n_added;
	bool poke_failed;
	char desc[320];
};

/* ---- running the property programs -------------------------------------------------- */

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

static int read_output(int fd, char *out, size_t cap, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char chunk[256];
	size_t got = 0;
	ssize_t n;

	for (;;) {
		int64_t left = deadline - now_ms();

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
			return -errno;
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
			kill(pid, SIGKILL);
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
	int64_t deadline = now_ms() + RUN_TIMEOUT_MS;
	int fds[2] = { -1, -1 }, err = 0, werr;
	pid_t pid;

	if (out && pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid == 0)
		child_exec(argv, fds[1]);
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
	if (err == -ETIMEDOUT)
		deadline = 1; /* already past: kill it */
	werr = reap(pid, deadline);
	return err ? err : werr;
}

static int getprop(const char *name, char *val, size_t cap)
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

static int setprop(const char *name, const char *val)
{
	char *argv[] = { "setprop", (char *)name, (char *)val, NULL };

	return run(argv, NULL, 0);
}

/* SYSPROPS_TRANSACTION ('_SPR'): every app re-reads its trace properties. */
static int poke(void)
{
	char *argv[] = { "service", "call", "activity", "1599295570", NULL };

	return run(argv, NULL, 0);
}

/* ---- state -------------------------------------------------------------------------- */

static int add_app(struct atrace_setup *s, const char *app, size_t len)
{
	if (len == 0 || len > ATRACE_SETUP_VALUE_MAX)
		return 0;
	for (size_t i = 0; i < s->n_apps; i++)
		if (strlen(s->apps[i]) == len && !strncmp(s->apps[i], app, len))
			return 0;
	s->apps[s->n_apps] = strndup(app, len);
	if (!s->apps[s->n_apps])
		return -ENOMEM;
	s->n_apps++;
	return 0;
}

static int copy_apps(struct atrace_setup *s, const char *const *apps, size_t n)
{
	int err = 0;

	s->apps = calloc(2 * n + 1, sizeof(*s->apps));
	if (!s->apps)
		return -ENOMEM;
	for (size_t i = 0; i < n && !err; i++) {
		size_t len = strlen(apps[i]);

		if (len > 2 && !strcmp(apps[i] + len - 2, ":*"))
			err = add_app(s, apps[i], len - 2);
		if (!err)
			err = add_app(s, apps[i], len);
	}
	return err;
}

__attribute__((format(printf, 2, 3)))
static void set_desc(struct atrace_setup *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->desc, sizeof(s->desc), fmt, ap);
	va_end(ap);
}

static struct prop *new_prop(struct atrace_setup *s, const char *name, const char *old)
{
	struct prop *p = &s->props[s->n_props++];

	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->old, sizeof(p->old), "%s", old);
	return p;
}

/* Mark the apps some existing entry already matches the way libcutils does (fnmatch). */
static int mark_listed(long n, bool *listed, char *const *apps, size_t n_apps)
{
	char name[40], val[ATRACE_SETUP_VALUE_MAX + 1];
	int err;

	for (long i = 0; i < n; i++) {
		snprintf(name, sizeof(name), PROP_APP_FMT, (int)i);
		err = getprop(name, val, sizeof(val));
		if (err)
			return err;
		for (size_t j = 0; j < n_apps; j++)
			listed[j] |= val[0] && !fnmatch(val, apps[j], FNM_NOESCAPE);
	}
	return 0;
}

static int plan_apps(struct atrace_setup *s)
{
	char name[40], val[ATRACE_SETUP_VALUE_MAX + 1], num[16];
	bool *listed;
	long n;
	int err;

	if (!s->n_apps)
		return 0;
	err = getprop(PROP_APP_NUMBER, val, sizeof(val));
	if (err)
		return err;
	n = strtol(val, NULL, 0);
	if (n > ATRACE_SETUP_APPS_MAX)
		return -E2BIG;
	n = n < 0 ? 0 : n;
	listed = calloc(s->n_apps, sizeof(*listed));
	if (!listed)
		return -ENOMEM;
	err = mark_listed(n, listed, s->apps, s->n_apps);
	for (size_t j = 0; !err && j < s->n_apps; j++) {
		char old[ATRACE_SETUP_VALUE_MAX + 1];

		if (listed[j])
			continue;
		snprintf(name, sizeof(name), PROP_APP_FMT, (int)(n + s->n_added));
		err = getprop(name, old, sizeof(old)); /* a stale entry past app_number */
		if (!err)
			snprintf(new_prop(s, name, old)->want, ATRACE_SETUP_VALUE_MAX + 1, "%s",
				 s->apps[j]);
		s->n_added += !err;
	}
	free(listed);
	if (err || !s->n_added)
		return err;
	snprintf(num, sizeof(num), "%ld", n + (long)s->n_added);
	snprintf(new_prop(s, PROP_APP_NUMBER, val)->want, ATRACE_SETUP_VALUE_MAX + 1, "%s", num);
	return 0;
}

static int plan_flags(struct atrace_setup *s)
{
	char val[ATRACE_SETUP_VALUE_MAX + 1];
	int err = getprop(PROP_FLAGS, val, sizeof(val));

	if (!err)
		new_prop(s, PROP_FLAGS, val)->is_flags = true;
	return err;
}

/* Make the property hold what we want, given its current value; counts writes. */
static int sync_prop(struct prop *p, const char *cur, int *written)
{
	if (p->is_flags) {
		unsigned long long v = strtoull(cur, NULL, 0);

		if (v & ATRACE_SETUP_TAG_VIEW)
			snprintf(p->want, sizeof(p->want), "%s", cur);
		else
			snprintf(p->want, sizeof(p->want), "0x%llx", v | ATRACE_SETUP_TAG_VIEW);
	}
	if (!strcmp(cur, p->want))
		return 0;
	p->touched = true; /* even if setprop fails half way: restoring is harmless */
	(*written)++;
	return setprop(p->name, p->want);
}

/* Reverse write order: the tag flags go off before the app list shrinks. */
static int restore_touched(struct atrace_setup *s)
{
	int err = 0, e, written = 0;

	for (size_t i = s->n_props; i-- > 0;) {
		struct prop *p = &s->props[i];

		if (!p->touched)
			continue;
		p->touched = false;
		e = setprop(p->name, p->old);
		written++;
		if (e && !err)
			err = e;
	}
	if (written)
		poke();
	return err;
}

static void describe_active(struct atrace_setup *s)
{
	const struct prop *f = &s->props[s->n_props - 1];
	char apps[64] = "";

	if (s->n_added)
		snprintf(apps, sizeof(apps), "; %zu app%s added to debug.atrace.app_*", s->n_added,
			 s->n_added == 1 ? "" : "s");
	if (f->touched)
		set_desc(s, "atrace: enableflags %s -> %s%s%s", f->old[0] ? f->old : "(unset)",
			 f->want, apps, s->poke_failed ? "; sysprops poke failed" : "");
	else
		set_desc(s, "atrace: enableflags %s already has the view tag%s%s", f->old, apps,
			 s->poke_failed ? "; sysprops poke failed" : "");
}

static int start(struct atrace_setup *s)
{
	int err, written = 0;

	s->props = calloc(s->n_apps + 2, sizeof(*s->props));
	err = s->props ? plan_apps(s) : -ENOMEM;
	if (!err)
		err = plan_flags(s);
	for (size_t i = 0; !err && i < s->n_props; i++)
		err = sync_prop(&s->props[i], s->props[i].old, &written);
	if (err) {
		if (s->props)
			restore_touched(s);
		s->status = ATRACE_SETUP_FAILED;
		set_desc(s, "atrace: could not set tracing properties (%s); changes undone",
			 strerror(-err));
		return err;
	}
	s->status = ATRACE_SETUP_ACTIVE;
	if (written)
		s->poke_failed = poke() != 0;
	describe_active(s);
	return 0;
}

int atrace_setup__reassert(struct atrace_setup *s)
{
	char cur[ATRACE_SETUP_VALUE_MAX + 1];
	int err = 0, written = 0;

	if (s->status != ATRACE_SETUP_ACTIVE)
		return 0;
	for (size_t i = 0; !err && i < s->n_props; i++) {
		err = getprop(s->props[i].name, cur, sizeof(cur));
		if (!err)
			err = sync_prop(&s->props[i], cur, &written);
	}
	if (written) {
		s->poke_failed = poke() != 0;
		describe_active(s);
	}
	return err ? err : written;
}

int atrace_setup__restore(struct atrace_setup *s)
{
	int err;

	if (!s || s->status != ATRACE_SETUP_ACTIVE)
		return 0;
	s->status = ATRACE_SETUP_RESTORED; /* first: a second call must not write again */
	err = restore_touched(s);
	if (err)
		set_desc(s, "atrace: restoring tracing properties failed (%s)", strerror(-err));
	else
		set_desc(s, "atrace: previous tracing properties restored");
	return err;
}

struct atrace_setup *atrace_setup__new_apps(const char *const *apps, size_t n_apps)
{
	struct atrace_setup *s = calloc(1, sizeof(*s));

	if (!s || copy_apps(s, apps, n_apps)) {
		atrace_setup__free(s);
		errno = ENOMEM;
		return NULL;
	}
	if (!on_path("getprop")) {
		s->status = ATRACE_SETUP_NOT_ANDROID;
		set_desc(s, "not Android (no getprop on PATH): tracing properties left alone");
	} else {
		start(s);
	}
	return s;
}

struct atrace_setup *atrace_setup__new(const struct procfilter *filter)
{
	size_t n = filter ? procfilter__name_count(filter) : 0;
	const char *names[PROCFILTER_MAX_NAMES];

	for (size_t i = 0; i < n && i < PROCFILTER_MAX_NAMES; i++)
		names[i] = procfilter__name(filter, i);
	return atrace_setup__new_apps(names, n < PROCFILTER_MAX_NAMES ? n : PROCFILTER_MAX_NAMES);
}

enum atrace_setup_state atrace_setup__state(const struct atrace_setup *s)
{
	return s->status;
}

bool atrace_setup__active(const struct atrace_setup *s)
{
	return s->status == ATRACE_SETUP_ACTIVE;
}

const char *atrace_setup__status(const struct atrace_setup *s)
{
	return s->desc;
}

void atrace_setup__free(struct atrace_setup *s)
{
	if (!s)
		return;
	atrace_setup__restore(s);
	for (size_t i = 0; s->apps && i < s->n_apps; i++)
		free(s->apps[i]);
	free(s->apps);
	free(s->props);
	free(s);
}

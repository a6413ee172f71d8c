// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Helpers of the end-to-end tests, see e2e.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "e2e.h"

#include "../child_signals.h"

#define POLL_MS 25
#define MAX_CHILDREN 32

extern char **environ;

struct child {
	pid_t pid;
	bool reaped;
	int status;
};

static struct child children[MAX_CHILDREN];
static int n_children;
static char tmpdir[64];

static void nap_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static struct child *find(pid_t pid)
{
	for (int i = 0; i < n_children; i++)
		if (children[i].pid == pid)
			return &children[i];
	return NULL;
}

/* Reaps without blocking; true once the child has exited. */
static bool reap(struct child *c)
{
	int st;

	if (c->reaped)
		return true;
	if (waitpid(c->pid, &st, WNOHANG) != c->pid)
		return false;
	c->reaped = true;
	c->status = st;
	return true;
}

void e2e_setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/animtrace-e2e.XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
	n_children = 0;
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char p[PATH_MAX];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (de->d_type == DT_DIR)
			remove_tree(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

/* A failed test must not leave an animtrace running: SIGTERM (it restores properties),
 * then SIGKILL what is still there. Only our own children, by pid. */
void e2e_teardown(void)
{
	for (int i = 0; i < n_children; i++)
		if (!reap(&children[i]))
			kill(children[i].pid, SIGTERM);
	for (int t = 0; t < 200; t++) {
		bool all = true;

		for (int i = 0; i < n_children; i++)
			all &= reap(&children[i]);
		if (all)
			break;
		nap_ms(POLL_MS);
	}
	for (int i = 0; i < n_children; i++)
		if (!reap(&children[i])) {
			kill(children[i].pid, SIGKILL);
			waitpid(children[i].pid, NULL, 0);
		}
	n_children = 0;
	if (tmpdir[0])
		remove_tree(tmpdir);
}

char *e2e_path(char *dst, const char *name)
{
	snprintf(dst, PATH_MAX, "%s/%s", tmpdir, name);
	return dst;
}

static void redirect(const char *path, int fd)
{
	int f = open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (f < 0 || dup2(f, fd) < 0)
		_exit(126);
}

static void child_exec(const char *const argv[], const struct e2e_spawn *o)
{
	int in = o->in_fd > 0 ? o->in_fd : open("/dev/null", O_RDONLY);

	default_signals();
	if (in < 0 || dup2(in, 0) < 0)
		_exit(126);
	if (o->out_fd > 0) {
		if (dup2(o->out_fd, 1) < 0)
			_exit(126);
	} else {
		redirect(o->out, 1);
	}
	redirect(o->err, 2);
	if (o->uid && (setgroups(0, NULL) || setgid(o->uid) || setuid(o->uid)))
		_exit(126);
	/* After the credential change, which clears it: no orphan if the test dies. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	execve(argv[0], (char *const *)argv, o->env ? o->env : environ);
	_exit(127);
}

pid_t e2e_spawn(const char *const argv[], const struct e2e_spawn *o)
{
	static const struct e2e_spawn none;
	pid_t pid;

	cr_assert_lt(n_children, MAX_CHILDREN);
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0)
		child_exec(argv, o ? o : &none);
	children[n_children++] = (struct child){ .pid = pid };
	return pid;
}

bool e2e_running(pid_t pid)
{
	struct child *c = find(pid);

	return c && !reap(c);
}

void e2e_forget_exited(void)
{
	int n = 0;

	for (int i = 0; i < n_children; i++)
		if (!children[i].reaped)
			children[n++] = children[i];
	n_children = n;
}

int e2e_wait(pid_t pid, const char *what)
{
	struct child *c = find(pid);

	cr_assert_not_null(c, "%s: pid %d was not spawned by the test", what, pid);
	for (int t = 0; t * POLL_MS < E2E_WAIT_MS; t++) {
		if (reap(c))
			return c->status;
		nap_ms(POLL_MS);
	}
	cr_assert_fail("%s (pid %d) still running after %d ms", what, pid, E2E_WAIT_MS);
	return -1;
}

int e2e_exit_code(pid_t pid, const char *what)
{
	int st = e2e_wait(pid, what);

	cr_assert(WIFEXITED(st), "%s (pid %d) did not exit normally: %s %d", what, pid,
		  WIFSIGNALED(st) ? "killed by signal" : "status",
		  WIFSIGNALED(st) ? WTERMSIG(st) : st);
	return WEXITSTATUS(st);
}

char *e2e_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return strdup("");
	FILE *m = open_memstream(&buf, &len);
	char chunk[65536];
	size_t n;

	cr_assert_not_null(m);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(m);
	fclose(f);
	return buf;
}

static bool line_has_all(const char *text, const char *const subs[], int n)
{
	char *copy = strdup(text), *save = NULL;
	bool found = false;

	for (char *l = strtok_r(copy, "\n", &save); l && !found; l = strtok_r(NULL, "\n", &save)) {
		found = true;
		for (int i = 0; i < n && found; i++)
			found = strstr(l, subs[i]) != NULL;
	}
	free(copy);
	return found;
}

void e2e_await(const char *path, pid_t watch, ...)
{
	const char *subs[8];
	char want[512] = "";
	int n = 0;
	va_list ap;

	va_start(ap, watch);
	for (const char *s; (s = va_arg(ap, const char *)) && n < 8;) {
		subs[n++] = s;
		snprintf(want + strlen(want), sizeof(want) - strlen(want), " [%s]", s);
	}
	va_end(ap);
	for (int t = 0; t * POLL_MS < E2E_WAIT_MS; t++) {
		char *text = e2e_slurp(path);
		bool ok = line_has_all(text, subs, n);

		free(text);
		if (ok)
			return;
		if (watch > 0 && !e2e_running(watch)) {
			/* One last look: it may have written the line just before exiting. */
			text = e2e_slurp(path);
			ok = line_has_all(text, subs, n);
			cr_assert(ok, "pid %d exited before %s had a line with%s; it holds:\n%s",
				  watch, path, want, text);
			free(text);
			return;
		}
		nap_ms(POLL_MS);
	}
	char *text = e2e_slurp(path);

	cr_assert_fail("no line with%s in %s after %d ms; it holds:\n%.4000s", want, path,
		       E2E_WAIT_MS, text);
	free(text);
}

char *e2e_name(char *dst, const char *base)
{
	const char *dot = strrchr(tmpdir, '.');

	cr_assert_not_null(dot, "e2e_name before e2e_setup");
	snprintf(dst, E2E_NAME_MAX, "%s.%s", base, dot + 1);
	return dst;
}

void e2e_go(const char *go)
{
	int fd = open(go, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	cr_assert_geq(fd, 0, "%s: %s", go, strerror(errno));
	close(fd);
}

void e2e_gate(const char *dir, const char *name)
{
	char path[PATH_MAX];

	cr_assert_lt(snprintf(path, sizeof(path), "%s/%s", dir, name), (int)sizeof(path));
	e2e_go(path);
}

void e2e_release(const char *err, pid_t at, pid_t pid, unsigned int what, const char *go)
{
	char pat[96];

	snprintf(pat, sizeof(pat), " (pid %d)", pid);
	e2e_await(err, at, "animtrace: tracing ", pat, NULL);
	if (what & E2E_PROPS) {
		snprintf(pat, sizeof(pat), "animtrace: pid %d: View property values from ", pid);
		e2e_await(err, at, pat, NULL);
	}
	if (what & E2E_ART) {
		snprintf(pat, sizeof(pat), "animtrace: pid %d: end reasons from ART probes in ",
			 pid);
		e2e_await(err, at, pat, NULL);
	}
	if (go)
		e2e_go(go);
}

/* argv[0] and parent of pid; false when it is gone. */
static bool proc_info(pid_t pid, char *argv0, size_t cap, pid_t *ppid)
{
	char p[64], buf[512];
	FILE *f;
	size_t n;
	char *rp;

	snprintf(p, sizeof(p), "/proc/%d/cmdline", pid);
	if (!(f = fopen(p, "r")))
		return false;
	n = fread(argv0, 1, cap - 1, f);
	fclose(f);
	argv0[n] = '\0';
	snprintf(p, sizeof(p), "/proc/%d/stat", pid);
	if (!(f = fopen(p, "r")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	rp = strrchr(buf, ')'); /* comm may hold spaces and parentheses */
	return rp && sscanf(rp + 1, " %*c %d", ppid) == 1;
}

static pid_t scan_child(pid_t ppid, const char *name)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t found = 0;

	cr_assert_not_null(d);
	while (!found && (de = readdir(d))) {
		char argv0[256];
		pid_t pid = atoi(de->d_name), pp;

		if (pid > 0 && proc_info(pid, argv0, sizeof(argv0), &pp) && pp == ppid &&
		    !strcmp(argv0, name))
			found = pid;
	}
	closedir(d);
	return found;
}

pid_t e2e_find_child(pid_t ppid, const char *name)
{
	for (int t = 0; t * POLL_MS < E2E_WAIT_MS; t++) {
		pid_t pid = scan_child(ppid, name);

		if (pid)
			return pid;
		cr_assert(e2e_running(ppid), "pid %d exited before a child named %s appeared", ppid,
			  name);
		nap_ms(POLL_MS);
	}
	cr_assert_fail("no child of pid %d named %s after %d ms", ppid, name, E2E_WAIT_MS);
	return 0;
}

pid_t e2e_animtrace(const char *const args[], const char *err, const struct e2e_spawn *o)
{
	const char *argv[32] = { E2E_ANIMTRACE };
	struct e2e_spawn so = o ? *o : (struct e2e_spawn){ 0 };
	int n = 1;
	pid_t pid;

	while (*args && n < 31)
		argv[n++] = *args++;
	argv[n] = NULL;
	so.err = err;
	pid = e2e_spawn(argv, &so);
	e2e_await(err, pid, "animtrace: ready", NULL);
	return pid;
}

static void jsonl_add(struct e2e_jsonl *j, json_tokener *tok, const char *line, size_t len,
		      const char *path, size_t lineno)
{
	json_object *o;

	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, line, (int)len);
	cr_assert(o && json_tokener_get_error(tok) == json_tokener_success &&
			  json_tokener_get_parse_end(tok) == len,
		  "%s:%zu: not one strict JSON value: %.*s", path, lineno, (int)len, line);
	cr_assert(json_object_is_type(o, json_type_object), "%s:%zu: not an object", path, lineno);
	j->v = realloc(j->v, (j->n + 1) * sizeof(*j->v));
	cr_assert_not_null(j->v);
	j->v[j->n++] = o;
}

void e2e_jsonl_load(struct e2e_jsonl *j, const char *path)
{
	char *text = e2e_slurp(path), *p = text;
	json_tokener *tok = json_tokener_new();
	size_t lineno = 0;

	cr_assert_not_null(tok);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	*j = (struct e2e_jsonl){ 0 };
	while (*p) {
		char *nl = strchr(p, '\n');

		lineno++;
		cr_assert_not_null(nl, "%s:%zu: last line has no newline", path, lineno);
		jsonl_add(j, tok, p, (size_t)(nl - p), path, lineno);
		p = nl + 1;
	}
	json_tokener_free(tok);
	free(text);
}

void e2e_jsonl_free(struct e2e_jsonl *j)
{
	for (size_t i = 0; i < j->n; i++)
		json_object_put(j->v[i]);
	free(j->v);
	*j = (struct e2e_jsonl){ 0 };
}

json_object *e2e_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	cr_assert(json_object_object_get_ex(o, key, &v), "no key \"%s\" in %s", key,
		  json_object_to_json_string(o));
	return v;
}

const char *e2e_str(json_object *o, const char *key)
{
	json_object *v = e2e_get(o, key);

	cr_assert(json_object_is_type(v, json_type_string), "\"%s\" is not a string in %s", key,
		  json_object_to_json_string(o));
	return json_object_get_string(v);
}

int64_t e2e_int(json_object *o, const char *key)
{
	json_object *v = e2e_get(o, key);

	cr_assert(json_object_is_type(v, json_type_int), "\"%s\" is not an integer in %s", key,
		  json_object_to_json_string(o));
	return json_object_get_int64(v);
}

bool e2e_is_null(json_object *o, const char *key)
{
	return e2e_get(o, key) == NULL;
}

bool e2e_type_is(json_object *o, const char *type)
{
	return !strcmp(e2e_str(o, "type"), type);
}

static bool overridden(const char *entry, const char *const add[])
{
	for (int i = 0; add[i]; i++) {
		size_t n = strcspn(add[i], "=") + 1;

		if (!strncmp(entry, add[i], n))
			return true;
	}
	return false;
}

char **e2e_env(const char *const add[])
{
	size_t n = 0, m = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	while (add[m])
		m++;
	env = calloc(n + m + 1, sizeof(*env));
	cr_assert_not_null(env);
	for (size_t i = 0; i < n; i++)
		if (!overridden(environ[i], add))
			env[k++] = environ[i];
	for (size_t i = 0; i < m; i++)
		env[k++] = (char *)add[i];
	return env;
}

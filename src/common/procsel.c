// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Process selection: the `--proc` / `--pid` filter, /proc reading, and the selection made
 * from them, live and replay. See procsel.h. */
#include "common/procsel.h"

#include <argp.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/proctab.h"

struct pf_name {
	char text[PROCFILTER_NAME_MAX + 1]; /* as given, ":*" included */
	size_t base_len;		    /* length without the ":*" */
	bool subs;			    /* NAME:* form */
};

struct procfilter {
	struct pf_name names[PROCFILTER_MAX_NAMES];
	size_t n_names;
	int pids[PROCFILTER_MAX_PIDS];
	size_t n_pids;
	char err[192];
};

struct procfilter *procfilter__new(void)
{
	struct procfilter *f = calloc(1, sizeof(*f));

	if (!f)
		errno = ENOMEM;
	return f;
}

void procfilter__free(struct procfilter *f)
{
	free(f);
}

__attribute__((format(printf, 2, 3))) static int fail(struct procfilter *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->err, sizeof(f->err), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Next comma-separated entry of *pos with surrounding blanks dropped; false at the end. */
static bool next_entry(const char **pos, const char **tok, size_t *len)
{
	const char *p = *pos, *end;

	if (!p)
		return false;
	end = strchr(p, ',');
	*pos = end ? end + 1 : NULL;
	if (!end)
		end = p + strlen(p);
	while (p < end && isblank((unsigned char)*p))
		p++;
	while (end > p && isblank((unsigned char)end[-1]))
		end--;
	*tok = p;
	*len = (size_t)(end - p);
	return true;
}

static bool has_name(const struct procfilter *f, const char *tok, size_t len)
{
	for (size_t i = 0; i < f->n_names; i++)
		if (strlen(f->names[i].text) == len && !memcmp(f->names[i].text, tok, len))
			return true;
	return false;
}

static int add_name(struct procfilter *f, const char *tok, size_t len)
{
	bool subs = len >= 2 && tok[len - 2] == ':' && tok[len - 1] == '*';
	size_t base_len = subs ? len - 2 : len;
	struct pf_name *n;

	if (len == 0)
		return fail(f, "empty process name");
	if (len > PROCFILTER_NAME_MAX)
		return fail(f, "process name \"%.40s...\" is longer than %d characters", tok,
			    PROCFILTER_NAME_MAX);
	if (base_len == 0)
		return fail(f, "empty process name before \":*\"");
	if (memchr(tok, '*', base_len))
		return fail(f, "\"%.*s\": '*' is only allowed as a trailing \":*\"", (int)len, tok);
	if (has_name(f, tok, len))
		return 0;
	if (f->n_names == PROCFILTER_MAX_NAMES)
		return fail(f, "too many process names (at most %d)", PROCFILTER_MAX_NAMES);
	n = &f->names[f->n_names++];
	memcpy(n->text, tok, len);
	n->text[len] = '\0';
	n->base_len = base_len;
	n->subs = subs;
	return 0;
}

int procfilter__add_names(struct procfilter *f, const char *list)
{
	size_t old = f->n_names, len;
	const char *pos = list, *tok;
	int err = 0;

	f->err[0] = '\0';
	if (!list)
		return fail(f, "empty process name");
	while (!err && next_entry(&pos, &tok, &len))
		err = add_name(f, tok, len);
	if (err)
		f->n_names = old; /* all or nothing */
	return err;
}

static int parse_pid(struct procfilter *f, const char *tok, size_t len, int *pid)
{
	size_t digits = len && tok[0] == '-' ? 1 : 0;
	unsigned long long v = 0;

	if (len == 0)
		return fail(f, "empty pid");
	if (digits == len)
		return fail(f, "pid \"%.*s\" is not a number", (int)len, tok);
	for (size_t i = digits; i < len; i++) {
		if (!isdigit((unsigned char)tok[i]))
			return fail(f, "pid \"%.*s\" is not a number", (int)len, tok);
		if (v <= INT_MAX)
			v = v * 10 + (unsigned)(tok[i] - '0');
	}
	if (tok[0] == '-' || v == 0)
		return fail(f, "pid %.*s must be greater than 0", (int)len, tok);
	if (v > INT_MAX)
		return fail(f, "pid %.*s is out of range", (int)len, tok);
	*pid = (int)v;
	return 0;
}

static bool has_pid(const struct procfilter *f, int pid)
{
	for (size_t i = 0; i < f->n_pids; i++)
		if (f->pids[i] == pid)
			return true;
	return false;
}

int procfilter__add_pids(struct procfilter *f, const char *list)
{
	size_t old = f->n_pids, len;
	const char *pos = list, *tok;
	int err = 0, pid = 0;

	f->err[0] = '\0';
	if (!list)
		return fail(f, "empty pid");
	while (!err && next_entry(&pos, &tok, &len)) {
		err = parse_pid(f, tok, len, &pid);
		if (err || has_pid(f, pid))
			continue;
		if (f->n_pids == PROCFILTER_MAX_PIDS)
			err = fail(f, "too many pids (at most %d)", PROCFILTER_MAX_PIDS);
		else
			f->pids[f->n_pids++] = pid;
	}
	if (err)
		f->n_pids = old;
	return err;
}

int procfilter__parse_opt(struct procfilter *f, int key, char *arg, struct argp_state *state)
{
	int err;

	if (key == PROCFILTER_KEY_PROC)
		err = procfilter__add_names(f, arg);
	else if (key == PROCFILTER_KEY_PID)
		err = procfilter__add_pids(f, arg);
	else
		return ARGP_ERR_UNKNOWN;
	if (!err)
		return 0;
	argp_error(state, "%s", procfilter__error(f)); /* exits, unless ARGP_NO_EXIT */
	return EINVAL;
}

const char *procfilter__error(const struct procfilter *f)
{
	return f->err;
}

bool procfilter__empty(const struct procfilter *f)
{
	return !f->n_names && !f->n_pids;
}

bool procfilter__has_names(const struct procfilter *f)
{
	return f->n_names > 0;
}

bool procfilter__has_pids(const struct procfilter *f)
{
	return f->n_pids > 0;
}

size_t procfilter__name_count(const struct procfilter *f)
{
	return f->n_names;
}

const char *procfilter__name(const struct procfilter *f, size_t i)
{
	return i < f->n_names ? f->names[i].text : NULL;
}

size_t procfilter__pids(const struct procfilter *f, const int **pids)
{
	*pids = f->pids;
	return f->n_pids;
}

bool procfilter__wants_pid(const struct procfilter *f, int pid)
{
	return procfilter__empty(f) || has_pid(f, pid);
}

static bool name_matches_argv0(const struct pf_name *n, const char *a, size_t len)
{
	if (len < n->base_len || memcmp(a, n->text, n->base_len))
		return false;
	return len == n->base_len || (n->subs && a[n->base_len] == ':');
}

typedef bool (*name_match_fn)(const struct pf_name *n, const char *s, size_t len);

/* True when the filter is empty or s matches one of its names. */
static bool any_name(const struct procfilter *f, name_match_fn match, const char *s, size_t len)
{
	if (procfilter__empty(f))
		return true;
	for (size_t i = 0; i < f->n_names; i++)
		if (match(&f->names[i], s, len))
			return true;
	return false;
}

bool procfilter__match_cmdline(const struct procfilter *f, const char *cmdline, size_t len)
{
	const char *nul = memchr(cmdline, '\0', len);

	return any_name(f, name_matches_argv0, cmdline, nul ? (size_t)(nul - cmdline) : len);
}

enum procfilter_how procfilter__how(const struct procfilter *f, int pid, const char *argv0,
				    const char **name)
{
	size_t len = strlen(argv0);

	*name = NULL;
	if (procfilter__empty(f))
		return PROCFILTER_EVERY;
	for (size_t i = 0; i < f->n_names; i++) {
		if (!name_matches_argv0(&f->names[i], argv0, len))
			continue;
		*name = f->names[i].text;
		return len == f->names[i].base_len ? PROCFILTER_EXACT : PROCFILTER_SUBPROCESS;
	}
	return has_pid(f, pid) ? PROCFILTER_BY_PID : PROCFILTER_NOT;
}

static bool same(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && !memcmp(a, b, alen);
}

/*
 * comm `<prefix>:<sub>` of a NAME:* process. A full-length comm may start anywhere inside
 * NAME, so its prefix only has to be a non-empty tail of NAME; a shorter comm is the whole
 * process name, so its prefix must be all of NAME.
 */
static bool sub_comm_matches(const struct pf_name *n, const char *comm, size_t len)
{
	for (size_t i = 1; i < len; i++) {
		if (comm[i] != ':' || i > n->base_len)
			continue;
		if (len != PROCFILTER_COMM_MAX && i != n->base_len)
			continue;
		if (!memcmp(comm, n->text + n->base_len - i, i))
			return true;
	}
	return false;
}

static bool name_matches_comm(const struct pf_name *n, const char *comm, size_t len)
{
	size_t tail = PROCFILTER_COMM_MAX;

	if (same(comm, len, n->text, n->base_len))
		return true;
	if (n->base_len > tail && same(comm, len, n->text + n->base_len - tail, tail))
		return true;
	return n->subs && sub_comm_matches(n, comm, len);
}

bool procfilter__match_comm_len(const struct procfilter *f, const char *comm, size_t len)
{
	return any_name(f, name_matches_comm, comm, len);
}

bool procfilter__match_comm(const struct procfilter *f, const char *comm)
{
	return procfilter__match_comm_len(f, comm, strlen(comm));
}

/* Read up to cap - 1 bytes of <proc_root>/<pid>/<file>, NUL-terminated. */
static int read_proc_file(const char *proc_root, int pid, const char *file, char *buf, size_t cap)
{
	char path[PATH_MAX];
	size_t got = 0;
	ssize_t n = 1;
	int fd, err = 0;

	if (cap == 0)
		return -EINVAL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%d/%s", proc_root, pid, file) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < cap - 1 && n > 0) {
		n = read(fd, buf + got, cap - 1 - got);
		if (n > 0)
			got += (size_t)n;
		else if (n < 0 && errno == EINTR)
			n = 1;
		else if (n < 0)
			err = -errno;
	}
	close(fd);
	buf[got] = '\0';
	return err ? err : (int)got;
}

int procfilter__read_cmdline(const char *proc_root, int pid, char *buf, size_t cap)
{
	return read_proc_file(proc_root, pid, "cmdline", buf, cap);
}

int procfilter__read_comm(const char *proc_root, int pid, char *buf, size_t cap)
{
	int n = read_proc_file(proc_root, pid, "comm", buf, cap);

	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

static int parse_pid_dir(const char *name)
{
	long v = 0;

	if (!*name)
		return -1;
	for (; *name; name++) {
		if (!isdigit((unsigned char)*name) || v > INT_MAX / 10)
			return -1;
		v = v * 10 + (*name - '0');
	}
	return v > 0 && v <= INT_MAX ? (int)v : -1;
}

/* Selected -> 1 with argv0 filled in, not selected -> 0, vanished -> negative. */
static int check_pid(const struct procfilter *f, const char *proc_root, int pid, char *buf,
		     size_t cap)
{
	bool by_pid = procfilter__wants_pid(f, pid);
	char comm[PROCFILTER_COMM_MAX + 2];
	int n;

	if (!by_pid && !f->n_names)
		return 0;
	n = procfilter__read_cmdline(proc_root, pid, buf, cap);
	if (n < 0)
		return n;
	if (!by_pid && !procfilter__match_cmdline(f, buf, (size_t)n))
		return 0;
	if (buf[0] == '\0') {
		n = procfilter__read_comm(proc_root, pid, comm, sizeof(comm));
		if (n < 0)
			return n;
		snprintf(buf, cap, "[%s]", comm);
	}
	return 1;
}

int procfilter__scan(const struct procfilter *f, const char *proc_root,
		     int (*cb)(void *ctx, int pid, const char *argv0), void *ctx)
{
	char buf[4096];
	struct dirent *de;
	int count = 0, err = 0, pid;
	DIR *dir = opendir(proc_root);

	if (!dir)
		return -errno;
	while (!err && (de = readdir(dir))) {
		pid = parse_pid_dir(de->d_name);
		if (pid < 0 || check_pid(f, proc_root, pid, buf, sizeof(buf)) <= 0)
			continue;
		count++;
		err = cb(ctx, pid, buf);
	}
	closedir(dir);
	return err < 0 ? err : count;
}

/* ---- the selection ---------------------------------------------------------------------- */

struct watch {
	uint32_t tgid;
	uint64_t until_ns;
};

struct procsel {
	const struct procfilter *filter; /* NULL when every process is selected */
	const char *proc_root;		 /* NULL: replay */
	const struct procsel_ops *ops;
	void *ctx;
	bool all;
	struct proctab *names;	  /* live: tgid -> argv[0]; replay: tid -> comm and tgid */
	struct proctab *selected; /* tgids selected, by name or pid */
	struct proctab *wrote;	  /* replay: tgids that wrote markers (the --pid check) */
	bool frozen;		  /* replay: chosen by name, the names stay those it chose from */
	uint32_t named;
	struct watch watch[PROCSEL_WATCH_MAX];
	int n_watch;
};

struct procsel *procsel__new(const struct procsel_opts *o)
{
	struct procsel *s = calloc(1, sizeof(*s));

	if (!s)
		goto fail;
	s->all = !o->filter || procfilter__empty(o->filter);
	s->filter = s->all ? NULL : o->filter;
	s->proc_root = o->proc_root;
	s->ops = o->ops;
	s->ctx = o->ctx;
	s->names = proctab__new();
	s->selected = proctab__new();
	s->wrote = proctab__new();
	if (s->names && s->selected && s->wrote)
		return s;
fail:
	procsel__free(s);
	errno = ENOMEM;
	return NULL;
}

void procsel__free(struct procsel *s)
{
	if (!s)
		return;
	proctab__free(s->names);
	proctab__free(s->selected);
	proctab__free(s->wrote);
	free(s);
}

bool procsel__all(const struct procsel *s)
{
	return s->all;
}

bool procsel__watches(const struct procsel *s)
{
	return !s->all && procfilter__has_names(s->filter);
}

/* proctab__for_each visits named entries only: a set's members carry a placeholder name. */
static void set_add(struct proctab *set, uint32_t id)
{
	if (!proctab__name(set, id))
		proctab__set_name(set, id, "+", 1);
}

static bool is_selected(const struct procsel *s, uint32_t tgid)
{
	return proctab__name(s->selected, tgid) != NULL;
}

bool procsel__wants(const struct procsel *s, uint32_t tgid)
{
	return s->all || procfilter__wants_pid(s->filter, (int)tgid) || is_selected(s, tgid);
}

const char *procsel__name(struct procsel *s, uint32_t id)
{
	const char *name = proctab__name(s->names, id);
	char buf[256];

	if (name || !s->all || !s->proc_root ||
	    procfilter__read_cmdline(s->proc_root, (int)id, buf, sizeof(buf) - 1) < 0)
		return name;
	proctab__set_name(s->names, id, buf, strlen(buf)); /* argv[0] ends at the first NUL */
	return proctab__name(s->names, id);
}

/* ---- live ---- */

static void select_proc(struct procsel *s, uint32_t tgid, const char *argv0)
{
	if (is_selected(s, tgid) || s->ops->allow(s->ctx, tgid, true))
		return;
	proctab__set_name(s->names, tgid, argv0, strlen(argv0));
	set_add(s->selected, tgid);
	s->ops->selected(s->ctx, tgid, argv0);
}

static int scan_cb(void *ctx, int pid, const char *argv0)
{
	select_proc(ctx, (uint32_t)pid, argv0);
	return 0;
}

int procsel__start(struct procsel *s)
{
	const int *pids;
	size_t n, found = 0;

	if (s->all)
		return 0;
	procfilter__scan(s->filter, s->proc_root, scan_cb, s);
	n = procfilter__pids(s->filter, &pids);
	for (size_t i = 0; i < n; i++)
		if (is_selected(s, (uint32_t)pids[i]))
			found++;
		else
			s->ops->missing(s->ctx, pids[i]);
	/* Pids never come back: with only --pid and none alive there is nothing to wait for. */
	return !found && !procfilter__has_names(s->filter) ? -ESRCH : 0;
}

/* True when pid is decided (selected, or gone) and need not be checked again. */
static bool recheck(struct procsel *s, uint32_t pid)
{
	char buf[4096];
	int len;

	if (is_selected(s, pid))
		return true;
	len = procfilter__read_cmdline(s->proc_root, (int)pid, buf, sizeof(buf) - 1);
	if (len < 0)
		return true;
	if (!procfilter__match_cmdline(s->filter, buf, (size_t)len))
		return false;
	select_proc(s, pid, buf); /* argv[0] ends at the first NUL */
	return true;
}

static void watch(struct procsel *s, uint32_t tgid, uint64_t until)
{
	for (int i = 0; i < s->n_watch; i++)
		if (s->watch[i].tgid == tgid) {
			if (s->watch[i].until_ns < until)
				s->watch[i].until_ns = until;
			return;
		}
	if (s->n_watch == PROCSEL_WATCH_MAX) /* a fork storm: forget the oldest */
		memmove(s->watch, s->watch + 1, (--s->n_watch) * sizeof(s->watch[0]));
	s->watch[s->n_watch++] = (struct watch){ tgid, until };
}

void procsel__fork(struct procsel *s, uint32_t child, uint64_t now_ns)
{
	if (!s->all)
		watch(s, child, now_ns + PROCSEL_WATCH_NS);
}

void procsel__exec(struct procsel *s, uint32_t tgid, uint64_t now_ns)
{
	if (!s->all && !recheck(s, tgid))
		watch(s, tgid, now_ns + PROCSEL_WATCH_NS);
}

void procsel__exit(struct procsel *s, uint32_t tgid, uint64_t ts_ns)
{
	const char *name = proctab__name(s->names, tgid);

	if (!name)
		return;
	s->ops->exited(s->ctx, tgid, name, ts_ns);
	if (!s->all)
		s->ops->allow(s->ctx, tgid, false);
	proctab__remove(s->names, tgid);
	proctab__remove(s->selected, tgid);
}

void procsel__tick(struct procsel *s, uint64_t now_ns)
{
	int j = 0;

	for (int i = 0; i < s->n_watch; i++)
		if (!recheck(s, s->watch[i].tgid) && s->watch[i].until_ns > now_ns)
			s->watch[j++] = s->watch[i];
	s->n_watch = j;
}

/* ---- replay ---- */

void procsel__thread(struct procsel *s, uint32_t tid, uint32_t tgid, const char *comm, size_t len,
		     bool replace)
{
	if (s->frozen || !tid)
		return;
	proctab__learn(s->names, tid, tgid, comm, len, replace);
}

uint32_t procsel__tgid(const struct procsel *s, uint32_t tid)
{
	return proctab__tgid(s->names, tid);
}

void procsel__wrote(struct procsel *s, uint32_t tgid)
{
	if (tgid)
		set_add(s->wrote, tgid);
}

/* "name (pid), ..." of the processes that were not chosen, for the message. */
struct others {
	struct procsel *s;
	char list[512];
	size_t used;
	uint32_t named, matched;
};

static void list_add(struct others *o, const char *name, uint32_t pid)
{
	size_t cap = sizeof(o->list);

	if (o->used + 80 >= cap)
		return;
	if (name && *name)
		o->used += snprintf(o->list + o->used, cap - o->used, "%s%s (%u)",
				    o->used ? ", " : "", name, pid);
	else
		o->used += snprintf(o->list + o->used, cap - o->used, "%s%u", o->used ? ", " : "",
				    pid);
}

static const char *more(const struct others *o)
{
	return o->used + 80 >= sizeof(o->list) ? ", ..." : "";
}

/* --proc: a main thread (only it names a process) whose comm matches. */
static void by_name(void *ctx, uint32_t tid, const char *name)
{
	struct others *o = ctx;

	if (proctab__tgid(o->s->names, tid) != tid)
		return;
	o->named++;
	if (procfilter__match_comm(o->s->filter, name)) {
		set_add(o->s->selected, tid);
		o->matched++;
	} else {
		list_add(o, name, tid);
	}
}

/* --pid: a process that wrote markers and is listed. */
static void by_pid(void *ctx, uint32_t tgid, const char *unused)
{
	struct others *o = ctx;

	if (procfilter__wants_pid(o->s->filter, (int)tgid))
		o->matched++;
	else
		list_add(o, proctab__name(o->s->names, tgid), tgid);
}

int procsel__decide(struct procsel *s, char *msg, size_t msglen)
{
	struct others n = { .s = s }, p = { .s = s };

	if (s->all)
		return 0;
	if (procfilter__has_names(s->filter)) {
		proctab__for_each(s->names, by_name, &n);
		s->frozen = true;
	}
	if (procfilter__has_pids(s->filter))
		proctab__for_each(s->wrote, by_pid, &p);
	s->named = n.named;
	if (n.matched || p.matched)
		return 0;
	if (procfilter__has_pids(s->filter))
		snprintf(msg, msglen,
			 "no process in the capture matches --pid; processes that "
			 "wrote markers: %s%s",
			 p.used ? p.list : "none", more(&p));
	else if (!n.named)
		snprintf(msg, msglen,
			 "the capture names no process (task names are <...>): "
			 "select one with --pid");
	else
		snprintf(msg, msglen,
			 "no process in the capture matches --proc; "
			 "processes it names: %s%s",
			 n.list, more(&n));
	return -ESRCH;
}

uint32_t procsel__named(const struct procsel *s)
{
	return s->named;
}

uint64_t procsel__names_evicted(const struct procsel *s)
{
	return proctab__evicted(s->names);
}

void procsel__evicted(const struct procsel *s, uint64_t *thread_names, uint64_t *pids)
{
	*thread_names = proctab__evicted(s->names);
	*pids = proctab__evicted(s->selected) + proctab__evicted(s->wrote);
}

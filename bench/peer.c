// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* bpftrace runs and the summary's rows, see peer.h. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "e2e/e2e.h"
#include "peer.h"
#include "proc.h"

/*
 * bpftrace's own word that its probes are live: with this variable set it prints the name
 * once every probe is attached (bpftrace v0.17.0 src/bpftrace.cpp BPFtrace::run, to stderr
 * after the attach loops; to stdout in later versions), the signal its runtime tests wait
 * for. Not "Attaching N probes..." (printed before the attach) nor a BEGIN probe's printf:
 * in v0.17.0 BEGIN_trigger runs before the other probes are attached.
 */
#define NOTIFY "__BPFTRACE_NOTIFY_PROBES_ATTACHED"
#define POLL_MS 1
#define MAX_ENV 256
#define MAX_ROWS 64

extern char **environ;

static struct {
	bool looked;
	char path[PATH_MAX];
	char version[64];
	struct peer_row rows[MAX_ROWS];
	size_t n_rows;
} p;

static void find(void)
{
	const char *argv[] = { p.path, "--version", NULL };

	if (p.looked)
		return;
	p.looked = true;
	if (!proc_which("bpftrace", p.path, sizeof(p.path))) {
		p.path[0] = '\0';
		snprintf(p.version, sizeof(p.version), "not installed");
		return;
	}
	proc_line(argv, p.version, sizeof(p.version));
}

const char *peer_path(void)
{
	find();
	return p.path[0] ? p.path : NULL;
}

const char *peer_version(void)
{
	find();
	return p.version;
}

static void write_script(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		bench_fail("%s: %s", path, strerror(errno));
}

/* Its stdout or its stderr holds the notification. */
static bool attached(const struct bt_run *r)
{
	char *out = e2e_slurp(r->out), *err = e2e_slurp(r->err);
	bool yes = strstr(out, NOTIFY "\n") || strstr(err, NOTIFY "\n");

	free(out);
	free(err);
	return yes;
}

static void await_attached(struct bt_run *r, uint64_t t0)
{
	for (int t = 0; t * POLL_MS < E2E_WAIT_MS; t++) {
		bool gone = !e2e_running(r->pid);

		if (attached(r)) {
			r->attach_ns = bench_now_ns() - t0;
			return;
		}
		if (gone)
			bench_fail("bpftrace exited before its probes were attached:\n%s%s",
				   e2e_slurp(r->out), e2e_slurp(r->err));
		bench_nap_ms(POLL_MS);
	}
	bench_fail("bpftrace not attached after %d ms:\n%s", E2E_WAIT_MS, e2e_slurp(r->err));
}

void bt_start(struct bt_run *r, const char *text, pid_t pid, const char *const opts[],
	      const char *const env[])
{
	const char *argv[32] = { peer_path(), "--unsafe" };
	char *envp[MAX_ENV], pid_s[16];
	int n = 2, e = 0;
	uint64_t t0;

	if (!argv[0])
		bench_fail("%s", PEER_MISSING);
	while (opts && *opts && n < 28)
		argv[n++] = *opts++;
	if (pid) {
		snprintf(pid_s, sizeof(pid_s), "%d", (int)pid);
		argv[n++] = "-p";
		argv[n++] = pid_s;
	}
	argv[n++] = proc_log_path(r->script, "bpftrace.bt");
	argv[n] = NULL;
	for (char **v = environ; *v && e < MAX_ENV - 16; v++)
		envp[e++] = *v;
	envp[e++] = NOTIFY "=1";
	while (env && *env && e < MAX_ENV - 1)
		envp[e++] = (char *)*env++;
	envp[e] = NULL;
	write_script(r->script, text);
	proc_log_path(r->out, "bpftrace.out");
	proc_log_path(r->err, "bpftrace.err");
	t0 = bench_now_ns();
	r->pid = e2e_spawn(argv, &(struct e2e_spawn){ .out = r->out, .err = r->err, .env = envp });
	await_attached(r, t0);
}

uint64_t bt_stop(struct bt_run *r)
{
	uint64_t ns = proc_sigint_exit_ns(r->pid);
	int code = e2e_exit_code(r->pid, "bpftrace");

	e2e_forget_exited();
	if (code)
		bench_fail("bpftrace exited %d:\n%s", code, e2e_slurp(r->err));
	return ns;
}

long long bt_count(const struct bt_run *r, const char *name)
{
	char sub[64], line[128];
	long long v = -1;

	snprintf(sub, sizeof(sub), "@%s: ", name);
	if (log_line(r->out, sub, line, sizeof(line)))
		sscanf(strstr(line, sub) + strlen(sub), "%lld", &v);
	return v;
}

void bt_check_count(const struct bt_run *r, const char *name, unsigned long long want,
		    const char *what)
{
	long long got = bt_count(r, name);

	if (got < 0 || (unsigned long long)got != want)
		bench_fail("bpftrace counted %lld %s of %llu (@%s):\n%s", got, what, want, name,
			   e2e_slurp(r->err));
}

FILE *bt_script_open(char *dst, size_t cap)
{
	FILE *f = fmemopen(dst, cap, "w");

	if (!f)
		bench_fail("fmemopen: %s", strerror(errno));
	return f;
}

void bt_print_script(FILE *md, const char *text)
{
	fprintf(md, "```\n%s%s```\n\n", text,
		text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
}

void bt_probes_find(struct bt_probes *p, const struct bench_env *env, const char *lib,
		    const char *oat)
{
	char bin[PATH_MAX], out[PATH_MAX], *text, *save = NULL;
	const char *argv[] = { bin, "--list", lib, oat, NULL };
	pid_t pid;

	snprintf(bin, sizeof(bin), "%s/bench/many_uprobes", env->build);
	pid = e2e_spawn(argv, &(struct e2e_spawn){ .out = proc_log_path(out, "many_uprobes") });
	if (e2e_exit_code(pid, "many_uprobes --list"))
		bench_fail("many_uprobes --list %s %s failed", lib, oat);
	e2e_forget_exited();
	text = e2e_slurp(out);
	p->n = 0;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (p->n == BT_MAX_PROBES)
			bench_fail("many_uprobes: more than %d uprobes", BT_MAX_PROBES);
		p->v[p->n].art = -1;
		if (sscanf(l, "art %d %llx", &p->v[p->n].art, &p->v[p->n].off) == 2)
			snprintf(p->v[p->n].kind, sizeof(p->v[p->n].kind), "art");
		else if (sscanf(l, "%7s %llx", p->v[p->n].kind, &p->v[p->n].off) != 2)
			bench_fail("many_uprobes --list: '%s'", l);
		p->n++;
	}
	free(text);
}

int bt_points(FILE *f, const struct bt_probes *p, const char *path, const char *kind, int art)
{
	int n = 0;

	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].kind, kind) && (art < 0 || p->v[i].art == art))
			fprintf(f, "%suprobe:%s:%#llx", n++ ? ",\n" : "", path, p->v[i].off);
	return n;
}

void bt_setter_script(FILE *f, const char *lib, unsigned long long off, unsigned int field,
		      pid_t pid, bool animator)
{
	fprintf(f,
		"uprobe:%s:%#llx /pid == %d/ { @node[tid] = arg0; }\n"
		"uretprobe:%s:%#llx /pid == %d/ {\n"
		"\t$n = @node[tid] & 0x00ffffffffffffff;\n"
		"\tif ((retval & 0xff) != 0) {\n"
		"\t\t@val[tid] = (nsecs, pid, tid, $n, *(uint32 *)($n + %#x)%s);\n"
		"\t\t@changes = count();\n"
		"\t}\n"
		"\tdelete(@node[tid]);\n"
		"}\n",
		lib, off, (int)pid, lib, off, (int)pid, field, animator ? ", @cur[tid]" : "");
}

static struct peer_row *new_row(const char *what)
{
	struct peer_row *row;

	if (p.n_rows == MAX_ROWS)
		bench_fail("more than %d bpftrace rows", MAX_ROWS);
	row = &p.rows[p.n_rows++];
	*row = (struct peer_row){ 0 };
	snprintf(row->what, sizeof(row->what), "%s", what);
	return row;
}

void peer_ratio(const char *what, double at, double bt, const char *unit, const char *note)
{
	struct peer_row *row = new_row(what);
	int prec = at < 100 && bt < 100 ? 2 : 0;

	snprintf(row->at, sizeof(row->at), "%.*f %s", prec, at, unit);
	snprintf(row->bt, sizeof(row->bt), "%.*f %s", prec, bt, unit);
	snprintf(row->ratio, sizeof(row->ratio), "**%.2f**", bt ? at / bt : 0);
	snprintf(row->note, sizeof(row->note), "%s", note ? note : "");
}

void peer_cannot(const char *what, const char *at, const char *why)
{
	struct peer_row *row = new_row(what);

	snprintf(row->at, sizeof(row->at), "%s", at);
	snprintf(row->bt, sizeof(row->bt), "cannot");
	snprintf(row->ratio, sizeof(row->ratio), "n/a");
	snprintf(row->note, sizeof(row->note), "%s", why);
}

size_t peer_rows(const struct peer_row **v)
{
	*v = p.rows;
	return p.n_rows;
}

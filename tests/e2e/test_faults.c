// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * End-to-end faults: no root, a pid that does not exist, bad arguments, an output pipe whose
 * reader goes away while a traced app is running, a full ring buffer, no tracefs mounted, a
 * missing or malformed library to probe, and signals that must leave no probe behind.
 * Each test traces a process name of its own, so concurrent runs cannot cross.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"

#define NOBODY 65534
#define FLAGS "debug.atrace.tags.enableflags"

/* Names unique to this run: another run's simulator on this machine is never seen. */
static char target[E2E_NAME_MAX], flood_target[E2E_NAME_MAX], hwui_target[E2E_NAME_MAX];
static char mnt_target[E2E_NAME_MAX], sig_target[E2E_NAME_MAX];

static void setup(void)
{
	e2e_setup();
	e2e_name(target, "com.example.anim");
	e2e_name(flood_target, "com.example.flood");
	e2e_name(hwui_target, "com.example.hwuifault");
	e2e_name(mnt_target, "com.example.notracefs");
	e2e_name(sig_target, "com.example.sigprobes");
}

TestSuite(faults, .init = setup, .fini = e2e_teardown, .timeout = 120);

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
	const char *args[] = { "--proc", target, "--no-atrace-setup", "--duration", "5", NULL };

	cr_assert_eq(run(args, e2e_path(err, "err.txt"), NOBODY), 1);
	check_stderr(err, "needs root");
}

Test(faults, a_pid_that_does_not_exist_is_reported_as_no_such_process)
{
	char err[PATH_MAX];
	const char *args[] = { "--pid",	     "999999999", "--no-atrace-setup",
			       "--duration", "1",	  "--format",
			       "json",	     NULL };

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

/* Refused while parsing, before any library is looked at (it used to be blamed on one). */
Test(faults, hwui_offsets_that_are_no_offsets_are_refused_with_status_2)
{
	bad_args("--hwui-offsets", "alpha=zz",
		 "animtrace: --hwui-offsets: 'zz' is no offset for "
		 "alpha (1 to 0xffff, e.g. alpha=0x4c)\n");
	bad_args("--hwui-offsets", "opacity=0x4c", "no property 'opacity' (alpha, ");
	bad_args("--hwui-offsets", "alpha=0x4c,", "an empty item");
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
	char err[PATH_MAX], e2[PATH_MAX], go[PATH_MAX];
	int fds[2];

	cr_assert_eq(pipe2(fds, O_CLOEXEC), 0);
	const char *args[] = { "--proc", target, "--format", "json", "--no-atrace-setup", NULL };
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"),
				 &(struct e2e_spawn){ .out_fd = fds[1] });
	const char *sim[] = { E2E_ANIMSIM,
			      "--name",
			      target,
			      "--linger-ms",
			      "3000",
			      "--expect",
			      e2e_path(e2, "e2.jsonl"),
			      "--go",
			      e2e_path(go, "go"),
			      NULL };

	close(fds[1]);
	pid_t b = e2e_spawn(sim, NULL);

	e2e_release(err, at, e2e_find_child(b, target), E2E_PROPS | E2E_ART, go);

	read_a_line(fds[0]);
	close(fds[0]);
	int st = e2e_wait(at, "animtrace");

	cr_assert(WIFEXITED(st), "animtrace died of signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	cr_assert(WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 1, "exit status %d", WEXITSTATUS(st));
	cr_assert_eq(e2e_exit_code(b, "animsim"), 0);
}

/* ---- ring buffer full ------------------------------------------------------------------- */

/* The last number after key in the last line of text holding key; -1 when none. */
static long long last_number_after(const char *text, const char *key)
{
	long long v = -1;

	for (const char *s = text; (s = strstr(s, key)); s += strlen(key))
		v = strtoll(s + strlen(key), NULL, 10);
	return v;
}

/* The simulator's totals line (--flood and soak runs) for pid. */
static json_object *totals_of(const struct e2e_jsonl *exp, pid_t pid)
{
	for (size_t i = 0; i < exp->n; i++)
		if (e2e_type_is(exp->v[i], "totals") && e2e_int(exp->v[i], "pid") == pid)
			return exp->v[i];
	cr_assert_fail("no totals line of pid %d in the expect file", pid);
	return NULL;
}

/* write() calls pid has made so far (/proc/<pid>/io syscw). */
static long long write_syscalls(pid_t pid)
{
	char path[64], line[128];
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/io", pid);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "syscw: %lld", &n) == 1)
			break;
	fclose(f);
	cr_assert_geq(n, 0, "no syscw in %s", path);
	return n;
}

Test(faults, a_full_ring_buffer_counts_and_shows_the_drops_and_tracing_goes_on_after_it)
{
	char out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX], go[PATH_MAX];
	const char *args[] = { "--proc",
			       flood_target,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--buffer-size",
			       "8K",
			       "--stats",
			       "--no-atrace-setup",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM,
			      "--name",
			      flood_target,
			      "--flood",
			      "200000",
			      "--go",
			      e2e_path(go, "go"),
			      "--linger-ms",
			      "3000",
			      "--expect",
			      e2e_path(ex, "e.jsonl"),
			      NULL };
	struct exp_proc procs[2];
	struct e2e_jsonl j, e;
	char pidpat[32];

	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	pid_t b = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(b, flood_target);

	/* The reader stopped for the whole flood, which starts on go once every probe is on:
	 * however fast this machine, the 8K ring overflows. */
	e2e_release(err, at, app, E2E_PROPS | E2E_ART, NULL);
	long long before = write_syscalls(app);

	kill(at, SIGSTOP);
	e2e_go(go);
	for (int ms = 0; write_syscalls(app) - before < 200000; ms++) {
		cr_assert_lt(ms, 20000, "the flood did not happen");
		usleep(1000);
	}
	kill(at, SIGCONT);
	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", app);
	/* Frame 24 and the end of animator:alpha come after the flood. */
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":24,", NULL);
	e2e_await(out, at, "{\"type\":\"animator_end\"", pidpat, "\"name\":\"animator:alpha\"",
		  NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	cr_assert_eq(e2e_exit_code(b, "animsim"), 0);

	cr_assert_eq(exp_load(ex, procs, 2), 1);
	e2e_jsonl_load(&j, out);
	e2e_jsonl_load(&e, ex);
	/* Nothing after the overflow was lost: every animator and frame, exactly. */
	exp_check_target(&j, &procs[0]);
	json_object *sum = j.v[j.n - 1], *tot = totals_of(&e, app);
	char *text = e2e_slurp(err);
	long long lost = last_number_after(text, " truncated, ");
	long long ring_full = last_number_after(text, " lost (ring full ");

	cr_assert(e2e_type_is(sum, "summary"));
	cr_assert_gt(e2e_int(sum, "drops"), 0, "200000 markers into 8K lost none?");
	cr_assert_eq(lost, e2e_int(sum, "drops"), "the last stats line's lost:\n%s", text);
	cr_assert_gt(ring_full, 0, "%s", text);
	/* Every marker the app wrote was either delivered or counted as lost. */
	cr_assert_eq(e2e_int(sum, "markers") + ring_full, e2e_int(tot, "markers"),
		     "delivered %lld + ring full %lld != written %lld",
		     (long long)e2e_int(sum, "markers"), ring_full,
		     (long long)e2e_int(tot, "markers"));
	cr_assert_not_null(strstr(text, "stats: cpu 0: ring full "), "%s", text);
	free(text);
	e2e_jsonl_free(&e);
	e2e_jsonl_free(&j);
}

/* ---- the library to probe: missing, without setters, malformed ---------------------------- */

/*
 * Traces one basic simulator run with --hwui lib; the animators and frames must come out
 * exactly, with no property values. Returns animtrace's stderr.
 */
static char *run_with_hwui(const char *lib)
{
	char out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX], go[PATH_MAX];
	const char *args[] = { "--proc", hwui_target, "--format",
			       "json",	 "-o",	      e2e_path(out, "out.jsonl"),
			       "--hwui", lib,	      "--no-atrace-setup",
			       NULL };
	const char *sim[] = { E2E_ANIMSIM,
			      "--name",
			      hwui_target,
			      "--linger-ms",
			      "3000",
			      "--expect",
			      e2e_path(ex, "e.jsonl"),
			      "--go",
			      e2e_path(go, "go"),
			      NULL };
	struct exp_proc procs[2];
	struct e2e_jsonl j;
	char pidpat[32];

	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), NULL);
	pid_t b = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(b, hwui_target);

	/* No setters to attach; the ART probes must be on before the first cancel. */
	e2e_release(err, at, app, E2E_ART, go);

	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", app);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":24,", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0, "--hwui %s", lib);
	cr_assert_eq(e2e_exit_code(b, "animsim"), 0);
	cr_assert_eq(exp_load(ex, procs, 2), 1);
	e2e_jsonl_load(&j, out);
	exp_check_target(&j, &procs[0]);
	for (size_t i = 0; i < j.n; i++)
		cr_assert(!e2e_type_is(j.v[i], "frame_props"), "a value with --hwui %s: %s", lib,
			  json_object_to_json_string(j.v[i]));
	e2e_jsonl_free(&j);
	return e2e_slurp(err);
}

/* stderr says what is wrong with lib in exactly one line, and that line is want. */
static void check_one_line_about(const char *text, const char *lib, const char *want)
{
	int lines = 0;

	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char *line = strndup(l, len);

		lines += strstr(line, lib) != NULL;
		free(line);
		l += len + (nl != NULL);
	}
	cr_assert_eq(lines, 1, "%d lines name %s:\n%s", lines, lib, text);
	cr_assert_null(strstr(text, "warning:"), "per-property warnings for %s:\n%s", lib, text);
	cr_assert_not_null(strstr(text, want), "no \"%s\" in stderr:\n%s", want, text);
}

Test(faults, a_missing_hwui_library_is_one_clear_line_and_markers_are_still_traced)
{
	char *text = run_with_hwui("/nonexistent/libhwui.so");

	check_one_line_about(text, "/nonexistent/libhwui.so",
			     "animtrace: no View property values: /nonexistent/libhwui.so: "
			     "No such file or directory\n");
	free(text);
}

Test(faults, a_library_without_setters_is_one_clear_line_and_markers_are_still_traced)
{
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	char *text;

	if (access(libc, R_OK))
		libc = "/lib/aarch64-linux-gnu/libc.so.6";
	text = run_with_hwui(libc);
	char want[PATH_MAX + 64];

	snprintf(want, sizeof(want),
		 "animtrace: no View property values: %s: "
		 "no RenderNode setter found\n",
		 libc);
	check_one_line_about(text, libc, want);
	free(text);
}

/* dst = the first len bytes of the fixture libhwui.so. */
static void truncated_copy(char *dst, long len)
{
	char *lib = e2e_slurp(BUILD_DIR "/sim/libhwui.so");
	FILE *f;

	e2e_path(dst, "libhwui.so");
	cr_assert_not_null(f = fopen(dst, "w"));
	cr_assert_eq(fwrite(lib, 1, len, f), (size_t)len);
	fclose(f);
	free(lib);
}

Test(faults, a_truncated_hwui_library_is_reported_as_malformed_without_a_crash)
{
	char lib[PATH_MAX];

	truncated_copy(lib, 3000); /* the ELF and program headers, no section headers */
	char *text = run_with_hwui(lib);

	check_one_line_about(text, lib, "animtrace: no View property values: ");
	cr_assert_null(strstr(text, "no RenderNode setter found"),
		       "a truncated file is not a library without setters:\n%s", text);
	free(text);
}

Test(faults, a_text_file_as_hwui_library_is_one_clear_line_without_a_crash)
{
	char lib[PATH_MAX], want[PATH_MAX + 64];
	FILE *f;

	cr_assert_not_null(f = fopen(e2e_path(lib, "libhwui.txt"), "w"));
	fputs("this is not an ELF file\n", f);
	fclose(f);
	char *text = run_with_hwui(lib);

	snprintf(want, sizeof(want), "animtrace: no View property values: %s: ", lib);
	check_one_line_about(text, lib, want);
	cr_assert_null(strstr(text, "no RenderNode setter found"), "%s", text);
	free(text);
}

/* ---- tracefs not mounted ---------------------------------------------------------------- */

#define SKIP_BUSY 77

/*
 * The unmount happens in a private mount namespace of animtrace's own: other tracers on this
 * machine keep their tracefs, and nothing needs restoring when the test ends, however it ends.
 */
static const char unmount_then_exec[] =
	"umount /sys/kernel/debug 2>/dev/null; "
	"umount /sys/kernel/tracing || exit 77; "
	"if [ -e /sys/kernel/tracing/trace_marker ]; then echo still mounted >&2; exit 78; fi; "
	"exec \"$@\"";

/* True once err says ready; false when pid exited with SKIP_BUSY (reason in err). */
static bool await_ready_or_busy(const char *err, pid_t pid)
{
	for (int t = 0; t * 25 < E2E_WAIT_MS; t++) {
		char *text = e2e_slurp(err);
		bool ready = strstr(text, "animtrace: ready") != NULL;

		free(text);
		if (ready)
			return true;
		if (!e2e_running(pid)) {
			int code = e2e_exit_code(pid, "animtrace in its mount namespace");

			cr_assert_eq(code, SKIP_BUSY, "exit %d before ready", code);
			return false;
		}
		usleep(25000);
	}
	cr_assert_fail("animtrace not ready after %d ms", E2E_WAIT_MS);
	return false;
}

static bool tracefs_mounted_in(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", pid);
	char *mi = e2e_slurp(path);
	bool found = strstr(mi, " /sys/kernel/tracing ") && strstr(mi, " - tracefs ");

	free(mi);
	return found;
}

Test(faults, without_tracefs_mounted_animtrace_mounts_it_itself_and_traces)
{
	char out[PATH_MAX], err[PATH_MAX], ex[PATH_MAX], atpid[16], sim_path[PATH_MAX];
	char go[PATH_MAX];
	const char *argv[] = { "/usr/bin/unshare",
			       "-m",
			       "--propagation",
			       "private",
			       "/bin/sh",
			       "-c",
			       unmount_then_exec,
			       "sh",
			       E2E_ANIMTRACE,
			       "--proc",
			       mnt_target,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "out.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	struct exp_proc procs[2];
	struct e2e_jsonl j;

	pid_t at = e2e_spawn(argv, &(struct e2e_spawn){ .err = e2e_path(err, "err.txt") });

	if (!await_ready_or_busy(err, at)) {
		char *why = e2e_slurp(err);

		cr_skip_test("cannot unmount /sys/kernel/tracing here: %s", why);
	}
	cr_assert(tracefs_mounted_in(at), "animtrace did not mount tracefs");
	snprintf(atpid, sizeof(atpid), "%d", at);
	/* Entering a mount namespace resets the working directory: an absolute path. */
	cr_assert_not_null(realpath(E2E_ANIMSIM, sim_path));
	/* The app lives in the same namespace, so it writes through animtrace's mount. */
	const char *sim[] = { "/usr/bin/nsenter",
			      "-t",
			      atpid,
			      "-m",
			      "--",
			      sim_path,
			      "--name",
			      mnt_target,
			      "--linger-ms",
			      "3000",
			      "--expect",
			      e2e_path(ex, "e.jsonl"),
			      "--go",
			      e2e_path(go, "go"),
			      NULL };
	pid_t b = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(b, mnt_target);
	char pidpat[32];

	e2e_release(err, at, app, E2E_PROPS | E2E_ART, go);
	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", app);
	e2e_await(out, at, "{\"type\":\"frame\"", pidpat, "\"seq\":24,", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	cr_assert_eq(e2e_exit_code(b, "animsim"), 0);
	cr_assert_eq(exp_load(ex, procs, 2), 1);
	e2e_jsonl_load(&j, out);
	exp_check_target(&j, &procs[0]);
	exp_check_props(&j, &procs[0]);
	e2e_jsonl_free(&j);
	cr_assert_eq(access("/sys/kernel/tracing/trace_marker", F_OK), 0,
		     "the test's own namespace lost its tracefs");
}

/* ---- signals leave no probes behind ------------------------------------------------------ */

#define MAX_IDS 256

struct bpf_ids {
	long prog[MAX_IDS], link[MAX_IDS];
	int n_prog, n_link;
};

static void add_id(long *ids, int *n, long id)
{
	for (int i = 0; i < *n; i++)
		if (ids[i] == id)
			return;
	cr_assert_lt(*n, MAX_IDS);
	ids[(*n)++] = id;
}

/* The BPF programs and links pid holds, from its fdinfo (bpftool shows no owner here). */
static void held_by(pid_t pid, struct bpf_ids *ids)
{
	char dir[64], path[PATH_MAX];
	DIR *d;
	struct dirent *de;

	*ids = (struct bpf_ids){ 0 };
	snprintf(dir, sizeof(dir), "/proc/%d/fdinfo", pid);
	cr_assert_not_null(d = opendir(dir));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		char *fi = e2e_slurp(path), *s;

		if ((s = strstr(fi, "\nlink_id:")))
			add_id(ids->link, &ids->n_link, strtol(s + 9, NULL, 10));
		if ((s = strstr(fi, "\nprog_id:")))
			add_id(ids->prog, &ids->n_prog, strtol(s + 9, NULL, 10));
		free(fi);
	}
	closedir(d);
}

/* `bpftool KIND list -j`, parsed. */
static json_object *bpftool_list(const char *kind)
{
	char cmd[64], *buf = NULL;
	size_t len = 0, n;
	char chunk[65536];
	FILE *p, *m = open_memstream(&buf, &len);

	snprintf(cmd, sizeof(cmd), "bpftool %s list -j", kind);
	cr_assert_not_null(p = popen(cmd, "r"), "%s", cmd);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		fwrite(chunk, 1, n, m);
	cr_assert_eq(pclose(p), 0, "%s failed", cmd);
	fclose(m);
	json_object *o = json_tokener_parse(buf);

	cr_assert(o && json_object_is_type(o, json_type_array), "%s: not a JSON array", cmd);
	free(buf);
	return o;
}

/* The entry of list with "id" == id, or NULL. */
static json_object *find_id(json_object *list, long id)
{
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *o = json_object_array_get_idx(list, i);

		if (e2e_int(o, "id") == id)
			return o;
	}
	return NULL;
}

static void check_held_are_ours(const struct bpf_ids *ids)
{
	json_object *progs = bpftool_list("prog");

	cr_assert_gt(ids->n_prog, 0, "animtrace holds no BPF program");
	cr_assert_gt(ids->n_link, 0, "animtrace holds no BPF link");
	for (int i = 0; i < ids->n_prog; i++) {
		json_object *p = find_id(progs, ids->prog[i]);

		cr_assert_not_null(p, "prog %ld not listed by bpftool", ids->prog[i]);
		cr_assert(!strncmp(e2e_str(p, "name"), "at_", 3), "prog %ld is %s", ids->prog[i],
			  e2e_str(p, "name"));
	}
	json_object_put(progs);
}

/* How many of ids bpftool still lists; the first one left goes to *left. */
static int count_left(const struct bpf_ids *ids, const char **kind, long *left)
{
	json_object *progs = bpftool_list("prog"), *links = bpftool_list("link");
	int n = 0;

	for (int i = 0; i < ids->n_prog; i++)
		if (find_id(progs, ids->prog[i]) && n++ == 0) {
			*kind = "prog";
			*left = ids->prog[i];
		}
	for (int i = 0; i < ids->n_link; i++)
		if (find_id(links, ids->link[i]) && n++ == 0) {
			*kind = "link";
			*left = ids->link[i];
		}
	json_object_put(progs);
	json_object_put(links);
	return n;
}

/* The kernel frees programs after the last reference in deferred work: a bounded poll. */
static void check_none_left(const struct bpf_ids *ids, pid_t at, int sig)
{
	const char *kind = "";
	long left = 0;
	int n = 0;
	char legacy[64];

	for (int t = 0; t * 100 < E2E_WAIT_MS; t++) {
		if (!(n = count_left(ids, &kind, &left)))
			break;
		usleep(100000);
	}
	cr_assert_eq(n, 0,
		     "signal %d: %d of animtrace's programs and links still there after "
		     "%d ms, e.g. %s %ld",
		     sig, n, E2E_WAIT_MS, kind, left);
	/* libbpf names legacy (uprobe_events) probes libbpf_<pid>_... */
	snprintf(legacy, sizeof(legacy), "libbpf_%d_", at);
	char *ev = e2e_slurp("/sys/kernel/tracing/uprobe_events");

	cr_assert_null(strstr(ev, legacy), "signal %d: uprobe_events still holds:\n%s", sig, ev);
	cr_assert_null(strstr(ev, "animtrace"), "signal %d: uprobe_events:\n%s", sig, ev);
	free(ev);
}

static char *fake_props_env_file(char *dir, const char *name)
{
	static char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

/* The target traced with setter and ART probes attached, then sig: status 0, the
 * properties as they were before, and none of animtrace's programs or links left. */
static void signal_leaves_no_probes(int sig)
{
	char out[PATH_MAX], err[PATH_MAX], dir[PATH_MAX], fakes[PATH_MAX], pidpat[32];
	char go[PATH_MAX];
	char path_var[PATH_MAX + 4096], dir_var[PATH_MAX + 16], state_var[PATH_MAX + 32];
	const char *path = getenv("PATH");
	struct bpf_ids ids;
	FILE *f;

	cr_assert_not_null(realpath("tests/fakes", fakes), "run from the repository root");
	cr_assert_eq(mkdir(e2e_path(dir, "props"), 0755), 0);
	cr_assert_not_null(f = fopen(fake_props_env_file(dir, FLAGS), "w"));
	fputs("0x1002", f);
	fclose(f);
	snprintf(path_var, sizeof(path_var), "PATH=%s:%s", fakes, path ? path : "/usr/bin:/bin");
	snprintf(dir_var, sizeof(dir_var), "AT_FAKE_PROPS=%s", dir);
	snprintf(state_var, sizeof(state_var), "ANIMTRACE_STATE_DIR=%s", dir); /* beside them */
	char **env = e2e_env((const char *const[]){ path_var, dir_var, state_var, NULL });
	const char *args[] = { "--proc", sig_target, "--format",
			       "json",	 "-o",	     e2e_path(out, "o.jsonl"),
			       NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name", sig_target,	 "--linger-ms",
			      "20000",	   "--go",   e2e_path(go, "go"), NULL };

	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), &(struct e2e_spawn){ .env = env });
	pid_t b = e2e_spawn(sim, NULL);
	pid_t app = e2e_find_child(b, sig_target);

	e2e_release(err, at, app, E2E_PROPS | E2E_ART, go);
	snprintf(pidpat, sizeof(pidpat), "\"pid\":%d,", app);
	/* A property value and an ART end reason: both kinds of uprobes are attached. */
	e2e_await(out, at, "{\"type\":\"frame_props\"", pidpat, NULL);
	e2e_await(out, at, "{\"type\":\"animator_end\"", pidpat, "\"reason_source\":\"art\"", NULL);
	held_by(at, &ids);
	check_held_are_ours(&ids);
	kill(at, sig);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0, "after signal %d", sig);
	check_none_left(&ids, at, sig);
	char *flags = e2e_slurp(fake_props_env_file(dir, FLAGS));

	cr_assert_str_eq(flags, "0x1002", "%s after signal %d", FLAGS, sig);
	free(flags);
	free(env);
	kill(b, SIGTERM);
	e2e_wait(b, "animsim");
}

Test(faults, sigint_with_probes_attached_leaves_no_program_link_or_uprobe)
{
	signal_leaves_no_probes(SIGINT);
}

Test(faults, sigterm_with_probes_attached_leaves_no_program_link_or_uprobe)
{
	signal_leaves_no_probes(SIGTERM);
}

Test(faults, sighup_with_probes_attached_leaves_no_program_link_or_uprobe)
{
	signal_leaves_no_probes(SIGHUP);
}

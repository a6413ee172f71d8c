// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What a hostile app or shell user can try on animtrace, which runs as root (issue 29), against
 * the real binary: outputs and state files planted in directories others can write, names and
 * markers that would forge lines or act on the terminal, another process's VSYNC-app counter,
 * a process that takes the package's name. Each attacker is one of animsim's --forge children
 * (tests/sim/README.md) or a file the test plants; the real target's records are checked
 * against the simulator's own expect file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "e2e.h"
#include "expect.h"

#define CAPTURE TESTDATA "/traces/catapult-app-2016.atrace.txt"
#define VICTIM "root only\n"
#define FORGED_TAIL ":x\nanimtrace: com.android.systemui (pid 1) exited\x1b]0;pwned\x07"
#define FORGE_UID 12345

static char target[E2E_NAME_MAX];

static void setup(void)
{
	e2e_setup();
	e2e_name(target, "com.example.hostile");
}

TestSuite(hostile, .init = setup, .fini = e2e_teardown, .timeout = 240);

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* animtrace with args to completion: its exit code; stderr whole in *err (malloc'd). */
static int run(const char *const args[], char **env, char **err)
{
	char errf[PATH_MAX];
	const char *argv[24] = { E2E_ANIMTRACE };
	struct e2e_spawn so = { .err = e2e_path(errf, "run.err"), .env = env };
	int n = 1, code;

	while (*args && n < 23)
		argv[n++] = *args++;
	argv[n] = NULL;
	code = e2e_exit_code(e2e_spawn(argv, &so), "animtrace");
	*err = e2e_slurp(errf);
	return code;
}

/* ---- files animtrace writes ------------------------------------------------------------ */

/* A symlink at dir/out.json to the victim, given as opt: refused in one line, exit 2. */
static void refused_link(const char *dir, const char *opt, const char *victim)
{
	char link[PATH_MAX + 16], want[PATH_MAX + 160], *err, *text;
	const char *as_o[] = { "--replay", CAPTURE, "-o", link, NULL };
	const char *as_trace[] = {
		"--replay", CAPTURE, "-o", "/dev/null", "--trace-out", link, NULL
	};

	snprintf(link, sizeof(link), "%s/out.json", dir);
	unlink(link);
	cr_assert_eq(symlink(victim, link), 0);
	cr_assert_eq(run(strcmp(opt, "-o") ? as_trace : as_o, NULL, &err), 2, "%s %s: %s", opt,
		     link, err);
	snprintf(want, sizeof(want),
		 "animtrace: %s is a symbolic link: refusing to write through it "
		 "(--unsafe-output allows it)\n",
		 link);
	cr_assert_str_eq(err, want);
	text = e2e_slurp(victim);
	cr_assert_str_eq(text, VICTIM, "the link's target was written");
	free(text);
	free(err);
}

Test(hostile, a_planted_symlink_as_an_output_is_refused_with_exit_2_and_its_target_untouched)
{
	char victim[PATH_MAX], shared[PATH_MAX], own[PATH_MAX];

	write_file(e2e_path(victim, "victim"), VICTIM, 0600);
	/* /data/local/tmp: shell:shell 0771, no sticky bit; and a directory only root writes */
	cr_assert_eq(mkdir(e2e_path(shared, "shared"), 0777), 0);
	cr_assert_eq(chmod(shared, 0777), 0);
	cr_assert_eq(mkdir(e2e_path(own, "own"), 0700), 0);
	refused_link(shared, "-o", victim);
	refused_link(shared, "--trace-out", victim);
	refused_link(own, "-o", victim);
	refused_link(own, "--trace-out", victim);
}

Test(hostile, a_fifo_planted_as_an_output_is_refused_at_once_and_unsafe_output_allows_a_link)
{
	char shared[PATH_MAX], fifo[PATH_MAX + 16], victim[PATH_MAX], link[PATH_MAX], *err, *text;
	const char *fifo_args[] = { "--replay", CAPTURE, "-o", fifo, NULL };
	const char *hatch[] = { "--replay", CAPTURE, "--format",	"json",
				"-o",	    link,    "--unsafe-output", NULL };

	cr_assert_eq(mkdir(e2e_path(shared, "shared"), 0777), 0);
	cr_assert_eq(chmod(shared, 0777), 0);
	snprintf(fifo, sizeof(fifo), "%s/out.json", shared);
	cr_assert_eq(mkfifo(fifo, 0666), 0);
	/* nobody reads it: an open that waited would never return (e2e_exit_code fails then) */
	cr_assert_eq(run(fifo_args, NULL, &err), 2, "%s", err);
	cr_assert(strstr(err, "already exists in a directory others can write"), "%s", err);
	free(err);
	write_file(e2e_path(victim, "victim"), VICTIM, 0600);
	cr_assert_eq(symlink(victim, e2e_path(link, "link.json")), 0);
	cr_assert_eq(run(hatch, NULL, &err), 0, "%s", err);
	text = e2e_slurp(victim);
	cr_assert(strstr(text, "{\"type\":\"summary\""), "the user allowed it: written through");
	free(text);
	free(err);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

Test(hostile, fifos_planted_as_state_files_do_not_hang_a_live_run)
{
	char props[PATH_MAX], state[PATH_MAX], fakes[PATH_MAX], path[PATH_MAX + 64], out[PATH_MAX];
	char path_var[PATH_MAX + 64], props_var[PATH_MAX + 16], state_var[PATH_MAX + 32];
	char log[PATH_MAX], log_var[PATH_MAX + 16];
	const char *args[] = { "--proc", target, "--duration", "1", "-o", out, NULL };
	char *err, *flags, **env;
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "r");
	int last = 0;

	cr_assert_not_null(realpath("tests/fakes", fakes), "run from the repository root");
	cr_assert_eq(mkdir(e2e_path(props, "props"), 0755), 0);
	snprintf(path, sizeof(path), "%s/debug.atrace.tags.enableflags", props);
	write_file(path, "0x1002", 0644);
	cr_assert_eq(mkdir(e2e_path(state, "state"), 0700), 0);
	snprintf(path, sizeof(path), "%s/animtrace-atrace.1.state", state);
	cr_assert_eq(mkfifo(path, 0600), 0);
	/* the temporary name was animtrace-atrace.<pid>.tmp: plant the next pids' */
	cr_assert(f && fscanf(f, "%d", &last) == 1);
	fclose(f);
	for (int p = last + 1; p <= last + 64; p++) {
		snprintf(path, sizeof(path), "%s/animtrace-atrace.%d.tmp", state, p);
		cr_assert_eq(mkfifo(path, 0600), 0);
	}
	snprintf(path_var, sizeof(path_var), "PATH=%s:/usr/sbin:/usr/bin:/sbin:/bin", fakes);
	snprintf(props_var, sizeof(props_var), "AT_FAKE_PROPS=%s", props);
	snprintf(state_var, sizeof(state_var), "ANIMTRACE_STATE_DIR=%s", state);
	snprintf(log_var, sizeof(log_var), "AT_FAKE_LOG=%s", e2e_path(log, "props.log"));
	env = e2e_env((const char *const[]){ path_var, props_var, state_var, log_var, NULL });
	e2e_path(out, "out.txt");
	cr_assert_eq(run(args, env, &err), 0, "%s", err); /* by itself, after --duration */
	cr_assert_null(strstr(err, "not saved"), "the state was saved: %s", err);
	cr_assert_null(strstr(err, "warning"), "%s", err);
	free(err);
	err = e2e_slurp(log);
	cr_assert(strstr(err, "setprop debug.atrace.tags.enableflags 0x100a\n") &&
			  strstr(err, "setprop debug.atrace.tags.enableflags 0x1002\n"),
		  "set and restored: %s", err);
	snprintf(path, sizeof(path), "%s/debug.atrace.tags.enableflags", props);
	flags = e2e_slurp(path);
	cr_assert_str_eq(flags, "0x1002", "restored");
	snprintf(path, sizeof(path), "%s/animtrace-atrace.1.state", state);
	cr_assert_eq(access(path, F_OK), 0, "the planted FIFO is left alone");
	cr_assert_eq(count_entries(state), 65, "the FIFOs, and no state or temporary file left");
	free(flags);
	free(err);
	free(env);
}

/* ---- names and markers: nothing forged -------------------------------------------------- */

/*
 * The offset of the first control byte in text that animtrace did not write itself: any C0
 * byte but the newline between lines, DEL, a C1 code point (U+0080..U+009F); ESC only as one
 * of the box sink's colour codes when colour is on (sinks/boxdraw.h). -1 when none.
 */
static long foreign_control(const char *text, bool colour)
{
	static const char *const codes[] = { "\033[32m", "\033[31m", "\033[33m",
					     "\033[2m",	 "\033[1m",  "\033[0m" };
	const unsigned char *s = (const unsigned char *)text;

	for (long i = 0; s[i]; i++) {
		bool own = false;

		for (int k = 0; colour && s[i] == 033 && k < 6; k++)
			if (!strncmp(text + i, codes[k], strlen(codes[k]))) {
				own = true;
				i += (long)strlen(codes[k]) - 1;
			}
		if (own || s[i] == '\n')
			continue;
		if (s[i] < 0x20 || s[i] == 0x7f ||
		    (s[i] == 0xc2 && s[i + 1] >= 0x80 && s[i + 1] <= 0x9f))
			return i;
	}
	return -1;
}

static void no_foreign_control(const char *path, bool colour)
{
	char *text = e2e_slurp(path);
	long at = foreign_control(text, colour);

	cr_assert_gt(strlen(text), 0, "%s is empty", path);
	cr_assert_eq(at, -1, "%s: a control byte (%#x) at %ld: ...%.60s", path,
		     at >= 0 ? (unsigned char)text[at] : 0, at,
		     at >= 0 ? text + (at > 30 ? at - 30 : 0) : "");
	free(text);
}

/* build/x86/sim's libhwui.so and the libutils.so it needs, copied into dir; hwui
 * (PATH_MAX + 32) the copy of libhwui.so. */
static void copy_hwui(const char *dir, char *hwui)
{
	static const char *const libs[] = { "libhwui.so", "libutils.so" };
	char src[PATH_MAX], dst[PATH_MAX + 32], *bytes;

	for (int i = 0; i < 2; i++) {
		FILE *in, *out;
		size_t n;

		snprintf(src, sizeof(src), BUILD_DIR "/sim/%s", libs[i]);
		snprintf(dst, sizeof(dst), "%s/%s", dir, libs[i]);
		in = fopen(src, "rb");
		out = fopen(dst, "wb");
		cr_assert(in && out, "%s -> %s", src, dst);
		bytes = malloc(1 << 20);
		cr_assert_not_null(bytes);
		while ((n = fread(bytes, 1, 1 << 20, in)) > 0)
			cr_assert_eq(fwrite(bytes, 1, n, out), n);
		free(bytes);
		fclose(in);
		cr_assert_eq(fclose(out), 0);
	}
	snprintf(hwui, PATH_MAX + 32, "%s/libhwui.so", dir);
}

/*
 * animsim: the target and a --forge kind child (hwui: its library, NULL for the default),
 * lingering 3 s after their frames, from go, into expect (go and expect: PATH_MAX, filled).
 */
static pid_t forging_sim(const char *kind, const char *hwui, char *go, char *expect)
{
	const char *argv[16] = { E2E_ANIMSIM,
				 "--name",
				 target,
				 "--forge",
				 kind,
				 "--linger-ms",
				 "3000",
				 "--go",
				 e2e_path(go, "go"),
				 "--expect",
				 e2e_path(expect, "expect.jsonl") };
	int n = 11;

	if (hwui) {
		argv[n++] = "--hwui";
		argv[n++] = hwui;
	}
	argv[n] = NULL;
	return e2e_spawn(argv, NULL);
}

/* Waits until animtrace (at) said that pid exited: every record of it is out. */
static void await_exit(const char *err, pid_t at, pid_t pid)
{
	char pat[32];

	snprintf(pat, sizeof(pat), " (pid %d) exited", pid);
	e2e_await(err, at, pat, NULL);
}

Test(hostile, names_markers_and_paths_of_a_hostile_app_reach_no_output_raw)
{
	char dir[PATH_MAX], hwui[PATH_MAX + 32], go[PATH_MAX], expect[PATH_MAX],
		procs[E2E_NAME_MAX + 4];
	char box[PATH_MAX], trace[PATH_MAX], json[PATH_MAX], err_box[PATH_MAX], err_json[PATH_MAX];
	char forged[E2E_NAME_MAX + 96], want[PATH_MAX + 256], *text;
	struct exp_proc procs_exp[4];
	struct e2e_jsonl j;
	json_object *tr;

	/* a library directory whose name holds ESC and a C1 CSI: it shows in stderr lines */
	cr_assert_eq(mkdir(e2e_path(dir, "lib\x1b[31mred\xc2\x9b"
					 "dir"),
			   0755),
		     0);
	copy_hwui(dir, hwui);
	snprintf(procs, sizeof(procs), "%s:*", target);
	snprintf(forged, sizeof(forged), "%s" FORGED_TAIL, target);
	const char *a_box[] = { "--proc",
				procs,
				"--frames",
				"--color=always",
				"-o",
				e2e_path(box, "box.txt"),
				"--trace-out",
				e2e_path(trace, "trace.json"),
				"--no-atrace-setup",
				NULL };
	const char *a_json[] = { "--proc",
				 procs,
				 "--format",
				 "json",
				 "-o",
				 e2e_path(json, "out.jsonl"),
				 "--no-atrace-setup",
				 NULL };
	pid_t at_box = e2e_animtrace(a_box, e2e_path(err_box, "box.err"), NULL);
	pid_t at_json = e2e_animtrace(a_json, e2e_path(err_json, "json.err"), NULL);
	pid_t s = forging_sim("name", hwui, go, expect);
	pid_t t = e2e_find_child(s, target), forger = e2e_find_child(s, forged);

	e2e_release(err_box, at_box, t, E2E_PROPS | E2E_ART, NULL);
	e2e_release(err_json, at_json, t, E2E_PROPS | E2E_ART, NULL);
	e2e_release(err_box, at_box, forger, E2E_MARKERS, NULL);
	e2e_release(err_json, at_json, forger, E2E_MARKERS, go);
	/* the forger is done; the target lingers with its leaked animator still running */
	await_exit(err_box, at_box, forger);
	await_exit(err_json, at_json, forger);
	e2e_await(box, at_box, "End animator:alpha ", NULL);
	snprintf(want, sizeof(want), "\"pid\":%d,", t);
	e2e_await(json, at_json, "{\"type\":\"animator_end\"", want, "\"name\":\"animator:alpha\"",
		  NULL);
	e2e_await(json, at_json, "{\"type\":\"frame\"", want, "\"seq\":24,", NULL);
	kill(at_box, SIGINT);
	kill(at_json, SIGINT);
	cr_assert_eq(e2e_exit_code(at_box, "animtrace (box)"), 0);
	cr_assert_eq(e2e_exit_code(at_json, "animtrace (json)"), 0);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);

	/* every output: no control byte but those animtrace writes itself */
	no_foreign_control(box, true);
	no_foreign_control(trace, false);
	no_foreign_control(json, false);
	no_foreign_control(err_box, false);
	no_foreign_control(err_json, false);

	/* the forged line is one escaped line of animtrace's, never a line of its own */
	text = e2e_slurp(err_box);
	snprintf(want, sizeof(want),
		 "\nanimtrace: tracing %s:x\\nanimtrace: com.android.systemui (pid 1) exited"
		 "\\x1b]0;pwned\\x07 (pid %d): a subprocess, by --proc %s\n",
		 target, forger, procs);
	cr_assert(strstr(text, want), "no \"%s\" in:\n%s", want, text);
	cr_assert_null(strstr(text, "\nanimtrace: com.android.systemui (pid 1) exited"), "%s",
		       text);
	snprintf(want, sizeof(want),
		 "animtrace: pid %d: View property values from %slib\\x1b[31mred\\u009bdir/"
		 "libhwui.so",
		 t, e2e_path(dir, "")); /* the temporary directory, a slash */
	cr_assert(strstr(text, want), "no \"%s\" in:\n%s", want, text);
	free(text);
	text = e2e_slurp(box);
	cr_assert(strstr(text, "Begin animator:\\x1b[31mred\\nfake "), "%s", text);
	free(text);

	/* the JSON and the trace parse, and the real target's records are as it played them */
	e2e_jsonl_load(&j, json);
	cr_assert_eq(exp_load(expect, procs_exp, 4), 2, "the target, and the forger's line");
	exp_check_target(&j, exp_role(procs_exp, 2, "target"));
	e2e_jsonl_free(&j);
	text = e2e_slurp(trace);
	tr = json_tokener_parse(text);
	cr_assert_not_null(tr, "the trace export is not JSON");
	json_object_put(tr);
	free(text);
}

/* ---- whose vsync, who is who ------------------------------------------------------------ */

/* The record of type whose pid is pid (the n-th of them); NULL when there is none. */
static json_object *record_of(const struct e2e_jsonl *j, const char *type, int64_t pid, int n)
{
	for (size_t i = 0; i < j->n; i++)
		if (e2e_type_is(j->v[i], type) && e2e_int(j->v[i], "pid") == pid && n-- == 0)
			return j->v[i];
	return NULL;
}

/* The summary's processes[] entry of pid. */
static json_object *summary_proc(const struct e2e_jsonl *j, int64_t pid)
{
	json_object *s = j->v[j->n - 1], *procs;

	cr_assert(e2e_type_is(s, "summary"));
	procs = e2e_get(s, "processes");
	for (size_t i = 0; i < json_object_array_length(procs); i++) {
		json_object *p = json_object_array_get_idx(procs, i);

		if (e2e_int(p, "pid") == pid)
			return p;
	}
	cr_assert_fail("no summary line for pid %lld", (long long)pid);
	return NULL;
}

/* The messages of the note records, joined by newlines. */
static char *notes(const struct e2e_jsonl *j)
{
	size_t len = 0;
	char *all = calloc(1, 1);

	for (size_t i = 0; i < j->n && all; i++) {
		const char *m;

		if (!e2e_type_is(j->v[i], "note"))
			continue;
		m = e2e_str(j->v[i], "message");
		all = realloc(all, len + strlen(m) + 2);
		cr_assert_not_null(all);
		len += (size_t)sprintf(all + len, "%s\n", m);
	}
	return all;
}

/* The "forge" line of kind in the simulator's expect file: its pid and marker count. */
static void forge_line(const char *expect, const char *kind, int *pid, int *markers)
{
	struct e2e_jsonl x;

	e2e_jsonl_load(&x, expect);
	for (size_t i = 0; i < x.n; i++)
		if (e2e_type_is(x.v[i], "forge") && !strcmp(e2e_str(x.v[i], "kind"), kind)) {
			*pid = (int)e2e_int(x.v[i], "pid");
			*markers = (int)e2e_int(x.v[i], "markers");
			e2e_jsonl_free(&x);
			return;
		}
	cr_assert_fail("no forge line of kind %s in %s", kind, expect);
}

static const char *const frame_keys[] = { "seq",   "vsync_id",	     "budget_ns",
					  "janky", "dropped_before", NULL };
static const char *const proc_keys[] = { "refresh_period_ns", "refresh_source", "frames",
					 "janky_frames",      "frames_dropped", NULL };

/* got and want agree on keys (record n, -1: a summary line). */
static void same_verdict(json_object *got, json_object *want, const char *const *keys, int n)
{
	cr_assert_not_null(got, "record %d missing", n);
	for (int k = 0; keys[k]; k++)
		cr_assert_str_eq(json_object_to_json_string(e2e_get(got, keys[k])),
				 json_object_to_json_string(e2e_get(want, keys[k])),
				 "%s of record %d: %s, without the writer %s", keys[k], n,
				 json_object_to_json_string(got), json_object_to_json_string(want));
}

Test(hostile, another_processs_vsync_app_counter_moves_no_frame_and_is_said_once)
{
	char go[PATH_MAX], expect[PATH_MAX], ref[PATH_MAX], att[PATH_MAX], err_ref[PATH_MAX];
	char err_att[PATH_MAX], evil[E2E_NAME_MAX + 8], ref_procs[2 * E2E_NAME_MAX + 32];
	char att_procs[3 * E2E_NAME_MAX + 32], note[E2E_NAME_MAX + 160], *text;
	struct e2e_jsonl r, a;
	int evil_pid, evil_markers, frames = 0;

	snprintf(evil, sizeof(evil), "%s.vsync", target);
	snprintf(ref_procs, sizeof(ref_procs), "%s,surfaceflinger", target);
	snprintf(att_procs, sizeof(att_procs), "%s,surfaceflinger,%s", target, evil);
	/* the same events to both: one traces the writer (as tracing every process would) */
	const char *a_ref[] = { "--proc",     ref_procs,  "--format",
				"json",	      "-o",	  e2e_path(ref, "ref.jsonl"),
				"--no-props", "--no-art", "--no-atrace-setup",
				NULL };
	const char *a_att[] = { "--proc",     att_procs,  "--format",
				"json",	      "-o",	  e2e_path(att, "att.jsonl"),
				"--no-props", "--no-art", "--no-atrace-setup",
				NULL };
	const char *sim[] = { E2E_ANIMSIM, "--name",
			      target,	   "--surfaceflinger",
			      "--forge",   "vsync",
			      "--frames",  "60",
			      "--go",	   e2e_path(go, "go"),
			      "--expect",  e2e_path(expect, "expect.jsonl"),
			      NULL };
	pid_t at_ref = e2e_animtrace(a_ref, e2e_path(err_ref, "ref.err"), NULL);
	pid_t at_att = e2e_animtrace(a_att, e2e_path(err_att, "att.err"), NULL);
	pid_t s = e2e_spawn(sim, NULL);
	pid_t t = e2e_find_child(s, target), sf = e2e_find_child(s, "surfaceflinger");
	pid_t ev = e2e_find_child(s, evil);

	for (int k = 0; k < 2; k++) {
		e2e_release(k ? err_att : err_ref, k ? at_att : at_ref, t, E2E_MARKERS, NULL);
		e2e_release(k ? err_att : err_ref, k ? at_att : at_ref, sf, E2E_MARKERS, NULL);
	}
	e2e_release(err_att, at_att, ev, E2E_MARKERS, go);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	for (int k = 0; k < 2; k++) {
		await_exit(k ? err_att : err_ref, k ? at_att : at_ref, t);
		await_exit(k ? err_att : err_ref, k ? at_att : at_ref, sf);
	}
	await_exit(err_att, at_att, ev);
	kill(at_ref, SIGINT);
	kill(at_att, SIGINT);
	cr_assert_eq(e2e_exit_code(at_ref, "animtrace (reference)"), 0);
	cr_assert_eq(e2e_exit_code(at_att, "animtrace (attacked)"), 0);
	forge_line(expect, "vsync", &evil_pid, &evil_markers);
	cr_assert_eq(evil_pid, ev);

	e2e_jsonl_load(&r, ref);
	e2e_jsonl_load(&a, att);
	cr_assert_eq(e2e_int(r.v[r.n - 1], "drops"), 0, "both saw every event");
	cr_assert_eq(e2e_int(a.v[a.n - 1], "drops"), 0);
	/* the target's frames against the display's vsyncs, and its period, lateness and drops,
	 * as without the writer (each animtrace stamps events with its own probes: times differ
	 * by microseconds, verdicts do not) */
	for (json_object *fr; (fr = record_of(&r, "frame", t, frames)); frames++)
		same_verdict(record_of(&a, "frame", t, frames), fr, frame_keys, frames);
	cr_assert_eq(frames, 60);
	cr_assert_null(record_of(&a, "frame", t, frames), "an extra frame");
	same_verdict(summary_proc(&a, t), summary_proc(&r, t), proc_keys, -1);
	cr_assert_str_eq(e2e_str(summary_proc(&r, t), "refresh_source"), "vsync");
	cr_assert_eq(e2e_int(summary_proc(&r, t), "refresh_period_ns"), 16666667);
	/* said once, counted all */
	cr_assert_eq(e2e_int(a.v[a.n - 1], "vsync_foreign"), evil_markers);
	cr_assert_gt(evil_markers, 0);
	text = notes(&a);
	snprintf(note, sizeof(note),
		 "pid %d (%s) wrote SurfaceFlinger's VSYNC-app counter but is not SurfaceFlinger: "
		 "its vsyncs are not used (said once; the summary counts them all)\n",
		 ev, evil);
	cr_assert_str_eq(text, note);
	free(text);
	text = notes(&r);
	cr_assert_str_eq(text, "");
	free(text);
	e2e_jsonl_free(&r);
	e2e_jsonl_free(&a);
}

/* The child of ppid named name that runs as uid (an impostor shares the target's name). */
static pid_t child_as(pid_t ppid, const char *name, unsigned int uid)
{
	for (int tries = 0; tries < 2000; tries++) {
		DIR *d = opendir("/proc");
		struct dirent *e;

		cr_assert_not_null(d);
		while ((e = readdir(d))) {
			char p[300], buf[512];
			unsigned int u = ~0u;
			int pp = 0;
			FILE *f;

			snprintf(p, sizeof(p), "/proc/%s/status", e->d_name);
			if (!(f = fopen(p, "r")))
				continue;
			while (fgets(buf, sizeof(buf), f))
				if (sscanf(buf, "PPid: %d", &pp) == 1 ||
				    sscanf(buf, "Uid: %u", &u) == 1)
					continue;
			fclose(f);
			snprintf(p, sizeof(p), "/proc/%s/cmdline", e->d_name);
			if (pp != ppid || u != uid || !(f = fopen(p, "r")))
				continue;
			buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
			fclose(f);
			if (!strcmp(buf, name)) {
				closedir(d);
				return atoi(e->d_name);
			}
		}
		closedir(d);
		usleep(10000);
	}
	cr_assert_fail("no child of %d named %s with uid %u", ppid, name, uid);
	return 0;
}

Test(hostile, a_process_that_takes_the_packages_name_is_marked_and_the_target_keeps_its_records)
{
	char list[PATH_MAX], list_var[PATH_MAX + 32], go[PATH_MAX], expect[PATH_MAX];
	char out[PATH_MAX], err[PATH_MAX], why[64], line[2 * E2E_NAME_MAX + 256], *text;
	struct exp_proc procs[4];
	struct e2e_jsonl j;
	json_object *imp;

	/* the package as packages.list has it: this machine's target runs as root */
	snprintf(line, sizeof(line), "%s 0 0 /data/user/0/%s default:targetSdkVersion=33 none\n",
		 target, target);
	write_file(e2e_path(list, "packages.list"), line, 0644);
	snprintf(list_var, sizeof(list_var), "ANIMTRACE_PACKAGES_LIST=%s", list);
	/* the impostor (another uid) waits for the go file: let it look it up */
	cr_assert_eq(chmod(e2e_path(go, ""), 0711), 0);
	const char *args[] = { "--proc",
			       target,
			       "--format",
			       "json",
			       "-o",
			       e2e_path(out, "o.jsonl"),
			       "--no-atrace-setup",
			       NULL };
	struct e2e_spawn so = { .env = e2e_env((const char *const[]){ list_var, NULL }) };
	pid_t at = e2e_animtrace(args, e2e_path(err, "err.txt"), &so);
	pid_t s = forging_sim("impostor", NULL, go, expect);
	pid_t t = child_as(s, target, 0), imp_pid = child_as(s, target, FORGE_UID);

	e2e_release(err, at, imp_pid, E2E_MARKERS, NULL);
	e2e_release(err, at, t, E2E_PROPS | E2E_ART, go);
	await_exit(err, at, imp_pid);
	snprintf(why, sizeof(why), "\"pid\":%d,", t);
	e2e_await(out, at, "{\"type\":\"frame\"", why, "\"seq\":24,", NULL);
	kill(at, SIGINT);
	cr_assert_eq(e2e_exit_code(at, "animtrace"), 0);
	cr_assert_eq(e2e_exit_code(s, "animsim"), 0);
	free(so.env);

	snprintf(why, sizeof(why), "uid %d, not 0 (%.20s", FORGE_UID, target);
	text = e2e_slurp(err);
	snprintf(line, sizeof(line),
		 "animtrace: warning: pid %d calls itself %s but is an impostor: uid %d, not 0 (%s "
		 "in packages.list); traced, and marked so\n",
		 imp_pid, target, FORGE_UID, target);
	cr_assert(strstr(text, line), "no \"%s\" in:\n%s", line, text);
	/* of the impostor only, once: no other line says "impostor" */
	cr_assert(strstr(text, "impostor") > strstr(text, line) &&
			  !strstr(strstr(text, line) + strlen(line), "impostor"),
		  "%s", text);
	free(text);
	e2e_jsonl_load(&j, out);
	text = notes(&j);
	snprintf(line, sizeof(line),
		 "pid %d calls itself %s but is an impostor: uid %d, not 0 (%s in packages.list)\n",
		 imp_pid, target, FORGE_UID, target);
	cr_assert(strstr(text, line), "no note \"%s\" in:\n%s", line, text);
	free(text);
	imp = summary_proc(&j, imp_pid);
	snprintf(line, sizeof(line), "uid %d, not 0 (%s in packages.list)", FORGE_UID, target);
	cr_assert_str_eq(e2e_str(imp, "impostor"), line);
	cr_assert_null(json_object_object_get(summary_proc(&j, t), "impostor"));
	cr_assert_eq(exp_load(expect, procs, 4), 2, "the target, and the impostor's line");
	exp_check_target(&j, exp_role(procs, 2, "target"));
	e2e_jsonl_free(&j);
}

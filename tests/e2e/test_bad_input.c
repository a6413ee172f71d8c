// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Every kind of bad input and failing output, through the real binary: the exit status,
 * the one message (an exact substring of stderr), no death by signal, and peak RSS under
 * 64 MB (wait4's ru_maxrss). Needs no root.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "damaged_captures.h"
#include "e2e.h"

#define TRACES TESTDATA "/traces/"
#define ANTUTU TRACES "antutu-2018.ftrace.txt"
#define ANTUTU_HTML TRACES "antutu-2018.systrace.html"
#define PIXEL TRACES "pixel7pro-android13-nowinandroid.perfetto-trace"
#define MIUI TRACES "miui-launcher-2021.ftrace.txt"
#define RSS_MAX_KB (64 * 1024)

TestSuite(bad_input, .init = e2e_setup, .fini = e2e_teardown, .timeout = 120);

struct run {
	int status; /* wait4's */
	long maxrss_kb;
	char *err, *out; /* stderr and stdout, whole */
};

/* Runs animtrace with argv (after argv[0]); stdin from in (NULL: /dev/null), stdout to a
 * file of the temp dir or, when append_to is set, appended to that file. */
static struct run run_io(const char *const *args, const char *in, const char *append_to)
{
	char errp[PATH_MAX], outp[PATH_MAX];
	const char *argv[24] = { E2E_ANIMTRACE };
	struct rusage ru;
	struct run r;
	pid_t pid;
	int n = 1;

	while (args[n - 1] && n < 23) {
		argv[n] = args[n - 1];
		n++;
	}
	e2e_path(errp, "stderr.txt");
	e2e_path(outp, "stdout.txt");
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int i = open(in ? in : "/dev/null", O_RDONLY);
		int o = append_to ? open(append_to, O_WRONLY | O_APPEND) :
				    open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (i < 0 || o < 0 || e < 0 || dup2(i, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	cr_assert_eq(wait4(pid, &r.status, 0, &ru), pid);
	r.maxrss_kb = ru.ru_maxrss;
	r.err = e2e_slurp(errp);
	r.out = e2e_slurp(outp);
	return r;
}

static struct run run_at(const char *const *args, const char *in)
{
	return run_io(args, in, NULL);
}

static void run_free(struct run *r)
{
	free(r->err);
	free(r->out);
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_eq(fwrite(data, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *d;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	d = malloc((size_t)n + 1);
	cr_assert_eq(fread(d, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return d;
}

/* The first n bytes of src, with byte at flip (if < n) xor 1. */
static char *cut_copy(const char *src, size_t n, size_t flip, const char *name, char *dst)
{
	size_t len;
	char *d = read_all(src, &len);

	cr_assert_leq(n, len);
	if (flip < n)
		d[flip] ^= 1;
	write_file(e2e_path(dst, name), d, n);
	free(d);
	return dst;
}

/* antutu's text with one long line (len bytes of 'x') or a NUL byte after line 20. */
static char *antutu_with(const char *name, size_t long_len, bool nul, char *dst)
{
	size_t len, at = 0;
	char *d = read_all(ANTUTU, &len);
	FILE *f;

	for (int l = 0; l < 20; l++)
		at = (size_t)(strchr(d + at, '\n') - d) + 1;
	f = fopen(e2e_path(dst, name), "w");
	cr_assert_not_null(f);
	fwrite(d, 1, at, f);
	for (size_t i = 0; i < long_len; i++)
		fputc('x', f);
	if (long_len)
		fputc('\n', f);
	if (nul) { /* inside line 21, a marker line of pid 24675's capture */
		fwrite(d + at, 1, 10, f);
		fputc('\0', f);
		at += 11;
	}
	fwrite(d + at, 1, len - at, f);
	cr_assert_eq(fclose(f), 0);
	free(d);
	return dst;
}

struct bad_case {
	const char *name;
	const char *args[12]; /* "@IN", "@OUT", "@DIR" are replaced by the prepared paths */
	int exit_code;
	const char *message; /* exact substring of stderr ("" for none) */
};

/* Files the table refers to, made fresh in the test's temp dir. */
struct prepared {
	char in[PATH_MAX], out[PATH_MAX], dir[PATH_MAX];
};

static void prepare(const struct bad_case *c, struct prepared *p)
{
	static const unsigned char gz[] = { 0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03, 0x4b, 0 };
	unsigned char rnd[65536];
	uint64_t s = 0x9e3779b97f4a7c15ull;

	e2e_path(p->out, "out.txt");
	write_file(p->out, "old content\n", 12);
	e2e_path(p->dir, "a_dir");
	mkdir(p->dir, 0755);
	snprintf(p->in, sizeof(p->in), "%s", ANTUTU);
	if (!strcmp(c->name, "foreign text")) {
		static const char prose[] = "Meeting notes\n\nThe launcher stutters when the "
					    "notification shade opens.\nTry again on Monday.\n";

		write_file(e2e_path(p->in, "notes.txt"), prose, sizeof(prose) - 1);
	} else if (!strcmp(c->name, "empty file")) {
		write_file(e2e_path(p->in, "empty"), "", 0);
	} else if (!strcmp(c->name, "random bytes")) {
		for (size_t i = 0; i < sizeof(rnd); i++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			rnd[i] = (unsigned char)(s >> 56);
		}
		write_file(e2e_path(p->in, "random.bin"), rnd, sizeof(rnd));
	} else if (!strcmp(c->name, "gzip")) {
		write_file(e2e_path(p->in, "trace.txt.gz"), gz, sizeof(gz));
	} else if (!strcmp(c->name, "truncated html")) {
		cut_copy(ANTUTU_HTML, 1500000, SIZE_MAX, "cut.html", p->in);
	} else if (!strcmp(c->name, "truncated protobuf")) {
		cut_copy(PIXEL, 500000, SIZE_MAX, "cut.pftrace", p->in);
	} else if (!strcmp(c->name, "bit-flipped protobuf")) {
		cut_copy(PIXEL, 893026, 360315, "flip.pftrace", p->in);
	} else if (!strcmp(c->name, "a 10 MB line")) {
		antutu_with("long.txt", 10u << 20, false, p->in);
	} else if (!strcmp(c->name, "a NUL byte inside a valid capture")) {
		antutu_with("nul.txt", 0, true, p->in);
	} else if (!strcmp(c->name, "output is the input")) {
		cut_copy(ANTUTU, 100000, SIZE_MAX, "same.txt", p->in);
		snprintf(p->out, sizeof(p->out), "%s", p->in);
	}
}

static const struct bad_case cases[] = {
	{ "missing file",
	  { "--replay", "/nonexistent/x.txt" },
	  1,
	  "animtrace: /nonexistent/x.txt: No such file or directory\n" },
	{ "directory", { "--replay", "@DIR" }, 1, ": Is a directory\n" },
	{ "empty file", { "--replay", "@IN" }, 1, ": not a capture (the file is empty)\n" },
	{ "foreign text",
	  { "--replay", "@IN" },
	  1,
	  "/notes.txt: not a capture (no ftrace lines, systrace html or Perfetto "
	  "trace found in the first " },
	{ "random bytes",
	  { "--replay", "@IN" },
	  1,
	  "random.bin: not a capture (no ftrace lines, systrace html or Perfetto trace found "
	  "in the first 65536 bytes)\n" },
	{ "gzip",
	  { "--replay", "@IN" },
	  1,
	  "trace.txt.gz: not a capture (compressed with gzip: gunzip it first)\n" },
	{ "truncated html",
	  { "--replay", "@IN", "-o", "/dev/null" },
	  0,
	  "animtrace: warning: damaged capture: cut at byte 1500000 (its last line dropped)\n" },
	{ "truncated protobuf",
	  { "--replay", "@IN", "-o", "/dev/null" },
	  0,
	  "animtrace: warning: damaged capture: cut at byte 500000 (its last packet dropped)\n" },
	{ "bit-flipped protobuf",
	  { "--replay", "@IN", "-o", "/dev/null" },
	  0,
	  "animtrace: warning: damaged capture: 1 damaged packet or message, 3025 bytes "
	  "skipped\n" },
	{ "a 10 MB line",
	  { "--replay", "@IN", "--pid", "24675", "-o", "/dev/null" },
	  0,
	  "animtrace: warning: damaged capture: 1 damaged line\n" },
	{ "a NUL byte inside a valid capture",
	  { "--replay", "@IN", "-o", "/dev/null" },
	  0,
	  "animtrace: warning: damaged capture: 1 damaged line\n" },
	{ "output is the input",
	  { "--replay", "@IN", "-o", "@OUT" },
	  2,
	  "is the capture being replayed: refusing to overwrite it\n" },
	{ "-o /dev/full",
	  { "--replay", ANTUTU, "-o", "/dev/full" },
	  1,
	  "animtrace: writing /dev/full: No space left on device\n" },
	{ "--trace-out /dev/full",
	  { "--replay", ANTUTU, "-o", "@OUT", "--trace-out", "/dev/full" },
	  1,
	  "animtrace: writing /dev/full: No space left on device\n" },
	{ "--trace-out a directory",
	  { "--replay", ANTUTU, "-o", "@OUT", "--trace-out", "@DIR" },
	  1,
	  "a_dir: Is a directory\n" },
	{ "/dev/zero",
	  { "--replay", "/dev/zero" },
	  1,
	  "animtrace: /dev/zero: not a capture (no ftrace lines, systrace html or Perfetto trace "
	  "found in the first 1048576 bytes)\n" },
	{ "--pid not in the capture",
	  { "--replay", ANTUTU, "--pid", "1" },
	  1,
	  "animtrace: no process in the capture matches --pid; processes that wrote markers: " },
	{ "a live-only flag with --replay",
	  { "--replay", ANTUTU, "--stats" },
	  2,
	  "animtrace: --stats is for live tracing: it does not apply to --replay\n" },
	{ "--duration nan",
	  { "--duration", "nan" },
	  2,
	  "animtrace: --duration wants seconds, more than 0 and at most 31536000 (a year), "
	  "not 'nan'\n" },
	{ "--duration 1e9", { "--duration", "1e9" }, 2, "not '1e9'\n" },
};

/* The case's args with @IN, @OUT and @DIR resolved. */
static void resolve(const struct bad_case *c, const struct prepared *p, const char **args)
{
	int i;

	for (i = 0; c->args[i]; i++)
		args[i] = !strcmp(c->args[i], "@IN")  ? p->in :
			  !strcmp(c->args[i], "@OUT") ? p->out :
			  !strcmp(c->args[i], "@DIR") ? p->dir :
							c->args[i];
	args[i] = NULL;
}

Test(bad_input, every_bad_input_gives_its_exit_status_and_one_message_without_a_crash)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct bad_case *c = &cases[k];
		const char *args[13];
		struct prepared p;
		struct run r;

		prepare(c, &p);
		resolve(c, &p, args);
		r = run_at(args, NULL);
		cr_expect(!WIFSIGNALED(r.status), "%s: killed by signal %d", c->name,
			  WTERMSIG(r.status));
		cr_expect(WIFEXITED(r.status) && WEXITSTATUS(r.status) == c->exit_code,
			  "%s: exit %d, want %d; stderr:\n%s", c->name, WEXITSTATUS(r.status),
			  c->exit_code, r.err);
		cr_expect(strstr(r.err, c->message), "%s: stderr lacks \"%s\":\n%s", c->name,
			  c->message, r.err);
		cr_expect_lt(r.maxrss_kb, RSS_MAX_KB, "%s: peak RSS %ld KiB", c->name, r.maxrss_kb);
		if (c->exit_code && strcmp(c->name, "output is the input")) {
			/* A failed run opened no -o FILE (outputs come after every check, and
			 * the trace file before -o), so its old content is still there. */
			char *old = e2e_slurp(p.out);

			cr_expect_str_eq(old, "old content\n", "%s: -o file now \"%s\"", c->name,
					 old);
			free(old);
		}
		if (!strcmp(c->name, "output is the input")) {
			struct stat st;

			cr_expect(stat(p.in, &st) == 0 && st.st_size == 100000,
				  "%s: capture changed", c->name);
		}
		run_free(&r);
	}
}

Test(bad_input, replays_standard_input_streamed)
{
	const char *args[] = { "--replay", "-", "--pid", "24675", "--format", "json", NULL };
	struct run r = run_at(args, ANTUTU);
	int ends = 0;

	for (const char *p = r.out; (p = strstr(p, "\"type\":\"animator_end\"")); p++)
		ends++;
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "stderr:\n%s", r.err);
	cr_assert_eq(ends, 16);
	cr_assert_lt(r.maxrss_kb, RSS_MAX_KB);
	run_free(&r);
}

/* A FIFO fed the first 100000 bytes of a capture (mid-line), then closed. */
Test(bad_input, reports_a_capture_cut_off_while_it_is_read_from_a_fifo)
{
	const char *args[] = { "--replay", NULL, "-o", "/dev/null", NULL };
	char fifo[PATH_MAX];
	size_t len;
	char *d = read_all(ANTUTU, &len);
	struct run r;
	pid_t feeder;

	cr_assert_eq(mkfifo(e2e_path(fifo, "capture.fifo"), 0600), 0);
	args[1] = fifo;
	fflush(NULL);
	feeder = fork();
	if (feeder == 0) {
		int fd = open(fifo, O_WRONLY);

		_exit(fd >= 0 && write(fd, d, 100000) == 100000 ? 0 : 1);
	}
	r = run_at(args, NULL);
	cr_assert_eq(waitpid(feeder, &(int){ 0 }, 0), feeder);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "stderr:\n%s", r.err);
	cr_assert(strstr(r.err, "animtrace: warning: damaged capture: cut at byte 100000 (its last "
				"line dropped)\n"),
		  "%s", r.err);
	run_free(&r);
	free(d);
}

/*
 * A file truncated while animtrace reads it: its stdout is a pipe the test stops reading,
 * so animtrace is still inside the capture when the file is cut to 1000 bytes (it was
 * mapped once, and died of SIGBUS here). Reading resumes after the cut: the run ends.
 */
Test(bad_input, survives_the_capture_being_truncated_while_it_is_read)
{
	char copy[PATH_MAX], buf[65536];
	int pfd[2], status;
	struct rusage ru;
	size_t len;
	char *d = read_all(MIUI, &len);
	pid_t pid;

	write_file(e2e_path(copy, "miui.txt"), d, len);
	free(d);
	cr_assert_eq(pipe(pfd), 0);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(pfd[1], 1);
		dup2(null, 2);
		close(pfd[0]);
		execl(E2E_ANIMTRACE, E2E_ANIMTRACE, "--replay", copy, "--format", "json",
		      "--frames", (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	cr_assert_gt(read(pfd[0], buf, 1), 0, "no first record");
	cr_assert_eq(truncate(copy, 1000), 0);
	while (read(pfd[0], buf, sizeof(buf)) > 0)
		;
	close(pfd[0]);
	cr_assert_eq(wait4(pid, &status, 0, &ru), pid);
	cr_assert(!WIFSIGNALED(status), "killed by signal %d", WTERMSIG(status));
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit %d", WEXITSTATUS(status));
	cr_assert_lt(ru.ru_maxrss, RSS_MAX_KB);
}

/* A million S markers that never end: the engine's caps hold (src/common/caps.h), the rest is
 * counted, and the replay stays under the RSS bound. */
Test(bad_input, a_million_unterminated_animators_are_capped_and_counted)
{
	char in[PATH_MAX], out[PATH_MAX];
	const char *args[] = { "--replay", in, "--format", "json", "-o", out, NULL };
	FILE *f = fopen(e2e_path(in, "million.txt"), "w");
	struct run r;

	cr_assert_not_null(f);
	for (long i = 0; i < 1000000; i++)
		fprintf(f,
			"  app-100 (  100) [000] .... %ld.%06ld: tracing_mark_write: "
			"S|100|animator|%ld\n",
			1 + i / 1000000, i % 1000000, i);
	cr_assert_eq(fclose(f), 0);
	e2e_path(out, "million.jsonl");
	r = run_at(args, NULL);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "stderr:\n%s", r.err);
	cr_assert_lt(r.maxrss_kb, RSS_MAX_KB, "peak RSS %ld KiB", r.maxrss_kb);
	char *text = e2e_slurp(out);
	const char *sum = strstr(text, "{\"type\":\"summary\"");

	cr_assert_not_null(sum);
	cr_assert_not_null(strstr(sum, "\"animators_started\":1000000,"), "%.400s", sum);
	cr_assert_not_null(strstr(sum, "\"evicted\":{\"animators\":998976,"), "%.2000s",
			   strstr(sum, "\"evicted\""));
	cr_log_info("a million open animators: peak RSS %ld KiB", r.maxrss_kb);
	free(text);
	run_free(&r);
}

/* Ways to name the capture as an output: each is refused before a byte is written. */
struct same_case {
	const char *name;
	const char *args[10]; /* @CAP the capture, @SYM a symlink to it, @HARD a hard link */
	bool stdin_cap;	      /* standard input is the capture */
	bool stdout_cap;      /* standard output is appended to the capture */
	const char *message;
};

static const struct same_case same_cases[] = {
	{ "same path",
	  { "--replay", "@CAP", "-o", "@CAP" },
	  false,
	  false,
	  "cap.txt is the capture being replayed: refusing to overwrite it\n" },
	{ "standard input",
	  { "--replay", "-", "-o", "@CAP" },
	  true,
	  false,
	  "cap.txt is the capture being replayed: refusing to overwrite it\n" },
	{ "symlink (allowed: --unsafe-output)",
	  { "--replay", "@CAP", "-o", "@SYM", "--unsafe-output" },
	  false,
	  false,
	  "sym.txt is the capture being replayed: refusing to overwrite it\n" },
	{ "hard link",
	  { "--replay", "@CAP", "-o", "@HARD" },
	  false,
	  false,
	  "hard.txt is the capture being replayed: refusing to overwrite it\n" },
	{ "symlink read, hard link written",
	  { "--replay", "@SYM", "-o", "@HARD" },
	  false,
	  false,
	  "hard.txt is the capture being replayed: refusing to overwrite it\n" },
	{ "--trace-out from standard input",
	  { "--replay", "-", "-o", "/dev/null", "--trace-out", "@SYM", "--unsafe-output" },
	  true,
	  false,
	  "sym.txt is the capture being replayed: refusing to overwrite it\n" },
	{ "--trace-out hard link",
	  { "--replay", "@CAP", "--trace-out", "@HARD" },
	  false,
	  false,
	  "hard.txt is the capture being replayed: refusing to overwrite it\n" },
	{ "standard output appended",
	  { "--replay", "-" },
	  true,
	  true,
	  "standard output is the capture being replayed: refusing to overwrite it\n" },
	{ "-o and --trace-out one file",
	  { "--replay", TRACES "antutu-2018.ftrace.txt", "-o", "@CAP", "--trace-out", "@HARD" },
	  false,
	  false,
	  "hard.txt is also -o: refusing to write both into it\n" },
};

Test(bad_input, refuses_any_output_that_is_the_capture_by_identity_and_leaves_it_intact)
{
	char cap[PATH_MAX], sym[PATH_MAX], hard[PATH_MAX];
	size_t len, now_len;
	char *orig = NULL, *now;

	for (size_t k = 0; k < sizeof(same_cases) / sizeof(same_cases[0]); k++) {
		const struct same_case *c = &same_cases[k];
		const char *args[11];
		struct run r;
		int i;

		cut_copy(ANTUTU, 100000, SIZE_MAX, "cap.txt", cap);
		unlink(e2e_path(sym, "sym.txt"));
		unlink(e2e_path(hard, "hard.txt"));
		cr_assert_eq(symlink(cap, sym), 0);
		cr_assert_eq(link(cap, hard), 0);
		free(orig);
		orig = read_all(cap, &len);
		for (i = 0; c->args[i]; i++)
			args[i] = !strcmp(c->args[i], "@CAP")  ? cap :
				  !strcmp(c->args[i], "@SYM")  ? sym :
				  !strcmp(c->args[i], "@HARD") ? hard :
								 c->args[i];
		args[i] = NULL;
		r = run_io(args, c->stdin_cap ? cap : NULL, c->stdout_cap ? cap : NULL);
		cr_expect(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2,
			  "%s: status %#x; stderr:\n%s", c->name, r.status, r.err);
		cr_expect(strstr(r.err, c->message) && !strchr(r.err, '\n')[1],
			  "%s: stderr is not the one line \"%s\":\n%s", c->name, c->message, r.err);
		now = read_all(cap, &now_len);
		cr_expect(now_len == len && !memcmp(now, orig, len),
			  "%s: the capture changed (%zu "
			  "bytes, was %zu)",
			  c->name, now_len, len);
		free(now);
		run_free(&r);
	}
	free(orig);
}

/* Damaged captures made on the fly: each is replayed (exit 0) and says its damage in one line. */
/* The summary's input object holds the counts stderr said (x's), for a pipeline. */
static void expect_input_object(size_t k, const char *out, const struct dc_expect *x)
{
	const char *line = strstr(out, "{\"type\":\"summary\"");
	json_object *s, *in;

	cr_assert(line, "case %zu: no summary", k);
	s = json_tokener_parse(line);
	cr_assert(s && json_object_object_get_ex(s, "input", &in), "case %zu: no input: %s", k,
		  line);
	cr_expect_eq(e2e_int(in, "damaged"), (int64_t)x->damaged, "case %zu: %s", k, line);
	cr_expect_eq(e2e_int(in, "bad_blocks"), (int64_t)x->bad_blocks, "case %zu: %s", k, line);
	cr_expect_eq(e2e_int(in, "skipped_bytes"), (int64_t)x->skipped, "case %zu: %s", k, line);
	cr_expect_eq(e2e_int(in, "truncated"), (int64_t)x->truncated, "case %zu: %s", k, line);
	cr_expect_eq(e2e_int(in, "time_jumps"), (int64_t)x->time_jumps, "case %zu: %s", k, line);
	cr_expect_gt(e2e_int(in, "bytes"), 0, "case %zu: %s", k, line);
	json_object_put(s);
}

Test(bad_input, every_kind_of_damage_is_said_once_in_one_line)
{
	static struct dc_expect (*const make[])(const char *) = {
		dc_damaged_protobuf, dc_bad_compressed,	    dc_cut_text,
		dc_time_jump_text,   dc_time_jump_protobuf,
	};
	char in[PATH_MAX];

	for (size_t k = 0; k < sizeof(make) / sizeof(make[0]); k++) {
		struct dc_expect x = make[k](e2e_path(in, "damaged.capture"));
		const char *args[] = { "--replay", in, "--format", "json", NULL };
		struct run r = run_at(args, NULL);
		const char *hit = strstr(r.err, "warning: damaged capture:");

		cr_expect(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0,
			  "case %zu: stderr:\n%s", k, r.err);
		cr_expect(strstr(r.err, x.message), "case %zu: stderr lacks \"%s\":\n%s", k,
			  x.message, r.err);
		cr_expect(hit && !strstr(hit + 1, "warning:"), "case %zu: said twice:\n%s", k,
			  r.err);
		expect_input_object(k, r.out, &x);
		run_free(&r);
	}
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* animtrace: argument parsing and wiring. */
#include <argp.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "animtrace/wire.h"
#include "common/diag.h"
#include "common/outfile.h"
#include "doctor.h"
#include "engine/engine.h"
#include "live/live.h"
#include "common/procsel.h"
#include "replay/replay.h"
#include "sinks/annotate.h"
#include "sinks/box.h"
#include "sinks/fanout.h"
#include "sinks/json.h"
#include "sinks/logcat.h"
#include "sinks/trace.h"
#include "symbols/hwui.h"

#ifndef ANIMTRACE_VERSION
#define ANIMTRACE_VERSION "0.1.0"
#endif

const char *argp_program_version = "animtrace " ANIMTRACE_VERSION;
const char *argp_program_bug_address = "the animtrace issue tracker";

static const char doc[] =
	"animtrace -- every animator and frame of an Android process, live from an\n"
	"unmodified rooted device (eBPF), or offline from an old capture."
	"\v"
	"EXAMPLES\n"
	"  animtrace --proc com.android.systemui\n"
	"      boxed Begin/End logs, live, until Ctrl-C\n"
	"  animtrace --proc com.android.systemui --frames\n"
	"      plus one line per frame with the View property values it set\n"
	"  animtrace --pid 1234 --format json -o anim.jsonl --trace-out anim.json\n"
	"      JSON lines, and a trace for ui.perfetto.dev (loads even after kill -9)\n"
	"  animtrace --proc 'com.google.android.gms:*'\n"
	"      a package and its :subprocesses, including ones started later\n"
	"  animtrace --proc com.android.systemui --annotate\n"
	"      while a Perfetto capture runs: animator and View property tracks in it\n"
	"  animtrace --proc com.android.systemui --refresh --stacks\n"
	"      which Views redraw in each frame, and who asked for the frame\n"
	"  animtrace --proc com.android.systemui --logcat -q &\n"
	"      in the background, into logcat under the seed tracers' tags:\n"
	"      adb logcat -s AnimatorTracer:I DynAnimTracer:I ViewPropTrace:I\n"
	"  animtrace --replay trace.perfetto-trace --proc com.foo\n"
	"      an old capture: ftrace text, systrace .html or Perfetto protobuf\n"
	"  animtrace doctor --proc com.android.systemui\n"
	"      can this device be traced live? one line per check, with the fix\n"
	"\n"
	"OUTPUT\n"
	"  A Begin and an End box per animator: its View (NotificationRow@80e0) and\n"
	"  every View it wrote, each property from -> to with a sparkline of its\n"
	"  per-frame values, duration, start delay, interpolator, why it ended (with\n"
	"  --stacks, who started and stopped it) and its smoothness (dropped and late\n"
	"  frames). Animation boxes for springs, flings and other animations without\n"
	"  markers, with the physics fitted from the values. Jank boxes for a late\n"
	"  frame or missed vsyncs that hit an animation, with what the UI thread and\n"
	"  the RenderThread were doing. Notes for anything left out or missing. At\n"
	"  exit a summary: per animator name count, cancels, frames, durations; the\n"
	"  longest animators and frames; smoothness per process; drops.\n"
	"\n"
	"REQUIREMENTS\n"
	"  Root, a kernel with BTF, uprobes and the BPF ring buffer (Android GKI\n"
	"  5.10+). Without AOT-compiled ValueAnimator methods in boot-framework.oat,\n"
	"  end reasons and targets are inferred (and said so).\n"
	"\n"
	"EXIT STATUS\n"
	"  0 after Ctrl-C, SIGTERM, SIGHUP or --duration; 1 when live tracing cannot\n"
	"  start (the message says what is missing: run 'animtrace doctor'), the\n"
	"  --replay file is not a capture, or -o / --trace-out cannot be written; 2 on\n"
	"  a usage error, also an output that is the capture (by device and inode:\n"
	"  links and standard input too; nothing is written then), or an output refused\n"
	"  without --unsafe-output (a symbolic link, another user's file, an old file\n"
	"  in a directory others can write). debug.atrace.*\n"
	"  properties are restored on every exit; after a SIGKILL, by the next run\n"
	"  (their previous values wait in a state file; 'animtrace doctor' shows it).\n"
	"\n"
	"ENVIRONMENT\n"
	"  LC_ALL/LC_CTYPE: box drawing and sparklines need a UTF-8 locale, ASCII\n"
	"  otherwise.\n"
	"  ANIMTRACE_LOGDW: a test hook: --logcat writes to this socket instead of\n"
	"  /dev/socket/logdw (a fake logd's).\n"
	"  ANIMTRACE_STATE_DIR: where the state file is kept (default\n"
	"  /data/local/animtrace, made 0700; refused unless only root can write it).\n"
	"  ANIMTRACE_PACKAGES_LIST: the packages.list a traced process's uid is checked\n"
	"  against, to mark one that took another package's name (default\n"
	"  /data/system/packages.list).\n";

enum {
	OPT_COLOR = 0x100,
	OPT_NO_ATRACE,
	OPT_STATS,
	OPT_BUFFER,
	OPT_PROPS,
	OPT_NO_PROPS,
	OPT_HWUI,
	OPT_HWUI_OFFSETS,
	OPT_NO_ART,
	OPT_ART_OAT,
	OPT_TRACE_OUT,
	OPT_STACKS,
	OPT_REFRESH,
	OPT_NO_HEAP,
	OPT_ANNOTATE,
	OPT_LOGCAT,
	OPT_LOGCAT_OUT,
	OPT_LOGCAT_RATE,
	OPT_UNSAFE_OUTPUT,
};

static const struct argp_option options[] = {
	{ 0, 0, 0, 0, "What to trace:", 1 },
	{ "proc", PROCFILTER_KEY_PROC, "NAME[,NAME]", 0,
	  "Processes whose argv[0] is NAME (NAME:* also takes NAME:subprocess); processes "
	  "that start later are picked up",
	  1 },
	{ "pid", PROCFILTER_KEY_PID, "PID[,PID]", 0, "Processes by id", 1 },
	{ "replay", 'r', "FILE", 0,
	  "Read a capture (ftrace text, systrace .html, Perfetto protobuf) instead of "
	  "tracing live",
	  1 },
	{ "duration", 'd', "SEC", 0, "Stop after SEC seconds (default: until Ctrl-C)", 1 },
	{ 0, 0, 0, 0, "Output:", 2 },
	{ "format", 'f', "box|json", 0, "Boxed logs (default) or one JSON object per line", 2 },
	{ "output", 'o', "FILE", 0, "Write to FILE instead of standard output", 2 },
	{ "frames", 'F', 0, 0, "Box format: one line per frame, with its View property values", 2 },
	{ "trace-out", OPT_TRACE_OUT, "FILE", 0,
	  "Also write a trace the Perfetto UI and chrome://tracing open (Trace Event JSON; "
	  "readable even when animtrace is killed)",
	  2 },
	{ "annotate", OPT_ANNOTATE, 0, 0,
	  "Live: also write what animtrace learns into trace_marker as atrace markers of the "
	  "traced process, so a Perfetto or atrace capture running meanwhile shows it (search "
	  "'Anim ', 'V ')",
	  2 },
	{ "quiet", 'q', 0, 0,
	  "No boxes or JSON on standard output (with --logcat: a background run)", 2 },
	{ "logcat", OPT_LOGCAT, 0, 0,
	  "Also write every record to the Android log (logd), under the seed tracers' tags: "
	  "AnimatorTracer, DynAnimTracer, ViewPropTrace, ViewRefresh, AnimFinding (W)",
	  2 },
	{ "logcat-out", OPT_LOGCAT_OUT, "FILE", 0,
	  "Also write those log lines to FILE as 'logcat -v threadtime' prints them, with the "
	  "records' times (a replay's: the capture's)",
	  2 },
	{ "logcat-rate", OPT_LOGCAT_RATE, "N", 0,
	  "Per-frame log entries (ViewPropTrace, ViewRefresh) a second at most, the rest "
	  "counted in their place (default 60; 0: all)",
	  2 },
	{ "unsafe-output", OPT_UNSAFE_OUTPUT, 0, 0,
	  "Write -o, --trace-out and --logcat-out even through a symbolic link, over another user's file, or "
	  "over a file in a directory others can write (refused by default: whoever can write "
	  "there could make animtrace, as root, overwrite any file)",
	  2 },
	{ "color", OPT_COLOR, "WHEN", OPTION_ARG_OPTIONAL, "auto (default), always or never", 2 },
	{ "stats", OPT_STATS, 0, 0, "Live: a stats line per second and per-CPU drops at exit", 2 },
	{ "verbose", 'v', 0, 0,
	  "Debug detail on stderr: libbpf's messages and, with --stacks, every unwound frame "
	  "(native ones too, before filtering)",
	  2 },
	{ 0, 0, 0, 0, "View property values (RenderNode setter probes):", 3 },
	{ "props", OPT_PROPS, 0, 0, "Probe the setters (default when they are found)", 3 },
	{ "no-props", OPT_NO_PROPS, 0, 0, "Do not probe the setters", 3 },
	{ "hwui", OPT_HWUI, "PATH", 0,
	  "The library holding the setters (default: libhwui.so, else libandroid_runtime.so, "
	  "from the process's maps)",
	  3 },
	{ "hwui-offsets", OPT_HWUI_OFFSETS, "PROP=OFF[,..]", 0,
	  "RenderNode field offsets, when the getters cannot be decoded (alpha=0x4c,...)", 3 },
	{ 0, 0, 0, 0,
	  "End reasons, exact targets, start delays (ART probes on ValueAnimator):", 4 },
	{ "no-art", OPT_NO_ART, 0, 0, "Do not probe ART code: end reasons and targets are inferred",
	  4 },
	{ "no-heap", OPT_NO_HEAP, 0, 0,
	  "Do not read each animator's configuration (duration, repeat, interpolator, values, "
	  "target) from its object at start()",
	  4 },
	{ "art-oat", OPT_ART_OAT, "PATH", 0,
	  "The oat holding framework code (default: boot-framework.oat from the maps)", 4 },
	{ "stacks", OPT_STACKS, "BYTES", OPTION_ARG_OPTIONAL,
	  "Java callers of start/cancel/end (CallStack, EndCallStack): copy BYTES of the user "
	  "stack at each call (default 4K, 64 to 32K) and unwind it",
	  4 },
	{ 0, 0, 0, 0, "Who redraws (libhwui and vsync request probes):", 5 },
	{ "refresh", OPT_REFRESH, 0, 0,
	  "Views that re-record their display list in each frame, redraw storms, and the "
	  "vsync requests (with --stacks, who asked for each frame); off by default",
	  5 },
	{ 0, 0, 0, 0, "Device set-up:", 6 },
	{ "no-atrace-setup", OPT_NO_ATRACE, 0, 0,
	  "Do not set debug.atrace.tags.enableflags / debug.atrace.app_* (they are restored "
	  "on exit otherwise)",
	  6 },
	{ "buffer-size", OPT_BUFFER, "SIZE", 0,
	  "BPF ring buffer size: bytes, or with K or M (default 256K, 4K to 1024M); what does "
	  "not fit is counted as lost",
	  6 },
	{ 0 },
};

struct cli {
	struct procfilter *filter;
	const char *live_flag; /* the first live-only option given (refused with --replay) */
	const char *replay, *output, *hwui, *hwui_offsets, *trace_out, *art_oat, *logcat_out;
	int no_props, no_art, refresh, no_heap;
	double duration;
	int json, frames, color, stats, no_atrace, verbose, annotate, quiet, logcat;
	int unsafe_output;
	unsigned int logcat_rate;
	size_t ringbuf_bytes;
	size_t stack_bytes; /* --stacks: 0 when off */
};

/* Measured on Android 12L boot-framework.oat (2156 methods): frames are 80 bytes at the
 * median, 176 at p90, 320 at most; 4 KiB holds about 16 p90 frames of Java callers. */
#define STACKS_DEFAULT 4096

static int parse_color(const char *arg)
{
	if (!arg || !strcmp(arg, "auto"))
		return -1;
	if (!strcmp(arg, "always"))
		return 1;
	if (!strcmp(arg, "never"))
		return 0;
	return -2;
}

/* "8M", "64K", "4096" -> bytes; 0 when malformed. */
static size_t parse_size(const char *arg)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);

	if (end == arg || arg[0] == '-')
		return 0;
	if ((*end == 'K' || *end == 'k') && !end[1])
		return v > (1ULL << 40) ? 0 : v << 10;
	if ((*end == 'M' || *end == 'm') && !end[1])
		return v > (1ULL << 30) ? 0 : v << 20;
	return *end ? 0 : v;
}

/* Options that only mean something when tracing live. */
static const char *live_only(int key)
{
	switch (key) {
	case 'd':
		return "--duration";
	case OPT_STATS:
		return "--stats";
	case OPT_BUFFER:
		return "--buffer-size";
	case OPT_NO_ATRACE:
		return "--no-atrace-setup";
	case OPT_PROPS:
		return "--props";
	case OPT_NO_PROPS:
		return "--no-props";
	case OPT_HWUI:
		return "--hwui";
	case OPT_HWUI_OFFSETS:
		return "--hwui-offsets";
	case OPT_NO_ART:
		return "--no-art";
	case OPT_NO_HEAP:
		return "--no-heap";
	case OPT_ART_OAT:
		return "--art-oat";
	case OPT_STACKS:
		return "--stacks";
	case OPT_REFRESH:
		return "--refresh";
	case OPT_ANNOTATE:
		return "--annotate";
	default:
		return NULL;
	}
}

#define DURATION_MAX 31536000.0 /* a year */

/* --logcat, --logcat-out, --logcat-rate. */
static error_t parse_logcat_opt(int key, char *arg, struct argp_state *state)
{
	struct cli *c = state->input;
	char *end;
	unsigned long v;

	switch (key) {
	case OPT_LOGCAT:
		c->logcat = 1;
		break;
	case OPT_LOGCAT_OUT:
		c->logcat_out = arg;
		break;
	case OPT_LOGCAT_RATE:
		errno = 0;
		v = strtoul(arg, &end, 10);
		if (end == arg || *end || *arg == '-' || errno || v > 100000)
			argp_error(state, "--logcat-rate is 0 to 100000 a second, not '%s'", arg);
		c->logcat_rate = (unsigned int)v;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Output options: format, files and what the box format shows. */
static error_t parse_output_opt(int key, char *arg, struct argp_state *state)
{
	struct cli *c = state->input;

	switch (key) {
	case 'f':
		if (strcmp(arg, "box") && strcmp(arg, "json"))
			argp_error(state, "--format is box or json, not '%s'", arg);
		c->json = !strcmp(arg, "json");
		break;
	case 'o':
		c->output = arg;
		break;
	case 'F':
		c->frames = 1;
		break;
	case OPT_TRACE_OUT:
		c->trace_out = arg;
		break;
	case OPT_UNSAFE_OUTPUT:
		c->unsafe_output = 1;
		break;
	case OPT_COLOR:
		if ((c->color = parse_color(arg)) == -2)
			argp_error(state, "--color is auto, always or never, not '%s'", arg);
		break;
	case 'v':
		c->verbose = 1;
		break;
	case 'q':
		c->quiet = 1;
		break;
	default:
		return parse_logcat_opt(key, arg, state);
	}
	return 0;
}

/* The probes live tracing attaches: setters, ART, stacks, refresh. */
static error_t parse_probe_opt(int key, char *arg, struct argp_state *state)
{
	struct cli *c = state->input;
	char why[160];

	switch (key) {
	case OPT_PROPS:
	case OPT_NO_PROPS:
		c->no_props = key == OPT_NO_PROPS;
		break;
	case OPT_HWUI:
		c->hwui = arg;
		break;
	case OPT_HWUI_OFFSETS:
		/* All of it now: a typo must not be blamed on the library later. */
		if (hwui_parse_offsets(arg, (uint32_t[AT_PROP_COUNT]){ 0 }, why, sizeof(why)))
			argp_error(state, "--hwui-offsets: %s", why);
		c->hwui_offsets = arg;
		break;
	case OPT_NO_ART:
		c->no_art = 1;
		break;
	case OPT_NO_HEAP:
		c->no_heap = 1;
		break;
	case OPT_ART_OAT:
		c->art_oat = arg;
		break;
	case OPT_STACKS:
		c->stack_bytes = arg ? parse_size(arg) : STACKS_DEFAULT;
		if (c->stack_bytes < 64 || c->stack_bytes > AT_ART_STACK_MAX)
			argp_error(state, "--stacks is 64 to 32K bytes, not '%s'", arg);
		break;
	case OPT_REFRESH:
		c->refresh = 1;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The live session itself: duration, stats, device set-up, ring buffer, annotations. */
static error_t parse_session_opt(int key, char *arg, struct argp_state *state)
{
	struct cli *c = state->input;
	char *end;

	switch (key) {
	case 'd':
		c->duration = strtod(arg, &end);
		/* Written so that NaN fails too; past a year is a typo, not a plan. */
		if (end == arg || *end || !(c->duration > 0 && c->duration <= DURATION_MAX))
			argp_error(state,
				   "--duration wants seconds, more than 0 and at most "
				   "31536000 (a year), not '%s'",
				   arg);
		break;
	case OPT_STATS:
		c->stats = 1;
		break;
	case OPT_ANNOTATE:
		c->annotate = 1;
		break;
	case OPT_NO_ATRACE:
		c->no_atrace = 1;
		break;
	case OPT_BUFFER:
		c->ringbuf_bytes = parse_size(arg);
		if (c->ringbuf_bytes < 4096 || c->ringbuf_bytes > (1UL << 30))
			argp_error(state, "--buffer-size is 4K to 1024M, not '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct cli *c = state->input;

	if (!c->live_flag)
		c->live_flag = live_only(key);
	switch (key) {
	case PROCFILTER_KEY_PROC:
	case PROCFILTER_KEY_PID:
		return procfilter__parse_opt(c->filter, key, arg, state);
	case 'r':
		c->replay = arg;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (c->replay && c->live_flag)
			argp_error(state, "%s is for live tracing: it does not apply to --replay",
				   c->live_flag);
		break;
	default:
		if (parse_output_opt(key, arg, state) == ARGP_ERR_UNKNOWN &&
		    parse_probe_opt(key, arg, state) == ARGP_ERR_UNKNOWN)
			return parse_session_opt(key, arg, state);
	}
	return 0;
}

static void on_signal(int sig)
{
	live_stop = 1;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a closed pipe shows as EPIPE on the output stream */
}

struct output {
	struct outfile file; /* -o, checked by open_files, truncated when its sink is made */
	FILE *f, *trace_f, *logcat_f;
	const char *name, *trace_name, *logcat_out; /* for messages */
	struct sink_box *box;
	struct sink_json *json;
	struct sink_trace *trace;
	struct sink_annotate *annotate;
	struct sink_logcat *logcat;
	struct sink_fanout *fanout; /* the engine's sink: every one of the above that is open */
	struct sink sink;
};

/* --annotate could not write (no trace_marker, tracefs unmounted): said once, tracing goes on. */
static void annotate_warn(void *ctx, int err, const char *path)
{
	diag(DIAG_WARN, "annotations stopped: %s: %s; tracing goes on", path, strerror(-err));
}

/* The one sentence for a failed output; returns -1 for the caller's exit status. */
static int write_error(const char *name, int err)
{
	diag(DIAG_ERROR, "writing %s: %s", name, strerror(err < 0 ? -err : err));
	return -1;
}

/* Truncates and wraps an output checked by open_files. */
static FILE *commit_file(struct outfile *o, const char *name)
{
	FILE *f = outfile_commit(o);

	if (!f)
		write_error(name, errno);
	return f;
}

/* --trace-out: a trace file next to the main output (open_output). */
static int open_trace(const struct cli *c, struct output *out)
{
	if (!c->trace_out)
		return 0;
	out->trace_name = c->trace_out;
	out->trace = sink_trace__new(out->trace_f);
	if (!out->trace) {
		write_error(c->trace_out, errno);
		fclose(out->trace_f); /* reported: close_output must not say it twice */
		out->trace_f = NULL;
		return -1;
	}
	return 0;
}

/*
 * Whether boxes may use UTF-8. The locale says so when glibc could load it; a static binary on
 * a device has no locale files (setlocale fails and CODESET is ASCII), so the variable that
 * names the locale counts too (LC_ALL, then LC_CTYPE, then LANG, as POSIX orders them); and on
 * Android, whose terminals and logcat are UTF-8 throughout, no locale named means UTF-8
 * (ANDROID_ROOT is in every process's environment there).
 */
static bool utf8_output(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
	const char *cs = nl_langinfo(CODESET);

	if (cs && !strcmp(cs, "UTF-8"))
		return true;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return strcasestr(v, "UTF-8") || strcasestr(v, "UTF8");
	}
	return getenv("ANDROID_ROOT") != NULL;
}

static int open_sink(const struct cli *c, struct output *out)
{
	if (c->quiet)
		return 0;
	out->name = c->output ? c->output : "standard output";
	out->f = c->output ? commit_file(&out->file, c->output) : stdout;
	if (!out->f)
		return -1;
	if (c->json) {
		out->json = sink_json__new(out->f);
		if (out->json)
			out->sink = sink_json__sink(out->json);
		return out->json ? 0 : -1;
	}
	struct sink_box_opts o = {
		.color = c->color == -1 ? isatty(fileno(out->f)) : c->color,
		.frames = c->frames,
		.utf8 = utf8_output(),
	};
	out->box = sink_box__new(out->f, &o);
	if (out->box)
		out->sink = sink_box__sink(out->box);
	return out->box ? 0 : -1;
}

/* One line for an output that would destroy the capture or the other output. */
static int refuse(const char *name, const char *what)
{
	diag(DIAG_ERROR, "%s %s", name, what);
	return -2;
}

/* An output outfile_open did not open: refused (-2, said) or failed (-1, said). */
static int open_error(const struct outfile *o, int err)
{
	char buf[64];

	if (err != -EPERM || !o->refused)
		return write_error(o->path, err);
	diag(DIAG_ERROR, "%s %s (--unsafe-output allows it)", o->path,
	     outfile_refusal_str(o, buf, sizeof(buf)));
	return -2;
}

/* --logcat-out: neither the capture nor another output. 0 or -2 (refused, said). */
static int logcat_file_check(const char *name, const struct file_id *id, const struct file_id *in,
			     const struct file_id *o, const struct file_id *std,
			     const struct file_id *trace)
{
	if (file_id_same(id, in))
		return refuse(name, "is the capture being replayed: refusing to overwrite it");
	if (file_id_same(id, o) || file_id_same(id, std) || file_id_same(id, trace))
		return refuse(name, "is also another output: refusing to write both into it");
	return 0;
}

/*
 * Opens -o and --trace-out without truncating them, and refuses one that is the capture (the
 * same device and inode: standard input, symlinks and hard links too), the other output or
 * standard output, before a byte is written; then truncates them. Standard output, when it is
 * the output, must not be the capture either. 0, -1 (could not open, said) or -2 (refused).
 */
static int open_files(const struct cli *c, const struct replay *r, struct output *out)
{
	struct outfile *o = &out->file, t = { 0 }, l = { 0 };
	struct file_id in = { 0 }, std = { 0 };
	const char *oname = c->output ? c->output : "standard output";
	int err = 0, ret = -1;

	out->logcat_out = c->logcat_out;
	if (r)
		replay__input_id(r, &in);
	if (!c->output && !c->quiet)
		file_id_of_fd(STDOUT_FILENO, &std);
	if (c->trace_out && (err = outfile_open(&t, c->trace_out, c->unsafe_output)))
		ret = open_error(&t, err);
	else if (c->logcat_out && (err = outfile_open(&l, c->logcat_out, c->unsafe_output)))
		ret = open_error(&l, err);
	else if (c->output && (err = outfile_open(o, c->output, c->unsafe_output)))
		ret = open_error(o, err);
	else if (file_id_same(&o->id, &in) || file_id_same(&std, &in))
		ret = refuse(oname, "is the capture being replayed: refusing to overwrite it");
	else if (file_id_same(&t.id, &in))
		ret = refuse(c->trace_out,
			     "is the capture being replayed: refusing to overwrite it");
	else if (file_id_same(&t.id, &o->id) || file_id_same(&t.id, &std))
		ret = refuse(c->trace_out,
			     c->output ? "is also -o: refusing to write both into it" :
					 "is also standard output: refusing to write both into it");
	else
		ret = logcat_file_check(c->logcat_out, &l.id, &in, &o->id, &std, &t.id);
	if (ret) {
		outfile_abandon(&l);
		outfile_abandon(&t);
		outfile_abandon(o);
		return ret;
	}
	/* -o is truncated only once the trace sink is made (open_sink): see open_output. */
	if (c->trace_out && !(out->trace_f = commit_file(&t, c->trace_out))) {
		outfile_abandon(&l);
		return -1;
	}
	if (c->logcat_out && !(out->logcat_f = commit_file(&l, c->logcat_out)))
		return -1;
	return 0;
}

/*
 * --logcat, --logcat-out: one sink for both. No logd socket (not Android) is said in one line;
 * the other outputs go on.
 */
static int open_logcat(const struct cli *c, struct output *out)
{
	const char *path = getenv(LOGCAT_SOCKET_ENV) ? getenv(LOGCAT_SOCKET_ENV) : LOGCAT_SOCKET;
	struct sink_logcat_opts o = { .text = out->logcat_f, .rate = c->logcat_rate };
	int err = 0;

	if (!c->logcat && !c->logcat_out)
		return 0;
	out->logcat = sink_logcat__new(&o);
	if (!out->logcat)
		return write_error("logcat", errno);
	if (c->logcat && (err = sink_logcat__connect(out->logcat, path)))
		diag(DIAG_WARN,
		     "--logcat: no logd socket at %s (%s): not Android? nothing goes to "
		     "logcat; the other outputs go on",
		     path, strerror(-err));
	if (err && !out->logcat_f) { /* nowhere to write */
		sink_logcat__free(out->logcat);
		out->logcat = NULL;
	}
	return 0;
}

/* What went to logcat and what did not, at exit like every other loss. */
static void logcat_report(const struct sink_logcat *l)
{
	struct logcat_stats st;

	if (!l)
		return;
	sink_logcat__stats(l, &st);
	diag(st.refused || st.failed ? DIAG_WARN : DIAG_INFO,
	     "logcat: %llu messages written (%llu entries in parts), %llu refused by logd (its "
	     "socket was full: lost), %llu per-frame entries over --logcat-rate (counted in "
	     "the log)",
	     (unsigned long long)st.sent, (unsigned long long)st.split,
	     (unsigned long long)st.refused, (unsigned long long)st.rate_limited);
	if (st.failed)
		diag(DIAG_WARN, "logcat: %llu messages lost: %s", (unsigned long long)st.failed,
		     strerror(st.last_errno));
}

/*
 * The trace file first: a --trace-out that cannot be created must not have truncated
 * -o FILE already. Then one fan-out feeds them all, annotations first: one is written
 * before the slower outputs; logcat after the boxes, so that both summaries say the same.
 */
static int open_output(const struct cli *c, struct output *out)
{
	struct sink main_sink;

	if (open_trace(c, out))
		return -1;
	if (open_sink(c, out))
		return -1;
	main_sink = out->sink;
	if (c->annotate && !(out->annotate = sink_annotate__new(annotate_warn, NULL)))
		return write_error("trace_marker", errno);
	if (open_logcat(c, out))
		return -1;
	if (!(out->fanout = sink_fanout__new()) ||
	    (out->annotate && sink_fanout__add(out->fanout, sink_annotate__sink(out->annotate))) ||
	    (out->trace && sink_fanout__add(out->fanout, sink_trace__sink(out->trace))) ||
	    (main_sink.ops && sink_fanout__add(out->fanout, main_sink)) ||
	    (out->logcat && sink_fanout__add(out->fanout, sink_logcat__sink(out->logcat))))
		return write_error(out->name, ENOMEM);
	out->sink = sink_fanout__sink(out->fanout);
	if (!c->replay && out->f) /* live: each record as it happens, even into a pipe */
		setvbuf(out->f, NULL, _IOLBF, 0);
	if (!c->replay && out->logcat_f)
		setvbuf(out->logcat_f, NULL, _IOLBF, 0);
	return 0;
}

/* Closes f (standard output too, so that its last flush is checked). 0 or -errno. */
static int close_file(FILE *f)
{
	bool failed = ferror(f);

	errno = 0;
	if (fclose(f) || failed)
		return errno ? -errno : -EIO;
	return 0;
}

/*
 * Flushes and closes every output; prints one sentence for the first that failed (err: the
 * engine's sink error, which says why when a write failed before the end). 0 or -1.
 */
static int close_output(struct output *out, int err)
{
	bool trace_bad = out->trace_f && ferror(out->trace_f);
	int terr = sink_trace__free(out->trace), oerr = 0, lerr = 0;

	if (out->trace_f) {
		int cerr = close_file(out->trace_f);

		terr = terr ? terr : cerr;
	}
	sink_fanout__free(out->fanout);
	sink_annotate__free(out->annotate);
	logcat_report(out->logcat);
	sink_logcat__free(out->logcat);
	if (out->logcat_f && (lerr = close_file(out->logcat_f)))
		write_error(out->logcat_out, lerr);
	sink_box__free(out->box);
	sink_json__free(out->json);
	outfile_abandon(&out->file); /* -o when a failure came first: left as it was */
	if (out->f)
		oerr = close_file(out->f);
	if (lerr)
		return -1;
	if (oerr)
		return write_error(out->name, err && !trace_bad ? err : oerr);
	if (terr)
		return write_error(out->trace_name, err && trace_bad ? err : terr);
	return 0;
}

/* What the capture could not give, in one line, once, after the replay. */
static void replay_warnings(const struct replay_stats *st)
{
	char line[512];

	if (input_stats_describe(&st->input, line, sizeof(line)))
		diag(DIAG_WARN, "damaged capture: %s", line);
}

static int run_replay(struct replay *r, struct engine *e)
{
	struct replay_stats st;

	replay__run(r, e, &st);
	engine__input(e, &st.input);
	engine__finish(e, st.last_ns, 0, 0);
	replay_warnings(&st);
	return 0;
}

static int run_live(const struct cli *c, struct engine *e, FILE *out,
		    struct sink_annotate *annotate)
{
	struct live_opts o = {
		.filter = c->filter,
		.atrace_setup = !c->no_atrace,
		.duration_s = c->duration,
		.stats = c->stats,
		.ringbuf_bytes = c->ringbuf_bytes,
		.proc_root = "/proc",
		.props = !c->no_props,
		.hwui_path = c->hwui,
		.hwui_offsets = c->hwui_offsets,
		.art = !c->no_art,
		.no_heap = c->no_heap,
		.art_oat = c->art_oat,
		.stack_bytes = c->stack_bytes,
		.refresh = c->refresh,
		.out = out,
		.annotate = annotate,
	};

	install_signals();
	return live_run(&o, e);
}

int main(int argc, char **argv)
{
	static const struct argp argp = { .options = options, .parser = parse_opt, .doc = doc };
	struct cli c = { .color = -1, .logcat_rate = LOGCAT_RATE_DEFAULT };
	struct output out = { 0 };
	struct replay *r = NULL;
	struct engine *e = NULL;
	char msg[768] = "";
	int ret = 1, err;

	setlocale(LC_CTYPE, "");
	if (argc > 1 && !strcmp(argv[1], "doctor"))
		return doctor_main(argc - 1, argv + 1);
	argp_err_exit_status = 2;
	c.filter = procfilter__new();
	if (!c.filter || argp_parse(&argp, argc, argv, 0, NULL, &c))
		return 2;
	diag_init(stderr, c.verbose ? DIAG_DEBUG : DIAG_INFO);
	/* Every input is validated before any output is created (or truncated). */
	if (c.replay && !(r = replay__open(c.replay, c.filter, msg, sizeof(msg)))) {
		diag(DIAG_ERROR, "%s", msg); /* it may quote the capture */
		goto out;
	}
	err = open_files(&c, r, &out);
	if (err) {
		ret = err == -2 ? 2 : 1;
		goto out;
	}
	if (open_output(&c, &out))
		goto out;
	e = engine__new(&(struct engine_opts){ 0 }, out.sink);
	if (!e)
		goto out;
	ret = (r ? run_replay(r, e) : run_live(&c, e, out.f, out.annotate)) ? 1 : 0;
out:
	if (close_output(&out, e ? engine__sink_error(e) : 0))
		ret = 1;
	engine__free(e);
	replay__free(r);
	procfilter__free(c.filter);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* animtrace doctor: can this device be traced live? See doctor.h. */
#include "live/androidprop.h"
#include "symbols/art.h"
#include "live/atrace_setup.h"
#include "live/atrace_state.h"
#include "doctor.h"
#include "symbols/elfsym.h"
#include "symbols/hwui.h"
#include "common/procsel.h"
#include "common/termesc.h"

#include <argp.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#define NAME_W 22
#define MAX_PIDS 64
#define SHOW_PIDS 8
#define PROP_FLAGS ATRACE_SETUP_PROP_FLAGS

enum state { ST_OK, ST_MISSING, ST_WARN, ST_SKIP };

static const char *const state_word[] = { "ok", "missing", "warn", "skip" };

struct doctor {
	const struct doctor_opts *o;
	FILE *out;
	const struct doctor_probes *p;
	unsigned int euid;
	const char *proc_root, *tracefs;
	char release[65];
	int n_failed; /* blocking checks that are missing */
	int n_warn;   /* other lines that are not ok or skip */
	char failed[160];
};

static void say(struct doctor *d, const char *name, enum state st, bool blocking, const char *fmt,
		...) __attribute__((format(printf, 5, 6)));

/* One aligned line; the details say what was found and, when not ok, what to do. */
static void say(struct doctor *d, const char *name, enum state st, bool blocking, const char *fmt,
		...)
{
	size_t n = strlen(d->failed);
	va_list ap;

	char detail[2048];

	fprintf(d->out, "%-*s %-7s  ", NAME_W, name, state_word[st]);
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	termesc_put(d->out, detail, strlen(detail)); /* process names, paths, property values */
	fputc('\n', d->out);
	if (st == ST_OK || st == ST_SKIP)
		return;
	if (!blocking || st != ST_MISSING) {
		d->n_warn++;
		return;
	}
	d->n_failed++;
	snprintf(d->failed + n, sizeof(d->failed) - n, "%s%s", n ? ", " : "", name);
}

/* ---- the real system ---------------------------------------------------------------- */

static unsigned int sys_euid(void)
{
	return (unsigned int)geteuid();
}

static int sys_release(char *buf, size_t cap)
{
	struct utsname u;

	if (uname(&u))
		return -errno;
	snprintf(buf, cap, "%s", u.release);
	return 0;
}

static int sys_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -errno : 0;
}

static int sys_readable(const char *path)
{
	return access(path, R_OK) ? -errno : 0;
}

static int sys_writable(const char *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int sys_read_line(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	if (!fgets(buf, (int)cap, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* gzopen also reads an uncompressed file, like /boot/config-*. */
static int sys_each_line(const char *path, void (*fn)(void *ctx, const char *line), void *ctx)
{
	gzFile gz = gzopen(path, "rb");
	char line[512];

	if (!gz)
		return errno ? -errno : -ENOMEM;
	while (gzgets(gz, line, sizeof(line))) {
		line[strcspn(line, "\n")] = '\0';
		fn(ctx, line);
	}
	gzclose(gz);
	return 0;
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static int sys_parse_btf(const char *path)
{
	libbpf_print_fn_t old = libbpf_set_print(quiet); /* modules never print */
	struct btf *btf = btf__parse(path, NULL);
	long err = libbpf_get_error(btf);

	btf__free(err ? NULL : btf);
	libbpf_set_print(old);
	return (int)err;
}

static int sys_ringbuf(void)
{
	libbpf_print_fn_t old = libbpf_set_print(quiet);
	int r = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL);

	libbpf_set_print(old);
	return r;
}

const struct doctor_probes doctor_system_probes = {
	.euid = sys_euid,
	.release = sys_release,
	.exists = sys_exists,
	.readable = sys_readable,
	.writable = sys_writable,
	.read_line = sys_read_line,
	.each_line = sys_each_line,
	.parse_btf = sys_parse_btf,
	.ringbuf = sys_ringbuf,
	.has_getprop = androidprop_available,
	.getprop = androidprop_get,
};

/* ---- kernel and device ------------------------------------------------------------- */

static void check_root(struct doctor *d)
{
	unsigned int euid = d->euid;

	if (!euid)
		say(d, "root", ST_OK, true, "euid 0");
	else
		say(d, "root", ST_MISSING, true,
		    "euid %u: run as root (su -c on a rooted device, adb root on userdebug)", euid);
}

static void check_selinux(struct doctor *d)
{
	const char *path = d->o->selinux ? d->o->selinux : "/sys/fs/selinux/enforce";
	char mode[16] = "";
	int err = d->p->read_line(path, mode, sizeof(mode));

	if (err == -ENOENT)
		say(d, "SELinux", ST_OK, false, "absent");
	else if (err)
		say(d, "SELinux", ST_WARN, false, "cannot read %s (%s): BPF may be denied", path,
		    strerror(-err));
	else if (!strcmp(mode, "0"))
		say(d, "SELinux", ST_OK, false, "permissive");
	else if (!strcmp(mode, "1"))
		say(d, "SELinux", ST_WARN, false,
		    "enforcing: BPF may be denied: setenforce 0 or use Magisk/KernelSU");
	else
		say(d, "SELinux", ST_WARN, false, "cannot read %s: BPF may be denied", path);
}

static void check_kernel(struct doctor *d)
{
	unsigned int major = 0, minor = 0;

	if (sscanf(d->release, "%u.%u", &major, &minor) != 2)
		say(d, "kernel", ST_MISSING, true, "cannot parse release '%s'", d->release);
	else if (major > 5 || (major == 5 && minor >= 8))
		say(d, "kernel", ST_OK, true, "%s", d->release);
	else
		say(d, "kernel", ST_MISSING, true,
		    "%s: the BPF ring buffer needs Linux 5.8+ (Android GKI 5.10 or later)",
		    d->release);
}

static void check_btf(struct doctor *d)
{
	const char *path = d->o->btf ? d->o->btf : "/sys/kernel/btf/vmlinux";
	int err = d->p->readable(path);

	if (err) {
		say(d, "BTF", ST_MISSING, true,
		    "%s: %s: the kernel needs CONFIG_DEBUG_INFO_BTF=y (most GKI 5.10+ builds)",
		    path, strerror(-err));
		return;
	}
	err = d->p->parse_btf(path);
	if (err) {
		say(d, "BTF", ST_MISSING, true, "%s does not parse (%s): kernel BTF is broken",
		    path, strerror(-err));
		return;
	}
	say(d, "BTF", ST_OK, true, "%s", path);
}

/* ---- kernel config ----------------------------------------------------------------- */

static const struct cfg_opt {
	const char *name, *alt, *why;
} cfg_opts[] = {
	{ "CONFIG_BPF_SYSCALL", NULL, "the bpf() syscall" },
	{ "CONFIG_DEBUG_INFO_BTF", NULL, "/sys/kernel/btf/vmlinux" },
	{ "CONFIG_UPROBE_EVENTS", "CONFIG_UPROBES", "property values and ART reasons (uprobes)" },
	{ "CONFIG_BPF_EVENTS", NULL, "BPF programs on tracepoints and uprobes" },
	{ "CONFIG_FTRACE_SYSCALLS", NULL, "the raw_syscalls tracepoints" },
};

#define N_CFG (sizeof(cfg_opts) / sizeof(cfg_opts[0]))

/* The value of name in a "NAME=value" line, or NULL. */
static const char *cfg_value(const char *line, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(line, name, n) && line[n] == '=' ? line + n + 1 : NULL;
}

/* Records "=y"/"=m" of each option (and of its alternative) in val[i][0..1]. */
static void scan_line(void *ctx, const char *line)
{
	char(*val)[2][8] = ctx;

	for (size_t i = 0; i < N_CFG; i++) {
		const char *v = cfg_value(line, cfg_opts[i].name);
		const char *a = cfg_opts[i].alt ? cfg_value(line, cfg_opts[i].alt) : NULL;

		if (v && (*v == 'y' || *v == 'm'))
			snprintf(val[i][0], sizeof(val[i][0]), "%s", v);
		if (a && (*a == 'y' || *a == 'm'))
			snprintf(val[i][1], sizeof(val[i][1]), "%s", a);
	}
}

/* The given config, else /proc/config.gz, else /boot/config-RELEASE; 0 or -errno. */
static int scan_config(struct doctor *d, char *path, size_t cap, char val[N_CFG][2][8])
{
	int err;

	if (d->o->config) {
		snprintf(path, cap, "%s", d->o->config);
		return d->p->each_line(path, scan_line, val);
	}
	snprintf(path, cap, "/proc/config.gz");
	err = d->p->each_line(path, scan_line, val);
	if (!err)
		return 0;
	snprintf(path, cap, "/boot/config-%s", d->release);
	return d->p->each_line(path, scan_line, val);
}

static void check_config(struct doctor *d)
{
	char path[PATH_MAX], val[N_CFG][2][8] = { { "" } };

	if (scan_config(d, path, sizeof(path), val)) {
		say(d, "kernel config", ST_SKIP, false, "cannot read %s: options not checked",
		    path);
		return;
	}
	for (size_t i = 0; i < N_CFG; i++) {
		const struct cfg_opt *c = &cfg_opts[i];

		if (val[i][0][0])
			say(d, c->name, ST_OK, false, "=%s", val[i][0]);
		else if (val[i][1][0])
			say(d, c->name, ST_OK, false, "%s=%s", c->alt, val[i][1]);
		else
			say(d, c->name, ST_MISSING, false, "not set in %s: needed for %s", path,
			    c->why);
	}
}

/* ---- BPF and tracing --------------------------------------------------------------- */

static void check_ringbuf(struct doctor *d)
{
	int r;

	if (d->euid) {
		say(d, "ring buffer", ST_SKIP, true, "needs root to probe");
		return;
	}
	r = d->p->ringbuf();
	if (r == 1)
		say(d, "ring buffer", ST_OK, true, "BPF_MAP_TYPE_RINGBUF");
	else if (r == 0)
		say(d, "ring buffer", ST_MISSING, true,
		    "no BPF_MAP_TYPE_RINGBUF in this kernel: needs Linux 5.8+");
	else
		say(d, "ring buffer", ST_MISSING, true,
		    "bpf() failed (%s): SELinux or seccomp may deny it", strerror(-r));
}

static void check_uprobes(struct doctor *d)
{
	const char *path = d->o->uprobe_type ? d->o->uprobe_type :
					       "/sys/bus/event_source/devices/uprobe/type";
	char type[16] = "";

	if (!d->p->read_line(path, type, sizeof(type)) && type[0])
		say(d, "uprobes", ST_OK, false, "perf event type %s", type);
	else
		say(d, "uprobes", ST_MISSING, false,
		    "no %s: property values and ART reasons need CONFIG_UPROBE_EVENTS", path);
}

/*
 * 0 when trace_marker is there, -ENOENT when tracefs is not mounted, -EACCES when it is
 * mounted but this user may not look inside (the directory is mode 700), else -errno.
 */
static int tracefs_state(struct doctor *d)
{
	char marker[PATH_MAX];

	snprintf(marker, sizeof(marker), "%s/trace_marker", d->tracefs);
	return d->p->exists(marker);
}

static void check_raw_syscalls(struct doctor *d, int tracefs)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events/raw_syscalls/sys_enter/id", d->tracefs);
	if (tracefs == -ENOENT)
		say(d, "raw_syscalls", ST_SKIP, false,
		    "tracefs is not mounted: checked once it is (see tracefs)");
	else if (tracefs)
		say(d, "raw_syscalls", ST_SKIP, false, "cannot look in %s (%s): checked as root",
		    d->tracefs, strerror(-tracefs));
	else if (!d->p->readable(path))
		say(d, "raw_syscalls", ST_OK, true, "raw_syscalls:sys_enter");
	else
		say(d, "raw_syscalls", ST_MISSING, true,
		    "no %s: the kernel needs CONFIG_FTRACE_SYSCALLS", path);
}

/* Live tracing mounts tracefs itself when it may (as root): not mounted is not blocking. */
static void check_tracefs(struct doctor *d, int tracefs)
{
	if (!tracefs)
		say(d, "tracefs", ST_OK, true, "%s/trace_marker", d->tracefs);
	else if (tracefs == -ENOENT && !d->euid)
		say(d, "tracefs", ST_OK, true, "not mounted: animtrace mounts it at start");
	else if (tracefs == -ENOENT)
		say(d, "tracefs", ST_MISSING, true,
		    "not mounted: as root, animtrace mounts it "
		    "at start (or mount -t tracefs nodev %s)",
		    d->tracefs);
	else if (tracefs == -EACCES)
		say(d, "tracefs", ST_OK, true, "%s is mounted (not readable as euid %u)",
		    d->tracefs, d->euid);
	else
		say(d, "tracefs", ST_MISSING, true, "cannot stat %s/trace_marker: %s", d->tracefs,
		    strerror(-tracefs));
}

/*
 * --annotate writes to trace_marker: opened for writing (nothing is written), and tracing_on
 * says whether the kernel records it now (a Perfetto or atrace capture turns it on).
 */
static void check_annotate(struct doctor *d, int tracefs)
{
	char marker[PATH_MAX], on_path[PATH_MAX], on[8] = "";
	int err;

	if (tracefs) {
		say(d, "annotations", ST_SKIP, false, "no trace_marker (see tracefs)");
		return;
	}
	snprintf(marker, sizeof(marker), "%s/trace_marker", d->tracefs);
	err = d->p->writable(marker);
	if (err) {
		say(d, "annotations", ST_MISSING, false, "%s: %s: --annotate cannot write", marker,
		    strerror(-err));
		return;
	}
	snprintf(on_path, sizeof(on_path), "%s/tracing_on", d->tracefs);
	d->p->read_line(on_path, on, sizeof(on));
	if (!strcmp(on, "0"))
		say(d, "annotations", ST_OK, false,
		    "%s writable; tracing_on is 0: --annotate "
		    "is recorded once a Perfetto or atrace capture runs",
		    marker);
	else
		say(d, "annotations", ST_OK, false, "%s writable (--annotate)", marker);
}

/* ---- Android properties ------------------------------------------------------------ */

static void check_atrace(struct doctor *d)
{
	char val[128];
	int err;

	if (!d->p->has_getprop()) {
		say(d, "debug.atrace", ST_SKIP, false, "not Android (no getprop on PATH)");
		return;
	}
	err = d->p->getprop(PROP_FLAGS, val, sizeof(val));
	if (err) {
		say(d, "debug.atrace", ST_WARN, false,
		    "getprop " PROP_FLAGS " failed (%s): animtrace cannot turn on view markers",
		    strerror(-err));
		return;
	}
	if (atrace_setup_has_view(val))
		say(d, "debug.atrace", ST_OK, false, "enableflags %s, view tag %#llx on", val,
		    ATRACE_SETUP_TAG_VIEW);
	else
		say(d, "debug.atrace", ST_OK, false,
		    "enableflags %s, view tag %#llx off (animtrace turns it on while tracing)",
		    val[0] ? val : "unset", ATRACE_SETUP_TAG_VIEW);
	/* 15+ only; said only when it matters, like a Perfetto session that set it. */
	if (!d->p->getprop(ATRACE_SETUP_PROP_PREFER_SDK, val, sizeof(val)) &&
	    atrace_setup_has_view(val))
		say(d, "debug.atrace", ST_OK, false,
		    "prefer_sdk %s has the view bit: a Perfetto session on 'view' would take the "
		    "View markers (animtrace clears it while tracing)",
		    val);
}

/* A state file a killed run left: until the next run its values are the device's. */
static void stale_state(void *ctx, const struct atrace_state *st)
{
	struct doctor *d = ctx;
	char was[256] = "";
	size_t n = 0;

	if (st->owner == ATRACE_STATE_REBOOTED) {
		say(d, "atrace state", ST_OK, false,
		    "%s: left by run %d before the last reboot "
		    "(the next run removes it)",
		    st->path, st->pid);
		return;
	}
	for (size_t i = 0; i < st->n && n < sizeof(was); i++)
		n += (size_t)snprintf(was + n, sizeof(was) - n, "%s%s=%s", i ? ", " : "",
				      st->props[i].name, st->props[i].old);
	say(d, "atrace state", ST_WARN, false,
	    "%s: run %d ended (killed?) with the tracing "
	    "properties changed; they were %s: the next animtrace run restores them first",
	    st->path, st->pid, st->n ? was : "(none)");
}

/* Stale state files, said only when there is one (atrace_state.h). */
static void check_atrace_state(struct doctor *d)
{
	const char *dir = d->o->state_dir ? d->o->state_dir : atrace_state_dir();
	int n = atrace_state_each_stale(dir, d->proc_root, stale_state, d);

	if (n < 0)
		say(d, "atrace state", ST_WARN, false,
		    "%s: %s (a killed run's state cannot be "
		    "found)",
		    dir, atrace_state_strerror(n));
}

/* ---- the target process ------------------------------------------------------------ */

struct pid_list {
	int pids[MAX_PIDS];
	int n;
};

static int collect_pid(void *ctx, int pid, const char *argv0)
{
	struct pid_list *l = ctx;

	if (l->n < MAX_PIDS)
		l->pids[l->n++] = pid;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* "com.foo,com.bar pid 12" for messages. */
static void describe_target(const struct procfilter *f, char *buf, size_t cap)
{
	const int *pids;
	size_t n = procfilter__pids(f, &pids), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < procfilter__name_count(f) && len < cap; i++)
		len += snprintf(buf + len, cap - len, "%s%s", i ? "," : "", procfilter__name(f, i));
	for (size_t i = 0; i < n && len < cap; i++)
		len += snprintf(buf + len, cap - len, "%s%d",
				i   ? "," :
				len ? " pid " :
				      "pid ",
				pids[i]);
}

/* Returns the lowest selected pid (the main process of NAME:*), 0 when none. */
static int check_process(struct doctor *d)
{
	struct pid_list l = { .n = 0 };
	char target[256], list[128];
	size_t len = 0;
	int total = procfilter__scan(d->o->filter, d->proc_root, collect_pid, &l);

	describe_target(d->o->filter, target, sizeof(target));
	if (total < 0) {
		say(d, "target process", ST_MISSING, true, "cannot read %s: %s", d->proc_root,
		    strerror(-total));
		return 0;
	}
	if (!total) {
		say(d, "target process", ST_MISSING, true,
		    "nothing matches %s: start it first (check the name with ps -A)", target);
		return 0;
	}
	qsort(l.pids, (size_t)l.n, sizeof(l.pids[0]), cmp_int);
	for (int i = 0; i < l.n && i < SHOW_PIDS; i++)
		len += snprintf(list + len, sizeof(list) - len, "%s%d", i ? ", " : "", l.pids[i]);
	if (total > SHOW_PIDS)
		snprintf(list + len, sizeof(list) - len, " and %d more", total - SHOW_PIDS);
	say(d, "target process", ST_OK, true, "%s%spid%s %s",
	    procfilter__has_names(d->o->filter) ? target : "",
	    procfilter__has_names(d->o->filter) ? ": " : "", total > 1 ? "s" : "", list);
	return l.pids[0];
}

static void first_warning(void *ctx, const char *msg)
{
	char *first = ctx;

	if (!first[0])
		snprintf(first, 256, "%s", msg);
}

static void check_setters(struct doctor *d, int pid)
{
	char path[512], first[256] = "";
	struct hwui_lib lib;
	int err = hwui_find_library(d->proc_root, pid, path, sizeof(path)), n;

	if (err == -ENOENT) {
		say(d, "RenderNode setters", ST_WARN, false,
		    "pid %d maps neither libhwui.so nor libandroid_runtime.so: no property values",
		    pid);
		return;
	}
	if (err) {
		say(d, "RenderNode setters", ST_WARN, false, "cannot read %s/%d/maps: %s",
		    d->proc_root, pid, strerror(-err));
		return;
	}
	err = hwui_resolve(path, NULL, &lib, first_warning, first);
	if (err) {
		say(d, "RenderNode setters", ST_WARN, false, "%s: %s: no property values", path,
		    first[0] ? first : hwui_strerror(err));
		return;
	}
	n = __builtin_popcount(lib.ok_mask);
	if (n == AT_PROP_COUNT)
		say(d, "RenderNode setters", ST_OK, false, "%d/%d properties in %s", n,
		    AT_PROP_COUNT, path);
	else
		say(d, "RenderNode setters", ST_WARN, false,
		    "%d/%d properties in %s (%s): --hwui-offsets may supply field offsets", n,
		    AT_PROP_COUNT, path, first);
}

static void check_art(struct doctor *d, int pid)
{
	static const char *const methods[] = { "start", "cancel", "end" };
	char path[512], name[96], absent[64] = "";
	struct elfsym_hit hit;
	struct elfsym *s;
	int err = art_find_oat(d->proc_root, pid, path, sizeof(path));

	if (err == -ENOENT) {
		say(d, "ART methods", ST_WARN, false,
		    "pid %d maps no boot-framework.oat: cancel and end are inferred", pid);
		return;
	}
	if (err) {
		say(d, "ART methods", ST_WARN, false, "cannot read %s/%d/maps: %s", d->proc_root,
		    pid, strerror(-err));
		return;
	}
	s = elfsym__open(path);
	if (!s) {
		say(d, "ART methods", ST_WARN, false, "%s: %s: cancel and end are inferred", path,
		    strerror(errno));
		return;
	}
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		size_t len = strlen(absent);

		snprintf(name, sizeof(name), "android.animation.ValueAnimator.%s", methods[i]);
		if (elfsym__find_all(s, name, &hit, 1) <= 0)
			snprintf(absent + len, sizeof(absent) - len, "%s%s", len ? ", " : "",
				 methods[i]);
	}
	elfsym__free(s);
	if (!absent[0])
		say(d, "ART methods", ST_OK, false,
		    "ValueAnimator start, cancel, end compiled in %s", path);
	else
		say(d, "ART methods", ST_WARN, false,
		    "ValueAnimator %s not compiled in %s (boot profile): cancel and end are "
		    "inferred",
		    absent, path);
}

static void check_target(struct doctor *d)
{
	int pid;

	if (!d->o->filter || procfilter__empty(d->o->filter)) {
		say(d, "target process", ST_SKIP, true, "no --proc or --pid given");
		say(d, "RenderNode setters", ST_SKIP, false, "no target process");
		say(d, "ART methods", ST_SKIP, false, "no target process");
		return;
	}
	pid = check_process(d);
	if (!pid) {
		say(d, "RenderNode setters", ST_SKIP, false, "no target process");
		say(d, "ART methods", ST_SKIP, false, "no target process");
		return;
	}
	check_setters(d, pid);
	check_art(d, pid);
}

/* ---- entry points ------------------------------------------------------------------ */

int doctor_run(const struct doctor_opts *o, FILE *out)
{
	struct doctor d = { .o = o, .out = out };
	int tracefs;

	d.p = o->probes ? o->probes : &doctor_system_probes;
	d.euid = d.p->euid();
	d.proc_root = o->proc_root ? o->proc_root : "/proc";
	d.tracefs = o->tracefs ? o->tracefs : "/sys/kernel/tracing";
	if (o->release)
		snprintf(d.release, sizeof(d.release), "%s", o->release);
	else if (d.p->release(d.release, sizeof(d.release)))
		d.release[0] = '\0';
	check_root(&d);
	check_selinux(&d);
	check_kernel(&d);
	check_btf(&d);
	check_config(&d);
	check_ringbuf(&d);
	check_uprobes(&d);
	tracefs = tracefs_state(&d);
	check_raw_syscalls(&d, tracefs);
	check_tracefs(&d, tracefs);
	check_annotate(&d, tracefs);
	check_atrace(&d);
	if (d.p->has_getprop())
		check_atrace_state(&d);
	check_target(&d);
	if (d.n_failed)
		fprintf(out, "\nlive tracing will not work: fix %s\n", d.failed);
	else
		fprintf(out, "\nlive tracing should work (%d warning%s)\n", d.n_warn,
			d.n_warn == 1 ? "" : "s");
	return d.n_failed ? 1 : 0;
}

enum { OPT_BTF = 0x100, OPT_CONFIG, OPT_PROC_ROOT, OPT_TRACEFS, OPT_SELINUX };

static const struct argp_option doctor_options[] = {
	{ "proc", PROCFILTER_KEY_PROC, "NAME[,NAME]", 0,
	  "Also check this process (NAME:* for subprocesses)", 0 },
	{ "pid", PROCFILTER_KEY_PID, "PID[,PID]", 0, "Also check these processes", 0 },
	{ 0, 0, 0, 0, "Where to look (for tests):", 1 },
	{ "btf", OPT_BTF, "PATH", 0, "Kernel BTF (default /sys/kernel/btf/vmlinux)", 1 },
	{ "config", OPT_CONFIG, "PATH", 0,
	  "Kernel config, gzipped or not (default /proc/config.gz, else /boot/config-RELEASE)", 1 },
	{ "proc-root", OPT_PROC_ROOT, "DIR", 0, "procfs (default /proc)", 1 },
	{ "tracefs", OPT_TRACEFS, "DIR", 0, "tracefs (default /sys/kernel/tracing)", 1 },
	{ "selinux", OPT_SELINUX, "PATH", 0, "SELinux mode (default /sys/fs/selinux/enforce)", 1 },
	{ 0 },
};

struct doctor_cli {
	struct doctor_opts o;
	struct procfilter *filter;
};

static error_t doctor_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct doctor_cli *c = state->input;

	switch (key) {
	case PROCFILTER_KEY_PROC:
	case PROCFILTER_KEY_PID:
		return procfilter__parse_opt(c->filter, key, arg, state);
	case OPT_BTF:
		c->o.btf = arg;
		break;
	case OPT_CONFIG:
		c->o.config = arg;
		break;
	case OPT_PROC_ROOT:
		c->o.proc_root = arg;
		break;
	case OPT_TRACEFS:
		c->o.tracefs = arg;
		break;
	case OPT_SELINUX:
		c->o.selinux = arg;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp doctor_argp = {
	.options = doctor_options,
	.parser = doctor_parse_opt,
	.doc = "animtrace doctor -- can this device be traced live? One line per check: ok, "
	       "missing, warn or skip, with what to do.\v"
	       "Exit status: 0 when live tracing (of --proc/--pid) would work, 1 when not, 2 on "
	       "bad arguments.",
};

int doctor_main(int argc, char **argv)
{
	static char name[] = "animtrace doctor"; /* for argp's usage and error lines */
	struct doctor_cli c = { .filter = procfilter__new() };
	int ret;

	argp_err_exit_status = 2;
	if (argc > 0)
		argv[0] = name;
	if (!c.filter || argp_parse(&doctor_argp, argc, argv, 0, NULL, &c)) {
		procfilter__free(c.filter);
		return 2;
	}
	c.o.filter = c.filter;
	ret = doctor_run(&c.o, stdout);
	procfilter__free(c.filter);
	return ret;
}

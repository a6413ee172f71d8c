// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atrace_setup.h"
#include "engine.h"
#include "art.h"
#include "hwui.h"
#include "live.h"
#include "marker.h"
#include "probes.h"
#include "procfilter.h"
#include "proctab.h"
#include "tracefs.h"
#include "unwind.h"

#define PENDING_MAX 1024
#define PROBED_MAX 64
#define PARKED_MAX 8
#define REAPERS_MAX (2 * PROBED_MAX + PARKED_MAX)
#define TICK_MS 100
/* How long a forked, renamed or exec'ed process is re-checked: zygote sets its cmdline
 * within tens of ms, but give a loaded device some slack. Renames are also checked at once. */
#define FORK_WATCH_NS (5ULL * 1000000000ULL)

_Static_assert((int)AT_PROP_COUNT == (int)PROP_COUNT, "wire.h at_prop != model.h view_prop");
_Static_assert(UNWIND_NAME_MAX == AT_FRAME_NAME, "unwind.h frame name != model.h");
_Static_assert(AT_ART_NREGS <= UNWIND_NREGS, "wire.h registers do not fit unwind.h");

volatile int live_stop;

struct pending {
	uint32_t tgid;
	uint64_t until_ns;
};

/* Setter and ART probes attached for one traced process. */
struct probed {
	uint32_t tgid;
	struct setter_links *links;
	struct art_links *art;
};

struct live {
	const struct live_opts *o;
	struct engine *e;
	struct probes *p;
	struct proctab *procs; /* allowed tgid -> argv[0] */
	struct pending pend[PENDING_MAX];
	int n_pend;
	bool trace_all;
	uint64_t markers, truncated, props;
	struct hwui_lib lib;   /* resolved once: every app maps the same libhwui */
	int lib_state;         /* 0 not yet, 1 usable, < 0 failed (-errno) */
	struct art_oat oat;    /* resolved once, like lib */
	int oat_state;
	struct probed probed[PROBED_MAX];
	int n_probed;
	struct probed parked[PARKED_MAX]; /* probes of exited processes, detached later */
	int n_parked;
	pthread_t reapers[REAPERS_MAX];   /* threads detaching probes */
	int n_reapers;
	struct unwinder *unw;  /* --stacks */
	bool stacks_debug;     /* ANIMTRACE_STACKS_DEBUG: every unwound frame on diag */
	uint64_t stacks, stacks_failed;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts); /* bpf_ktime_get_ns() uses the same clock */
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* argv[0] of pid, or -errno when it is gone. */
static int read_argv0(const struct live *l, uint32_t pid, char *buf, size_t cap, int *len)
{
	int n = procfilter__read_cmdline(l->o->proc_root, (int)pid, buf, cap);

	if (n < 0)
		return n;
	*len = n;
	return 0;
}

static void print_warning(void *ctx, const char *msg)
{
	fprintf(ctx, "animtrace: warning: %s\n", msg);
}

/* Resolves the setters in path once; later processes reuse the result. */
static bool resolve_lib(struct live *l, const char *path)
{
	if (l->lib_state == 0 || (l->lib_state > 0 && strcmp(l->lib.path, path))) {
		int ret = hwui_resolve(path, l->o->hwui_offsets, &l->lib, print_warning, l->o->diag);

		l->lib_state = ret ? ret : 1;
		if (ret)
			fprintf(l->o->diag, "animtrace: no View property values: %s: %s\n", path,
				hwui_strerror(ret));
	}
	return l->lib_state > 0;
}

static struct setter_links *probe_setters(struct live *l, uint32_t tgid)
{
	char path[512], err[256];
	struct setter_links *links;

	if (!l->o->props)
		return NULL;
	if (l->o->hwui_path)
		snprintf(path, sizeof(path), "%s", l->o->hwui_path);
	else if (hwui_find_library(l->o->proc_root, (int)tgid, path, sizeof(path))) {
		fprintf(l->o->diag, "animtrace: pid %u maps neither libhwui.so nor "
				    "libandroid_runtime.so: no View property values\n", tgid);
		return NULL;
	}
	if (!resolve_lib(l, path))
		return NULL;
	links = probes__attach_setters(l->p, (int)tgid, &l->lib, err, sizeof(err));
	if (!links)
		fprintf(l->o->diag, "animtrace: %s\n", err);
	return links;
}

/* Resolves the ValueAnimator methods in path once; says once what is not compiled. */
static bool resolve_oat(struct live *l, const char *path)
{
	char missing[128];

	if (l->oat_state == 0 || (l->oat_state > 0 && strcmp(l->oat.path, path))) {
		int ret = art_resolve(path, &l->oat);

		l->oat_state = ret ? ret : 1;
		art_missing(&l->oat, missing, sizeof(missing));
		if (ret || missing[0])
			fprintf(l->o->diag, "animtrace: ValueAnimator %s not AOT-compiled on this "
				"device (%s): end reasons will be inferred\n",
				ret ? "start/cancel/end" : missing, path);
	}
	return l->oat_state > 0 &&
	       (l->oat.ok_mask & (1u << AT_ART_VA_CANCEL)) && (l->oat.ok_mask & (1u << AT_ART_VA_END));
}

static struct art_links *probe_art(struct live *l, uint32_t tgid)
{
	char path[512], err[256];
	struct art_links *links;

	if (!l->o->art)
		return NULL;
	if (l->o->art_oat)
		snprintf(path, sizeof(path), "%s", l->o->art_oat);
	else if (art_find_oat(l->o->proc_root, (int)tgid, path, sizeof(path))) {
		fprintf(l->o->diag, "animtrace: pid %u maps no boot-framework.oat: end reasons "
				    "will be inferred\n", tgid);
		return NULL;
	}
	if (!resolve_oat(l, path))
		return NULL;
	links = probes__attach_art(l->p, (int)tgid, &l->oat, err, sizeof(err));
	if (!links)
		fprintf(l->o->diag, "animtrace: %s\n", err);
	else
		engine__art_active(l->e, tgid, now_ns());
	return links;
}

static void probe_process(struct live *l, uint32_t tgid)
{
	struct probed pr = { tgid, NULL, NULL };

	if (l->n_probed == PROBED_MAX)
		return;
	pr.links = probe_setters(l, tgid);
	pr.art = probe_art(l, tgid);
	if (pr.links)
		fprintf(l->o->diag, "animtrace: pid %u: View property values from %s (%d of %d "
			"setters)\n", tgid, l->lib.path, __builtin_popcount(l->lib.ok_mask),
			AT_PROP_COUNT);
	if (pr.art)
		fprintf(l->o->diag, "animtrace: pid %u: end reasons from ART probes in %s\n", tgid,
			l->oat.path);
	if (pr.links || pr.art)
		l->probed[l->n_probed++] = pr;
}

static void *unprobe_thread(void *arg)
{
	struct probed *pr = arg;

	setter_links__free(pr->links);
	art_links__free(pr->art);
	free(pr);
	return NULL;
}

static void join_reapers(struct live *l)
{
	for (int i = 0; i < l->n_reapers; i++)
		pthread_join(l->reapers[i], NULL);
	l->n_reapers = 0;
}

/* Detaches pr's probes on a thread of its own (inline when none can be had). */
static void reap(struct live *l, struct probed pr)
{
	struct probed *copy = malloc(sizeof(*copy));

	if (l->n_reapers == REAPERS_MAX) /* long done, in a long session */
		join_reapers(l);
	if (copy) {
		*copy = pr;
		if (!pthread_create(&l->reapers[l->n_reapers], NULL, unprobe_thread, copy)) {
			l->n_reapers++;
			return;
		}
	}
	free(copy);
	setter_links__free(pr.links);
	art_links__free(pr.art);
}

/*
 * A dead process's probes fire no more, but detaching them takes seconds (a grace period
 * per link) and holds the very uprobes a restarted process needs: they are parked, and
 * detached at exit, or in the background once too many are parked.
 */
static void unprobe_process(struct live *l, uint32_t tgid)
{
	for (int i = 0; i < l->n_probed; i++) {
		if (l->probed[i].tgid != tgid)
			continue;
		if (l->n_parked == PARKED_MAX) {
			reap(l, l->parked[0]);
			memmove(l->parked, l->parked + 1, --l->n_parked * sizeof(l->parked[0]));
		}
		l->parked[l->n_parked++] = l->probed[i];
		l->probed[i] = l->probed[--l->n_probed];
		return;
	}
}

/* At exit: every set of probes detached at once, their waits overlapping. */
static void unprobe_all(struct live *l)
{
	for (int i = 0; i < l->n_probed; i++)
		reap(l, l->probed[i]);
	for (int i = 0; i < l->n_parked; i++)
		reap(l, l->parked[i]);
	l->n_probed = l->n_parked = 0;
	join_reapers(l);
}

static void allow(struct live *l, uint32_t tgid, const char *argv0)
{
	if (proctab__name(l->procs, tgid))
		return;
	if (probes__allow(l->p, tgid, true)) {
		fprintf(l->o->diag, "animtrace: cannot trace pid %u: allow map full\n", tgid);
		return;
	}
	proctab__set_name(l->procs, tgid, argv0, strlen(argv0));
	fprintf(l->o->diag, "animtrace: tracing %s (pid %u)\n", argv0, tgid);
	/* Markers first: attaching uprobes can wait behind other uprobe work in the kernel
	 * (seconds, under load), and the lifecycle must not lose its first frames to it. */
	probe_process(l, tgid);
}

/* Returns true when pid is decided (allowed, or gone) and need not be checked again. */
static bool check_pid(struct live *l, uint32_t pid)
{
	char buf[4096];
	int len;

	if (proctab__name(l->procs, pid))
		return true;
	if (read_argv0(l, pid, buf, sizeof(buf) - 1, &len))
		return true;
	buf[len] = '\0';
	if (!procfilter__match_cmdline(l->o->filter, buf, len))
		return false;
	allow(l, pid, buf); /* argv[0] ends at the first NUL */
	return true;
}

static int scan_cb(void *ctx, int pid, const char *argv0)
{
	allow(ctx, (uint32_t)pid, argv0);
	return 0;
}

static void pend_add(struct live *l, uint32_t tgid, uint64_t until)
{
	for (int i = 0; i < l->n_pend; i++)
		if (l->pend[i].tgid == tgid) {
			if (l->pend[i].until_ns < until)
				l->pend[i].until_ns = until;
			return;
		}
	if (l->n_pend == PENDING_MAX) /* a fork storm: forget the oldest */
		memmove(l->pend, l->pend + 1, (--l->n_pend) * sizeof(l->pend[0]));
	l->pend[l->n_pend++] = (struct pending){ tgid, until };
}

static void pend_check(struct live *l, uint64_t now)
{
	int j = 0;

	for (int i = 0; i < l->n_pend; i++)
		if (!check_pid(l, l->pend[i].tgid) && l->pend[i].until_ns > now)
			l->pend[j++] = l->pend[i];
	l->n_pend = j;
}

static const char *process_name(struct live *l, uint32_t tgid)
{
	const char *name = proctab__name(l->procs, tgid);
	char buf[256];
	int len;

	if (name || !l->trace_all || read_argv0(l, tgid, buf, sizeof(buf) - 1, &len))
		return name;
	buf[len] = '\0';
	proctab__set_name(l->procs, tgid, buf, strlen(buf));
	return proctab__name(l->procs, tgid);
}

static void on_marker(struct live *l, const struct at_marker_rec *r)
{
	struct marker m;

	l->markers++;
	if (r->req_len > r->len)
		l->truncated++;
	if (marker_parse(r->data, r->len, &m)) {
		engine__rejected(l->e);
		return;
	}
	engine__marker(l->e, r->hdr.ts_ns, r->hdr.tgid, r->hdr.tid,
		       process_name(l, r->hdr.tgid), &m);
}

static void on_prop(struct live *l, const struct at_prop_rec *r)
{
	float value, prev;

	if (r->prop >= AT_PROP_COUNT)
		return;
	memcpy(&value, &r->value_bits, sizeof(value));
	memcpy(&prev, &r->old_bits, sizeof(prev));
	l->props++;
	engine__prop(l->e, r->hdr.ts_ns, r->hdr.tgid, r->hdr.tid, r->node, NULL,
		     (enum view_prop)r->prop, value, &prev);
}

static void stacks_dump(struct live *l, const struct at_art_rec *r,
			const struct unwind_frame *f, int n, uint32_t len)
{
	fprintf(l->o->diag, "animtrace: stack: tid %u %s cookie %u, %u bytes, %d frames:",
		r->hdr.tid, art_method_name(r->method), r->cookie, len, n);
	for (int i = 0; i < n; i++)
		fprintf(l->o->diag, " %s@%#llx", f[i].name[0] ? f[i].name : "?",
			(unsigned long long)f[i].pc);
	fputc('\n', l->o->diag);
}

/* The Java callers of an ART call from the registers and stack after the record. */
static int art_callers(struct live *l, const struct at_art_rec *r, size_t size,
		       char (*out)[UNWIND_NAME_MAX], int max)
{
	const struct at_art_stack *st = (const void *)(r + 1);
	struct unwind_frame f[UNWIND_MAX_FRAMES];
	struct unwind_regs ur = { 0 };
	int n;

	if (!l->unw || size < sizeof(*r) + sizeof(*st) ||
	    st->len > size - sizeof(*r) - sizeof(*st) || st->nregs > AT_ART_NREGS)
		return 0;
	ur.machine = st->nregs == 16 ? EM_X86_64 : EM_AARCH64;
	ur.pc = st->pc;
	ur.nregs = (int)st->nregs;
	memcpy(ur.regs, st->regs, sizeof(st->regs));
	ur.stack = st->data;
	ur.stack_len = st->len;
	n = unwinder__unwind(l->unw, r->hdr.tgid, r->hdr.tid, &ur, f, UNWIND_MAX_FRAMES);
	l->stacks++;
	if (n <= 0) {
		l->stacks_failed++;
		return 0;
	}
	if (l->stacks_debug)
		stacks_dump(l, r, f, n, st->len);
	return unwind_java_frames(f, n, out, max);
}

static void on_art(struct live *l, const struct at_art_rec *r, size_t size)
{
	char stack[AT_STACK_FRAMES][UNWIND_NAME_MAX];
	int n;

	static const enum art_call calls[] = {
		[AT_ART_VA_START] = ART_CALL_START,
		[AT_ART_VA_CANCEL] = ART_CALL_CANCEL,
		[AT_ART_VA_END] = ART_CALL_END,
	};

	/* DynamicAnimation writes no markers: its calls explain no F. */
	if (r->method >= sizeof(calls) / sizeof(calls[0]))
		return;
	n = art_callers(l, r, size, stack, AT_STACK_FRAMES);
	engine__art_call_stack(l->e, r->hdr.ts_ns, r->hdr.tgid, r->hdr.tid, calls[r->method],
			       r->has_cookie, r->cookie, (const char (*)[AT_FRAME_NAME])stack, n);
}

static void on_proc(struct live *l, const struct at_proc_rec *r)
{
	uint64_t now = now_ns();
	const char *name;

	switch (r->event) {
	case AT_PROC_FORK:
		pend_add(l, r->child, now + FORK_WATCH_NS);
		break;
	case AT_PROC_EXEC:
	case AT_PROC_RENAME: /* zygote's child naming itself: check now, not at the tick */
		if (!l->trace_all && !check_pid(l, r->hdr.tgid))
			pend_add(l, r->hdr.tgid, now + FORK_WATCH_NS);
		break;
	case AT_PROC_EXIT:
		name = proctab__name(l->procs, r->hdr.tgid);
		if (!name)
			break;
		fprintf(l->o->diag, "animtrace: %s (pid %u) exited\n", name, r->hdr.tgid);
		engine__process_exit(l->e, r->hdr.ts_ns, r->hdr.tgid);
		if (!l->trace_all)
			probes__allow(l->p, r->hdr.tgid, false);
		unprobe_process(l, r->hdr.tgid);
		unwinder__forget(l->unw, r->hdr.tgid);
		proctab__remove(l->procs, r->hdr.tgid);
		break;
	}
}

static void on_record(void *ctx, const struct at_hdr *h, size_t size)
{
	struct live *l = ctx;

	if (h->kind == AT_REC_MARKER)
		on_marker(l, (const struct at_marker_rec *)h);
	else if (h->kind == AT_REC_PROC)
		on_proc(l, (const struct at_proc_rec *)h);
	else if (h->kind == AT_REC_PROP)
		on_prop(l, (const struct at_prop_rec *)h);
	else if (h->kind == AT_REC_ART)
		on_art(l, (const struct at_art_rec *)h, size);
}

/* What live tracing needs, checked up front so the user gets one clear line. */
static int preflight(const struct live_opts *o)
{
	if (geteuid() != 0) {
		fprintf(o->diag, "animtrace: live tracing needs root (adb shell su -c ...); "
				 "--replay FILE works without\n");
		return -EPERM;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(o->diag, "animtrace: this kernel has no BTF (/sys/kernel/btf/vmlinux): "
				 "CO-RE probes need CONFIG_DEBUG_INFO_BTF=y\n");
		return -ENOTSUP;
	}
	return 0;
}

/* Returns how many of the --pid processes exist. */
static size_t warn_missing_pids(struct live *l)
{
	const int *pids;
	size_t n = procfilter__pids(l->o->filter, &pids), found = 0;

	for (size_t i = 0; i < n; i++)
		if (!proctab__name(l->procs, (uint32_t)pids[i]))
			fprintf(l->o->diag, "animtrace: pid %d: no such process\n", pids[i]);
		else
			found++;
	return found;
}

static int start(struct live *l, struct marker_file *mf)
{
	const struct live_opts *o = l->o;
	char err[256];
	int n = tracefs_find_markers(mf, TRACEFS_MAX_MARKERS, 1);

	if (n < 0) {
		fprintf(o->diag, "animtrace: no trace_marker file (tracefs at /sys/kernel/tracing "
				 "could not be mounted: %s)\n", strerror(-n));
		return n;
	}
	struct probes_opts po = {
		.markers = mf, .n_markers = n, .trace_all = l->trace_all,
		.track_procs = !l->trace_all && procfilter__has_names(o->filter),
		.ringbuf_bytes = o->ringbuf_bytes, .on_record = on_record, .ctx = l,
		.art_stack_bytes = o->art ? o->stack_bytes : 0,
	};
	l->p = probes__load(&po, err, sizeof(err));
	if (!l->p) {
		n = -errno;
		fprintf(o->diag, "animtrace: %s\n", err);
		return n;
	}
	/* Attach before the scan: a process that starts in between is then seen forking. */
	if ((n = probes__attach(l->p, err, sizeof(err)))) {
		fprintf(o->diag, "animtrace: %s\n", err);
		return n;
	}
	if (l->trace_all)
		return 0;
	procfilter__scan(o->filter, o->proc_root, scan_cb, l);
	/* Pids never come back: with only --pid and none alive there is nothing to wait for. */
	if (!warn_missing_pids(l) && !procfilter__has_names(o->filter))
		return -ESRCH;
	return 0;
}

static uint64_t total_drops(struct live *l, struct at_drops *d)
{
	if (probes__drops(l->p, d, NULL, 0) < 0)
		memset(d, 0, sizeof(*d));
	return d->marker_ringbuf_full + d->proc_ringbuf_full + d->prop_ringbuf_full +
	       d->art_ringbuf_full + d->marker_read_fault + d->prop_read_fault + d->prop_stash_full;
}

static void print_stats(struct live *l, uint64_t *last_markers)
{
	struct at_drops d;
	uint64_t lost = total_drops(l, &d);

	fprintf(l->o->diag, "stats: %llu markers/s, %llu markers, %llu property changes, "
		"%llu truncated, %llu lost (ring full %llu, read faults %llu)\n",
		(unsigned long long)(l->markers - *last_markers), (unsigned long long)l->markers,
		(unsigned long long)l->props,
		(unsigned long long)l->truncated, (unsigned long long)lost,
		(unsigned long long)d.marker_ringbuf_full,
		(unsigned long long)d.marker_read_fault);
	*last_markers = l->markers;
}

static void print_cpu_drops(struct live *l)
{
	int ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct at_drops total, *cpu = calloc(ncpu > 0 ? ncpu : 1, sizeof(*cpu));

	if (!cpu)
		return;
	ncpu = probes__drops(l->p, &total, cpu, ncpu);
	for (int i = 0; i < ncpu; i++)
		fprintf(l->o->diag, "stats: cpu %d: ring full %llu, read faults %llu\n", i,
			(unsigned long long)cpu[i].marker_ringbuf_full,
			(unsigned long long)cpu[i].marker_read_fault);
	free(cpu);
}

static bool output_broken(const struct live_opts *o)
{
	return o->out && (ferror(o->out) || fflush(o->out) == EOF);
}

static void loop(struct live *l, struct atrace_setup *as)
{
	const struct live_opts *o = l->o;
	uint64_t t0 = now_ns(), last_stats = t0, last_assert = t0, seen = 0;
	uint64_t end = o->duration_s > 0 ? t0 + (uint64_t)(o->duration_s * 1e9) : UINT64_MAX;

	while (!live_stop) {
		int n = probes__poll(l->p, TICK_MS);
		uint64_t now = now_ns();

		if (n < 0) {
			fprintf(o->diag, "animtrace: reading the ring buffer failed: %s\n",
				strerror(-n));
			break;
		}
		pend_check(l, now);
		if (o->stats && now - last_stats >= 1000000000ULL) {
			print_stats(l, &seen);
			last_stats = now;
		}
		if (as && now - last_assert >= 2000000000ULL) {
			atrace_setup__reassert(as);
			last_assert = now;
		}
		if (now >= end || output_broken(o) || engine__sink_error(l->e))
			break;
	}
	while (probes__poll(l->p, 0) > 0) /* drain what is already in the ring */
		;
}

static struct atrace_setup *android_setup(const struct live_opts *o)
{
	struct atrace_setup *as;

	if (!o->atrace_setup)
		return NULL;
	as = atrace_setup__new(o->filter);
	if (as && !atrace_setup__active(as)) {
		fprintf(o->diag, "animtrace: %s\n", atrace_setup__status(as));
		atrace_setup__free(as);
		return NULL;
	}
	return as;
}

int live_run(const struct live_opts *o, struct engine *e)
{
	struct live *l = calloc(1, sizeof(*l));
	struct marker_file mf[TRACEFS_MAX_MARKERS];
	struct atrace_setup *as = NULL;
	struct at_drops d;
	int ret;

	if (!l)
		return -ENOMEM;
	l->o = o;
	l->e = e;
	l->trace_all = !o->filter || procfilter__empty(o->filter);
	l->procs = proctab__new();
	ret = l->procs ? preflight(o) : -ENOMEM;
	if (!ret && o->art && o->stack_bytes) {
		l->unw = unwinder__new(o->proc_root);
		ret = l->unw ? 0 : -ENOMEM;
		l->stacks_debug = getenv("ANIMTRACE_STACKS_DEBUG") != NULL;
	}
	if (!ret)
		ret = start(l, mf);
	if (ret)
		goto out;
	as = android_setup(o);
	fprintf(o->diag, "animtrace: ready: tracing %s; Ctrl-C to stop\n",
		l->trace_all ? "every process" : "the selected processes");
	loop(l, as);
	engine__finish(e, now_ns(), total_drops(l, &d), l->truncated);
	if (o->stats)
		print_cpu_drops(l);
out:
	atrace_setup__restore(as);
	atrace_setup__free(as);
	unprobe_all(l);
	if (l->stacks_failed)
		fprintf(o->diag, "animtrace: %llu of %llu call stacks could not be unwound\n",
			(unsigned long long)l->stacks_failed, (unsigned long long)l->stacks);
	probes__free(l->p);
	proctab__free(l->procs);
	unwinder__free(l->unw);
	free(l);
	return ret;
}

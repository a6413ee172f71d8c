// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "live/androidprop.h"
#include "live/atrace_setup.h"
#include "live/heaplive.h"
#include "live/identity.h"
#include "common/diag.h"
#include "engine/engine.h"
#include "engine/trust.h"
#include "symbols/art.h"
#include "live/live.h"
#include "common/marker.h"
#include "live/nodenames.h"
#include "live/probes.h"
#include "common/procsel.h"
#include "sinks/annotate.h"
#include "live/tracefs.h"
#include "live/unwind.h"
#include "live/uprobes.h"

#define TICK_MS 100

_Static_assert((int)AT_PROP_COUNT == (int)PROP_COUNT, "wire.h at_prop != model.h view_prop");

volatile sig_atomic_t live_stop;

struct live {
	const struct live_opts *o;
	struct engine *e;
	struct probes *p;
	struct procsel *sel; /* which processes are traced, and their names */
	bool trace_all;
	uint64_t markers, truncated, props;
	struct uprobes *up;	 /* setter and ART probes of the traced processes */
	struct nodenames *names; /* View class names of the nodes written */
	struct unwinder *unw;	 /* --stacks */
	uint64_t stacks, stacks_failed;
	struct heaplive *heap;	/* animators' configurations, with the ART probes */
	struct identity *ident; /* who each traced process is (its uid) */
	uint32_t vsync_checked; /* the last VSYNC-app writer whose uid was checked */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts); /* bpf_ktime_get_ns() uses the same clock */
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void uprobes_note(void *ctx, enum diag_level level, const char *msg)
{
	diag(level, "%s", msg);
}

/* What uprobes attached for tgid: ART probes make the engine trust end reasons from them. */
static void probed(struct live *l, uint32_t tgid, int attached)
{
	if (attached > 0 && (attached & UPROBES_ART))
		engine__art_active(l->e, tgid, now_ns());
	if (attached > 0 && (attached & (UPROBES_REDRAW | UPROBES_VSYNC)))
		engine__refresh_active(l->e, tgid);
}

/* What the process selection (procsel.h) asks of live tracing: the allow map, and each
 * process's start and end of tracing. */
static int sel_allow(void *ctx, uint32_t tgid, bool allow)
{
	struct live *l = ctx;
	int err = probes__allow(l->p, tgid, allow);

	if (err && allow)
		diag(DIAG_ERROR, "cannot trace pid %u: allow map full", tgid);
	return err;
}

/* Whether tgid, named name, is who its name says (identity.h): an impostor is said and marked. */
static void judge(struct live *l, uint32_t tgid, const char *name)
{
	struct identity_result id;

	identity__check(l->ident, tgid, name, &id);
	if (id.verdict == IDENTITY_ISOLATED)
		diag(DIAG_WARN, "pid %u (%s): %s", tgid, name, id.why);
	if (id.verdict != IDENTITY_IMPOSTOR)
		return;
	diag(DIAG_WARN, "pid %u calls itself %s but is an impostor: %s; traced, and marked so",
	     tgid, name, id.why);
	engine__process_impostor(l->e, tgid, name, id.why);
}

/* "tracing NAME (pid N)", with how it was selected unless by its exact name. */
static void say_selected(struct live *l, uint32_t tgid, const char *argv0)
{
	const char *name;

	switch (procfilter__how(l->o->filter, (int)tgid, argv0, &name)) {
	case PROCFILTER_SUBPROCESS:
		diag(DIAG_INFO, "tracing %s (pid %u): a subprocess, by --proc %s", argv0, tgid,
		     name);
		break;
	case PROCFILTER_BY_PID:
		diag(DIAG_INFO, "tracing %s (pid %u): by --pid", argv0, tgid);
		break;
	default:
		diag(DIAG_INFO, "tracing %s (pid %u)", argv0, tgid);
	}
	judge(l, tgid, argv0);
}

/* Tracing every process, a process named surfaceflinger that writes VSYNC-app was never
 * selected, so never judged: its uid says whether its vsyncs are the display's (trust.h). */
static void judge_vsync_writer(struct live *l, uint32_t tgid, const struct marker *m)
{
	const char *name;

	if (!l->trace_all || tgid == l->vsync_checked || !trust__is_vsync_app(m))
		return;
	l->vsync_checked = tgid;
	name = procsel__name(l->sel, tgid);
	if (trust__is_surfaceflinger(name))
		judge(l, tgid, name);
}

static void sel_selected(void *ctx, uint32_t tgid, const char *argv0)
{
	struct live *l = ctx;

	engine__process_name(l->e, tgid, procsel__name(l->sel, tgid));
	say_selected(l, tgid, argv0);
	/* Markers first: attaching uprobes can wait behind other uprobe work in the kernel
	 * (seconds, under load), and the lifecycle must not lose its first frames to it. */
	probed(l, tgid, uprobes__add(l->up, tgid, now_ns()));
}

static void sel_exited(void *ctx, uint32_t tgid, const char *name, uint64_t ts_ns)
{
	struct live *l = ctx;

	diag(DIAG_INFO, "%s (pid %u) exited", name, tgid);
	engine__process_exit(l->e, ts_ns, tgid);
	uprobes__retire(l->up, tgid);
	nodenames__forget(l->names, tgid);
	unwinder__forget(l->unw, tgid);
}

static void sel_missing(void *ctx, int pid)
{
	diag(DIAG_ERROR, "pid %d: no such process", pid);
}

static const struct procsel_ops sel_ops = {
	.allow = sel_allow,
	.selected = sel_selected,
	.exited = sel_exited,
	.missing = sel_missing,
};

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
	judge_vsync_writer(l, r->hdr.tgid, &m);
	engine__marker(l->e, r->hdr.ts_ns, r->hdr.tgid, r->hdr.tid,
		       procsel__name(l->sel, r->hdr.tgid), &m);
	/* A sign of life: a library it lacked may be mapped by now (rate-limited there). */
	probed(l, r->hdr.tgid, uprobes__recheck(l->up, r->hdr.tgid, r->hdr.ts_ns));
}

/* --verbose: each node's name as it is read, or why it could not be. */
static void say_name(const struct at_prop_rec *r, bool has_uid, const struct nodename *nm)
{
	char id[32] = "";

	if (!nm->fresh || !diag_on(DIAG_DEBUG))
		return;
	if (has_uid)
		snprintf(id, sizeof(id), " (id %lld)", (long long)r->unique_id);
	diag(DIAG_DEBUG, "pid %u: node %#llx%s is %s%s", r->hdr.tgid, (unsigned long long)r->node,
	     id, nm->name ? nm->name : "unnamed: ", nm->name ? "" : nodename_strerror(nm->status));
}

static void on_prop(struct live *l, const struct at_prop_rec *r)
{
	bool has_uid = r->flags & AT_PROP_HAS_UID;
	struct nodename nm;
	float value, prev;

	if (r->prop >= AT_PROP_COUNT)
		return;
	memcpy(&value, &r->value_bits, sizeof(value));
	memcpy(&prev, &r->old_bits, sizeof(prev));
	l->props++;
	nodenames__get(l->names, r->hdr.tgid, r->node, has_uid, r->unique_id,
		       uprobes__node_layout(l->up, r->hdr.tgid), &nm);
	say_name(r, has_uid, &nm);
	if (has_uid)
		engine__node_id(l->e, r->hdr.tgid, r->node, r->unique_id);
	engine__prop(l->e, r->hdr.ts_ns, r->hdr.tgid, r->hdr.tid, r->node, nm.name,
		     (enum view_prop)r->prop, value, &prev);
}

/* --verbose: every unwound frame, native ones too, before the Java ones are picked. */
static void stacks_dump(const struct at_art_rec *r, const struct unwind_frame *f, int n,
			uint32_t len)
{
	diag_raw(DIAG_DEBUG,
		 "animtrace: stack: tid %u %s cookie %u, %u bytes, %d frames:", r->hdr.tid,
		 art_method_name(r->method), r->cookie, len, n);
	for (int i = 0; i < n; i++)
		diag_raw(DIAG_DEBUG, " %s@%#llx", f[i].name[0] ? f[i].name : "?",
			 (unsigned long long)f[i].pc);
	diag_raw(DIAG_DEBUG, "\n");
}

/*
 * The Java callers from the registers and stack that follow a record of head bytes (an ART
 * or a vsync record), size bytes in all.
 */
static int stack_callers(struct live *l, const struct at_art_rec *r, const struct at_hdr *h,
			 size_t head, size_t size, char (*out)[UNWIND_NAME_MAX], int max)
{
	const struct at_art_stack *st = (const void *)((const char *)h + head);
	struct unwind_frame f[UNWIND_MAX_FRAMES];
	struct unwind_regs ur = { 0 };
	int n;

	if (!l->unw || size < head + sizeof(*st) || st->len > size - head - sizeof(*st) ||
	    st->nregs > AT_ART_NREGS)
		return 0;
	ur.machine = st->nregs == AT_ART_NREGS_X86_64 ? EM_X86_64 : EM_AARCH64;
	ur.pc = st->pc;
	ur.nregs = (int)st->nregs;
	memcpy(ur.regs, st->regs, sizeof(st->regs));
	ur.stack = st->data;
	ur.stack_len = st->len;
	n = unwinder__unwind(l->unw, h->tgid, h->tid, &ur, f, UNWIND_MAX_FRAMES);
	l->stacks++;
	if (n <= 0) {
		l->stacks_failed++;
		return 0;
	}
	if (r && diag_on(DIAG_DEBUG))
		stacks_dump(r, f, n, st->len);
	return unwind_java_frames(f, n, out, max);
}

/* A DynamicAnimation method entered (the framework's copy or androidx's). */
static void on_dyn(struct live *l, const struct at_art_rec *r, size_t size)
{
	static const enum dyn_call calls[AT_ART_METHOD_COUNT] = {
		[AT_ART_DYN_START] = DYN_CALL_START,
		[AT_ART_SPRING_START] = DYN_CALL_SPRING_START,
		[AT_ART_DYN_CANCEL] = DYN_CALL_CANCEL,
		[AT_ART_DYN_SKIP] = DYN_CALL_SKIP,
		[AT_ART_DYN_END] = DYN_CALL_END,
		[AT_ART_DYN_FRAME] = DYN_CALL_FRAME,
	};
	char stack[AT_STACK_FRAMES][UNWIND_NAME_MAX];
	int n = 0;

	if (size > sizeof(*r)) /* start, cancel, skipToEnd carry their callers (--stacks) */
		n = stack_callers(l, r, &r->hdr, sizeof(*r), size, stack, AT_STACK_FRAMES);
	engine__dyn_call(l->e, r->hdr.ts_ns, r->hdr.tgid, r->hdr.tid, calls[r->method], r->obj,
			 r->arg, (const char(*)[AT_FRAME_NAME])stack, n);
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

	if (r->method == AT_ART_VA_ANIMATE || r->method == AT_ART_OA_ANIMATE) {
		engine__art_animate(l->e, r->hdr.ts_ns, r->hdr.tgid, r->hdr.tid, r->has_cookie,
				    r->cookie);
		return;
	}
	/* DynamicAnimation writes no markers: its calls have a tracker of their own. */
	if (art_method_dynamic(r->method)) {
		on_dyn(l, r, size);
		return;
	}
	if (r->method >= sizeof(calls) / sizeof(calls[0]))
		return;
	n = stack_callers(l, r, &r->hdr, sizeof(*r), size, stack, AT_STACK_FRAMES);
	engine__art_call_stack(l->e, r->hdr.ts_ns, r->hdr.tgid, r->hdr.tid, calls[r->method],
			       r->has_cookie, r->cookie, (const char(*)[AT_FRAME_NAME])stack, n);
}

/* Says once per process why its reader stopped: a value that failed its check is a warning;
 * no boot class path (a process that is no Android app) is said plainly. */
static void heap_failed(const struct at_hdr *h, int err, const char *what, const char *why)
{
	if (err != -EAGAIN)
		diag(err == -EINVAL ? DIAG_WARN : DIAG_INFO, "pid %u: %s not read: %s", h->tgid,
		     what, why);
}

/* DynamicAnimation.start's (or SpringAnimation.start's) copy of `this`: its run is found by
 * the reference itself, identity hash or not. */
static void on_dyn_obj(struct live *l, const struct at_art_obj_rec *r)
{
	struct dyn_config c;
	const char *why;
	int err = heaplive__read_dyn(l->heap, r->hdr.tgid, r->obj, r->data, r->len, &c, &why);

	if (!err)
		engine__dyn_config(l->e, r->hdr.tgid, r->obj, &c);
	else
		heap_failed(&r->hdr, err, "DynamicAnimation configurations (and animators')", why);
}

/*
 * ValueAnimator.start's copy of the head of `this`: the animator's configuration, for the S of
 * the cookie its lock word holds (an object without an identity hash cannot be matched).
 */
static void on_art_obj(struct live *l, const struct at_art_obj_rec *r, size_t size)
{
	size_t head = offsetof(struct at_art_obj_rec, data);
	struct anim_config c;
	const char *why;
	uint32_t lock;
	int err;

	if (!l->heap || size < sizeof(*r) || r->len > AT_ART_OBJ_BYTES ||
	    r->len < AT_ART_LOCK_WORD_OFF + 4 || size < head + r->len)
		return;
	if (r->method == AT_ART_DYN_START || r->method == AT_ART_SPRING_START) {
		on_dyn_obj(l, r);
		return;
	}
	memcpy(&lock, r->data + AT_ART_LOCK_WORD_OFF, 4);
	if ((lock >> AT_ART_LOCK_STATE_SHIFT) != AT_ART_LOCK_STATE_HASH)
		return;
	err = heaplive__read(l->heap, r->hdr.tgid, r->obj, r->data, r->len, &c, &why);
	if (!err)
		engine__anim_config(l->e, r->hdr.ts_ns, r->hdr.tgid, lock & AT_ART_HASH_MASK, &c);
	else if (err != -EAGAIN) /* a value that failed its check is a warning; no boot class
				  * path (a process that is no Android app) is said plainly */
		diag(err == -EINVAL ? DIAG_WARN : DIAG_INFO,
		     "pid %u: animator configurations not read: %s", r->hdr.tgid, why);
}

/* --refresh: a display list re-recorded, or a vsync requested (with its callers). */
static void on_refresh(struct live *l, const struct at_refresh_rec *r, size_t size)
{
	char stack[AT_STACK_FRAMES][UNWIND_NAME_MAX];
	int n;

	if (r->what == AT_REFRESH_REDRAW) {
		engine__redraw(l->e, r->hdr.ts_ns, r->hdr.tgid, r->hdr.tid, r->node, NULL);
		return;
	}
	if (r->what != AT_REFRESH_VSYNC)
		return;
	n = stack_callers(l, NULL, &r->hdr, sizeof(*r), size, stack, AT_STACK_FRAMES);
	engine__vsync_request(l->e, r->hdr.ts_ns, r->hdr.tgid, r->hdr.tid,
			      (const char(*)[AT_FRAME_NAME])stack, n);
}

static void on_proc(struct live *l, const struct at_proc_rec *r)
{
	switch (r->event) {
	case AT_PROC_FORK:
		procsel__fork(l->sel, r->child, now_ns());
		break;
	case AT_PROC_EXEC:
	case AT_PROC_RENAME: /* zygote's child naming itself: check now, not at the tick */
		procsel__exec(l->sel, r->hdr.tgid, now_ns());
		break;
	case AT_PROC_EXIT:
		heaplive__forget(l->heap, r->hdr.tgid);
		procsel__exit(l->sel, r->hdr.tgid, r->hdr.ts_ns);
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
	else if (h->kind == AT_REC_REFRESH)
		on_refresh(l, (const struct at_refresh_rec *)h, size);
	else if (h->kind == AT_REC_ART_OBJ)
		on_art_obj(l, (const struct at_art_obj_rec *)h, size);
}

/* What live tracing needs, checked up front so the user gets one clear line. */
static int preflight(const struct live_opts *o)
{
	if (geteuid() != 0) {
		diag(DIAG_ERROR, "live tracing needs root (adb shell su -c ...); "
				 "--replay FILE works without");
		return -EPERM;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		diag(DIAG_ERROR, "this kernel has no BTF (/sys/kernel/btf/vmlinux): "
				 "CO-RE probes need CONFIG_DEBUG_INFO_BTF=y");
		return -ENOTSUP;
	}
	return 0;
}

/* Setter and ART probes go per traced process: without a filter there is none to name. */
static int start_uprobes(struct live *l)
{
	const struct live_opts *o = l->o;
	struct uprobes_opts uo = {
		.probes = l->p,
		.proc_root = o->proc_root,
		.props = o->props && !l->trace_all,
		.hwui_path = o->hwui_path,
		.hwui_offsets = o->hwui_offsets,
		.art = o->art && !l->trace_all,
		.art_oat = o->art_oat,
		.refresh = o->refresh && !l->trace_all,
		.note = uprobes_note,
	};

	if (l->trace_all && (o->props || o->art))
		diag(DIAG_INFO, "no --proc/--pid: tracing markers of every process; View property "
				"values and end reasons need --proc or --pid");
	if (!o->art && o->props && !l->trace_all)
		diag(DIAG_INFO, "--no-art: animator targets are inferred (the first node that "
				"changes a property named by the animator)");
	l->up = uprobes__new(&uo);
	l->names = nodenames__new(NULL, NULL, o->proc_root, 0);
	return l->up && l->names ? 0 : -ENOMEM;
}

static int start(struct live *l, struct marker_file *mf)
{
	const struct live_opts *o = l->o;
	char err[256];
	int n = tracefs_find_markers(mf, TRACEFS_MAX_MARKERS, 1);

	if (n < 0) {
		diag(DIAG_ERROR,
		     "no trace_marker file (tracefs at /sys/kernel/tracing "
		     "could not be mounted: %s)",
		     strerror(-n));
		return n;
	}
	struct probes_opts po = {
		.markers = mf,
		.n_markers = n,
		.trace_all = l->trace_all,
		.track_procs = procsel__watches(l->sel),
		.ringbuf_bytes = o->ringbuf_bytes,
		.on_record = on_record,
		.ctx = l,
		.art_stack_bytes = o->art || o->refresh ? o->stack_bytes : 0,
		.self_tgid = (uint32_t)getpid(),
		.wake_markers = o->annotate != NULL,
		.art_obj = l->heap != NULL,
	};

	if (o->annotate) /* a failure is said once (its warn callback); tracing goes on */
		sink_annotate__open(o->annotate, mf[0].path);
	l->p = probes__load(&po, err, sizeof(err));
	if (!l->p) {
		n = -errno;
		diag(DIAG_ERROR, "%s", err);
		return n;
	}
	/* Attach before the scan: a process that starts in between is then seen forking. */
	if ((n = probes__attach(l->p, err, sizeof(err)))) {
		diag(DIAG_ERROR, "%s", err);
		return n;
	}
	if ((n = start_uprobes(l)))
		return n;
	return procsel__start(l->sel);
}

static uint64_t total_drops(struct live *l, struct at_drops *d)
{
	if (probes__drops(l->p, d, NULL, 0) < 0)
		memset(d, 0, sizeof(*d));
	/* Malformed records (a kind or size this build does not know) are lost ones too. */
	return d->marker_ringbuf_full + d->proc_ringbuf_full + d->prop_ringbuf_full +
	       d->art_ringbuf_full + d->refresh_ringbuf_full + d->marker_read_fault +
	       d->prop_read_fault + d->prop_stash_full + probes__bad_records(l->p);
}

static void print_stats(struct live *l, uint64_t *last_markers)
{
	struct at_drops d;
	uint64_t lost = total_drops(l, &d);

	diag_raw(DIAG_INFO,
		 "stats: %llu markers/s, %llu markers, %llu property changes, "
		 "%llu truncated, %llu lost (ring full %llu, read faults %llu)\n",
		 (unsigned long long)(l->markers - *last_markers), (unsigned long long)l->markers,
		 (unsigned long long)l->props, (unsigned long long)l->truncated,
		 (unsigned long long)lost, (unsigned long long)d.marker_ringbuf_full,
		 (unsigned long long)d.marker_read_fault);
	*last_markers = l->markers;
}

static void print_cpu_drops(struct live *l)
{
	/* The per-CPU map has a slot per possible CPU, which can exceed the configured ones. */
	int ncpu = libbpf_num_possible_cpus();
	struct at_drops total, *cpu = calloc(ncpu > 0 ? ncpu : 1, sizeof(*cpu));

	if (!cpu)
		return;
	ncpu = probes__drops(l->p, &total, cpu, ncpu);
	for (int i = 0; i < ncpu; i++)
		diag_raw(DIAG_INFO, "stats: cpu %d: ring full %llu, read faults %llu\n", i,
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
			diag(DIAG_ERROR, "reading the ring buffer failed: %s", strerror(-n));
			break;
		}
		procsel__tick(l->sel, now);
		if (o->annotate)
			sink_annotate__check(o->annotate);
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
	probes__settle_setters(l->p); /* setter calls no later event of their thread read */
	if (o->stats) /* the last line holds the final counts, however short the session */
		print_stats(l, &seen);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* --annotate: how many were written, and how long after their source event. */
static void annotate_report(const struct live_opts *o)
{
	uint64_t off;
	struct annot_delay d;

	if (!o->annotate)
		return;
	sink_annotate__delay(o->annotate, &d);
	off = sink_annotate__unrecorded(o->annotate);
	diag(DIAG_INFO,
	     "annotations: %llu written; delay from the event to the write: p50 %.3f ms, "
	     "p99 %.3f ms, max %.3f ms",
	     (unsigned long long)d.count, ms(d.p50_ns), ms(d.p99_ns), ms(d.max_ns));
	if (off)
		diag(DIAG_INFO,
		     "annotations: %llu not recorded: tracing was off (tracing_on 0; a "
		     "Perfetto or atrace capture turns it on)",
		     (unsigned long long)off);
}

/* How the nodes were named: once on stderr (when any was written) and in the summary. */
static void report_names(struct live *l)
{
	struct node_name_stats st;

	nodenames__stats(l->names, &st);
	engine__node_names(l->e, &st);
	if (st.named + st.no_offset + st.unreadable + st.not_class + st.gone == 0)
		return;
	diag(DIAG_INFO,
	     "View names: %llu nodes named, %llu without a name offset, %llu "
	     "unreadable, %llu not a class name, %llu reallocated before read",
	     (unsigned long long)st.named, (unsigned long long)st.no_offset,
	     (unsigned long long)st.unreadable, (unsigned long long)st.not_class,
	     (unsigned long long)st.gone);
}

static struct atrace_setup *android_setup(const struct live_opts *o)
{
	struct atrace_setup *as;

	if (!o->atrace_setup)
		return NULL;
	as = atrace_setup__new(o->filter);
	if (as && atrace_setup__recovered(as))
		diag(DIAG_INFO, "%s", atrace_setup__recovered(as));
	if (as && atrace_setup__active(as) && atrace_setup__unsaved(as))
		diag(DIAG_WARN, "%s", atrace_setup__status(as));
	if (as && !atrace_setup__active(as)) {
		diag(DIAG_INFO, "%s", atrace_setup__status(as));
		atrace_setup__free(as);
		return NULL;
	}
	return as;
}

/* How many animators' configurations were read, when any start was seen. */
static void heap_report(struct live *l)
{
	uint64_t read, failed, unread;

	if (!l->heap)
		return;
	heaplive__counts(l->heap, &read, &failed, &unread);
	if (read || failed || unread)
		diag(DIAG_INFO,
		     "animator configurations: %llu read, %llu reads failed, %llu starts "
		     "in processes beyond %d not read",
		     (unsigned long long)read, (unsigned long long)failed,
		     (unsigned long long)unread, HEAPLIVE_PROCS);
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
	l->sel = procsel__new(&(struct procsel_opts){
		.filter = o->filter, .proc_root = o->proc_root, .ops = &sel_ops, .ctx = l });
	l->trace_all = l->sel && procsel__all(l->sel);
	l->ident = identity__new(o->proc_root, NULL, androidprop_available());
	ret = l->sel && l->ident ? preflight(o) : -ENOMEM;
	if (!ret && (o->art || o->refresh) && o->stack_bytes) {
		l->unw = unwinder__new(o->proc_root);
		ret = l->unw ? 0 : -ENOMEM;
	}
	if (!ret && o->art && !o->no_heap && !l->trace_all) {
		l->heap = heaplive__new(o->proc_root);
		ret = l->heap ? 0 : -ENOMEM;
	}
	if (!ret)
		ret = start(l, mf);
	if (ret)
		goto out;
	as = android_setup(o);
	diag(DIAG_INFO, "ready: tracing %s; Ctrl-C to stop",
	     l->trace_all ? "every process" : "the selected processes");
	loop(l, as);
	report_names(l);
	if (probes__bad_records(l->p))
		diag(DIAG_WARN, "%llu malformed records from the BPF programs dropped",
		     (unsigned long long)probes__bad_records(l->p));
	engine__finish(e, now_ns(), total_drops(l, &d), l->truncated);
	annotate_report(o);
	if (o->stats)
		print_cpu_drops(l);
out:
	atrace_setup__restore(as);
	atrace_setup__free(as);
	uprobes__free(l->up);
	if (l->stacks_failed)
		diag(DIAG_INFO, "%llu of %llu call stacks could not be unwound",
		     (unsigned long long)l->stacks_failed, (unsigned long long)l->stacks);
	heap_report(l);
	heaplive__free(l->heap);
	probes__free(l->p);
	procsel__free(l->sel);
	identity__free(l->ident);
	nodenames__free(l->names);
	unwinder__free(l->unw);
	free(l);
	return ret;
}

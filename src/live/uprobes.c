// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/art.h"
#include "symbols/hwui.h"
#include "live/probes.h"
#include "live/uprobes.h"

#define PARKED_MAX 8
#define REAPERS_MAX (4 * (UPROBES_MAX_PROCS + PARKED_MAX)) /* 4 sets of links a process */
#define CACHE_MAX 8 /* library paths remembered: libhwui builds, boot and app oats */
#define RECHECK_NS 1000000000ULL
#define PATH_CAP 512

/* One library's resolution, kept by path: every app maps the same few files. */
struct cached {
	char path[PATH_CAP];
	int state; /* 0 usable, < 0 failed (-errno) */
	union {
		struct hwui_lib lib;
		struct art_oat oat;
		struct hwui_fn fn; /* the vsync request (--refresh) */
	};
};

struct cache {
	struct cached e[CACHE_MAX];
	int n, next; /* next: the entry replaced once full */
};

/* The probes of one traced process. */
struct proc {
	uint32_t tgid;
	struct setter_links *links;
	/* ART probes, one set per oat file: boot-framework.oat and the app's own (late) odex */
	struct art_links *art[ART_OATS_MAX];
	char art_path[ART_OATS_MAX][ART_PATH_MAX]; /* the files looked at, probed or not */
	int n_art;
	struct refresh_links *redraw, *vsync; /* --refresh */
	struct hwui_node_layout node; /* where its library keeps a RenderNode's name and id */
	unsigned waiting;	      /* UPROBES_* whose library pid did not map yet */
	uint64_t next_ns;	      /* its maps are not read again before */
};

struct uprobes {
	struct uprobes_opts o;
	struct proc procs[UPROBES_MAX_PROCS];
	int n_procs, n_waiting;
	struct proc parked[PARKED_MAX]; /* probes of exited processes, detached later */
	int n_parked;
	pthread_t reapers[REAPERS_MAX]; /* threads detaching probes */
	int n_reapers;
	struct cache libs, oats, vsyncs;
	bool said_full;
};

static void notef(struct uprobes *u, enum diag_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void notef(struct uprobes *u, enum diag_level level, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	if (!u->o.note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	u->o.note(u->o.ctx, level, msg);
}

/* The entry of path; *fresh says it is new and must be resolved. */
static struct cached *cache_get(struct cache *c, const char *path, bool *fresh)
{
	struct cached *e;

	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].path, path)) {
			*fresh = false;
			return &c->e[i];
		}
	e = c->n < CACHE_MAX ? &c->e[c->n++] : &c->e[c->next++ % CACHE_MAX];
	snprintf(e->path, sizeof(e->path), "%s", path);
	*fresh = true;
	return e;
}

static void hwui_warning(void *ctx, const char *msg)
{
	notef(ctx, DIAG_WARN, "%s", msg);
}

/* How each setter of lib is probed, and why (-v; the pairs also in a warning). */
static void say_setters(struct uprobes *u, const struct hwui_lib *lib)
{
	for (int p = 0; p < AT_PROP_COUNT; p++) {
		if (!(lib->ok_mask & (1u << p)))
			continue;
		if (lib->one_probe_mask & (1u << p))
			notef(u, DIAG_DEBUG,
			      "%s: setter %#llx stores the field (+%#x) at %#llx and "
			      "calls nothing: one probe a call, the value read at the thread's next "
			      "event",
			      hwui_prop_name(p), (unsigned long long)lib->setter_vaddr[p],
			      lib->field_off[p], (unsigned long long)lib->store_vaddr[p]);
		else
			notef(u, DIAG_WARN, "%s: setter %#llx: %s: entry and return probes",
			      hwui_prop_name(p), (unsigned long long)lib->setter_vaddr[p],
			      hwui_store_strerror(lib->store_err[p]));
	}
}

/* The setters in path, resolved once per path; NULL when unusable (said once). */
static const struct hwui_lib *hwui_for(struct uprobes *u, const char *path)
{
	bool fresh;
	struct cached *c = cache_get(&u->libs, path, &fresh);

	if (fresh) {
		c->state = hwui_resolve(path, u->o.hwui_offsets, &c->lib, hwui_warning, u);
		if (c->state)
			notef(u, DIAG_ERROR, "no View property values: %s: %s", path,
			      hwui_strerror(c->state));
		else
			say_setters(u, &c->lib);
		if (!c->state && c->lib.node.name_err)
			notef(u, DIAG_INFO,
			      "no View class names from %s (%s): nodes show as "
			      "RenderNode@xxxx",
			      path, hwui_name_strerror(c->lib.node.name_err));
	}
	return c->state ? NULL : &c->lib;
}

/* What the boot oat lacks of ValueAnimator's methods (said once per path, as before). */
static void say_missing_va(struct uprobes *u, const struct cached *c)
{
	char missing[128];

	art_missing(&c->oat, missing, sizeof(missing));
	if (c->state || missing[0])
		notef(u, DIAG_INFO,
		      "ValueAnimator %s not AOT-compiled on this device (%s): "
		      "end reasons will be inferred",
		      c->state ? "start/cancel/end" : missing, c->path);
	if (!(c->oat.ok_mask & ((1u << AT_ART_VA_ANIMATE) | (1u << AT_ART_OA_ANIMATE))))
		notef(u, DIAG_INFO,
		      "ValueAnimator/ObjectAnimator.animateValue not "
		      "AOT-compiled on this device (%s): animator targets will be inferred",
		      c->path);
}

#define DYN_KINDS_MASK                                                                        \
	((1u << AT_ART_DYN_START) | (1u << AT_ART_DYN_CANCEL) | (1u << AT_ART_SPRING_START) | \
	 (1u << AT_ART_DYN_SKIP) | (1u << AT_ART_DYN_END) | (1u << AT_ART_DYN_FRAME))

/*
 * What an oat lacks of DynamicAnimation's methods, said once per path: the boot oat holds the
 * framework's copy, an app's odex androidx's (when the app uses it). Without symbols at all
 * the odex was compiled without MiniDebugInfo (art.h: dalvik.vm.dex2oat-minidebuginfo).
 */
static void say_missing_dyn(struct uprobes *u, const struct cached *c)
{
	bool boot = art_is_boot_oat(c->path);
	const char *which = boot ? "the framework's DynamicAnimation" : "androidx DynamicAnimation";
	char missing[128];

	if (!boot && c->state != -ENOENT && c->state) {
		notef(u, DIAG_INFO, "%s cannot be read (%s): no DynamicAnimation probes in it",
		      c->path, strerror(-c->state));
		return;
	}
	if (!boot && !c->oat.mini_debug_info) {
		notef(u, DIAG_INFO,
		      "%s has no MiniDebugInfo (dalvik.vm.dex2oat-minidebuginfo is "
		      "off?): its springs and flings are found from the values only",
		      c->path);
		return;
	}
	if (!boot && !(c->oat.ok_mask & DYN_KINDS_MASK))
		return; /* the app has no compiled androidx DynamicAnimation: nothing to say */
	art_missing_dynamic(&c->oat, missing, sizeof(missing));
	if (!(c->oat.ok_mask & DYN_KINDS_MASK))
		notef(u, DIAG_INFO,
		      "%s not AOT-compiled (%s): its springs and flings are found "
		      "from the values only",
		      which, c->path);
	else if (missing[0])
		notef(u, DIAG_INFO, "%s %s not AOT-compiled (%s): %s", which, missing, c->path,
		      (c->oat.ok_mask & (1u << AT_ART_DYN_END)) ? "fewer details" :
								  "ends are inferred");
}

/* The probed methods in path, resolved once per path (said once what is missing); NULL when
 * it has none. */
static const struct art_oat *oat_for(struct uprobes *u, const char *path)
{
	bool fresh;
	struct cached *c = cache_get(&u->oats, path, &fresh);

	if (fresh) {
		c->state = art_resolve(path, &c->oat);
		if (art_is_boot_oat(path) || u->o.art_oat)
			say_missing_va(u, c);
		say_missing_dyn(u, c);
	}
	return c->state ? NULL : &c->oat;
}

/* --refresh: the display-list probe in the setters' library (the same file on every Android). */
static unsigned attach_redraw(struct uprobes *u, struct proc *pr, const struct hwui_lib *lib)
{
	if (!u->o.refresh)
		return 0;
	if (lib->redraw.err) {
		notef(u, DIAG_INFO, "pid %u: no display-list function in %s: redraws unknown",
		      pr->tgid, lib->path);
		return 0;
	}
	pr->redraw = probes__attach_redraw(u->o.probes, (int)pr->tgid, lib->path,
					   lib->redraw.offset, lib->redraw.node_arg);
	if (!pr->redraw) {
		notef(u, DIAG_ERROR, "attaching the redraw probe in %s failed: %s", lib->path,
		      strerror(errno));
		return 0;
	}
	notef(u, DIAG_INFO, "pid %u: redraws from %s in %s (node in argument %d)", pr->tgid,
	      lib->redraw.name, lib->path, lib->redraw.node_arg);
	return UPROBES_REDRAW;
}

/* The vsync request in path, resolved once per path; NULL when it has none (said once). */
static const struct hwui_fn *vsync_for(struct uprobes *u, const char *path)
{
	bool fresh;
	struct cached *c = cache_get(&u->vsyncs, path, &fresh);

	if (fresh) {
		c->state = hwui_resolve_vsync(path, &c->fn);
		if (c->state)
			notef(u, DIAG_INFO,
			      "no vsync request function in %s (%s): frame requests "
			      "unknown",
			      path, strerror(-c->state));
	}
	return c->state ? NULL : &c->fn;
}

static unsigned attach_vsync(struct uprobes *u, struct proc *pr, const char *path)
{
	const struct hwui_fn *fn = vsync_for(u, path);

	pr->vsync = fn ? probes__attach_vsync(u->o.probes, (int)pr->tgid, path, fn->offset) : NULL;
	if (pr->vsync)
		notef(u, DIAG_INFO, "pid %u: frame requests from %s in %s", pr->tgid, fn->name,
		      path);
	else if (fn)
		notef(u, DIAG_ERROR, "attaching the vsync probe in %s failed: %s", path,
		      strerror(errno));
	return pr->vsync ? UPROBES_VSYNC : 0;
}

static unsigned attach_setters(struct uprobes *u, struct proc *pr, const char *path)
{
	const struct hwui_lib *lib = hwui_for(u, path);
	char err[256] = "";

	pr->links =
		lib ? probes__attach_setters(u->o.probes, (int)pr->tgid, lib, err, sizeof(err)) :
		      NULL;
	if (pr->links) {
		pr->node = lib->node;
		notef(u, DIAG_INFO,
		      "pid %u: View property values from %s, one probe a call for "
		      "%d, entry and return probes for %d (%d of %d setters)",
		      pr->tgid, lib->path, __builtin_popcount(lib->one_probe_mask),
		      __builtin_popcount(lib->ok_mask & ~lib->one_probe_mask),
		      __builtin_popcount(lib->ok_mask), AT_PROP_COUNT);
	} else if (err[0])
		notef(u, DIAG_ERROR, "%s", err);
	return pr->links ? UPROBES_SETTERS | attach_redraw(u, pr, lib) : 0;
}

static void say_unmapped(struct uprobes *u, unsigned kind, uint32_t pid);

#define VA_REASONS_MASK ((1u << AT_ART_VA_CANCEL) | (1u << AT_ART_VA_END))

/* The probes of the oat at path for pr (one set more); the UPROBES_* bits they give. */
static unsigned attach_art(struct uprobes *u, struct proc *pr, const char *path)
{
	const struct art_oat *oat = oat_for(u, path);
	struct art_links *l;
	unsigned got = 0;
	char err[256] = "";

	snprintf(pr->art_path[pr->n_art], ART_PATH_MAX, "%.*s", ART_PATH_MAX - 1, path);
	l = oat ? probes__attach_art(u->o.probes, (int)pr->tgid, oat, err, sizeof(err)) : NULL;
	pr->art[pr->n_art++] = l;
	if (!l) {
		if (err[0])
			notef(u, DIAG_ERROR, "%s", err);
		return 0;
	}
	/* ValueAnimator's end reasons need both cancel and end (as before the table) */
	if ((oat->ok_mask & VA_REASONS_MASK) == VA_REASONS_MASK) {
		notef(u, DIAG_INFO, "pid %u: end reasons from ART probes in %s", pr->tgid, path);
		got |= UPROBES_ART;
	}
	if (oat->ok_mask & DYN_KINDS_MASK) {
		notef(u, DIAG_INFO, "pid %u: DynamicAnimation probes in %s (%d of %d methods)",
		      pr->tgid, path, __builtin_popcount(oat->ok_mask & DYN_KINDS_MASK),
		      __builtin_popcount(DYN_KINDS_MASK));
		got |= UPROBES_DYN;
	}
	return got;
}

static bool art_looked_at(const struct proc *pr, const char *path)
{
	for (int i = 0; i < pr->n_art; i++)
		if (!strcmp(pr->art_path[i], path))
			return true;
	return false;
}

/*
 * The ART probes of pr: every oat it maps that can hold probed methods and was not looked at
 * yet. It keeps waiting (its maps read again on signs of life) until it maps both the boot
 * oat and its own code: an app's odex is mapped when its class loader is made, after the
 * zygote fork, and can come later than the first look.
 */
static unsigned probe_art(struct uprobes *u, struct proc *pr, bool first)
{
	char paths[ART_OATS_MAX][ART_PATH_MAX];
	bool boot = false, app = false;
	unsigned got = 0;
	int n = 1;

	if (u->o.art_oat) /* a uprobe on a file also fires in mappings made after it */
		snprintf(paths[0], sizeof(paths[0]), "%s", u->o.art_oat);
	else
		n = art_find_oats(u->o.proc_root, (int)pr->tgid, paths, ART_OATS_MAX);
	if (n < 0) {
		pr->waiting &= ~UPROBES_ART;
		return 0;
	}
	for (int i = 0; i < n && i < ART_OATS_MAX; i++) {
		boot |= art_is_boot_oat(paths[i]);
		app |= !art_is_boot_oat(paths[i]);
		if (art_looked_at(pr, paths[i]) || pr->n_art == ART_OATS_MAX)
			continue;
		if (!first)
			notef(u, DIAG_INFO, "pid %u: %s appeared, probing", pr->tgid,
			      strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i]);
		got |= attach_art(u, pr, paths[i]);
	}
	if (!boot && first && !u->o.art_oat)
		say_unmapped(u, UPROBES_ART, pr->tgid);
	if (u->o.art_oat || (boot && app) || pr->n_art == ART_OATS_MAX)
		pr->waiting &= ~UPROBES_ART;
	else
		pr->waiting |= UPROBES_ART;
	return got;
}

/* The library of kind for pid: the one given, else from its maps (-ENOENT: not mapped). */
static int find_library(struct uprobes *u, unsigned kind, uint32_t pid, char *path, size_t cap)
{
	const char *given = u->o.hwui_path;
	int ret;

	if (kind == UPROBES_VSYNC) { /* Android has it in libandroid_runtime (or libgui) */
		ret = hwui_find_vsync_library(u->o.proc_root, (int)pid, path, cap);
		given = u->o.hwui_path; /* else the setters' file: one static binary, or 10- */
		if (ret != -ENOENT || !given)
			return ret;
	}
	if (given) /* a uprobe on a file also fires in mappings made after it */
		return snprintf(path, cap, "%s", given) < (int)cap ? 0 : -ENAMETOOLONG;
	return hwui_find_library(u->o.proc_root, (int)pid, path, cap);
}

static void say_unmapped(struct uprobes *u, unsigned kind, uint32_t pid)
{
	if (kind == UPROBES_SETTERS)
		notef(u, DIAG_INFO,
		      "pid %u maps neither libhwui.so nor libandroid_runtime.so: "
		      "no View property values until it does",
		      pid);
	else if (kind == UPROBES_VSYNC)
		notef(u, DIAG_INFO,
		      "pid %u maps neither libandroid_runtime.so nor libgui.so: "
		      "frame requests unknown until it does",
		      pid);
	else
		notef(u, DIAG_INFO,
		      "pid %u maps no boot-framework.oat: end reasons will be "
		      "inferred until it does",
		      pid);
}

/* Probes kind in pr when its library is mapped; first: this is pr's first look. */
static unsigned probe_kind(struct uprobes *u, struct proc *pr, unsigned kind, bool first)
{
	char path[PATH_CAP];
	int ret = find_library(u, kind, pr->tgid, path, sizeof(path));
	const char *base;

	if (ret == -ENOENT) {
		if (first)
			say_unmapped(u, kind, pr->tgid);
		pr->waiting |= kind;
		return 0;
	}
	pr->waiting &= ~kind;
	if (ret)
		return 0;
	if (!first) {
		base = strrchr(path, '/');
		notef(u, DIAG_INFO, "pid %u: %s appeared, probing", pr->tgid,
		      base ? base + 1 : path);
	}
	if (kind == UPROBES_VSYNC)
		return attach_vsync(u, pr, path);
	return attach_setters(u, pr, path);
}

static bool has_art(const struct proc *pr)
{
	for (int i = 0; i < pr->n_art; i++)
		if (pr->art[i])
			return true;
	return false;
}

static struct proc *find_proc(struct uprobes *u, uint32_t pid)
{
	for (int i = 0; i < u->n_procs; i++)
		if (u->procs[i].tgid == pid)
			return &u->procs[i];
	return NULL;
}

static void count_waiting(struct uprobes *u)
{
	u->n_waiting = 0;
	for (int i = 0; i < u->n_procs; i++)
		u->n_waiting += u->procs[i].waiting != 0;
}

struct uprobes *uprobes__new(const struct uprobes_opts *o)
{
	struct uprobes *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->o = *o;
	return u;
}

int uprobes__add(struct uprobes *u, uint32_t pid, uint64_t now_ns)
{
	struct proc pr = { .tgid = pid, .next_ns = now_ns + RECHECK_NS };
	unsigned got = 0;

	if ((!u->o.props && !u->o.art && !u->o.refresh) || find_proc(u, pid))
		return 0;
	if (u->n_procs == UPROBES_MAX_PROCS) {
		if (!u->said_full)
			notef(u, DIAG_INFO,
			      "more than %d processes: pid %u and later get no "
			      "property/ART probes",
			      UPROBES_MAX_PROCS, pid);
		u->said_full = true;
		return -ENOSPC;
	}
	if (u->o.props)
		got |= probe_kind(u, &pr, UPROBES_SETTERS, true);
	if (u->o.art)
		got |= probe_art(u, &pr, true);
	if (u->o.refresh)
		got |= probe_kind(u, &pr, UPROBES_VSYNC, true);
	if (pr.links || has_art(&pr) || pr.vsync || pr.waiting)
		u->procs[u->n_procs++] = pr;
	count_waiting(u);
	return (int)got;
}

int uprobes__recheck(struct uprobes *u, uint32_t pid, uint64_t now_ns)
{
	struct proc *pr;
	unsigned got = 0;

	if (!u->n_waiting || !(pr = find_proc(u, pid)) || !pr->waiting || now_ns < pr->next_ns)
		return 0;
	pr->next_ns = now_ns + RECHECK_NS;
	if (pr->waiting & UPROBES_SETTERS)
		got |= probe_kind(u, pr, UPROBES_SETTERS, false);
	if (pr->waiting & UPROBES_ART)
		got |= probe_art(u, pr, false);
	if (pr->waiting & UPROBES_VSYNC)
		got |= probe_kind(u, pr, UPROBES_VSYNC, false);
	count_waiting(u);
	return (int)got;
}

static void free_setters(void *l)
{
	setter_links__free(l);
}

static void free_art(void *l)
{
	art_links__free(l);
}

static void free_refresh(void *l)
{
	refresh_links__free(l);
}

/* One set of a process's links, detached on a thread of its own. */
struct reaping {
	void (*free)(void *links);
	void *links;
};

static void *reaper_main(void *arg)
{
	struct reaping *r = arg;

	r->free(r->links);
	free(r);
	return NULL;
}

static void join_reapers(struct uprobes *u)
{
	for (int i = 0; i < u->n_reapers; i++)
		pthread_join(u->reapers[i], NULL);
	u->n_reapers = 0;
}

/* Detaches links with fn on a thread (inline when none can be had); NULL links: nothing. */
static void reap_set(struct uprobes *u, void (*fn)(void *), void *links)
{
	struct reaping *r = links ? malloc(sizeof(*r)) : NULL;

	if (!links)
		return;
	if (u->n_reapers == REAPERS_MAX) /* long done, in a long session */
		join_reapers(u);
	if (r) {
		*r = (struct reaping){ fn, links };
		if (!pthread_create(&u->reapers[u->n_reapers], NULL, reaper_main, r)) {
			u->n_reapers++;
			return;
		}
	}
	free(r);
	fn(links);
}

/* Each set of pr's links on its own thread: their detach waits (a grace period) overlap. */
static void reap(struct uprobes *u, const struct proc *pr)
{
	reap_set(u, free_setters, pr->links);
	for (int i = 0; i < pr->n_art; i++)
		reap_set(u, free_art, pr->art[i]);
	reap_set(u, free_refresh, pr->redraw);
	reap_set(u, free_refresh, pr->vsync);
}

/*
 * A dead process's probes fire no more, but detaching them can take seconds (perf-event
 * uprobes, where the kernel has no uprobe_multi links: see ulink.h) and holds the very uprobes
 * a restarted process needs: they are parked, and detached at exit, or in the background once
 * too many are parked.
 */
void uprobes__retire(struct uprobes *u, uint32_t pid)
{
	struct proc *pr = find_proc(u, pid);

	if (!pr)
		return;
	if (pr->links)
		probes__drop_offsets(u->o.probes, (int)pid);
	if (pr->links || has_art(pr) || pr->vsync) {
		if (u->n_parked == PARKED_MAX) {
			reap(u, &u->parked[0]);
			memmove(u->parked, u->parked + 1, --u->n_parked * sizeof(u->parked[0]));
		}
		u->parked[u->n_parked++] = *pr;
	}
	*pr = u->procs[--u->n_procs];
	count_waiting(u);
}

const struct hwui_node_layout *uprobes__node_layout(struct uprobes *u, uint32_t pid)
{
	struct proc *pr = find_proc(u, pid);

	return pr && pr->links ? &pr->node : NULL;
}

int uprobes__count(const struct uprobes *u)
{
	return u->n_procs;
}

void uprobes__free(struct uprobes *u)
{
	if (!u)
		return;
	for (int i = 0; i < u->n_procs; i++)
		reap(u, &u->procs[i]);
	for (int i = 0; i < u->n_parked; i++)
		reap(u, &u->parked[i]);
	join_reapers(u);
	free(u);
}

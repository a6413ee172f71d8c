/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The uprobe lifecycle of traced processes: finds the library that holds the RenderNode
 * setters and the oat that holds ValueAnimator's compiled methods in each process's maps,
 * resolves each library once per path, attaches setter and ART probes for that process
 * only, checks again when a process that lacked a library shows a sign of life (libraries
 * mapped late), and detaches a dead process's probes later, in the background.
 */
#ifndef ANIMTRACE_UPROBES_H
#define ANIMTRACE_UPROBES_H

#include <stdbool.h>
#include <stdint.h>

#include "common/diag.h"

#define UPROBES_SETTERS 1u /* RenderNode setter probes (View property values) */
#define UPROBES_ART 2u	   /* ValueAnimator probes (end reasons) */
#define UPROBES_REDRAW 4u  /* --refresh: the display-list probe (with the setters) */
#define UPROBES_VSYNC 8u   /* --refresh: the vsync request probe */
#define UPROBES_DYN 16u	   /* DynamicAnimation probes (boot oat or the app's odex) */
#define UPROBES_MAX_PROCS 64

struct probes;
struct uprobes;

/* A status line for the user (no prefix, no newline); the caller says it. */
typedef void (*uprobes_note_fn)(void *ctx, enum diag_level level, const char *msg);

struct uprobes_opts {
	struct probes *probes;
	const char *proc_root;	  /* "/proc" unless testing */
	bool props;		  /* probe the setters */
	const char *hwui_path;	  /* the library holding them; NULL: from each process's maps */
	const char *hwui_offsets; /* "prop=off,..." field offset overrides, or NULL */
	bool art;		  /* probe ValueAnimator's and DynamicAnimation's methods */
	/* the oat holding them; NULL: boot-framework.oat and the app's odex from maps */
	const char *art_oat;
	/* --refresh: the display-list probe beside the setters, and the vsync request probe in
	 * libandroid_runtime.so or libgui.so from maps (else in hwui_path) */
	bool refresh;
	uprobes_note_fn note;
	void *ctx;
};

/* Copies o (its strings must outlive the handle). Returns NULL and sets errno. */
struct uprobes *uprobes__new(const struct uprobes_opts *o);

/*
 * Probes pid, whose markers are already let through. Returns the UPROBES_* bits attached,
 * or -ENOSPC past UPROBES_MAX_PROCS processes (said once). A library pid does not map yet
 * is looked for again by uprobes__recheck.
 */
int uprobes__add(struct uprobes *u, uint32_t pid, uint64_t now_ns);

/*
 * pid showed a sign of life (a marker) at now_ns (CLOCK_MONOTONIC): when it lacked a library
 * and its maps were last read a second or more ago, reads them again and probes what
 * appeared. Returns the UPROBES_* bits attached now (0 almost always).
 */
int uprobes__recheck(struct uprobes *u, uint32_t pid, uint64_t now_ns);

/* pid exited: its probes no longer fire and are detached later (at most a few kept). */
void uprobes__retire(struct uprobes *u, uint32_t pid);

struct hwui_node_layout;

/* Where pid's setter library keeps a RenderNode's name and id; NULL without setter probes. */
const struct hwui_node_layout *uprobes__node_layout(struct uprobes *u, uint32_t pid);

/* Processes with probes attached or a library awaited. */
int uprobes__count(const struct uprobes *u);

/* Detaches every probe, the waits of all processes overlapping; accepts NULL. */
void uprobes__free(struct uprobes *u);

#endif

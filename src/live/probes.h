/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * BPF skeleton lifecycle: open -> set globals -> load -> attach -> poll. Interprets no
 * event: records go to the caller's callback after their header has been checked.
 */
#ifndef ANIMTRACE_PROBES_H
#define ANIMTRACE_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animtrace/wire.h"
#include "symbols/art.h"
#include "symbols/hwui.h"
#include "live/tracefs.h"

struct probes;

/* Called for each record whose header is sane (size within the sample, known kind). */
typedef void (*probes_record_fn)(void *ctx, const struct at_hdr *h, size_t size);

struct probes_opts {
	const struct marker_file *markers;
	int n_markers;
	bool trace_all;	      /* no process filter */
	bool track_procs;     /* report forks, execs and renames (for --proc) */
	size_t ringbuf_bytes; /* 0 -> AT_RINGBUF_DEFAULT; rounded up to a power of two */
	/* --stacks: user stack bytes the ART probes copy with their registers (0: none);
	 * rounded down to 8 bytes, at most AT_ART_STACK_MAX. */
	uint32_t art_stack_bytes;
	/* the heap reader: ValueAnimator.start copies the head of `this` (AT_REC_ART_OBJ) */
	bool art_obj;
	uint32_t self_tgid; /* animtrace's own: its trace_marker writes are never captured */
	bool wake_markers; /* wake the reader at every marker record (--annotate), not on the tick */
	probes_record_fn on_record;
	void *ctx;
};

/*
 * Opens, configures and loads the BPF programs. Returns NULL and sets errno; err gets a
 * one-line reason for the user (e.g. "BPF load failed: Operation not permitted").
 */
struct probes *probes__load(const struct probes_opts *o, char *err, size_t errlen);

/* Attaches every program. Returns 0 or a negative errno (err says which program). */
int probes__attach(struct probes *p, char *err, size_t errlen);

/* Lets tgid's markers through (allow) or stops them. */
int probes__allow(struct probes *p, uint32_t tgid, bool allow);

/*
 * The setter calls still pending when tracing stops (a thread with no event since its last
 * call, bpf/animtrace.bpf.c): the records batched before it first (wire.h, AT_SETTER_BATCH),
 * then its stored value read from its thread's memory and, when it changed, handed to
 * on_record as the BPF program would have. A value that cannot be
 * read (the process is gone) counts as a read fault. Returns the calls taken, or -errno.
 */
int probes__settle_setters(struct probes *p);

struct setter_links;

/*
 * Attaches the RenderNode setter probes of lib for pid only (entry; and return for the setters
 * outside lib->one_probe_mask), and
 * publishes lib's field offsets to BPF for pid. Returns NULL and sets errno; err says which.
 */
struct setter_links *probes__attach_setters(struct probes *p, int pid, const struct hwui_lib *lib,
					    char *err, size_t errlen);

/* Forgets the field offsets published for pid (it exited). 0 or -errno. */
int probes__drop_offsets(struct probes *p, int pid);

/* Detaches; accepts NULL. */
void setter_links__free(struct setter_links *l);

struct art_links;

/*
 * Attaches the ART entry probes (never return probes: ART's stack walker reads return
 * addresses) at every address in oat->ok_mask's methods, for pid only. Returns NULL and
 * sets errno; err says which method failed.
 */
struct art_links *probes__attach_art(struct probes *p, int pid, const struct art_oat *oat,
				     char *err, size_t errlen);

/* Detaches; accepts NULL. */
void art_links__free(struct art_links *l);

struct refresh_links;

/*
 * --refresh: the entry probe on the display-list function at path:off for pid only, whose
 * RenderNode argument is node_arg (2: Android 12+ finishRecording, 3: setDisplayList).
 * Returns NULL and sets errno (EINVAL for another node_arg).
 */
struct refresh_links *probes__attach_redraw(struct probes *p, int pid, const char *path,
					    uint64_t off, int node_arg);

/* --refresh: the entry probe on the vsync request at path:off for pid only (NULL, errno). */
struct refresh_links *probes__attach_vsync(struct probes *p, int pid, const char *path,
					   uint64_t off);

/* Detaches; accepts NULL. */
void refresh_links__free(struct refresh_links *l);

/* Waits up to timeout_ms and dispatches records. Returns records handled or -errno. */
int probes__poll(struct probes *p, int timeout_ms);

/* Sums the per-CPU drop counters; per_cpu (optional, n_cpu slots) gets each CPU's. */
int probes__drops(struct probes *p, struct at_drops *total, struct at_drops *per_cpu, int n_cpu);

/* Records with an unknown kind or a bad size that were rejected. */
uint64_t probes__bad_records(const struct probes *p);

/* Detaches and frees; accepts NULL. */
void probes__free(struct probes *p);

#endif

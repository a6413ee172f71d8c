/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Every bound on what animtrace keeps in memory, in one place. Input decides how much state
 * there is (a capture can hold a million animators that never end, a process can create
 * RenderNodes without end), so each table is capped; what a cap turns away is counted and
 * shown in the summary (struct evictions), never dropped silently.
 *
 * Sizes: an open animator costs about 6 KB (struct anim with its curves and call stacks), an
 * animator key, thread or node about 100 bytes with its hash slot. With these caps the engine
 * stays under ~40 MB whatever it is fed.
 */
#ifndef ANIMTRACE_CAPS_H
#define ANIMTRACE_CAPS_H

/* Animators running at once in one process (SystemUI runs tens); the oldest is evicted. */
#define CAP_OPEN_ANIMS_PROC 1024
/* Animators running at once in all processes; evicted from the process with the most. */
#define CAP_OPEN_ANIMS 4096
/* (process, name, cookie) keys remembered for restart counts; when full, those of
 * animators not running are forgotten (a later restart of one counts from zero). */
#define CAP_ANIM_KEYS 65536
/* Distinct animator names with statistics; later names share one "(other names)" row. */
#define CAP_NAMES 1024
/* Ended durations kept per name for the median; beyond, a uniform reservoir sample. */
#define CAP_DURATIONS 4096
/* Processes the engine follows; markers of further ones are counted and ignored. */
#define CAP_PROCS 1024
/* Thread and process ids known by name or process in each table of src/common/proctab.c
 * (thread names from task columns and sched lines; the sets of selected processes and of
 * those that wrote markers), ~150 bytes each with its slot: when full, the id set least
 * recently is forgotten (CLOCK). */
#define CAP_PROC_IDS 32768
/* Threads with slice state (~6.5 KB each with their slices); when full, a quarter is
 * forgotten at once, those with no open slice first, then the least recently used. */
#define CAP_THREADS 4096
/* Open B slices per thread (a B without its E nests forever) and in all threads (each keeps
 * its longest child chain, ~300 bytes); further ones are counted and ignored with their E. */
#define CAP_SLICE_DEPTH 64
#define CAP_OPEN_SLICES 16384
/* RenderNodes remembered per process; when full, those not in the current frame are
 * forgotten (their next change has no "from" value). */
#define CAP_NODES_PROC 16384
/* RenderNodes remembered in all processes (~200 bytes each with its slot); a process that
 * needs one more forgets its own nodes outside the current frame, or loses the change
 * (counted in nodes) when it has none to give up. */
#define CAP_NODES 65536
/* View class names cached by (pid, node, unique id), live only, ~160 bytes each; when a
 * bucket is full its least recently used name is evicted (read again when seen again). */
#define CAP_NODE_NAMES 8192
/* Nodes reported in one frame_props record (~900 bytes each with the writes of each property,
 * AT_PROP_WRITES: at most ~230 KB per process's batch); more are counted, not reported. */
#define CAP_FRAME_NODES 256
/* Property runs followed at once for unmarked animations (src/segment.h), in all processes
 * (about 1.2 KB each with its samples); a run beyond is counted and not followed. */
#define CAP_SEG_RUNS 1024
/* Samples kept per run: a longer run keeps its first frame and every other one of the rest,
 * then every fourth..., and always its last (what the fit sees, src/fit.h). */
#define CAP_SEG_SAMPLES 64
/* Nodes one animator's exact targets keep (~1.3 KB each, allocated as it writes them: at
 * most ~10 KB per running animator); writes to further nodes are counted, not kept. */
#define CAP_ANIM_TARGETS 8
/* ValueAnimator.start calls per process waiting for their S (a start delay); the oldest
 * is forgotten when more wait (its animator then has no measured delay). */
#define CAP_PENDING_STARTS 64
/* AnimatorSets remembered per process by the caller that started them (engine/starter.h,
 * ~250 bytes each), and the animators each one started; the least recently used set and a
 * set's oldest animator are forgotten (a later child of a forgotten set has no set caller). */
#define CAP_STARTER_SETS 8
#define CAP_STARTER_MEMBERS 8

/* DynamicAnimation runs followed at once per process (engine/dynanims.h); past it the oldest
 * is reported as it is and dropped (counted). */
#define CAP_DYN_RUNS 32

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who speaks for whom (ANDROID.md section 8). Any process may write any marker, and any app
 * may name itself after another, so:
 *  - SurfaceFlinger's VSYNC-app counter (C|pid|VSYNC-app|0/1) is the display's vsync, every
 *    process's first source of the period and the grid, only when SurfaceFlinger wrote it: a
 *    process named `surfaceflinger` (its comm) or `/system/bin/surfaceflinger` (its argv[0])
 *    that the caller did not mark an impostor (live on Android: not uid 1000, AID_SYSTEM, as
 *    frameworks/native services/surfaceflinger/surfaceflinger.rc runs it: `user system`).
 *    catapult's AndroidSurfaceFlinger likewise takes the process whose main thread's name
 *    matches /surfaceflinger/ (catapult-project/catapult
 *    tracing/tracing/model/helpers/android_surface_flinger.html). The captures in
 *    ../shared/testdata name it so: the Pixel 6a Perfetto trace's process tree
 *    `/system/bin/surfaceflinger`, the Flyme and MIUI ftrace text its main thread
 *    `surfaceflinger`; the AnTuTu one never names its pid 429 (that thread never ran). A
 *    writer no name is known for is taken when it is the first, and kept; any other unnamed
 *    one is not. Anything else is said once (a note) and counted for the summary, and its
 *    counter is not used.
 *  - A process the live side found to be an impostor (its uid is not the one its name's
 *    package has) is marked: a note once, and its summary line says so.
 * Owns: the display vsync's writer and the foreign count; each process's identity mark.
 * Calls nothing but the sink.
 */
#ifndef ANIMTRACE_ENGINE_TRUST_H
#define ANIMTRACE_ENGINE_TRUST_H

#include <stdbool.h>
#include <stdint.h>

#include "common/marker.h"
#include "model/model.h"

struct emit;

struct trust {
	uint32_t vsync_pid;	/* the display vsync's writer (0: none yet) */
	uint64_t vsync_foreign; /* VSYNC-app markers of other processes, not used */
	bool vsync_said;
};

struct trust_proc {
	char impostor[AT_IDENTITY_MAX]; /* why it is not what its name says ("": not marked) */
};

/* True for SurfaceFlinger's vsync toggle, C|pid|VSYNC-app|0 or 1 (by whoever wrote it). */
bool trust__is_vsync_app(const struct marker *m);

/* True for the names SurfaceFlinger's process has in /proc and in captures. */
bool trust__is_surfaceflinger(const char *process);

/*
 * pid (process: its name, NULL or "" when unknown; tp: its mark, NULL when the engine has no
 * such process) wrote VSYNC-app: true when it is the display's vsync, else counted and, the
 * first time, said.
 */
bool trust__vsync(struct trust *t, struct emit *out, uint32_t pid, const char *process,
		  const struct trust_proc *tp);

/* The caller found pid (named name) not to be what its name says: marked, said once. */
void trust__impostor(struct trust_proc *tp, struct emit *out, uint32_t pid, const char *name,
		     const char *why);

#endif

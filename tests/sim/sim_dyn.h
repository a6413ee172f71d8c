/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --scenario dyn: SpringAnimation and FlingAnimation through DynamicAnimation's compiled
 * methods (dyn_fixture.h), in the framework's copy (boot oat) and in androidx's (the app's own
 * base.odex, mapped late: after frame SIM_DYN_LOAD_FRAME, then the late gate "go"):
 *  - a framework spring run to its rest;
 *  - an androidx spring cancelled by a new one on the same property (DockView.retarget:
 *    cancel(), then start() of the next), which runs to its rest;
 *  - an androidx fling run until its velocity falls under the threshold;
 *  - a spring whose methods are not compiled (interpreted: no probe can see it), stepped the
 *    same way and written directly.
 * Each run's truth goes to the expect file as a "dyn" line when the scenario ends.
 */
#ifndef ANIMSIM_SIM_DYN_H
#define ANIMSIM_SIM_DYN_H

#include <stdint.h>

#include "hwui_fixture.h"

struct sim_dyn_host {
	void *app;
	const struct hwui_fixture_methods *hwui;
	const char *art_path; /* the boot oat holding the framework's copy */
	int tgid;
	const char *pkg, *role;
	void (*line)(void *app, const char *json); /* one expect line */
	void (*gate)(void *app, const char *name); /* waits for the late gate's file */
	long *n_changes;			   /* setter calls that changed a value */
};

struct sim_dyn;

/* NULL with errno set (no framework table, no memory, no nodes). */
struct sim_dyn *sim_dyn_new(const struct sim_dyn_host *h);
/* Before the first frame: waits for the gate "load", maps base.odex, waits for "go" (markers
 * meanwhile: signs of life). 0 or -errno. */
int sim_dyn_load(struct sim_dyn *d);
/* In frame's animation phase, at the frame time frame_ns (CLOCK_MONOTONIC). */
void sim_dyn_frame(struct sim_dyn *d, int frame, uint64_t frame_ns);
/* Writes the runs' expect lines and frees d; accepts NULL. */
void sim_dyn_free(struct sim_dyn *d);

#endif

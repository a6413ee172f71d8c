/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The findings scenarios of animsim (tests/sim/README.md): flicker, replace, fight, springs,
 * leak, clean. Each plays, with the app's own clock and fixtures, animators the way
 * ValueAnimator, ObjectAnimator and AnimationHandler run them, and unmarked springs the way
 * DynamicAnimation steps them, and writes to the expect file what animtrace must conclude
 * ("finding" lines; none for clean). animsim.c calls the four functions below.
 */
#ifndef ANIMSIM_SIM_FINDINGS_H
#define ANIMSIM_SIM_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "art_fixture.h"
#include "hwui_fixture.h"

struct app;

/* What animsim lends a script: its marker and expect writers, fixtures and identity. */
struct sim_env {
	struct app *app;
	void (*marker)(struct app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
	void (*line)(struct app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
	const struct hwui_fixture_methods *hwui; /* never NULL: the scripts need setters */
	const struct art_fixture_methods *art;	 /* NULL with --art none */
	int tgid;
	const char *pkg, *role;
	uint32_t cookie_base;
};

/* Where in a frame the script runs: the input phase (clicks: start(), cancel(), pause()) or
 * the animation phase (AnimationHandler.doAnimationFrame: the animators' values). */
enum sim_phase { SIM_INPUT, SIM_ANIMATION };

/* True when name is one of these scenarios (animsim.c plays the others itself). */
bool sim_findings_has(const char *name);
/* Makes scenario name's nodes and animator objects; *state is the scenario's until finish. */
int sim_findings_setup(const struct sim_env *env, const char *name, void **state);
/* Frame (1-based) began at frame_ns (CLOCK_MONOTONIC: what AnimationHandler reads). */
void sim_findings_frame(const struct sim_env *env, void *state, int frame, enum sim_phase phase,
			uint64_t frame_ns);
/* After the last frame: the animator, spring and finding expect lines; frees state. */
void sim_findings_finish(const struct sim_env *env, void *state);

#endif /* ANIMSIM_SIM_FINDINGS_H */

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What animsim says it did (its --expect file), and checks of animtrace's output against it. */
#ifndef ANIMTRACE_TESTS_E2E_EXPECT_H
#define ANIMTRACE_TESTS_E2E_EXPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "e2e.h"

#define EXP_MAX_ANIMS 8

struct exp_anim {
	char name[64];
	int64_t cookie;
	int start_frame, end_frame; /* 0: did not happen */
	char end[16];		    /* complete, cancel, end; "" = never ended */
};

#define EXP_MAX_PROPS 128

/* One setter call the simulator made (changed false: the setter returned false). */
struct exp_prop {
	int frame, vsync;
	uint64_t node;
	char property[16];
	float value;
	bool changed;
	char animator[64];   /* the animator that drove it, "" for none */
	char node_class[64]; /* the class the node was made with (its simple name) */
};

#define EXP_MAX_PHYS 8
#define EXP_MAX_FRAMES 512 /* frames whose vsync id the expect file gives */

/* One animation of --scenario physics (a "jump" is one write, no animation). */
struct exp_phys {
	char kind[16]; /* spring, fling, interpolated, jump */
	uint64_t node;
	char property[16];
	int start_frame, end_frame;
	double from, to;
	double stiffness, damping_ratio, friction_scalar, start_velocity; /* 0 when not its kind */
	char interpolator[24];
	char animator[64]; /* the marked animator that drove it, "" for none */
};

struct exp_proc {
	int pid;
	char process[64];
	char role[16];
	int frames, first_vsync;
	/* vsync[f]: frame f's vsync id, from the simulator's "frame" lines (0: not given). Ids
	 * are the simulator's to choose (FrameTimeline tokens rise by several per vsync): never
	 * first_vsync + f - 1. */
	int64_t vsync[EXP_MAX_FRAMES + 1];
	struct exp_anim anims[EXP_MAX_ANIMS];
	int n_anims;
	struct exp_prop props[EXP_MAX_PROPS];
	int n_props;
	bool art; /* the simulator called the ART fixture: reasons come from the ART probes */
	struct exp_phys phys[EXP_MAX_PHYS];
	int n_phys;
};

/* The physics animation of kind in t; fails the test if there is none. */
const struct exp_phys *exp_phys_kind(const struct exp_proc *t, const char *kind);

/* Frame f's vsync id in t (fails the test when the expect file does not give it), and the
 * frame whose vsync id is vsync (0 when none). */
int64_t exp_vsync(const struct exp_proc *t, int f);
int exp_frame_of_vsync(const struct exp_proc *t, int64_t vsync);

/* The processes of an --expect file, in file order, with their animators. */
int exp_load(const char *path, struct exp_proc *procs, int max);
/* The process with role in an expect file; fails the test if there is none. */
const struct exp_proc *exp_role(const struct exp_proc *procs, int n, const char *role);

/* Checks the JSON lines of animtrace for target t: its animators (ends, running at exit)
 * and its frames, exactly. */
void exp_check_target(const struct e2e_jsonl *out, const struct exp_proc *t);
/* Per-frame property values (frame_props) and animator targets of t, exactly. */
void exp_check_props(const struct e2e_jsonl *out, const struct exp_proc *t);
/* No trace of the decoy in the raw output text (pid, name or cookies). */
void exp_check_decoy_absent(const char *text, const struct exp_proc *decoy, int json);

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The simulator's Java heap: animator objects (and every object they point to) laid out as ART
 * would lay them out, so animtrace's heap reader can decode their configuration (issue #24).
 *
 * Independent of animtrace's own reader on purpose: offsets come from the fixture build's
 * second implementations of ART's layout (baksmali's "list fieldoffsets" for the Android 7-11
 * rules, <dex>.offsets.txt; tests/fixtures/dex/artlayout12.py for 12+, <dex>.offsets12.txt),
 * type indexes from the dex files' own type_ids tables. Objects as ART's mirror:: classes:
 * klass_ at 0, the lock word at 4 (identity hash state), 32-bit references, strings with
 * count_ = length << 1 | 0 (compressed, from SDK 26), arrays with their length at 8.
 */
#ifndef ANIMSIM_SIM_HEAP_H
#define ANIMSIM_SIM_HEAP_H

#include <stdbool.h>
#include <stdint.h>

#define SIM_HEAP_VALUES 4
#define SIM_HEAP_DEXES 4 /* core, framework, framework2, and one app dex */

enum sim_value_type { SIM_FLOAT = 0, SIM_INT, SIM_ARGB };

/* What one animator was configured with. */
struct sim_anim_cfg {
	bool object_animator; /* ObjectAnimator (target, property name) or ValueAnimator */
	int64_t duration_ms, start_delay_ms;
	int32_t repeat_count, repeat_mode; /* -1 INFINITE; 1 RESTART, 2 REVERSE */
	const char *interpolator;	   /* a descriptor of the fixtures, NULL: none */
	int n_values;
	struct {
		const char *property; /* NULL: an unnamed holder (ValueAnimator.ofFloat) */
		enum sim_value_type type;
		double from, to;
	} values[SIM_HEAP_VALUES];
	const char *property_name; /* ObjectAnimator.mPropertyName */
	uint64_t target_node;	   /* the native RenderNode of its target View (0: no target) */
};

struct sim_heap;

/*
 * A heap in [mem, mem + size) seen at address base (< 4 GiB), for SDK level sdk. types_dir
 * holds the fixture set's core.dex, framework.dex and framework2.dex (type indexes);
 * layout_dir the offsets files to lay the framework's objects out with (the same set, or
 * another one for a wrong layout; java.lang's stay types_dir's). locs: the DexCache.location of each of the three dexes. NULL with errno.
 */
struct sim_heap *sim_heap__new(const char *types_dir, const char *layout_dir,
			       const char *const locs[3], void *mem, uint32_t base, uint32_t size,
			       int sdk);

/* The app's dex dir/name.dex (its classes laid out by dir/name.offsets*.txt) under the
 * DexCache.location loc, after the three of sim_heap__new. 0 or -errno. */
int sim_heap__add_dex(struct sim_heap *h, const char *dir, const char *name, const char *loc);

/* An animator configured as c whose lock word holds identity hash cookie; 0 with errno. */
uint32_t sim_heap__animator(struct sim_heap *h, const struct sim_anim_cfg *c, uint32_t cookie);

/* What one DynamicAnimation (the framework's copy) was configured with before its start(). */
struct sim_dyn_cfg {
	bool androidx;	      /* androidx's classes (an app dex: sim_heap__add_dex) */
	bool fling;	      /* FlingAnimation, else SpringAnimation */
	bool start_value_set; /* setStartValue(value) was called */
	float value, velocity, min_visible_change;
	bool no_spring;					 /* SpringAnimation.mSpring null */
	double stiffness, damping_ratio, final_position; /* SpringForce (natural freq: sqrt) */
	float friction_scalar;				 /* DragForce.mFriction = -4.2 * it */
};

/* A SpringAnimation or FlingAnimation (the framework copy, or androidx's) configured as c (no
 * identity hash: nothing asked for one); 0 with errno. */
uint32_t sim_heap__dyn(struct sim_heap *h, const struct sim_dyn_cfg *c);

void sim_heap__free(struct sim_heap *h);

/*
 * --scenario config: the app's boot class path is a fake root next to the simulator
 * (<exe dir>/heaproot: apex/com.android.art/javalib/core-oj.jar, system/framework/
 * framework.jar, system/build.prop with SDK_LEVEL), found by animtrace as on a device: through
 * BOOTCLASSPATH and ANDROID_ROOT in the process's environment. Without them set, re-executes
 * the simulator with them (the environment /proc/PID/environ shows is the one of exec).
 * 0, or -errno when it could not.
 */
#define SIM_HEAP_SET "android14b1"
#define SIM_HEAP_SDK 34
int sim_heap_env(char **argv);

/* The heap of the config and dyn scenarios (with the app's dex: heaproot's base.apk) in a memfd named "dalvik-main space" below 4 GiB;
 * wrong_layout: the framework's objects laid out as Android 10 would (--wrong-layout). */
struct sim_heap *sim_heap_open(bool wrong_layout);

/* What animator i of the config scenario is configured with (target_node 0: the caller's to
 * set), or NULL past its last. */
const struct sim_anim_cfg *sim_heap_config(int i);

#endif

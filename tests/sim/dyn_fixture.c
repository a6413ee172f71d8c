// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * DynamicAnimation's methods (see dyn_fixture.h), for the package DYN_PKG (a string macro
 * given by sim.mk) and the table function DYN_TABLE. Built like art_fixture.c: local symbols
 * with ART's dotted names in asm labels, no sibling calls, no identical code folding.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#include "dyn_fixture.h"

#ifndef DYN_PKG
#error "DYN_PKG: the package, e.g. \"androidx.dynamicanimation.animation.\""
#endif

#define EXPORT __attribute__((visibility("default")))
#define METHOD __attribute__((noinline, used))
#define ARENA_SIZE 4096u
#define OBJ_SIZE 64u

struct art_method {
	uint32_t declaring_class, access_flags, dex_method_index, method_index;
};

/* The object: klass, lock word (no hash: nobody asked for one), then mRunning. */
struct dyn_obj {
	uint32_t klass, lock;
	uint32_t running, end_requested;
	int64_t last_frame_ms;
};

static struct art_method m_start = { 7, 1, 200, 0 }, m_spring_start = { 8, 1, 201, 1 },
			 m_cancel = { 7, 1, 202, 2 }, m_end = { 7, 2, 203, 3 },
			 m_frame = { 7, 1, 204, 4 }, m_skip = { 8, 1, 205, 5 };
static volatile uint32_t seen[4];
static unsigned char *arena;
static size_t arena_used;

static struct dyn_obj *obj_of(uint32_t self)
{
	return (struct dyn_obj *)(uintptr_t)self;
}

/* private void endAnimationInternal(boolean canceled) */
static METHOD void dyn_end(const struct art_method *m, uint32_t self,
			   uint32_t canceled) __asm__(DYN_PKG
						      "DynamicAnimation.endAnimationInternal");
static void dyn_end(const struct art_method *m, uint32_t self, uint32_t canceled)
{
	obj_of(self)->running = 0;
	obj_of(self)->end_requested = 0;
	obj_of(self)->last_frame_ms = 0;
	seen[0] = self + canceled + m->dex_method_index;
}

/* public void start(): startAnimationInternal when not running */
static METHOD void dyn_start(const struct art_method *m,
			     uint32_t self) __asm__(DYN_PKG "DynamicAnimation.start");
static void dyn_start(const struct art_method *m, uint32_t self)
{
	if (!obj_of(self)->running)
		obj_of(self)->running = 1;
	seen[1] = self ^ m->dex_method_index;
}

/* SpringAnimation.start(): sanityCheck, thresholds, super.start() */
static METHOD void spring_start(const struct art_method *m,
				uint32_t self) __asm__(DYN_PKG "SpringAnimation.start");
static void spring_start(const struct art_method *m, uint32_t self)
{
	seen[2] = self + m->method_index;
	dyn_start(&m_start, self);
	__asm__ volatile("" ::: "memory");
}

/* SpringAnimation.skipToEnd(): when running, the next frame ends at the final position */
static METHOD void spring_skip(const struct art_method *m,
			       uint32_t self) __asm__(DYN_PKG "SpringAnimation.skipToEnd");
static void spring_skip(const struct art_method *m, uint32_t self)
{
	if (obj_of(self)->running)
		obj_of(self)->end_requested = 1;
	seen[2] ^= self + m->dex_method_index;
}

static void skip_to_end(uint32_t obj)
{
	spring_skip(&m_skip, obj);
}

/* public void cancel(): endAnimationInternal(true) when running */
static METHOD void dyn_cancel(const struct art_method *m,
			      uint32_t self) __asm__(DYN_PKG "DynamicAnimation.cancel");
static void dyn_cancel(const struct art_method *m, uint32_t self)
{
	if (obj_of(self)->running)
		dyn_end(&m_end, self, 1);
	seen[3] = self - m->dex_method_index;
	__asm__ volatile("" ::: "memory");
}

/* public boolean doAnimationFrame(long frameTime) */
static METHOD uint32_t dyn_frame(const struct art_method *m, uint32_t self, int64_t frame_ms,
				 dyn_step_fn step,
				 void *ctx) __asm__(DYN_PKG "DynamicAnimation.doAnimationFrame");
static uint32_t dyn_frame(const struct art_method *m, uint32_t self, int64_t frame_ms,
			  dyn_step_fn step, void *ctx)
{
	struct dyn_obj *o = obj_of(self);
	long dt = o->last_frame_ms ? (long)(frame_ms - o->last_frame_ms) : 0;
	bool first = !o->last_frame_ms, done;

	o->last_frame_ms = frame_ms;
	done = step(ctx, dt) && !first; /* the first frame only writes the start value */
	if (o->end_requested && !first) /* the step's value stands in for the final position */
		done = true;
	o->end_requested = 0;
	if (done)
		dyn_end(&m_end, self, 0);
	seen[0] ^= m->method_index;
	return done;
}

/* ---- the app's callers ---- */

static METHOD void snap_to(uint32_t obj) __asm__("com.example.dock.DockView.snapTo");
static void snap_to(uint32_t obj)
{
	spring_start(&m_spring_start, obj);
	__asm__ volatile("" ::: "memory");
}

static METHOD void on_release(uint32_t obj) __asm__("com.example.dock.DockView.onRelease");
static void on_release(uint32_t obj)
{
	snap_to(obj);
	__asm__ volatile("" ::: "memory");
}

static METHOD void fling(uint32_t obj) __asm__("com.example.dock.DockView.fling");
static void fling(uint32_t obj)
{
	dyn_start(&m_start, obj);
	__asm__ volatile("" ::: "memory");
}

static METHOD void retarget(uint32_t old,
			    uint32_t next) __asm__("com.example.dock.DockView.retarget");
static void retarget(uint32_t old, uint32_t next)
{
	dyn_cancel(&m_cancel, old);
	spring_start(&m_spring_start, next);
	__asm__ volatile("" ::: "memory");
}

static bool animation_frame(uint32_t obj, int64_t frame_ms, dyn_step_fn step, void *ctx)
{
	return dyn_frame(&m_frame, obj, frame_ms, step, ctx);
}

/* ---- objects below 4 GiB (as art_fixture.c) ---- */

static void *map_low(size_t len)
{
#ifdef MAP_32BIT
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
#else
	for (uintptr_t hint = 0x50000000u; hint < 0xf0000000u; hint += 0x10000000u) {
		void *p = mmap((void *)hint, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return NULL;
		if ((uintptr_t)p + len <= 0x100000000ull)
			return p;
		munmap(p, len);
	}
	return NULL;
#endif
}

static uint32_t new_object(void)
{
	struct dyn_obj *o;

	if (!arena)
		arena = map_low(ARENA_SIZE);
	if (!arena || arena_used + OBJ_SIZE > ARENA_SIZE) {
		errno = ENOMEM;
		return 0;
	}
	o = (struct dyn_obj *)(arena + arena_used);
	arena_used += OBJ_SIZE;
	o->klass = 0x71000000u;
	return (uint32_t)(uintptr_t)o;
}

static const struct dyn_fixture_methods methods = {
	.pkg = DYN_PKG,
	.new_object = new_object,
	.spring_start = on_release,
	.fling_start = fling,
	.retarget = retarget,
	.skip = skip_to_end,
	.frame = animation_frame,
	.start_stack = { "com.example.dock.DockView.snapTo",
			 "com.example.dock.DockView.onRelease" },
	.fling_stack = { "com.example.dock.DockView.fling" },
	.retarget_stack = { "com.example.dock.DockView.retarget" },
};

EXPORT const struct dyn_fixture_methods *DYN_TABLE(void)
{
	return &methods;
}

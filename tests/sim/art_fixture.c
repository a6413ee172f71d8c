// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * boot-framework.oat stand-in (see art_fixture.h). Every method is a local symbol named with
 * an asm label, as ART's MiniDebugInfo names compiled code; the second ValueAnimator.start
 * overload lives in art_fixture_overload.c so the name appears twice in the symbol table.
 * Built with -fno-optimize-sibling-calls -fno-ipa-icf: the callers must stay real frames and
 * no two methods may be folded into one address.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#include "art_fixture.h"

#define EXPORT __attribute__((visibility("default")))
#define METHOD __attribute__((noinline, used))
#define ARENA_SIZE 4096u
#define OBJ_SIZE 16u

/* Stand-ins for the ArtMethod* the quick ABI passes in the first register. */
struct art_method {
	uint32_t declaring_class;
	uint32_t access_flags;
	uint32_t dex_method_index;
	uint32_t method_index;
};

static struct art_method m_start = { 1, 1, 100, 0 };
static struct art_method m_cancel = { 1, 1, 101, 1 };
static struct art_method m_end = { 1, 1, 102, 2 };
/* What the methods touch, so their bodies differ and the calls have an effect. */
static volatile uint32_t last_seen[4];

static unsigned char *arena;
static size_t arena_used;

/* art_fixture_overload.c: the caller of the start(boolean) overload */
void panel_flip(uint32_t obj) __asm__("com.example.anim.NotificationPanel.flip");

/* ---- framework methods (quick ABI: ArtMethod* in rdi/x0, this in esi/w1) ---- */

static METHOD void va_start(const struct art_method *m,
			    uint32_t self) __asm__("android.animation.ValueAnimator.start");
static void va_start(const struct art_method *m, uint32_t self)
{
	last_seen[0] = self + m->dex_method_index;
}

static METHOD void va_cancel(const struct art_method *m,
			     uint32_t self) __asm__("android.animation.ValueAnimator.cancel");
static void va_cancel(const struct art_method *m, uint32_t self)
{
	last_seen[1] = self ^ m->dex_method_index;
}

static METHOD void va_end(const struct art_method *m,
			  uint32_t self) __asm__("android.animation.ValueAnimator.end");
static void va_end(const struct art_method *m, uint32_t self)
{
	last_seen[2] = self - m->dex_method_index;
}

typedef void (*art_update_fn)(void *ctx);

static struct art_method m_va_animate = { 1, 0, 103, 3 };
static struct art_method m_oa_animate = { 2, 0, 104, 4 };

static METHOD void va_animate(const struct art_method *m, uint32_t self, art_update_fn update,
			      void *ctx) __asm__("android.animation.ValueAnimator.animateValue");
static void va_animate(const struct art_method *m, uint32_t self, art_update_fn update, void *ctx)
{
	last_seen[3] = self + m->method_index;
	if (update) /* mUpdateListeners.get(i).onAnimationUpdate(this) */
		update(ctx);
}

static METHOD void oa_animate(const struct art_method *m, uint32_t self, art_update_fn update,
			      void *ctx) __asm__("android.animation.ObjectAnimator.animateValue");
static void oa_animate(const struct art_method *m, uint32_t self, art_update_fn update, void *ctx)
{
	va_animate(&m_va_animate, self, NULL, NULL); /* super.animateValue(fraction) */
	last_seen[3] ^= m->dex_method_index;
	update(ctx); /* mValues[i].setAnimatedValue(target) */
}

static void animate_value(uint32_t obj, int object_animator, art_update_fn update, void *ctx)
{
	if (object_animator)
		oa_animate(&m_oa_animate, obj, update, ctx);
	else
		va_animate(&m_va_animate, obj, update, ctx);
}

/* ---- app-level callers (the frames an unwinder names) ---- */

static METHOD void panel_play(uint32_t obj) __asm__("com.example.anim.PanelAnimator.play");
static void panel_play(uint32_t obj)
{
	va_start(&m_start, obj);
	__asm__ volatile("" ::: "memory"); /* not a tail call: keep this frame */
}

static METHOD void panel_expand(uint32_t obj) __asm__("com.example.anim.NotificationPanel.expand");
static void panel_expand(uint32_t obj)
{
	panel_play(obj);
	__asm__ volatile("" ::: "memory");
}

static METHOD void panel_stop(uint32_t obj) __asm__("com.example.anim.PanelAnimator.stop");
static void panel_stop(uint32_t obj)
{
	va_cancel(&m_cancel, obj);
	__asm__ volatile("" ::: "memory");
}

static METHOD void
panel_collapse(uint32_t obj) __asm__("com.example.anim.NotificationPanel.collapse");
static void panel_collapse(uint32_t obj)
{
	panel_stop(obj);
	__asm__ volatile("" ::: "memory");
}

static METHOD void scale_finish(uint32_t obj) __asm__("com.example.anim.ScaleController.finish");
static void scale_finish(uint32_t obj)
{
	va_end(&m_end, obj);
	__asm__ volatile("" ::: "memory");
}

/* ---- ObjectAnimator.start: the auto-cancel of an animator of the same target and property ---- */

/*
 * AOSP frameworks/base core/java/android/animation/ObjectAnimator.java start():
 * AnimationHandler.getInstance().autoCancelBasedOn(this); super.start(); and
 * AnimationHandler.autoCancelBasedOn cancels each callback for which shouldAutoCancel holds
 * (an ObjectAnimator with mAutoCancel and the same target and properties).
 */
static struct art_method m_oa_start = { 2, 1, 105, 5 };
static struct art_method m_auto_cancel = { 3, 0, 106, 6 };

static METHOD void
auto_cancel_based_on(const struct art_method *m, uint32_t self, uint32_t old,
		     art_update_fn cancelled,
		     void *ctx) __asm__("android.animation.AnimationHandler.autoCancelBasedOn");
static void auto_cancel_based_on(const struct art_method *m, uint32_t self, uint32_t old,
				 art_update_fn cancelled, void *ctx)
{
	last_seen[1] = self + m->method_index;
	if (!old)
		return;
	va_cancel(&m_cancel, old);
	cancelled(ctx); /* cancel() -> endAnimation(): its F */
}

static METHOD void oa_start(const struct art_method *m, uint32_t self, uint32_t old,
			    art_update_fn cancelled,
			    void *ctx) __asm__("android.animation.ObjectAnimator.start");
static void oa_start(const struct art_method *m, uint32_t self, uint32_t old,
		     art_update_fn cancelled, void *ctx)
{
	auto_cancel_based_on(&m_auto_cancel, self, old, cancelled, ctx);
	last_seen[0] ^= m->dex_method_index;
	va_start(&m_start, self); /* super.start() */
	__asm__ volatile("" ::: "memory");
}

static METHOD void tile_toggle(uint32_t obj, uint32_t old, art_update_fn cancelled,
			       void *ctx) __asm__("com.example.anim.QuickSettings.toggle");
static void tile_toggle(uint32_t obj, uint32_t old, art_update_fn cancelled, void *ctx)
{
	oa_start(&m_oa_start, obj, old, cancelled, ctx);
	__asm__ volatile("" ::: "memory");
}

/*
 * ---- an AnimatorSet's children and a ViewPropertyAnimator (AOSP frameworks/base
 * core/java/android/animation/AnimatorSet.java, API 26+: start() -> start(boolean, boolean) ->
 * startAnimation() -> handleAnimationEvents() -> startWithoutPulsing() -> ValueAnimator.start();
 * later children from doAnimationFrame() -> handleAnimationEvents(); core/java/android/view/
 * ViewPropertyAnimator.java: start() -> startAnimation() -> ValueAnimator.start()) ----
 */

static METHOD void va_start_without_pulsing(uint32_t child) __asm__(
	"android.animation.ValueAnimator.startWithoutPulsing");
static void va_start_without_pulsing(uint32_t child)
{
	va_start(&m_start, child);
	__asm__ volatile("" ::: "memory");
}

static METHOD void
set_handle_events(uint32_t child) __asm__("android.animation.AnimatorSet.handleAnimationEvents");
static void set_handle_events(uint32_t child)
{
	va_start_without_pulsing(child);
	__asm__ volatile("" ::: "memory");
}

static METHOD void
set_start_animation(uint32_t child) __asm__("android.animation.AnimatorSet.startAnimation");
static void set_start_animation(uint32_t child)
{
	set_handle_events(child);
	__asm__ volatile("" ::: "memory");
}

static METHOD void set_start(uint32_t child) __asm__("android.animation.AnimatorSet.start");
static void set_start(uint32_t child)
{
	set_start_animation(child);
	__asm__ volatile("" ::: "memory");
}

static METHOD void
shade_expand(uint32_t child) __asm__("com.example.anim.ShadeController.animateExpand");
static void shade_expand(uint32_t child)
{
	set_start(child);
	__asm__ volatile("" ::: "memory");
}

static METHOD void
set_do_frame(uint32_t child) __asm__("android.animation.AnimatorSet.doAnimationFrame");
static void set_do_frame(uint32_t child)
{
	set_handle_events(child);
	__asm__ volatile("" ::: "memory");
}

static METHOD void
handler_do_frame(uint32_t child) __asm__("android.animation.AnimationHandler.doAnimationFrame");
static void handler_do_frame(uint32_t child)
{
	set_do_frame(child);
	__asm__ volatile("" ::: "memory");
}

static METHOD void
choreo_callbacks(uint32_t child) __asm__("android.view.Choreographer.doCallbacks");
static void choreo_callbacks(uint32_t child)
{
	handler_do_frame(child);
	__asm__ volatile("" ::: "memory");
}

static METHOD void choreo_frame(uint32_t child) __asm__("android.view.Choreographer.doFrame");
static void choreo_frame(uint32_t child)
{
	choreo_callbacks(child);
	__asm__ volatile("" ::: "memory");
}

static METHOD void
vpa_start_animation(uint32_t obj) __asm__("android.view.ViewPropertyAnimator.startAnimation");
static void vpa_start_animation(uint32_t obj)
{
	va_start(&m_start, obj);
	__asm__ volatile("" ::: "memory");
}

static METHOD void vpa_start(uint32_t obj) __asm__("android.view.ViewPropertyAnimator.start");
static void vpa_start(uint32_t obj)
{
	vpa_start_animation(obj);
	__asm__ volatile("" ::: "memory");
}

static METHOD void toast_show(uint32_t obj) __asm__("com.example.anim.ToastView.show");
static void toast_show(uint32_t obj)
{
	vpa_start(obj);
	__asm__ volatile("" ::: "memory");
}

/* ---- the vsync request: Choreographer -> nativeScheduleVsync, from an app's invalidate ---- */

typedef void (*vsync_native)(void *env, void *clazz, int64_t receiver);

static METHOD void
schedule_vsync_locked(vsync_native fn,
		      int64_t receiver) __asm__("android.view.Choreographer.scheduleVsyncLocked");
static void schedule_vsync_locked(vsync_native fn, int64_t receiver)
{
	fn(NULL, NULL, receiver);
	__asm__ volatile("" ::: "memory");
}

static METHOD void meter_level_changed(vsync_native fn, int64_t receiver) __asm__(
	"com.example.battery.BatteryMeterView.onLevelChanged");
static void meter_level_changed(vsync_native fn, int64_t receiver)
{
	schedule_vsync_locked(fn, receiver);
	__asm__ volatile("" ::: "memory");
}

/* ---- objects below 4 GiB: ART heap references are 32-bit addresses ---- */

#ifdef MAP_32BIT
static void *map_low(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}
#else
static void *map_low(size_t len)
{
	/* No MAP_32BIT (arm64): ask for an address under 4 GiB and check what we got. */
	for (uintptr_t hint = 0x40000000u; hint < 0xf0000000u; hint += 0x10000000u) {
		void *p = mmap((void *)hint, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return NULL;
		if ((uintptr_t)p + len <= 0x100000000ull)
			return p;
		munmap(p, len);
	}
	return NULL;
}
#endif

static uint32_t new_object(uint32_t cookie)
{
	uint32_t *obj;

	if (cookie > ART_HASH_MASK) {
		errno = EINVAL;
		return 0;
	}
	if (!arena)
		arena = map_low(ARENA_SIZE);
	if (!arena || arena_used + OBJ_SIZE > ARENA_SIZE) {
		errno = ENOMEM;
		return 0;
	}
	obj = (uint32_t *)(arena + arena_used);
	arena_used += OBJ_SIZE;
	obj[0] = 0x70000000u; /* klass reference: any value */
	obj[ART_LOCK_WORD_OFF / 4] = ART_LOCK_HASH_STATE | cookie;
	return (uint32_t)(uintptr_t)obj;
}

static const struct art_fixture_methods methods = {
	.method = { "start", "start", "cancel", "end", "start", "start", "start" },
	.stack = {
		{ "com.example.anim.PanelAnimator.play",
		  "com.example.anim.NotificationPanel.expand" },
		{ "com.example.anim.PanelAnimator.reverse",
		  "com.example.anim.NotificationPanel.flip" },
		{ "com.example.anim.PanelAnimator.stop",
		  "com.example.anim.NotificationPanel.collapse" },
		{ "com.example.anim.ScaleController.finish" },
		{ "com.example.anim.ShadeController.animateExpand" },
		{ "android.view.Choreographer.doCallbacks", "android.view.Choreographer.doFrame" },
		{ "android.view.ViewPropertyAnimator.startAnimation",
		  "android.view.ViewPropertyAnimator.start", "com.example.anim.ToastView.show" },
	},
	.starter = { [ART_CALL_START_SET] = "AnimatorSet",
		     [ART_CALL_START_SET_FRAME] = "AnimatorSet",
		     [ART_CALL_START_VPA] = "ViewPropertyAnimator" },
	.set_caller = { [ART_CALL_START_SET] = "com.example.anim.ShadeController.animateExpand" },
	.call = { panel_expand, panel_flip, panel_collapse, scale_finish, shade_expand,
		  choreo_frame, toast_show },
	.new_object = new_object,
	.request_vsync = meter_level_changed,
	.vsync_stack = { "android.view.Choreographer.scheduleVsyncLocked",
			 "com.example.battery.BatteryMeterView.onLevelChanged" },
	.animate_value = animate_value,
	.object_start = tile_toggle,
	.object_start_stack = { "com.example.anim.QuickSettings.toggle" },
};

EXPORT const struct art_fixture_methods *art_fixture_methods(void)
{
	return &methods;
}

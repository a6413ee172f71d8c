// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ValueAnimator.start(boolean) overload. ART names both start overloads
 * "android.animation.ValueAnimator.start"; one object file cannot define a label twice, so
 * this one is local to its own object and the linked symbol table holds the name twice.
 */
#include <stdint.h>

#include "art_fixture.h"

#define METHOD __attribute__((noinline, used))

struct art_method_bool {
	uint32_t declaring_class;
	uint32_t access_flags;
	uint32_t dex_method_index;
	uint32_t method_index;
};

static struct art_method_bool m_start_bool = { 1, 2, 103, 3 };
static volatile uint32_t seen;

/* Quick ABI: ArtMethod* first, this second, then the boolean. */
static METHOD void va_start_bool(const struct art_method_bool *m, uint32_t self,
				 int backwards) __asm__("android.animation.ValueAnimator.start");
static void va_start_bool(const struct art_method_bool *m, uint32_t self, int backwards)
{
	seen = self + m->method_index + (uint32_t)backwards;
}

static METHOD void panel_reverse(uint32_t obj) __asm__("com.example.anim.PanelAnimator.reverse");
static void panel_reverse(uint32_t obj)
{
	va_start_bool(&m_start_bool, obj, 1);
	__asm__ volatile("" ::: "memory");
}

/* Hidden, not static: the table in art_fixture.c calls it (no extra frame in between). */
__attribute__((noinline, visibility("hidden"))) void
panel_flip(uint32_t obj) __asm__("com.example.anim.NotificationPanel.flip");
void panel_flip(uint32_t obj)
{
	panel_reverse(obj);
	__asm__ volatile("" ::: "memory");
}

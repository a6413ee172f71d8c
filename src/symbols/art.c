// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "symbols/art.h"
#include "symbols/procmaps.h"
#include "symbols/elfsym.h"

#define ART_OAT_NAME "boot-framework.oat"

/*
 * The methods probed, one row per (package, class, method); a kind (one BPF program each)
 * may have rows in several packages. ART names compiled code "<package>.<Class>.<method>"
 * without a signature, so every overload of a row is probed.
 *
 * DynamicAnimation exists twice with the same code: the framework's copy in framework.jar
 * (frameworks/base core/java/com/android/internal/dynamicanimation/animation/, boot image) and
 * androidx's (androidx/androidx dynamicanimation/dynamicanimation/src/main/java/androidx/
 * dynamicanimation/animation/, compiled into the app's own odex). Checked in both:
 * - DynamicAnimation.start(): starts when not running (startAnimationInternal), else no-op;
 *   SpringAnimation.start() overrides it (sanityCheck, thresholds) and calls super.start().
 * - DynamicAnimation.cancel(): when running, endAnimationInternal(true); SpringAnimation
 *   overrides it and calls super.cancel() first.
 * - SpringAnimation.skipToEnd(): when running, mEndRequested = true; the next frame's
 *   updateValueAndVelocity returns true and doAnimationFrame calls endAnimationInternal(false).
 *   (DynamicAnimation itself has no skipToEnd: the row is SpringAnimation's.)
 * - private void endAnimationInternal(boolean canceled): the one end of every run, the
 *   OnAnimationEndListener's `canceled`; its argument is the first after `this`.
 * - public boolean doAnimationFrame(long frameTime): frameTime in ms (AnimationHandler's frame
 *   time); the first frame of a run only records it and writes the start value
 *   (setPropertyValue -> mProperty.setValue -> View setter -> RenderNode setter).
 */
#define DYN_FW "com.android.internal.dynamicanimation.animation."
#define DYN_AX "androidx.dynamicanimation.animation."
#define VA_PKG "android.animation."

static const struct {
	enum at_art_method kind;
	const char *pkg, *cls, *method;
} art_rows[] = {
	{ AT_ART_VA_START, VA_PKG, "ValueAnimator", "start" },
	{ AT_ART_VA_CANCEL, VA_PKG, "ValueAnimator", "cancel" },
	{ AT_ART_VA_END, VA_PKG, "ValueAnimator", "end" },
	{ AT_ART_VA_ANIMATE, VA_PKG, "ValueAnimator", "animateValue" },
	{ AT_ART_OA_ANIMATE, VA_PKG, "ObjectAnimator", "animateValue" },
/* Unformatted: clang-format 14 staircases a macro of initialisers. */
/* clang-format off */
#define DYN_ROWS(pkg) \
	{ AT_ART_DYN_START, pkg, "DynamicAnimation", "start" }, \
	{ AT_ART_SPRING_START, pkg, "SpringAnimation", "start" }, \
	{ AT_ART_DYN_CANCEL, pkg, "DynamicAnimation", "cancel" }, \
	{ AT_ART_DYN_SKIP, pkg, "SpringAnimation", "skipToEnd" }, \
	{ AT_ART_DYN_END, pkg, "DynamicAnimation", "endAnimationInternal" }, \
	{ AT_ART_DYN_FRAME, pkg, "DynamicAnimation", "doAnimationFrame" }
	/* clang-format on */
	DYN_ROWS(DYN_FW),
	DYN_ROWS(DYN_AX),
#undef DYN_ROWS
};

#define N_ROWS (sizeof(art_rows) / sizeof(art_rows[0]))
#define NAME_MAX_LEN 128

static void row_name(size_t i, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s%s.%s", art_rows[i].pkg, art_rows[i].cls, art_rows[i].method);
}

const char *art_method_kind(enum at_art_method m)
{
	static const char *const kinds[AT_ART_METHOD_COUNT] = {
		[AT_ART_VA_START] = "start",	 [AT_ART_VA_CANCEL] = "cancel",
		[AT_ART_VA_END] = "end",	 [AT_ART_DYN_START] = "start",
		[AT_ART_DYN_CANCEL] = "cancel",	 [AT_ART_VA_ANIMATE] = "animate",
		[AT_ART_OA_ANIMATE] = "animate", [AT_ART_SPRING_START] = "spring",
		[AT_ART_DYN_SKIP] = "skip",	 [AT_ART_DYN_END] = "end-internal",
		[AT_ART_DYN_FRAME] = "frame",
	};

	return (unsigned)m < AT_ART_METHOD_COUNT ? kinds[m] : "?";
}

const char *art_method_name(enum at_art_method m)
{
	static char names[AT_ART_METHOD_COUNT][NAME_MAX_LEN];

	if ((unsigned)m >= AT_ART_METHOD_COUNT)
		return "?";
	for (size_t i = 0; i < N_ROWS; i++) {
		if (art_rows[i].kind != m)
			continue;
		/* the first row of the kind (the framework's for DynamicAnimation) */
		if (!names[m][0])
			row_name(i, names[m], sizeof(names[m]));
		return names[m];
	}
	return "?";
}

bool art_method_dynamic(enum at_art_method m)
{
	return m == AT_ART_DYN_START || m == AT_ART_DYN_CANCEL || m >= AT_ART_SPRING_START;
}

int art_find_oat(const char *proc_root, int pid, char *path, size_t cap)
{
	return procmaps_find(proc_root, pid, ART_OAT_NAME, path, cap);
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n > t && !strcmp(s + n - t, tail);
}

/*
 * Compiled code that can hold the probed methods: the boot image's framework part, and the
 * app's own oat files (base.odex, <App>.odex, or a .oat outside the boot image). The other
 * boot-*.oat files (core-libart, okhttp, ...) hold none of them and are not read.
 */
static int code_file(const char *path)
{
	const char *b = base_name(path);

	if (!strcmp(b, ART_OAT_NAME))
		return 1;
	return ends_with(b, ".odex") || (ends_with(b, ".oat") && strncmp(b, "boot", 4));
}

int art_find_oats(const char *proc_root, int pid, char (*paths)[ART_PATH_MAX], int max)
{
	return procmaps_all(proc_root, pid, code_file, paths[0], ART_PATH_MAX, max);
}

bool art_is_boot_oat(const char *path)
{
	return !strcmp(base_name(path), ART_OAT_NAME);
}

/* Appends the addresses of name to out[*n..max); returns how many name has. */
static int collect(const struct elfsym *s, const char *name, struct art_addr *out, int *n, int max)
{
	struct elfsym_hit hits[ART_MAX_ADDRS];
	int total = elfsym__find_all(s, name, hits, ART_MAX_ADDRS);

	for (int i = 0; i < total && i < ART_MAX_ADDRS; i++) {
		if (hits[i].type != STT_FUNC || hits[i].offset == ELFSYM_NO_OFFSET)
			continue;
		if (*n < max)
			out[*n] = (struct art_addr){ hits[i].vaddr, hits[i].offset };
		(*n)++;
	}
	return total;
}

int art_find_method(const char *path, const char *name, struct art_addr *out, int max)
{
	struct elfsym *s = elfsym__open(path);
	int n = 0;

	if (!s)
		return -errno;
	collect(s, name, out, &n, max);
	elfsym__free(s);
	return n;
}

int art_resolve(const char *path, struct art_oat *out)
{
	struct elfsym *s = elfsym__open(path);

	memset(out, 0, sizeof(*out));
	if (!s)
		return -errno;
	snprintf(out->path, sizeof(out->path), "%s", path);
	out->machine = elfsym__machine(s);
	out->mini_debug_info = elfsym__count(s, ELFSYM_DEBUGDATA) > 0;
	for (size_t i = 0; i < N_ROWS; i++) {
		enum at_art_method k = art_rows[i].kind;
		char name[NAME_MAX_LEN];

		row_name(i, name, sizeof(name));
		collect(s, name, out->addr[k], &out->n[k], ART_MAX_ADDRS);
		if (out->n[k] > ART_MAX_ADDRS) /* more overloads than slots: probe the first ones */
			out->n[k] = ART_MAX_ADDRS;
		if (out->n[k])
			out->ok_mask |= 1u << k;
	}
	elfsym__free(s);
	return out->ok_mask ? 0 : -ENOENT;
}

void art_missing_dynamic(const struct art_oat *o, char *buf, size_t cap)
{
	size_t len = 0;

	if (cap)
		buf[0] = '\0';
	for (int k = 0; k < AT_ART_METHOD_COUNT; k++) {
		if (!art_method_dynamic(k) || (o->ok_mask & (1u << k)) || len >= cap)
			continue;
		len += snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", art_method_kind(k));
	}
}

void art_missing(const struct art_oat *o, char *buf, size_t cap)
{
	size_t len = 0;

	if (cap)
		buf[0] = '\0';
	for (int k = AT_ART_VA_START; k <= AT_ART_VA_END; k++) {
		if (o->ok_mask & (1u << k))
			continue;
		if (len >= cap)
			break;
		len += snprintf(buf + len, len < cap ? cap - len : 0, "%s%s", len ? ", " : "",
				art_method_name(k));
	}
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "symbols/art.h"
#include "symbols/procmaps.h"
#include "symbols/elfsym.h"

#define ART_OAT_NAME "boot-framework.oat"
#define DYN_PKG "com.android.internal.dynamicanimation.animation."

/* The symbols probed for each kind; the framework's own copy of DynamicAnimation is optional. */
static const struct {
	enum at_art_method kind;
	const char *name;
} art_syms[] = {
	{ AT_ART_VA_START, "android.animation.ValueAnimator.start" },
	{ AT_ART_VA_CANCEL, "android.animation.ValueAnimator.cancel" },
	{ AT_ART_VA_END, "android.animation.ValueAnimator.end" },
	{ AT_ART_DYN_START, DYN_PKG "DynamicAnimation.start" },
	{ AT_ART_DYN_START, DYN_PKG "SpringAnimation.start" },
	{ AT_ART_DYN_CANCEL, DYN_PKG "DynamicAnimation.cancel" },
	{ AT_ART_VA_ANIMATE, "android.animation.ValueAnimator.animateValue" },
	{ AT_ART_OA_ANIMATE, "android.animation.ObjectAnimator.animateValue" },
};

#define N_SYMS (sizeof(art_syms) / sizeof(art_syms[0]))

const char *art_method_kind(enum at_art_method m)
{
	static const char *const kinds[AT_ART_METHOD_COUNT] = {
		[AT_ART_VA_START] = "start",     [AT_ART_VA_CANCEL] = "cancel",
		[AT_ART_VA_END] = "end",         [AT_ART_DYN_START] = "start",
		[AT_ART_DYN_CANCEL] = "cancel", [AT_ART_VA_ANIMATE] = "animate",
		[AT_ART_OA_ANIMATE] = "animate",
	};

	return (unsigned)m < AT_ART_METHOD_COUNT ? kinds[m] : "?";
}

const char *art_method_name(enum at_art_method m)
{
	for (size_t i = 0; i < N_SYMS; i++)
		if (art_syms[i].kind == m)
			return art_syms[i].name;
	return "?";
}

int art_find_oat(const char *proc_root, int pid, char *path, size_t cap)
{
	return procmaps_find(proc_root, pid, ART_OAT_NAME, path, cap);
}

/* Appends the addresses of name to out[*n..max); returns how many name has. */
static int collect(const struct elfsym *s, const char *name, struct art_addr *out, int *n,
		   int max)
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
	for (size_t i = 0; i < N_SYMS; i++) {
		enum at_art_method k = art_syms[i].kind;

		collect(s, art_syms[i].name, out->addr[k], &out->n[k], ART_MAX_ADDRS);
		if (out->n[k] > ART_MAX_ADDRS) /* more overloads than slots: probe the first ones */
			out->n[k] = ART_MAX_ADDRS;
		if (out->n[k])
			out->ok_mask |= 1u << k;
	}
	elfsym__free(s);
	return out->ok_mask ? 0 : -ENOENT;
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

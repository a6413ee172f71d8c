/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where ART puts each instance field of a class: the offsets ClassLinker::LinkFields assigns,
 * computed from dex files alone (the superclass chain is resolved by descriptor across every dex
 * added, first definition wins, as on a class path). Heap references are 4 bytes (compressed),
 * java.lang.Object's own two fields are the 8-byte object header (klass_, monitor_).
 *
 * Two rule sets, checked against AOSP art/runtime/class_linker.cc:
 *   ART_RULES_7   Android 7.0 to 11 (android-7.0.0_r1 .. android-11.0.0_r1): LinkFieldsComparator
 *                 order, gaps in a priority queue, the largest (then lowest) gap first
 *                 (ShuffleForward<8,4,2,1>).
 *   ART_RULES_12  Android 12 and later (android-12.0.0_r1 .. android-15.0.0_r1, ART mainline):
 *                 LinkFieldsHelper, one gap of each size, the smallest fitting gap first
 *                 (commit c7993d55b2 "Rewrite ClassLinker::LinkFields()").
 * Both: references first (dex field order), then long, double, int, float, char, short,
 * boolean, byte, each group in dex field order; 8-byte fields aligned to 8; a class starts
 * where its superclass's object ends (no gap filling across the boundary).
 */
#ifndef ANIMTRACE_ARTLAYOUT_H
#define ANIMTRACE_ARTLAYOUT_H

#include <stdint.h>

#include "symbols/dex.h"

enum art_rules {
	ART_RULES_7 = 7,
	ART_RULES_12 = 12,
};

/* The rules of an Android SDK level: 24..30 (7.0..11) ART_RULES_7, 31 and above ART_RULES_12,
 * -ENOTSUP below 24 (Android 5 and 6 were not checked). */
int art_rules_for_sdk(int sdk);

/*
 * The offsets of n fields of one class, given by their type descriptors in dex field order,
 * laid out from start (the superclass's object size). offsets[i] is field i's; *end is the
 * class's object size. 0, or -EINVAL for an unknown type.
 */
int art_layout_fields(enum art_rules rules, uint32_t start, const char *const *types, uint32_t n,
		      uint32_t *offsets, uint32_t *end);

struct art_field {
	const char *name; /* MUTF-8, inside the dex */
	const char *type; /* descriptor, inside the dex */
	uint32_t offset;
	uint32_t access_flags;
};

struct art_class {
	const char *descriptor;
	const struct art_class *super; /* NULL for java.lang.Object */
	uint32_t object_size;
	uint32_t n_fields; /* this class's own instance fields, in dex order */
	const struct art_field *fields;
	const struct dex *dex; /* where it is defined (NULL: the built-in java.lang.Object) */
};

struct artlayout;

struct artlayout *artlayout__new(enum art_rules rules);

/* Frees the layout, its classes and every dex added. Accepts NULL. */
void artlayout__free(struct artlayout *l);

enum art_rules artlayout__rules(const struct artlayout *l);

/*
 * Adds d, known to ART as location (DexCache.location, e.g. "/system/framework/framework.jar"
 * or ".../framework.jar!classes2.dex"), after the dex files already added. The layout owns d
 * from then on, also on error. 0 or -ENOMEM.
 */
int artlayout__add_dex(struct artlayout *l, struct dex *d, const char *location);

/* The dex added under location, or NULL. */
const struct dex *artlayout__dex(const struct artlayout *l, const char *location);

/*
 * The layout of the class descriptor ("Landroid/animation/ValueAnimator;"), computed once.
 * NULL with errno: ENOENT (it or a superclass is in no dex), ELOOP (circular or too deep),
 * EINVAL (malformed class data), ENOMEM.
 */
const struct art_class *artlayout__class(struct artlayout *l, const char *descriptor);

/* The instance field name of descriptor or of its nearest superclass declaring it; NULL with
 * errno (ENOENT: no such field). */
const struct art_field *artlayout__field(struct artlayout *l, const char *descriptor,
					 const char *name);

#endif

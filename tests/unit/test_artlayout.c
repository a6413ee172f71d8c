// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "dexdump_parse.h"

#include "symbols/artlayout.h"
#include "symbols/dex.h"

#define FIX BUILD_DIR "/fixtures/dex/"

static const char *const set_dexes[] = { "core", "framework", "framework2" };

/* A layout of every dex of a fixture set (gaps has only core). */
static struct artlayout *layout_of(const char *set, enum art_rules rules)
{
	struct artlayout *l = artlayout__new(rules);
	int n = strcmp(set, "gaps") == 0 ? 1 : 3;

	cr_assert_not_null(l);
	for (int i = 0; i < n; i++) {
		char path[256];
		snprintf(path, sizeof(path), FIX "%s/%s.dex", set, set_dexes[i]);
		struct dex *d = dex__open_file(path, 0);
		cr_assert_not_null(d, "%s", path);
		cr_assert_eq(artlayout__add_dex(l, d, path), 0);
	}
	return l;
}

static uint32_t off(struct artlayout *l, const char *cls, const char *field)
{
	const struct art_field *f = artlayout__field(l, cls, field);

	cr_assert_not_null(f, "%s.%s: %s", cls, field, strerror(errno));
	return f->offset;
}

static uint32_t size_of(struct artlayout *l, const char *cls)
{
	const struct art_class *c = artlayout__class(l, cls);

	cr_assert_not_null(c, "%s: %s", cls, strerror(errno));
	return c->object_size;
}

#define ANIMATOR "Landroid/animation/Animator;"
#define VALUE_ANIMATOR "Landroid/animation/ValueAnimator;"

/*
 * Android 14 beta 1 rules (LinkFieldsHelper), worked by hand from the fixture's fields in dex
 * order (sorted by name: upper case before lower case, a prefix before its extensions).
 *
 * Animator extends Object (8 bytes): references mConstantState 8, mListeners 12,
 * mPauseListeners 16; the int mChangingConfigurations 20; the boolean mPaused 24: size 25.
 *
 * ValueAnimator starts at 25. References align to 28, leaving a 1-byte gap at 25 and a 2-byte
 * gap at 26: mAnimationHandler 28, mInterpolator 32, mUpdateListeners 36, mValues 40,
 * mValuesMap 44 -> 48. Longs (aligned): mDuration 48, mFirstFrameTime 56, mLastFrameTime 64,
 * mPauseTime 72, mStartDelay 80, mStartTime 88 -> 96. No 4-byte gap, so ints then floats in
 * order: mRepeatCount 96, mRepeatMode 100, mCurrentFraction 104, mDurationScale 108,
 * mOverallFraction 112, mSeekFraction 116 -> 120. Ten booleans: the smallest gap first, 25 for
 * mAnimationEndRequested; then the 2-byte gap at 26 for mInitialized, which leaves 27 for
 * mResumed; then mReversing 120, mRunning 121, mSelfPulse 122, mStartListenersCalled 123,
 * mStartTimeCommitted 124, mStarted 125, mSuppressSelfPulseRequested 126: size 127.
 */
Test(artlayout, value_animator_of_android14_beta1_worked_by_hand)
{
	struct artlayout *l = layout_of("android14b1", ART_RULES_12);
	const struct {
		const char *name;
		uint32_t off;
	} want[] = {
		{ "mConstantState", 8 },
		{ "mListeners", 12 },
		{ "mPauseListeners", 16 },
		{ "mChangingConfigurations", 20 },
		{ "mPaused", 24 },
		{ "mAnimationHandler", 28 },
		{ "mInterpolator", 32 },
		{ "mUpdateListeners", 36 },
		{ "mValues", 40 },
		{ "mValuesMap", 44 },
		{ "mDuration", 48 },
		{ "mFirstFrameTime", 56 },
		{ "mLastFrameTime", 64 },
		{ "mPauseTime", 72 },
		{ "mStartDelay", 80 },
		{ "mStartTime", 88 },
		{ "mRepeatCount", 96 },
		{ "mRepeatMode", 100 },
		{ "mCurrentFraction", 104 },
		{ "mDurationScale", 108 },
		{ "mOverallFraction", 112 },
		{ "mSeekFraction", 116 },
		{ "mAnimationEndRequested", 25 },
		{ "mInitialized", 26 },
		{ "mResumed", 27 },
		{ "mReversing", 120 },
		{ "mRunning", 121 },
		{ "mSelfPulse", 122 },
		{ "mStartListenersCalled", 123 },
		{ "mStartTimeCommitted", 124 },
		{ "mStarted", 125 },
		{ "mSuppressSelfPulseRequested", 126 },
	};

	cr_assert_eq(size_of(l, ANIMATOR), 25);
	cr_assert_eq(size_of(l, VALUE_ANIMATOR), 127);
	cr_assert_eq(artlayout__class(l, VALUE_ANIMATOR)->n_fields, 27);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_assert_eq(off(l, VALUE_ANIMATOR, want[i].name), want[i].off, "%s", want[i].name);
	artlayout__free(l);
}

/* Under the Android 7-11 rules the biggest gap goes first: the 2-byte gap at 26 takes the
 * first boolean, the 1-byte gaps at 25 and 27 the next two (lowest offset first). */
Test(artlayout, value_animator_booleans_fill_gaps_biggest_first_before_android12)
{
	struct artlayout *l = layout_of("android14b1", ART_RULES_7);

	cr_assert_eq(off(l, VALUE_ANIMATOR, "mAnimationEndRequested"), 26);
	cr_assert_eq(off(l, VALUE_ANIMATOR, "mInitialized"), 25);
	cr_assert_eq(off(l, VALUE_ANIMATOR, "mResumed"), 27);
	cr_assert_eq(off(l, VALUE_ANIMATOR, "mReversing"), 120);
	artlayout__free(l);
}

/*
 * java.lang.DexCache of Android 10 (ART android-10.0.0_r36, rules of Android 7-11), by hand.
 * Fields by name: dexFile J, location L, numPreResolvedStrings I, numResolvedCallSites I,
 * numResolvedFields I, numResolvedMethodTypes I, numResolvedMethods I, numResolvedTypes I,
 * numStrings I, preResolvedStrings J, resolvedCallSites J, resolvedFields J,
 * resolvedMethodTypes J, resolvedMethods J, resolvedTypes J, strings J.
 * location 8 -> 12; the first long aligns 12 to 16, leaving a 4-byte gap at 12; longs 16..72
 * (dexFile 16, preResolvedStrings 24, ..., strings 72) -> 80; the first int takes the gap
 * (numPreResolvedStrings 12), the rest follow: numResolvedCallSites 80 ... numStrings 100;
 * size 104. This is the member order of mirror::DexCache in runtime/mirror/dex_cache.h.
 */
Test(artlayout, dex_cache_of_android10_worked_by_hand)
{
	struct artlayout *l = layout_of("android10", ART_RULES_7);
	const char *dc = "Ljava/lang/DexCache;";

	cr_assert_eq(off(l, dc, "location"), 8);
	cr_assert_eq(off(l, dc, "numPreResolvedStrings"), 12);
	cr_assert_eq(off(l, dc, "dexFile"), 16);
	cr_assert_eq(off(l, dc, "preResolvedStrings"), 24);
	cr_assert_eq(off(l, dc, "strings"), 72);
	cr_assert_eq(off(l, dc, "numResolvedCallSites"), 80);
	cr_assert_eq(off(l, dc, "numStrings"), 100);
	cr_assert_eq(size_of(l, dc), 104);
	artlayout__free(l);
}

/*
 * ART's own classes are mirrored by C++ structs (the headers in runtime/mirror/, MANAGED, i.e.
 * packed and 4-aligned), and ART's class_linker_test checks every Java field's offset against
 * its C++ member (ClassOffsets, StringOffsets, ...). The same structs, written out here from
 * the headers of each version, are a third source for these offsets.
 */
#define MIRROR __attribute__((packed, aligned(4)))
struct MIRROR m_object {
	uint32_t klass_, monitor_;
};
struct MIRROR m_class { /* identical in android-10.0.0_r36 and android-14.0.0_r1 */
	struct m_object o;
	uint32_t class_loader_, component_type_, dex_cache_, ext_data_, iftable_, name_,
		super_class_, vtable_;
	uint64_t ifields_, methods_, sfields_;
	uint32_t access_flags_, class_flags_, class_size_, clinit_thread_id_, dex_class_def_idx_,
		dex_type_idx_, num_reference_instance_fields_, num_reference_static_fields_,
		object_size_, object_size_alloc_fast_path_, primitive_type_,
		reference_instance_offsets_, status_;
	uint16_t copied_methods_offset_, virtual_methods_offset_;
};
struct MIRROR m_string {
	struct m_object o;
	int32_t count_;
	uint32_t hash_code_;
};
struct MIRROR m_reference {
	struct m_object o;
	uint32_t pending_next_, queue_, queue_next_, referent_;
};
struct MIRROR m_dex_cache10 {
	struct m_object o;
	uint32_t location_, num_preresolved_strings_;
	uint64_t dex_file_, preresolved_strings_, resolved_call_sites_, resolved_fields_,
		resolved_method_types_, resolved_methods_, resolved_types_, strings_;
	uint32_t num_resolved_call_sites_, num_resolved_fields_, num_resolved_method_types_,
		num_resolved_methods_, num_resolved_types_, num_strings_;
};
struct MIRROR m_dex_cache14 {
	struct m_object o;
	uint32_t class_loader_, location_;
	uint64_t dex_file_, resolved_call_sites_, resolved_fields_, resolved_fields_array_,
		resolved_method_types_, resolved_method_types_array_, resolved_methods_,
		resolved_methods_array_, resolved_types_, resolved_types_array_, strings_,
		strings_array_;
};

struct mirror_check {
	const char *cls, *field;
	size_t off;
};

#define M(st, cls, member, java)                       \
	{                                              \
		cls, java, offsetof(struct st, member) \
	}
#define CLASS "Ljava/lang/Class;"
#define STRING "Ljava/lang/String;"
#define REFERENCE "Ljava/lang/ref/Reference;"
#define DEX_CACHE "Ljava/lang/DexCache;"

static const struct mirror_check common_checks[] = {
	M(m_object, "Ljava/lang/Object;", klass_, "shadow$_klass_"),
	M(m_object, "Ljava/lang/Object;", monitor_, "shadow$_monitor_"),
	M(m_class, CLASS, access_flags_, "accessFlags"),
	M(m_class, CLASS, class_flags_, "classFlags"),
	M(m_class, CLASS, class_loader_, "classLoader"),
	M(m_class, CLASS, class_size_, "classSize"),
	M(m_class, CLASS, clinit_thread_id_, "clinitThreadId"),
	M(m_class, CLASS, component_type_, "componentType"),
	M(m_class, CLASS, copied_methods_offset_, "copiedMethodsOffset"),
	M(m_class, CLASS, dex_cache_, "dexCache"),
	M(m_class, CLASS, dex_class_def_idx_, "dexClassDefIndex"),
	M(m_class, CLASS, dex_type_idx_, "dexTypeIndex"),
	M(m_class, CLASS, ext_data_, "extData"),
	M(m_class, CLASS, ifields_, "iFields"),
	M(m_class, CLASS, iftable_, "ifTable"),
	M(m_class, CLASS, methods_, "methods"),
	M(m_class, CLASS, name_, "name"),
	M(m_class, CLASS, num_reference_instance_fields_, "numReferenceInstanceFields"),
	M(m_class, CLASS, num_reference_static_fields_, "numReferenceStaticFields"),
	M(m_class, CLASS, object_size_, "objectSize"),
	M(m_class, CLASS, object_size_alloc_fast_path_, "objectSizeAllocFastPath"),
	M(m_class, CLASS, primitive_type_, "primitiveType"),
	M(m_class, CLASS, reference_instance_offsets_, "referenceInstanceOffsets"),
	M(m_class, CLASS, sfields_, "sFields"),
	M(m_class, CLASS, status_, "status"),
	M(m_class, CLASS, super_class_, "superClass"),
	M(m_class, CLASS, virtual_methods_offset_, "virtualMethodsOffset"),
	M(m_class, CLASS, vtable_, "vtable"),
	M(m_string, STRING, count_, "count"),
	M(m_string, STRING, hash_code_, "hash"),
	M(m_reference, REFERENCE, pending_next_, "pendingNext"),
	M(m_reference, REFERENCE, queue_, "queue"),
	M(m_reference, REFERENCE, queue_next_, "queueNext"),
	M(m_reference, REFERENCE, referent_, "referent"),
};

static const struct mirror_check dex_cache10_checks[] = {
	M(m_dex_cache10, DEX_CACHE, dex_file_, "dexFile"),
	M(m_dex_cache10, DEX_CACHE, location_, "location"),
	M(m_dex_cache10, DEX_CACHE, num_preresolved_strings_, "numPreResolvedStrings"),
	M(m_dex_cache10, DEX_CACHE, num_resolved_call_sites_, "numResolvedCallSites"),
	M(m_dex_cache10, DEX_CACHE, num_resolved_fields_, "numResolvedFields"),
	M(m_dex_cache10, DEX_CACHE, num_resolved_method_types_, "numResolvedMethodTypes"),
	M(m_dex_cache10, DEX_CACHE, num_resolved_methods_, "numResolvedMethods"),
	M(m_dex_cache10, DEX_CACHE, num_resolved_types_, "numResolvedTypes"),
	M(m_dex_cache10, DEX_CACHE, num_strings_, "numStrings"),
	M(m_dex_cache10, DEX_CACHE, preresolved_strings_, "preResolvedStrings"),
	M(m_dex_cache10, DEX_CACHE, resolved_call_sites_, "resolvedCallSites"),
	M(m_dex_cache10, DEX_CACHE, resolved_fields_, "resolvedFields"),
	M(m_dex_cache10, DEX_CACHE, resolved_method_types_, "resolvedMethodTypes"),
	M(m_dex_cache10, DEX_CACHE, resolved_methods_, "resolvedMethods"),
	M(m_dex_cache10, DEX_CACHE, resolved_types_, "resolvedTypes"),
	M(m_dex_cache10, DEX_CACHE, strings_, "strings"),
};

static const struct mirror_check dex_cache14_checks[] = {
	M(m_dex_cache14, DEX_CACHE, class_loader_, "classLoader"),
	M(m_dex_cache14, DEX_CACHE, dex_file_, "dexFile"),
	M(m_dex_cache14, DEX_CACHE, location_, "location"),
	M(m_dex_cache14, DEX_CACHE, resolved_call_sites_, "resolvedCallSites"),
	M(m_dex_cache14, DEX_CACHE, resolved_fields_, "resolvedFields"),
	M(m_dex_cache14, DEX_CACHE, resolved_fields_array_, "resolvedFieldsArray"),
	M(m_dex_cache14, DEX_CACHE, resolved_method_types_, "resolvedMethodTypes"),
	M(m_dex_cache14, DEX_CACHE, resolved_method_types_array_, "resolvedMethodTypesArray"),
	M(m_dex_cache14, DEX_CACHE, resolved_methods_, "resolvedMethods"),
	M(m_dex_cache14, DEX_CACHE, resolved_methods_array_, "resolvedMethodsArray"),
	M(m_dex_cache14, DEX_CACHE, resolved_types_, "resolvedTypes"),
	M(m_dex_cache14, DEX_CACHE, resolved_types_array_, "resolvedTypesArray"),
	M(m_dex_cache14, DEX_CACHE, strings_, "strings"),
	M(m_dex_cache14, DEX_CACHE, strings_array_, "stringsArray"),
};

static void check_mirror(struct artlayout *l, const struct mirror_check *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(off(l, c[i].cls, c[i].field), c[i].off, "%s.%s", c[i].cls, c[i].field);
}

Test(artlayout, core_classes_land_where_arts_cpp_mirrors_have_them)
{
	/* Both rule sets, as these classes have no competing gaps. */
	for (int r = 0; r < 2; r++) {
		enum art_rules rules = r ? ART_RULES_12 : ART_RULES_7;
		struct artlayout *l10 = layout_of("android10", rules);
		struct artlayout *l14 = layout_of("android14b1", rules);
		check_mirror(l10, common_checks, sizeof(common_checks) / sizeof(common_checks[0]));
		check_mirror(l14, common_checks, sizeof(common_checks) / sizeof(common_checks[0]));
		check_mirror(l10, dex_cache10_checks,
			     sizeof(dex_cache10_checks) / sizeof(dex_cache10_checks[0]));
		check_mirror(l14, dex_cache14_checks,
			     sizeof(dex_cache14_checks) / sizeof(dex_cache14_checks[0]));
		/* Sizes where they are fixed (Class and String are variable size). */
		cr_assert_eq(size_of(l10, "Ljava/lang/Object;"), sizeof(struct m_object));
		cr_assert_eq(size_of(l10, REFERENCE), sizeof(struct m_reference));
		cr_assert_eq(size_of(l10, DEX_CACHE), sizeof(struct m_dex_cache10));
		cr_assert_eq(size_of(l14, DEX_CACHE), sizeof(struct m_dex_cache14));
		cr_assert_eq(size_of(l14, STRING), 16, "the characters start at 16");
		artlayout__free(l10);
		artlayout__free(l14);
	}
}

/* Every instance field of class c and its superclasses, as "offset type name" lines. */
static void assert_same_fields(struct artlayout *l, const struct dd_class *want, const char *tool)
{
	const struct art_class *c = artlayout__class(l, want->descriptor);
	int n = 0;

	cr_assert_not_null(c, "%s", want->descriptor);
	for (const struct art_class *k = c; k; k = k->super)
		n += (int)k->n_fields;
	cr_assert_eq(n, want->n_fields, "%s", want->descriptor);
	for (int i = 0; i < want->n_fields; i++) {
		const struct dd_field *w = &want->f[i];
		const struct art_field *f = artlayout__field(l, want->descriptor, w->name);
		cr_assert_not_null(f, "%s.%s", want->descriptor, w->name);
		cr_assert_str_eq(f->type, w->type);
		cr_assert_eq(f->offset, w->flags, "%s: %s.%s at %u, we say %u", tool,
			     want->descriptor, w->name, w->flags, f->offset);
	}
}

static void compare_with_tool(enum art_rules rules, const char *suffix, const char *tool)
{
	const char *sets[] = { "android10", "android14b1", "gaps" };

	for (int s = 0; s < 3; s++) {
		struct artlayout *l = layout_of(sets[s], rules);
		int n_dexes = s == 2 ? 1 : 3, classes = 0;
		for (int d = 0; d < n_dexes; d++) {
			char path[256];
			snprintf(path, sizeof(path), FIX "%s/%s.%s", sets[s], set_dexes[d], suffix);
			struct dd_file *want = dd_read_offsets(path);
			cr_assert_not_null(want, "%s", path);
			for (int i = 0; i < want->n; i++)
				assert_same_fields(l, &want->c[i], tool);
			classes += want->n;
			free(want);
		}
		cr_assert_gt(classes, 5, "%s", sets[s]);
		artlayout__free(l);
	}
}

/* baksmali "list fieldoffsets" (dexlib2's ClassProto, its ART field layout) on every fixture. */
Test(artlayout, every_fixture_class_as_baksmali_lays_it_out_for_android_7_to_11)
{
	compare_with_tool(ART_RULES_7, "offsets.txt", "baksmali");
}

/* tests/fixtures/dex/artlayout12.py, a separate transliteration of LinkFieldsHelper. */
Test(artlayout, every_fixture_class_as_artlayout12_py_lays_it_out_for_android_12_on)
{
	compare_with_tool(ART_RULES_12, "offsets12.txt", "artlayout12.py");
}

/*
 * ART commit c7993d55b2 ("Rewrite ClassLinker::LinkFields()", first in Android 12) states its
 * own before/after: class A { byte unalign; } (size 9) and B extends A { long l; bytes }:
 * l at 16, the bytes at 12, 10, 14, 9, 11, 13, 15 before and 9..15 after.
 */
Test(artlayout, gap_filling_example_of_the_art_commit_that_changed_it)
{
	const char *types[] = { "J", "B", "B", "B", "B", "B", "B", "B" }; /* l, a..g */
	const uint32_t before[] = { 16, 12, 10, 14, 9, 11, 13, 15 };
	uint32_t offs[8], end;

	cr_assert_eq(art_layout_fields(ART_RULES_7, 9, types, 8, offs, &end), 0);
	cr_assert_arr_eq(offs, before, sizeof(before));
	cr_assert_eq(end, 24);
	cr_assert_eq(art_layout_fields(ART_RULES_12, 9, types, 8, offs, &end), 0);
	cr_assert_eq(offs[0], 16);
	for (int i = 1; i < 8; i++)
		cr_assert_eq(offs[i], 8u + (uint32_t)i);
	cr_assert_eq(end, 24);

	/* The same through the dex fixture gaps.B. */
	struct artlayout *l = layout_of("gaps", ART_RULES_7);
	cr_assert_eq(off(l, "Lgaps/B;", "a"), 12);
	cr_assert_eq(off(l, "Lgaps/B;", "g"), 15);
	artlayout__free(l);
}

Test(artlayout, two_shorts_behind_a_byte_take_the_gaps_in_each_versions_order)
{
	/* gaps.C: after A (9), long l aligns 9 to 16: 1-byte gap 9, 2-byte gap 10, 4-byte gap 12.
	 * Android 12+: smallest fitting gap first, s 10 then t 12. Android 7-11: the biggest, s
	 * at 12 (leaving 14), then the lowest 2-byte one, t at 10. */
	const char *types[] = { "J", "S", "S" };
	uint32_t offs[3], end;

	cr_assert_eq(art_layout_fields(ART_RULES_12, 9, types, 3, offs, &end), 0);
	cr_assert_eq(offs[1], 10);
	cr_assert_eq(offs[2], 12);
	cr_assert_eq(art_layout_fields(ART_RULES_7, 9, types, 3, offs, &end), 0);
	cr_assert_eq(offs[1], 12);
	cr_assert_eq(offs[2], 10);
	cr_assert_eq(end, 24);
	cr_assert_eq(art_layout_fields(ART_RULES_12, 9, (const char *[]){ "V" }, 1, offs, &end),
		     -EINVAL);
}

Test(artlayout, superclasses_resolve_across_dex_files_and_jar_entries)
{
	struct artlayout *l = artlayout__new(ART_RULES_12);
	const char *core = FIX "android14b1/core.dex", *jar = FIX "android14b1/framework.jar";
	char second[256];

	snprintf(second, sizeof(second), "%s!classes2.dex", jar);
	cr_assert_eq(artlayout__add_dex(l, dex__open_location(core, 0), core), 0);
	cr_assert_eq(artlayout__add_dex(l, dex__open_location(jar, 0), jar), 0);
	cr_assert_eq(artlayout__add_dex(l, dex__open_location(second, 0), second), 0);
	cr_assert_not_null(artlayout__dex(l, second));
	cr_assert_null(artlayout__dex(l, FIX "android14b1/other.jar"));

	const struct art_class *oa = artlayout__class(l, "Landroid/animation/ObjectAnimator;");
	cr_assert_not_null(oa);
	cr_assert_str_eq(oa->super->descriptor, VALUE_ANIMATOR);
	cr_assert_str_eq(oa->super->super->super->descriptor, "Ljava/lang/Object;");
	cr_assert_null(oa->super->super->super->super);
	cr_assert_eq(off(l, "Landroid/animation/ObjectAnimator;", "mValues"), 40, "inherited");
	cr_assert_eq(off(l, "Landroid/view/View;", "mRenderNode"), 180);
	cr_assert_eq(off(l, "Landroid/graphics/RenderNode;", "mNativeRenderNode"), 24);
	cr_assert_eq(off(l, "Ljava/util/ArrayList;", "elementData"), 12);
	cr_assert_eq(off(l, "Ljava/util/ArrayList;", "size"), 16);
	cr_assert_eq(off(l, "Ljava/util/ArrayList;", "modCount"), 8);
	cr_assert_eq(off(l, "Ljava/lang/ref/WeakReference;", "referent"), 20);
	/* Asking twice gives the class computed once. */
	cr_assert_eq(artlayout__class(l, "Landroid/animation/ObjectAnimator;"), oa);
	artlayout__free(l);
}

Test(artlayout, missing_classes_and_fields_are_errors_and_object_is_built_in)
{
	struct artlayout *l = artlayout__new(ART_RULES_12);
	const char *fw = FIX "android14b1/framework.dex";

	cr_assert_eq(artlayout__add_dex(l, dex__open_file(fw, 0), fw), 0);
	errno = 0;
	cr_assert_null(artlayout__class(l, "Ljava/util/ArrayList;"));
	cr_assert_eq(errno, ENOENT);
	cr_assert_null(artlayout__field(l, VALUE_ANIMATOR, "mNoSuchField"));
	cr_assert_eq(errno, ENOENT);
	/* Without core-oj, java.lang.Object is the 8-byte object header: same offsets. */
	cr_assert_eq(off(l, VALUE_ANIMATOR, "mValues"), 40);
	cr_assert_eq(size_of(l, "Ljava/lang/Object;"), 8);
	artlayout__free(l);
	cr_assert_null(artlayout__new((enum art_rules)3));
	artlayout__free(NULL);
}

/* What moved between the Android 10 and 14 beta 1 fixtures, each under its version's rules. */
Test(artlayout, fields_that_moved_between_android_10_and_14)
{
	struct artlayout *l10 = layout_of("android10", art_rules_for_sdk(29));
	struct artlayout *l14 = layout_of("android14b1", art_rules_for_sdk(34));

	cr_assert_eq(artlayout__rules(l10), ART_RULES_7);
	cr_assert_eq(artlayout__rules(l14), ART_RULES_12);
	cr_assert_eq(off(l10, VALUE_ANIMATOR, "mValues"), 36);
	cr_assert_eq(off(l14, VALUE_ANIMATOR, "mValues"), 40);
	cr_assert_eq(off(l10, VALUE_ANIMATOR, "mRepeatCount"), 44, "in the 4-byte gap");
	cr_assert_eq(off(l14, VALUE_ANIMATOR, "mRepeatCount"), 96);
	cr_assert_eq(off(l10, VALUE_ANIMATOR, "mStartListenersCalled"), 119);
	cr_assert_eq(off(l14, VALUE_ANIMATOR, "mStartListenersCalled"), 123);
	cr_assert_eq(off(l10, "Landroid/view/View;", "mParent"), 160);
	cr_assert_eq(off(l14, "Landroid/view/View;", "mParent"), 156);
	cr_assert_eq(off(l10, "Landroid/view/View;", "mRenderNode"), 180);
	cr_assert_eq(off(l14, "Landroid/view/View;", "mRenderNode"), 180);
	cr_assert_eq(off(l10, DEX_CACHE, "location"), 8);
	cr_assert_eq(off(l14, DEX_CACHE, "location"), 12);
	cr_assert_eq(art_rules_for_sdk(30), ART_RULES_7);
	cr_assert_eq(art_rules_for_sdk(31), ART_RULES_12);
	cr_assert_eq(art_rules_for_sdk(23), -ENOTSUP);
	artlayout__free(l10);
	artlayout__free(l14);
}

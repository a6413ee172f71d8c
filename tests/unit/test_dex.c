// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <criterion/criterion.h>

#include "dexdump_parse.h"

#include "symbols/dex.h"

#define FIX BUILD_DIR "/fixtures/dex/"

static const char *const fixture_dexes[] = {
	"android10/core",   "android10/framework",   "android10/framework2",
	"android14b1/core", "android14b1/framework", "android14b1/framework2",
	"gaps/core",
};

static struct dex *open_fixture(const char *name)
{
	char path[256];
	struct dex *d;

	snprintf(path, sizeof(path), FIX "%s.dex", name);
	d = dex__open_file(path, 0);
	cr_assert_not_null(d, "%s: %s", path, strerror(errno));
	return d;
}

/* Every class and field of d, in order, as dexdump (the AOSP tool, Debian's build) lists them. */
static void assert_same_as_dexdump(const struct dex *d, const char *name)
{
	char path[256];
	struct dd_file *dd;

	snprintf(path, sizeof(path), FIX "%s.dexdump.txt", name);
	dd = dd_read_dexdump(path);
	cr_assert_not_null(dd, "%s", path);
	cr_assert_gt(dd->n, 0, "%s", path);
	cr_assert_eq(dex__n_class_defs(d), (uint32_t)dd->n, "%s", name);
	for (int i = 0; i < dd->n; i++) {
		const struct dd_class *c = &dd->c[i];
		struct dex_class_def cd;
		struct dex_class_fields cf;
		cr_assert_eq(dex__class_def(d, (uint32_t)i, &cd), 0);
		cr_assert_str_eq(dex__type(d, cd.class_idx), c->descriptor);
		if (c->super[0])
			cr_assert_str_eq(dex__type(d, cd.superclass_idx), c->super);
		else
			cr_assert_eq(cd.superclass_idx, DEX_NO_INDEX, "%s", c->descriptor);
		cr_assert_eq(dex__class_fields(d, (uint32_t)i, &cf), 0);
		cr_assert_eq((int)(cf.n_static + cf.n_instance), c->n_fields, "%s", c->descriptor);
		for (uint32_t k = 0; k < cf.n_static + cf.n_instance; k++) {
			const struct dd_field *want = &c->f[k];
			struct dex_field_id id;
			cr_assert_eq(dex__field_id(d, cf.f[k].field_idx, &id), 0);
			cr_assert_str_eq(dex__string(d, id.name_idx), want->name, "%s",
					 c->descriptor);
			cr_assert_str_eq(dex__type(d, id.type_idx), want->type, "%s", want->name);
			cr_assert_eq(cf.f[k].access_flags, want->flags, "%s", want->name);
			cr_assert_eq(k < cf.n_static, want->is_static, "%s", want->name);
			cr_assert_eq(id.class_idx, cd.class_idx);
		}
		dex_class_fields__release(&cf);
	}
	free(dd);
}

Test(dex, every_fixture_lists_the_classes_and_fields_dexdump_lists)
{
	for (size_t i = 0; i < sizeof(fixture_dexes) / sizeof(fixture_dexes[0]); i++) {
		struct dex *d = open_fixture(fixture_dexes[i]);
		cr_assert_eq(dex__version(d), 35, "smali writes dex 035 by default");
		assert_same_as_dexdump(d, fixture_dexes[i]);
		dex__free(d);
	}
}

Test(dex, finds_classes_and_types_by_descriptor)
{
	struct dex *d = open_fixture("android14b1/framework");
	struct dex_class_def cd;
	long t = dex__find_type(d, "Landroid/animation/ValueAnimator;");
	long c = dex__find_class(d, "Landroid/animation/ValueAnimator;");

	cr_assert_geq(t, 0);
	cr_assert_geq(c, 0);
	cr_assert_eq(dex__class_def(d, (uint32_t)c, &cd), 0);
	cr_assert_eq(cd.class_idx, (uint32_t)t);
	cr_assert_str_eq(dex__type(d, cd.superclass_idx), "Landroid/animation/Animator;");
	/* Referenced, not defined here: a type without a class def. */
	cr_assert_geq(dex__find_type(d, "Ljava/util/ArrayList;"), 0);
	cr_assert_eq(dex__find_class(d, "Ljava/util/ArrayList;"), -ENOENT);
	cr_assert_eq(dex__find_type(d, "Lno/such/Type;"), -ENOENT);
	cr_assert_null(dex__type(d, dex__n_types(d)));
	cr_assert_null(dex__string(d, dex__n_strings(d)));
	dex__free(d);
}

/* A dex from a jar entry is the dex that went in, whether deflated or stored. */
static void assert_same_dex(const struct dex *a, const struct dex *b)
{
	cr_assert_eq(dex__n_strings(a), dex__n_strings(b));
	cr_assert_eq(dex__n_class_defs(a), dex__n_class_defs(b));
	for (uint32_t i = 0; i < dex__n_strings(a); i++)
		cr_assert_str_eq(dex__string(a, i), dex__string(b, i));
}

Test(dex, opens_jar_entries_deflated_and_stored_and_bang_locations)
{
	const char *jar = FIX "android10/framework.jar";
	struct dex *plain1 = open_fixture("android10/framework");
	struct dex *plain2 = open_fixture("android10/framework2");
	struct dex *z1 = dex__open_zip(jar, "classes.dex", 0);
	struct dex *z2 = dex__open_zip(jar, "classes2.dex", 0);
	struct dex *l1 = dex__open_location(jar, 0);
	struct dex *l2 = dex__open_location(FIX "android10/framework.jar!classes2.dex", 0);

	cr_assert(z1 && z2 && l1 && l2);
	assert_same_dex(plain1, z1);
	assert_same_dex(plain2, z2);
	assert_same_dex(plain1, l1);
	assert_same_dex(plain2, l2);
	errno = 0;
	cr_assert_null(dex__open_zip(jar, "classes3.dex", 0));
	cr_assert_eq(errno, ENOENT);
	cr_assert_null(dex__open_zip(FIX "android10/framework.dex", "classes.dex", 0));
	cr_assert_eq(errno, EINVAL, "a dex is not a zip");
	cr_assert_null(dex__open_location(FIX "android10/nothing.jar", 0));
	cr_assert_eq(errno, ENOENT);
	struct dex *plain = dex__open_location(FIX "android10/core.dex", 0);
	cr_assert_not_null(plain);
	for (struct dex **p = (struct dex *[]){ plain1, plain2, z1, z2, l1, l2, plain, NULL }; *p;
	     p++)
		dex__free(*p);
}

/* The bytes of a fixture, for corrupting. */
static uint8_t *fixture_bytes(const char *name, size_t *len)
{
	char path[256];
	FILE *f;
	uint8_t *b;
	long n;

	snprintf(path, sizeof(path), FIX "%s.dex", name);
	f = fopen(path, "rb");
	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = malloc((size_t)n);
	cr_assert_eq(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void fix_checksum(uint8_t *b, size_t len)
{
	put32(b + 8, (uint32_t)adler32(adler32(0, NULL, 0), b + 12, (uInt)(len - 12)));
}

Test(dex, rejects_bad_magic_version_endianness_checksum_and_truncation)
{
	size_t len;
	uint8_t *b = fixture_bytes("android10/core", &len);
	struct dex *d = dex__open_mem(b, len, 0);

	cr_assert_not_null(d);
	dex__free(d);
	struct {
		size_t at;
		uint8_t v;
	} bad[] = { { 0, 'D' }, { 4, '1' }, { 6, '4' }, { 6, '0' }, { 7, 'x' }, { 40, 0x87 } };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t keep = b[bad[i].at];
		b[bad[i].at] = bad[i].v;
		fix_checksum(b, len);
		errno = 0;
		cr_assert_null(dex__open_mem(b, len, 0), "byte %zu", bad[i].at);
		cr_assert_eq(errno, EINVAL);
		b[bad[i].at] = keep;
	}
	fix_checksum(b, len);
	b[len - 1] ^= 0xff; /* checksum no longer matches */
	cr_assert_null(dex__open_mem(b, len, 0));
	cr_assert_not_null(d = dex__open_mem(b, len, DEX_OPEN_NO_CHECKSUM));
	dex__free(d);
	b[len - 1] ^= 0xff;
	cr_assert_null(dex__open_mem(b, len - 1, 0), "shorter than file_size");
	cr_assert_null(dex__open_mem(b, 0x6f, 0), "shorter than a header");
	free(b);
}

/* Pointing tables and items outside the file gives errors, not reads outside it. */
Test(dex, out_of_range_tables_and_items_are_errors)
{
	size_t len;
	uint8_t *b = fixture_bytes("android10/framework", &len);
	struct dex *d;

	for (uint32_t hoff = 56; hoff <= 96; hoff += 8) { /* strings, types, protos, fields... */
		uint32_t keep = get32(b + hoff + 4);
		put32(b + hoff + 4, (uint32_t)len - 4);
		d = dex__open_mem(b, len, DEX_OPEN_NO_CHECKSUM);
		if (hoff == 72 || hoff == 88) /* proto and method ids are not read */
			dex__free(d);
		else
			cr_assert_null(d, "table at header offset %u", hoff);
		put32(b + hoff + 4, keep);
	}
	/* The first string's data past the end. */
	uint32_t strings_off = get32(b + 60);
	put32(b + strings_off, (uint32_t)len + 100);
	d = dex__open_mem(b, len, DEX_OPEN_NO_CHECKSUM);
	cr_assert_not_null(d);
	cr_assert_null(dex__string(d, 0));
	dex__free(d);
	put32(b + strings_off, (uint32_t)len - 1); /* a uleb128 running off the end */
	b[len - 1] = 0x80;
	d = dex__open_mem(b, len, DEX_OPEN_NO_CHECKSUM);
	cr_assert_not_null(d);
	cr_assert_null(dex__string(d, 0));
	dex__free(d);
	free(b);
	/* A class def whose class data lies past the end. */
	b = fixture_bytes("android10/framework", &len);
	uint32_t cdefs = get32(b + 100);
	put32(b + cdefs + 24, (uint32_t)len + 8);
	d = dex__open_mem(b, len, DEX_OPEN_NO_CHECKSUM);
	struct dex_class_def cd;
	struct dex_class_fields cf;
	cr_assert_eq(dex__class_def(d, 0, &cd), -EINVAL);
	cr_assert_eq(dex__class_fields(d, 0, &cf), -EINVAL);
	cr_assert_null(cf.f);
	dex__free(d);
	free(b);
}

/* Random bytes changed anywhere: every reader call returns, in bounds (run under ASan too). */
Test(dex, survives_random_corruption)
{
	size_t len;
	uint8_t *orig = fixture_bytes("android14b1/framework", &len);
	uint8_t *b = malloc(len);
	uint32_t seed = 12345;

	for (int round = 0; round < 400; round++) {
		memcpy(b, orig, len);
		for (int k = 0; k < 1 + round % 8; k++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = round % 3 == 0 ? (seed >> 8) % 0x70 : (seed >> 8) % len;
			b[at] = (uint8_t)(seed >> 24);
		}
		struct dex *d = dex__open_mem(b, len, DEX_OPEN_NO_CHECKSUM);
		if (!d)
			continue;
		for (uint32_t i = 0; i < dex__n_strings(d) + 2; i++)
			(void)dex__string(d, i);
		for (uint32_t i = 0; i < dex__n_types(d) + 2; i++)
			(void)dex__type(d, i);
		(void)dex__find_class(d, "Landroid/animation/ValueAnimator;");
		for (uint32_t i = 0; i < dex__n_class_defs(d) + 1; i++) {
			struct dex_class_fields cf;
			if (dex__class_fields(d, i, &cf))
				continue;
			for (uint32_t k = 0; k < cf.n_static + cf.n_instance; k++) {
				struct dex_field_id id;
				if (dex__field_id(d, cf.f[k].field_idx, &id) == 0)
					(void)dex__string(d, id.name_idx);
			}
			dex_class_fields__release(&cf);
		}
		dex__free(d);
	}
	free(b);
	free(orig);
}

Test(dex, mutf8_becomes_utf8)
{
	char out[32];

	cr_assert_eq(dex_mutf8_to_utf8("abc", out, sizeof(out)), 3);
	cr_assert_str_eq(out, "abc");
	/* U+00E9 (2 bytes), U+20AC (3 bytes) as in UTF-8. */
	cr_assert_eq(dex_mutf8_to_utf8("\xc3\xa9\xe2\x82\xac", out, sizeof(out)), 5);
	cr_assert_str_eq(out, "\xc3\xa9\xe2\x82\xac");
	/* U+1F600 is a surrogate pair in MUTF-8 (ED A0 BD, ED B8 80), 4 bytes in UTF-8. */
	cr_assert_eq(dex_mutf8_to_utf8("\xed\xa0\xbd\xed\xb8\x80!", out, sizeof(out)), 5);
	cr_assert_str_eq(out, "\xf0\x9f\x98\x80!");
	/* C0 80 is U+0000: the C string stops there. */
	cr_assert_eq(dex_mutf8_to_utf8("a\xc0\x80z", out, sizeof(out)), 1);
	cr_assert_eq(dex_mutf8_to_utf8("\xe2\x82", out, sizeof(out)), -EINVAL);
	cr_assert_eq(dex_mutf8_to_utf8("abcdef", out, 4), 3);
	cr_assert_str_eq(out, "abc");
}

Test(dex, descriptor_syntax)
{
	const char *good[] = { "I",
			       "Z",
			       "[J",
			       "[[D",
			       "Ljava/lang/String;",
			       "La;",
			       "Landroid/animation/Keyframe$FloatKeyframe;",
			       "[Ljava/lang/Object;" };
	const char *bad[] = { "",
			      "V",
			      "X",
			      "II",
			      "L;",
			      "Ljava/lang/String",
			      "Ljava//a;",
			      "L/a;",
			      "La/;",
			      "La;b",
			      "Ljava.lang.String;",
			      "[",
			      "[V",
			      "La b;" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		cr_assert(dex_descriptor_valid(good[i]), "%s", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_not(dex_descriptor_valid(bad[i]), "%s", bad[i]);
}

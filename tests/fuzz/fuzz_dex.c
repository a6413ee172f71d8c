// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The dex reader (symbols/dex.c) on any bytes: it reads a device's own framework.jar and an
 * app's base.apk, and a damaged or hostile file must give NULL or -errno, never a read past
 * the file. Everything it returns is walked, each string to its NUL, and its promises held.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "symbols/dex.h"

/* Enough of every table to reach the decoders, few enough to keep each input quick. */
#define WALK_MAX 2048

static void walk_strings(const struct dex *d)
{
	char utf8[256];
	uint32_t n = dex__n_strings(d);

	for (uint32_t i = 0; i < n && i < WALK_MAX; i++) {
		const char *s = dex__string(d, i);
		int len;

		if (!s)
			continue;
		len = dex_mutf8_to_utf8(s, utf8, sizeof(utf8));
		FUZZ_CHECK(len == -EINVAL || (len >= 0 && (size_t)len < sizeof(utf8)));
		FUZZ_CHECK(len < 0 || strlen(utf8) <= (size_t)len);
	}
	FUZZ_CHECK(!dex__string(d, n));
}

static void walk_types(const struct dex *d)
{
	uint32_t n = dex__n_types(d);

	for (uint32_t i = 0; i < n && i < WALK_MAX; i++) {
		const char *t = dex__type(d, i);

		if (t)
			(void)dex_descriptor_valid(t); /* reads it to its end */
	}
	FUZZ_CHECK(!dex__type(d, n));
	FUZZ_CHECK(dex__find_type(d, "Landroid/animation/ValueAnimator;") >= -ENOENT);
}

static void walk_classes(const struct dex *d)
{
	uint32_t n = dex__n_class_defs(d), nf = dex__n_fields(d);
	struct dex_field_id fid;
	struct dex_class_def cd;

	for (uint32_t i = 0; i < nf && i < WALK_MAX; i++)
		if (!dex__field_id(d, i, &fid))
			FUZZ_CHECK(fid.class_idx < dex__n_types(d) &&
				   fid.type_idx < dex__n_types(d) &&
				   fid.name_idx < dex__n_strings(d));
	FUZZ_CHECK(dex__field_id(d, nf, &fid) == -EINVAL);
	for (uint32_t i = 0; i < n && i < WALK_MAX; i++) {
		struct dex_class_fields cf = { 0 };

		if (dex__class_def(d, i, &cd))
			continue;
		if (!dex__class_fields(d, i, &cf)) {
			/* every field named is one of the file's field ids */
			for (uint32_t k = 0; k < cf.n_static + cf.n_instance; k++)
				FUZZ_CHECK(cf.f[k].field_idx < nf);
		}
		dex_class_fields__release(&cf);
	}
	FUZZ_CHECK(dex__class_def(d, n, &cd) == -EINVAL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* with the checksum (what the reader does on a device), then without it, so that the
	 * mutations reach the tables instead of stopping at a wrong adler32 */
	struct dex *d = dex__open_mem(data, size, 0);

	if (d)
		dex__free(d);
	d = dex__open_mem(data, size, DEX_OPEN_NO_CHECKSUM);
	if (!d)
		return 0;
	FUZZ_CHECK(dex__version(d) > 0);
	walk_strings(d);
	walk_types(d);
	walk_classes(d);
	dex__free(d);
	return 0;
}

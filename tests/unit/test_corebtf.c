// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <criterion/criterion.h>

#include "live/corebtf.h"

/* A stand-in for a kernel's BTF: 100 KB, more than one read of the matcher. */
static void fake_kernel(char *path, size_t cap, uint64_t *size, uint32_t *crc)
{
	static unsigned char data[100000];
	FILE *f;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 7 + i / 251);
	snprintf(path, cap, "/tmp/corebtf-test-%d", (int)getpid());
	f = fopen(path, "w");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(data, 1, sizeof(data), f), sizeof(data));
	fclose(f);
	*size = sizeof(data);
	*crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, sizeof(data));
}

Test(corebtf, the_embedded_types_are_used_only_on_the_kernel_they_were_cut_from)
{
	struct corebtf_blob b = { "types", 5, 0, 0 };
	char path[64];

	fake_kernel(path, sizeof(path), &b.kernel_size, &b.kernel_crc);
	cr_assert_eq(corebtf_match(&b, path), 0);
	b.kernel_crc ^= 1;
	cr_assert_eq(corebtf_match(&b, path), -ESTALE);
	b.kernel_crc ^= 1;
	b.kernel_size++;
	cr_assert_eq(corebtf_match(&b, path), -ESTALE);
	cr_assert_eq(corebtf_match(&b, "/nonexistent/vmlinux"), -ENOENT);
	unlink(path);
}

Test(corebtf, a_build_without_kernel_btf_embeds_nothing_to_match)
{
	struct corebtf_blob none = { "", 0, 0, 0 };
	char path[64];

	cr_assert_eq(corebtf_match(&none, "/proc/self/status"), -ENOENT);
	cr_assert_eq(corebtf_memfd(&none, path, sizeof(path)), -ENOENT);
}

Test(corebtf, the_memory_file_holds_the_types_byte_for_byte)
{
	static const char types[] = "\x9f\xeb\x01\x00 some types";
	struct corebtf_blob b = { types, sizeof(types), 0, 0 };
	char path[64], back[64] = "";
	int fd = corebtf_memfd(&b, path, sizeof(path));
	FILE *f;

	cr_assert_geq(fd, 0);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fread(back, 1, sizeof(back), f), sizeof(types));
	cr_assert_eq(memcmp(back, types, sizeof(types)), 0);
	fclose(f);
	close(fd);
}

Test(corebtf, this_build_embeds_types_only_with_the_identity_of_their_kernel)
{
	const struct corebtf_blob *b = corebtf_embedded();

	if (!b->len) {
		cr_assert_eq(b->kernel_size, 0);
		return;
	}
	cr_assert_geq(b->len, 24, "shorter than a BTF header");
	cr_assert_eq(memcmp(b->data, "\x9f\xeb", 2), 0, "not BTF");
	cr_assert_gt(b->kernel_size, b->len);
}

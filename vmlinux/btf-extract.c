// SPDX-License-Identifier: GPL-2.0
/*
 * btf-extract: copies the raw .BTF blob out of an uncompressed arm64 kernel Image.
 *
 * An arm64 Image is not an ELF file, so bpftool cannot find its .BTF section by name. The
 * blob is still there verbatim: a struct btf_header (magic 0xeb9f, little endian) followed by
 * the type and string sections. A header is accepted only when hdr_len == 24,
 * type_off == 0 and str_off == type_len (how the kernel lays its own BTF out), which no
 * stray 9f eb 01 00 byte sequence in code or data is likely to satisfy.
 *
 * Usage: btf-extract IMAGE OUT
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct raw_btf_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off;
	uint32_t type_len;
	uint32_t str_off;
	uint32_t str_len;
};

static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc(size);
		if (buf && fread(buf, 1, size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
		*len = size;
	}
	fclose(f);
	return buf;
}

/* Returns the blob length at off, or 0 when the bytes there are not a kernel BTF header. */
static size_t btf_blob_len(const unsigned char *buf, size_t len, size_t off)
{
	struct raw_btf_header h;
	uint64_t total;

	if (len - off < sizeof(h))
		return 0;
	memcpy(&h, buf + off, sizeof(h));
	if (h.magic != 0xeb9f || h.version != 1 || h.hdr_len != sizeof(h) || h.type_off != 0 ||
	    h.str_off != h.type_len || h.type_len == 0 || h.str_len == 0)
		return 0;
	total = (uint64_t)h.hdr_len + h.type_len + h.str_len;
	if (total > len - off)
		return 0;
	/* The string section always starts with the empty string. */
	if (buf[off + h.hdr_len + h.str_off] != '\0')
		return 0;
	return total;
}

int main(int argc, char **argv)
{
	unsigned char *buf;
	size_t len = 0, off, blob = 0;
	FILE *out;

	if (argc != 3) {
		fprintf(stderr, "usage: %s IMAGE OUT\n", argv[0]);
		return 2;
	}
	buf = read_all(argv[1], &len);
	if (!buf) {
		fprintf(stderr, "btf-extract: %s: %s\n", argv[1], strerror(errno ? errno : EIO));
		return 1;
	}
	for (off = 0; off + 4 <= len; off++) {
		if (memcmp(buf + off, "\x9f\xeb\x01\x00", 4) == 0)
			blob = btf_blob_len(buf, len, off);
		if (blob)
			break;
	}
	if (!blob) {
		fprintf(stderr, "btf-extract: no kernel BTF found in %s\n", argv[1]);
		free(buf);
		return 1;
	}
	out = fopen(argv[2], "wb");
	if (!out || fwrite(buf + off, 1, blob, out) != blob || fclose(out) != 0) {
		fprintf(stderr, "btf-extract: %s: %s\n", argv[2], strerror(errno));
		free(buf);
		return 1;
	}
	fprintf(stderr, "btf-extract: %zu bytes of BTF at offset 0x%zx\n", blob, off);
	free(buf);
	return 0;
}

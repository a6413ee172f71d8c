// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Dex reader. Layout of the header and the id tables: source.android.com/docs/core/runtime/
 * dex-format (header_item 0x70 bytes; string_id_item 4, type_id_item 4, field_id_item 8,
 * class_def_item 32 bytes; class_data_item as uleb128s). Every read goes through rd32/rd16 or
 * uleb(), which check the offset against the file size first.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <unzip.h>

#include "symbols/dex.h"

#define HEADER_SIZE 0x70u
#define ENDIAN_CONSTANT 0x12345678u
/* A dex above this is not a file this tool reads (framework.jar's largest is ~10 MiB). */
#define DEX_MAX_SIZE (512u << 20)

struct table {
	uint32_t size, off;
};

struct dex {
	uint8_t *b;
	size_t len;
	int version;
	struct table strings, types, fields, class_defs;
};

static bool in_file(const struct dex *d, uint64_t off, uint64_t n)
{
	return off <= d->len && n <= d->len - off;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* Reads a uleb128 (at most 5 bytes, 32 bits) at *off, advancing it; -EINVAL past the end. */
static int uleb(const struct dex *d, uint64_t *off, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 5; i++) {
		if (*off >= d->len)
			return -EINVAL;
		uint8_t c = d->b[(*off)++];
		if (i == 4 && c > 0x0f)
			return -EINVAL;
		v |= (uint32_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80)) {
			*out = v;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_version(const uint8_t *m)
{
	if (memcmp(m, "dex\n", 4) != 0 || m[7] != 0)
		return -EINVAL;
	for (int i = 4; i < 7; i++)
		if (m[i] < '0' || m[i] > '9')
			return -EINVAL;
	int v = (m[4] - '0') * 100 + (m[5] - '0') * 10 + (m[6] - '0');
	/* 035..039: one dex per file; 041 wraps dex files in a container whose first header
	 * describes the first dex with offsets from the file start, as read here. */
	return (v >= 35 && v <= 39) || v == 41 ? v : -EINVAL;
}

static int load_table(struct dex *d, uint32_t hoff, uint32_t elem, struct table *t)
{
	t->size = rd32(d->b + hoff);
	t->off = rd32(d->b + hoff + 4);
	if (t->size == 0)
		return 0;
	if (t->off % 4 || !in_file(d, t->off, (uint64_t)t->size * elem))
		return -EINVAL;
	return 0;
}

static int parse_header(struct dex *d, unsigned flags)
{
	if (d->len < HEADER_SIZE)
		return -EINVAL;
	d->version = parse_version(d->b);
	if (d->version < 0)
		return -EINVAL;
	uint32_t file_size = rd32(d->b + 32), header_size = rd32(d->b + 36);
	if (rd32(d->b + 40) != ENDIAN_CONSTANT || header_size < HEADER_SIZE ||
	    header_size > d->len || file_size < header_size || file_size > d->len)
		return -EINVAL;
	d->len = file_size; /* 041: the first dex of the container ends here */
	if (!(flags & DEX_OPEN_NO_CHECKSUM) &&
	    rd32(d->b + 8) != adler32(adler32(0, NULL, 0), d->b + 12, (uInt)(d->len - 12)))
		return -EINVAL;
	if (load_table(d, 56, 4, &d->strings) || load_table(d, 64, 4, &d->types) ||
	    load_table(d, 80, 8, &d->fields) || load_table(d, 96, 32, &d->class_defs))
		return -EINVAL;
	/* Type indices are 16-bit in field ids: a larger table is not a dex. */
	return d->types.size > 65536 ? -EINVAL : 0;
}

struct dex *dex__open_mem(const void *buf, size_t len, unsigned flags)
{
	struct dex *d;
	int err;

	if (!buf || len > DEX_MAX_SIZE) {
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d || !(d->b = malloc(len ? len : 1))) {
		free(d);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(d->b, buf, len);
	d->len = len;
	err = parse_header(d, flags);
	if (err) {
		dex__free(d);
		errno = -err;
		return NULL;
	}
	return d;
}

/* The whole of fd into a malloc'd buffer. 0 or -errno. */
static int read_all(int fd, uint8_t **out, size_t *len)
{
	struct stat st;
	uint8_t *b;
	size_t got = 0;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)DEX_MAX_SIZE)
		return -EINVAL;
	b = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!b)
		return -ENOMEM;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, b + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -EIO;
			free(b);
			return err;
		}
		got += (size_t)n;
	}
	*out = b;
	*len = got;
	return 0;
}

/* dex__open_mem of the b that a read gave (err: its result), freeing b; errno kept. */
static struct dex *open_read(uint8_t *b, size_t len, int err, unsigned flags)
{
	struct dex *d;

	if (err) {
		errno = -err;
		return NULL;
	}
	d = dex__open_mem(b, len, flags);
	err = errno;
	free(b);
	errno = err;
	return d;
}

struct dex *dex__open_file(const char *path, unsigned flags)
{
	uint8_t *b = NULL;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return NULL;
	err = read_all(fd, &b, &len);
	close(fd);
	return open_read(b, len, err, flags);
}

/* The current entry of uf, inflated by minizip, into a malloc'd buffer. 0 or -errno. */
static int zip_read_entry(unzFile uf, uint8_t **out, size_t *len)
{
	unz_file_info64 fi;
	uint8_t *b;
	size_t got = 0;

	if (unzGetCurrentFileInfo64(uf, &fi, NULL, 0, NULL, 0, NULL, 0) != UNZ_OK)
		return -EINVAL;
	if (fi.uncompressed_size > DEX_MAX_SIZE)
		return -EINVAL;
	if (unzOpenCurrentFile(uf) != UNZ_OK)
		return -EINVAL;
	b = malloc(fi.uncompressed_size ? (size_t)fi.uncompressed_size : 1);
	if (!b) {
		unzCloseCurrentFile(uf);
		return -ENOMEM;
	}
	while (got < fi.uncompressed_size) {
		int n = unzReadCurrentFile(uf, b + got, (unsigned)(fi.uncompressed_size - got));
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	/* unzCloseCurrentFile checks the CRC once the whole entry was read. */
	if (unzCloseCurrentFile(uf) != UNZ_OK || got != fi.uncompressed_size) {
		free(b);
		return -EINVAL;
	}
	*out = b;
	*len = got;
	return 0;
}

struct dex *dex__open_zip(const char *path, const char *entry, unsigned flags)
{
	uint8_t *b = NULL;
	size_t len = 0;
	unzFile uf;
	int err;

	if (access(path, R_OK))
		return NULL;
	uf = unzOpen64(path);
	if (!uf) {
		errno = EINVAL;
		return NULL;
	}
	err = unzLocateFile(uf, entry, 1) == UNZ_OK ? zip_read_entry(uf, &b, &len) : -ENOENT;
	unzClose(uf);
	return open_read(b, len, err, flags);
}

static bool is_zip(const char *path)
{
	unsigned char m[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool zip = fd >= 0 && read(fd, m, 4) == 4 && memcmp(m, "PK\3\4", 4) == 0;

	if (fd >= 0)
		close(fd);
	return zip;
}

struct dex *dex__open_location(const char *location, unsigned flags)
{
	const char *bang = strchr(location, '!');
	char path[PATH_MAX];

	if (!bang)
		return is_zip(location) ? dex__open_zip(location, "classes.dex", flags) :
					  dex__open_file(location, flags);
	if ((size_t)(bang - location) >= sizeof(path) || !bang[1]) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(path, location, (size_t)(bang - location));
	path[bang - location] = '\0';
	return dex__open_zip(path, bang + 1, flags);
}

void dex__free(struct dex *d)
{
	if (!d)
		return;
	free(d->b);
	free(d);
}

int dex__version(const struct dex *d)
{
	return d->version;
}

uint32_t dex__n_strings(const struct dex *d)
{
	return d->strings.size;
}

uint32_t dex__n_types(const struct dex *d)
{
	return d->types.size;
}

uint32_t dex__n_fields(const struct dex *d)
{
	return d->fields.size;
}

uint32_t dex__n_class_defs(const struct dex *d)
{
	return d->class_defs.size;
}

const char *dex__string(const struct dex *d, uint32_t idx)
{
	uint64_t off;
	uint32_t utf16_len;

	if (idx >= d->strings.size)
		return NULL;
	off = rd32(d->b + d->strings.off + 4ull * idx);
	if (uleb(d, &off, &utf16_len))
		return NULL;
	/* The NUL must be inside the file; each UTF-16 unit takes at least one byte. */
	const uint8_t *s = d->b + off, *nul = memchr(s, 0, d->len - off);
	if (!nul || (uint64_t)(nul - s) < utf16_len)
		return NULL;
	return (const char *)s;
}

const char *dex__type(const struct dex *d, uint32_t idx)
{
	if (idx >= d->types.size)
		return NULL;
	return dex__string(d, rd32(d->b + d->types.off + 4ull * idx));
}

/*
 * Dex orders strings by UTF-16 code points; for MUTF-8 that is byte order except that
 * supplementary characters (surrogates, ED A0..ED BF) sort below U+E000..U+FFFF (EE..EF).
 * Descriptors are compared here with strcmp, exact for every descriptor without such characters;
 * a miss falls back to a linear scan so the answer stays right for the rest.
 */
long dex__find_type(const struct dex *d, const char *descriptor)
{
	uint32_t lo = 0, hi = d->types.size;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const char *s = dex__type(d, mid);
		int c = s ? strcmp(s, descriptor) : 1;
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t i = 0; i < d->types.size; i++) {
		const char *s = dex__type(d, i);
		if (s && strcmp(s, descriptor) == 0)
			return i;
	}
	return -ENOENT;
}

int dex__field_id(const struct dex *d, uint32_t idx, struct dex_field_id *out)
{
	const uint8_t *p;

	if (idx >= d->fields.size)
		return -EINVAL;
	p = d->b + d->fields.off + 8ull * idx;
	out->class_idx = rd16(p);
	out->type_idx = rd16(p + 2);
	out->name_idx = rd32(p + 4);
	if (out->class_idx >= d->types.size || out->type_idx >= d->types.size ||
	    out->name_idx >= d->strings.size)
		return -EINVAL;
	return 0;
}

int dex__class_def(const struct dex *d, uint32_t idx, struct dex_class_def *out)
{
	const uint8_t *p;

	if (idx >= d->class_defs.size)
		return -EINVAL;
	p = d->b + d->class_defs.off + 32ull * idx;
	out->class_idx = rd32(p);
	out->access_flags = rd32(p + 4);
	out->superclass_idx = rd32(p + 8);
	out->class_data_off = rd32(p + 24);
	if (out->class_idx >= d->types.size ||
	    (out->superclass_idx != DEX_NO_INDEX && out->superclass_idx >= d->types.size) ||
	    (out->class_data_off && !in_file(d, out->class_data_off, 4)))
		return -EINVAL;
	return 0;
}

long dex__find_class(const struct dex *d, const char *descriptor)
{
	long type = dex__find_type(d, descriptor);
	struct dex_class_def cd;

	if (type < 0)
		return type;
	for (uint32_t i = 0; i < d->class_defs.size; i++)
		if (dex__class_def(d, i, &cd) == 0 && cd.class_idx == (uint32_t)type)
			return i;
	return -ENOENT;
}

/* n encoded fields from *off into f: field indices are deltas, increasing, in range. */
static int read_fields(const struct dex *d, uint64_t *off, uint32_t n, struct dex_encoded_field *f)
{
	uint64_t idx = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t diff, flags;
		if (uleb(d, off, &diff) || uleb(d, off, &flags))
			return -EINVAL;
		if (i > 0 && diff == 0)
			return -EINVAL;
		idx += diff;
		if (idx >= d->fields.size)
			return -EINVAL;
		f[i].field_idx = (uint32_t)idx;
		f[i].access_flags = flags;
	}
	return 0;
}

int dex__class_fields(const struct dex *d, uint32_t idx, struct dex_class_fields *out)
{
	struct dex_class_def cd;
	uint32_t n_static, n_instance, n_direct, n_virtual;
	uint64_t off;
	int err = dex__class_def(d, idx, &cd);

	memset(out, 0, sizeof(*out));
	if (err || !cd.class_data_off)
		return err;
	off = cd.class_data_off;
	if (uleb(d, &off, &n_static) || uleb(d, &off, &n_instance) || uleb(d, &off, &n_direct) ||
	    uleb(d, &off, &n_virtual))
		return -EINVAL;
	/* Each encoded field takes at least two bytes: more than the file holds is corrupt. */
	if ((uint64_t)n_static + n_instance > (d->len - off) / 2)
		return -EINVAL;
	if (n_static + n_instance == 0)
		return 0;
	out->f = calloc(n_static + n_instance, sizeof(*out->f));
	if (!out->f)
		return -ENOMEM;
	if (read_fields(d, &off, n_static, out->f) ||
	    read_fields(d, &off, n_instance, out->f + n_static)) {
		dex_class_fields__release(out);
		return -EINVAL;
	}
	out->n_static = n_static;
	out->n_instance = n_instance;
	return 0;
}

void dex_class_fields__release(struct dex_class_fields *cf)
{
	free(cf->f);
	cf->f = NULL;
	cf->n_static = cf->n_instance = 0;
}

/* The class name part of "Lpkg/Name;": simple names with '/' between, no empty segment. */
static bool class_name_valid(const char *s)
{
	bool seg = false;

	for (; *s && *s != ';'; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '/') {
			if (!seg)
				return false;
			seg = false;
		} else if (c <= ' ' || c == '.' || c == '[' || c == '(' || c == ')' || c == '<' ||
			   c == '>' || c == 0x7f) {
			return false;
		} else {
			seg = true;
		}
	}
	return seg && *s == ';' && s[1] == '\0';
}

bool dex_descriptor_valid(const char *s)
{
	int dims = 0;

	while (*s == '[') {
		if (++dims > 255)
			return false;
		s++;
	}
	if (*s == 'L')
		return class_name_valid(s + 1);
	return s[0] && strchr("ZBCSIJFD", s[0]) && s[1] == '\0';
}

/* One MUTF-8 sequence at *p as a UTF-16 unit; advances *p. -1 when malformed. */
static long mutf8_unit(const unsigned char **p)
{
	const unsigned char *s = *p;

	if (s[0] < 0x80) {
		*p += 1;
		return s[0];
	}
	if ((s[0] & 0xe0) == 0xc0 && (s[1] & 0xc0) == 0x80) {
		*p += 2;
		return (s[0] & 0x1f) << 6 | (s[1] & 0x3f);
	}
	if ((s[0] & 0xf0) == 0xe0 && (s[1] & 0xc0) == 0x80 && (s[2] & 0xc0) == 0x80) {
		*p += 3;
		return (s[0] & 0x0f) << 12 | (s[1] & 0x3f) << 6 | (s[2] & 0x3f);
	}
	return -1;
}

static size_t put_utf8(uint32_t cp, char *b)
{
	if (cp < 0x80) {
		b[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (char)(0xf0 | cp >> 18);
	b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	b[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

int dex_mutf8_to_utf8(const char *in, char *out, size_t cap)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t n = 0;

	if (!cap)
		return -EINVAL;
	out[0] = '\0';
	while (*p) {
		long u = mutf8_unit(&p);
		uint32_t cp = (uint32_t)u;
		char b[4];
		if (u < 0)
			return -EINVAL;
		if (u == 0)
			break; /* C0 80, U+0000: a C string ends here */
		if (u >= 0xd800 && u < 0xdc00 && *p) {
			const unsigned char *q = p;
			long lo = mutf8_unit(&q);
			if (lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + (((uint32_t)u - 0xd800) << 10) +
				     ((uint32_t)lo - 0xdc00);
				p = q;
			}
		}
		size_t k = put_utf8(cp, b);
		if (n + k >= cap)
			break;
		memcpy(out + n, b, k);
		n += k;
		out[n] = '\0';
	}
	return (int)n;
}

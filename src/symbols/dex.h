/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A read-only dex file: header, string, type and field ids, class definitions and the fields of
 * their class data, as the dex format defines them (source.android.com "Dalvik executable
 * format"; dex versions 035 to 039 and 041's single-dex form). Every offset read from the file is
 * bounds-checked: a malformed file gives an error, never a read outside it. Dex files come from a
 * file, a buffer, or a jar/apk entry (classes.dex, classes2.dex... stored or deflated).
 */
#ifndef ANIMTRACE_DEX_H
#define ANIMTRACE_DEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DEX_NO_INDEX 0xffffffffu

/* dex__open_* flags: skip the Adler-32 checksum (for tests that corrupt a file on purpose). */
#define DEX_OPEN_NO_CHECKSUM 1u

/* Access flags of fields and classes (the ACC_ values of the dex format). */
#define DEX_ACC_PUBLIC 0x1u
#define DEX_ACC_PRIVATE 0x2u
#define DEX_ACC_PROTECTED 0x4u
#define DEX_ACC_STATIC 0x8u
#define DEX_ACC_FINAL 0x10u
#define DEX_ACC_VOLATILE 0x40u
#define DEX_ACC_TRANSIENT 0x80u

struct dex;

struct dex_field_id {
	uint32_t class_idx; /* type index of the defining class */
	uint32_t type_idx;  /* type index of the field's type */
	uint32_t name_idx;  /* string index of its name */
};

struct dex_class_def {
	uint32_t class_idx; /* type index */
	uint32_t access_flags;
	uint32_t superclass_idx; /* type index, DEX_NO_INDEX for java.lang.Object */
	uint32_t class_data_off; /* 0: no fields, no methods */
};

struct dex_encoded_field {
	uint32_t field_idx;
	uint32_t access_flags;
};

/* The fields of one class's class data, in dex order: n_static statics, then the instance ones. */
struct dex_class_fields {
	uint32_t n_static, n_instance;
	struct dex_encoded_field *f;
};

/* A copy of len bytes of dex at buf. NULL with errno (EINVAL: not a dex this reader takes). */
struct dex *dex__open_mem(const void *buf, size_t len, unsigned flags);

/* The dex file at path. NULL with errno. */
struct dex *dex__open_file(const char *path, unsigned flags);

/* The entry (e.g. "classes2.dex") of the zip (jar, apk) at path. NULL with errno (ENOENT: no
 * such entry, EINVAL: not a zip or not a dex). */
struct dex *dex__open_zip(const char *path, const char *entry, unsigned flags);

/*
 * The dex an ART dex location names: "/x/framework.jar" (its classes.dex),
 * "/x/framework.jar!classes2.dex" (that entry) or a plain dex file. NULL with errno.
 */
struct dex *dex__open_location(const char *location, unsigned flags);

void dex__free(struct dex *d);

/* The format version from the magic, e.g. 35 for "dex\n035". */
int dex__version(const struct dex *d);

uint32_t dex__n_strings(const struct dex *d);
uint32_t dex__n_types(const struct dex *d);
uint32_t dex__n_fields(const struct dex *d);
uint32_t dex__n_class_defs(const struct dex *d);

/* String idx as NUL-terminated MUTF-8 inside the file, or NULL (bad index or data). */
const char *dex__string(const struct dex *d, uint32_t idx);

/* The descriptor of type idx ("Ljava/lang/String;", "I", "[J"), or NULL. */
const char *dex__type(const struct dex *d, uint32_t idx);

/* Type index of descriptor (type ids are sorted: a binary search), or -ENOENT. */
long dex__find_type(const struct dex *d, const char *descriptor);

/* 0 with *out, or -EINVAL when idx or its ids are out of range. */
int dex__field_id(const struct dex *d, uint32_t idx, struct dex_field_id *out);
int dex__class_def(const struct dex *d, uint32_t idx, struct dex_class_def *out);

/* Index of the class def of descriptor, or -ENOENT. */
long dex__find_class(const struct dex *d, const char *descriptor);

/* The fields of class def idx (out->f is malloc'd, NULL when there are none). 0 or -errno. */
int dex__class_fields(const struct dex *d, uint32_t idx, struct dex_class_fields *out);

/* Frees out->f; accepts a zeroed struct. */
void dex_class_fields__release(struct dex_class_fields *cf);

/* True when s is a well-formed field type descriptor (a primitive, L...; or arrays of them). */
bool dex_descriptor_valid(const char *s);

/* MUTF-8 in as UTF-8 (surrogate pairs joined, C0 80 as NUL stops the copy) into out; returns
 * the length written (truncated to cap - 1), or -EINVAL for a malformed sequence. */
int dex_mutf8_to_utf8(const char *in, char *out, size_t cap);

#endif

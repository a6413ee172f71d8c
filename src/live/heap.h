/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Java objects read from a process's memory: fields at the offsets src/symbols/artlayout.h
 * computes, strings, arrays, ArrayList, Reference.referent, and the class of any object from
 * its klass_ (Class.dexCache -> DexCache.location names the dex, Class.dexTypeIndex its type).
 * Heap references are ART's 32-bit compressed references (the object's address). Memory comes
 * through a reader: the target process (process_vm_readv, else /proc/PID/mem) or a buffer.
 *
 * Facts from AOSP ART runtime/mirror/ (android-7.0.0_r1, android-10.0.0_r36 and
 * android-14.0.0_r1 alike unless said): object.h: klass_ at 0, monitor_ at 4, objects 8-byte
 * aligned (kObjectAlignment); array.h: int32 length_ at 8, elements at RoundUp(12, component
 * size): 12, or 16 for longs; string.h: since kUseStringCompression (android-8.0.0_r1) count_ =
 * length << 1 | flag, flag 0 = compressed (one byte per char), 1 = UTF-16; before, count_ is
 * the length, always UTF-16; the characters follow the fields (String's object size, 16);
 * hash_code_ is String.hashCode() once computed, else 0. Class.name_ is set for primitive and
 * proxy classes (CreateProxyClass gives proxies Proxy's DexCache, not their own type index),
 * and lazily for the others; arrays have componentType.
 */
#ifndef ANIMTRACE_HEAP_H
#define ANIMTRACE_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/artlayout.h"

/* Reads len bytes at addr into buf: 0, or -errno (-EFAULT: not mapped or short). */
typedef int (*heap_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

struct heap_mem {
	heap_read_fn read;
	void *ctx;
};

/* heap_mem_process flags: read /proc/pid/mem only (no process_vm_readv). */
#define HEAP_MEM_PROC_MEM 1u

/* A reader of process pid: process_vm_readv, falling back to /proc/pid/mem when that fails
 * with ENOSYS or EPERM. 0 or -errno. Release with heap_mem_release. */
int heap_mem_process(struct heap_mem *m, int pid, unsigned flags);

/* A reader of len bytes at data, seen at address base (tests, captured images). */
struct heap_buffer {
	uint64_t base;
	const void *data;
	size_t len;
};
void heap_mem_buffer(struct heap_mem *m, struct heap_buffer *b);

/* Frees a process reader's state; harmless on a buffer reader. */
void heap_mem_release(struct heap_mem *m);

/* Longest string and array decoded; longer ones are taken for garbage. */
#define HEAP_MAX_LENGTH (1u << 24)

struct heap;

/*
 * A decoder over mem with the field layouts of layout, for Android SDK level sdk (string
 * compression from 26 on). layout must know java.lang.Object, Class, String, DexCache,
 * ref.Reference and util.ArrayList (core-oj's dex). Neither is owned. NULL with errno.
 */
struct heap *heap__new(const struct heap_mem *mem, struct artlayout *layout, int sdk);

void heap__free(struct heap *h);

/* Objects are only read inside [lo, hi) ranges once any is added (the Java heap's mappings);
 * with none, any non-null 8-byte-aligned 32-bit address goes. 0 or -ENOMEM. */
int heap__add_range(struct heap *h, uint64_t lo, uint64_t hi);

/* True when addr can be an object: non-null, aligned, 32-bit, inside a range if any. */
bool heap__plausible(const struct heap *h, uint64_t addr);

/*
 * Field name of class cls (declared there or inherited) of the object at obj, into out: the
 * field's type must have the size given (4 for references, int, float; 8 long, double; 2;
 * 1). 0, -ENOENT (no such field), -EINVAL (size mismatch, implausible obj), or a read error.
 * The object's class is not checked: see heap__is_a.
 */
int heap__get(struct heap *h, uint64_t obj, const char *cls, const char *name, void *out,
	      size_t size);

/* Typed heap__get: a reference (0 is null), int, long, float, boolean. */
int heap__get_ref(struct heap *h, uint64_t obj, const char *cls, const char *name, uint32_t *out);
int heap__get_int(struct heap *h, uint64_t obj, const char *cls, const char *name, int32_t *out);
int heap__get_long(struct heap *h, uint64_t obj, const char *cls, const char *name, int64_t *out);
int heap__get_float(struct heap *h, uint64_t obj, const char *cls, const char *name, float *out);
int heap__get_bool(struct heap *h, uint64_t obj, const char *cls, const char *name, bool *out);

struct heap_string {
	uint32_t length; /* in UTF-16 units */
	bool compressed;
	int32_t hash; /* String.hash as stored (0: not computed yet) */
};

/*
 * The java.lang.String at addr as UTF-8 into utf8 (truncated to cap - 1 bytes, always
 * terminated). Returns the bytes written, or -errno: -EINVAL when it is not a plausible string
 * (length over HEAP_MAX_LENGTH, or a stored hash that the characters do not give). info may
 * be NULL.
 */
int heap__string(struct heap *h, uint64_t addr, char *utf8, size_t cap, struct heap_string *info);

/* The length of the array at addr. 0 or -errno (-EINVAL: negative or over HEAP_MAX_LENGTH). */
int heap__array_length(struct heap *h, uint64_t addr, uint32_t *len);

/* n elements of elem_size bytes (1, 2, 4, 8) from index first of the array at addr. 0 or
 * -errno (-ERANGE: past its length). */
int heap__array_read(struct heap *h, uint64_t addr, uint32_t elem_size, uint32_t first, uint32_t n,
		     void *out);

/* The elements of the java.util.ArrayList at addr (its elementData up to size): copies up to
 * max references into out and returns the list's size, or -errno. */
int heap__arraylist(struct heap *h, uint64_t addr, uint32_t *out, uint32_t max);

/* The referent of the java.lang.ref.Reference (e.g. a WeakReference) at addr (0: cleared). */
int heap__referent(struct heap *h, uint64_t addr, uint32_t *out);

/*
 * The descriptor of the class of the object at obj ("Landroid/animation/ObjectAnimator;",
 * "[F"), valid until heap__free; cached per class pointer. The class object must look like
 * one (its klass_ is java.lang.Class, whose klass_ is itself). Arrays are named from their
 * componentType, classes with a name_ from it, the others from Class.dexTypeIndex in the dex
 * that Class.dexCache's location names: a dex added to the layout under that location, else
 * the file itself, opened and added. 0 or -errno (-ENOENT: no dex or name, -EINVAL:
 * implausible).
 */
int heap__class_of(struct heap *h, uint64_t obj, const char **descriptor);

/* 1 when the object at obj is an instance of cls or of a subclass, 0 when not, or -errno. */
int heap__is_a(struct heap *h, uint64_t obj, const char *cls);

#endif

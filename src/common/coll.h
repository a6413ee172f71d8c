/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The engine's collections: a pointer hash table (deletion by sweeping), and growable arrays. */
#ifndef ANIMTRACE_COLL_H
#define ANIMTRACE_COLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hslot {
	uint64_t h;
	void *v; /* NULL: empty */
};

/* Zero-initialised is an empty table. */
struct htab {
	struct hslot *s;
	size_t cap, cnt; /* cap is 0 or a power of two */
};

typedef bool (*htab_eq_fn)(const void *v, const void *key);

/* A 64-bit finaliser (murmur3 fmix64): spreads ids over the table. */
uint64_t hash_mix64(uint64_t x);

/* FNV-1a of s, mixed. */
uint64_t hash_str(const char *s, uint64_t seed);

/* The value with hash h for which eq(value, key) holds, or NULL. */
void *htab_find(const struct htab *t, uint64_t h, htab_eq_fn eq, const void *key);

/* Adds v (not already present) under h; the load factor stays at or under one half.
 * Returns 0 or -ENOMEM. */
int htab_add(struct htab *t, uint64_t h, void *v);

/*
 * Removes every value for which drop(v, ctx) returns true (drop frees it); the rest keep
 * their place in a rebuilt table. Returns how many were removed, or -ENOMEM (nothing
 * removed).
 */
long htab_sweep(struct htab *t, bool (*drop)(void *v, void *ctx), void *ctx);

/* free()s every value and the slots; the table is left unusable until zeroed. */
void htab_free_values(struct htab *t);

/* Appends an elem-sized item to the growable array *arr; returns the new slot or NULL. */
void *vec_push(void **arr, size_t *n, size_t *cap, size_t elem);

#endif

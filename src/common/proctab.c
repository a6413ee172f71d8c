// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Open addressing with linear probing; ids are never 0 (pid 0 is the idle task). Bounded by
 * CAP_PROC_IDS: a full table evicts by CLOCK (a hand sweeps the slots, sparing once each entry
 * set since it last passed), O(1) amortised.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/caps.h"
#include "common/proctab.h"

struct slot {
	uint32_t id; /* 0: empty */
	uint32_t tgid;
	char name[PROCTAB_NAME_MAX];
	uint8_t ref; /* set since the hand last passed */
};

struct proctab {
	struct slot *slots;
	size_t cap, used; /* cap is a power of two */
	size_t hand;	  /* the CLOCK hand: the next slot it looks at */
	uint64_t evicted;
};

static size_t hash(uint32_t id, size_t cap)
{
	return (id * 2654435761u) & (cap - 1);
}

static struct slot *find(const struct proctab *t, uint32_t id)
{
	for (size_t i = hash(id, t->cap);; i = (i + 1) & (t->cap - 1)) {
		if (t->slots[i].id == id)
			return &t->slots[i];
		if (!t->slots[i].id)
			return NULL;
	}
}

struct proctab *proctab__new(void)
{
	struct proctab *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = 256;
	t->slots = calloc(t->cap, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void proctab__free(struct proctab *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t);
}

static int grow(struct proctab *t)
{
	struct slot *old = t->slots;
	size_t old_cap = t->cap;

	t->slots = calloc(old_cap * 2, sizeof(*t->slots));
	if (!t->slots) {
		t->slots = old;
		return -ENOMEM;
	}
	t->cap = old_cap * 2;
	for (size_t i = 0; i < old_cap; i++) {
		if (!old[i].id)
			continue;
		size_t j = hash(old[i].id, t->cap);

		while (t->slots[j].id)
			j = (j + 1) & (t->cap - 1);
		t->slots[j] = old[i];
	}
	free(old);
	return 0;
}

/* The table is full: forget the first entry the hand finds not set since it last passed. */
static void evict_one(struct proctab *t)
{
	for (;;) {
		struct slot *s = &t->slots[t->hand];

		t->hand = (t->hand + 1) & (t->cap - 1);
		if (!s->id)
			continue;
		if (s->ref) {
			s->ref = 0;
			continue;
		}
		proctab__remove(t, s->id);
		t->evicted++;
		return;
	}
}

static struct slot *get_or_add(struct proctab *t, uint32_t id)
{
	struct slot *s = find(t, id);

	if (s) {
		s->ref = 1;
		return s;
	}
	if (t->used >= CAP_PROC_IDS)
		evict_one(t);
	if ((t->used + 1) * 4 > t->cap * 3 && grow(t))
		return NULL;
	size_t i = hash(id, t->cap);

	while (t->slots[i].id)
		i = (i + 1) & (t->cap - 1);
	/* An emptied slot still holds the name and tgid of the id that left it. */
	t->slots[i] = (struct slot){ .id = id, .ref = 1 };
	t->used++;
	return &t->slots[i];
}

int proctab__set_name(struct proctab *t, uint32_t id, const char *name, size_t len)
{
	struct slot *s = id ? get_or_add(t, id) : NULL;

	if (!s)
		return id ? -ENOMEM : -EINVAL;
	if (len >= PROCTAB_NAME_MAX)
		len = PROCTAB_NAME_MAX - 1;
	memcpy(s->name, name, len);
	s->name[len] = '\0';
	return 0;
}

/* An entry found is marked set, as get_or_add marks it. */
static struct slot *touch(struct slot *s)
{
	s->ref = 1;
	return s;
}

int proctab__learn(struct proctab *t, uint32_t id, uint32_t tgid, const char *name, size_t len,
		   bool replace)
{
	struct slot *s = id ? find(t, id) : NULL;
	int err = 0;

	if (!id)
		return -EINVAL;
	if (len && (replace || !s || !s->name[0])) {
		s = s ? touch(s) : get_or_add(t, id);
		if (s) {
			if (len >= PROCTAB_NAME_MAX)
				len = PROCTAB_NAME_MAX - 1;
			memcpy(s->name, name, len);
			s->name[len] = '\0';
		} else {
			err = -ENOMEM;
		}
	}
	if (tgid) {
		s = s ? touch(s) : get_or_add(t, id);
		if (s)
			s->tgid = tgid;
		else
			err = -ENOMEM;
	}
	return err;
}

int proctab__set_tgid(struct proctab *t, uint32_t id, uint32_t tgid)
{
	struct slot *s = id ? get_or_add(t, id) : NULL;

	if (!s)
		return id ? -ENOMEM : -EINVAL;
	s->tgid = tgid;
	return 0;
}

const char *proctab__name(const struct proctab *t, uint32_t id)
{
	const struct slot *s = id ? find(t, id) : NULL;

	return s && s->name[0] ? s->name : NULL;
}

uint32_t proctab__tgid(const struct proctab *t, uint32_t id)
{
	const struct slot *s = id ? find(t, id) : NULL;

	return s ? s->tgid : 0;
}

void proctab__remove(struct proctab *t, uint32_t id)
{
	struct slot *s = id ? find(t, id) : NULL;

	if (!s)
		return;
	/* Backward-shift deletion keeps probe chains intact without tombstones. */
	size_t i = (size_t)(s - t->slots), j = i;

	t->slots[i].id = 0;
	t->used--;
	for (;;) {
		j = (j + 1) & (t->cap - 1);
		if (!t->slots[j].id)
			return;
		size_t k = hash(t->slots[j].id, t->cap);

		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			t->slots[i] = t->slots[j];
			t->slots[j].id = 0;
			i = j;
		}
	}
}

uint64_t proctab__evicted(const struct proctab *t)
{
	return t->evicted;
}

void proctab__for_each(const struct proctab *t,
		       void (*fn)(void *ctx, uint32_t id, const char *name), void *ctx)
{
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].id && t->slots[i].name[0])
			fn(ctx, t->slots[i].id, t->slots[i].name);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ART instance field layout. The two algorithms follow AOSP art/runtime/class_linker.cc:
 *   - android-11.0.0_r1 (same since android-7.0.0_r1): LinkFieldsComparator, AddFieldGap,
 *     ShuffleForward<n> over a std::priority_queue<FieldGap> ordered by FieldGapsComparator
 *     (bigger gap first, then lower offset);
 *   - android-14.0.0_r1 (same since android-12.0.0_r1, to android-15.0.0_r1):
 *     ClassLinker::LinkFieldsHelper::LinkFields, FieldGaps::AlignFieldOffset/AddGaps/
 *     HasGap/ReleaseGap (at most one gap of each size, the smallest fitting one first).
 * Field order is the same in both: references, then by FieldTypeOrder (J, D, I, F, C, S, Z, B),
 * ties by field index, which is dex field order (dex sorts a class's fields by name then type).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/coll.h"
#include "symbols/artlayout.h"

#define NO_GAP 0xffffffffu
#define MAX_DEPTH 64 /* superclass chain; a deeper one is treated as a loop */

/* FieldTypeOrder of LinkFieldsHelper: references, then the primitives largest first. */
static int type_order(char c)
{
	static const char order[] = "LJDIFCSZB";
	const char *p;

	if (c == '[')
		return 0;
	p = c ? strchr(order, c) : NULL;
	return p ? (int)(p - order) : -1;
}

static uint32_t type_size(int order)
{
	static const uint8_t size[] = { 4, 8, 8, 4, 4, 2, 2, 1, 1 };

	return size[order];
}

static uint32_t round_up(uint32_t x, uint32_t n)
{
	return (x + n - 1) & ~(n - 1);
}

struct slot {
	int order;
	uint32_t index;
};

static int slot_cmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->order != y->order)
		return x->order - y->order;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* ---- Android 12+: LinkFieldsHelper::FieldGaps ------------------------------------------------ */

struct gaps12 {
	uint32_t g4, g2, g1;
};

/* AddGaps<mask>(start, end): the aligned pieces of [start, end) as the 1-, 2- and 4-byte gap. */
static void add_gaps12(struct gaps12 *g, unsigned mask, uint32_t start, uint32_t end)
{
	if ((mask & 1) && (start & 1)) {
		g->g1 = start++;
		if (mask == 1 || start == end)
			return;
	}
	if ((mask & 2) && (start & 2)) {
		g->g2 = start;
		start += 2;
		if (mask <= 3 || start == end)
			return;
	}
	if ((mask & 4) && start < end)
		g->g4 = start;
}

static uint32_t align12(struct gaps12 *g, uint32_t off, uint32_t size)
{
	uint32_t up = round_up(off, size);

	if (up != off)
		add_gaps12(g, size - 1, off, up);
	return up;
}

static bool has_gap12(const struct gaps12 *g, uint32_t size)
{
	return (size == 1 && g->g1 != NO_GAP) || (size <= 2 && g->g2 != NO_GAP) || g->g4 != NO_GAP;
}

static uint32_t release_gap12(struct gaps12 *g, uint32_t size)
{
	uint32_t r;

	if (size == 1 && g->g1 != NO_GAP) {
		r = g->g1;
		g->g1 = NO_GAP;
	} else if (size <= 2 && g->g2 != NO_GAP) {
		r = g->g2;
		g->g2 = NO_GAP;
		if (size < 2)
			add_gaps12(g, 1, r + size, r + 2);
	} else {
		r = g->g4;
		g->g4 = NO_GAP;
		if (size < 4)
			add_gaps12(g, size | 2, r + size, r + 4);
	}
	return r;
}

static uint32_t layout12(const struct slot *s, uint32_t n, uint32_t off, uint32_t *offsets)
{
	struct gaps12 g = { NO_GAP, NO_GAP, NO_GAP };
	uint32_t i = 0;

	if (i < n && s[i].order == 0) {
		off = align12(&g, off, 4);
		for (; i < n && s[i].order == 0; i++, off += 4)
			offsets[s[i].index] = off;
	}
	if (i < n && type_size(s[i].order) == 8) {
		off = align12(&g, off, 8);
		for (; i < n && type_size(s[i].order) == 8; i++, off += 8)
			offsets[s[i].index] = off;
	}
	if (i < n && type_size(s[i].order) == 4) {
		off = align12(&g, off, 4);
		if (has_gap12(&g, 4))
			offsets[s[i++].index] = release_gap12(&g, 4);
		for (; i < n && type_size(s[i].order) == 4; i++, off += 4)
			offsets[s[i].index] = off;
	}
	if (i < n && type_size(s[i].order) == 2) {
		off = align12(&g, off, 2);
		for (; i < n && type_size(s[i].order) == 2 && has_gap12(&g, 2); i++)
			offsets[s[i].index] = release_gap12(&g, 2);
		for (; i < n && type_size(s[i].order) == 2; i++, off += 2)
			offsets[s[i].index] = off;
	}
	for (; i < n && has_gap12(&g, 1); i++)
		offsets[s[i].index] = release_gap12(&g, 1);
	for (; i < n; i++, off++)
		offsets[s[i].index] = off;
	return off;
}

/* ---- Android 7 to 11: FieldGaps priority queue and ShuffleForward -------------------------- */

/* Gaps come from aligning at most four times and splitting: a handful at most. */
#define MAX_GAPS7 32

struct gap7 {
	uint32_t start, size;
};

struct gaps7 {
	struct gap7 g[MAX_GAPS7];
	int n;
};

/* AddFieldGap: [start, end) as aligned 4-, 2- and 1-byte pieces. */
static void add_gap7(struct gaps7 *q, uint32_t start, uint32_t end)
{
	while (start != end && q->n < MAX_GAPS7) {
		uint32_t rem = end - start, size = 1;
		if (rem >= 4 && start % 4 == 0)
			size = 4;
		else if (rem >= 2 && start % 2 == 0)
			size = 2;
		q->g[q->n++] = (struct gap7){ start, size };
		start += size;
	}
}

/* The top of the priority queue (FieldGapsComparator): largest size, then lowest offset. */
static int top7(const struct gaps7 *q)
{
	int best = -1;

	for (int i = 0; i < q->n; i++)
		if (best < 0 || q->g[i].size > q->g[best].size ||
		    (q->g[i].size == q->g[best].size && q->g[i].start < q->g[best].start))
			best = i;
	return best;
}

static uint32_t layout7(const struct slot *s, uint32_t n, uint32_t off, uint32_t *offsets)
{
	struct gaps7 q = { .n = 0 };
	uint32_t i = 0;

	for (; i < n && s[i].order == 0; i++, off += 4) {
		if (off % 4) {
			add_gap7(&q, off, round_up(off, 4));
			off = round_up(off, 4);
		}
		offsets[s[i].index] = off;
	}
	for (uint32_t size = 8; size >= 1; size /= 2) {
		for (; i < n && type_size(s[i].order) >= size; i++) {
			int t;
			if (off % size) {
				add_gap7(&q, off, round_up(off, size));
				off = round_up(off, size);
			}
			t = top7(&q);
			if (t >= 0 && q.g[t].size >= size) {
				struct gap7 gap = q.g[t];
				q.g[t] = q.g[--q.n];
				offsets[s[i].index] = gap.start;
				add_gap7(&q, gap.start + size, gap.start + gap.size);
			} else {
				offsets[s[i].index] = off;
				off += size;
			}
		}
	}
	return off;
}

int art_rules_for_sdk(int sdk)
{
	if (sdk >= 31)
		return ART_RULES_12;
	if (sdk >= 24)
		return ART_RULES_7;
	return -ENOTSUP;
}

int art_layout_fields(enum art_rules rules, uint32_t start, const char *const *types, uint32_t n,
		      uint32_t *offsets, uint32_t *end)
{
	struct slot *s;

	if (rules != ART_RULES_7 && rules != ART_RULES_12)
		return -EINVAL;
	s = calloc(n ? n : 1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		s[i].order = types[i] ? type_order(types[i][0]) : -1;
		s[i].index = i;
		if (s[i].order < 0) {
			free(s);
			return -EINVAL;
		}
	}
	qsort(s, n, sizeof(*s), slot_cmp);
	*end = rules == ART_RULES_12 ? layout12(s, n, start, offsets) :
				       layout7(s, n, start, offsets);
	free(s);
	return 0;
}

/* ---- classes from dex files ------------------------------------------------------------------ */

struct dex_entry {
	struct dex *dex;
	char *location;
};

struct layout_class {
	struct art_class c;
	char *descriptor;
	struct art_field *fields;
};

struct artlayout {
	enum art_rules rules;
	struct dex_entry *dexes;
	size_t n_dexes, cap_dexes;
	struct htab classes; /* struct layout_class by descriptor */
};

struct artlayout *artlayout__new(enum art_rules rules)
{
	struct artlayout *l;

	if (rules != ART_RULES_7 && rules != ART_RULES_12) {
		errno = EINVAL;
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->rules = rules;
	return l;
}

static void drop_class(struct layout_class *lc)
{
	free(lc->descriptor);
	free(lc->fields);
	free(lc);
}

void artlayout__free(struct artlayout *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->classes.cap; i++)
		if (l->classes.s[i].v)
			drop_class(l->classes.s[i].v);
	free(l->classes.s);
	for (size_t i = 0; i < l->n_dexes; i++) {
		dex__free(l->dexes[i].dex);
		free(l->dexes[i].location);
	}
	free(l->dexes);
	free(l);
}

enum art_rules artlayout__rules(const struct artlayout *l)
{
	return l->rules;
}

int artlayout__add_dex(struct artlayout *l, struct dex *d, const char *location)
{
	char *loc = strdup(location);
	struct dex_entry *e =
		loc ? vec_push((void **)&l->dexes, &l->n_dexes, &l->cap_dexes, sizeof(*e)) : NULL;

	if (!e) {
		free(loc);
		dex__free(d);
		return -ENOMEM;
	}
	e->dex = d;
	e->location = loc;
	return 0;
}

const struct dex *artlayout__dex(const struct artlayout *l, const char *location)
{
	for (size_t i = 0; i < l->n_dexes; i++)
		if (strcmp(l->dexes[i].location, location) == 0)
			return l->dexes[i].dex;
	return NULL;
}

static bool class_eq(const void *v, const void *key)
{
	return strcmp(((const struct layout_class *)v)->descriptor, key) == 0;
}

/* The instance fields of class def cdi of d laid out from start, into lc. 0 or -errno. */
static int lay_out(const struct artlayout *l, const struct dex *d, uint32_t cdi, uint32_t start,
		   struct layout_class *lc)
{
	struct dex_class_fields cf;
	const char **types = NULL;
	uint32_t *offsets = NULL;
	int err = dex__class_fields(d, cdi, &cf);

	if (err)
		return err;
	lc->c.object_size = start;
	if (!cf.n_instance)
		goto out;
	lc->fields = calloc(cf.n_instance, sizeof(*lc->fields));
	types = calloc(cf.n_instance, sizeof(*types));
	offsets = calloc(cf.n_instance, sizeof(*offsets));
	err = -ENOMEM;
	if (!lc->fields || !types || !offsets)
		goto out;
	for (uint32_t i = 0; i < cf.n_instance; i++) {
		const struct dex_encoded_field *ef = &cf.f[cf.n_static + i];
		struct dex_field_id id;
		err = -EINVAL;
		if (dex__field_id(d, ef->field_idx, &id))
			goto out;
		lc->fields[i].name = dex__string(d, id.name_idx);
		lc->fields[i].type = types[i] = dex__type(d, id.type_idx);
		lc->fields[i].access_flags = ef->access_flags;
		if (!lc->fields[i].name || !types[i] || !dex_descriptor_valid(types[i]))
			goto out;
	}
	err = art_layout_fields(l->rules, start, types, cf.n_instance, offsets, &lc->c.object_size);
	if (err)
		goto out;
	for (uint32_t i = 0; i < cf.n_instance; i++)
		lc->fields[i].offset = offsets[i];
	lc->c.n_fields = cf.n_instance;
	lc->c.fields = lc->fields;
out:
	free(types);
	free(offsets);
	dex_class_fields__release(&cf);
	return err;
}

static const struct art_class *class_at(struct artlayout *l, const char *descriptor, int depth);

/* Builds the layout of descriptor from the first dex defining it. 0 or -errno. */
static int build_class(struct artlayout *l, const char *descriptor, int depth,
		       struct layout_class *lc)
{
	bool object = strcmp(descriptor, "Ljava/lang/Object;") == 0;
	struct dex_class_def cd;

	for (size_t i = 0; i < l->n_dexes; i++) {
		const struct dex *d = l->dexes[i].dex;
		long cdi = dex__find_class(d, descriptor);
		uint32_t start = 0;
		if (cdi < 0)
			continue;
		if (dex__class_def(d, (uint32_t)cdi, &cd))
			return -EINVAL;
		if (cd.superclass_idx != DEX_NO_INDEX) {
			const char *sd = dex__type(d, cd.superclass_idx);
			if (!sd || object)
				return -EINVAL;
			lc->c.super = class_at(l, sd, depth + 1);
			if (!lc->c.super)
				return -errno;
			start = lc->c.super->object_size;
		} else if (!object) {
			return -EINVAL; /* only java.lang.Object has no superclass */
		}
		lc->c.dex = d;
		return lay_out(l, d, (uint32_t)cdi, start, lc);
	}
	/* No dex defines java.lang.Object: its instance fields are the fixed object header
	 * (mirror::Object klass_ and monitor_), 8 bytes. */
	if (object) {
		lc->c.object_size = 8;
		return 0;
	}
	return -ENOENT;
}

static const struct art_class *class_at(struct artlayout *l, const char *descriptor, int depth)
{
	uint64_t h = hash_str(descriptor, 0);
	struct layout_class *lc = htab_find(&l->classes, h, class_eq, descriptor);
	int err;

	if (lc)
		return &lc->c;
	if (depth > MAX_DEPTH) {
		errno = ELOOP;
		return NULL;
	}
	lc = calloc(1, sizeof(*lc));
	if (!lc || !(lc->descriptor = strdup(descriptor))) {
		free(lc);
		errno = ENOMEM;
		return NULL;
	}
	lc->c.descriptor = lc->descriptor;
	err = build_class(l, descriptor, depth, lc);
	if (!err)
		err = htab_add(&l->classes, h, lc);
	if (err) {
		drop_class(lc);
		errno = -err;
		return NULL;
	}
	return &lc->c;
}

const struct art_class *artlayout__class(struct artlayout *l, const char *descriptor)
{
	return class_at(l, descriptor, 0);
}

const struct art_field *artlayout__field(struct artlayout *l, const char *descriptor,
					 const char *name)
{
	const struct art_class *c = artlayout__class(l, descriptor);

	if (!c)
		return NULL;
	for (; c; c = c->super)
		for (uint32_t i = 0; i < c->n_fields; i++)
			if (strcmp(c->fields[i].name, name) == 0)
				return &c->fields[i];
	errno = ENOENT;
	return NULL;
}

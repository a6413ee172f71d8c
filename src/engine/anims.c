// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Animator lifecycles and name statistics: an S starts a run of its (pid, name, cookie) key, its F ends it; ended runs feed the per-name counts, durations and the longest animators. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/anims.h"
#include "engine/state.h"

#define OTHER_NAMES "(other names)" /* the stats row of names beyond CAP_NAMES */

static bool name_eq(const void *v, const void *key)
{
	return !strcmp(((const struct name_acc *)v)->name, key);
}

struct name_acc *name_get(struct engine *e, const char *name)
{
	uint64_t h = hash_str(name, 0);
	struct name_acc *n = htab_find(&e->anims.names, h, name_eq, name);

	if (n)
		return n;
	if (e->anims.n_names >= CAP_NAMES && strcmp(name, OTHER_NAMES)) {
		e->ev.names++;
		return name_get(e, OTHER_NAMES);
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	strcpy(n->name, name);
	struct name_acc **slot = vec_push((void **)&e->anims.name_list, &e->anims.n_names, &e->anims.cap_names,
					  sizeof(*slot));
	if (!slot || htab_add(&e->anims.names, h, n)) {
		if (slot)
			e->anims.n_names--;
		free(n);
		return NULL;
	}
	*slot = n;
	return n;
}

struct key_q {
	uint32_t pid;
	int64_t cookie;
	const struct name_acc *name;
};

static bool key_eq(const void *v, const void *key)
{
	const struct anim_key *k = v;
	const struct key_q *q = key;

	return k->pid == q->pid && k->cookie == q->cookie && k->name == q->name;
}

static bool key_idle(void *v, void *ctx)
{
	struct anim_key *k = v;

	if (k->run)
		return false;
	free(k);
	return true;
}

/* The keys table is full: forget the animators that are not running. */
static void keys_sweep(struct engine *e)
{
	sweep_count(&e->anims.keys, key_idle, NULL, &e->ev.anim_keys);
}

struct anim_key *key_get(struct engine *e, uint32_t pid, struct name_acc *n,
				int64_t cookie)
{
	struct key_q q = { pid, cookie, n };
	uint64_t h = hash_mix64(((uint64_t)pid << 32) ^ (uint64_t)cookie ^ (uintptr_t)n);
	struct anim_key *k = htab_find(&e->anims.keys, h, key_eq, &q);

	if (k)
		return k;
	if (e->anims.keys.cnt >= CAP_ANIM_KEYS)
		keys_sweep(e);
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->pid = pid;
	k->cookie = cookie;
	k->name = n;
	if (htab_add(&e->anims.keys, h, k)) {
		free(k);
		return NULL;
	}
	return k;
}

bool is_animator(struct strv name)
{
	return strv_eq(name, "animator") || strv_starts_with(name, "animator:");
}

/* "animator:a,b" -> kind ObjectAnimator, props {a, b}; names are already truncated. */
void anim_set_name(struct anim *a, const char *name)
{
	const char *p = name + strlen("animator");

	snprintf(a->name, sizeof(a->name), "%s", name);
	a->kind = *p == ':' ? ANIM_OBJECT : ANIM_VALUE;
	a->n_props = 0;
	if (*p != ':')
		return;
	for (p++; *p && a->n_props < AT_MAX_PROPS;) {
		size_t n = strcspn(p, ",");

		if (n) {
			snprintf(a->props[a->n_props], sizeof(a->props[0]), "%.*s", (int)n, p);
			a->n_props++;
		}
		p += n;
		if (*p == ',')
			p++;
	}
}

static void longest_add(struct engine *e, const struct anim *a)
{
	uint64_t d = a->end_ns - a->start_ns;
	int i = e->anims.n_longest < LONGEST_MAX ? e->anims.n_longest++ : LONGEST_MAX;

	/* Ties keep the earlier one first: only strictly longer animators move up. */
	while (i > 0 && e->anims.longest[i - 1].end_ns - e->anims.longest[i - 1].start_ns < d) {
		if (i < LONGEST_MAX)
			e->anims.longest[i] = e->anims.longest[i - 1];
		i--;
	}
	if (i < LONGEST_MAX) {
		e->anims.longest[i] = *a;
		e->anims.longest[i].targets = NULL; /* freed with its run */
		e->anims.longest[i].n_targets = 0;
	}
}

/* Keeps d for the median: all of them up to CAP_DURATIONS, then a uniform sample. */
static void durs_add(struct engine *e, struct name_acc *n, uint64_t d)
{
	uint64_t *slot;

	if (n->seen_durs++ >= CAP_DURATIONS) {
		e->ev.durations++;
		e->anims.rng = e->anims.rng * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t j = (e->anims.rng >> 11) % n->seen_durs;

		if (j < n->n_durs)
			n->durs[j] = d;
		return;
	}
	slot = vec_push((void **)&n->durs, &n->n_durs, &n->cap_durs, sizeof(*slot));
	if (slot)
		*slot = d;
}

void stats_end(struct engine *e, struct name_acc *n, const struct anim *a)
{
	if (a->reason == END_CANCEL || a->reason == END_CANCEL_BEFORE_START)
		n->cancels++;
	if (!a->start_ns)
		return;
	uint64_t d = a->end_ns - a->start_ns;

	durs_add(e, n, d);
	n->total_ns += d;
	n->frames += a->frames;
	if (d > n->max_ns)
		n->max_ns = d;
	longest_add(e, a);
}

/* Takes r off its process's running list (r is not freed). */
void anim_unlink(struct engine *e, struct proc *p, struct anim_run *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		p->anims.running = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		p->anims.running_tail = r->prev;
	r->key->run = NULL;
	p->anims.n_running--;
	e->anims.n_running--;
}

/* Drops the oldest running animator of p, unreported: its F is then ignored. */
static void anim_evict(struct engine *e, struct proc *p)
{
	struct anim_run *r = p->anims.running;

	anim_unlink(e, p, r);
	r->key->evicted = true;
	e->ev.animators++;
	free(r->at.tg);
	free(r);
}

/* Room for one more running animator in p, within both caps. */
void anim_make_room(struct engine *e, struct proc *p)
{
	struct proc *most = p;

	if (p->anims.n_running >= CAP_OPEN_ANIMS_PROC) {
		anim_evict(e, p);
		return;
	}
	if (e->anims.n_running < CAP_OPEN_ANIMS)
		return;
	for (size_t i = 0; i < e->procs.n; i++)
		if (e->procs.list[i]->anims.n_running > most->anims.n_running)
			most = e->procs.list[i];
	anim_evict(e, most);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Animator lifecycles and name statistics (engine/anims.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/anims.h"
#include "engine/attrib.h"
#include "engine/state.h"

#define OTHER_NAMES "(other names)" /* the stats row of names beyond CAP_NAMES */

static bool name_eq(const void *v, const void *key)
{
	return !strcmp(((const struct name_acc *)v)->name, key);
}

struct name_acc *anims__name(struct anims *as, const char *name, struct evictions *ev)
{
	uint64_t h = hash_str(name, 0);
	struct name_acc *n = htab_find(&as->names, h, name_eq, name);

	if (n)
		return n;
	if (as->n_names >= CAP_NAMES && strcmp(name, OTHER_NAMES)) {
		ev->names++;
		return anims__name(as, OTHER_NAMES, ev);
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	strcpy(n->name, name);
	struct name_acc **slot =
		vec_push((void **)&as->name_list, &as->n_names, &as->cap_names, sizeof(*slot));
	if (!slot || htab_add(&as->names, h, n)) {
		if (slot)
			as->n_names--;
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

/* The keys table is full: forget the animators that are not running. */
static bool key_idle(void *v, void *ctx)
{
	struct anim_key *k = v;

	if (k->run)
		return false;
	free(k);
	return true;
}

struct anim_key *anims__key(struct anims *as, uint32_t pid, struct name_acc *n, int64_t cookie,
			    struct evictions *ev)
{
	struct key_q q = { pid, cookie, n };
	uint64_t h = hash_mix64(((uint64_t)pid << 32) ^ (uint64_t)cookie ^ (uintptr_t)n);
	struct anim_key *k = htab_find(&as->keys, h, key_eq, &q);

	if (k)
		return k;
	if (as->keys.cnt >= CAP_ANIM_KEYS)
		sweep_count(&as->keys, key_idle, NULL, &ev->anim_keys);
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->pid = pid;
	k->cookie = cookie;
	k->name = n;
	if (htab_add(&as->keys, h, k)) {
		free(k);
		return NULL;
	}
	return k;
}

bool anims__is_animator(struct strv name)
{
	return strv_eq(name, "animator") || strv_starts_with(name, "animator:");
}

/* "animator:a,b" -> kind ObjectAnimator, props {a, b}; names are already truncated. */
static void anim_set_name(struct anim *a, const char *name)
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

static void longest_add(struct anims *as, const struct anim *a)
{
	uint64_t d = a->end_ns - a->start_ns;
	int i = as->n_longest < LONGEST_MAX ? as->n_longest++ : LONGEST_MAX;

	/* Ties keep the earlier one first: only strictly longer animators move up. */
	while (i > 0 && as->longest[i - 1].end_ns - as->longest[i - 1].start_ns < d) {
		if (i < LONGEST_MAX)
			as->longest[i] = as->longest[i - 1];
		i--;
	}
	if (i < LONGEST_MAX) {
		as->longest[i] = *a;
		as->longest[i].targets = NULL; /* freed with its run */
		as->longest[i].n_targets = 0;
	}
}

/* Keeps d for the median: all of them up to CAP_DURATIONS, then a uniform sample. */
static void durs_add(struct anims *as, struct name_acc *n, uint64_t d, struct evictions *ev)
{
	uint64_t *slot;

	if (n->seen_durs++ >= CAP_DURATIONS) {
		ev->durations++;
		as->rng = as->rng * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t j = (as->rng >> 11) % n->seen_durs;

		if (j < n->n_durs)
			n->durs[j] = d;
		return;
	}
	slot = vec_push((void **)&n->durs, &n->n_durs, &n->cap_durs, sizeof(*slot));
	if (slot)
		*slot = d;
}

void anims__ended(struct anims *as, struct name_acc *n, const struct anim *a, struct evictions *ev)
{
	as->ended++;
	if (a->reason == END_CANCEL || a->reason == END_CANCEL_BEFORE_START)
		n->cancels++;
	if (!a->start_ns)
		return;
	uint64_t d = a->end_ns - a->start_ns;

	durs_add(as, n, d, ev);
	n->total_ns += d;
	n->frames += a->frames;
	if (d > n->max_ns)
		n->max_ns = d;
	longest_add(as, a);
}

/* Takes r off its process's running list (r is not freed). */
static void anim_unlink(struct anims *as, struct anims_proc *ap, struct anim_run *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		ap->running = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		ap->running_tail = r->prev;
	r->key->run = NULL;
	ap->n_running--;
	as->n_running--;
}

void anims__run_free(struct anim_run *r)
{
	attrib__run_free(&r->at);
	free(r);
}

/* Drops the oldest running animator of ap, unreported: its F is then ignored. */
static void anim_evict(struct anims *as, struct anims_proc *ap, uint64_t *evicted)
{
	struct anim_run *r = ap->running;

	anim_unlink(as, ap, r);
	r->key->evicted = true;
	(*evicted)++;
	anims__run_free(r);
}

void anims__make_room(struct anims *as, struct proc *p, struct proc *const *procs, size_t n_procs,
		      uint64_t *evicted)
{
	struct proc *most = p;

	if (p->anims.n_running >= CAP_OPEN_ANIMS_PROC) {
		anim_evict(as, &p->anims, evicted);
		return;
	}
	if (as->n_running < CAP_OPEN_ANIMS)
		return;
	for (size_t i = 0; i < n_procs; i++)
		if (procs[i]->anims.n_running > most->anims.n_running)
			most = procs[i];
	anim_evict(as, &most->anims, evicted);
}

struct anim_run *anims__start(struct anims *as, struct proc *p, struct anim_key *k,
			      const char *name, uint64_t ts_ns, uint32_t tid)
{
	struct anims_proc *ap = &p->anims;
	struct anim_run *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	k->evicted = false;
	anim_set_name(&r->a, name);
	r->a.id = (uint64_t)k->cookie;
	r->a.pid = p->pid;
	r->a.start_tid = tid;
	r->a.start_ns = ts_ns;
	r->a.restarts = k->starts++;
	memcpy(r->a.process, p->name, sizeof(r->a.process));
	r->key = k;
	k->run = r;
	r->prev = ap->running_tail;
	if (ap->running_tail)
		ap->running_tail->next = r;
	else
		ap->running = r;
	ap->running_tail = r;
	ap->n_running++;
	as->n_running++;
	k->name->count++;
	as->started++;
	return r;
}

enum end_reason anims__inferred_reason(const struct anim_run *r, uint64_t ts_ns,
				       uint64_t instant_ns, bool frames_seen)
{
	uint64_t start = r->a.start_ns;
	bool instant = ts_ns - start < instant_ns || ts_ns < start;

	/* frames counts the doFrame open at its S and every one begun after it */
	if (instant || (frames_seen && r->a.frames <= 1))
		return END_FIRST_FRAME;
	return END_ENDED;
}

void anims__stop(struct anims *as, struct proc *p, struct anim_run *r, uint64_t ts_ns, uint32_t tid,
		 enum end_reason reason, enum reason_source source)
{
	anim_unlink(as, &p->anims, r);
	r->a.end_ns = ts_ns < r->a.start_ns ? r->a.start_ns : ts_ns;
	r->a.end_tid = tid;
	r->a.reason = reason;
	r->a.reason_source = source;
	memcpy(r->a.process, p->name, sizeof(r->a.process));
	r->a.refresh_traced = p->redraws.on;
}

bool anims__evicted_end(struct anim_key *k)
{
	if (!k->evicted)
		return false;
	k->evicted = false;
	return true;
}

void anims__cancelled_before_start(struct anim *a, struct anim_key *k, const char *name,
				   const struct proc *p, uint64_t ts_ns, uint32_t tid)
{
	memset(a, 0, sizeof(*a));
	anim_set_name(a, name);
	a->id = (uint64_t)k->cookie;
	a->pid = p->pid;
	a->end_tid = tid;
	a->end_ns = ts_ns;
	a->restarts = k->starts;
	a->reason = END_CANCEL_BEFORE_START;
	a->reason_source = REASON_INFERRED;
	memcpy(a->process, p->name, sizeof(a->process));
	k->name->count++;
}

/* The index of cookie's waiting configuration, or -1. */
static int config_find(const struct anims_proc *ap, int64_t cookie)
{
	for (int i = 0; i < ap->n_configs; i++)
		if ((int64_t)ap->configs[i].cookie == cookie)
			return i;
	return -1;
}

static void config_remove(struct anims_proc *ap, int i)
{
	memmove(ap->configs + i, ap->configs + i + 1,
		(size_t)(ap->n_configs - i - 1) * sizeof(ap->configs[0]));
	ap->n_configs--;
}

int anims__config(struct anims_proc *ap, uint32_t cookie, const struct anim_config *c)
{
	int i = config_find(ap, cookie);

	if (!ap->configs) {
		ap->configs = calloc(CAP_PENDING_STARTS, sizeof(ap->configs[0]));
		if (!ap->configs)
			return -ENOMEM;
	}
	if (i >= 0)
		config_remove(ap, i);
	else if (ap->n_configs == CAP_PENDING_STARTS)
		config_remove(ap, 0);
	ap->configs[ap->n_configs].cookie = cookie;
	ap->configs[ap->n_configs++].c = *c;
	return 0;
}

void anims__take_config(struct anims_proc *ap, int64_t cookie, struct anim *a)
{
	int i = config_find(ap, cookie);

	if (i < 0)
		return;
	a->config = ap->configs[i].c;
	config_remove(ap, i);
}

void anims__proc_free(struct anims_proc *ap)
{
	free(ap->configs);
	ap->configs = NULL;
	ap->n_configs = 0;
	while (ap->running) {
		struct anim_run *r = ap->running;

		ap->running = r->next;
		anims__run_free(r);
	}
}

void anims__free(struct anims *as)
{
	for (size_t i = 0; i < as->n_names; i++)
		free(as->name_list[i]->durs);
	htab_free_values(&as->keys);
	htab_free_values(&as->names);
	free(as->name_list);
}

void anims__running_at_exit(const struct anim_run *r)
{
	r->key->name->running++;
	r->key->name->frames += r->a.frames;
}

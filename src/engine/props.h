/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Property batches and nodes. Every View property change goes into its process's batch (the
 * changes of the doFrame in progress, or since the last one), sent as frame_props when the
 * caller says; each RenderNode remembers its name and last value per property. Owns the node
 * table, the batch and the per-frame write statistics. A full node table says so (-ENOSPC)
 * instead of sending the batch itself. Calls only the segmenter (engine/segment.h).
 */
#ifndef ANIMTRACE_ENGINE_PROPS_H
#define ANIMTRACE_ENGINE_PROPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/coll.h"
#include "model/model.h"

struct emit;
struct proc;
struct segment;

/* A RenderNode of one process: its name and the last value seen per property. */
struct node_st {
	uint64_t node;
	uint64_t uid; /* mUniqueId (live, Android 10+), valid when has_uid */
	bool has_uid;
	char name[64];
	uint32_t known; /* bit per enum view_prop: val[] holds a value seen earlier */
	float val[PROP_COUNT];
	uint64_t gen;		/* the batch generation idx belongs to */
	int idx;		/* slot in that batch, -1 when the batch was full */
	uint64_t redraw_frames; /* --refresh: frames in which it re-recorded (redraws.c's) */
	bool exact;		/* an animator wrote it (animateValue probes): no inferred target */
};

/* What segment.h needs of a node's slot in a batch besides its values. */
struct batch_before {
	float v[PROP_COUNT]; /* each property's value when the batch began */
	uint32_t known;	     /* bit per enum view_prop: v[] holds one */
	uint32_t explained;  /* bit per enum view_prop: a running animator wrote it */
	/* the writers of each property in the batch (findings.h's conflicts): the first write's
	 * animator (first[] when its bit is in first_anim, else code), and a bit per property
	 * written by a second, different writer */
	uint32_t first_anim, multi;
	uint32_t first[PROP_COUNT];
};

/* The property changes of the current frame (or since the last one) of a process. */
struct prop_batch {
	struct frame_props fp;
	struct node_props *nodes;
	struct batch_before *before; /* before[i] goes with nodes[i]; cap_before slots */
	size_t n, cap, cap_before;
	uint64_t gen; /* bumped at every flush, so node_st.idx goes stale without a walk */
};

/* A process's nodes and its batch. */
struct props_proc {
	struct htab nodes; /* node_st by RenderNode pointer */
	struct prop_batch pb;
	size_t *total; /* the nodes of every process (CAP_NODES), or NULL */
	/* a write came inside an animateValue window: the probes watch the process, so a write
	 * outside every window is code that is no animator */
	bool windows;
};

/* Property writes per frame (for the summary), and one frame's changes for segment.h. */
struct props {
	uint64_t frames, sets;
	uint32_t sets_max;
	struct seg_change *seg_buf;
	size_t n_seg_buf, cap_seg_buf;
	size_t nodes; /* in all processes: struct props_proc's total */
};

/* A new process's part: its first batch is generation 1 (nodes of generation 0 are in none).
 * total (may be NULL) counts the nodes of all processes, against CAP_NODES. */
void props__proc_init(struct props_proc *pp, size_t *total);

/* Finds or creates node (named name when not NULL): 0 and *out, or -ENOMEM, or -ENOSPC when
 * the table is full (CAP_NODES_PROC, or CAP_NODES in all) and every node of pp changed in the
 * batch (send it, then call again; -ENOSPC again: pp has no node to give up). */
int props__node(struct props_proc *pp, uint64_t node, const char *name, uint64_t *evicted,
		struct node_st **out);

/* node, or NULL when pp has none. */
struct node_st *props__node_find(struct props_proc *pp, uint64_t node);

/* n has unique id uid: another id than before is another node, of unknown name and values. */
void props__node_id(struct node_st *n, uint64_t uid);

/* prev (NULL: unknown), the value of prop before this write, becomes n's unless one is known. */
void props__prev(struct node_st *n, enum view_prop prop, const float *prev);

/* Adds the write of prop = value to n (by tid at ts_ns; writer's, or the DynamicAnimation
 * run dyn's when not 0) to p's batch: last value
 * wins, the value before the batch is kept and each write with its writer (AT_PROP_WRITES per
 * property, the others counted in ev->prop_writes); nodes past CAP_FRAME_NODES in
 * ev->node_frames. */
void props__add(struct proc *p, struct node_st *n, uint64_t ts_ns, uint32_t tid,
		enum view_prop prop, float value, const uint32_t *writer, uint64_t dyn,
		struct evictions *ev);

/* True when n's prop was written by more than one writer (animators, or an animator and code)
 * in pp's current batch; when the writers are unknown (no animateValue window seen in the
 * process), when it was written more than once (what one ObjectAnimator never does). */
bool props__shared(const struct props_proc *pp, const struct node_st *n, enum view_prop prop);

/* n's prop becomes value, once the batch and attribution read the old one; explained: an
 * animator wrote it (no unmarked animation). */
void props__set(struct props_proc *pp, struct node_st *n, enum view_prop prop, float value,
		bool explained);

/* The open frame f of process, ending at ts_ns, after missed vsyncs (in time), goes to seg
 * with the changes of pp's batch. */
void props__segment(struct props *ps, const struct props_proc *pp, const struct frame *f,
		    uint32_t missed, const char *process, uint64_t ts_ns, struct segment *seg);

/* Sends pp's batch as frame_props of process (AT_PROC_MAX bytes, a struct proc's name) and
 * starts the next; false when it was empty. */
bool props__flush(struct props *ps, struct props_proc *pp, const char *process, struct emit *out);

/* Frees what pp holds. */
void props__proc_free(struct props_proc *pp);

/* Frees what ps holds. */
void props__free(struct props *ps);

#endif

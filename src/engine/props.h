/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Property batches (the changes of one frame of a process) and the RenderNodes they change. */
#ifndef ANIMTRACE_ENGINE_PROPS_H
#define ANIMTRACE_ENGINE_PROPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/coll.h"
#include "model/model.h"

struct emit;
struct segment;
struct engine;
struct proc;

/* A RenderNode of one process: its name and the last value seen per property. */
struct node_st {
	uint64_t node;
	uint64_t uid;   /* mUniqueId (live, Android 10+), valid when has_uid */
	bool has_uid;
	char name[64];
	uint32_t known; /* bit per enum view_prop: val[] holds a value seen earlier */
	float val[PROP_COUNT];
	uint64_t gen;   /* the batch generation idx belongs to */
	int idx;        /* slot in that batch, -1 when the batch was full */
	uint64_t redraw_frames; /* --refresh: frames in which it re-recorded (redraws.c's) */
};

/* What segment.h needs of a node's slot in a batch besides its values. */
struct batch_before {
	float v[PROP_COUNT]; /* each property's value when the batch began */
	uint32_t known;      /* bit per enum view_prop: v[] holds one */
	uint32_t explained;  /* bit per enum view_prop: a running animator wrote it */
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
};

/* Property writes per frame (for the summary), and one frame's changes for segment.h. */
struct props {
	uint64_t frames, sets;
	uint32_t sets_max;
	struct seg_change *seg_buf;
	size_t n_seg_buf, cap_seg_buf;
};

/*
 * Sends pp's batch of process as frame_props (if any change is in it), counts it for the
 * summary and starts the next one. True when a batch was sent.
 */
bool props__flush(struct props *ps, struct props_proc *pp, const char *process,
		  struct emit *out);
/* node in pp, or NULL when it has none. */
struct node_st *props__node_find(struct props_proc *pp, uint64_t node);

/*
 * Finds or creates node in pp (named name when not NULL). -ENOSPC: the table is full
 * (CAP_NODES_PROC) and every node in it changed in the current batch: send the batch
 * (props__flush) and call again; nodes that did not are forgotten (counted in *evicted).
 * -ENOMEM, else 0 and *out.
 */
int props__node(struct props_proc *pp, uint64_t node, const char *name, uint64_t *evicted,
		struct node_st **out);
/* The open frame f of process (ending at ts_ns) goes to the segmenter with its changes in
 * pp's batch (not sent yet). */
void props__segment(struct props *ps, const struct props_proc *pp, const struct frame *f,
		    const char *process, uint64_t ts_ns, struct segment *seg);

/* A new process's: its first batch is generation 1 (a node of generation 0 is in none). */
void props__proc_init(struct props_proc *pp);

/* Frees what pp holds. */
void props__proc_free(struct props_proc *pp);

/* Frees what ps holds. */
void props__free(struct props *ps);

/* prev (NULL: unknown) is the value prop of n had before this write: it is the last one known
 * of it unless one is known already. */
void props__prev(struct node_st *n, enum view_prop prop, const float *prev);

/*
 * The write of value to prop of n by thread tid at ts_ns (writer: its animator's cookie, or
 * NULL) goes into p's batch: the first change of a batch fixes its header (the open doFrame,
 * or this change), a node's slot keeps its value before the batch, the last value wins and
 * writes are counted. Nodes beyond CAP_FRAME_NODES in a batch are counted in *evicted.
 */
void props__add(struct proc *p, struct node_st *n, uint64_t ts_ns, uint32_t tid,
		enum view_prop prop, float value, const uint32_t *writer, uint64_t *evicted);

/* n's prop is now value (after props__add and attribution read the old one); explained: an
 * animator wrote it, so the segmenter takes it for no unmarked animation. */
void props__set(struct props_proc *pp, struct node_st *n, enum view_prop prop, float value,
		bool explained);

/* n has unique id uid: another id than before means another node at its address, whose name
 * and values are unknown. */
void props__node_id(struct node_st *n, uint64_t uid);

#endif

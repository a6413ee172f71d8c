/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The View class of each RenderNode a traced process writes, read once from that process's
 * memory (RenderNode::mName, a String8 holding the simple class name) and cached per
 * (pid, node, unique id) in a bounded cache. Live side only: the engine gets names as data.
 */
#ifndef ANIMTRACE_NODENAMES_H
#define ANIMTRACE_NODENAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/hwui.h"
#include "model/model.h"

#define NODENAME_MAX 128 /* bytes of a class name, NUL excluded */

/* Reads len bytes of pid's memory at addr into buf: bytes read (may be short) or -errno. */
typedef long (*nodenames_read_fn)(void *ctx, uint32_t pid, uint64_t addr, void *buf, size_t len);

/* Why a node has no class name (its label falls back to RenderNode@xxxx). */
enum nodename_status {
	NODENAME_OK = 0,
	NODENAME_NO_OFFSET,  /* the library's mName offset could not be decoded */
	NODENAME_UNREADABLE, /* the node or its string could not be read */
	NODENAME_NOT_CLASS,  /* the string is no Java simple class name */
	NODENAME_GONE,	     /* the memory already held another node (a new unique id) */
};

struct nodename {
	const char *name; /* the class, or NULL (valid until the next call) */
	enum nodename_status status;
	bool fresh; /* read now, not from the cache */
};

struct nodenames;

/*
 * A cache of cap entries (0: CAP_NODE_NAMES). read NULL: process_vm_readv, falling back to
 * <proc_root>/<pid>/mem (proc_root NULL: "/proc"). Returns NULL and sets errno.
 */
struct nodenames *nodenames__new(nodenames_read_fn read, void *ctx, const char *proc_root,
				 size_t cap);

/*
 * The class of node (tag bits allowed) in pid, whose library has layout lay (NULL: none
 * known). has_uid: uid is the node's mUniqueId as the probe read it; a uid other than the
 * cached one means another node now lives there and is read again.
 */
void nodenames__get(struct nodenames *nn, uint32_t pid, uint64_t node, bool has_uid, uint64_t uid,
		    const struct hwui_node_layout *lay, struct nodename *out);

/* pid exited: its entries are dropped (a later process may reuse the pid). */
void nodenames__forget(struct nodenames *nn, uint32_t pid);

/* Nodes named and not named, by reason, and entries evicted, since creation. */
void nodenames__stats(const struct nodenames *nn, struct node_name_stats *out);

/* True when s (n bytes) is a Java simple class name: [A-Za-z_$][A-Za-z0-9_$]*, 1..128. */
bool nodename_is_class(const char *s, size_t n);

/* "not a class name", ... for the user. */
const char *nodename_strerror(enum nodename_status st);

/* Accepts NULL. */
void nodenames__free(struct nodenames *nn);

#endif

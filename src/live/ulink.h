/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Uprobe links: one BPF program at one or more offsets of one file, for one process. Where the
 * kernel has uprobe_multi links (6.6+, filtering by process since 6.10) they are one link
 * whose detach waits for one grace period; elsewhere one perf-event uprobe per offset, and
 * the kernel detaches those one at a time (each under its global event_mutex, ~90 ms apiece
 * on 6.18). libbpf 1.1 knows only the latter: the former is made with the bpf() syscall.
 */
#ifndef ANIMTRACE_ULINK_H
#define ANIMTRACE_ULINK_H

#include <stdbool.h>
#include <stdint.h>

struct bpf_program;
struct ulink;

/* Whether this kernel has uprobe_multi links that filter by process (probed once). */
bool ulink_multi_supported(void);

/*
 * Marks prog (not loaded yet) for uprobe_multi links: a program loaded so attaches only that
 * way, and one loaded without attaches only the other. 0 or -errno.
 */
int ulink_prepare_multi(struct bpf_program *prog);

/*
 * Attaches prog (loaded; prepared for multi or not) at the n offsets of path, entry or return
 * probes, firing for process pid only. Returns NULL and sets errno.
 */
struct ulink *ulink__attach(const struct bpf_program *prog, bool multi, bool retprobe, int pid,
			    const char *path, const uint64_t *offsets, int n);

/* Uprobes held: n of its ulink__attach. */
int ulink__count(const struct ulink *l);

/* Detaches links[0..n) together, on threads, and frees them; NULL entries are skipped. */
void ulinks__free(struct ulink **links, int n);

#endif

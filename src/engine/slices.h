/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* B/E slices per thread and their chains of longest children (the causes of jank). */
#ifndef ANIMTRACE_ENGINE_SLICES_H
#define ANIMTRACE_ENGINE_SLICES_H

#include "engine/state.h"

void thread_window_reset(struct thread *t);
void chain_of(struct slice_chain *c, const struct slice *s, uint64_t dur);
void chain_offer(struct thread *t, const struct slice *s, uint64_t dur);
void slice_classify(struct strv name, struct slice *s);

#endif

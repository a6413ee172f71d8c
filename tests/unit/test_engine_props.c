// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The property tracker's node table (src/engine/props.h): full is said to the caller, which
 * decides to send the batch; the tracker never sends it on its own. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/caps.h"
#include "engine/props.h"
#include "engine/state.h"

static struct proc *p;
static struct props ps;
static struct emit out; /* no sink: records go nowhere */
static uint64_t evicted;
static struct evictions ev;

static void setup(void)
{
	p = calloc(1, sizeof(*p));
	cr_assert_not_null(p);
	p->pid = 10;
	snprintf(p->name, sizeof(p->name), "com.example");
	props__proc_init(&p->props, NULL);
	evicted = 0;
	memset(&ev, 0, sizeof(ev));
}

static void teardown(void)
{
	props__proc_free(&p->props);
	props__free(&ps);
	free(p);
}

TestSuite(engine_props, .init = setup, .fini = teardown);

/* Fills the node table with CAP_NODES_PROC nodes, written in the current batch or not. */
static void fill(bool written)
{
	struct node_st *n;

	for (uint64_t i = 1; i <= CAP_NODES_PROC; i++) {
		cr_assert_eq(props__node(&p->props, i * 16, NULL, &evicted, &n), 0);
		if (written)
			props__add(p, n, i, 10, PROP_ALPHA, 0.5f, NULL, 0, &ev);
	}
}

Test(engine_props, a_full_table_whose_nodes_all_changed_in_the_batch_says_enospc)
{
	struct node_st *n = NULL;

	fill(true);
	cr_assert_eq(props__node(&p->props, 0xbeef0, NULL, &evicted, &n), -ENOSPC);
	cr_assert_eq(evicted, 0, "nothing is forgotten while every node is in the batch");
	cr_assert_eq(p->props.pb.n, CAP_FRAME_NODES, "the batch is not sent behind the caller");
}

Test(engine_props, after_the_caller_sends_the_batch_the_node_is_made)
{
	struct node_st *n = NULL;

	fill(true);
	cr_assert_eq(props__node(&p->props, 0xbeef0, NULL, &evicted, &n), -ENOSPC);
	cr_assert(props__flush(&ps, &p->props, p->name, &out));
	cr_assert_eq(props__node(&p->props, 0xbeef0, "Probe", &evicted, &n), 0);
	cr_assert_not_null(n);
	cr_assert_str_eq(n->name, "Probe");
	cr_assert_eq(evicted, CAP_NODES_PROC);
	cr_assert_eq(ps.frames, 0, "a batch outside any doFrame is no frame of the summary");
}

Test(engine_props, a_full_table_forgets_the_nodes_outside_the_batch_by_itself)
{
	struct node_st *n = NULL;

	fill(false);
	cr_assert_eq(props__node(&p->props, 0xbeef0, NULL, &evicted, &n), 0);
	cr_assert_eq(evicted, CAP_NODES_PROC);
}

Test(engine_props, an_empty_batch_is_not_sent)
{
	cr_assert_not(props__flush(&ps, &p->props, p->name, &out));
}

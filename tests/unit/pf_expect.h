/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What the unit tests of the Perfetto reader expect of its print events. */
#ifndef ANIMTRACE_TESTS_PF_EXPECT_H
#define ANIMTRACE_TESTS_PF_EXPECT_H

#include <criterion/criterion.h>

#include "replay/pftrace.h"

/* Print event i of t is buf, written by tid at ts. */
static inline void expect_print(const struct pftrace *t, size_t i, uint64_t ts, int32_t tid,
				const char *buf)
{
	struct pf_print p;

	cr_assert_eq(pftrace__print(t, i, &p), 0, "print %zu missing", i);
	cr_assert_eq(p.ts_ns, ts, "print %zu: ts %llu", i, (unsigned long long)p.ts_ns);
	cr_assert_eq(p.tid, tid, "print %zu: tid %d", i, p.tid);
	cr_assert(strv_eq(p.buf, buf), "print %zu: \"%.*s\"", i, (int)p.buf.len, p.buf.p);
}

#endif

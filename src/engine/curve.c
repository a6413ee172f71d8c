// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "engine/curve.h"

#include <string.h>

/* A full curve keeps its first sample and every other one of the rest. */
static void curve_halve(struct curve *c)
{
	for (int i = 1; i < CAP_SEG_SAMPLES / 2; i++)
		c->s[i] = c->s[2 * i];
	c->n = CAP_SEG_SAMPLES / 2;
	c->stride *= 2;
}

void curve__add(struct curve *c, uint64_t t_ns, float v)
{
	struct fit_sample smp = { t_ns, v };

	if (c->n && c->tail.t_ns == t_ns) {
		if (c->s[c->n - 1].t_ns == t_ns)
			c->s[c->n - 1].v = v;
		c->tail.v = v;
		return;
	}
	c->tail = smp;
	if (!c->n) {
		c->s[c->n++] = smp;
		c->stride = 1;
		return;
	}
	if (++c->added % c->stride)
		return;
	if (c->n == CAP_SEG_SAMPLES)
		curve_halve(c);
	if (c->added % c->stride == 0)
		c->s[c->n++] = smp;
}

size_t curve__samples(const struct curve *c, struct fit_sample *out)
{
	size_t n = c->n;

	memcpy(out, c->s, n * sizeof(*out));
	if (n && out[n - 1].t_ns != c->tail.t_ns)
		out[n++] = c->tail;
	return n;
}

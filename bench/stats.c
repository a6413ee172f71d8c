// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Samples and their order statistics, see stats.h. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "stats.h"

void samples_add(struct samples *s, double x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		double *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			bench_fail("out of memory");
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
}

void samples_free(struct samples *s)
{
	free(s->v);
	*s = (struct samples){ 0 };
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A sorted copy; the samples themselves stay in run order. */
static double *sorted(const struct samples *s)
{
	double *v = malloc((s->n ? s->n : 1) * sizeof(*v));

	if (!v)
		bench_fail("out of memory");
	memcpy(v, s->v, s->n * sizeof(*v));
	qsort(v, s->n, sizeof(*v), cmp_double);
	return v;
}

double samples_min(const struct samples *s)
{
	double m = s->n ? s->v[0] : 0;

	for (size_t i = 1; i < s->n; i++)
		m = s->v[i] < m ? s->v[i] : m;
	return m;
}

double samples_max(const struct samples *s)
{
	double m = s->n ? s->v[0] : 0;

	for (size_t i = 1; i < s->n; i++)
		m = s->v[i] > m ? s->v[i] : m;
	return m;
}

double samples_median(const struct samples *s)
{
	double *v, m;

	if (!s->n)
		return 0;
	v = sorted(s);
	m = s->n % 2 ? v[s->n / 2] : (v[s->n / 2 - 1] + v[s->n / 2]) / 2;
	free(v);
	return m;
}

double samples_pct(const struct samples *s, double p)
{
	double *v, x;
	size_t i = (size_t)((double)s->n * p / 100);

	if (!s->n)
		return 0;
	v = sorted(s);
	x = v[i < s->n ? i : s->n - 1];
	free(v);
	return x;
}

void samples_print(const struct samples *s, FILE *f, const char *fmt)
{
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			fputc(' ', f);
		fprintf(f, fmt, s->v[i]);
	}
}

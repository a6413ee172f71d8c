// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tests/perfetto_rules.h against Perfetto's own cases for ParseSystraceTracePoint (the 54 of
 * ../shared/testdata/peer/perfetto_systrace_parser_unittest_cases.tsv): the same result and the
 * same parsed point for each, so the annotate tests that read animtrace's markers with it read
 * them as trace processor does.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "perfetto_rules.h"

#define CASES TESTDATA "/peer/perfetto_systrace_parser_unittest_cases.tsv"

static enum pf_result result_of(const char *word)
{
	if (!strcmp(word, "kSuccess"))
		return PF_SUCCESS;
	if (!strcmp(word, "kUnsupported"))
		return PF_UNSUPPORTED;
	cr_assert_str_eq(word, "kFailure");
	return PF_FAILURE;
}

Test(perfetto_rules, every_case_of_perfettos_unit_test_parses_as_perfetto_parses_it)
{
	FILE *f = fopen(CASES, "r");
	char line[512], got[512];
	int cases = 0;

	cr_assert_not_null(f, "%s", CASES);
	while (fgets(line, sizeof(line), f)) {
		char *payload = strtok(line, "\t"), *result = strtok(NULL, "\t"),
		     *want = strtok(NULL, "\n");
		json_object *s;
		struct pf_point p;
		enum pf_result r;

		if (line[0] == '#' || !result)
			continue;
		s = json_tokener_parse(payload);
		cr_assert(s && json_object_is_type(s, json_type_string), "%s", payload);
		r = pf_parse(json_object_get_string(s), (size_t)json_object_get_string_len(s), &p);
		cr_assert_eq(r, result_of(result), "%s: %d, want %s", payload, r, result);
		if (r == PF_SUCCESS) {
			pf_render(got, sizeof(got), &p);
			cr_assert_str_eq(got, want, "%s", payload);
		}
		json_object_put(s);
		cases++;
	}
	fclose(f);
	cr_assert_eq(cases, 54);
}

/* The seed's own S marker: trace processor keeps "Anim" and takes the id for the cookie. */
Test(perfetto_rules, a_bar_in_an_async_name_cuts_it)
{
	const char *m = "S|1234|Anim|42|Obj|NotifRow@3f2c|alpha:1->0|AccelDecel|300ms|42";
	struct pf_point p;
	char got[128];

	cr_assert_eq(pf_parse(m, strlen(m), &p), PF_SUCCESS);
	pf_render(got, sizeof(got), &p);
	cr_assert_str_eq(got, "S(1234, \"Anim\", 42)");
	m = "C|1234|V|NotifRow@3f2c|alpha|750";
	cr_assert_eq(pf_parse(m, strlen(m), &p), PF_FAILURE, "the value field is the node");
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/termesc.h"

static const char *esc(const char *s, size_t len)
{
	static char buf[256];

	termesc(buf, sizeof(buf), s, len);
	return buf;
}

Test(termesc, controls_and_esc_become_visible_escapes_and_text_stays)
{
	cr_assert_str_eq(esc("com.foo:sub", 11), "com.foo:sub");
	cr_assert_str_eq(esc("a\nb\rc\td", 7), "a\\nb\\rc\\td");
	cr_assert_str_eq(esc("\x1b]0;pwned\x07", 10), "\\x1b]0;pwned\\x07");
	cr_assert_str_eq(esc("x\x7fy\x01", 4), "x\\x7fy\\x01");
	cr_assert_str_eq(esc("a\0b", 3), "a\\x00b"); /* a NUL inside the bytes given */
	cr_assert_str_eq(esc("back\\slash", 10), "back\\slash");
}

Test(termesc, valid_utf8_stays_and_invalid_bytes_are_shown_one_by_one)
{
	cr_assert_str_eq(esc("┌─ é 😀", strlen("┌─ é 😀")), "┌─ é 😀");
	cr_assert_str_eq(esc("\xff\xc3(", 3), "\\xff\\xc3(");	     /* bad lead, cut pair */
	cr_assert_str_eq(esc("\xe2\x94", 2), "\\xe2\\x94");	     /* cut short */
	cr_assert_str_eq(esc("\xc0\xaf", 2), "\\xc0\\xaf");	     /* overlong '/' */
	cr_assert_str_eq(esc("\xed\xa0\x80", 3), "\\xed\\xa0\\x80"); /* a surrogate */
}

Test(termesc, c1_controls_and_bidirectional_overrides_are_escaped_as_code_points)
{
	cr_assert_str_eq(esc("\xc2\x9b"
			     "31m",
			     5),
			 "\\u009b31m"); /* CSI */
	cr_assert_str_eq(esc("a\xe2\x80\xae"
			     "b",
			     5),
			 "a\\u202eb");			     /* RIGHT-TO-LEFT OVERRIDE */
	cr_assert_str_eq(esc("\xe2\x80\xa8", 3), "\\u2028"); /* LINE SEPARATOR */
	cr_assert_str_eq(esc("\xe2\x81\xa9", 3), "\\u2069"); /* POP DIRECTIONAL ISOLATE */
	cr_assert_str_eq(esc("\xc2\xa0", 2), "\xc2\xa0");    /* NBSP is text */
}

Test(termesc, what_does_not_fit_is_left_out_whole)
{
	char buf[8];

	cr_assert_eq(termesc(buf, sizeof(buf), "abcd\x1b", 5), 4); /* "\x1b" needs 4 more */
	cr_assert_str_eq(buf, "abcd");
	cr_assert_eq(termesc(buf, 6, "ab\xe2\x94\x8c", 5), 5);
	cr_assert_str_eq(buf, "ab\xe2\x94\x8c");
	cr_assert_eq(termesc(buf, 5, "ab\xe2\x94\x8c", 5), 2); /* never half a character */
	cr_assert_str_eq(buf, "ab");
	cr_assert_eq(termesc(buf, 0, "x", 1), 0);
}

Test(termesc, the_stream_form_writes_everything_and_equals_the_buffer_form)
{
	const char *in = "p\n\x1b[2J\xc2\x9b\xff"
			 "end";
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	termesc_put(f, in, strlen(in));
	fclose(f);
	cr_assert_str_eq(text, "p\\n\\x1b[2J\\u009b\\xffend");
	cr_assert_str_eq(text, esc(in, strlen(in)));
	free(text);
}

Test(termesc, utf8_seq_gives_the_code_point_and_refuses_what_is_not_utf8)
{
	uint32_t cp = 0;

	cr_assert_eq(utf8_seq((const unsigned char *)"A", 1, &cp), 1);
	cr_assert_eq(cp, 'A');
	cr_assert_eq(utf8_seq((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4);
	cr_assert_eq(cp, 0x1f600);
	cr_assert_eq(utf8_seq((const unsigned char *)"\xf4\x90\x80\x80", 4, &cp), 0);
	cr_assert_eq(utf8_seq((const unsigned char *)"\x80", 1, &cp), 0);
}

#include "sinks/jsonout.h"

Test(termesc, json_strings_carry_no_raw_control_byte_either)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	json_put_str(f, "a\x1b[2J\x7f\xc2\x9b\xc2\xa0\xe2\x80\xae\xff");
	fclose(f);
	/* C0, DEL and C1 as \u escapes; NBSP and U+202E are text in JSON; bad UTF-8 U+FFFD */
	cr_assert_str_eq(text, "\"a\\u001b[2J\\u007f\\u009b\xc2\xa0\xe2\x80\xae\\ufffd\"");
	free(text);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The one node label every sink prints: class, '@', the pointer's low 16 bits. */
#include <criterion/criterion.h>

#include "model/model.h"

Test(node_label, a_class_name_gets_the_low_16_bits_of_the_pointer_in_four_hex_digits)
{
	char buf[AT_NODE_LABEL_MAX];

	cr_assert_str_eq(node_label(buf, sizeof(buf), "NotificationRow", 0xb400007b0a9e80e0ULL),
			 "NotificationRow@80e0");
	cr_assert_str_eq(node_label(buf, sizeof(buf), "ScrimView", 0x10), "ScrimView@0010");
}

Test(node_label, no_class_gives_render_node_and_the_fallback_name_stays_as_it_is)
{
	char buf[AT_NODE_LABEL_MAX];

	cr_assert_str_eq(node_label(buf, sizeof(buf), NULL, 0x7b0a51c0), "RenderNode@51c0");
	cr_assert_str_eq(node_label(buf, sizeof(buf), "", 0x7b0a51c0), "RenderNode@51c0");
	cr_assert_str_eq(node_label(buf, sizeof(buf), "RenderNode@51c0", 0x7b0a51c0),
			 "RenderNode@51c0");
}

Test(node_label, the_class_of_a_fallback_name_is_null)
{
	cr_assert_str_eq(node_class("NotificationRow"), "NotificationRow");
	cr_assert_null(node_class("RenderNode@51c0"));
	cr_assert_null(node_class(""));
	cr_assert_null(node_class(NULL));
}

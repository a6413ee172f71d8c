// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* An animator's configuration as JSON (sinks/jsonconfig.h). */
#include <stdio.h>

#include "sinks/jsonconfig.h"
#include "sinks/jsonout.h"

static const char *const type_names[] = {
	[CONFIG_FLOAT] = "float",
	[CONFIG_INT] = "int",
	[CONFIG_ARGB] = "argb",
};

/* ,"key":v or ,"key":null */
static void put_i64(FILE *out, const char *key, bool has, long long v)
{
	if (has)
		fprintf(out, ",\"%s\":%lld", key, v);
	else
		fprintf(out, ",\"%s\":null", key);
}

static void put_value(FILE *out, enum config_type type, double v)
{
	char buf[24];

	if (type == CONFIG_ARGB) {
		json_put_str(out, config_value_str(buf, sizeof(buf), type, v));
	} else if (type == CONFIG_INT) {
		fputs(config_value_str(buf, sizeof(buf), type, v), out);
	} else {
		json_put_float(out, (float)v);
	}
}

static void put_values(FILE *out, const struct anim_config *c)
{
	if (!c->has_values) {
		fputs(",\"values\":null,\"values_left_out\":null", out);
		return;
	}
	fputs(",\"values\":[", out);
	for (int i = 0; i < c->n_values && i < AT_CONFIG_VALUES; i++) {
		const struct config_value *v = &c->values[i];
		unsigned int t = (unsigned int)v->type < 3 ? v->type : CONFIG_FLOAT;

		fputs(i ? ",{\"property\":" : "{\"property\":", out);
		if (*v->property)
			json_put_str(out, v->property);
		else
			fputs("null", out);
		fprintf(out, ",\"type\":\"%s\",\"from\":", type_names[t]);
		if (v->has_range)
			put_value(out, v->type, v->from);
		else
			fputs("null", out);
		fputs(",\"to\":", out);
		if (v->has_range)
			put_value(out, v->type, v->to);
		else
			fputs("null", out);
		fputc('}', out);
	}
	fprintf(out, "],\"values_left_out\":%u", c->values_left_out);
}

void json_put_config(FILE *out, const struct anim_config *c)
{
	if (!c->known) {
		fputs(",\"config\":null", out);
		return;
	}
	fputs(",\"config\":{", out);
	/* the first key without its comma: put_i64 writes one before each */
	if (c->has_duration)
		fprintf(out, "\"duration_ms\":%lld", (long long)c->duration_ms);
	else
		fputs("\"duration_ms\":null", out);
	put_i64(out, "start_delay_ms", c->has_start_delay, (long long)c->start_delay_ms);
	put_i64(out, "repeat_count", c->has_repeat, c->repeat_count);
	fputs(",\"repeat_mode\":", out);
	if (c->has_repeat && c->repeat_mode != REPEAT_MODE_UNKNOWN)
		fprintf(out, "\"%s\"", repeat_mode_str(c->repeat_mode));
	else
		fputs("null", out);
	fputs(",\"interpolator\":", out);
	if (*c->interpolator)
		json_put_str(out, c->interpolator);
	else
		fputs("null", out);
	put_values(out, c);
	fputs(",\"target_class\":", out);
	if (*c->target_class)
		json_put_str(out, c->target_class);
	else
		fputs("null", out);
	if (c->target_node)
		fprintf(out, ",\"target_node\":\"0x%llx\"}", (unsigned long long)c->target_node);
	else
		fputs(",\"target_node\":null}", out);
}

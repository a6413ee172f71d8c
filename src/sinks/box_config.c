// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The box lines of an animator's configuration (anim.config, read from the animator object at
 * its start()), as the seed's AnimatorTracer prints them: "Duration: 300ms (repeat: INFINITE,
 * REVERSE)", "StartDelay: 100ms", "Properties: alpha: 1 → 0", "Interpolator:
 * AccelerateDecelerate", "Target: NotificationRow@3f2c (exact)"; at the end, configured
 * beside measured. Unknown values are left out.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/fit.h"
#include "sinks/boxdraw.h"

/* "300ms (repeat: INFINITE, REVERSE)", "300ms", "? (repeat: 2, RESTART)". */
static const char *duration_text(char *buf, size_t size, const struct anim_config *c)
{
	size_t n = c->has_duration ?
			   (size_t)snprintf(buf, size, "%lldms", (long long)c->duration_ms) :
			   (size_t)snprintf(buf, size, "?");

	if (!c->has_repeat || c->repeat_count == 0 || n >= size)
		return buf;
	if (c->repeat_count == AT_REPEAT_INFINITE)
		snprintf(buf + n, size - n, " (repeat: INFINITE, %s)",
			 repeat_mode_str(c->repeat_mode));
	else
		snprintf(buf + n, size - n, " (repeat: %d, %s)", c->repeat_count,
			 repeat_mode_str(c->repeat_mode));
	return buf;
}

/* "alpha: 1 → 0, ?: 0 → 100": each holder's property ("?" unnamed) and its first and last
 * keyframes' values. */
static void values_text(struct sink_box *b, char *buf, size_t size, const struct anim_config *c)
{
	char prop[32], from[24], to[24];
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->n_values && i < AT_CONFIG_VALUES && len < size; i++) {
		const struct config_value *v = &c->values[i];

		len += snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				*v->property ? clean(prop, sizeof(prop), v->property) : "?");
		if (v->has_range && len < size)
			len += snprintf(buf + len, size - len, ": %s %s %s",
					config_value_str(from, sizeof(from), v->type, v->from),
					b->g->arrow,
					config_value_str(to, sizeof(to), v->type, v->to));
	}
	if (c->values_left_out && len < size)
		snprintf(buf + len, size - len, ", %u more", c->values_left_out);
}

bool box__config_props(struct sink_box *b, const struct anim *a, bool mark)
{
	char props[512];

	if (!a->config.known || !a->config.has_values || !a->config.n_values)
		return false;
	values_text(b, props, sizeof(props), &a->config);
	box_line(b, "Properties: %s%s", props, mark ? " (configured)" : "");
	return true;
}

bool box__config_target(struct sink_box *b, const struct anim *a)
{
	const struct anim_config *c = &a->config;
	char cls[128];

	if (!c->known || !*c->target_class)
		return false;
	clean(cls, sizeof(cls), simple_class(c->target_class));
	if (c->target_node)
		box_line(b, "Target:     %s@%04x (exact)", cls,
			 (unsigned int)(c->target_node & 0xffff));
	else
		box_line(b, "Target:     %s (exact; no RenderNode)", cls);
	return true;
}

/* "StartDelay: 100ms", with the delay measured from start() to the S when there is one. */
static void start_delay_line(struct sink_box *b, const struct anim *a)
{
	char t[32];

	if (!a->config.has_start_delay || a->config.start_delay_ms <= 0)
		return;
	if (!a->has_start_delay) {
		box_line(b, "StartDelay: %lldms", (long long)a->config.start_delay_ms);
		return;
	}
	fmt_ms1(t, sizeof(t), a->start_delay_ns);
	box_line(b, "StartDelay: %lldms configured, %s ms measured",
		 (long long)a->config.start_delay_ms, t);
}

bool box__config_begin(struct sink_box *b, const struct anim *a)
{
	const struct anim_config *c = &a->config;
	char d[64], name[64];

	if (!c->known)
		return false;
	if (c->has_duration || c->has_repeat)
		box_line(b, "Duration:   %s", duration_text(d, sizeof(d), c));
	start_delay_line(b, a);
	if (*c->interpolator)
		box_line(b, "Interpolator: %s", clean(name, sizeof(name), c->interpolator));
	return true;
}

bool box__config_end(struct sink_box *b, const struct anim *a)
{
	const struct anim_config *c = &a->config;
	char d[64], t[32];

	if (!c->known || !(c->has_duration || c->has_repeat))
		return false;
	duration_text(d, sizeof(d), c);
	if (!a->start_ns) {
		box_line(b, "Duration:   %s configured, - measured (no S marker)", d);
		return true;
	}
	fmt_ms1(t, sizeof(t), a->end_ns - a->start_ns);
	box_line(b, "Duration:   %s configured, %s ms measured", d, t);
	return true;
}

/* "rms 0.004", or "rms ?" when the fit gave none. */
static const char *rms_text(char *buf, size_t size, double rms)
{
	if (isfinite(rms))
		snprintf(buf, size, "rms %.3g", rms);
	else
		snprintf(buf, size, "rms ?");
	return buf;
}

bool box__config_interp(struct sink_box *b, const struct anim *a)
{
	const char *cfg = a->config.known ? a->config.interpolator : "";
	char name[64], rms[32];

	if (!*cfg)
		return false;
	clean(name, sizeof(name), cfg);
	if (!a->interpolator) {
		box_line(b, "Interpolator: %s configured", name);
		return true;
	}
	rms_text(rms, sizeof(rms), a->interp_rms);
	if (!strcmp(cfg, a->interpolator))
		box_line(b, "Interpolator: %s configured, %s fitted (%s): as configured", name,
			 a->interpolator, rms);
	else if (fit_interpolator_known(cfg))
		box_line(b,
			 "Interpolator: %s configured, %s fitted (%s): the values do not "
			 "follow the configured curve",
			 name, a->interpolator, rms);
	else /* a PathInterpolator or an app's class: no curve of its own to compare */
		box_line(b, "Interpolator: %s configured, %s fitted (%s)", name, a->interpolator,
			 rms);
	return true;
}

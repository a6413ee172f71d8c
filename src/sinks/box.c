// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Boxed text sink. Names come from other processes' markers and memory: each is escaped
 * (clean, boxdraw.h) where it is printed, so a hostile name cannot move the cursor or fake a
 * line or a box.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/jsonout.h"
#include "common/frametimeline.h"
#include "sinks/box.h"

#include "sinks/boxdraw.h"

static const char *const spark_utf8[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
static const char *const spark_ascii[] = { "_", ".", "-", "=", "^" };

static const struct glyphs glyphs_utf8 = { "┌", "─", "│", "└", "→", spark_utf8, 8 };
static const struct glyphs glyphs_ascii = { "+", "-", "|", "`", "->", spark_ascii, 5 };

static void reason_text(char *buf, size_t size, const struct anim *a)
{
	const char *r = end_reason_str(a->reason);
	bool art = a->reason_source == REASON_ART;

	switch (a->reason) {
	case END_ENDED:
		snprintf(buf, size, "%s%s", r,
			 art ? "" : " (complete or cancel; inferred from markers: ART probes off)");
		break;
	case END_FORCE_END:
		snprintf(buf, size, "%s (%s)", r,
			 art ? "ART probe" : "inferred: S and F within 1 ms");
		break;
	case END_FIRST_FRAME:
		snprintf(buf, size, "%s (ended in its first frame: cancel or end(); inferred)", r);
		break;
	case END_CANCEL_BEFORE_START:
		snprintf(buf, size, "%s (%s)", r, art ? "ART probe" : "inferred: F without S");
		break;
	case END_COMPLETE:
	case END_CANCEL:
		snprintf(buf, size, "%s (%s)", r, art ? "ART probe" : "inferred");
		break;
	default:
		snprintf(buf, size, "%s", r);
		break;
	}
}

/* "alpha: 1 → 0, scaleX" : the animator's properties with the values its target went through. */
static void props_text(struct sink_box *b, char *buf, size_t size, const struct anim *a)
{
	char prop[32];
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < a->n_props && len < size; i++) {
		len += snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				clean(prop, sizeof(prop), a->props[i]));
		for (int j = 0; j < a->n_changes && len < size; j++) {
			const struct prop_change *c = &a->changes[j];

			if (strcmp(view_prop_str(c->prop), a->props[i]))
				continue;
			len += snprintf(buf + len, size - len, ": %g %s %g", (double)c->from,
					b->g->arrow, (double)c->to);
			break;
		}
	}
}

/* "Set by:     com.example.Shade.expand": who started the AnimatorSet that started it. */
static void set_line(struct sink_box *b, const struct anim *a)
{
	char name[AT_FRAME_NAME];

	if (a->starter != STARTER_SET)
		return;
	if (a->set_caller[0])
		box_line(b, "Set by:     %s", clean(name, sizeof(name), a->set_caller));
	else if (a->sets_open > 1)
		box_line(b, "Set by:     unknown (started in a later frame while %u sets ran)",
			 a->sets_open);
	else /* a set's start delay, or its start before the trace: no child of it ran */
		box_line(b, "Set by:     unknown (started in a later frame; no set seen running)");
}

/*
 * An inferred target that is one of several: "Fits:       QSPanel@c000 (12 frames)", one line
 * per node that changed a property the animator names while it ran, first seen first.
 */
static void target_fit_lines(struct sink_box *b, const struct anim *a)
{
	char node[96];

	if (!a->target_inferred || (a->n_fits < 2 && !a->fits_more))
		return;
	for (int i = 0; i < a->n_fits && i < AT_FITS; i++)
		box_line(b, "%-11s %s (%u frame%s)", i ? "" : "Fits:",
			 box_node_label(node, sizeof(node), a->fits[i].node_name, a->fits[i].node),
			 a->fits[i].frames, a->fits[i].frames == 1 ? "" : "s");
	if (a->fits_more)
		box_line(b, "%-11s and more, not listed", "");
}

/* The lines every animator box starts with: identity, kind, target, properties, process. */
static void anim_head(struct sink_box *b, const struct anim *a, uint32_t tid)
{
	char proc[AT_PROC_MAX], props[1024], node[96];

	box_line(b, "ID:         %lld", (long long)a->id); /* atrace cookies are signed */
	box_line(b, "Type:       %s", anim_type_str(a->kind, a->starter));
	set_line(b, a);
	if (a->target_node &&
	    a->config.target_node == a->target_node) /* the configuration named it */
		box_line(b, "Target:     %s (exact)",
			 box_node_label(node, sizeof(node), a->target_name, a->target_node));
	else if (a->target_node && a->target_inferred && (a->n_fits > 1 || a->fits_more))
		box_line(b, "Target:     %s (inferred: one of %d%s nodes that fit)",
			 box_node_label(node, sizeof(node), a->target_name, a->target_node),
			 a->n_fits, a->fits_more ? "+" : "");
	else if (a->target_node)
		box_line(b, "Target:     %s%s",
			 box_node_label(node, sizeof(node), a->target_name, a->target_node),
			 a->target_inferred ? " (inferred)" : "");
	else
		box__config_target(b, a);
	if (!a->target_node || a->config.target_node != a->target_node)
		target_fit_lines(b, a);
	props_text(b, props, sizeof(props), a);
	/* what the animator was asked to do, until its target shows what it did */
	if (a->n_changes || !box__config_props(b, a, a->end_ns != 0))
		if (a->n_props)
			box_line(b, "Properties: %s", props);
	if (a->restarts)
		box_line(b, "Restarts:   %u", a->restarts);
	clean(proc, sizeof(proc), a->process);
	if (tid)
		box_line(b, "Process:    %s%s(pid %u, tid %u)", proc, *proc ? " " : "", a->pid,
			 tid);
	else
		box_line(b, "Process:    %s%s(pid %u)", proc, *proc ? " " : "", a->pid);
}

/* "CallStack:" then one Java caller per line, innermost first, as AnimatorTracer prints. */
static void stack_lines(struct sink_box *b, const char *label, const char (*frames)[AT_FRAME_NAME],
			int n)
{
	char name[AT_FRAME_NAME];

	for (int i = 0; i < n && i < AT_STACK_FRAMES; i++)
		box_line(b, "%-13s %s", i ? "" : label, clean(name, sizeof(name), frames[i]));
}

/* "Start delay: 100.2 ms": start() to its S, measured, when over a millisecond. */
static void delay_line(struct sink_box *b, const struct anim *a)
{
	char t[32];

	if (!a->has_start_delay || a->start_delay_ns <= 1000000)
		return;
	fmt_ms1(t, sizeof(t), a->start_delay_ns);
	box_line(b, "Start delay: %s ms", t);
}

static int on_anim_start(void *ctx, const struct anim *a)
{
	struct sink_box *b = ctx;
	char title[AT_NAME_MAX + 16], name[AT_NAME_MAX], t[32];

	snprintf(title, sizeof(title), "Begin %s", clean(name, sizeof(name), a->name));
	box_open(b, ANSI_GREEN, title);
	anim_head(b, a, a->start_tid);
	fmt_sec(t, sizeof(t), a->start_ns);
	box_line(b, "Start:      %s", t);
	if (!box__config_begin(b, a))
		delay_line(b, a);
	stack_lines(b, "CallStack:", a->start_stack, a->n_start_stack);
	box_close(b);
	return out_status(b->out);
}

/* The level of v between lo and hi, rounded; a flat curve sits in the middle. */
static int spark_level(const struct glyphs *g, float v, float lo, float hi)
{
	double x;

	if (!(hi > lo))
		return (g->n_spark - 1) / 2;
	/* Rounded by hand: libm is not linked. */
	x = ((double)v - lo) / ((double)hi - lo) * (g->n_spark - 1) + 0.5;
	return x < 1 ? 0 : x >= g->n_spark ? g->n_spark - 1 : (int)x;
}

/* "▇▆▅▃▂▁": the series scaled between its own min and max; NaN and inf are blanks. */
static void spark_write(struct sink_box *b, const struct prop_series *ps)
{
	float lo = INFINITY, hi = -INFINITY;

	for (int i = 0; i < ps->n && i < AT_SERIES_MAX; i++) {
		if (!isfinite(ps->v[i]))
			continue;
		lo = ps->v[i] < lo ? ps->v[i] : lo;
		hi = ps->v[i] > hi ? ps->v[i] : hi;
	}
	for (int i = 0; i < ps->n && i < AT_SERIES_MAX; i++)
		fputs(isfinite(ps->v[i]) ? b->g->spark[spark_level(b->g, ps->v[i], lo, hi)] : " ",
		      b->out);
}

/* Columns s takes on a terminal: UTF-8 continuation bytes take none. */
static int text_cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * Under a curve whose prefix took cols columns: "^" under each point in whose frames another
 * writer also wrote the property (an animator or code), and how many frames that was.
 */
static void shared_line(struct sink_box *b, int cols, const struct prop_series *ps)
{
	if (!ps->shared)
		return;
	fprintf(b->out, "%s%*s", b->g->v, cols - 1, "");
	for (int i = 0; i < ps->n && i < AT_SERIES_MAX; i++)
		fputc(ps->shared & (1ull << i) ? '^' : ' ', b->out);
	fprintf(b->out, " others also wrote it in %u frame%s\n", ps->shared_frames,
		ps->shared_frames == 1 ? "" : "s");
}

/* A curve line: prefix, the sparkline, suffix; then its marks (shared_line). */
static void curve_lines(struct sink_box *b, const char *prefix, const struct prop_series *ps,
			const char *suffix)
{
	fputs(prefix, b->out);
	spark_write(b, ps);
	fprintf(b->out, "%s\n", suffix);
	shared_line(b, text_cols(prefix), ps);
}

/*
 * One line per property whose per-frame values are known: "alpha: 1 → 0  ▇▆▅▃▂▁".
 * Without values the Properties line already says from and to.
 */
static void spark_lines(struct sink_box *b, const struct anim *a)
{
	char prefix[160];

	if (a->n_targets)
		return; /* target_lines shows them, per node */
	for (int i = 0; i < a->n_changes && i < AT_MAX_PROPS; i++) {
		const struct prop_change *c = &a->changes[i];

		if (!a->series[i].n)
			continue;
		snprintf(prefix, sizeof(prefix), "%s %s: %g %s %g  ", b->g->v,
			 view_prop_str(c->prop), (double)c->from, b->g->arrow, (double)c->to);
		curve_lines(b, prefix, &a->series[i], "");
	}
}

/*
 * Exact targets, most writes first: "Targets:    NotificationRow@51c0" then one line per
 * property, "  alpha: 1 → 0  ▇▆▅▃▂▁ (17 sets)".
 */
static void target_lines(struct sink_box *b, const struct anim *a)
{
	char node[96], prefix[160], sets[32];

	for (int i = 0; i < a->n_targets && a->targets; i++) {
		const struct anim_target *t = &a->targets[i];

		box_line(b, "%-11s %s", i ? "" : "Targets:",
			 box_node_label(node, sizeof(node), t->node_name, t->node));
		for (int k = 0; k < t->n_props && k < AT_TARGET_PROPS; k++) {
			const struct target_prop *tp = &t->props[k];

			snprintf(prefix, sizeof(prefix), "%s               %s: %g %s %g  ", b->g->v,
				 view_prop_str(tp->prop), (double)tp->from, b->g->arrow,
				 (double)tp->to);
			snprintf(sets, sizeof(sets), " (%u sets)", tp->sets);
			curve_lines(b, prefix, &tp->series, sets);
		}
	}
	if (a->targets_left_out)
		box_line(b, "%-11s %u writes to further nodes not kept", "", a->targets_left_out);
}

/* "Smoothness: 18 frames, 2 dropped (worst gap 50.0 ms), 1 late (34.1 ms)", or "smooth". */
static void smooth_line(struct sink_box *b, const struct anim *a)
{
	char line[160], gap[24], worst[24];
	int n;

	if (!a->frames)
		return;
	if (!a->frames_dropped && !a->janky_frames) {
		box_line(b, "Smoothness: smooth");
		return;
	}
	fmt_ms1(gap, sizeof(gap), a->worst_gap_ns);
	fmt_ms1(worst, sizeof(worst), a->worst_frame_ns);
	n = snprintf(line, sizeof(line), "%u frames", a->frames);
	if (a->frames_dropped)
		n += snprintf(line + n, sizeof(line) - n, ", %u dropped (worst gap %s ms)",
			      a->frames_dropped, gap);
	if (a->janky_frames)
		snprintf(line + n, sizeof(line) - n, ", %u late (%s ms)", a->janky_frames, worst);
	box_line(b, "Smoothness: %s", line);
}

/*
 * --refresh: "Redraws:    18/18 frames (NotificationRow@80e0): a property animation that
 * redraws". A property animation changes RenderNode properties only; a target that records
 * a new display list in its frames costs a redraw each.
 */
static void redraw_line(struct sink_box *b, const struct anim *a)
{
	char node[96];
	const char *verdict;

	if (!a->refresh_traced || !a->frames)
		return;
	if (!a->target_node) {
		box_line(b, "Redraws:    target unknown");
		return;
	}
	if (!a->target_redraws)
		verdict = "properties only, no redraw";
	else if (a->kind == ANIM_OBJECT)
		verdict = "a property animation that redraws";
	else
		verdict = "its target redraws";
	box_line(b, "Redraws:    %u/%u frames (%s): %s", a->target_redraws, a->frames,
		 box_node_label(node, sizeof(node), a->target_name, a->target_node), verdict);
}

static int on_finding(void *ctx, const struct finding *f)
{
	struct sink_box *b = ctx;

	b->fnd[b->next_fnd] = *f;
	b->next_fnd = (b->next_fnd + 1) % BOX_FINDINGS;
	if (b->n_fnd < BOX_FINDINGS)
		b->n_fnd++;
	return 0;
}

/* "Finding:    flicker: <sentence>" */
static void finding_line(struct sink_box *b, const struct finding *f)
{
	char text[AT_FINDING_TEXT];

	box_line(b, "Finding:    %s: %s", finding_kind_str(f->kind),
		 clean(text, sizeof(text), f->text));
}

/* A finding line for each finding held about id of pid since since_ns. */
static void finding_lines(struct sink_box *b, bool unmarked, uint64_t id, uint32_t pid,
			  uint64_t since_ns)
{
	for (int k = 0; k < b->n_fnd; k++) {
		const struct finding *f =
			&b->fnd[(b->next_fnd - b->n_fnd + k + BOX_FINDINGS) % BOX_FINDINGS];
		bool mine = false;

		for (int i = 0; i < f->n_ids; i++)
			mine |= f->ids[i] == id;
		if (!mine || f->unmarked != unmarked || f->pid != pid || f->ts_ns < since_ns)
			continue;
		finding_line(b, f);
	}
}

static bool is_bad_end(enum end_reason r)
{
	return r == END_CANCEL || r == END_CANCEL_BEFORE_START || r == END_PROCESS_EXIT ||
	       r == END_RUNNING_AT_EXIT;
}

static int on_anim_end(void *ctx, const struct anim *a)
{
	struct sink_box *b = ctx;
	char title[AT_NAME_MAX + 16], name[AT_NAME_MAX], t[32], reason[128];

	snprintf(title, sizeof(title), "End %s", clean(name, sizeof(name), a->name));
	box_open(b, is_bad_end(a->reason) ? ANSI_RED : ANSI_YELLOW, title);
	anim_head(b, a, a->end_tid);
	if (a->start_ns)
		fmt_sec(t, sizeof(t), a->start_ns);
	box_line(b, "Start:      %s", a->start_ns ? t : "- (no S marker)");
	delay_line(b, a);
	fmt_sec(t, sizeof(t), a->end_ns);
	box_line(b, "End:        %s", t);
	if (a->start_ns)
		fmt_ms(t, sizeof(t), a->end_ns - a->start_ns);
	if (!box__config_end(b, a))
		box_line(b, "Duration:   %s", a->start_ns ? t : "-");
	box_line(b, "Frames:     %u", a->frames);
	smooth_line(b, a);
	redraw_line(b, a);
	reason_text(reason, sizeof(reason), a);
	box_line(b, "Reason:     %s", reason);
	if (!box__config_interp(b, a) && a->interpolator)
		box_line(b, "Interpolator: %s (fitted, rms %.3g)", a->interpolator, a->interp_rms);
	finding_lines(b, false, a->id, a->pid, a->start_ns);
	spark_lines(b, a);
	target_lines(b, a);
	stack_lines(b, "EndCallStack:", a->end_stack, a->n_end_stack);
	box_close(b);
	return out_status(b->out);
}

/* ---- unmarked animations -------------------------------------------------------------- */

static const char *animation_title(const struct animation *a)
{
	if (!a->ended)
		return "Animation";
	return a->kind == FIT_SPRING ? "Spring Animation" :
	       a->kind == FIT_FLING  ? "Fling Animation" :
				       "Animation";
}

/* "Stiffness:     201.3 STIFFNESS_LOW (fitted, rms 0.12)" */
static void fit_line(struct sink_box *b, const char *label, double v, const char *name, double rms)
{
	box_line(b, "%-14s %.4g%s%s (fitted, rms %.3g)", label, v, name ? " " : "",
		 name ? name : "", rms);
}

/* The fitted parameters of one property, as DynamicAnimationTracer names them. */
static void fit_lines(struct sink_box *b, const struct animation_prop *ap)
{
	const struct fit_result *f = &ap->fit;

	if (f->kind == FIT_SPRING) {
		fit_line(b, "FinalPosition:", f->final_position, NULL, f->rms);
		fit_line(b, "Stiffness:", f->stiffness, f->stiffness_name, f->rms);
		fit_line(b, "DampingRatio:", f->damping_ratio, f->damping_name, f->rms);
		fit_line(b, "StartVelocity:", f->start_velocity, NULL, f->rms);
		box_line(b, "%-14s %.3g %% (fitted), settles in %.0f ms",
			 "Overshoot:", f->overshoot_pct, f->settle_ms);
	} else if (f->kind == FIT_FLING) {
		fit_line(b, "Friction:", f->friction_scalar, NULL, f->rms);
		fit_line(b, "StartVelocity:", f->start_velocity, NULL, f->rms);
		box_line(b, "%-14s %g%s", "FinalValue:", (double)ap->to,
			 f->at_bound ? " (at its min/max bound)" : "");
	} else if (f->kind == FIT_INTERPOLATED) {
		box_line(b, "%-14s %s (fitted, rms %.3g)",
			 "Interpolator:", f->interpolator ? f->interpolator : "custom",
			 f->interp_rms);
		box_line(b, "%-14s %g", "FinalValue:", (double)ap->to);
	} else {
		box_line(b, "%-14s %g (no model fits, closest rms %.3g)",
			 "FinalValue:", (double)ap->to, f->rms);
	}
}

/* ---- DynamicAnimation runs (ART probes), as the seed's DynamicAnimationTracer boxes ---- */

static const char *dyn_title(enum dyn_kind k)
{
	return k == DYN_SPRING ? "Spring Animation" :
	       k == DYN_FLING  ? "Fling Animation" :
				 "Dynamic Animation";
}

static void dyn_head(struct sink_box *b, const struct dyn_anim *a)
{
	char proc[AT_PROC_MAX], t[32];

	box_line(b, "%-14s %llu", "ID:", (unsigned long long)a->id);
	fmt_sec(t, sizeof(t), a->start_ns);
	box_line(b, "%-14s %s", "Start:", t);
	clean(proc, sizeof(proc), a->process);
	box_line(b, "%-14s %s%s(pid %u, tid %u)", "Process:", proc, *proc ? " " : "", a->pid,
		 a->tid);
	if (a->replaces)
		box_line(b, "%-14s %s %llu (cancelled by this start's caller)",
			 "Replaces:", a->kind == DYN_FLING ? "Fling" : "Spring",
			 (unsigned long long)a->replaces);
}

/* What the heap reader read (exact), when it did: beside the fit. */
static void dyn_config_lines(struct sink_box *b, const struct dyn_config *c)
{
	if (c->has_spring) {
		box_line(b, "%-14s %.4g (read)", "FinalPosition:", c->final_position);
		box_line(b, "%-14s %.4g (read)", "Stiffness:", c->stiffness);
		box_line(b, "%-14s %.4g (read)", "DampingRatio:", c->damping_ratio);
	}
	if (c->has_fling) /* as the fit's: the scalar setFriction took */
		box_line(b, "%-14s %.4g (read)", "Friction:", c->friction / DYN_DEFAULT_FRICTION);
	if (c->has_value)
		box_line(b, "%-14s %.4g (read)", "StartValue:", c->value);
	if (c->has_state && c->velocity != 0)
		box_line(b, "%-14s %.4g (read)", "StartVelocity:", c->velocity);
}

static int on_dyn_start(void *ctx, const struct dyn_anim *a)
{
	struct sink_box *b = ctx;
	char title[64];

	snprintf(title, sizeof(title), "%s Begin", dyn_title(a->kind));
	box_open(b, ANSI_GREEN, title);
	dyn_head(b, a);
	if (a->kind == DYN_UNKNOWN) /* FlingAnimation has no start() of its own */
		box_line(b, "%-14s not a SpringAnimation: fling or other, known at its end",
			 "Kind:");
	stack_lines(b, "CallStack:", a->start_stack, a->n_start_stack);
	box_close(b);
	return out_status(b->out);
}

static int on_dyn_end(void *ctx, const struct dyn_anim *a)
{
	struct sink_box *b = ctx;
	struct animation_prop ap = { .prop = a->prop,
				     .from = a->from,
				     .to = a->to,
				     .frames = a->frames,
				     .fitted = a->fitted,
				     .fit = a->fit };
	char title[64], node[96], t[32];

	snprintf(title, sizeof(title), "%s End", dyn_title(a->kind));
	box_open(b,
		 a->reason == END_COMPLETE || a->reason == END_FORCE_END ? ANSI_YELLOW : ANSI_RED,
		 title);
	dyn_head(b, a);
	fmt_sec(t, sizeof(t), a->end_ns);
	box_line(b, "%-14s %s", "End:", t);
	fmt_ms(t, sizeof(t), a->end_ns > a->start_ns ? a->end_ns - a->start_ns : 0);
	box_line(b, "%-14s %s", "Duration:", t);
	box_line(b, "%-14s %u", "Frames:", a->frames);
	box_line(b, "%-14s %s%s",
		 "Reason:", a->reason == END_FORCE_END ? "complete" : end_reason_str(a->reason),
		 a->end_inferred	    ? " (inferred: its frames stopped)" :
		 a->reason == END_FORCE_END ? " (skipToEnd)" :
					      "");
	if (a->has_target) {
		box_line(b, "%-14s %s",
			 "Target:", box_node_label(node, sizeof(node), a->node_name, a->node));
		box_line(b, "%-14s %s", "Property:", view_prop_str(a->prop));
		box_line(b, "%-14s %g", "StartValue:", (double)a->from);
		dyn_config_lines(b, &a->config);
		if (a->fitted)
			fit_lines(b, &ap);
		else
			box_line(b, "%-14s %g", "FinalValue:", (double)a->to);
	}
	stack_lines(b, "EndCallStack:", a->end_stack, a->n_end_stack);
	box_close(b);
	return out_status(b->out);
}

static void animation_lines(struct sink_box *b, const struct animation *a)
{
	char node[96], proc[AT_PROC_MAX], t[32];

	box_line(b, "%-14s %llu", "ID:", (unsigned long long)a->id);
	box_line(b, "%-14s %s",
		 "Target:", box_node_label(node, sizeof(node), a->node_name, a->node));
	for (int i = 0; i < a->n_props; i++) {
		const struct animation_prop *ap = &a->props[i];

		box_line(b, "%-14s %s", "Property:", view_prop_str(ap->prop));
		box_line(b, "%-14s %g", "StartValue:", (double)ap->from);
		if (!a->ended)
			continue;
		if (ap->fitted)
			fit_lines(b, ap);
		else
			box_line(b, "%-14s %g", "FinalValue:", (double)ap->to);
	}
	fmt_sec(t, sizeof(t), a->start_ns);
	box_line(b, "%-14s %s", "Start:", t);
	fmt_ms(t, sizeof(t), a->duration_ns);
	box_line(b, "%-14s %s%s", "Duration:", t, a->ended ? "" : " so far");
	box_line(b, "%-14s %u%s", "Frames:", a->frames, a->ended ? "" : " so far");
	clean(proc, sizeof(proc), a->process);
	box_line(b, "%-14s %s%s(pid %u, tid %u)", "Process:", proc, *proc ? " " : "", a->pid,
		 a->tid);
}

static int on_animation_start(void *ctx, const struct animation *a)
{
	struct sink_box *b = ctx;

	box_open(b, ANSI_GREEN, "Animation Begin");
	animation_lines(b, a);
	box_line(b, "%-14s unmarked, kind known at its end", "Kind:");
	box_close(b);
	return out_status(b->out);
}

static int on_animation_end(void *ctx, const struct animation *a)
{
	struct sink_box *b = ctx;
	char title[64];

	snprintf(title, sizeof(title), "%s End", animation_title(a));
	box_open(b, a->reason == END_COMPLETE ? ANSI_YELLOW : ANSI_RED, title);
	animation_lines(b, a);
	box_line(b, "%-14s %s%s", "Kind:", fit_kind_str(a->kind),
		 a->reason == END_COMPLETE     ? "" :
		 a->reason == END_PROCESS_EXIT ? ", the process exited" :
						 ", still running at exit");
	finding_lines(b, true, a->id, a->pid, a->start_ns);
	box_close(b);
	return out_status(b->out);
}

/* A value as the frame lines print it: "-0.000" reads like a sign that matters, so a tiny
 * negative is 0 here. */
static double frame_value(float v)
{
	return fabs((double)v) < 0.0005 ? 0.0 : (double)v;
}

/* "0.950[#21761]", "0.420[dyn#3]" (a DynamicAnimation run), "1.000[not an animator]", or
 * "0.750" when the writer is unknown. */
static void write_text(struct sink_box *b, const struct prop_write *w)
{
	fprintf(b->out, "%.3f", frame_value(w->value));
	if (w->writer == WRITER_ANIMATOR)
		fprintf(b->out, "[#%lld]", (long long)w->anim);
	else if (w->writer == WRITER_DYNAMIC)
		fprintf(b->out, "[dyn#%llu]", (unsigned long long)w->anim);
	else if (w->writer == WRITER_CODE)
		fputs("[not an animator]", b->out);
}

/* " alpha=0.950[#21761],(2 more),0.517[#21762]": each write kept, in order, with its writer. */
static void prop_writes(struct sink_box *b, const struct node_props *np, int p)
{
	int n = np->n_writes[p] < AT_PROP_WRITES ? np->n_writes[p] : AT_PROP_WRITES;

	fprintf(b->out, " %s=", view_prop_short(p));
	if (!n) { /* a record without its writes: the last value and the count */
		fprintf(b->out, "%.3f", frame_value(np->values[p]));
		if (np->sets[p] > 1)
			fprintf(b->out, "(x%u)", np->sets[p]);
		if (np->writer_mask & 1u << p)
			fprintf(b->out, " [#%lld]", (long long)np->writer[p]);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', b->out);
		if (i == n - 1 && np->writes_left_out[p])
			fprintf(b->out, "(%u more),", np->writes_left_out[p]);
		write_text(b, &np->writes[p][i]);
	}
}

/* "│   NotificationRow@51c0 alpha=0.500,0.750 transY=-45.000", one line per node. */
static void node_lines(struct sink_box *b, const struct frame_props *fp)
{
	char node[96];

	for (int i = 0; i < fp->n_nodes; i++) {
		const struct node_props *np = &fp->nodes[i];

		fprintf(b->out, "%s%s   %s", color_on(b, ANSI_DIM), b->g->v,
			box_node_label(node, sizeof(node), np->node_name, np->node));
		for (int p = 0; p < PROP_COUNT; p++)
			if (np->set_mask & 1u << p)
				prop_writes(b, np, p);
		fprintf(b->out, "%s\n", color_on(b, ANSI_RESET));
	}
}

/* Values that belong to no frame line: a header of their own, then the node lines. */
static void orphan_lines(struct sink_box *b, const struct frame_props *fp)
{
	char t[32];

	fmt_sec(t, sizeof(t), fp->ts_ns);
	if (fp->in_frame)
		fprintf(b->out, "%s%s frame %llu values%s\n", color_on(b, ANSI_DIM), b->g->v,
			(unsigned long long)fp->frame_seq, color_on(b, ANSI_RESET));
	else
		fprintf(b->out, "%s%s outside any frame %s (pid %u, tid %u)%s\n",
			color_on(b, ANSI_DIM), b->g->v, t, fp->pid, fp->tid,
			color_on(b, ANSI_RESET));
	node_lines(b, fp);
}

static struct pending *pending_find(struct sink_box *b, uint32_t pid)
{
	for (size_t i = 0; i < b->n_pend; i++)
		if (b->pend[i].fp.pid == pid)
			return &b->pend[i];
	return NULL;
}

static void pending_drop(struct sink_box *b, struct pending *pd)
{
	free(pd->nodes);
	*pd = b->pend[--b->n_pend];
}

/* Keeps a copy of fp for its frame line; false when that cannot be done. */
static bool pending_add(struct sink_box *b, const struct frame_props *fp)
{
	struct pending *pd;
	size_t size = (size_t)fp->n_nodes * sizeof(*fp->nodes);

	if (b->n_pend == b->cap_pend) {
		size_t ncap = b->cap_pend ? b->cap_pend * 2 : 4;
		struct pending *np = realloc(b->pend, ncap * sizeof(*np));

		if (!np)
			return false;
		b->pend = np;
		b->cap_pend = ncap;
	}
	pd = &b->pend[b->n_pend];
	pd->nodes = malloc(size ? size : 1);
	if (!pd->nodes)
		return false;
	memcpy(pd->nodes, fp->nodes, size);
	pd->fp = *fp;
	pd->fp.nodes = pd->nodes;
	b->n_pend++;
	return true;
}

/*
 * The engine sends a frame's values when its doFrame ends, before the frame line (which
 * waits for the draw): hold them so they print under that line.
 */
static int on_frame_props(void *ctx, const struct frame_props *fp)
{
	struct sink_box *b = ctx;
	struct pending *old;

	if (!b->o.frames)
		return out_status(b->out);
	if (!fp->in_frame) {
		orphan_lines(b, fp);
		return out_status(b->out);
	}
	old = pending_find(b, fp->pid);
	if (old) { /* its frame line never came */
		orphan_lines(b, &old->fp);
		pending_drop(b, old);
	}
	if (!pending_add(b, fp))
		orphan_lines(b, fp);
	return out_status(b->out);
}

void box__pending_flush(struct sink_box *b)
{
	while (b->n_pend) {
		orphan_lines(b, &b->pend[0].fp);
		pending_drop(b, &b->pend[0]);
	}
}

/* --refresh: " redrawn: NotificationRow@80e0, ScrimView@51c0 vsync requests: 1". */
static void frame_redraws(struct sink_box *b, const struct frame *f)
{
	char node[96];

	if (!f->refresh || (!f->n_redraws && !f->vsync_requests))
		return;
	if (f->n_redraws)
		fputs(" redrawn:", b->out);
	for (int i = 0; i < f->n_redraws; i++)
		fprintf(b->out, "%s %s", i ? "," : "",
			box_node_label(node, sizeof(node), f->redraws[i].node_name,
				       f->redraws[i].node));
	if (f->redraws_dropped)
		fprintf(b->out, " (+%u)", f->redraws_dropped);
	if (f->vsync_requests)
		fprintf(b->out, " vsync requests: %u", f->vsync_requests);
}

static int on_frame(void *ctx, const struct frame *f)
{
	static const char *const short_names[PHASE_COUNT] = {
		"input", "anim", "insets", "traversal", "commit", "draw",
	};
	struct sink_box *b = ctx;
	struct pending *pd;
	char ms[32];
	bool any = false;

	if (!b->o.frames)
		return out_status(b->out);
	fmt_ms1(ms, sizeof(ms), f->dur_ns);
	fprintf(b->out, "%s%s frame %llu", color_on(b, ANSI_DIM), b->g->v,
		(unsigned long long)f->seq);
	if (f->vsync_id >= 0)
		fprintf(b->out, " vsync %lld", (long long)f->vsync_id);
	fprintf(b->out, " %s ms", ms);
	if (f->janky) {
		fmt_ms1(ms, sizeof(ms), f->budget_ns);
		fprintf(b->out, " late (budget %s ms)", ms);
	}
	if (f->dropped_before)
		fprintf(b->out, " after %u dropped", f->dropped_before);
	for (int p = 0; p < PHASE_COUNT; p++) {
		if (!f->phase_ns[p])
			continue;
		fmt_ms1(ms, sizeof(ms), f->phase_ns[p]);
		fprintf(b->out, "%s%s %s", any ? " " : " [", short_names[p], ms);
		any = true;
	}
	fprintf(b->out, "%s anims: %d", any ? "]" : "", f->n_anims);
	frame_redraws(b, f);
	fprintf(b->out, "%s\n", color_on(b, ANSI_RESET));
	pd = pending_find(b, f->pid);
	if (pd && pd->fp.frame_seq == f->seq) {
		node_lines(b, &pd->fp);
		pending_drop(b, pd);
	}
	return out_status(b->out);
}

void box__running(struct sink_box *b, const struct anim *a, uint64_t last_ns)
{
	char title[AT_NAME_MAX + 32], name[AT_NAME_MAX], t[32], reason[128];

	snprintf(title, sizeof(title), "Still running at exit: %s",
		 clean(name, sizeof(name), a->name));
	box_open(b, ANSI_RED, title);
	anim_head(b, a, a->start_tid);
	fmt_sec(t, sizeof(t), a->start_ns);
	box_line(b, "Start:      %s", t);
	fmt_ms(t, sizeof(t), last_ns > a->start_ns ? last_ns - a->start_ns : 0);
	box_line(b, "Running:    %s at exit", t);
	box__config_begin(b, a);
	box_line(b, "Frames:     %u", a->frames);
	reason_text(reason, sizeof(reason), a);
	box_line(b, "Reason:     %s", reason);
	finding_lines(b, false, a->id, a->pid, a->start_ns);
	box_close(b);
}

/* "Choreographer#doFrame 34.0 ms > traversal 29.0 ms > inflate 21.0 ms" */
static void chain_text(char *buf, size_t size, const struct slice_chain *c)
{
	char name[AT_SLICE_NAME], ms[24];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->n && i < AT_CHAIN_MAX && n < size; i++) {
		fmt_ms1(ms, sizeof(ms), c->s[i].dur_ns);
		n += snprintf(buf + n, size - n, "%s%s %s ms", i ? " > " : "",
			      clean(name, sizeof(name), c->s[i].name), ms);
	}
}

static void jank_title(char *buf, size_t size, const struct jank *j)
{
	char d[24], budget[24];

	fmt_ms1(d, sizeof(d), j->duration_ns);
	fmt_ms1(budget, sizeof(budget), j->budget_ns);
	if (j->kind == JANK_LATE)
		snprintf(buf, size, "Jank: late frame %llu, %s ms (budget %s ms)",
			 (unsigned long long)j->frame_seq, d, budget);
	else if (j->kind == JANK_DROPPED)
		snprintf(buf, size, "Jank: %u frames dropped before frame %llu (gap %s ms)",
			 j->dropped_before, (unsigned long long)j->frame_seq, d);
	else
		snprintf(buf, size, "Jank: UI thread blocked %s ms (budget %s ms)", d, budget);
}

/* A frame's jank: when it started after its vsync and what held its thread then, and
 * SurfaceFlinger's FrameTimeline verdict. */
static void jank_timing(struct sink_box *b, const struct jank *j)
{
	char line[AT_CHAIN_MAX * (AT_SLICE_NAME + 20)], delay[24], deadline[24],
		layer[AT_LAYER_MAX];

	if (j->kind != JANK_LATE || !j->vsync_ns)
		return;
	fmt_ms1(delay, sizeof(delay), j->start_delay_ns);
	fmt_ms1(deadline, sizeof(deadline), j->deadline_ns - j->vsync_ns);
	box_line(b, "Vsync:      started %s ms after it, deadline %s ms after it", delay, deadline);
	if (j->start.n) {
		chain_text(line, sizeof(line), &j->start);
		box_line(b, "Delayed by: %s", line);
	}
	if (j->timeline.judged) {
		ft_jank_string(j->timeline.jank_type, line, sizeof(line));
		box_line(b, "Timeline:   %s, present %s, layer %s", line,
			 ft_present_name(j->timeline.present),
			 clean(layer, sizeof(layer), j->timeline.layer));
	}
}

static int on_jank(void *ctx, const struct jank *j)
{
	struct sink_box *b = ctx;
	char title[128], line[AT_CHAIN_MAX * (AT_SLICE_NAME + 20)], proc[AT_PROC_MAX], t[32];
	size_t n = 0;

	jank_title(title, sizeof(title), j);
	box_open(b, ANSI_RED, title);
	fmt_sec(t, sizeof(t), j->ts_ns);
	box_line(b, "At:         %s", t);
	line[0] = '\0';
	for (int i = 0; i < j->n_anims && n < 200; i++)
		n += snprintf(line + n, sizeof(line) - n, "%s%llu", i ? ", " : "",
			      (unsigned long long)j->anim_ids[i]);
	box_line(b, "Animators:  %s", j->n_anims ? line : "none");
	if (j->ui.n) {
		chain_text(line, sizeof(line), &j->ui);
		box_line(b, "UI thread:  %s", line);
	}
	if (j->render.n) {
		chain_text(line, sizeof(line), &j->render);
		box_line(b, "RenderThread: %s", line);
	}
	jank_timing(b, j);
	clean(proc, sizeof(proc), j->process);
	box_line(b, "Process:    %s%s(pid %u, tid %u)", proc, *proc ? " " : "", j->pid, j->tid);
	box_close(b);
	return out_status(b->out);
}

/* "Refresh storm: BatteryMeterView@1a2b redrawn in 120 frames (2.0 s), no animation running" */
static int on_refresh_storm(void *ctx, const struct refresh_storm *r)
{
	struct sink_box *b = ctx;
	char title[192], node[96], t[32], proc[AT_PROC_MAX];
	uint64_t tenths = (r->duration_ns + 50000000ull) / 100000000ull;

	snprintf(t, sizeof(t), "%llu.%llu s", (unsigned long long)(tenths / 10),
		 (unsigned long long)(tenths % 10));
	if (r->node)
		snprintf(title, sizeof(title),
			 "Refresh storm: %s redrawn in %u frames (%s), no "
			 "animation running",
			 box_node_label(node, sizeof(node), r->node_name, r->node), r->node_frames,
			 t);
	else
		snprintf(title, sizeof(title),
			 "Refresh storm: frames requested in %u frames (%s), "
			 "no animation running",
			 r->frames, t);
	box_open(b, ANSI_RED, title);
	fmt_sec(t, sizeof(t), r->first_ns);
	box_line(b, "At:         %s", t);
	box_line(b, "Frames:     %u in a row, %u View%s redrawn, %u vsync requests", r->frames,
		 r->n_views, r->n_views == 1 ? "" : "s", r->vsync_requests);
	stack_lines(b, "RequestedBy:", r->stack, r->n_stack);
	clean(proc, sizeof(proc), r->process);
	box_line(b, "Process:    %s%s(pid %u)", proc, *proc ? " " : "", r->pid);
	box_close(b);
	return out_status(b->out);
}

/*
 * "CUJ SHADE_EXPAND_COLLAPSE (412.3 ms): 25 frames, 2 janky, 3 dropped": the frames, the
 * animators (cookies) and unmarked animations that ran inside an InteractionJankMonitor CUJ;
 * "(412.3 ms, cancelled)" when FrameTracker cancelled it, with its reason.
 */
static void cuj_title(char *title, size_t size, const struct cuj *c)
{
	char name[AT_NAME_MAX], t[32];

	clean(name, sizeof(name), c->name);
	if (c->ended)
		fmt_ms1(t, sizeof(t), c->end_ns - c->begin_ns);
	snprintf(title, size, "CUJ %.100s (%s%s%s)", name, c->ended ? t : "not ended",
		 c->ended ? " ms" : "", c->cancelled ? ", cancelled" : "");
}

static int on_cuj(void *ctx, const struct cuj *c)
{
	struct sink_box *b = ctx;
	char title[192], t[32], proc[AT_PROC_MAX];
	const char *why = c->has_reason ? cuj_reason_str(c->reason) : NULL;

	cuj_title(title, sizeof(title), c);
	box_open(b, c->janky_frames || c->frames_dropped ? ANSI_YELLOW : ANSI_GREEN, title);
	fmt_sec(t, sizeof(t), c->begin_ns);
	box_line(b, "At:         %s (begin vsync %lld)", t, (long long)c->begin_vsync);
	if (c->has_reason)
		box_line(b, "%s  FrameTracker reason %d%s%s%s",
			 c->cancelled ? "Cancelled:" : "Ended:    ", c->reason, why ? " (" : "",
			 why ? why : "", why ? ")" : "");
	box_line(b, "Frames:     %u, %u janky, %u dropped", c->frames, c->janky_frames,
		 c->frames_dropped);
	fprintf(b->out, "%s Animators:  %d", b->g->v, c->n_anims + (int)c->anims_left_out);
	for (int i = 0; i < c->n_anims && c->anim_ids && i < 8; i++)
		fprintf(b->out, "%s #%lld", i ? "," : " (", (long long)c->anim_ids[i]);
	fprintf(b->out, "%s\n", c->n_anims ? (c->n_anims > 8 ? ", ...)" : ")") : "");
	box_line(b, "Unmarked:   %u animation%s", c->animations, c->animations == 1 ? "" : "s");
	clean(proc, sizeof(proc), c->process);
	box_line(b, "Process:    %s%s(pid %u)", proc, *proc ? " " : "", c->pid);
	box_close(b);
	return out_status(b->out);
}

static int on_note(void *ctx, const char *msg)
{
	struct sink_box *b = ctx;

	/* Notes name processes and paths: whole, escaped. */
	fputs("note: ", b->out);
	termesc_put(b->out, msg, strlen(msg));
	fputc('\n', b->out);
	return out_status(b->out);
}

/*
 * The Begin box printed before the animator ran; its first frame with exact writes says
 * what it moves: "│ Target: #168950273 animator -> NotificationRow@51c0 alpha, ...".
 */
static int on_anim_target(void *ctx, const struct anim *a)
{
	struct sink_box *b = ctx;
	char name[AT_NAME_MAX], node[96];

	fprintf(b->out, "%s Target: #%lld %s %s", b->g->v, (long long)a->id,
		clean(name, sizeof(name), a->name), b->g->arrow);
	for (int i = 0; i < a->n_targets && a->targets; i++) {
		const struct anim_target *t = &a->targets[i];

		fprintf(b->out, "%s %s", i ? "," : "",
			box_node_label(node, sizeof(node), t->node_name, t->node));
		for (int k = 0; k < t->n_props && k < AT_TARGET_PROPS; k++)
			fprintf(b->out, " %s", view_prop_short(t->props[k].prop));
	}
	fputc('\n', b->out);
	return out_status(b->out);
}

static const struct sink_ops box_ops = {
	.anim_target = on_anim_target,
	.anim_start = on_anim_start,
	.anim_end = on_anim_end,
	.frame = on_frame,
	.jank = on_jank,
	.summary = box__summary,
	.frame_props = on_frame_props,
	.note = on_note,
	.refresh_storm = on_refresh_storm,
	.animation_start = on_animation_start,
	.animation_end = on_animation_end,
	.cuj = on_cuj,
	.finding = on_finding,
	.dyn_start = on_dyn_start,
	.dyn_end = on_dyn_end,
};

struct sink_box *sink_box__new(FILE *out, const struct sink_box_opts *o)
{
	struct sink_box *b;

	if (!out) {
		errno = EINVAL;
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		errno = ENOMEM;
		return NULL;
	}
	b->out = out;
	if (o)
		b->o = *o;
	b->g = b->o.utf8 ? &glyphs_utf8 : &glyphs_ascii;
	return b;
}

struct sink_box *sink_box__new_mem(bool utf8)
{
	struct sink_box *b = calloc(1, sizeof(*b));

	if (!b) {
		errno = ENOMEM;
		return NULL;
	}
	b->o.utf8 = utf8;
	b->g = b->o.utf8 ? &glyphs_utf8 : &glyphs_ascii;
	b->out = open_memstream(&b->mem, &b->mem_len);
	b->mem_stream = b->out != NULL;
	if (!b->out) {
		free(b);
		errno = ENOMEM;
		return NULL;
	}
	return b;
}

const char *sink_box__take(struct sink_box *b, size_t *len)
{
	if (fflush(b->out) || ferror(b->out))
		return NULL;
	/* the flush sets mem_len to the stream's position: the length since the last take
	 * (rewound below); the buffer always holds a byte past the longest text written */
	*len = b->mem_len;
	b->mem[b->mem_len] = '\0';
	rewind(b->out);
	return b->mem;
}

void sink_box__frame_values(struct sink_box *b, const struct frame_props *fp)
{
	node_lines(b, fp);
}

void sink_box__finding(struct sink_box *b, const struct finding *f)
{
	char proc[AT_PROC_MAX], ids[AT_FINDING_IDS * 24] = "", t[32];
	size_t n = 0;

	finding_line(b, f);
	for (int i = 0; i < f->n_ids && i < AT_FINDING_IDS; i++)
		n += snprintf(ids + n, sizeof(ids) - n, "%s#%lld", i ? ", " : " ",
			      (long long)f->ids[i]);
	clean(proc, sizeof(proc), f->process);
	fmt_sec(t, sizeof(t), f->ts_ns);
	box_line(b, "Concerns:   %s%s%s, %s%s(pid %u), at %s",
		 f->unmarked ? "animation" : "animator", f->n_ids > 1 ? "s" : "", ids, proc,
		 *proc ? " " : "", f->pid, t);
}

const char *box_escape(char *dst, size_t size, const char *src)
{
	return clean(dst, size, src);
}

struct sink sink_box__sink(struct sink_box *b)
{
	return (struct sink){ .ops = &box_ops, .ctx = b };
}

void sink_box__free(struct sink_box *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_pend; i++)
		free(b->pend[i].nodes);
	free(b->pend);
	if (b->mem_stream) {
		fclose(b->out);
		free(b->mem);
	}
	free(b);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * JSON lines sink. Keys are written in a fixed order so output can be diffed and
 * golden-tested; times are integers (nanoseconds); the only floats are View property
 * values, printed with %.9g so each parses back to the exact float.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/jsonconfig.h"
#include "sinks/jsonout.h"
#include "common/frametimeline.h"
#include "sinks/json.h"

struct sink_json {
	FILE *out;
	uint64_t last_ns; /* notes carry no time of their own */
};

static void put_u64(FILE *out, const char *key, uint64_t v)
{
	fprintf(out, ",\"%s\":%llu", key, (unsigned long long)v);
}

/* The four keys every record starts with, after "type". */
static void put_common(FILE *out, uint64_t ts_ns, uint32_t pid, uint32_t tid, const char *proc)
{
	fprintf(out,
		",\"ts_ns\":%llu,\"pid\":%u,\"tid\":%u,\"process\":", (unsigned long long)ts_ns,
		pid, tid);
	json_put_str(out, proc);
}

static void put_name(FILE *out, const char *key, const char *v);

/* Identity keys of an animator: id, name, kind, properties, restarts, started_by, set_caller. */
static void put_anim_id(FILE *out, const struct anim *a)
{
	fprintf(out, ",\"id\":%lld", (long long)a->id); /* atrace cookies are signed */
	fputs(",\"name\":", out);
	json_put_str(out, a->name);
	fprintf(out, ",\"kind\":\"%s\",\"properties\":[", anim_kind_str(a->kind));
	for (int i = 0; i < a->n_props; i++) {
		if (i)
			fputc(',', out);
		json_put_str(out, a->props[i]);
	}
	fprintf(out, "],\"restarts\":%u", a->restarts);
	/* who started it (--stacks): "AnimatorSet" (with the set's caller, null when unknown),
	 * "ViewPropertyAnimator", or null */
	put_name(out, "started_by", anim_starter_str(a->starter));
	put_name(out, "set_caller", a->set_caller[0] ? a->set_caller : NULL);
}

/* ,"key":"v", or ,"key":null without v. */
static void put_name(FILE *out, const char *key, const char *v)
{
	fprintf(out, ",\"%s\":", key);
	if (v)
		json_put_str(out, v);
	else
		fputs("null", out);
}

/* ,"<label_key>":"NotificationRow@80e0","<class_key>":"NotificationRow" (or null). */
static void put_node_names(FILE *out, const char *label_key, const char *class_key,
			   const char *name, uint64_t node)
{
	char label[AT_NODE_LABEL_MAX];
	const char *cls = node_class(name);

	fprintf(out, ",\"%s\":", label_key);
	json_put_str(out, node_label(label, sizeof(label), name, node));
	put_name(out, class_key, cls);
}

/* ,"target_fits":[{"node","node_name","node_class","frames"}...],"target_fits_more":false:
 * the nodes an inferred target was chosen among (more than one: it may be another). */
static void put_fits(FILE *out, const struct anim *a)
{
	fputs(",\"target_fits\":[", out);
	for (int i = 0; i < a->n_fits && i < AT_FITS; i++) {
		fprintf(out, "%s{\"node\":\"0x%llx\"", i ? "," : "",
			(unsigned long long)a->fits[i].node);
		put_node_names(out, "node_name", "node_class", a->fits[i].node_name,
			       a->fits[i].node);
		fprintf(out, ",\"frames\":%u}", a->fits[i].frames);
	}
	fprintf(out, "],\"target_fits_more\":%s", a->fits_more ? "true" : "false");
}

/* The target keys of an animator_end: what the animator moved, from which value to which. */
static void put_anim_target(FILE *out, const struct anim *a)
{
	if (!a->target_node) {
		fputs(",\"target\":null,\"target_name\":null,\"target_class\":null,"
		      "\"target_source\":null,\"changes\":{}",
		      out);
		return;
	}
	fprintf(out, ",\"target\":\"0x%llx\"", (unsigned long long)a->target_node);
	put_node_names(out, "target_name", "target_class", a->target_name, a->target_node);
	fprintf(out, ",\"target_source\":%s",
		a->target_exact	   ? "\"exact\"" :
		a->target_inferred ? "\"inferred\"" :
				     "null");
	if (a->target_inferred)
		put_fits(out, a);
	fputs(",\"changes\":{", out);
	for (int i = 0; i < a->n_changes; i++) {
		fprintf(out, "%s\"%s\":{\"from\":", i ? "," : "",
			view_prop_str(a->changes[i].prop));
		json_put_float(out, a->changes[i].from);
		fputs(",\"to\":", out);
		json_put_float(out, a->changes[i].to);
		fprintf(out, ",\"shared_frames\":%u}", a->series[i].shared_frames);
	}
	fputc('}', out);
}

/* "alpha":{"from":1,"to":0,"sets":17},... : what one animator wrote on one node. */
static void put_target_props(FILE *out, const struct anim_target *t)
{
	for (int i = 0; i < t->n_props && i < AT_TARGET_PROPS; i++) {
		fprintf(out, "%s\"%s\":{\"from\":", i ? "," : "", view_prop_str(t->props[i].prop));
		json_put_float(out, t->props[i].from);
		fputs(",\"to\":", out);
		json_put_float(out, t->props[i].to);
		fprintf(out, ",\"sets\":%u,\"shared_frames\":%u}", t->props[i].sets,
			t->props[i].series.shared_frames);
	}
}

/* "targets":[{"node","node_name","node_class","properties"}...], most writes first. */
static void put_targets(FILE *out, const struct anim *a)
{
	fputs(",\"targets\":[", out);
	for (int i = 0; i < a->n_targets && a->targets; i++) {
		const struct anim_target *t = &a->targets[i];

		fprintf(out, "%s{\"node\":\"0x%llx\"", i ? "," : "", (unsigned long long)t->node);
		put_node_names(out, "node_name", "node_class", t->node_name, t->node);
		put_u64(out, "writes", t->writes);
		fputs(",\"properties\":{", out);
		put_target_props(out, t);
		fputs("}}", out);
	}
	fputc(']', out);
	put_u64(out, "targets_left_out", a->targets_left_out);
}

/* The start delay measured from the start() probe to the S marker; null without it. */
static void put_start_delay(FILE *out, const struct anim *a)
{
	if (a->has_start_delay)
		put_u64(out, "start_delay_ns", a->start_delay_ns);
	else
		fputs(",\"start_delay_ns\":null", out);
}

/* --stacks: "key":["com.foo.Bar.baz",...], innermost first; nothing when unknown. */
static void put_stack(FILE *out, const char *key, const char (*frames)[AT_FRAME_NAME], int n)
{
	if (n <= 0)
		return;
	fprintf(out, ",\"%s\":[", key);
	for (int i = 0; i < n && i < AT_STACK_FRAMES; i++) {
		if (i)
			fputc(',', out);
		json_put_str(out, frames[i]);
	}
	fputc(']', out);
}

/* ,"interpolator":{"name":"FastOutSlowIn","rms":0.004}: fitted from its values. */
static void put_interpolator(FILE *out, const struct anim *a)
{
	fputs(",\"interpolator\":{\"name\":", out);
	json_put_str(out, a->interpolator);
	if (isfinite(a->interp_rms))
		fprintf(out, ",\"rms\":%.6g}", a->interp_rms);
	else
		fputs(",\"rms\":null}", out);
}

/* The end keys: start_ns, duration_ns (null without a start or while running), ... */
static void put_anim_end(FILE *out, const struct anim *a)
{
	if (a->start_ns)
		put_u64(out, "start_ns", a->start_ns);
	else
		fputs(",\"start_ns\":null", out);
	if (a->start_ns && a->end_ns)
		put_u64(out, "duration_ns", a->end_ns - a->start_ns);
	else
		fputs(",\"duration_ns\":null", out);
	put_u64(out, "frames", a->frames);
	put_u64(out, "frames_dropped", a->frames_dropped);
	put_u64(out, "janky_frames", a->janky_frames);
	put_u64(out, "worst_frame_ns", a->worst_frame_ns);
	put_u64(out, "worst_gap_ns", a->worst_gap_ns);
	fprintf(out, ",\"reason\":\"%s\",\"reason_source\":\"%s\"", end_reason_str(a->reason),
		reason_source_str(a->reason_source));
	put_anim_target(out, a);
	put_targets(out, a);
	put_start_delay(out, a);
	json_put_config(out, &a->config);
	put_stack(out, "start_stack", a->start_stack, a->n_start_stack);
	put_stack(out, "end_stack", a->end_stack, a->n_end_stack);
	if (a->refresh_traced) /* --refresh: its frames in which its target re-recorded */
		put_u64(out, "target_redraws", a->target_redraws);
	if (a->interpolator)
		put_interpolator(out, a);
}

static void note_ts(struct sink_json *j, uint64_t ts_ns)
{
	if (ts_ns > j->last_ns)
		j->last_ns = ts_ns;
}

/* "node":"0x..","node_name":"Class@xxxx","node_class":.. of a View (--refresh). */
static void put_node(FILE *out, uint64_t node, const char *name)
{
	fprintf(out, "\"node\":\"0x%llx\"", (unsigned long long)node);
	put_node_names(out, "node_name", "node_class", name, node);
}

/* --refresh: ,"redraws":[{"node","node_name"}],"vsync_requests":N of a frame. */
static void put_frame_redraws(FILE *out, const struct frame *f)
{
	if (!f->refresh)
		return;
	fputs(",\"redraws\":[", out);
	for (int i = 0; i < f->n_redraws; i++) {
		fputs(i ? ",{" : "{", out);
		put_node(out, f->redraws[i].node, f->redraws[i].node_name);
		fputc('}', out);
	}
	fputc(']', out);
	if (f->redraws_dropped)
		put_u64(out, "redraws_dropped", f->redraws_dropped);
	put_u64(out, "vsync_requests", f->vsync_requests);
}

static int on_refresh_storm(void *ctx, const struct refresh_storm *r)
{
	struct sink_json *j = ctx;

	note_ts(j, r->first_ns);
	fputs("{\"type\":\"refresh_storm\"", j->out);
	put_common(j->out, r->first_ns, r->pid, 0, r->process);
	fputc(',', j->out);
	if (r->node)
		put_node(j->out, r->node, r->node_name);
	else
		fputs("\"node\":null,\"node_name\":null", j->out);
	put_u64(j->out, "node_frames", r->node_frames);
	put_u64(j->out, "views", r->n_views);
	put_u64(j->out, "frames", r->frames);
	put_u64(j->out, "vsync_requests", r->vsync_requests);
	put_u64(j->out, "first_ns", r->first_ns);
	put_u64(j->out, "duration_ns", r->duration_ns);
	put_stack(j->out, "stack", r->stack, r->n_stack);
	fputs("}\n", j->out);
	return out_status(j->out);
}

/*
 * {"type":"cuj","ts_ns"(its begin),"pid","tid","process","name","begin_vsync","begin_ns",
 *  "end_ns"(null when it did not end),"ended","duration_ns"(null likewise),"cancelled",
 *  "reason"(FrameTracker's, null when unsaid),"frames","janky_frames","frames_dropped",
 *  "animators":[ids],"animators_left_out","animations"}
 */
static int on_cuj(void *ctx, const struct cuj *c)
{
	struct sink_json *j = ctx;

	note_ts(j, c->begin_ns);
	fputs("{\"type\":\"cuj\"", j->out);
	put_common(j->out, c->begin_ns, c->pid, c->tid, c->process);
	put_name(j->out, "name", c->name);
	fprintf(j->out, ",\"begin_vsync\":%lld", (long long)c->begin_vsync);
	put_u64(j->out, "begin_ns", c->begin_ns);
	if (c->ended) {
		put_u64(j->out, "end_ns", c->end_ns);
		fputs(",\"ended\":true", j->out);
		put_u64(j->out, "duration_ns", c->end_ns - c->begin_ns);
	} else {
		fputs(",\"end_ns\":null,\"ended\":false,\"duration_ns\":null", j->out);
	}
	fprintf(j->out, ",\"cancelled\":%s", c->cancelled ? "true" : "false");
	if (c->has_reason)
		fprintf(j->out, ",\"reason\":%d", c->reason);
	else
		fputs(",\"reason\":null", j->out);
	put_u64(j->out, "frames", c->frames);
	put_u64(j->out, "janky_frames", c->janky_frames);
	put_u64(j->out, "frames_dropped", c->frames_dropped);
	fputs(",\"animators\":[", j->out);
	for (int i = 0; i < c->n_anims && c->anim_ids; i++)
		fprintf(j->out, "%s%lld", i ? "," : "", (long long)c->anim_ids[i]);
	fputc(']', j->out);
	put_u64(j->out, "animators_left_out", c->anims_left_out);
	put_u64(j->out, "animations", c->animations);
	fputs("}\n", j->out);
	return out_status(j->out);
}

/* ,"key":v for a fitted number (%.6g: the fit is no more precise); null when not finite. */
static void put_dbl(FILE *out, const char *key, double v)
{
	if (isfinite(v))
		fprintf(out, ",\"%s\":%.6g", key, v);
	else
		fprintf(out, ",\"%s\":null", key);
}

/* "fit":{...}: the keys of its kind (see struct fit_result), then rms. */
static void put_fit(FILE *out, const struct fit_result *f)
{
	fprintf(out, ",\"fit\":{\"kind\":\"%s\"", fit_kind_str(f->kind));
	if (f->kind == FIT_SPRING) {
		put_dbl(out, "stiffness", f->stiffness);
		put_name(out, "stiffness_name", f->stiffness_name);
		put_dbl(out, "damping_ratio", f->damping_ratio);
		put_name(out, "damping_name", f->damping_name);
		put_dbl(out, "final_position", f->final_position);
		put_dbl(out, "start_velocity", f->start_velocity);
		put_dbl(out, "overshoot_pct", f->overshoot_pct);
		put_dbl(out, "settle_ms", f->settle_ms);
	} else if (f->kind == FIT_FLING) {
		put_dbl(out, "friction_scalar", f->friction_scalar);
		put_dbl(out, "start_velocity", f->start_velocity);
		put_dbl(out, "final_position", f->final_position);
		fprintf(out, ",\"at_bound\":%s", f->at_bound ? "true" : "false");
	} else if (f->kind == FIT_INTERPOLATED) {
		put_name(out, "interpolator", f->interpolator);
		put_dbl(out, "interpolator_rms", f->interp_rms);
		put_dbl(out, "duration_ms", f->duration_ms);
	}
	put_dbl(out, "rms", f->rms);
	fputc('}', out);
}

/* ,"properties":{"translationY":{"from":0,"to":300,"frames":21[,"fit":{...}]},...} */
static void put_animation_props(FILE *out, const struct animation *a)
{
	fputs(",\"properties\":{", out);
	for (int i = 0; i < a->n_props; i++) {
		const struct animation_prop *ap = &a->props[i];

		fprintf(out, "%s\"%s\":{\"from\":", i ? "," : "", view_prop_str(ap->prop));
		json_put_float(out, ap->from);
		fputs(",\"to\":", out);
		json_put_float(out, ap->to);
		put_u64(out, "frames", ap->frames);
		if (ap->fitted)
			put_fit(out, &ap->fit);
		fputc('}', out);
	}
	fputc('}', out);
}

/* The keys of animation_start/_end after the common ones; start: kind "unknown", no fit. */
static void put_animation(FILE *out, const struct animation *a)
{
	put_u64(out, "id", a->id);
	fprintf(out, ",\"kind\":\"%s\",\"node\":\"0x%llx\"",
		a->ended ? fit_kind_str(a->kind) : "unknown", (unsigned long long)a->node);
	put_node_names(out, "node_name", "node_class", a->node_name, a->node);
	put_animation_props(out, a);
	put_u64(out, "start_ns", a->start_ns);
	put_u64(out, "duration_ns", a->duration_ns);
	put_u64(out, "frames", a->frames);
	put_u64(out, "frames_dropped", a->frames_dropped);
	put_u64(out, "janky_frames", a->janky_frames);
	put_u64(out, "worst_frame_ns", a->worst_frame_ns);
	put_u64(out, "worst_gap_ns", a->worst_gap_ns);
	if (!a->ended)
		return;
	fprintf(out, ",\"reason\":\"%s\"", end_reason_str(a->reason));
	if (a->n_props && a->props[0].fitted)
		put_fit(out, &a->props[0].fit);
}

/* One animation_start or animation_end line at ts_ns. */
static int put_animation_record(struct sink_json *j, const char *type, uint64_t ts_ns,
				const struct animation *a)
{
	note_ts(j, ts_ns);
	fprintf(j->out, "{\"type\":\"%s\"", type);
	put_common(j->out, ts_ns, a->pid, a->tid, a->process);
	put_animation(j->out, a);
	fputs("}\n", j->out);
	return out_status(j->out);
}

/* --refresh: ,"redraws":[{"pid","node","node_name","frames"}], most redrawn first. */
static void put_redraw_views(FILE *out, const struct summary *s)
{
	if (!s->refresh)
		return;
	fputs(",\"redraws\":[", out);
	for (int i = 0; i < s->n_redraw_views; i++) {
		const struct redraw_stat *r = &s->redraw_views[i];

		fprintf(out, "%s{\"pid\":%u,", i ? "," : "", r->pid);
		put_node(out, r->node, r->node_name);
		fprintf(out, ",\"frames\":%llu}", (unsigned long long)r->frames);
	}
	fputc(']', out);
}

static int on_animation_start(void *ctx, const struct animation *a)
{
	return put_animation_record(ctx, "animation_start", a->start_ns, a);
}

static int on_animation_end(void *ctx, const struct animation *a)
{
	return put_animation_record(ctx, "animation_end", a->start_ns + a->duration_ns, a);
}

/* ,"animations":{"spring":1,...,"longest":[{...}]}: the unmarked animations that ended. */
static void put_animations(FILE *out, const struct summary *s)
{
	fputs(",\"animations\":{", out);
	for (int k = 0; k <= FIT_OTHER; k++)
		fprintf(out, "%s\"%s\":%llu", k ? "," : "", fit_kind_str((enum fit_kind)k),
			(unsigned long long)s->animations[k]);
	fputs(",\"longest\":[", out);
	for (int i = 0; i < s->n_unmarked; i++) {
		const struct animation *a = &s->unmarked[i];

		fprintf(out, "%s{\"ts_ns\":%llu,\"pid\":%u,\"process\":", i ? "," : "",
			(unsigned long long)a->start_ns, a->pid);
		json_put_str(out, a->process);
		put_animation(out, a);
		fputc('}', out);
	}
	fputs("]}", out);
}

static int on_anim_start(void *ctx, const struct anim *a)
{
	struct sink_json *j = ctx;

	note_ts(j, a->start_ns);
	fputs("{\"type\":\"animator_start\"", j->out);
	put_common(j->out, a->start_ns, a->pid, a->start_tid, a->process);
	put_anim_id(j->out, a);
	put_start_delay(j->out, a);
	json_put_config(j->out, &a->config);
	put_stack(j->out, "start_stack", a->start_stack, a->n_start_stack);
	fputs("}\n", j->out);
	return out_status(j->out);
}

/* An animator's first frame with exact writes: the nodes it moves so far. */
static int on_anim_target(void *ctx, const struct anim *a)
{
	struct sink_json *j = ctx;

	fputs("{\"type\":\"animator_target\"", j->out);
	put_common(j->out, j->last_ns, a->pid, a->start_tid, a->process);
	put_anim_id(j->out, a);
	put_targets(j->out, a);
	fputs("}\n", j->out);
	return out_status(j->out);
}

static int on_anim_end(void *ctx, const struct anim *a)
{
	struct sink_json *j = ctx;

	note_ts(j, a->end_ns);
	fputs("{\"type\":\"animator_end\"", j->out);
	put_common(j->out, a->end_ns, a->pid, a->end_tid, a->process);
	put_anim_id(j->out, a);
	put_anim_end(j->out, a);
	fputs("}\n", j->out);
	return out_status(j->out);
}

/* ,"timeline":{"jank_types":[...],"present":"late","layer":"..."}: SurfaceFlinger's verdict
 * in Perfetto's names; nothing when FrameTimeline did not judge the frame. */
static void put_timeline(FILE *out, const struct frame_timeline *t)
{
	const char *names[16];
	size_t n;

	if (!t->judged)
		return;
	n = ft_jank_names(t->jank_type, names, sizeof(names) / sizeof(names[0]));
	fputs(",\"timeline\":{\"jank_types\":[", out);
	for (size_t i = 0; i < n && i < sizeof(names) / sizeof(names[0]); i++) {
		if (i)
			fputc(',', out);
		json_put_str(out, names[i]);
	}
	fprintf(out, "],\"present\":\"%s\",\"layer\":", ft_present_name(t->present));
	json_put_str(out, t->layer);
	fputc('}', out);
}

/* A frame's smoothness keys: its budget, vsync, start delay and deadline, whether it was
 * late, vsyncs missed before it, FrameTimeline's verdict. */
static void put_frame_smooth(FILE *out, const struct frame *f)
{
	put_u64(out, "budget_ns", f->budget_ns);
	put_u64(out, "vsync_ns", f->vsync_ns);
	put_u64(out, "start_delay_ns", f->start_delay_ns);
	put_u64(out, "deadline_ns", f->deadline_ns);
	fprintf(out, ",\"janky\":%s", f->janky ? "true" : "false");
	put_u64(out, "dropped_before", f->dropped_before);
	put_timeline(out, &f->timeline);
}

static int on_frame(void *ctx, const struct frame *f)
{
	struct sink_json *j = ctx;
	bool first = true;

	note_ts(j, f->start_ns);
	fputs("{\"type\":\"frame\"", j->out);
	put_common(j->out, f->start_ns, f->pid, f->tid, f->process);
	put_u64(j->out, "seq", f->seq);
	if (f->vsync_id >= 0)
		fprintf(j->out, ",\"vsync_id\":%lld", (long long)f->vsync_id);
	else
		fputs(",\"vsync_id\":null", j->out);
	put_u64(j->out, "duration_ns", f->dur_ns);
	put_frame_smooth(j->out, f);
	fputs(",\"phases\":{", j->out);
	for (int p = 0; p < PHASE_COUNT; p++) {
		if (!f->phase_ns[p])
			continue;
		fprintf(j->out, "%s\"%s\":%llu", first ? "" : ",", frame_phase_str(p),
			(unsigned long long)f->phase_ns[p]);
		first = false;
	}
	fputs("},\"animators\":[", j->out);
	for (int i = 0; i < f->n_anims; i++)
		fprintf(j->out, "%s%lld", i ? "," : "", (long long)f->anim_ids[i]);
	fputc(']', j->out);
	put_frame_redraws(j->out, f);
	fputs("}\n", j->out);
	return out_status(j->out);
}

/* One node's values in one frame: "values" (last value) and "sets" (writes) by property. */
static void put_node_props(FILE *out, const struct node_props *np)
{
	bool first = true;

	fprintf(out, ",\"node\":\"0x%llx\"", (unsigned long long)np->node);
	put_node_names(out, "node_name", "node_class", np->node_name, np->node);
	fputs(",\"values\":{", out);
	for (int p = 0; p < PROP_COUNT; p++) {
		if (!(np->set_mask & 1u << p))
			continue;
		fprintf(out, "%s\"%s\":", first ? "" : ",", view_prop_str(p));
		json_put_float(out, np->values[p]);
		first = false;
	}
	fputs("},\"sets\":{", out);
	first = true;
	for (int p = 0; p < PROP_COUNT; p++) {
		if (!(np->set_mask & 1u << p))
			continue;
		fprintf(out, "%s\"%s\":%u", first ? "" : ",", view_prop_str(p), np->sets[p]);
		first = false;
	}
	fputc('}', out);
	if (!(np->set_mask & np->writer_mask))
		return;
	fputs(",\"writers\":{", out); /* the animator of each last write (animateValue probes) */
	first = true;
	for (int p = 0; p < PROP_COUNT; p++) {
		if (!(np->set_mask & np->writer_mask & 1u << p))
			continue;
		fprintf(out, "%s\"%s\":%lld", first ? "" : ",", view_prop_str(p),
			(long long)np->writer[p]);
		first = false;
	}
	fputc('}', out);
}

/* {"value":0.95,"by":"animator","id":21761}, "by":"dynamic_animation","id":3 (its dyn_start's
 * id), "by":"not_an_animator" or "unknown". */
static void put_write(FILE *out, const struct prop_write *w)
{
	fputs("{\"value\":", out);
	json_put_float(out, w->value);
	if (w->writer == WRITER_ANIMATOR)
		fprintf(out, ",\"by\":\"animator\",\"id\":%lld}", (long long)w->anim);
	else if (w->writer == WRITER_DYNAMIC)
		fprintf(out, ",\"by\":\"dynamic_animation\",\"id\":%llu}",
			(unsigned long long)w->anim);
	else
		fprintf(out, ",\"by\":\"%s\"}",
			w->writer == WRITER_CODE ? "not_an_animator" : "unknown");
}

/*
 * ,"writes":{"alpha":[write,...]}: each write of the frame in order with its writer (the
 * first AT_PROP_WRITES - 1 and the last), and "writes_left_out":{"alpha":2} for those between
 * that were not kept, when there were any.
 */
static void put_writes(FILE *out, const struct node_props *np)
{
	bool first = true, left_out = false, any = false;

	for (int p = 0; p < PROP_COUNT; p++)
		any |= (np->set_mask & 1u << p) && np->n_writes[p];
	if (!any) /* a record made without its writes: nothing to say */
		return;
	fputs(",\"writes\":{", out);
	for (int p = 0; p < PROP_COUNT; p++) {
		int n = np->n_writes[p] < AT_PROP_WRITES ? np->n_writes[p] : AT_PROP_WRITES;

		if (!(np->set_mask & 1u << p))
			continue;
		fprintf(out, "%s\"%s\":[", first ? "" : ",", view_prop_str(p));
		for (int i = 0; i < n; i++) {
			if (i)
				fputc(',', out);
			put_write(out, &np->writes[p][i]);
		}
		fputc(']', out);
		first = false;
		left_out |= np->writes_left_out[p] != 0;
	}
	fputc('}', out);
	if (!left_out)
		return;
	fputs(",\"writes_left_out\":{", out);
	first = true;
	for (int p = 0; p < PROP_COUNT; p++) {
		if (!(np->set_mask & 1u << p) || !np->writes_left_out[p])
			continue;
		fprintf(out, "%s\"%s\":%u", first ? "" : ",", view_prop_str(p),
			np->writes_left_out[p]);
		first = false;
	}
	fputc('}', out);
}

/* One record per node: consumers filter by node without unpacking a frame. */
static int on_frame_props(void *ctx, const struct frame_props *fp)
{
	struct sink_json *j = ctx;

	note_ts(j, fp->ts_ns);
	for (int i = 0; i < fp->n_nodes; i++) {
		fputs("{\"type\":\"frame_props\"", j->out);
		put_common(j->out, fp->ts_ns, fp->pid, fp->tid, fp->process);
		put_u64(j->out, "frame_seq", fp->frame_seq);
		if (fp->vsync_id >= 0)
			fprintf(j->out, ",\"frame_vsync_id\":%lld", (long long)fp->vsync_id);
		else
			fputs(",\"frame_vsync_id\":null", j->out);
		fprintf(j->out, ",\"in_frame\":%s", fp->in_frame ? "true" : "false");
		put_node_props(j->out, &fp->nodes[i]);
		put_writes(j->out, &fp->nodes[i]);
		fputs("}\n", j->out);
	}
	return out_status(j->out);
}

/* An animator inside the summary: the animator_end keys without "type". */
static void put_anim_obj(FILE *out, const struct anim *a)
{
	uint64_t ts = a->end_ns ? a->end_ns : a->start_ns;

	fprintf(out, "{\"ts_ns\":%llu,\"pid\":%u,\"tid\":%u,\"process\":", (unsigned long long)ts,
		a->pid, a->end_ns ? a->end_tid : a->start_tid);
	json_put_str(out, a->process);
	put_anim_id(out, a);
	put_anim_end(out, a);
	fputc('}', out);
}

static void put_names(FILE *out, const struct summary *s)
{
	fputs(",\"names\":[", out);
	for (int i = 0; i < s->n_names; i++) {
		const struct name_stat *n = &s->names[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_put_str(out, n->name);
		fprintf(out, ",\"count\":%u,\"cancels\":%u,\"running\":%u", n->count, n->cancels,
			n->running);
		put_u64(out, "total_ns", n->total_ns);
		put_u64(out, "median_ns", n->median_ns);
		put_u64(out, "max_ns", n->max_ns);
		put_u64(out, "frames", n->frames);
		fputc('}', out);
	}
	fputc(']', out);
}

/* A frame inside the summary: the frame record's keys without "type" and "animators". */
static void put_frame_obj(FILE *out, const struct frame *f)
{
	bool first = true;

	fprintf(out, "{\"ts_ns\":%llu,\"pid\":%u,\"tid\":%u,\"process\":",
		(unsigned long long)f->start_ns, f->pid, f->tid);
	json_put_str(out, f->process);
	put_u64(out, "seq", f->seq);
	if (f->vsync_id >= 0)
		fprintf(out, ",\"vsync_id\":%lld", (long long)f->vsync_id);
	else
		fputs(",\"vsync_id\":null", out);
	put_u64(out, "duration_ns", f->dur_ns);
	put_frame_smooth(out, f);
	fputs(",\"phases\":{", out);
	for (int p = 0; p < PHASE_COUNT; p++) {
		if (!f->phase_ns[p])
			continue;
		fprintf(out, "%s\"%s\":%llu", first ? "" : ",", frame_phase_str(p),
			(unsigned long long)f->phase_ns[p]);
		first = false;
	}
	fputs("}}", out);
}

/* Frame statistics: the longest frames and how many property writes frames made. */
static void put_frame_stats(FILE *out, const struct summary *s)
{
	fputs(",\"longest_frames\":[", out);
	for (int i = 0; i < s->n_longest_frames; i++) {
		if (i)
			fputc(',', out);
		put_frame_obj(out, &s->longest_frames[i]);
	}
	fputc(']', out);
	put_u64(out, "prop_frames", s->prop_frames);
	put_u64(out, "prop_sets", s->prop_sets);
	put_u64(out, "prop_sets_max", s->prop_sets_max);
}

/* ,"evicted":{"animators":0,...}: every key, always (see struct evictions). */
static void put_evictions(FILE *out, const struct evictions *ev)
{
	const char *sep = "";

	fputs(",\"evicted\":{", out);
#define PUT_EVICTION(f) \
	fprintf(out, "%s\"" #f "\":%llu", sep, (unsigned long long)ev->f), sep = ",";
	AT_EVICTIONS(PUT_EVICTION)
#undef PUT_EVICTION
	fputc('}', out);
}

/* ,"node_names":{"named":..,...}: how a live capture named its nodes (absent in a replay). */
static void put_node_names_stats(FILE *out, const struct node_name_stats *st)
{
	if (!st->live)
		return;
	fprintf(out,
		",\"node_names\":{\"named\":%llu,\"no_offset\":%llu,\"unreadable\":%llu,"
		"\"not_class\":%llu,\"gone\":%llu}",
		(unsigned long long)st->named, (unsigned long long)st->no_offset,
		(unsigned long long)st->unreadable, (unsigned long long)st->not_class,
		(unsigned long long)st->gone);
}

/*
 * ,"input":{...}: what a replayed capture's reader read and could not use, so a pipeline sees
 * the damage stderr reports (absent live).
 */
static void put_input(FILE *out, const struct input_stats *in)
{
	if (!in)
		return;
	fprintf(out,
		",\"input\":{\"format\":\"%s\",\"bytes\":%llu,\"lines\":%llu,"
		"\"packets\":%llu,\"damaged\":%llu,\"bad_blocks\":%llu,\"skipped_bytes\":%llu,"
		"\"truncated\":%llu,\"truncated_at\":%llu,\"time_jumps\":%llu,\"dropped\":%llu,"
		"\"unread_events\":%llu,\"untrusted\":%llu}",
		in->protobuf ? "protobuf" : "text", (unsigned long long)in->bytes,
		(unsigned long long)in->lines, (unsigned long long)in->packets,
		(unsigned long long)in->damaged, (unsigned long long)in->bad_blocks,
		(unsigned long long)in->skipped, (unsigned long long)in->truncated,
		(unsigned long long)in->truncated_at, (unsigned long long)in->time_jumps,
		(unsigned long long)in->dropped, (unsigned long long)in->unread_events,
		(unsigned long long)in->untrusted);
}

/* ,"processes":[{"pid":..,"refresh_period_ns":..,...,"worst":[...]}]: smoothness per process. */
static void put_procs(FILE *out, const struct summary *s)
{
	fputs(",\"processes\":[", out);
	for (int i = 0; i < s->n_procs; i++) {
		const struct proc_stat *p = &s->procs[i];

		fprintf(out, "%s{\"pid\":%u,\"process\":", i ? "," : "", p->pid);
		json_put_str(out, p->process);
		put_u64(out, "refresh_period_ns", p->refresh_period_ns);
		fprintf(out, ",\"refresh_source\":\"%s\"", p->refresh_source);
		put_u64(out, "frames", p->frames);
		put_u64(out, "janky_frames", p->janky_frames);
		put_u64(out, "frames_dropped", p->frames_dropped);
		put_u64(out, "timeline_agree", p->timeline_agree);
		put_u64(out, "timeline_disagree", p->timeline_disagree);
		if (p->impostor[0]) { /* only then: engine/trust.h */
			fputs(",\"impostor\":", out);
			json_put_str(out, p->impostor);
		}
		fputs(",\"worst\":[", out);
		for (int k = 0; k < p->n_worst; k++) {
			fprintf(out, "%s{\"id\":%llu,\"name\":", k ? "," : "",
				(unsigned long long)p->worst[k].id);
			json_put_str(out, p->worst[k].name);
			fprintf(out, ",\"frames\":%u,\"frames_dropped\":%u,\"janky_frames\":%u}",
				p->worst[k].frames, p->worst[k].frames_dropped,
				p->worst[k].janky_frames);
		}
		fputs("]}", out);
	}
	fputc(']', out);
}

/* Only when there were some, so that summaries without annotations keep their keys. */
static void put_annotations(FILE *out, const struct summary *s)
{
	const struct annot_delay *d = s->annot_delay;

	if (s->annotations)
		put_u64(out, "annotations", s->annotations);
	if (s->cujs) /* likewise: only when some CUJ was reported */
		put_u64(out, "cujs", s->cujs);
	if (s->vsync_foreign) /* likewise: VSYNC-app markers not SurfaceFlinger's (trust.h) */
		put_u64(out, "vsync_foreign", s->vsync_foreign);
	if (d)
		fprintf(out,
			",\"annotation_delay_ns\":{\"count\":%llu,\"p50\":%llu,\"p99\":%llu,"
			"\"max\":%llu}",
			(unsigned long long)d->count, (unsigned long long)d->p50_ns,
			(unsigned long long)d->p99_ns, (unsigned long long)d->max_ns);
	if (s->logcat) /* --logcat: its messages, and those lost */
		fprintf(out,
			",\"logcat\":{\"sent\":%llu,\"split\":%llu,\"refused\":%llu,\"failed\":%llu,"
			"\"rate_limited\":%llu}",
			(unsigned long long)s->logcat->sent, (unsigned long long)s->logcat->split,
			(unsigned long long)s->logcat->refused,
			(unsigned long long)s->logcat->failed,
			(unsigned long long)s->logcat->rate_limited);
}

/* The keys of a finding after "type" and the common ones. */
static void put_finding_keys(FILE *out, const struct finding *f)
{
	fprintf(out, ",\"kind\":\"%s\",\"unmarked\":%s,\"ids\":[", finding_kind_str(f->kind),
		f->unmarked ? "true" : "false");
	for (int i = 0; i < f->n_ids; i++)
		fprintf(out, "%s%lld", i ? "," : "", (long long)f->ids[i]);
	fputc(']', out);
	if (f->node) {
		fputc(',', out);
		put_node(out, f->node, f->node_name);
	} else {
		fputs(",\"node\":null,\"node_name\":null,\"node_class\":null", out);
	}
	put_name(out, "property", f->has_prop ? view_prop_str(f->prop) : NULL);
	put_name(out, "text", f->text);
}

static int on_finding(void *ctx, const struct finding *f)
{
	struct sink_json *j = ctx;

	note_ts(j, f->ts_ns);
	fputs("{\"type\":\"finding\"", j->out);
	put_common(j->out, f->ts_ns, f->pid, 0, f->process);
	put_finding_keys(j->out, f);
	fputs("}\n", j->out);
	return out_status(j->out);
}

/* ,"findings_by_kind":{..},"findings":[..] (ranked) */
static void put_findings(FILE *out, const struct summary *s)
{
	fputs(",\"findings_by_kind\":{", out);
	for (int k = 0; k < FINDING_KIND_COUNT; k++)
		fprintf(out, "%s\"%s\":%llu", k ? "," : "", finding_kind_str((enum finding_kind)k),
			(unsigned long long)s->findings_by_kind[k]);
	fputs("},\"findings\":[", out);
	for (int i = 0; i < s->n_findings; i++) {
		const struct finding *f = &s->findings[i];

		fprintf(out, "%s{\"ts_ns\":%llu,\"pid\":%u", i ? "," : "",
			(unsigned long long)f->ts_ns, f->pid);
		put_finding_keys(out, f);
		fputc('}', out);
	}
	fputc(']', out);
}

static int on_summary(void *ctx, const struct summary *s)
{
	struct sink_json *j = ctx;
	FILE *out = j->out;

	note_ts(j, s->last_ns);
	fputs("{\"type\":\"summary\"", out);
	put_common(out, s->last_ns, 0, 0, "");
	put_u64(out, "first_ns", s->first_ns);
	put_u64(out, "last_ns", s->last_ns);
	put_u64(out, "animators_started", s->anims_started);
	put_u64(out, "animators_ended", s->anims_ended);
	put_u64(out, "frames", s->frames);
	put_u64(out, "markers", s->markers);
	put_u64(out, "markers_rejected", s->markers_rejected);
	put_names(out, s);
	fputs(",\"longest\":[", out);
	for (int i = 0; i < s->n_longest; i++) {
		if (i)
			fputc(',', out);
		put_anim_obj(out, &s->longest[i]);
	}
	fputs("],\"running\":[", out);
	for (int i = 0; i < s->n_running; i++) {
		if (i)
			fputc(',', out);
		put_anim_obj(out, &s->running[i]);
	}
	fputc(']', out);
	put_frame_stats(out, s);
	put_u64(out, "drops", s->drops);
	put_u64(out, "truncated", s->truncated);
	put_evictions(out, &s->evicted);
	put_node_names_stats(out, &s->node_names);
	put_input(out, s->input);
	put_procs(out, s);
	put_redraw_views(out, s);
	put_animations(out, s);
	put_annotations(out, s);
	put_findings(out, s);
	fputs("}\n", out);
	return out_status(j->out);
}

/* "key":[{"name":"traversal","duration_ns":45100000},...], outermost first. */
static void put_chain(FILE *out, const char *key, const struct slice_chain *c)
{
	fprintf(out, ",\"%s\":[", key);
	for (int i = 0; i < c->n && i < AT_CHAIN_MAX; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_put_str(out, c->s[i].name);
		fprintf(out, ",\"duration_ns\":%llu}", (unsigned long long)c->s[i].dur_ns);
	}
	fputc(']', out);
}

static int on_jank(void *ctx, const struct jank *jk)
{
	static const char *const kinds[] = { "late_frame", "dropped_frames", "block" };
	struct sink_json *j = ctx;
	FILE *out = j->out;

	note_ts(j, jk->ts_ns);
	fputs("{\"type\":\"jank\"", out);
	put_common(out, jk->ts_ns, jk->pid, jk->tid, jk->process);
	fprintf(out, ",\"kind\":\"%s\"", kinds[jk->kind]);
	if (jk->frame_seq)
		put_u64(out, "frame_seq", jk->frame_seq);
	else
		fputs(",\"frame_seq\":null", out);
	if (jk->vsync_id >= 0)
		fprintf(out, ",\"vsync_id\":%lld", (long long)jk->vsync_id);
	else
		fputs(",\"vsync_id\":null", out);
	put_u64(out, "duration_ns", jk->duration_ns);
	put_u64(out, "budget_ns", jk->budget_ns);
	put_u64(out, "vsync_ns", jk->vsync_ns);
	put_u64(out, "start_delay_ns", jk->start_delay_ns);
	put_u64(out, "deadline_ns", jk->deadline_ns);
	put_u64(out, "dropped_before", jk->dropped_before);
	fputs(",\"animations\":[", out);
	for (int i = 0; i < jk->n_anims; i++)
		fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)jk->anim_ids[i]);
	fputc(']', out);
	put_chain(out, "ui_chain", &jk->ui);
	put_chain(out, "render_chain", &jk->render);
	if (jk->start.n)
		put_chain(out, "start_chain", &jk->start);
	put_timeline(out, &jk->timeline);
	fputs("}\n", out);
	return out_status(j->out);
}

/* An annotation found in a capture: what it says, marked as animtrace's own. */
static int on_annotation(void *ctx, const struct annotation *an)
{
	struct sink_json *j = ctx;
	char type[2] = { an->type, 0 };

	note_ts(j, an->ts_ns);
	fputs("{\"type\":\"annotation\"", j->out);
	put_common(j->out, an->ts_ns, an->pid, an->tid, an->process);
	fprintf(j->out, ",\"source\":\"annotation\",\"marker\":\"%s\",\"name\":", type);
	json_put_str(j->out, an->name);
	fprintf(j->out, ",\"value\":%lld}\n", (long long)an->value);
	return out_status(j->out);
}

static int on_note(void *ctx, const char *msg)
{
	struct sink_json *j = ctx;

	fputs("{\"type\":\"note\"", j->out);
	put_common(j->out, j->last_ns, 0, 0, "");
	fputs(",\"message\":", j->out);
	json_put_str(j->out, msg);
	fputs("}\n", j->out);
	return out_status(j->out);
}

/* ---- DynamicAnimation runs (ART probes) ---------------------------------------------- */

/* A value read from the heap: every digit of the double (%.17g prints it back exactly). */
static void put_read(FILE *out, const char *key, double v)
{
	if (isfinite(v))
		fprintf(out, ",\"%s\":%.17g", key, v);
	else
		fprintf(out, ",\"%s\":null", key);
}

/* "config":{...} when the heap reader read it (exact), else nothing. */
static void put_dyn_config(FILE *out, const struct dyn_config *c)
{
	if (!c->has_spring && !c->has_fling && !c->has_state)
		return;
	fputs(",\"config\":{\"source\":\"heap\"", out);
	if (c->has_spring) {
		put_read(out, "stiffness", c->stiffness);
		put_read(out, "damping_ratio", c->damping_ratio);
		put_read(out, "final_position", c->final_position);
	}
	if (c->has_fling) {
		put_read(out, "friction", c->friction);
		put_read(out, "friction_scalar", c->friction / DYN_DEFAULT_FRICTION);
	}
	if (c->has_state) {
		if (c->has_value)
			put_read(out, "value", c->value);
		put_read(out, "velocity", c->velocity);
		put_read(out, "min_visible_change", c->min_visible_change);
	}
	fputc('}', out);
}

/* dyn_start at start(), dyn_end at endAnimationInternal (or the exit): the keys in order. */
static int put_dyn(struct sink_json *j, const char *type, uint64_t ts_ns, const struct dyn_anim *a)
{
	FILE *out = j->out;

	note_ts(j, ts_ns);
	fprintf(out, "{\"type\":\"%s\"", type);
	put_common(out, ts_ns, a->pid, a->tid, a->process);
	put_u64(out, "id", a->id);
	fprintf(out, ",\"kind\":\"%s\",\"obj\":\"0x%llx\"", dyn_kind_str(a->kind),
		(unsigned long long)a->obj);
	put_u64(out, "start_ns", a->start_ns);
	put_u64(out, "replaces", a->replaces);
	put_stack(out, "start_stack", a->start_stack, a->n_start_stack);
	if (!a->ended) {
		fputs("}\n", out);
		return out_status(out);
	}
	fprintf(out, ",\"reason\":\"%s\",\"end_source\":\"%s\"", end_reason_str(a->reason),
		a->end_inferred ? "inferred" : "art");
	put_u64(out, "end_ns", a->end_ns);
	put_u64(out, "first_frame_ns", a->first_frame_ns);
	put_u64(out, "last_frame_ns", a->last_frame_ns);
	put_u64(out, "frames", a->frames);
	if (a->has_target) {
		fprintf(out, ",\"target\":\"0x%llx\"", (unsigned long long)a->node);
		put_node_names(out, "target_name", "target_class", a->node_name, a->node);
		fprintf(out, ",\"property\":\"%s\",\"from\":", view_prop_str(a->prop));
		json_put_float(out, a->from);
		fputs(",\"to\":", out);
		json_put_float(out, a->to);
	} else {
		fputs(",\"target\":null", out);
	}
	if (a->fitted)
		put_fit(out, &a->fit);
	put_dyn_config(out, &a->config);
	put_stack(out, "end_stack", a->end_stack, a->n_end_stack);
	fputs("}\n", out);
	return out_status(out);
}

static int on_dyn_start(void *ctx, const struct dyn_anim *a)
{
	return put_dyn(ctx, "dyn_start", a->start_ns, a);
}

static int on_dyn_end(void *ctx, const struct dyn_anim *a)
{
	return put_dyn(ctx, "dyn_end", a->end_ns, a);
}

static const struct sink_ops json_ops = {
	.anim_start = on_anim_start,
	.anim_end = on_anim_end,
	.frame = on_frame,
	.jank = on_jank,
	.summary = on_summary,
	.frame_props = on_frame_props,
	.note = on_note,
	.refresh_storm = on_refresh_storm,
	.animation_start = on_animation_start,
	.animation_end = on_animation_end,
	.annotation = on_annotation,
	.anim_target = on_anim_target,
	.cuj = on_cuj,
	.finding = on_finding,
	.dyn_start = on_dyn_start,
	.dyn_end = on_dyn_end,
};

struct sink_json *sink_json__new(FILE *out)
{
	struct sink_json *j;

	if (!out) {
		errno = EINVAL;
		return NULL;
	}
	j = calloc(1, sizeof(*j));
	if (!j) {
		errno = ENOMEM;
		return NULL;
	}
	j->out = out;
	return j;
}

struct sink sink_json__sink(struct sink_json *j)
{
	return (struct sink){ .ops = &json_ops, .ctx = j };
}

void sink_json__free(struct sink_json *j)
{
	free(j);
}

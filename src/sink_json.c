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

#include "jsonout.h"
#include "sink_json.h"

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
	fprintf(out, ",\"ts_ns\":%llu,\"pid\":%u,\"tid\":%u,\"process\":",
		(unsigned long long)ts_ns, pid, tid);
	json_put_str(out, proc);
}

/* Identity keys of an animator: id, name, kind, properties, restarts. */
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
}


/* ,"<label_key>":"NotificationRow@80e0","<class_key>":"NotificationRow" (or null). */
static void put_node_names(FILE *out, const char *label_key, const char *class_key,
			   const char *name, uint64_t node)
{
	char label[AT_NODE_LABEL_MAX];
	const char *cls = node_class(name);

	fprintf(out, ",\"%s\":", label_key);
	json_put_str(out, node_label(label, sizeof(label), name, node));
	fprintf(out, ",\"%s\":", class_key);
	if (cls)
		json_put_str(out, cls);
	else
		fputs("null", out);
}

/* The target keys of an animator_end: what the animator moved, from which value to which. */
static void put_anim_target(FILE *out, const struct anim *a)
{
	if (!a->target_node) {
		fputs(",\"target\":null,\"target_name\":null,\"target_class\":null,"
		      "\"target_source\":null,\"changes\":{}", out);
		return;
	}
	fprintf(out, ",\"target\":\"0x%llx\"", (unsigned long long)a->target_node);
	put_node_names(out, "target_name", "target_class", a->target_name, a->target_node);
	fprintf(out, ",\"target_source\":%s,\"changes\":{",
		a->target_inferred ? "\"inferred\"" : "null");
	for (int i = 0; i < a->n_changes; i++) {
		fprintf(out, "%s\"%s\":{\"from\":", i ? "," : "",
			view_prop_str(a->changes[i].prop));
		json_put_float(out, a->changes[i].from);
		fputs(",\"to\":", out);
		json_put_float(out, a->changes[i].to);
		fputc('}', out);
	}
	fputc('}', out);
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
	put_stack(out, "start_stack", a->start_stack, a->n_start_stack);
	put_stack(out, "end_stack", a->end_stack, a->n_end_stack);
}

static void note_ts(struct sink_json *j, uint64_t ts_ns)
{
	if (ts_ns > j->last_ns)
		j->last_ns = ts_ns;
}

static int on_anim_start(void *ctx, const struct anim *a)
{
	struct sink_json *j = ctx;

	note_ts(j, a->start_ns);
	fputs("{\"type\":\"animator_start\"", j->out);
	put_common(j->out, a->start_ns, a->pid, a->start_tid, a->process);
	put_anim_id(j->out, a);
	put_stack(j->out, "start_stack", a->start_stack, a->n_start_stack);
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

/* A frame's smoothness keys: its budget, whether it was late, vsyncs missed before it. */
static void put_frame_smooth(FILE *out, const struct frame *f)
{
	put_u64(out, "budget_ns", f->budget_ns);
	fprintf(out, ",\"janky\":%s", f->janky ? "true" : "false");
	put_u64(out, "dropped_before", f->dropped_before);
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
	fputs("]}\n", j->out);
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
	fprintf(out, ",\"node_names\":{\"named\":%llu,\"no_offset\":%llu,\"unreadable\":%llu,"
		"\"not_class\":%llu,\"gone\":%llu}", (unsigned long long)st->named,
		(unsigned long long)st->no_offset, (unsigned long long)st->unreadable,
		(unsigned long long)st->not_class, (unsigned long long)st->gone);
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
	put_procs(out, s);
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
	put_u64(out, "dropped_before", jk->dropped_before);
	fputs(",\"animations\":[", out);
	for (int i = 0; i < jk->n_anims; i++)
		fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)jk->anim_ids[i]);
	fputc(']', out);
	put_chain(out, "ui_chain", &jk->ui);
	put_chain(out, "render_chain", &jk->render);
	fputs("}\n", out);
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

static const struct sink_ops json_ops = {
	.anim_start = on_anim_start,
	.anim_end = on_anim_end,
	.frame = on_frame,
	.jank = on_jank,
	.summary = on_summary,
	.frame_props = on_frame_props,
	.note = on_note,
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

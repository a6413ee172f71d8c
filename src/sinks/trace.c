// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Chrome Trace Event JSON export. Every record is complete on its own line and flushed,
 * so a file cut off at any record boundary loads. Numbers are formatted from integers:
 * no float rounding in timestamps.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/animname.h"
#include "sinks/jsonout.h"
#include "sinks/trace.h"

struct sink_trace {
	FILE *out;
	uint64_t records;
	uint64_t last_ns; /* notes carry no time of their own */
	uint32_t *pids;	  /* processes whose process_name record was written */
	size_t n_pids, cap_pids;
};

/* Nanoseconds as microseconds with three decimals: 12345678 -> 12345.678. */
static void put_us(FILE *out, const char *key, uint64_t ns)
{
	fprintf(out, ",\"%s\":%llu.%03llu", key, (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

/* The separator goes before a record, never after: every prefix plus ']' is valid. */
static void begin(struct sink_trace *t, const char *ph, const char *name)
{
	fputs(t->records++ ? ",\n{\"ph\":\"" : "{\"ph\":\"", t->out);
	fputs(ph, t->out);
	fputs("\",\"name\":", t->out);
	json_put_str(t->out, name);
}

/* Flushed per record (see sink_trace.h); a failed flush leaves ferror set for the caller. */
static void end(struct sink_trace *t)
{
	fputc('}', t->out);
	fflush(t->out);
}

static void put_task(struct sink_trace *t, uint32_t pid, uint32_t tid, uint64_t ts_ns)
{
	fprintf(t->out, ",\"pid\":%u,\"tid\":%u", pid, tid);
	put_us(t->out, "ts", ts_ns);
	if (ts_ns > t->last_ns)
		t->last_ns = ts_ns;
}

/* process_name metadata, once per process that has a name. */
static void name_process(struct sink_trace *t, uint32_t pid, const char *process)
{
	uint32_t *tmp;

	if (!process[0])
		return;
	for (size_t i = 0; i < t->n_pids; i++)
		if (t->pids[i] == pid)
			return;
	if (t->n_pids == t->cap_pids) {
		tmp = realloc(t->pids, (t->cap_pids ? t->cap_pids * 2 : 16) * sizeof(*tmp));
		if (!tmp)
			return; /* the name is cosmetic: trace viewers show the pid instead */
		t->pids = tmp;
		t->cap_pids = t->cap_pids ? t->cap_pids * 2 : 16;
	}
	t->pids[t->n_pids++] = pid;
	begin(t, "M", "process_name");
	fprintf(t->out, ",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":", pid, pid);
	json_put_str(t->out, process);
	fputc('}', t->out);
	end(t);
}

static int on_anim_start(void *ctx, const struct anim *a)
{
	/* Async begin and end must share a name, and the name holds the duration: the
	 * slice is written whole when the animator ends. */
	struct sink_trace *t = ctx;

	name_process(t, a->pid, a->process);
	return out_status(t->out);
}

/* What the animator moved: "target":"0x..", "target_name", "alpha":"1 -> 0", ... */
static void put_anim_target(FILE *out, const struct anim *a)
{
	char label[AT_NODE_LABEL_MAX];

	if (!a->target_node)
		return;
	fprintf(out, ",\"target\":\"0x%llx\",\"target_name\":", (unsigned long long)a->target_node);
	json_put_str(out, node_label(label, sizeof(label), a->target_name, a->target_node));
	for (int i = 0; i < a->n_changes && i < AT_MAX_PROPS; i++) {
		fprintf(out, ",\"%s\":{\"from\":", view_prop_str(a->changes[i].prop));
		json_put_float(out, a->changes[i].from);
		fputs(",\"to\":", out);
		json_put_float(out, a->changes[i].to);
		fputc('}', out);
	}
}

static void put_anim_args(FILE *out, const struct anim *a)
{
	fprintf(out,
		",\"args\":{\"reason\":\"%s\",\"reason_source\":\"%s\",\"kind\":\"%s\","
		"\"properties\":[",
		end_reason_str(a->reason), reason_source_str(a->reason_source),
		anim_kind_str(a->kind));
	for (int i = 0; i < a->n_props && i < AT_MAX_PROPS; i++) {
		if (i)
			fputc(',', out);
		json_put_str(out, a->props[i]);
	}
	fprintf(out, "],\"frames\":%u,\"restarts\":%u", a->frames, a->restarts);
	put_anim_target(out, a);
	fputc('}', out);
}

/* An animator id as a signed hex string ("0x2a", "-0x2a"): atrace cookies are signed. */
static void put_id(FILE *out, uint64_t id)
{
	long long v = (long long)id;

	fprintf(out, "\"%s0x%llx\"", v < 0 ? "-" : "",
		v < 0 ? -(unsigned long long)v : (unsigned long long)v);
}

static void put_anim_event(struct sink_trace *t, const struct anim *a, const char *ph,
			   const char *name, uint32_t tid, uint64_t ts_ns)
{
	begin(t, ph, name);
	fputs(",\"cat\":\"animator\",\"id\":", t->out);
	put_id(t->out, a->id);
	put_task(t, a->pid, tid, ts_ns);
	put_anim_args(t->out, a);
	end(t);
}

/* The seed's name (sinks/animname.h); its b and e share it, as async slices must. */
static int on_anim_end(void *ctx, const struct anim *a)
{
	struct sink_trace *t = ctx;
	char name[ANIMNAME_MAX];
	struct animname n;

	name_process(t, a->pid, a->process);
	animname_from_anim(&n, a);
	animname_format(name, sizeof(name), &n, ANIMNAME_PIPE);
	if (!a->start_ns) { /* cancelled before it started: an instant, no slice */
		begin(t, "i", name);
		fputs(",\"cat\":\"animator\",\"s\":\"t\"", t->out);
		put_task(t, a->pid, a->end_tid, a->end_ns);
		put_anim_args(t->out, a);
		end(t);
		return out_status(t->out);
	}
	put_anim_event(t, a, "b", name, a->start_tid, a->start_ns);
	put_anim_event(t, a, "e", name, a->end_tid,
		       a->end_ns > a->start_ns ? a->end_ns : a->start_ns);
	return out_status(t->out);
}

static void put_animation_event(struct sink_trace *t, const struct animation *a, const char *ph,
				const char *name, uint64_t ts_ns)
{
	begin(t, ph, name);
	fprintf(t->out, ",\"cat\":\"animation\",\"id\":\"0x%llx\"", (unsigned long long)a->id);
	put_task(t, a->pid, a->tid, ts_ns);
	fprintf(t->out,
		",\"args\":{\"kind\":\"%s\",\"reason\":\"%s\",\"frames\":%u,"
		"\"node\":\"0x%llx\"",
		fit_kind_str(a->kind), end_reason_str(a->reason), a->frames,
		(unsigned long long)a->node);
	for (int i = 0; i < a->n_props; i++) {
		fprintf(t->out, ",\"%s\":{\"from\":", view_prop_str(a->props[i].prop));
		json_put_float(t->out, a->props[i].from);
		fputs(",\"to\":", t->out);
		json_put_float(t->out, a->props[i].to);
		fputc('}', t->out);
	}
	fputc('}', t->out);
	end(t);
}

/* Unmarked animations: one async slice on their process, written whole at the end. */
static int on_animation_end(void *ctx, const struct animation *a)
{
	struct sink_trace *t = ctx;
	char name[ANIMNAME_MAX];
	struct animname n;

	name_process(t, a->pid, a->process);
	animname_from_animation(&n, a);
	animname_format(name, sizeof(name), &n, ANIMNAME_PIPE);
	put_animation_event(t, a, "b", name, a->start_ns);
	put_animation_event(t, a, "e", name, a->start_ns + a->duration_ns);
	return out_status(t->out);
}

static void put_dyn_event(struct sink_trace *t, const struct dyn_anim *d, const char *ph,
			  const char *name, uint64_t ts_ns)
{
	begin(t, ph, name);
	fprintf(t->out, ",\"cat\":\"dyn\",\"id\":\"0x%llx\"", (unsigned long long)d->id);
	put_task(t, d->pid, d->tid, ts_ns);
	fprintf(t->out,
		",\"args\":{\"kind\":\"%s\",\"reason\":\"%s\",\"frames\":%u,"
		"\"end_inferred\":%s",
		dyn_kind_str(d->kind), end_reason_str(d->reason), d->frames,
		d->end_inferred ? "true" : "false");
	if (d->has_target)
		fprintf(t->out, ",\"node\":\"0x%llx\"", (unsigned long long)d->node);
	fputc('}', t->out);
	end(t);
}

/* A DynamicAnimation: an async slice from its start() to its end, written whole at the end
 * (its name holds what only the end knows: a fling's kind, fitted parameters). */
static int on_dyn_end(void *ctx, const struct dyn_anim *d)
{
	struct sink_trace *t = ctx;
	char name[ANIMNAME_MAX];
	struct animname n;

	name_process(t, d->pid, d->process);
	animname_from_dyn(&n, d);
	animname_format(name, sizeof(name), &n, ANIMNAME_PIPE);
	put_dyn_event(t, d, "b", name, d->start_ns);
	put_dyn_event(t, d, "e", name, d->end_ns > d->start_ns ? d->end_ns : d->start_ns);
	return out_status(t->out);
}

static int on_dyn_start(void *ctx, const struct dyn_anim *d)
{
	return out_status(((struct sink_trace *)ctx)->out);
}

static int on_frame(void *ctx, const struct frame *f)
{
	struct sink_trace *t = ctx;
	char name[64];
	bool first = true;

	name_process(t, f->pid, f->process);
	if (f->vsync_id >= 0)
		snprintf(name, sizeof(name), "Choreographer#doFrame %lld", (long long)f->vsync_id);
	else
		snprintf(name, sizeof(name), "Choreographer#doFrame");
	begin(t, "X", name);
	fputs(",\"cat\":\"frame\"", t->out);
	put_task(t, f->pid, f->tid, f->start_ns);
	put_us(t->out, "dur", f->dur_ns);
	fprintf(t->out, ",\"args\":{\"seq\":%llu,\"phases_ns\":{", (unsigned long long)f->seq);
	for (int p = 0; p < PHASE_COUNT; p++) {
		if (!f->phase_ns[p])
			continue;
		fprintf(t->out, "%s\"%s\":%llu", first ? "" : ",", frame_phase_str(p),
			(unsigned long long)f->phase_ns[p]);
		first = false;
	}
	fputs("},\"animators\":[", t->out);
	for (int i = 0; i < f->n_anims; i++) {
		fputs(i ? "," : "", t->out);
		put_id(t->out, f->anim_ids[i]);
	}
	fputs("]}", t->out);
	end(t);
	/* --refresh: a counter track per process, Views re-recorded per frame. */
	if (f->refresh)
		sink_trace__counter(t, f->start_ns, f->pid, "Redraws per frame",
				    (double)f->n_redraws + f->redraws_dropped);
	return out_status(t->out);
}

int sink_trace__counter(struct sink_trace *t, uint64_t ts_ns, uint32_t pid, const char *name,
			double value)
{
	if (!isfinite(value))
		return -EINVAL;
	begin(t, "C", name);
	put_task(t, pid, pid, ts_ns);
	/* %.9g round-trips a float exactly and is always a valid JSON number. */
	fprintf(t->out, ",\"args\":{\"value\":%.9g}", value);
	end(t);
	return 0;
}

/* Each property a frame changed becomes one V|<node>|<property> counter sample. */
static int on_frame_props(void *ctx, const struct frame_props *fp)
{
	struct sink_trace *t = ctx;
	char name[ANIMNAME_MAX];

	name_process(t, fp->pid, fp->process);
	for (int n = 0; n < fp->n_nodes; n++) {
		const struct node_props *np = &fp->nodes[n];

		for (int p = 0; p < PROP_COUNT; p++) {
			if (!(np->set_mask & (1u << p)))
				continue;
			animname_counter(name, sizeof(name), ANIMNAME_PIPE, np->node_name, np->node,
					 p);
			sink_trace__counter(t, fp->ts_ns, fp->pid, name, np->values[p]);
		}
	}
	return out_status(t->out);
}

static int on_note(void *ctx, const char *msg)
{
	struct sink_trace *t = ctx;

	begin(t, "i", msg);
	fputs(",\"cat\":\"note\",\"s\":\"g\",\"pid\":0,\"tid\":0", t->out);
	put_us(t->out, "ts", t->last_ns);
	end(t);
	return out_status(t->out);
}

/*
 * A jank record as an instant on the UI thread, named so it stands out in the Perfetto UI
 * ("jank: late frame 12"), with the cause chains in its args.
 */
static int on_jank(void *ctx, const struct jank *j)
{
	static const char *const kinds[] = { "late frame", "dropped frames", "block" };
	struct sink_trace *t = ctx;
	char name[64];

	name_process(t, j->pid, j->process);
	if (j->frame_seq)
		snprintf(name, sizeof(name), "jank: %s %llu", kinds[j->kind],
			 (unsigned long long)j->frame_seq);
	else
		snprintf(name, sizeof(name), "jank: %s", kinds[j->kind]);
	begin(t, "i", name);
	fputs(",\"cat\":\"jank\",\"s\":\"t\"", t->out);
	put_task(t, j->pid, j->tid, j->ts_ns);
	fprintf(t->out, ",\"args\":{\"duration_ns\":%llu,\"dropped_before\":%u,\"ui\":[",
		(unsigned long long)j->duration_ns, j->dropped_before);
	for (int i = 0; i < j->ui.n && i < AT_CHAIN_MAX; i++) {
		fputs(i ? "," : "", t->out);
		json_put_str(t->out, j->ui.s[i].name);
	}
	fputs("],\"render\":[", t->out);
	for (int i = 0; i < j->render.n && i < AT_CHAIN_MAX; i++) {
		fputs(i ? "," : "", t->out);
		json_put_str(t->out, j->render.s[i].name);
	}
	fputs("]}", t->out);
	end(t);
	return out_status(t->out);
}

/* A refresh storm as an instant on the process, named with its View. */
static int on_refresh_storm(void *ctx, const struct refresh_storm *r)
{
	struct sink_trace *t = ctx;
	char name[AT_NAME_MAX];

	name_process(t, r->pid, r->process);
	snprintf(name, sizeof(name), "refresh storm: %.*s", (int)sizeof(r->node_name),
		 r->node ? r->node_name : "frame requests");
	begin(t, "i", name);
	fputs(",\"cat\":\"refresh\",\"s\":\"p\"", t->out);
	put_task(t, r->pid, r->pid, r->first_ns);
	fprintf(t->out,
		",\"args\":{\"frames\":%u,\"node_frames\":%u,\"duration_ns\":%llu,"
		"\"stack\":[",
		r->frames, r->node_frames, (unsigned long long)r->duration_ns);
	for (int i = 0; i < r->n_stack && i < AT_STACK_FRAMES; i++) {
		fputs(i ? "," : "", t->out);
		json_put_str(t->out, r->stack[i]);
	}
	fputs("]}", t->out);
	end(t);
	return out_status(t->out);
}

/*
 * A CUJ as an async slice "CUJ|<name>" (cat "cuj", id its begin vsync id) from its begin to its
 * end, or to the last time written when it did not end (a process exit, the session's end).
 */
static void put_cuj_event(struct sink_trace *t, const struct cuj *c, const char *ph,
			  const char *name, uint64_t ts_ns)
{
	begin(t, ph, name);
	fputs(",\"cat\":\"cuj\",\"id\":", t->out);
	put_id(t->out, (uint64_t)c->begin_vsync);
	put_task(t, c->pid, c->tid, ts_ns);
	fprintf(t->out,
		",\"args\":{\"frames\":%u,\"janky_frames\":%u,\"frames_dropped\":%u,"
		"\"animators\":%d,\"animations\":%u,\"ended\":%s,\"cancelled\":%s}",
		c->frames, c->janky_frames, c->frames_dropped, c->n_anims + (int)c->anims_left_out,
		c->animations, c->ended ? "true" : "false", c->cancelled ? "true" : "false");
	end(t);
}

static int on_cuj(void *ctx, const struct cuj *c)
{
	struct sink_trace *t = ctx;
	char name[AT_NAME_MAX + 8];
	uint64_t end_ns = c->ended ? c->end_ns : t->last_ns;

	name_process(t, c->pid, c->process);
	snprintf(name, sizeof(name), "CUJ|%s", c->name);
	put_cuj_event(t, c, "b", name, c->begin_ns);
	put_cuj_event(t, c, "e", name, end_ns > c->begin_ns ? end_ns : c->begin_ns);
	return out_status(t->out);
}

/* The counters already name each node: an animator's first targets add no record. */
/* A finding: a process-wide instant "finding: <kind>" with its ids and sentence. */
static int on_finding(void *ctx, const struct finding *f)
{
	struct sink_trace *t = ctx;
	char name[64];

	name_process(t, f->pid, f->process);
	snprintf(name, sizeof(name), "finding: %s", finding_kind_str(f->kind));
	begin(t, "i", name);
	fputs(",\"cat\":\"finding\",\"s\":\"p\"", t->out);
	put_task(t, f->pid, f->pid, f->ts_ns);
	fputs(",\"args\":{\"ids\":[", t->out);
	for (int i = 0; i < f->n_ids; i++)
		fprintf(t->out, "%s%lld", i ? "," : "", (long long)f->ids[i]);
	fputs("],\"text\":", t->out);
	json_put_str(t->out, f->text);
	fputs("}", t->out);
	end(t);
	return out_status(t->out);
}

static int on_anim_target(void *ctx, const struct anim *a)
{
	return out_status(((struct sink_trace *)ctx)->out);
}

/* Records with nothing to add to the file still report its state, as every callback does. */
static int on_summary(void *ctx, const struct summary *s)
{
	return out_status(((struct sink_trace *)ctx)->out);
}

/* Its end is written whole: the start adds nothing. */
static int on_animation_start(void *ctx, const struct animation *a)
{
	return out_status(((struct sink_trace *)ctx)->out);
}

/* Annotations are already in the capture they came from: the trace file leaves them out. */
static int on_annotation(void *ctx, const struct annotation *an)
{
	return out_status(((struct sink_trace *)ctx)->out);
}

static const struct sink_ops trace_ops = {
	.finding = on_finding,
	.anim_target = on_anim_target,
	.anim_start = on_anim_start,
	.anim_end = on_anim_end,
	.frame = on_frame,
	.summary = on_summary,
	.frame_props = on_frame_props,
	.note = on_note,
	.jank = on_jank,
	.refresh_storm = on_refresh_storm,
	.animation_start = on_animation_start,
	.animation_end = on_animation_end,
	.annotation = on_annotation,
	.cuj = on_cuj,
	.dyn_start = on_dyn_start,
	.dyn_end = on_dyn_end,
};

struct sink_trace *sink_trace__new(FILE *out)
{
	struct sink_trace *t;

	if (!out) {
		errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		errno = ENOMEM;
		return NULL;
	}
	t->out = out;
	errno = 0;
	fputs("[\n", out);
	if (fflush(out) || ferror(out)) {
		errno = errno ? errno : EIO;
		free(t);
		return NULL;
	}
	return t;
}

struct sink sink_trace__sink(struct sink_trace *t)
{
	return (struct sink){ .ops = &trace_ops, .ctx = t };
}

int sink_trace__free(struct sink_trace *t)
{
	int err;

	if (!t)
		return 0;
	errno = 0;
	fputs("\n]\n", t->out);
	fflush(t->out);
	err = out_status(t->out);
	free(t->pids);
	free(t);
	return err;
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The box sink's summary: counts, names, longest, smoothness per process, findings. */
#include <stdlib.h>
#include <string.h>

#include "sinks/boxdraw.h"
#include "sinks/jsonout.h"

/* "Prop sets:  40 in 16 frames (avg 2.5, max 4 per frame)": how busy the setters were. */
static void summary_sets(struct sink_box *b, const struct summary *s)
{
	uint64_t tenths;

	if (!s->prop_frames) {
		box_line(b, "Prop sets:  0");
		return;
	}
	tenths = (s->prop_sets * 10 + s->prop_frames / 2) / s->prop_frames;
	box_line(b, "Prop sets:  %llu in %llu frames (avg %llu.%llu, max %u per frame)",
		 (unsigned long long)s->prop_sets, (unsigned long long)s->prop_frames,
		 (unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10),
		 s->prop_sets_max);
}

/* "Evicted:    12 animators, 3 nodes (memory caps)", only when a cap turned something away. */
static void summary_evictions(struct sink_box *b, const struct evictions *ev)
{
	char line[256] = "";
	size_t n = 0;

#define BOX_EVICTION(f)                                                                \
	if (ev->f && n < sizeof(line))                                                 \
		n += snprintf(line + n, sizeof(line) - n, "%s%llu " #f, n ? ", " : "", \
			      (unsigned long long)ev->f);
	AT_EVICTIONS(BOX_EVICTION)
#undef BOX_EVICTION
	if (n)
		box_line(b, "Evicted:    %s (memory caps)", line);
}

static void summary_counts(struct sink_box *b, const struct summary *s)
{
	char t0[32], t1[32];
	uint64_t span = s->last_ns > s->first_ns ? s->last_ns - s->first_ns : 0;

	fmt_sec(t0, sizeof(t0), s->first_ns);
	fmt_sec(t1, sizeof(t1), s->last_ns);
	box_line(b, "Session:    %s .. %s (%llu.%03llu s)", t0, t1,
		 (unsigned long long)(span / 1000000000ull),
		 (unsigned long long)(span % 1000000000ull / 1000000));
	box_line(b, "Animators:  %llu started, %llu ended, %d running",
		 (unsigned long long)s->anims_started, (unsigned long long)s->anims_ended,
		 s->n_running);
	box_line(b, "Frames:     %llu", (unsigned long long)s->frames);
	summary_sets(b, s);
	box_line(b, "Markers:    %llu", (unsigned long long)s->markers);
	box_line(b, "Rejected:   %llu", (unsigned long long)s->markers_rejected);
	box_line(b, "Drops:      %llu", (unsigned long long)s->drops);
	box_line(b, "Truncated:  %llu", (unsigned long long)s->truncated);
	if (s->input && input_stats_damaged(s->input)) { /* what stderr said, kept with the rest */
		char what[256];

		input_stats_describe(s->input, what, sizeof(what));
		box_line(b, "Input:      damaged: %s", what);
	}
	if (s->cujs)
		box_line(b, "CUJs:       %llu", (unsigned long long)s->cujs);
	if (s->vsync_foreign) /* trust.h: said once when it began */
		box_line(b,
			 "Not SF:     %llu VSYNC-app markers of processes other than "
			 "SurfaceFlinger, not used",
			 (unsigned long long)s->vsync_foreign);
	if (s->annotations) /* animtrace --annotate's markers in the capture: not animators */
		box_line(b, "Annotation: %llu markers (animtrace --annotate's own)",
			 (unsigned long long)s->annotations);
	if (s->logcat) /* so far: this summary's own entry is not counted */
		box_line(b,
			 "Logcat:     %llu messages, %llu refused by logd (lost), %llu per-frame "
			 "entries over the rate limit",
			 (unsigned long long)s->logcat->sent,
			 (unsigned long long)s->logcat->refused,
			 (unsigned long long)s->logcat->rate_limited);
	summary_evictions(b, &s->evicted);
}

static void summary_names(struct sink_box *b, const struct summary *s)
{
	char name[AT_NAME_MAX], tot[32], med[32], max[32];
	int w = 4;

	for (int i = 0; i < s->n_names; i++)
		if ((int)strlen(s->names[i].name) > w)
			w = (int)strlen(s->names[i].name);
	box_blank(b);
	box_line(b, "%-*s %7s %7s %7s %7s %12s %12s %12s", w, "name", "count", "cancels", "running",
		 "frames", "total ms", "median ms", "max ms");
	for (int i = 0; i < s->n_names; i++) {
		const struct name_stat *n = &s->names[i];

		/* fmt_ms appends " ms": the header already says so, cut it. */
		fmt_ms(tot, sizeof(tot), n->total_ns);
		fmt_ms(med, sizeof(med), n->median_ns);
		fmt_ms(max, sizeof(max), n->max_ns);
		tot[strlen(tot) - 3] = med[strlen(med) - 3] = max[strlen(max) - 3] = '\0';
		clean(name, sizeof(name), n->name);
		box_line(b, "%-*s %7u %7u %7u %7llu %12s %12s %12s", w, name, n->count, n->cancels,
			 n->running, (unsigned long long)n->frames, tot, med, max);
	}
}

static void summary_longest(struct sink_box *b, const struct summary *s)
{
	char name[AT_NAME_MAX], proc[AT_PROC_MAX], d[32], t[32], where[AT_PROC_MAX + 24];

	box_blank(b);
	box_line(b, "Longest:");
	for (int i = 0; i < s->n_longest; i++) {
		const struct anim *a = &s->longest[i];

		fmt_ms(d, sizeof(d), a->end_ns - a->start_ns);
		fmt_sec(t, sizeof(t), a->start_ns);
		clean(proc, sizeof(proc), a->process);
		snprintf(where, sizeof(where), "%s%s(pid %u)", proc, *proc ? " " : "", a->pid);
		box_line(b, "  %d. %s  %s #%lld  %s  start %s", i + 1, d,
			 clean(name, sizeof(name), a->name), (long long)a->id, where, t);
	}
}

static void summary_longest_frames(struct sink_box *b, const struct summary *s)
{
	char proc[AT_PROC_MAX], d[32], t[32], vsync[32];

	box_blank(b);
	box_line(b, "Longest frames:");
	for (int i = 0; i < s->n_longest_frames; i++) {
		const struct frame *f = &s->longest_frames[i];

		fmt_ms(d, sizeof(d), f->dur_ns);
		fmt_sec(t, sizeof(t), f->start_ns);
		if (f->vsync_id >= 0)
			snprintf(vsync, sizeof(vsync), " vsync %lld", (long long)f->vsync_id);
		else
			vsync[0] = '\0';
		clean(proc, sizeof(proc), f->process);
		box_line(b, "  %d. %s  frame %llu%s  %s%s(pid %u, tid %u)  start %s", i + 1, d,
			 (unsigned long long)f->seq, vsync, proc, *proc ? " " : "", f->pid, f->tid,
			 t);
	}
}

/*
 * "com.foo (pid 12): 60.0 Hz (intervals), 202 frames, 3 late, 5 dropped", then its worst
 * animators: "  #168950273 animator:alpha: 2 dropped, 1 late in 18 frames".
 */
/* --refresh: "Redrawn:    NotificationRow@80e0 18 frames (pid 123)", most redrawn first. */
static void summary_redraws(struct sink_box *b, const struct summary *s)
{
	char node[96];

	if (!s->n_redraw_views) {
		box_line(b, "Redrawn:    no View re-recorded its display list");
		return;
	}
	for (int i = 0; i < s->n_redraw_views; i++) {
		const struct redraw_stat *r = &s->redraw_views[i];

		box_line(b, "%s%s %llu frames (pid %u)", i ? "            " : "Redrawn:    ",
			 box_node_label(node, sizeof(node), r->node_name, r->node),
			 (unsigned long long)r->frames, r->pid);
	}
}

static void summary_procs(struct sink_box *b, const struct summary *s)
{
	char proc[AT_PROC_MAX], name[AT_NAME_MAX], why[AT_IDENTITY_MAX];

	box_blank(b);
	box_line(b, "Smoothness per process:");
	for (int i = 0; i < s->n_procs; i++) {
		const struct proc_stat *p = &s->procs[i];
		uint64_t dhz =
			p->refresh_period_ns ? /* tenths of a hertz, rounded */
				(10000000000ull + p->refresh_period_ns / 2) / p->refresh_period_ns :
				0;

		clean(proc, sizeof(proc), p->process);
		box_line(b,
			 "  %s%s(pid %u): %llu.%llu Hz (%s), %llu frames, %llu late, %llu dropped",
			 proc, *proc ? " " : "", p->pid, (unsigned long long)(dhz / 10),
			 (unsigned long long)(dhz % 10), p->refresh_source,
			 (unsigned long long)p->frames, (unsigned long long)p->janky_frames,
			 (unsigned long long)p->frames_dropped);
		if (p->impostor[0])
			box_line(b, "    IMPOSTOR: %s", clean(why, sizeof(why), p->impostor));
		if (p->timeline_agree || p->timeline_disagree)
			box_line(b, "    FrameTimeline: agrees on %llu frames, disagrees on %llu",
				 (unsigned long long)p->timeline_agree,
				 (unsigned long long)p->timeline_disagree);
		for (int k = 0; k < p->n_worst; k++)
			box_line(b, "    %llu %s: %u dropped, %u late in %u frames",
				 (unsigned long long)p->worst[k].id,
				 clean(name, sizeof(name), p->worst[k].name),
				 p->worst[k].frames_dropped, p->worst[k].janky_frames,
				 p->worst[k].frames);
	}
}

/* "Unmarked:   1 spring, 1 fling, 0 interpolated, 0 other", then the longest; only when any. */
static void summary_unmarked(struct sink_box *b, const struct summary *s)
{
	char d[32], node[96];
	uint64_t n = 0;

	for (int k = 0; k <= FIT_OTHER; k++)
		n += s->animations[k];
	if (!n)
		return;
	box_blank(b);
	box_line(b, "Unmarked:   %llu spring, %llu fling, %llu interpolated, %llu other",
		 (unsigned long long)s->animations[FIT_SPRING],
		 (unsigned long long)s->animations[FIT_FLING],
		 (unsigned long long)s->animations[FIT_INTERPOLATED],
		 (unsigned long long)s->animations[FIT_OTHER]);
	for (int i = 0; i < s->n_unmarked; i++) {
		const struct animation *a = &s->unmarked[i];

		fmt_ms(d, sizeof(d), a->duration_ns);
		box_line(b, "  %d. %s  %s #%llu  %s %s  %u frames  (pid %u)", i + 1, d,
			 fit_kind_str(a->kind), (unsigned long long)a->id,
			 box_node_label(node, sizeof(node), a->node_name, a->node),
			 a->n_props ? view_prop_str(a->props[0].prop) : "-", a->frames, a->pid);
	}
}

/* "Findings:   1 flicker, 2 conflict", then each, most serious kind first. */
static void summary_findings(struct sink_box *b, const struct summary *s)
{
	char line[160], text[AT_FINDING_TEXT];
	size_t len = 0;

	if (!s->n_findings)
		return;
	box_blank(b);
	line[0] = '\0';
	for (int k = 0; k < FINDING_KIND_COUNT && len < sizeof(line); k++)
		if (s->findings_by_kind[k])
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%llu %s",
						len ? ", " : "",
						(unsigned long long)s->findings_by_kind[k],
						finding_kind_str((enum finding_kind)k));
	box_line(b, "Findings:   %s", line);
	for (int i = 0; i < s->n_findings; i++)
		box_line(b, "  %d. %s (pid %u): %s", i + 1, finding_kind_str(s->findings[i].kind),
			 s->findings[i].pid, clean(text, sizeof(text), s->findings[i].text));
}

int box__summary(void *ctx, const struct summary *s)
{
	struct sink_box *b = ctx;

	box__pending_flush(b);
	box_open(b, ANSI_BOLD, "Summary");
	summary_counts(b, s);
	if (s->n_names)
		summary_names(b, s);
	if (s->n_longest)
		summary_longest(b, s);
	if (s->n_longest_frames)
		summary_longest_frames(b, s);
	if (s->n_procs)
		summary_procs(b, s);
	if (s->refresh)
		summary_redraws(b, s);
	summary_unmarked(b, s);
	summary_findings(b, s);
	box_close(b);
	for (int i = 0; i < s->n_running; i++)
		box__running(b, &s->running[i], s->last_ns);
	return out_status(b->out);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fan-out: every callback of struct sink_ops (AT_SINK_OPS, so a new one is covered
 * without touching this file) reaches every sink, in every combination of box, JSON, trace
 * export and annotate, with a counting sink between each two; errors and NULL callbacks;
 * and the engine stamping each record with the timestamp of the event that caused it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "engine/engine.h"
#include "sinks/annotate.h"
#include "sinks/box.h"
#include "sinks/fanout.h"
#include "sinks/json.h"
#include "sinks/trace.h"

enum cb_id {
#define CB_ID(cb, type) CB_##cb,
	AT_SINK_OPS(CB_ID)
#undef CB_ID
		CB_COUNT
};

static const char *const cb_names[CB_COUNT] = {
#define CB_NAME(cb, type) #cb,
	AT_SINK_OPS(CB_NAME)
#undef CB_NAME
};

/* ---- one sample record of each type ------------------------------------------------ */

#define PID 4242
#define NODE 0x55d0a2b380e0ULL

struct samples {
	struct anim anim;
	struct frame frame;
	struct summary summary;
	struct node_props np;
	struct frame_props fp;
	struct jank jank;
	struct refresh_storm storm;
	struct animation animation;
	struct annotation annotation;
	struct cuj cuj;
	struct finding finding;
	struct dyn_anim dyn;
	uint64_t ids[1];
	char note[32];
};

static void samples_init(struct samples *s)
{
	memset(s, 0, sizeof(*s));
	s->ids[0] = 168950273;
	s->anim = (struct anim){ .id = 168950273,
				 .kind = ANIM_OBJECT,
				 .n_props = 1,
				 .pid = PID,
				 .start_tid = PID,
				 .end_tid = PID,
				 .start_ns = 1000000000,
				 .end_ns = 1283333333,
				 .frames = 18,
				 .reason = END_COMPLETE };
	snprintf(s->anim.name, sizeof(s->anim.name), "animator:alpha");
	snprintf(s->anim.props[0], sizeof(s->anim.props[0]), "alpha");
	snprintf(s->anim.process, sizeof(s->anim.process), "com.example");
	s->frame = (struct frame){ .pid = PID,
				   .tid = PID,
				   .seq = 1,
				   .vsync_id = 1000,
				   .start_ns = 1000000000,
				   .dur_ns = 8000000,
				   .n_anims = 1,
				   .anim_ids = s->ids,
				   .budget_ns = 16666667 };
	s->np = (struct node_props){ .node = NODE, .set_mask = 1u << PROP_ALPHA };
	s->np.values[PROP_ALPHA] = 0.5f;
	s->np.sets[PROP_ALPHA] = 1;
	snprintf(s->np.node_name, sizeof(s->np.node_name), "NotificationRow");
	s->fp = (struct frame_props){ .pid = PID,
				      .tid = PID,
				      .ts_ns = 1000000000,
				      .vsync_id = -1,
				      .n_nodes = 1,
				      .nodes = &s->np };
	s->jank = (struct jank){ .kind = JANK_LATE,
				 .pid = PID,
				 .tid = PID,
				 .frame_seq = 1,
				 .vsync_id = 1000,
				 .ts_ns = 1000000000,
				 .duration_ns = 30000000,
				 .budget_ns = 16666667,
				 .n_anims = 1,
				 .anim_ids = s->ids };
	s->storm = (struct refresh_storm){ .pid = PID,
					   .node = NODE,
					   .node_frames = 30,
					   .n_views = 1,
					   .frames = 30,
					   .vsync_requests = 30,
					   .first_ns = 1000000000,
					   .duration_ns = 500000000 };
	snprintf(s->storm.node_name, sizeof(s->storm.node_name), "ScrimView");
	s->animation = (struct animation){ .id = 1,
					   .ended = true,
					   .kind = FIT_SPRING,
					   .reason = END_COMPLETE,
					   .pid = PID,
					   .tid = PID,
					   .node = NODE,
					   .n_props = 1,
					   .start_ns = 1000000000,
					   .duration_ns = 300000000,
					   .frames = 18 };
	s->animation.props[0] =
		(struct animation_prop){ .prop = PROP_TRANSLATION_X, .to = 100, .frames = 18 };
	s->annotation =
		(struct annotation){ .pid = PID, .tid = 7, .ts_ns = 1000000000, .type = 'N' };
	snprintf(s->annotation.name, sizeof(s->annotation.name), "Anim 1 end");
	s->cuj = (struct cuj){ .pid = PID,
			       .tid = PID,
			       .begin_vsync = 1000,
			       .begin_ns = 1000000000,
			       .end_ns = 1300000000,
			       .ended = true,
			       .frames = 18,
			       .n_anims = 1,
			       .anim_ids = s->ids };
	snprintf(s->cuj.name, sizeof(s->cuj.name), "SHADE_EXPAND_COLLAPSE");
	s->finding = (struct finding){ .kind = FINDING_FLICKER,
				       .pid = PID,
				       .ts_ns = 1000000000,
				       .n_ids = 1,
				       .ids = { 168950273 } };
	snprintf(s->finding.text, sizeof(s->finding.text), "a flicker");
	s->dyn = (struct dyn_anim){
		.id = 1, .kind = DYN_SPRING, .pid = PID, .tid = PID, .start_ns = 1000000000
	};
	/* one animator still running at exit: --annotate closes its slice then */
	s->summary = (struct summary){
		.first_ns = 1000000000, .last_ns = 2000000000, .n_running = 1, .running = &s->anim
	};
	snprintf(s->note, sizeof(s->note), "a note");
}

/* The sample for a callback's record type (the types of AT_SINK_OPS). */
#define SAMPLE(s, type) \
	_Generic((type)0, const struct anim *: &(s)->anim, const struct frame *: &(s)->frame, \
		 const struct summary *: &(s)->summary, struct summary *: &(s)->summary, \
		 const struct frame_props *: &(s)->fp, const char *: (s)->note,        \
		 const struct jank *: &(s)->jank, const struct refresh_storm *: &(s)->storm, \
		 const struct animation *: &(s)->animation,                            \
		 const struct annotation *: &(s)->annotation, const struct cuj *: &(s)->cuj,  \
		 const struct finding *: &(s)->finding, const struct dyn_anim *: &(s)->dyn)

/* Calls callback id of s with its sample; a NULL callback is 0. */
static int call(struct sink s, enum cb_id id, struct samples *smp)
{
	switch (id) {
#define CB_CALL(cb, type) \
	case CB_##cb:     \
		return s.ops->cb ? s.ops->cb(s.ctx, SAMPLE(smp, type)) : 0;
		AT_SINK_OPS(CB_CALL)
#undef CB_CALL
	default:
		cr_assert_fail("no callback %d", id);
		return -EINVAL;
	}
}

/* ---- a counting sink: every callback counted, with the record it got ---------------- */

struct counter {
	int n[CB_COUNT];
	const void *last[CB_COUNT];
	int ret; /* what every callback returns */
};

#define COUNT_CB(cb, type)                         \
	static int count_##cb(void *ctx, type rec) \
	{                                          \
		struct counter *c = ctx;           \
                                                   \
		c->n[CB_##cb]++;                   \
		c->last[CB_##cb] = rec;            \
		return c->ret;                     \
	}
AT_SINK_OPS(COUNT_CB)
#undef COUNT_CB

static const struct sink_ops count_ops = {
#define COUNT_OP(cb, type) .cb = count_##cb,
	AT_SINK_OPS(COUNT_OP)
#undef COUNT_OP
};

static struct sink counting(struct counter *c)
{
	return (struct sink){ .ops = &count_ops, .ctx = c };
}

/* ---- the four real sinks, each writing where its size can be read ------------------- */

enum real { BOX, JSON, TRACE, ANNOTATE, N_REAL };

static const char *const real_names[N_REAL] = { "box", "json", "trace", "annotate" };

/*
 * What each sink writes something for (1) and what not (0): exact, so a callback that stops
 * reaching a sink, or a new one that reaches it unannounced, fails. The box prints frames
 * (--frames); the trace names the process at its first record (anim_start, first here).
 */
static const bool writes[N_REAL][CB_COUNT] = {
	[BOX] = { [CB_anim_start] = 1,
		  [CB_anim_end] = 1,
		  [CB_frame] = 1,
		  [CB_summary] = 1,
		  [CB_frame_props] = 1,
		  [CB_note] = 1,
		  [CB_jank] = 1,
		  [CB_refresh_storm] = 1,
		  [CB_animation_start] = 1,
		  [CB_animation_end] = 1,
		  [CB_anim_target] = 1,
		  [CB_cuj] = 1,
		  [CB_dyn_start] = 1,
		  [CB_dyn_end] = 1 },
	[JSON] = { [CB_anim_start] = 1,
		   [CB_anim_end] = 1,
		   [CB_frame] = 1,
		   [CB_summary] = 1,
		   [CB_frame_props] = 1,
		   [CB_note] = 1,
		   [CB_jank] = 1,
		   [CB_refresh_storm] = 1,
		   [CB_animation_start] = 1,
		   [CB_animation_end] = 1,
		   [CB_annotation] = 1,
		   [CB_anim_target] = 1,
		   [CB_cuj] = 1,
		   [CB_finding] = 1,
		   [CB_dyn_start] = 1,
		   [CB_dyn_end] = 1 },
	[TRACE] = { [CB_anim_start] = 1,
		    [CB_anim_end] = 1,
		    [CB_frame] = 1,
		    [CB_frame_props] = 1,
		    [CB_note] = 1,
		    [CB_jank] = 1,
		    [CB_refresh_storm] = 1,
		    [CB_animation_end] = 1,
		    [CB_cuj] = 1,
		    [CB_finding] = 1,
		    [CB_dyn_end] = 1 },
	[ANNOTATE] = { [CB_anim_start] = 1,
		       [CB_anim_end] = 1,
		       [CB_frame_props] = 1,
		       [CB_jank] = 1,
		       [CB_animation_start] = 1,
		       [CB_animation_end] = 1,
		       [CB_summary_fill] = 1,
		       [CB_finding] = 1,
		       [CB_cuj] = 1,
		       [CB_dyn_start] = 1,
		       [CB_dyn_end] = 1 },
};

struct outputs {
	char *buf[N_REAL];
	size_t len[N_REAL];
	FILE *f[N_REAL];
	char path[64]; /* the annotate sink's "trace_marker" */
	struct sink_box *box;
	struct sink_json *json;
	struct sink_trace *trace;
	struct sink_annotate *annotate;
};

static struct sink real_open(struct outputs *o, enum real r)
{
	static const struct sink_box_opts box_opts = { .frames = true };
	int fd;

	if (r != ANNOTATE) {
		o->f[r] = open_memstream(&o->buf[r], &o->len[r]);
		cr_assert_not_null(o->f[r]);
	}
	switch (r) {
	case BOX:
		cr_assert_not_null(o->box = sink_box__new(o->f[r], &box_opts));
		return sink_box__sink(o->box);
	case JSON:
		cr_assert_not_null(o->json = sink_json__new(o->f[r]));
		return sink_json__sink(o->json);
	case TRACE:
		cr_assert_not_null(o->trace = sink_trace__new(o->f[r]));
		return sink_trace__sink(o->trace);
	default:
		snprintf(o->path, sizeof(o->path), "/tmp/fanout-test-XXXXXX");
		fd = mkstemp(o->path);
		cr_assert_geq(fd, 0);
		close(fd);
		cr_assert_not_null(o->annotate = sink_annotate__new(NULL, NULL));
		cr_assert_eq(sink_annotate__open(o->annotate, o->path), 0);
		return sink_annotate__sink(o->annotate);
	}
}

/* Bytes r has written so far. */
static size_t real_size(struct outputs *o, enum real r)
{
	struct stat st;

	if (r == ANNOTATE) {
		cr_assert_eq(stat(o->path, &st), 0);
		return (size_t)st.st_size;
	}
	fflush(o->f[r]);
	return o->len[r];
}

static void real_close(struct outputs *o)
{
	sink_box__free(o->box);
	sink_json__free(o->json);
	sink_trace__free(o->trace);
	sink_annotate__free(o->annotate);
	for (int r = 0; r < N_REAL; r++) {
		if (o->f[r])
			fclose(o->f[r]);
		free(o->buf[r]);
	}
	if (o->annotate)
		unlink(o->path);
	memset(o, 0, sizeof(*o));
}

/*
 * The sinks of mask (bit per enum real) behind one fan-out with a counting sink before,
 * between and after them; each callback once: every counter gets it, with the very record
 * sent, and each real sink writes exactly when `writes` says.
 */
static void check_combination(unsigned int mask)
{
	struct counter cnt[N_REAL + 1] = { 0 };
	struct sink_fanout *fo = sink_fanout__new();
	struct outputs o = { 0 };
	struct samples smp;
	int n_cnt = 0;

	cr_assert_not_null(fo);
	samples_init(&smp);
	cr_assert_eq(sink_fanout__add(fo, counting(&cnt[n_cnt++])), 0);
	for (int r = 0; r < N_REAL; r++) {
		if (!(mask & (1u << r)))
			continue;
		cr_assert_eq(sink_fanout__add(fo, real_open(&o, r)), 0);
		cr_assert_eq(sink_fanout__add(fo, counting(&cnt[n_cnt++])), 0);
	}
	for (int id = 0; id < CB_COUNT; id++) {
		size_t before[N_REAL];

		for (int r = 0; r < N_REAL; r++)
			before[r] = mask & (1u << r) ? real_size(&o, r) : 0;
		cr_assert_eq(call(sink_fanout__sink(fo), id, &smp), 0, "%s", cb_names[id]);
		for (int c = 0; c < n_cnt; c++) {
			cr_assert_eq(cnt[c].n[id], 1, "sinks 0x%x: %s did not reach slot %d", mask,
				     cb_names[id], 2 * c);
			cr_assert_not_null(cnt[c].last[id]);
		}
		for (int c = 1; c < n_cnt; c++)
			cr_assert_eq(cnt[c].last[id], cnt[0].last[id], "%s: another record",
				     cb_names[id]);
		for (int r = 0; r < N_REAL; r++) {
			if (!(mask & (1u << r)))
				continue;
			cr_assert_eq(real_size(&o, r) > before[r], writes[r][id],
				     "sinks 0x%x: %s %s for %s", mask, real_names[r],
				     writes[r][id] ? "wrote nothing" : "wrote", cb_names[id]);
		}
	}
	for (int c = 0; c < n_cnt; c++)
		for (int id = 0; id < CB_COUNT; id++)
			cr_assert_eq(cnt[c].n[id], 1);
	sink_fanout__free(fo);
	real_close(&o);
}

Test(sink_fanout, every_callback_reaches_every_sink_in_every_combination_of_the_four)
{
	for (unsigned int mask = 1; mask < 1u << N_REAL; mask++)
		check_combination(mask);
}

Test(sink_fanout, the_annotate_sink_gives_the_other_sinks_its_delays_in_the_summary)
{
	struct sink_fanout *fo = sink_fanout__new();
	struct outputs o = { 0 };
	struct samples smp;
	struct sink s;

	samples_init(&smp);
	cr_assert_eq(sink_fanout__add(fo, real_open(&o, JSON)), 0);
	cr_assert_eq(sink_fanout__add(fo, real_open(&o, ANNOTATE)), 0);
	s = sink_fanout__sink(fo);
	smp.anim.src_ts_ns = 1;
	cr_assert_eq(s.ops->anim_start(s.ctx, &smp.anim), 0);
	cr_assert_eq(s.ops->summary_fill(s.ctx, &smp.summary), 0); /* as the engine does */
	cr_assert_eq(s.ops->summary(s.ctx, &smp.summary), 0);
	real_size(&o, JSON);
	cr_assert_not_null(strstr(o.buf[JSON], "\"annotation_delay_ns\":{\"count\":2,"),
			   "the G and the H of the running animator: %s", o.buf[JSON]);
	sink_fanout__free(fo);
	real_close(&o);
}

/* ---- errors and NULL callbacks ------------------------------------------------------ */

static const struct sink_ops no_ops = { 0 };

Test(sink_fanout, a_failed_sink_keeps_no_record_from_the_others_and_the_first_error_is_kept)
{
	struct counter fail1 = { .ret = -EPIPE }, ok = { 0 }, fail2 = { .ret = -ENOSPC };
	struct sink_fanout *fo = sink_fanout__new();
	struct samples smp;

	samples_init(&smp);
	cr_assert_eq(sink_fanout__add(fo, counting(&fail1)), 0);
	cr_assert_eq(sink_fanout__add(fo, (struct sink){ .ops = &no_ops }), 0);
	cr_assert_eq(sink_fanout__add(fo, counting(&ok)), 0);
	cr_assert_eq(sink_fanout__add(fo, counting(&fail2)), 0);
	for (int id = 0; id < CB_COUNT; id++) {
		cr_assert_eq(call(sink_fanout__sink(fo), id, &smp), -EPIPE, "%s", cb_names[id]);
		cr_assert_eq(ok.n[id], 1, "%s", cb_names[id]);
		cr_assert_eq(fail2.n[id], 1, "%s", cb_names[id]);
	}
	sink_fanout__free(fo);
}

Test(sink_fanout, empty_it_accepts_everything_and_a_sink_without_ops_is_refused)
{
	struct sink_fanout *fo = sink_fanout__new();
	struct samples smp;

	samples_init(&smp);
	for (int id = 0; id < CB_COUNT; id++)
		cr_assert_eq(call(sink_fanout__sink(fo), id, &smp), 0, "%s", cb_names[id]);
	cr_assert_eq(sink_fanout__add(fo, (struct sink){ 0 }), -EINVAL);
	sink_fanout__free(fo);
	sink_fanout__free(NULL);
}

Test(sink_fanout, many_sinks_each_get_every_record)
{
	struct counter c[40] = { 0 };
	struct sink_fanout *fo = sink_fanout__new();
	struct samples smp;

	samples_init(&smp);
	for (int i = 0; i < 40; i++)
		cr_assert_eq(sink_fanout__add(fo, counting(&c[i])), 0);
	for (int id = 0; id < CB_COUNT; id++)
		cr_assert_eq(call(sink_fanout__sink(fo), id, &smp), 0);
	for (int i = 0; i < 40; i++)
		for (int id = 0; id < CB_COUNT; id++)
			cr_assert_eq(c[i].n[id], 1, "sink %d, %s", i, cb_names[id]);
	sink_fanout__free(fo);
}

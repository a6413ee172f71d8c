// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * animsim: a stand-in for an Android app process, for animtrace's live tests.
 *
 * Like zygote, the parent forks one child per package name and each child renames itself
 * without exec (comm and /proc/<pid>/cmdline). Each child then writes libcutils-format
 * trace_marker text for 60 Hz frames and a scripted set of animators, and calls the fixture
 * libhwui's RenderNode setters and the ART fixture's ValueAnimator methods, recording what it
 * did as JSON lines (--expect) so tests can compare animtrace's output exactly. See
 * tests/sim/README.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "art_load.h"
#include "sim_dyn.h"
#include "sim_heap.h"
#include "fit_sim.h"
#include "hwui_load.h"
#include "sim_findings.h"

#define PKG_MAX 128
#define MARKER_MAX 1024 /* ATRACE_MESSAGE_LENGTH */
#define LINE_MAX_LEN 1024
#define FIRST_VSYNC 1000L
#define MAX_ANIMS 8
#define FILLER_NODES 5 /* x 10 properties: one setter call each per frame at most */
#define FILLER_MAX (FILLER_NODES * HWUI_PROP_COUNT)
#define EXIT_USAGE 2
/* Truncated once by the parent; the children append through the inherited description. */
#define EXPECT_FLAGS (O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC)

/* Unit tests of the padding re-exec raise this; the kernel's own argv is otherwise enough. */
#ifndef ARGV_AREA_MIN
#define ARGV_AREA_MIN 0
#endif

enum role { ROLE_TARGET = 0, ROLE_DECOY = 1 };
enum node_id { NODE_A = 0, NODE_B, NODE_COUNT, NODE_C = NODE_COUNT, NODE_D, NODE_MAX };

struct opts {
	char name[PKG_MAX];
	char decoy[PKG_MAX];
	char expect[PATH_MAX];
	char hwui[PATH_MAX];
	char art[PATH_MAX];
	char scenario[32];
	char go[PATH_MAX]; /* --go: wait for this file before the first frame */
	long start_delay_ms, linger_ms, frames;
	long fps, props_per_frame, flood;
	long late_frames;  /* --hwui-late-frames: load the fixtures in the child after N frames */
	bool no_vsync_ids; /* --no-vsync-ids: Android 11 markers (doFrame and DrawFrame, no id) */
	bool tags_off; /* --tags-off: its VIEW tag is off, so libcutils writes no marker at all */
	bool vsync_tokens;   /* --vsync-ids tokens: FrameTimeline tokens, onVsync before doFrame */
	long vsync_seed;     /* --vsync-seed: how the tokens rise (deterministic for a seed) */
	bool surfaceflinger; /* --surfaceflinger: a third child writes VSYNC-app toggles */
	unsigned int forge;  /* --forge KIND: hostile children beside the app (FORGE_*) */
	char gate[PATH_MAX]; /* --late-gate DIR: load once DIR/load exists, play once DIR/go does */
	bool wrong_layout;   /* --wrong-layout: config's animators laid out as another Android's */
	int cuj_form;	     /* --cuj-form 12..15: FrameTracker as that Android writes a CUJ */
};

/*
 * Frames are numbered from 1 and play in vsync slots: frame f is in slot f plus the slots the
 * scenario skips before it (struct skip_def), and its vsync id is FIRST_VSYNC + slot - 1.
 */
struct anim_def {
	const char *name;
	uint32_t cookie_index;	  /* cookie = role's base + index */
	int start_frame;	  /* 0: never starts (cancel during the start delay) */
	int end_frame;		  /* 0: never ends (left running) */
	const char *end_kind;	  /* how it ends: "complete", "cancel", "end" or NULL */
	enum art_call start_call; /* which ValueAnimator.start overload starts it */
	int call_frame; /* > 0: start() runs in this earlier frame (a start delay until S) */
};

/* An animator driving one property linearly from its start frame to its end frame. */
struct track_def {
	int anim;
	enum node_id node;
	enum hwui_prop prop;
	float from, to;
};

/* A setter call outside any animator, after the animators' updates of that frame. */
struct poke_def {
	int frame;
	enum node_id node;
	enum hwui_prop prop;
	bool same; /* set the current value again (read with the getter): no change */
	float value;
};

/* A CUJ: "J<" name ">" from frame begin to frame end, ended (reason 0) or cancelled. */
struct cuj_def {
	const char *name;
	int begin, end;
	bool cancel; /* REASON_CANCEL_NORMAL (16), as when the user lets go mid-swipe */
};

/* Before frame `frame` the app misses `slots` vsyncs (a dropped frame, or an idle gap). */
struct skip_def {
	int frame;
	int slots;
};

/* A node freed at the start of a frame and another made at once (the fixture's allocator gives
 * it the same address), of class cls. */
struct realloc_def {
	int frame;
	enum node_id node;
	const char *cls;
};

struct scenario {
	const char *name;
	const struct anim_def *anims;
	int n_anims;
	const struct track_def *tracks;
	int n_tracks;
	const struct poke_def *pokes;
	int n_pokes;
	int cycle; /* > 0: the script starts over every cycle frames (same animators, cookies) */
	const struct skip_def *skips;
	int n_skips;
	int slow_frame; /* > 0: this frame's traversal holds 2.4 periods in nested slices */
	bool refresh;	/* who redraws: display lists re-recorded and vsync requests (refresh_*) */
	/* The animators are Java objects in a heap laid out as ART would (sim_heap.h), configured
	 * as sim_heap_config says; targets: the node of each one's target. */
	bool heap;
	const enum node_id *targets;
	int n_nodes; /* views created (0: NODE_COUNT) */
	/* Each frame goes through the animators' animateValue (ART fixture), whose update
	 * listeners or property setters make their track writes, as AnimationHandler does. */
	bool animate_value;
	/* CUJs (InteractionJankMonitor): each begins in the input phase of its begin frame and
	 * ends, or is cancelled, in the animation phase of its end frame (after its F markers). */
	const struct cuj_def *cujs;
	int n_cujs;
	/* A Looper message (android.os.Handler) of handler_pct % of a period runs between this
	 * frame's vsync and its doFrame, so the doFrame starts that late at any --fps. */
	int handler_frame;
	long handler_pct;
};

static const struct anim_def basic_anims[] = {
	{ "animator:alpha", 1, 1, 18, "complete", ART_CALL_START, 0 },
	{ "animator:translationY", 2, 1, 18, "complete", ART_CALL_START_BOOL, 0 },
	{ "animator", 3, 2, 9, "cancel", ART_CALL_START, 0 },
	{ "animator:scaleX", 4, 0, 3, "cancel", ART_CALL_START, 0 },
	{ "animator:scaleY", 5, 7, 7, "end", ART_CALL_START, 0 },
	{ "animator:rotation", 6, 4, 0, NULL, ART_CALL_START, 0 },
};

static const struct track_def basic_tracks[] = {
	{ 0, NODE_A, HWUI_ALPHA, 1.0f, 0.0f },
	{ 1, NODE_B, HWUI_TRANSLATION_Y, 0.0f, -100.0f },
};

static const struct poke_def basic_pokes[] = {
	{ 5, NODE_A, HWUI_ALPHA, false, 0.5f }, /* fights the animator's value; wins the frame */
	{ 6, NODE_A, HWUI_ALPHA, true, 0.0f },
};

/* basic without the leak: every lifecycle of a long run ends, so memory must stay flat. */
static const struct anim_def soak_anims[] = {
	{ "animator:alpha", 1, 1, 18, "complete", ART_CALL_START, 0 },
	{ "animator:translationY", 2, 1, 18, "complete", ART_CALL_START_BOOL, 0 },
	{ "animator", 3, 2, 9, "cancel", ART_CALL_START, 0 },
	{ "animator:scaleX", 4, 0, 3, "cancel", ART_CALL_START, 0 },
	{ "animator:scaleY", 5, 7, 7, "end", ART_CALL_START, 0 },
};

#define SOAK_CYCLE 20

/*
 * jank: one animator over frames 1..30 that misses 2 vsyncs before frame 10, has a slow
 * frame 20 (RV OnBindView > inflate) after which 2 more vsyncs go by, then an idle gap of
 * 10 vsyncs before frame 36 with no animator running (which must count nothing).
 */
static const struct anim_def jank_anims[] = {
	{ "animator:alpha", 1, 1, 30, "complete", ART_CALL_START, 0 },
};

static const struct track_def jank_tracks[] = {
	{ 0, NODE_A, HWUI_ALPHA, 1.0f, 0.0f },
};

static const struct skip_def jank_skips[] = {
	{ 10, 2 },
	{ 21, 2 },
	{ 36, 10 },
};

#define JANK_SLOW_FRAME 20

/*
 * refresh: an alpha animator whose update listener invalidates its view (NotificationRow
 * re-records in each of frames 1-18), a translationY animator that redraws nothing (21-38),
 * then a storm: ScrimView re-recorded in each of frames 41-85 with no animator. Each of those
 * frames asks for the next vsync.
 */
static const struct anim_def refresh_anims[] = {
	{ "animator:alpha", 1, 1, 18, "complete", ART_CALL_START, 0 },
	{ "animator:translationY", 2, 21, 38, "complete", ART_CALL_START, 0 },
};

static const struct track_def refresh_tracks[] = {
	{ 0, NODE_A, HWUI_ALPHA, 1.0f, 0.0f },
	{ 1, NODE_B, HWUI_TRANSLATION_Y, 0.0f, -100.0f },
};

#define REFRESH_STORM_FIRST 41
#define REFRESH_STORM_LAST 85

/*
 * listeners: a ValueAnimator whose update listener moves two views, two ObjectAnimators on
 * alpha of two other views in the same frames, and one whose start() runs 6 frames (100 ms
 * at 60 Hz) before its S. Every write is made inside its animator's animateValue.
 */
static const struct anim_def listeners_anims[] = {
	{ "animator", 1, 2, 14, "complete", ART_CALL_START, 0 },
	{ "animator:alpha", 2, 2, 14, "complete", ART_CALL_START, 0 },
	{ "animator:alpha", 3, 2, 14, "complete", ART_CALL_START, 0 },
	{ "animator:translationX", 4, 8, 14, "complete", ART_CALL_START, 2 },
};

static const struct track_def listeners_tracks[] = {
	{ 0, NODE_A, HWUI_ALPHA, 1.0f, 0.0f },
	{ 0, NODE_B, HWUI_TRANSLATION_Y, 0.0f, -120.0f },
	{ 1, NODE_C, HWUI_ALPHA, 1.0f, 0.25f },
	{ 2, NODE_D, HWUI_ALPHA, 1.0f, 0.5f },
	{ 3, NODE_D, HWUI_TRANSLATION_X, 0.0f, 60.0f },
};

/* One address, three nodes: NotificationRow, then a QSPanel, then another QSPanel (same class,
 * new unique id), each faded by an animator of its own. */
static const struct anim_def realloc_anims[] = {
	{ "animator:alpha", 1, 1, 6, "complete", ART_CALL_START, 0 },
	{ "animator:alpha", 2, 7, 12, "complete", ART_CALL_START, 0 },
	{ "animator:alpha", 3, 13, 18, "complete", ART_CALL_START, 0 },
};

static const struct track_def realloc_tracks[] = {
	{ 0, NODE_A, HWUI_ALPHA, 1.0f, 0.0f },
	{ 1, NODE_A, HWUI_ALPHA, 1.0f, 0.5f },
	{ 2, NODE_A, HWUI_ALPHA, 1.0f, 0.25f },
};

static const struct realloc_def realloc_reallocs[] = {
	{ 7, NODE_A, "com.android.systemui.qs.QSPanel" },
	{ 13, NODE_A, "com.android.systemui.qs.QSPanel" },
};

/*
 * cuj: SystemUI expands the shade. CUJ SHADE_EXPAND_COLLAPSE over frames 2..14: an alpha fade
 * (frames 3..14) and a translationY (5..10) inside it, a scaleX (17..20) after it (inside the
 * cancelled SHADE_ROW_SWIPE below); in frame 12 a
 * Handler message of 1.2 periods (20 ms at 60 Hz) delays the doFrame past its deadline: late
 * enough that a tracer has measured the period from the 10 frames before (its vsync is then
 * on the grid, not wherever the simulator woke). Meant for --vsync-ids tokens.
 */
static const struct anim_def cuj_anims[] = {
	{ "animator:alpha", 1, 3, 14, "complete", ART_CALL_START, 0 },
	{ "animator:translationY", 2, 5, 10, "complete", ART_CALL_START, 0 },
	{ "animator:scaleX", 3, 17, 20, "complete", ART_CALL_START, 0 },
};

static const struct track_def cuj_tracks[] = {
	{ 0, NODE_A, HWUI_ALPHA, 1.0f, 0.0f },
	{ 1, NODE_B, HWUI_TRANSLATION_Y, 0.0f, -100.0f },
	{ 2, NODE_A, HWUI_SCALE_X, 1.0f, 0.5f },
};

/* ... and a swipe of a notification row from frame 16, let go (cancelled) in frame 19. */
static const struct cuj_def cuj_cujs[] = {
	{ "SHADE_EXPAND_COLLAPSE", 2, 14, false },
	{ "SHADE_ROW_SWIPE", 16, 19, true },
};

#define CUJ_HANDLER "android.os.Handler: com.example.Feed$1"

/*
 * writers: a set's child fades NotificationRow (frames 1..10, started at once by
 * AnimatorSet.start), a second alpha animator fights it on the same view (3..10), and in
 * frame 5 the traversal (code, no animator) sets its alpha too: three writers in one frame.
 * The set starts its next child in frame 10 from its frame callback (translationY of the other
 * view); a ViewPropertyAnimator scales that view in 12..18. Every write is made inside its
 * animator's animateValue but the traversal's.
 */
static const struct anim_def writers_anims[] = {
	{ "animator:alpha", 1, 1, 10, "complete", ART_CALL_START_SET, 0 },
	{ "animator:alpha", 2, 3, 10, "complete", ART_CALL_START, 0 },
	{ "animator:translationY", 3, 10, 16, "complete", ART_CALL_START_SET_FRAME, 0 },
	{ "animator", 4, 12, 18, "complete", ART_CALL_START_VPA, 0 },
};

static const struct track_def writers_tracks[] = {
	{ 0, NODE_A, HWUI_ALPHA, 1.0f, 0.0f },
	{ 1, NODE_A, HWUI_ALPHA, 0.2f, 0.8f },
	{ 2, NODE_B, HWUI_TRANSLATION_Y, 0.0f, -60.0f },
	{ 3, NODE_B, HWUI_SCALE_X, 1.0f, 0.5f },
};

static const struct poke_def writers_pokes[] = {
	{ 5, NODE_A, HWUI_ALPHA, false, 0.5f },
};

#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/*
 * config: animators whose configuration animtrace reads from their objects (sim_heap.c): a
 * fade repeated INFINITE (never ends), a slide whose start() runs 6 frames (100 ms) before
 * its S, a colour on the row (no RenderNode property), a ValueAnimator of two holders.
 */
static const struct anim_def config_anims[] = {
	{ "animator:alpha", 1, 2, 0, NULL, ART_CALL_START, 0 },
	{ "animator:translationX", 2, 8, 14, "complete", ART_CALL_START, 2 },
	{ "animator:backgroundColor", 3, 3, 12, "complete", ART_CALL_START, 0 },
	{ "animator", 4, 4, 10, "complete", ART_CALL_START, 0 },
};

static const struct track_def config_tracks[] = {
	{ 0, NODE_A, HWUI_ALPHA, 1.0f, 0.0f },
	{ 1, NODE_B, HWUI_TRANSLATION_X, 0.0f, 120.0f },
};

static const enum node_id config_targets[] = { NODE_A, NODE_B, NODE_A, NODE_MAX };

static const struct scenario scenarios[] = {
	{ "basic", basic_anims, ARRAY_LEN(basic_anims), basic_tracks, ARRAY_LEN(basic_tracks),
	  basic_pokes, ARRAY_LEN(basic_pokes), .cycle = 0 },
	{ "idle", .anims = NULL },
	{ "soak", soak_anims, ARRAY_LEN(soak_anims), basic_tracks, ARRAY_LEN(basic_tracks),
	  basic_pokes, ARRAY_LEN(basic_pokes), .cycle = SOAK_CYCLE },
	{ "jank", jank_anims, ARRAY_LEN(jank_anims), jank_tracks, ARRAY_LEN(jank_tracks),
	  .skips = jank_skips, .n_skips = ARRAY_LEN(jank_skips), .slow_frame = JANK_SLOW_FRAME },
	{ "refresh", refresh_anims, ARRAY_LEN(refresh_anims), refresh_tracks,
	  ARRAY_LEN(refresh_tracks), .refresh = true },
	{ "config", config_anims, ARRAY_LEN(config_anims), config_tracks, ARRAY_LEN(config_tracks),
	  .heap = true, .targets = config_targets },
	/* No scripted animators: physics_frame() runs everything (see there). */
	{ "physics", .anims = NULL },
	{ "listeners", listeners_anims, ARRAY_LEN(listeners_anims), listeners_tracks,
	  ARRAY_LEN(listeners_tracks), .n_nodes = NODE_MAX, .animate_value = true },
	/* Played by sim_findings.c: one scenario per kind of finding, and a clean one. */
	{ "flicker", .anims = NULL },
	{ "replace", .anims = NULL },
	{ "fight", .anims = NULL },
	{ "springs", .anims = NULL },
	{ "leak", .anims = NULL },
	{ "clean", .anims = NULL },
	{ "realloc", realloc_anims, ARRAY_LEN(realloc_anims), realloc_tracks,
	  ARRAY_LEN(realloc_tracks), .cycle = 0 },
	/* No scripted animators: sim_dyn.c runs DynamicAnimations through the ART fixture. */
	{ "dyn", .anims = NULL },
	{ "writers", writers_anims, ARRAY_LEN(writers_anims), writers_tracks,
	  ARRAY_LEN(writers_tracks), writers_pokes, ARRAY_LEN(writers_pokes),
	  .animate_value = true },
	{ "cuj", cuj_anims, ARRAY_LEN(cuj_anims), cuj_tracks, ARRAY_LEN(cuj_tracks),
	  .cujs = cuj_cujs, .n_cujs = ARRAY_LEN(cuj_cujs), .handler_frame = 12,
	  .handler_pct = 120 },
};

/* The scenario's node reallocations (kept apart so the other scenarios' rows stay as they are). */
static int reallocs_of(const struct scenario *sc, const struct realloc_def **r)
{
	*r = realloc_reallocs;
	return strcmp(sc->name, "realloc") ? 0 : ARRAY_LEN(realloc_reallocs);
}

static const uint32_t cookie_base[] = { 0x0a11fa00, 0x0dec0a00 };
static const char *const role_name[] = { "target", "decoy" };
static const char *const node_class[NODE_MAX] = {
	"com.android.systemui.statusbar.notification.row.NotificationRow",
	"com.android.systemui.scrim.ScrimView",
	"com.android.systemui.statusbar.phone.StatusIconContainer",
	"com.android.systemui.qs.QSPanel",
};

/*
 * --scenario physics: nodes of their own, made only for it. A SpringAnimation and a
 * FlingAnimation without markers, each stepped per frame from the frame time in whole ms as
 * DynamicAnimation does; a marked ObjectAnimator on alpha through FastOutSlowIn; one jump.
 */
enum phys_node { PN_SPRING = 0, PN_FLING, PN_FADE, PN_COUNT };

static const char *const phys_class[PN_COUNT] = {
	"com.android.systemui.shade.NotificationPanelView",
	"com.android.systemui.statusbar.phone.KeyguardBottomArea",
	"com.android.systemui.qs.QSPanel",
};

#define PHYS_START_FRAME 2 /* the first frame of all three: it writes their start values */
#define PHYS_JUMP_FRAME 6  /* scaleX of the fling's node: 1 -> 0.5 once */
#define PHYS_FADE_MS 300
#define PHYS_FADE_COOKIE 0x40
#define PHYS_SPRING_STIFFNESS 200.0f /* SpringForce.STIFFNESS_LOW */
#define PHYS_SPRING_DAMPING 0.5f     /* SpringForce.DAMPING_RATIO_MEDIUM_BOUNCY */
#define PHYS_SPRING_TO 300.0f
#define PHYS_FLING_V0 2000.0f
#define PHYS_FLING_FRICTION 1.0f

struct dyn_anim {
	long last_ms;
	float x;
	int end_frame; /* 0 while it runs */
};

struct physics {
	int64_t node[PN_COUNT];
	struct sim_spring_state spring;
	struct sim_fling_state fling;
	struct dyn_anim sp, fl;
	long fade_start_ms;
	int fade_end_frame;
};

struct render_thread {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	long queued, begun; /* frames handed over, and those whose DrawFrames began */
	bool quit;
};

struct app {
	const struct opts *opts;
	const struct scenario *sc;
	const struct hwui_fixture_methods *hwui;
	const struct art_fixture_methods *art;
	const struct runtime_fixture_methods *runtime; /* --scenario refresh */
	const char *pkg;
	enum role role;
	int tgid;
	int marker_fd, expect_fd;
	bool expect_failed;
	int64_t node[NODE_MAX];
	const char *cls[NODE_MAX];    /* the class each node was made with (Java, dotted) */
	int64_t filler[FILLER_NODES]; /* --props-per-frame nodes, created only when asked */
	bool quiet;		      /* cyclic scenario: no per-call expect lines, totals only */
	long n_markers, n_starts, n_ends, n_changes; /* for the totals line */
	uint32_t art_obj[MAX_ANIMS]; /* the animators as ART objects, hash = cookie */
	uint64_t frame_ns;    /* CLOCK_MONOTONIC right before this frame's doFrame B marker */
	uint64_t slot_ns;     /* CLOCK_MONOTONIC of this frame's vsync slot (play) */
	struct physics *phys; /* --scenario physics only */
	struct sim_dyn *dyn;  /* --scenario dyn only (sim_dyn.h) */
	int started[MAX_ANIMS], ended[MAX_ANIMS]; /* frame numbers, 0 when it did not happen */
	int64_t start_called_ns[MAX_ANIMS];	  /* CLOCK_MONOTONIC of a delayed start() call */
	struct render_thread rt;
	struct sim_env env; /* the findings scenarios (sim_findings.c) */
	void *script;	    /* their state, NULL for the other scenarios */
};

struct argv_area {
	char *start;
	size_t len;
};

/* ---- markers: what libcutils' atrace_*_body write, one write() each ---- */

static void marker(struct app *app, const char *fmt, ...)
{
	char buf[MARKER_MAX];
	va_list ap;
	ssize_t ret;
	int n;

	if (app->opts->tags_off) /* atrace checks the tag before it formats or writes */
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	__atomic_add_fetch(&app->n_markers, 1, __ATOMIC_RELAXED); /* UI and RenderThread */
	/* EBADF/EINVAL while tracing is off: the syscall itself is what the probe sees. */
	ret = write(app->marker_fd, buf, n);
	(void)ret;
}

static void trace_begin(struct app *app, const char *name)
{
	marker(app, "B|%d|%s", app->tgid, name);
}

static void trace_end(struct app *app)
{
	marker(app, "E|%d", app->tgid);
}

static int32_t cookie_of(const struct app *app, const struct anim_def *a)
{
	return (int32_t)(cookie_base[app->role] + a->cookie_index);
}

/* ---- the --expect record ---- */

/* The vsync slot of frame f (1-based): f plus the vsyncs skipped before it. */
static long slot_of(const struct app *app, int frame)
{
	long slot = frame;

	for (int i = 0; i < app->sc->n_skips; i++)
		if (app->sc->skips[i].frame <= frame)
			slot += app->sc->skips[i].slots;
	return slot;
}

/* splitmix64's finaliser: a well-spread hash of x. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * How much the vsync id rises into slot from the slot before it, with --vsync-ids tokens.
 * Android 12+ ids are FrameTimeline tokens: SurfaceFlinger's
 * TokenManager::generateTokenForPredictions (services/surfaceflinger/FrameTimeline/
 * FrameTimeline.cpp) returns mCurrentToken++ for every prediction it makes, one per SF
 * wake-up and one per app vsync event of every app (7-8 per vsync on real captures,
 * ANDROID.md section 3): several per vsync, irregularly. Here 3..12, fixed by the seed.
 */
static long token_step(const struct app *app, long slot)
{
	return 3 +
	       (long)(mix64((uint64_t)app->opts->vsync_seed * 0x100000001b3ull ^ (uint64_t)slot) %
		      10);
}

/* The vsync id of a vsync slot (1: the first frame's; <= 0: the --hwui-late-frames). */
static long vsync_of_slot(const struct app *app, long slot)
{
	long id = FIRST_VSYNC;

	if (!app->opts->vsync_tokens)
		return FIRST_VSYNC + slot - 1;
	for (long s = 2; s <= slot; s++)
		id += token_step(app, s);
	for (long s = slot + 1; s <= 1; s++)
		id -= token_step(app, s);
	return id;
}

static long vsync_of(const struct app *app, int frame)
{
	return vsync_of_slot(app, slot_of(app, frame));
}

static void expect_line(struct app *app, const char *fmt, ...)
{
	char buf[LINE_MAX_LEN];
	va_list ap;
	int n;

	if (app->expect_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(buf) - 1) {
		app->expect_failed = true;
		return;
	}
	buf[n++] = '\n';
	/* O_APPEND and one write per line keep the children's lines whole. */
	if (write(app->expect_fd, buf, n) != n)
		app->expect_failed = true;
}

static void fmt_str(char *buf, size_t size, const char *s)
{
	if (s)
		snprintf(buf, size, "\"%s\"", s);
	else
		snprintf(buf, size, "null");
}

static void fmt_frame(char *buf, size_t size, int frame)
{
	if (frame)
		snprintf(buf, size, "%d", frame);
	else
		snprintf(buf, size, "null");
}

static void fmt_vsync(const struct app *app, char *buf, size_t size, int frame)
{
	if (frame)
		snprintf(buf, size, "%ld", vsync_of(app, frame));
	else
		snprintf(buf, size, "null");
}

static void expect_animators(struct app *app)
{
	char sf[16], ef[16], sv[24], ev[24], kind[16];

	for (int i = 0; i < app->sc->n_anims; i++) {
		const struct anim_def *a = &app->sc->anims[i];

		if (!app->started[i] && !app->ended[i])
			continue;
		fmt_frame(sf, sizeof(sf), app->started[i]);
		fmt_frame(ef, sizeof(ef), app->ended[i]);
		fmt_vsync(app, sv, sizeof(sv), app->started[i]);
		fmt_vsync(app, ev, sizeof(ev), app->ended[i]);
		fmt_str(kind, sizeof(kind), app->ended[i] ? a->end_kind : NULL);
		expect_line(app,
			    "{\"type\":\"animator\",\"pid\":%d,\"process\":\"%s\",\"role\":\"%s\","
			    "\"name\":\"%s\",\"cookie\":%" PRId32 ",\"start_frame\":%s,"
			    "\"end_frame\":%s,\"start_vsync\":%s,\"end_vsync\":%s,\"end\":%s}",
			    app->tgid, app->pkg, role_name[app->role], a->name, cookie_of(app, a),
			    sf, ef, sv, ev, kind);
	}
}

/* ---- libhwui calls ---- */

static void set_prop(struct app *app, int frame, enum node_id node, enum hwui_prop prop,
		     float value, const char *anim)
{
	int64_t ptr = app->node[node];
	bool changed = app->hwui->set[prop](ptr, value);
	/* What a return probe reads back from the node: the stored, clamped value. */
	float stored = app->hwui->get[prop](ptr);
	char anim_json[PKG_MAX + 2];

	app->n_changes += changed;
	if (app->quiet)
		return;
	fmt_str(anim_json, sizeof(anim_json), anim);
	expect_line(app,
		    "{\"type\":\"prop\",\"pid\":%d,\"process\":\"%s\",\"role\":\"%s\",\"frame\":%d,"
		    "\"vsync\":%ld,\"node\":\"0x%" PRIx64 "\",\"node_name\":\"%s\","
		    "\"property\":\"%s\",\"value\":%.9g,\"requested\":%.9g,\"changed\":%s,"
		    "\"animator\":%s}",
		    app->tgid, app->pkg, role_name[app->role], frame, vsync_of(app, frame),
		    (uint64_t)ptr, strrchr(app->cls[node], '.') + 1, app->hwui->name[prop],
		    (double)stored, (double)value, changed ? "true" : "false", anim_json);
}

static void run_tracks(struct app *app, int frame)
{
	for (int i = 0; i < app->sc->n_tracks; i++) {
		const struct track_def *t = &app->sc->tracks[i];
		const struct anim_def *a = &app->sc->anims[t->anim];
		int steps = a->end_frame - a->start_frame;
		float v;

		if (!app->started[t->anim] || frame > a->end_frame || steps <= 0)
			continue;
		/* from + (to - from) * i / n in float: exactly 1 - i/17 for the alpha fade. */
		v = t->from + (t->to - t->from) * (float)(frame - a->start_frame) / (float)steps;
		set_prop(app, frame, t->node, t->prop, v, a->name);
	}
}

struct update_ctx {
	struct app *app;
	int frame, anim;
};

/* The animator's update: its listener's or its property holders' writes of this frame. */
static void update_anim(void *arg)
{
	const struct update_ctx *u = arg;
	const struct scenario *sc = u->app->sc;

	for (int i = 0; i < sc->n_tracks; i++) {
		const struct track_def *t = &sc->tracks[i];
		const struct anim_def *a = &sc->anims[t->anim];
		int steps = a->end_frame - a->start_frame;
		float v;

		if (t->anim != u->anim)
			continue;
		v = t->from + (t->to - t->from) * (float)(u->frame - a->start_frame) / (float)steps;
		set_prop(u->app, u->frame, t->node, t->prop, v, a->name);
	}
}

/* animate_value scenarios: each running animator's animateValue, then its writes inside. */
static void run_animators(struct app *app, int frame)
{
	for (int i = 0; i < app->sc->n_anims; i++) {
		const struct anim_def *a = &app->sc->anims[i];
		struct update_ctx u = { app, frame, i };

		if (!app->started[i] || frame > a->end_frame || a->end_frame <= a->start_frame)
			continue;
		if (app->art)
			app->art->animate_value(app->art_obj[i], strchr(a->name, ':') != NULL,
						update_anim, &u);
		else
			update_anim(&u);
	}
}

static void run_pokes(struct app *app, int frame)
{
	for (int i = 0; i < app->sc->n_pokes; i++) {
		const struct poke_def *p = &app->sc->pokes[i];
		float v = p->value;

		if (p->frame != frame)
			continue;
		if (p->same)
			v = app->hwui->get[p->prop](app->node[p->node]);
		set_prop(app, frame, p->node, p->prop, v, NULL);
	}
}

/*
 * --props-per-frame: one call per (filler node, property), each a change: alpha goes
 * through (f % 100 + 1) / 128 (never clamped), the others through f + pair / 4. Not in the
 * expect file (a long run would make it huge); counted in the totals line.
 */
static void run_filler(struct app *app, int frame)
{
	const struct hwui_fixture_methods *m = app->hwui;

	for (int k = 0; k < app->opts->props_per_frame; k++) {
		int prop = k % HWUI_PROP_COUNT;
		int64_t node = app->filler[k / HWUI_PROP_COUNT];
		float v = prop == HWUI_ALPHA ? (float)(frame % 100 + 1) / 128.0f :
					       (float)frame + (float)k / 4.0f;

		app->n_changes += m->set[prop](node, v);
	}
}

/* ---- ART calls: what the app's Java code does to its animators ---- */

static void art_call(struct app *app, int frame, int anim, enum art_call call)
{
	const struct art_fixture_methods *m = app->art;
	char stack[LINE_MAX_LEN / 2], starter[32], set_caller[PKG_MAX];
	size_t len = 0;

	if (!m)
		return;
	m->call[call](app->art_obj[anim]);
	if (app->quiet)
		return;
	stack[0] = '\0';
	for (int i = 0; i < ART_STACK_MAX && m->stack[call][i]; i++)
		len += snprintf(stack + len, sizeof(stack) - len, "%s\"%s\"", i ? "," : "",
				m->stack[call][i]);
	fmt_str(starter, sizeof(starter), m->starter[call]);
	fmt_str(set_caller, sizeof(set_caller), m->set_caller[call]);
	expect_line(app,
		    "{\"type\":\"art\",\"pid\":%d,\"process\":\"%s\",\"role\":\"%s\",\"frame\":%d,"
		    "\"method\":\"%s\",\"cookie\":%" PRId32 ",\"stack\":[%s],\"starter\":%s,"
		    "\"set_caller\":%s}",
		    app->tgid, app->pkg, role_name[app->role], frame, m->method[call],
		    cookie_of(app, &app->sc->anims[anim]), stack, starter, set_caller);
}

/* cancel() or end() right before the F marker they cause; completion calls nothing. */
static void art_end_call(struct app *app, int frame, int anim)
{
	const char *kind = app->sc->anims[anim].end_kind;

	if (kind && !strcmp(kind, "cancel"))
		art_call(app, frame, anim, ART_CALL_CANCEL);
	else if (kind && !strcmp(kind, "end"))
		art_call(app, frame, anim, ART_CALL_END);
}

/* ---- one frame ---- */

/* AnimationHandler's work: starts, this frame's values, then ends (after the last value). */
static void s_marker(struct app *app, const struct anim_def *a)
{
	marker(app, "S|%d|%s|%" PRId32, app->tgid, a->name, cookie_of(app, a));
	app->n_starts++;
}

static void f_marker(struct app *app, const struct anim_def *a)
{
	marker(app, "F|%d|%s|%" PRId32, app->tgid, a->name, cookie_of(app, a));
	app->n_ends++;
}

/* The frame of the script: f itself, or its place in the cycle (which then starts over). */
static int script_frame(struct app *app, int f)
{
	if (app->sc->cycle <= 0)
		return f;
	f = (f - 1) % app->sc->cycle + 1;
	if (f == 1) {
		memset(app->started, 0, sizeof(app->started));
		memset(app->ended, 0, sizeof(app->ended));
	}
	return f;
}

static void physics_frame(struct app *app, int frame);
static int64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* start() with a start delay: AnimationHandler writes the S frames later. */
static void delayed_start(struct app *app, int frame, int anim)
{
	art_call(app, frame, anim, app->sc->anims[anim].start_call);
	app->start_called_ns[anim] = mono_ns();
}

/* After the S of a delayed start(): how long it really waited, and how long it was meant to. */
static void start_delay_line(struct app *app, int anim)
{
	const struct anim_def *a = &app->sc->anims[anim];

	if (!a->call_frame || !app->start_called_ns[anim])
		return;
	expect_line(app,
		    "{\"type\":\"start_delay\",\"pid\":%d,\"role\":\"%s\",\"cookie\":%" PRId32
		    ",\"call_frame\":%d,\"start_frame\":%d,\"scheduled_ns\":%lld,"
		    "\"start_to_s_ns\":%lld}",
		    app->tgid, role_name[app->role], cookie_of(app, a), a->call_frame,
		    a->start_frame,
		    (long long)(a->start_frame - a->call_frame) * 1000000000LL / app->opts->fps,
		    (long long)(mono_ns() - app->start_called_ns[anim]));
}

static void cuj_end(struct app *app, int frame);

static void animation_phase(struct app *app, int vframe)
{
	const struct scenario *sc = app->sc;
	int frame = script_frame(app, vframe);

	trace_begin(app, "animation");
	for (int i = 0; i < sc->n_anims; i++) {
		const struct anim_def *a = &sc->anims[i];

		if (a->call_frame && a->call_frame == frame)
			delayed_start(app, frame, i);
		if (a->start_frame != frame)
			continue;
		if (!a->call_frame)
			art_call(app, frame, i, a->start_call);
		s_marker(app, a);
		start_delay_line(app, i);
		app->started[i] = frame;
		if (a->end_frame == frame) { /* end() before it ever ran: S, F back to back */
			art_end_call(app, frame, i);
			f_marker(app, a);
			app->ended[i] = frame;
		}
	}
	if (app->hwui && sc->animate_value) {
		run_animators(app, frame);
	} else if (app->hwui) {
		run_tracks(app, frame);
		run_pokes(app, frame);
		run_filler(app, vframe);
		if (app->phys)
			physics_frame(app, frame);
		sim_dyn_frame(app->dyn, frame, app->frame_ns);
	}
	if (app->script)
		sim_findings_frame(&app->env, app->script, frame, SIM_ANIMATION, app->frame_ns);
	for (int i = 0; i < sc->n_anims; i++) {
		const struct anim_def *a = &sc->anims[i];

		if (a->end_frame != frame || app->ended[i])
			continue;
		art_end_call(app, frame, i);
		f_marker(app, a);
		app->ended[i] = frame;
	}
	cuj_end(app, frame);
	trace_end(app);
}

static void sleep_ms(long ms);

/* The slow frame: a list item bound and inflated inside traversal, 2.4 periods long. */
static void slow_traversal(struct app *app)
{
	trace_begin(app, "RV OnBindView");
	trace_begin(app, "inflate");
	sleep_ms(12 * 1000 / app->opts->fps / 5);
	trace_end(app);
	trace_end(app);
}

/* --scenario refresh: the node that re-records in frame, or -1. */
static int refresh_node(int frame)
{
	if (frame >= 1 && frame <= 18)
		return NODE_A;
	if (frame >= REFRESH_STORM_FIRST && frame <= REFRESH_STORM_LAST)
		return NODE_B;
	return -1;
}

static bool refresh_requests(int frame)
{
	return (frame >= 1 && frame <= 38 && frame != 19 && frame != 20) ||
	       (frame >= REFRESH_STORM_FIRST && frame <= REFRESH_STORM_LAST);
}

/* The animation callback asks for the next frame: through Java-named callers when ART is on. */
static void request_vsync(struct app *app, int frame)
{
	if (!app->runtime || !refresh_requests(frame))
		return;
	if (app->art)
		app->art->request_vsync(app->runtime->schedule_vsync, 0x7a000000 + app->tgid);
	else
		app->runtime->schedule_vsync(NULL, NULL, 0x7a000000 + app->tgid);
	expect_line(app, "{\"type\":\"vsync_request\",\"pid\":%d,\"role\":\"%s\",\"frame\":%d}",
		    app->tgid, role_name[app->role], frame);
}

/* Traversal: View.draw -> RenderNode.endRecording -> finishRecording(canvas, node). */
static void redraw(struct app *app, int frame)
{
	int node = refresh_node(frame);

	if (!app->sc->refresh || !app->hwui || node < 0)
		return;
	app->hwui->finish_recording(0x7c000000 + frame, app->node[node]);
	expect_line(app,
		    "{\"type\":\"redraw\",\"pid\":%d,\"role\":\"%s\",\"frame\":%d,"
		    "\"node\":\"0x%" PRIx64 "\",\"node_name\":\"%s\"}",
		    app->tgid, role_name[app->role], frame, (uint64_t)app->node[node],
		    strrchr(node_class[node], '.') + 1);
}

/* ---- --scenario physics ---- */

static void phys_set(struct app *app, enum phys_node n, enum hwui_prop prop, float v)
{
	app->n_changes += app->hwui->set[prop](app->phys->node[n], v);
}

/*
 * DynamicAnimation.doAnimationFrame: its first frame records the frame time and writes the
 * start value; each later one steps the state by the whole-ms delta since the previous
 * frame and writes the result, until the step says it is done (and snapped).
 */
static void dyn_frame(struct app *app, struct dyn_anim *d, int frame, long ms, sim_step_fn step,
		      void *state, enum phys_node n, enum hwui_prop prop)
{
	if (d->end_frame || frame < PHYS_START_FRAME)
		return;
	if (frame > PHYS_START_FRAME && step(state, ms - d->last_ms, &d->x))
		d->end_frame = frame;
	d->last_ms = ms;
	phys_set(app, n, prop, d->x);
}

/* ObjectAnimator "alpha" 1 -> 0 through FastOutSlowIn: mStartTime is its first frame's time. */
static void fade_frame(struct app *app, int frame, long ms)
{
	struct physics *ph = app->phys;
	float fraction;

	if (ph->fade_end_frame || frame < PHYS_START_FRAME)
		return;
	if (frame == PHYS_START_FRAME) {
		marker(app, "S|%d|animator:alpha|%" PRId32, app->tgid,
		       (int32_t)(cookie_base[app->role] + PHYS_FADE_COOKIE));
		ph->fade_start_ms = ms;
	}
	fraction = (float)(ms - ph->fade_start_ms) / (float)PHYS_FADE_MS;
	if (fraction > 1)
		fraction = 1;
	phys_set(app, PN_FADE, HWUI_ALPHA, 1.0f + sim_fast_out_slow_in(fraction) * (0.0f - 1.0f));
	if (fraction >= 1) {
		marker(app, "F|%d|animator:alpha|%" PRId32, app->tgid,
		       (int32_t)(cookie_base[app->role] + PHYS_FADE_COOKIE));
		ph->fade_end_frame = frame;
	}
}

static void physics_frame(struct app *app, int frame)
{
	struct physics *ph = app->phys;
	long ms = (long)(app->frame_ns / 1000000); /* AnimationHandler's frame time */

	dyn_frame(app, &ph->sp, frame, ms, sim_spring_frame, &ph->spring, PN_SPRING,
		  HWUI_TRANSLATION_Y);
	dyn_frame(app, &ph->fl, frame, ms, sim_fling_frame, &ph->fling, PN_FLING,
		  HWUI_TRANSLATION_X);
	fade_frame(app, frame, ms);
	if (frame == PHYS_JUMP_FRAME)
		phys_set(app, PN_FLING, HWUI_SCALE_X, 0.5f);
}

/* The nodes and the start states: MIN_VISIBLE_CHANGE_PIXELS thresholds, no min/max. */
static int physics_setup(struct app *app)
{
	struct physics *ph = calloc(1, sizeof(*ph));
	double value_th = fabs((double)(SIM_PIXELS * 0.75f));

	if (!ph)
		return -ENOMEM;
	app->phys = ph;
	for (int i = 0; i < PN_COUNT; i++) {
		ph->node[i] = app->hwui->create_node(phys_class[i]);
		if (!ph->node[i])
			return -errno;
	}
	ph->spring = (struct sim_spring_state){ sqrt((double)PHYS_SPRING_STIFFNESS),
						PHYS_SPRING_DAMPING,
						value_th,
						value_th * (1000.0 / 16),
						PHYS_SPRING_TO,
						0 };
	ph->fling = (struct sim_fling_state){ PHYS_FLING_FRICTION * -4.2f,
					      (SIM_PIXELS * 0.75f) * (1000.0f / 16.0f), -FLT_MAX,
					      FLT_MAX, PHYS_FLING_V0 };
	return 0;
}

static void physics_free(struct app *app)
{
	for (int i = 0; app->phys && i < PN_COUNT; i++)
		if (app->phys->node[i])
			app->hwui->free_node(app->phys->node[i]);
	free(app->phys);
	app->phys = NULL;
}

static void physics_line(struct app *app, const char *kind, enum phys_node n, enum hwui_prop prop,
			 int start, int end, float from, float to, const char *params)
{
	expect_line(app,
		    "{\"type\":\"physics\",\"pid\":%d,\"process\":\"%s\",\"role\":\"%s\","
		    "\"kind\":\"%s\",\"node\":\"0x%" PRIx64 "\",\"node_name\":\"%s\","
		    "\"property\":\"%s\",\"start_frame\":%d,\"end_frame\":%d,\"from\":%.9g,"
		    "\"to\":%.9g%s}",
		    app->tgid, app->pkg, role_name[app->role], kind, (uint64_t)app->phys->node[n],
		    strrchr(phys_class[n], '.') + 1, app->hwui->name[prop], start, end,
		    (double)from, (double)to, params);
}

/* What it ran: the spring, the fling, the marked animator and the jump, with parameters. */
static void physics_expect(struct app *app)
{
	const struct physics *ph = app->phys;
	char params[256];

	snprintf(params, sizeof(params),
		 ",\"stiffness\":%.9g,\"damping_ratio\":%.9g,\"start_velocity\":0",
		 (double)PHYS_SPRING_STIFFNESS, (double)PHYS_SPRING_DAMPING);
	physics_line(app, "spring", PN_SPRING, HWUI_TRANSLATION_Y, PHYS_START_FRAME,
		     ph->sp.end_frame, 0, ph->sp.x, params);
	snprintf(params, sizeof(params), ",\"friction_scalar\":%.9g,\"start_velocity\":%.9g",
		 (double)PHYS_FLING_FRICTION, (double)PHYS_FLING_V0);
	physics_line(app, "fling", PN_FLING, HWUI_TRANSLATION_X, PHYS_START_FRAME, ph->fl.end_frame,
		     0, ph->fl.x, params);
	snprintf(params, sizeof(params),
		 ",\"animator\":\"animator:alpha\",\"cookie\":%" PRId32
		 ",\"interpolator\":\"FastOutSlowIn\",\"duration_ms\":%d",
		 (int32_t)(cookie_base[app->role] + PHYS_FADE_COOKIE), PHYS_FADE_MS);
	physics_line(app, "interpolated", PN_FADE, HWUI_ALPHA, PHYS_START_FRAME, ph->fade_end_frame,
		     1, 0, params);
	physics_line(app, "jump", PN_FLING, HWUI_SCALE_X, PHYS_JUMP_FRAME, PHYS_JUMP_FRAME, 1, 0.5f,
		     "");
}

static void await_gate(struct app *app, const char *name);

static void dyn_line(void *app, const char *json)
{
	expect_line(app, "%s", json);
}

static void dyn_gate(void *app, const char *name)
{
	await_gate(app, name);
}

/* --scenario dyn: its runs (sim_dyn.c), on the ART fixture's DynamicAnimation methods. */
static int dyn_setup(struct app *app)
{
	struct sim_dyn_host h = { .app = app,
				  .hwui = app->hwui,
				  .art_path = app->opts->art,
				  .tgid = app->tgid,
				  .pkg = app->pkg,
				  .role = role_name[app->role],
				  .line = dyn_line,
				  .gate = dyn_gate,
				  .n_changes = &app->n_changes };

	app->dyn = sim_dyn_new(&h);
	return app->dyn ? 0 : -errno;
}

/* --scenario realloc: frees the node and makes one of another class; --late-gate DIR: first
 * waits for DIR/realloc-<frame> (a tracer has read the old node's name by then). */
static void reallocate(struct app *app, int frame)
{
	const struct realloc_def *defs;
	int n = reallocs_of(app->sc, &defs);
	char gate[32];

	for (int i = 0; app->hwui && i < n; i++) {
		const struct realloc_def *r = &defs[i];
		int64_t old = app->node[r->node];

		if (r->frame != frame)
			continue;
		snprintf(gate, sizeof(gate), "realloc-%d", frame);
		await_gate(app, gate);
		app->hwui->free_node(old);
		app->node[r->node] = app->hwui->create_node(r->cls);
		app->cls[r->node] = r->cls;
		expect_line(app,
			    "{\"type\":\"node\",\"pid\":%d,\"process\":\"%s\",\"role\":\"%s\","
			    "\"frame\":%d,\"node\":\"0x%" PRIx64 "\",\"old_node\":\"0x%" PRIx64
			    "\","
			    "\"node_name\":\"%s\",\"unique_id\":%" PRId64 "}",
			    app->tgid, app->pkg, role_name[app->role], frame,
			    (uint64_t)app->node[r->node], (uint64_t)old, strrchr(r->cls, '.') + 1,
			    app->hwui->unique_id(app->node[r->node]));
	}
}

static void render_signal(struct render_thread *rt, bool quit);

/*
 * FrameTracker (frameworks/base core/java/com/android/internal/jank/FrameTracker.java) as each
 * Android writes a CUJ (engine/cujs.h has the whole account): the session name is "J<" + the
 * CUJ's name + ">" (InteractionJankMonitor), the cookie (int) mBeginVsyncId.
 *   12: Trace.beginAsyncSection / endAsyncSection (an end and a cancel alike): S ... F.
 *   13: the same, and markEvent(desc) as Trace.beginSection(name + "#" + desc) + endSection:
 *       B|pid|J<X>#FT#begin before the S, B|pid|J<X>#FT#end#0 or ...#FT#cancel#16 before the F.
 *   14: Trace.asyncTraceForTrackBegin(TRACE_TAG_APP, name, name, cookie) (G), markEvent(event,
 *       value) as Trace.instantForTrack(TRACE_TAG_APP, name, event + "#" + value) (N):
 *       FT#beginVsync, FT#layerId; at the end FT#end and FT#endVsync, or FT#cancel; then
 *       asyncTraceForTrackEnd (H|pid|J<X>|cookie).
 *   15: as 14, and Trace.instant(TRACE_TAG_APP, name + "#UIThread") after the begin.
 * libcutils writes them as ANDROID.md section 1 says.
 */
static void ft_mark(struct app *app, const char *session, const char *event, long value)
{
	if (app->opts->cuj_form == 13)
		marker(app, "B|%d|%s#FT#%s#%ld", app->tgid, session, event, value);
	if (app->opts->cuj_form == 13)
		trace_end(app);
	if (app->opts->cuj_form >= 14)
		marker(app, "N|%d|%s|FT#%s#%ld", app->tgid, session, event, value);
}

static void cuj_begin(struct app *app, int frame)
{
	const int form = app->opts->cuj_form;
	long vsync = vsync_of(app, frame);
	char session[96];

	for (int i = 0; i < app->sc->n_cujs; i++) {
		if (frame != app->sc->cujs[i].begin)
			continue;
		snprintf(session, sizeof(session), "J<%s>", app->sc->cujs[i].name);
		if (form == 13) {
			marker(app, "B|%d|%s#FT#begin", app->tgid, session);
			trace_end(app);
		}
		if (form <= 13) {
			marker(app, "S|%d|%s|%ld", app->tgid, session, vsync);
			continue;
		}
		marker(app, "G|%d|%s|%s|%ld", app->tgid, session, session, vsync);
		ft_mark(app, session, "beginVsync", vsync);
		ft_mark(app, session, "layerId", 42);
		if (form >= 15)
			marker(app, "I|%d|%s#UIThread", app->tgid, session);
	}
}

/* Its end (or cancel) markers, and the simulator's account of it. */
static void cuj_close(struct app *app, const struct cuj_def *c, int frame)
{
	const struct scenario *sc = app->sc;
	const int form = app->opts->cuj_form;
	long cookie = vsync_of(app, c->begin);
	char session[96], reason[8] = "null";
	int n = 0;

	snprintf(session, sizeof(session), "J<%s>", c->name);
	ft_mark(app, session, c->cancel ? "cancel" : "end", c->cancel ? 16 : 0);
	if (!c->cancel)
		ft_mark(app, session, "endVsync", vsync_of(app, frame));
	if (form <= 13)
		marker(app, "F|%d|%s|%ld", app->tgid, session, cookie);
	else
		marker(app, "H|%d|%s|%ld", app->tgid, session, cookie);
	if (form >= 13)
		snprintf(reason, sizeof(reason), "%d", c->cancel ? 16 : 0);
	for (int i = 0; i < sc->n_anims; i++) /* the animators that ran inside it */
		n += sc->anims[i].start_frame && sc->anims[i].start_frame <= frame &&
		     (!sc->anims[i].end_frame || sc->anims[i].end_frame >= c->begin);
	/* what a tracer can know: 12 writes a cancel as an end and says no reason */
	expect_line(app,
		    "{\"type\":\"cuj\",\"pid\":%d,\"role\":\"%s\",\"name\":\"%s\","
		    "\"begin_vsync\":%ld,\"cancelled\":%s,\"reason\":%s,\"begin_frame\":%d,"
		    "\"end_frame\":%d,\"frames\":%d,\"animators\":%d}",
		    app->tgid, role_name[app->role], c->name, cookie,
		    c->cancel && form >= 13 ? "true" : "false", reason, c->begin, frame,
		    frame - c->begin + 1, n);
}

static void cuj_end(struct app *app, int frame)
{
	for (int i = 0; i < app->sc->n_cujs; i++)
		if (frame == app->sc->cujs[i].end)
			cuj_close(app, &app->sc->cujs[i], frame);
}

/*
 * What the UI thread's Looper runs between the vsync and the doFrame: with tokens,
 * FrameDisplayEventReceiver.onVsync's `Choreographer#onVsync <id>` slice (it posts the
 * doFrame; android/view/Choreographer.java), then in the scenario's handler frame a Handler
 * message of handler_pct % of a period that the doFrame waits behind.
 */
static void before_frame(struct app *app, int frame)
{
	long ms = app->sc->handler_pct * 10 / app->opts->fps;
	int64_t t0;

	if (app->opts->vsync_tokens && !app->opts->no_vsync_ids) {
		marker(app, "B|%d|Choreographer#onVsync %ld", app->tgid, vsync_of(app, frame));
		trace_end(app);
	}
	if (frame != app->sc->handler_frame)
		return;
	t0 = mono_ns();
	trace_begin(app, CUJ_HANDLER);
	sleep_ms(ms);
	trace_end(app);
	expect_line(app,
		    "{\"type\":\"handler\",\"pid\":%d,\"role\":\"%s\",\"frame\":%d,"
		    "\"vsync\":%ld,\"name\":\"%s\",\"duration_ms\":%ld,\"measured_ns\":%lld}",
		    app->tgid, role_name[app->role], frame, vsync_of(app, frame), CUJ_HANDLER, ms,
		    (long long)(mono_ns() - t0));
}

static void do_frame(struct app *app, int frame)
{
	struct timespec now;

	reallocate(app, frame);
	before_frame(app, frame);
	/* The frame time the physics scenario computes from: what the doFrame marker says. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	app->frame_ns = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	if (frame == app->sc->handler_frame) /* how late its doFrame starts after its vsync slot */
		expect_line(app,
			    "{\"type\":\"late_start\",\"pid\":%d,\"frame\":%d,\"vsync\":%ld,"
			    "\"late_ns\":%lld}",
			    app->tgid, frame, vsync_of(app, frame),
			    (long long)(app->frame_ns - app->slot_ns));
	if (app->opts->no_vsync_ids)
		marker(app, "B|%d|Choreographer#doFrame", app->tgid);
	else
		marker(app, "B|%d|Choreographer#doFrame %ld", app->tgid, vsync_of(app, frame));
	if (!app->quiet && !app->opts->no_vsync_ids)
		expect_line(app,
			    "{\"type\":\"frame\",\"pid\":%d,\"role\":\"%s\",\"frame\":%d,"
			    "\"vsync\":%ld}",
			    app->tgid, role_name[app->role], frame, vsync_of(app, frame));
	trace_begin(app, "input");
	cuj_begin(app, frame);
	if (app->script)
		sim_findings_frame(&app->env, app->script, frame, SIM_INPUT, app->frame_ns);
	trace_end(app);
	animation_phase(app, frame);
	request_vsync(app, frame);
	trace_begin(app, "traversal");
	if (app->hwui && app->sc->animate_value) /* code's writes: outside every animateValue */
		run_pokes(app, frame);
	if (frame == app->sc->slow_frame)
		slow_traversal(app);
	redraw(app, frame);
	render_signal(&app->rt, false);
	trace_end(app);
	trace_end(app);
}

/* ---- RenderThread: DrawFrames for each frame the UI thread hands over ---- */

static void *render_main(void *arg)
{
	struct app *app = arg;
	struct render_thread *rt = &app->rt;
	long frame;

	pthread_setname_np(pthread_self(), "RenderThread");
	pthread_mutex_lock(&rt->lock);
	for (;;) {
		while (rt->begun == rt->queued && !rt->quit)
			pthread_cond_wait(&rt->cond, &rt->lock);
		if (rt->begun == rt->queued)
			break;
		frame = rt->begun + 1;
		pthread_mutex_unlock(&rt->lock);
		if (app->opts->no_vsync_ids)
			marker(app, "B|%d|DrawFrame", app->tgid);
		else
			marker(app, "B|%d|DrawFrames %ld", app->tgid, vsync_of(app, frame));
		pthread_mutex_lock(&rt->lock);
		rt->begun++;
		pthread_cond_broadcast(&rt->cond); /* the UI thread's sync is done */
		pthread_mutex_unlock(&rt->lock);
		trace_end(app);
		pthread_mutex_lock(&rt->lock);
	}
	pthread_mutex_unlock(&rt->lock);
	return NULL;
}

/*
 * Hands the frame over, inside the doFrame's traversal as on a device (ViewRootImpl
 * performTraversals -> performDraw -> ThreadedRenderer.draw -> syncAndDrawFrame). The UI thread
 * then waits until the RenderThread has begun drawing it (libs/hwui/renderthread/
 * DrawFrameTask.cpp: drawFrame() -> postAndWait() until run(), inside its "DrawFrame" slice,
 * calls unblockUiThread() after syncFrameState()). The one RenderThread draws in order, so a
 * frame's draw ends before the next doFrame that draws can end: what the engine relies on.
 */
static void render_signal(struct render_thread *rt, bool quit)
{
	pthread_mutex_lock(&rt->lock);
	if (quit)
		rt->quit = true;
	else
		rt->queued++;
	pthread_cond_broadcast(&rt->cond);
	while (!quit && rt->begun < rt->queued)
		pthread_cond_wait(&rt->cond, &rt->lock);
	pthread_mutex_unlock(&rt->lock);
}

static int render_start(struct app *app)
{
	struct render_thread *rt = &app->rt;

	pthread_mutex_init(&rt->lock, NULL);
	pthread_cond_init(&rt->cond, NULL);
	return -pthread_create(&rt->thread, NULL, render_main, app);
}

static void render_stop(struct app *app)
{
	render_signal(&app->rt, true);
	pthread_join(app->rt.thread, NULL);
	pthread_cond_destroy(&app->rt.cond);
	pthread_mutex_destroy(&app->rt.lock);
}

/* ---- time ---- */

static void sleep_until(const struct timespec *t)
{
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		;
}

static void sleep_ms(long ms)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (ms % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	sleep_until(&t);
}

/* --fps (60 Hz) on absolute deadlines, so a slow frame does not shift the ones after it. */
static void play(struct app *app)
{
	struct timespec t0, next;
	int64_t ns;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int frame = 1; frame <= app->opts->frames; frame++) {
		app->slot_ns = (uint64_t)t0.tv_sec * 1000000000ull + (uint64_t)t0.tv_nsec +
			       (uint64_t)(slot_of(app, frame) - 1) * 1000000000ull /
				       (uint64_t)app->opts->fps;
		do_frame(app, frame);
		/* the next frame's slot: frame + 1 plus what is skipped before it, 0-based */
		ns = (int64_t)t0.tv_nsec +
		     (int64_t)(slot_of(app, frame + 1) - 1) * 1000000000LL / app->opts->fps;
		next.tv_sec = t0.tv_sec + ns / 1000000000LL;
		next.tv_nsec = ns % 1000000000LL;
		sleep_until(&next);
	}
}

/* ---- the child: an app process ---- */

/* What zygote does after fork: comm gets the last 15 chars, cmdline the whole name. */
static void rename_process(const char *pkg, const struct argv_area *area)
{
	size_t len = strlen(pkg);

	prctl(PR_SET_NAME, pkg + (len > 15 ? len - 15 : 0), 0, 0, 0);
	memset(area->start, 0, area->len);
	memcpy(area->start, pkg, len); /* area->len > len, checked before fork */
}

static int open_marker(void)
{
	static const char *const paths[] = { "/sys/kernel/tracing/trace_marker",
					     "/sys/kernel/debug/tracing/trace_marker" };

	for (int i = 0; i < ARRAY_LEN(paths); i++) {
		int fd = open(paths[i], O_WRONLY | O_CLOEXEC);

		if (fd >= 0)
			return fd;
	}
	return -errno;
}

static int create_nodes(struct app *app)
{
	for (int i = 0; i < (app->sc->n_nodes ? app->sc->n_nodes : NODE_COUNT); i++) {
		app->cls[i] = node_class[i];
		app->node[i] = app->hwui->create_node(node_class[i]);
		if (!app->node[i])
			return -errno;
	}
	for (int i = 0; i * HWUI_PROP_COUNT < app->opts->props_per_frame; i++) {
		app->filler[i] = app->hwui->create_node("com.example.anim.FillerView");
		if (!app->filler[i])
			return -errno;
	}
	return 0;
}

/* config: the animators as Java objects (sim_heap.c), each one's configuration expected. */
static int sim_heap_objects(struct app *app)
{
	struct sim_heap *h = sim_heap_open(app->opts->wrong_layout);

	if (!h)
		return -errno;
	for (int i = 0; i < app->sc->n_anims; i++) {
		struct sim_anim_cfg c = *sim_heap_config(i);
		enum node_id t = app->sc->targets[i];
		uint32_t cookie = (uint32_t)cookie_of(app, &app->sc->anims[i]);

		c.target_node = c.object_animator && t < NODE_MAX ? (uint64_t)app->node[t] : 0;
		app->art_obj[i] = sim_heap__animator(h, &c, cookie);
		if (!app->art_obj[i])
			break;
		expect_line(app,
			    "{\"type\":\"config\",\"pid\":%d,\"role\":\"%s\","
			    "\"cookie\":%" PRIu32 ",\"target_node\":\"0x%" PRIx64 "\"}",
			    app->tgid, role_name[app->role], cookie, c.target_node);
	}
	sim_heap__free(h); /* the objects stay: the mapping is never unmapped */
	return app->art_obj[app->sc->n_anims - 1] ? 0 : -errno;
}

static int create_art_objects(struct app *app)
{
	if (app->sc->heap)
		return sim_heap_objects(app);
	for (int i = 0; i < app->sc->n_anims; i++) {
		uint32_t cookie = (uint32_t)cookie_of(app, &app->sc->anims[i]);

		app->art_obj[i] = app->art->new_object(cookie);
		if (!app->art_obj[i])
			return -errno;
	}
	return 0;
}

static void free_app(struct app *app)
{
	for (int i = 0; app->hwui && i < (app->sc->n_nodes ? app->sc->n_nodes : NODE_COUNT); i++)
		app->hwui->free_node(app->node[i]);
	for (int i = 0; app->hwui && i < FILLER_NODES; i++)
		app->hwui->free_node(app->filler[i]);
	sim_dyn_free(app->dyn); /* its expect lines first */
	app->dyn = NULL;
	if (app->hwui)
		physics_free(app);
	if (app->marker_fd >= 0)
		close(app->marker_fd);
}

/* A findings scenario (sim_findings.c) gets the markers, the expect file and the fixtures. */
static int script_setup(struct app *app)
{
	int err;

	app->env = (struct sim_env){ app,
				     marker,
				     expect_line,
				     app->hwui,
				     app->art,
				     app->tgid,
				     app->pkg,
				     role_name[app->role],
				     cookie_base[app->role] };
	if (!app->hwui) {
		fprintf(stderr, "animsim: %s: scenario %s needs libhwui\n", app->pkg,
			app->sc->name);
		return -EINVAL;
	}
	err = sim_findings_setup(&app->env, app->sc->name, &app->script);
	if (err < 0)
		fprintf(stderr, "animsim: %s: %s: %s\n", app->pkg, app->sc->name, strerror(-err));
	return err;
}

static int app_setup(struct app *app)
{
	int err;

	app->tgid = getpid();
	app->marker_fd = open_marker();
	if (app->marker_fd < 0) {
		fprintf(stderr, "animsim: %s: cannot open trace_marker: %s\n", app->pkg,
			strerror(-app->marker_fd));
		return app->marker_fd;
	}
	err = app->hwui ? create_nodes(app) : 0;
	if (err >= 0 && app->hwui && !strcmp(app->sc->name, "physics"))
		err = physics_setup(app);
	if (err >= 0 && app->hwui && app->art && !strcmp(app->sc->name, "dyn"))
		err = dyn_setup(app);
	if (err < 0) {
		fprintf(stderr, "animsim: %s: cannot create nodes: %s\n", app->pkg, strerror(-err));
		return err;
	}
	err = app->art ? create_art_objects(app) : 0;
	if (err < 0)
		fprintf(stderr, "animsim: %s: cannot create ART objects: %s\n", app->pkg,
			strerror(-err));
	if (err >= 0 && sim_findings_has(app->sc->name))
		err = script_setup(app);
	return err;
}

#define FLOOD_GAP_MS 200

/*
 * --flood N: counter markers back to back, as fast as write() goes, before frame 1; then a
 * pause, so a tracer whose buffer overflowed has caught up before the frames.
 */
static void flood(struct app *app)
{
	if (!app->opts->flood)
		return;
	for (long i = 0; i < app->opts->flood; i++)
		marker(app, "C|%d|flood|%ld", app->tgid, i);
	sleep_ms(FLOOD_GAP_MS);
}

/* Runs that use the soak scenario, --flood or --props-per-frame end with their counts. */
static void expect_totals(struct app *app)
{
	const struct opts *o = app->opts;

	if (!app->sc->cycle && !o->flood && !o->props_per_frame)
		return;
	expect_line(app,
		    "{\"type\":\"totals\",\"pid\":%d,\"process\":\"%s\",\"role\":\"%s\","
		    "\"frames\":%ld,\"markers\":%ld,\"flood\":%ld,\"starts\":%ld,\"ends\":%ld,"
		    "\"prop_changes\":%ld}",
		    app->tgid, app->pkg, role_name[app->role], o->frames,
		    __atomic_load_n(&app->n_markers, __ATOMIC_RELAXED), o->flood, app->n_starts,
		    app->n_ends, app->n_changes);
}

static int late_load(struct app *app);
#define GO_POLL_MS 5
#define GO_TIMEOUT_MS (10 * 60 * 1000L)

/*
 * --go: the test creates the file once animtrace reports this process traced, so the first
 * frame never races the probes. Bounded: a test that never says go fails here, not later.
 */
static int wait_go(const struct app *app)
{
	const char *go = app->opts->go;

	for (long waited = 0; go[0] && access(go, F_OK); waited += GO_POLL_MS) {
		if (waited >= GO_TIMEOUT_MS) {
			fprintf(stderr, "animsim: %s: no %s after %ld s: nobody said go\n",
				app->pkg, go, GO_TIMEOUT_MS / 1000);
			return -ETIMEDOUT;
		}
		sleep_ms(GO_POLL_MS);
	}
	return 0;
}
static void await_gate(struct app *app, const char *name);

static int run_app(struct app *app, const struct argv_area *area)
{
	const struct realloc_def *defs;
	int err;

	/* Die with the parent, so a killed test run leaves no simulated app behind. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	rename_process(app->pkg, area);
	app->quiet = app->sc->cycle > 0;
	err = app_setup(app);
	if (err >= 0)
		err = wait_go(app);
	if (err >= 0 && app->opts->late_frames)
		err = late_load(app);
	if (err >= 0 && app->dyn)
		err = sim_dyn_load(app->dyn);
	if (err < 0)
		goto out;
	sleep_ms(app->opts->start_delay_ms);
	err = render_start(app);
	if (err < 0) {
		fprintf(stderr, "animsim: %s: RenderThread: %s\n", app->pkg, strerror(-err));
		goto out;
	}
	expect_line(app,
		    "{\"type\":\"process\",\"pid\":%d,\"process\":\"%s\",\"role\":\"%s\","
		    "\"scenario\":\"%s\",\"frames\":%ld,\"first_vsync\":%ld}",
		    app->tgid, app->pkg, role_name[app->role], app->sc->name, app->opts->frames,
		    FIRST_VSYNC);
	flood(app);
	play(app);
	render_stop(app);
	if (reallocs_of(app->sc, &defs)) /* the last node's name is read before the process goes */
		await_gate(app, "exit");
	if (!app->quiet)
		expect_animators(app);
	if (app->phys)
		physics_expect(app);
	if (app->script)
		sim_findings_finish(&app->env, app->script);
	app->script = NULL;
	expect_totals(app);
	sleep_ms(app->opts->linger_ms); /* animators still running stay running */
	if (app->expect_failed) {
		fprintf(stderr, "animsim: %s: cannot write %s\n", app->pkg, app->opts->expect);
		err = -EIO;
	}
out:
	free_app(app);
	return err < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * --surfaceflinger: a third child, named surfaceflinger, that writes SurfaceFlinger's
 * VSYNC-app counter (gfx tag: C|pid|VSYNC-app|0 or 1, flipped at each app vsync; ANDROID.md
 * section 3) on the vsync slots of the app's frames, from the moment the app starts playing
 * (same --go and --start-delay-ms), one slot past its last frame. No expect lines.
 */
#define SF_NAME "surfaceflinger"

/* n VSYNC-app toggles (1, 0, 1, ...), the i-th (from 0) at i * num / den ns from now. */
static void vsync_toggles(struct app *app, long n, int64_t num, int64_t den)
{
	struct timespec t0, next;
	int64_t ns;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++) {
		ns = (int64_t)t0.tv_nsec + i * num / den;
		next.tv_sec = t0.tv_sec + ns / 1000000000LL;
		next.tv_nsec = ns % 1000000000LL;
		sleep_until(&next);
		marker(app, "C|%d|VSYNC-app|%ld", app->tgid, (i + 1) % 2);
	}
}

/* A child that is no app: named name, writing its markers to fd (its trace_marker). */
static int side_child(struct app *app, const char *name, const struct argv_area *area, int fd)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	rename_process(name, area);
	app->pkg = name;
	app->tgid = getpid();
	app->expect_fd = -1;
	app->marker_fd = fd;
	return fd < 0 ? -1 : 0;
}

static int run_surfaceflinger(struct app *app, const struct argv_area *area)
{
	if (side_child(app, SF_NAME, area, open_marker()) < 0 || wait_go(app) < 0)
		return EXIT_FAILURE;
	sleep_ms(app->opts->start_delay_ms);
	vsync_toggles(app, slot_of(app, (int)app->opts->frames) + 1, 1000000000LL, app->opts->fps);
	close(app->marker_fd);
	return EXIT_SUCCESS;
}

/*
 * ---- hostile children (--forge KIND, issue 29): what any app may do with its name and its
 * markers. Each plays from --go, beside the app, and writes no expect line. ----
 *
 *  name:     argv[0] `PKG:x` then a newline, a line that looks like animtrace's own and an
 *            OSC sequence that retitles a terminal (so --proc PKG:* selects it); its markers'
 *            names hold ESC, CSI and newlines (an animator, a slice, a counter).
 *  vsync:    `PKG.vsync`, writing SurfaceFlinger's VSYNC-app counter every 27.2 ms.
 *  impostor: exactly PKG, but another uid (FORGE_UID, set before it takes the name, as an
 *            app's own process has its own uid): a doFrame per vsync and one animator.
 * Each writes one expect line once done:
 * {"type":"forge","kind":"vsync","pid":N,"uid":U,"markers":M} (M: its trace_marker writes).
 */
#define FORGE_NAME_TAIL ":x\nanimtrace: com.android.systemui (pid 1) exited\x1b]0;pwned\x07"
#define FORGE_VSYNC_TAIL ".vsync"
#define FORGE_VSYNC_NS 27200000LL
#define FORGE_UID 12345
#define FORGE_COOKIE 0x0bad0a01
enum { FORGE_NAME = 1, FORGE_VSYNC = 2, FORGE_IMPOSTOR = 4 };

/* The frames of the app's run, one per vsync slot. */
static void forge_frames(struct app *app, const char *slice, const char *anim)
{
	long frames = app->opts->frames;

	for (long f = 1; f <= frames; f++) {
		marker(app, "B|%d|Choreographer#doFrame %ld", app->tgid, FIRST_VSYNC + f - 1);
		if (f == 2)
			marker(app, "S|%d|%s|%d", app->tgid, anim, FORGE_COOKIE);
		marker(app, "B|%d|%s", app->tgid, slice);
		trace_end(app);
		if (f == frames - 1)
			marker(app, "F|%d|%s|%d", app->tgid, anim, FORGE_COOKIE);
		trace_end(app);
		sleep_ms(1000 / app->opts->fps);
	}
}

static int run_forger(struct app *app, const struct argv_area *area, unsigned int kind)
{
	static const char *const kinds[] = {
		[FORGE_NAME] = "name", [FORGE_VSYNC] = "vsync", [FORGE_IMPOSTOR] = "impostor"
	};
	char name[PKG_MAX + 96];
	int uid = kind == FORGE_IMPOSTOR ? FORGE_UID : 0, expect_fd = app->expect_fd;

	snprintf(name, sizeof(name), "%s%s", app->opts->name,
		 kind == FORGE_NAME  ? FORGE_NAME_TAIL :
		 kind == FORGE_VSYNC ? FORGE_VSYNC_TAIL :
				       "");
	int fd = open_marker(); /* trace_marker is root's: opened before the uid changes */

	if (fd < 0 || (uid && (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))))
		return EXIT_FAILURE;
	/* named after the uid change (which clears PR_SET_PDEATHSIG: side_child sets it) */
	if (side_child(app, name, area, fd) < 0 || wait_go(app) < 0)
		return EXIT_FAILURE;
	app->expect_fd = expect_fd;
	sleep_ms(app->opts->start_delay_ms);
	if (kind == FORGE_VSYNC)
		vsync_toggles(app,
			      (app->opts->frames + 2) * 1000 / app->opts->fps * 1000000LL /
					      FORGE_VSYNC_NS +
				      1,
			      FORGE_VSYNC_NS, 1);
	else if (kind == FORGE_NAME)
		forge_frames(app, "inflate\x1b[2J\nanimtrace: fake", "animator:\x1b[31mred\nfake");
	else
		forge_frames(app, "traversal", "animator:alpha");
	expect_line(app,
		    "{\"type\":\"forge\",\"kind\":\"%s\",\"pid\":%d,\"uid\":%d,\"markers\":%ld}",
		    kinds[kind], app->tgid, uid, app->n_markers);
	close(app->marker_fd);
	return app->expect_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Starts a child per --forge kind into pids[*n + 1 ...]. */
static void spawn_forgers(struct app *proto, const struct argv_area *area, pid_t *pids, int *n)
{
	for (unsigned int k = FORGE_NAME; k <= FORGE_IMPOSTOR && pids[*n] > 0; k <<= 1) {
		if (!(proto->opts->forge & k))
			continue;
		pids[++*n] = fork();
		if (pids[*n] == 0)
			_exit(run_forger(proto, area, k));
	}
}

static int parse_forge(unsigned int *forge, const char *arg)
{
	if (!strcmp(arg, "name"))
		*forge |= FORGE_NAME;
	else if (!strcmp(arg, "vsync"))
		*forge |= FORGE_VSYNC;
	else if (!strcmp(arg, "impostor"))
		*forge |= FORGE_IMPOSTOR;
	else
		return -EINVAL;
	return 0;
}

/* ---- the parent: zygote ---- */

static pid_t spawn(struct app *proto, const char *pkg, enum role role, const struct argv_area *area)
{
	pid_t pid = fork();

	if (pid == 0) {
		proto->pkg = pkg;
		proto->role = role;
		_exit(run_app(proto, area));
	}
	return pid;
}

static int wait_children(const pid_t *pids, int n)
{
	int failed = 0;

	for (int i = 0; i < n; i++) {
		int status;

		while (waitpid(pids[i], &status, 0) < 0) {
			if (errno != EINTR)
				return -errno;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
	}
	return failed ? -ECHILD : 0;
}

/* tracefs is where libcutils writes; a test machine may not have it mounted yet. */
static int ensure_tracefs(void)
{
	if (access("/sys/kernel/tracing/trace_marker", W_OK) == 0 ||
	    access("/sys/kernel/debug/tracing/trace_marker", W_OK) == 0)
		return 0;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) < 0)
		return -errno;
	return access("/sys/kernel/tracing/trace_marker", W_OK) < 0 ? -errno : 0;
}

/* The bytes the kernel reports as cmdline: argv strings, contiguous from argv[0]. */
static struct argv_area argv_area_of(int argc, char **argv)
{
	struct argv_area area = { argv[0], 0 };
	char *end = argv[0];

	for (int i = 0; i < argc && argv[i] == end; i++)
		end = argv[i] + strlen(argv[i]) + 1;
	area.len = end - argv[0];
	return area;
}

/*
 * A child writes its package name over the argv area, so the area must hold it. When it
 * does not, exec again with a padding argument; this happens before any fork, never in a
 * child (zygote never execs).
 */
static int ensure_argv_room(int argc, char **argv, size_t need)
{
	struct argv_area area = argv_area_of(argc, argv);
	char **nargv;
	char *pad;

	if (area.len > need)
		return 0;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--pad=", 6))
			return -E2BIG; /* padded once already and still short */
	}
	nargv = calloc(argc + 2, sizeof(*nargv));
	pad = malloc(need + 8);
	if (!nargv || !pad)
		return -ENOMEM;
	memcpy(pad, "--pad=", 6);
	memset(pad + 6, 'x', need + 1);
	pad[need + 7] = '\0';
	memcpy(nargv, argv, argc * sizeof(*nargv));
	nargv[argc] = pad;
	execv("/proc/self/exe", nargv);
	free(pad);
	free(nargv);
	return -errno;
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: animsim --name PKG [--decoy PKG2] [--start-delay-ms N] "
		"[--linger-ms N] [--expect FILE]\n"
		"               [--frames N] [--hwui PATH|none] [--art PATH|none]\n"
		"               [--scenario basic|idle|soak|jank|refresh|physics|listeners|realloc\n"
		"                |cuj|flicker|replace|fight|springs|leak|clean|writers\n"
		"                |dyn|config]\n"
		"               [--fps N] [--props-per-frame N] [--flood N] [--go FILE]\n"
		"               [--hwui-late-frames N [--late-gate DIR]] [--no-vsync-ids]\n"
		"               [--tags-off] [--vsync-ids counter|tokens] [--vsync-seed N]\n"
		"               [--surfaceflinger] [--scenario config [--wrong-layout]]\n"
		"               [--scenario cuj [--cuj-form 12|13|14|15]]\n"
		"               [--forge name|vsync|impostor]...\n");
}

/* Names go into markers and JSON unescaped, as app package names can be. */
static int copy_name(char *dst, const char *src)
{
	size_t len = strlen(src);

	if (len == 0 || len >= PKG_MAX || strpbrk(src, "\"\\|\n\r\t"))
		return -EINVAL;
	memcpy(dst, src, len + 1);
	return 0;
}

static int copy_str(char *dst, size_t size, const char *src)
{
	return (size_t)snprintf(dst, size, "%s", src) < size ? 0 : -ENAMETOOLONG;
}

static int parse_long(long *dst, const char *src, long min, long max)
{
	char *end;

	errno = 0;
	*dst = strtol(src, &end, 10);
	if (errno || end == src || *end || *dst < min || *dst > max)
		return -EINVAL;
	return 0;
}

static int parse_int(int *dst, const char *src, int min, int max)
{
	long v;
	int err = parse_long(&v, src, min, max);

	if (!err)
		*dst = (int)v;
	return err;
}

static int parse_opt(struct opts *o, int c, const char *arg)
{
	switch (c) {
	case 'n':
		return copy_name(o->name, arg);
	case 'd':
		return copy_name(o->decoy, arg);
	case 's':
		return parse_long(&o->start_delay_ms, arg, 0, 3600000);
	case 'l':
		return parse_long(&o->linger_ms, arg, 0, 3600000);
	case 'e':
		return copy_str(o->expect, sizeof(o->expect), arg);
	case 'f':
		return parse_long(&o->frames, arg, 0, 1000000);
	case 'w':
		return copy_str(o->hwui, sizeof(o->hwui), arg);
	case 'a':
		return copy_str(o->art, sizeof(o->art), arg);
	case 'c':
		return copy_str(o->scenario, sizeof(o->scenario), arg);
	case 'r':
		return parse_long(&o->fps, arg, 1, 1000);
	case 'k':
		return parse_long(&o->props_per_frame, arg, 0, FILLER_MAX);
	case 'o':
		return parse_long(&o->flood, arg, 0, 1000000000);
	case 'L':
		return parse_long(&o->late_frames, arg, 0, 1000000);
	case 'G':
		return copy_str(o->gate, sizeof(o->gate), arg);
	case 'V':
		o->no_vsync_ids = true;
		return 0;
	case 'T':
		o->tags_off = true;
		return 0;
	case 'g':
		return copy_str(o->go, sizeof(o->go), arg);
	case 'I':
		if (strcmp(arg, "tokens") && strcmp(arg, "counter"))
			return -EINVAL;
		o->vsync_tokens = !strcmp(arg, "tokens");
		return 0;
	case 'S':
		return parse_long(&o->vsync_seed, arg, 0, LONG_MAX);
	case 'F':
		o->surfaceflinger = true;
		return 0;
	case 'W':
		o->wrong_layout = true;
		return 0;
	case 'J':
		return parse_int(&o->cuj_form, arg, 12, 15);
	case 'X':
		return parse_forge(&o->forge, arg);
	case 'p':
		return 0;
	default:
		return -EINVAL;
	}
}

static int parse_opts(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "decoy", required_argument, NULL, 'd' },
		{ "start-delay-ms", required_argument, NULL, 's' },
		{ "linger-ms", required_argument, NULL, 'l' },
		{ "expect", required_argument, NULL, 'e' },
		{ "frames", required_argument, NULL, 'f' },
		{ "hwui", required_argument, NULL, 'w' },
		{ "art", required_argument, NULL, 'a' },
		{ "scenario", required_argument, NULL, 'c' },
		{ "fps", required_argument, NULL, 'r' },
		{ "props-per-frame", required_argument, NULL, 'k' },
		{ "flood", required_argument, NULL, 'o' },
		{ "hwui-late-frames", required_argument, NULL, 'L' },
		{ "late-gate", required_argument, NULL, 'G' },
		{ "no-vsync-ids", no_argument, NULL, 'V' },
		{ "tags-off", no_argument, NULL, 'T' },
		{ "go", required_argument, NULL, 'g' },
		{ "vsync-ids", required_argument, NULL, 'I' },
		{ "vsync-seed", required_argument, NULL, 'S' },
		{ "surfaceflinger", no_argument, NULL, 'F' },
		{ "wrong-layout", no_argument, NULL, 'W' },
		{ "cuj-form", required_argument, NULL, 'J' },
		{ "forge", required_argument, NULL, 'X' },
		{ "pad", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	*o = (struct opts){ .start_delay_ms = -1,
			    .linger_ms = 0,
			    .frames = 24,
			    .fps = 60,
			    .vsync_seed = 1,
			    .vsync_tokens = true,
			    .cuj_form = 14 };
	snprintf(o->scenario, sizeof(o->scenario), "basic");
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(EXIT_SUCCESS);
		}
		if (parse_opt(o, c, optarg) < 0) {
			if (c != '?')
				fprintf(stderr, "animsim: bad value for option: %s\n", optarg);
			return -EINVAL;
		}
	}
	if (optind != argc || !o->name[0] || !strcmp(o->name, o->decoy))
		return -EINVAL;
	if (o->start_delay_ms < 0) /* a go file replaces the default delay */
		o->start_delay_ms = o->go[0] ? 0 : 200;
	return 0;
}

static const struct scenario *find_scenario(const char *name)
{
	for (int i = 0; i < ARRAY_LEN(scenarios); i++) {
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	}
	return NULL;
}

static const struct hwui_fixture_methods *load_hwui(struct opts *o)
{
	const struct hwui_fixture_methods *m;
	char err[PATH_MAX + 64];

	if (!o->hwui[0] && hwui_default_path(o->hwui, sizeof(o->hwui)) < 0) {
		fprintf(stderr, "animsim: cannot find libhwui.so; give --hwui\n");
		return NULL;
	}
	m = hwui_load(o->hwui, err, sizeof(err));
	if (!m)
		fprintf(stderr, "animsim: %s\n", err);
	return m;
}

static const struct art_fixture_methods *load_art(struct opts *o)
{
	const struct art_fixture_methods *m;
	char err[PATH_MAX + 64];

	if (!o->art[0] && art_default_path(o->art, sizeof(o->art)) < 0) {
		fprintf(stderr, "animsim: cannot find boot-framework.oat; give --art\n");
		return NULL;
	}
	m = art_load(o->art, err, sizeof(err));
	if (!m)
		fprintf(stderr, "animsim: %s\n", err);
	return m;
}

static int load_fixtures(struct opts *o, struct app *app)
{
	/* Loaded before the fork, as zygote preloads libhwui for every app. */
	if (strcmp(o->hwui, "none") != 0) {
		app->hwui = load_hwui(o);
		if (!app->hwui)
			return -ENOENT;
	}
	/* Zygote preloads libandroid_runtime too; only the refresh scenario calls into it. */
	if (!strcmp(o->scenario, "refresh")) {
		char err[PATH_MAX + 64];

		app->runtime = runtime_load(err, sizeof(err));
		if (!app->runtime) {
			fprintf(stderr, "animsim: %s\n", err);
			return -ENOENT;
		}
	}
	/* The boot image is mapped by zygote too, before any app exists. */
	if (strcmp(o->art, "none") != 0) {
		app->art = load_art(o);
		if (!app->art)
			return -ENOENT;
	}
	return 0;
}

/* --late-gate: a counter marker every 20 ms (a sign of life) until DIR/name exists. */
static void await_gate(struct app *app, const char *name)
{
	char path[PATH_MAX + 16];

	if (!app->opts->gate[0])
		return;
	snprintf(path, sizeof(path), "%s/%s", app->opts->gate, name);
	for (long i = 0; access(path, F_OK); i++) {
		marker(app, "C|%d|late_%s|%ld", app->tgid, name, i);
		sleep_ms(20);
	}
}

/*
 * --hwui-late-frames N: the libraries a process maps after a tracer first looked at it.
 * N idle frames (vsyncs before the scenario's), the load, then the scenario as usual.
 */
static int late_load(struct app *app)
{
	struct opts o = *app->opts;
	long n = o.late_frames;
	int err;

	for (long f = 0; f < n; f++) {
		marker(app, "B|%d|Choreographer#doFrame %ld", app->tgid,
		       vsync_of_slot(app, f - n + 1));
		trace_end(app);
		sleep_ms(1000 / o.fps);
	}
	await_gate(app, "load");
	err = load_fixtures(&o, app);
	if (!err && app->hwui)
		err = create_nodes(app);
	if (!err && app->art)
		err = create_art_objects(app);
	if (err < 0)
		fprintf(stderr, "animsim: %s: late load: %s\n", app->pkg, strerror(-err));
	await_gate(app, "go");
	return err;
}

static int start_parent(struct opts *o, struct app *proto, int argc, char **argv)
{
	size_t need = strlen(o->name) > strlen(o->decoy) ? strlen(o->name) : strlen(o->decoy);

	if (need < strlen(SF_NAME))
		need = strlen(SF_NAME);
	if (o->forge && need < strlen(o->name) + strlen(FORGE_NAME_TAIL))
		need = strlen(o->name) + strlen(FORGE_NAME_TAIL);
	int err;

	err = ensure_argv_room(argc, argv, need + 1 > ARGV_AREA_MIN ? need + 1 : ARGV_AREA_MIN);
	if (err < 0) {
		fprintf(stderr, "animsim: cannot make room for the name: %s\n", strerror(-err));
		return err;
	}
	proto->sc = find_scenario(o->scenario);
	if (!proto->sc) {
		fprintf(stderr, "animsim: unknown scenario %s\n", o->scenario);
		return -EINVAL;
	}
	err = proto->sc->heap || !strcmp(proto->sc->name, "dyn") ? sim_heap_env(argv) : 0;
	if (err < 0) {
		fprintf(stderr, "animsim: no boot class path: %s\n", strerror(-err));
		return err;
	}
	err = ensure_tracefs();
	if (err < 0) {
		fprintf(stderr, "animsim: no trace_marker (tracefs): %s\n", strerror(-err));
		return err;
	}
	return o->late_frames ? 0 : load_fixtures(o, proto);
}

int main(int argc, char **argv)
{
	struct opts o;
	struct app proto = { .opts = &o, .marker_fd = -1, .expect_fd = -1 };
	struct argv_area area = argv_area_of(argc, argv);
	pid_t pids[6];
	int n = 0;

	if (parse_opts(&o, argc, argv) < 0) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (start_parent(&o, &proto, argc, argv) < 0)
		return EXIT_FAILURE;
	if (o.expect[0]) {
		proto.expect_fd = open(o.expect, EXPECT_FLAGS, 0644);
		if (proto.expect_fd < 0) {
			fprintf(stderr, "animsim: %s: %s\n", o.expect, strerror(errno));
			return EXIT_FAILURE;
		}
	}
	fflush(NULL); /* nothing buffered may be written twice by the children */
	pids[n] = spawn(&proto, o.name, ROLE_TARGET, &area);
	if (pids[n] > 0 && o.decoy[0])
		pids[++n] = spawn(&proto, o.decoy, ROLE_DECOY, &area);
	if (pids[n] > 0 && o.surfaceflinger) {
		pids[++n] = fork();
		if (pids[n] == 0)
			_exit(run_surfaceflinger(&proto, &area));
	}
	spawn_forgers(&proto, &area, pids, &n);
	if (pids[n] < 0) {
		fprintf(stderr, "animsim: fork: %s\n", strerror(errno));
		return EXIT_FAILURE;
	}
	return wait_children(pids, n + 1) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

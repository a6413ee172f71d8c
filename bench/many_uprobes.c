// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * many_uprobes: the uprobes animtrace attaches to one process, with empty programs
 * (bare_uprobe.bpf.c), so that how long they take to detach can be timed apart from animtrace:
 * an entry probe on each RenderNode setter of LIB, a return probe on those whose code
 * animtrace did not decode (hwui_lib.one_probe_mask), and an entry probe at each
 * address of the ValueAnimator methods of OAT, found by the project's own symbol code
 * (hwui_resolve, art_resolve).
 *
 *   many_uprobes [--multi] LIB OAT PID
 *   many_uprobes --probe       prints "uprobe_multi yes" or "uprobe_multi no" (this kernel)
 *   many_uprobes --list LIB OAT    prints the uprobes, one a line: "setter 0xOFF", "return
 *                              0xOFF" or "art KIND 0xOFF" (file offsets; KIND an enum
 *                              at_art_method), for a bpftrace script of the same probes
 *
 * Prints "ready uprobes N setters S returns R art A" once attached, then holds until SIGINT or SIGTERM,
 * detaches and exits 0. Without --multi each uprobe is one perf-event link, attached and
 * detached one after another (libbpf's bpf_program__attach_uprobe, as a plain libbpf tool
 * or bpftrace does); with --multi they are uprobe_multi links (one per program and file)
 * freed together (src/live/ulink.c, as animtrace does where the kernel has them): the
 * kernel's floor.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bare_uprobe.skel.h"
#include "live/ulink.h"
#include "symbols/art.h"
#include "symbols/hwui.h"

#define MAX_UPROBES (2 * AT_PROP_COUNT + AT_ART_METHOD_COUNT * ART_MAX_ADDRS)

struct targets {
	uint64_t setters[AT_PROP_COUNT], rets[AT_PROP_COUNT];
	uint64_t art[AT_ART_METHOD_COUNT * ART_MAX_ADDRS];
	int art_kind[AT_ART_METHOD_COUNT * ART_MAX_ADDRS];
	int n_setters, n_rets, n_art;
};

static void ignore(void *ctx, const char *msg)
{
}

static int resolve(const char *lib, const char *oat, struct targets *t)
{
	static struct hwui_lib h;
	static struct art_oat a;
	int ret = hwui_resolve(lib, NULL, &h, ignore, NULL);

	if (ret || (ret = art_resolve(oat, &a))) {
		fprintf(stderr, "many_uprobes: %s: %s\n", ret ? oat : lib, strerror(-ret));
		return ret;
	}
	for (int i = 0; i < AT_PROP_COUNT; i++)
		if (h.ok_mask & (1u << i))
			t->setters[t->n_setters++] = h.setter_off[i];
	for (int i = 0; i < AT_PROP_COUNT; i++)
		if (h.ok_mask & ~h.one_probe_mask & (1u << i))
			t->rets[t->n_rets++] = h.setter_off[i];
	for (int k = 0; k < AT_ART_METHOD_COUNT; k++)
		for (int i = 0; i < a.n[k] && i < ART_MAX_ADDRS; i++) {
			t->art_kind[t->n_art] = k;
			t->art[t->n_art++] = a.addr[k][i].offset;
		}
	return 0;
}

/* One perf-event link per uprobe, in animtrace's order: setters, their returns, then ART's. */
static int attach_serial(struct bare_uprobe_bpf *skel, const char *lib, const char *oat, int pid,
			 const struct targets *t, struct bpf_link **links, int *n)
{
	int setters = t->n_setters, sr = t->n_setters + t->n_rets;

	for (int i = 0; i < sr + t->n_art; i++) {
		bool art = i >= sr, ret = !art && i >= setters;
		uint64_t off = art ? t->art[i - sr] : ret ? t->rets[i - setters] : t->setters[i];

		links[*n] = bpf_program__attach_uprobe(ret ? skel->progs.bare_return :
						       skel->progs.bare_entry, ret, pid,
						       art ? oat : lib, (size_t)off);
		if (!links[*n])
			return -errno;
		(*n)++;
	}
	return 0;
}

static int attach_multi(struct bare_uprobe_bpf *skel, const char *lib, const char *oat, int pid,
			const struct targets *t, struct ulink **links)
{
	links[0] = ulink__attach(skel->progs.bare_entry, true, false, pid, lib, t->setters,
				 t->n_setters);
	if (t->n_rets)
		links[1] = ulink__attach(skel->progs.bare_return, true, true, pid, lib, t->rets,
					 t->n_rets);
	links[2] = ulink__attach(skel->progs.bare_entry, true, false, pid, oat, t->art, t->n_art);
	return links[0] && (links[1] || !t->n_rets) && links[2] ? 0 : -errno;
}

static struct bare_uprobe_bpf *load(bool multi)
{
	struct bare_uprobe_bpf *skel = bare_uprobe_bpf__open();

	if (!skel)
		return NULL;
	if (multi && (ulink_prepare_multi(skel->progs.bare_entry) ||
		      ulink_prepare_multi(skel->progs.bare_return) ||
		      bare_uprobe_bpf__load(skel))) {
		bare_uprobe_bpf__destroy(skel);
		return NULL;
	}
	if (!multi && bare_uprobe_bpf__load(skel)) {
		bare_uprobe_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

/* Blocks SIGINT and SIGTERM at once (no early signal is lost), then waits for one. */
static void block_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigprocmask(SIG_BLOCK, set, NULL);
}

static int list(const char *lib, const char *oat)
{
	struct targets t = { 0 };

	if (resolve(lib, oat, &t))
		return 1;
	for (int i = 0; i < t.n_setters; i++)
		printf("setter 0x%llx\n", (unsigned long long)t.setters[i]);
	for (int i = 0; i < t.n_rets; i++)
		printf("return 0x%llx\n", (unsigned long long)t.rets[i]);
	for (int i = 0; i < t.n_art; i++)
		printf("art %d 0x%llx\n", t.art_kind[i], (unsigned long long)t.art[i]);
	return 0;
}

int main(int argc, char **argv)
{
	bool multi = argc > 1 && !strcmp(argv[1], "--multi");
	struct bpf_link *perf[MAX_UPROBES];
	struct ulink *links[3] = { NULL };
	struct bare_uprobe_bpf *skel;
	struct targets t = { 0 };
	int n = 0, ret, sig;
	sigset_t set;

	if (argc == 2 && !strcmp(argv[1], "--probe")) {
		printf("uprobe_multi %s\n", ulink_multi_supported() ? "yes" : "no");
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--list"))
		return list(argv[2], argv[3]);
	if (argc != 4 + multi) {
		fprintf(stderr, "usage: many_uprobes [--multi] LIB OAT PID\n");
		return 2;
	}
	argv += multi;
	block_signals(&set);
	if (resolve(argv[1], argv[2], &t))
		return 1;
	if (multi && !ulink_multi_supported()) {
		fprintf(stderr, "many_uprobes: this kernel has no uprobe_multi links\n");
		return 1;
	}
	skel = load(multi);
	if (!skel) {
		fprintf(stderr, "many_uprobes: loading the BPF programs: %s\n", strerror(errno));
		return 1;
	}
	ret = multi ? attach_multi(skel, argv[1], argv[2], atoi(argv[3]), &t, links)
		    : attach_serial(skel, argv[1], argv[2], atoi(argv[3]), &t, perf, &n);
	if (ret)
		fprintf(stderr, "many_uprobes: attaching: %s\n", strerror(-ret));
	else
		printf("ready uprobes %d setters %d returns %d art %d\n",
		       t.n_setters + t.n_rets + t.n_art, t.n_setters, t.n_rets, t.n_art);
	fflush(stdout);
	if (!ret)
		sigwait(&set, &sig);
	for (int i = 0; i < n; i++)
		bpf_link__destroy(perf[i]);
	ulinks__free(links, 3);
	bare_uprobe_bpf__destroy(skel);
	return ret ? 1 : 0;
}

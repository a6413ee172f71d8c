// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bare_uprobe: attaches the empty uprobe+uretprobe pair of bare_uprobe.bpf.c to one function
 * of one process, found by name the way animtrace finds the setters (the project's elfsym:
 * .dynsym, .symtab, then MiniDebugInfo), at the file offset a uprobe needs.
 *
 *   bare_uprobe [--entry] LIB SYMBOL PID    attach, print "ready", hold until stdin closes
 *   bare_uprobe LIB SYMBOL                  print "vaddr 0x.. offset 0x.." and exit (bpftrace)
 *
 * --entry attaches the uprobe alone: the floor of animtrace's ART probes, which are
 * entry-only (a uretprobe would rewrite return addresses ART's stack walker reads).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bare_uprobe.skel.h"
#include "symbols/elfsym.h"

static int resolve(const char *lib, const char *symbol, struct elfsym_hit *hit)
{
	struct elfsym *s = elfsym__open(lib);
	int ret;

	if (!s) {
		fprintf(stderr, "bare_uprobe: %s: %s\n", lib, strerror(errno));
		return -1;
	}
	ret = elfsym__find(s, symbol, hit);
	if (!ret && hit->offset == ELFSYM_NO_OFFSET)
		ret = -ENOENT;
	if (ret)
		fprintf(stderr, "bare_uprobe: %s: no %s\n", lib, symbol);
	hit->name = NULL; /* owned by s */
	elfsym__free(s);
	return ret ? -1 : 0;
}

static int attach(struct bare_uprobe_bpf *skel, const char *lib, uint64_t off, int pid,
		  bool entry_only)
{
	skel->links.bare_entry = bpf_program__attach_uprobe(skel->progs.bare_entry, false, pid,
							    lib, off);
	if (!skel->links.bare_entry)
		return -errno;
	if (entry_only)
		return 0;
	skel->links.bare_return = bpf_program__attach_uprobe(skel->progs.bare_return, true, pid,
							     lib, off);
	if (!skel->links.bare_return)
		return -errno;
	return 0;
}

int main(int argc, char **argv)
{
	struct bare_uprobe_bpf *skel;
	struct elfsym_hit hit;
	bool entry_only = argc > 1 && !strcmp(argv[1], "--entry");
	char buf[64];
	int ret;

	if (entry_only) {
		argv++;
		argc--;
	}
	if ((argc != 3 && argc != 4) || (entry_only && argc != 4)) {
		fprintf(stderr, "usage: bare_uprobe [--entry] LIB SYMBOL PID | LIB SYMBOL\n");
		return 2;
	}
	if (resolve(argv[1], argv[2], &hit))
		return 1;
	if (argc == 3) {
		printf("vaddr 0x%llx offset 0x%llx\n", (unsigned long long)hit.vaddr,
		       (unsigned long long)hit.offset);
		return 0;
	}
	skel = bare_uprobe_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "bare_uprobe: loading the BPF programs: %s\n", strerror(errno));
		return 1;
	}
	ret = attach(skel, argv[1], hit.offset, atoi(argv[3]), entry_only);
	if (ret) {
		fprintf(stderr, "bare_uprobe: attaching at %s+0x%llx: %s\n", argv[1],
			(unsigned long long)hit.offset, strerror(-ret));
		bare_uprobe_bpf__destroy(skel);
		return 1;
	}
	printf("ready offset 0x%llx\n", (unsigned long long)hit.offset);
	fflush(stdout);
	while (fgets(buf, sizeof(buf), stdin)) /* detach when the driver closes our stdin */
		;
	bare_uprobe_bpf__destroy(skel);
	return 0;
}

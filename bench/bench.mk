# Benchmarks, included by the top Makefile; not part of `make test`. $(BUILD)/bench/bench runs
# them (bench/bench.c: a registry of one driver per benchmark, bench/b_<name>.c) and writes
# bench/results.md; the live ones (root) drive the helper programs below.
#
#   make bench                      every benchmark; rewrites bench/results.md (installs
#                                   bpftrace first, bench/deps.sh: the live ones run it too)
#   make bench BENCH_ONLY=a,b       those (bench --list names them); replaces their sections
#   make bench-replay               the replay throughput table alone, on stdout
#   make bench-art                  the animateValue / attributed-setter section (root)
#   make bench-fit                  the fitting cost table alone, on stdout
#   BENCH_BASELINE=old/animtrace    another binary in the replay table (bench, bench-replay)
#   BENCH_ARGS="--runs 10 ..."      more options: --runs --calls --rounds --rates --secs --frames
#
# bench.sh's environment knobs are options now: BENCH_RUNS is --runs, BENCH_SETTER_CALLS,
# BENCH_ART_CALLS and BENCH_REFRESH_CALLS are --calls, their _ROUNDS --rounds,
# BENCH_MARKER_RATES --rates R,.., BENCH_MARKER_SECS --secs, BENCH_ANNOTATE_FRAMES --frames.
BENCH_DIR := $(BUILD)/bench
BENCH_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE
BENCH_BINS := $(BENCH_DIR)/setter_loop $(BENCH_DIR)/marker_flood $(BENCH_DIR)/bare_uprobe \
	$(BENCH_DIR)/many_uprobes
BENCH_SRCS := bench/bench.c bench/stats.c bench/results.c bench/proc.c bench/ways.c bench/peer.c \
	$(wildcard bench/b_*.c)
BENCH_RUN = $(BENCH_DIR)/bench $(if $(BENCH_BASELINE),--baseline $(BENCH_BASELINE)) $(BENCH_ARGS)
JSONC_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
# src/model/fit.c and the modules behind it (fit_core, fit_spring, fit_fling, fit_interp).
BENCH_FIT_OBJS := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(wildcard src/model/fit*.c))

.PHONY: bench bench-art bench-build bench-deps bench-fit bench-replay
# bpftrace, the peer every live benchmark measures animtrace beside (bench/deps.sh).
bench-deps:
	$(Q)bench/deps.sh

bench: bench-deps $(BENCH_DIR)/bench $(BUILD)/animtrace $(SIM_TARGETS) $(BENCH_BINS)
	$(Q)$(BENCH_RUN) $(if $(BENCH_ONLY),--only $(BENCH_ONLY)) --out bench/results.md
bench-replay: $(BENCH_DIR)/bench $(BUILD)/animtrace
	$(Q)$(BENCH_RUN) --only replay
bench-art: bench-deps $(BENCH_DIR)/bench $(BUILD)/animtrace $(SIM_TARGETS) $(BENCH_BINS)
	$(Q)$(BENCH_RUN) --only art --out bench/results.md
bench-fit: $(BENCH_DIR)/bench
	$(Q)$(BENCH_RUN) --only fit
bench-build: $(BENCH_DIR)/bench $(BENCH_BINS)

$(BENCH_DIR):
	$(Q)mkdir -p $@

# The driver. It starts and awaits processes with the e2e tests' harness, tests/e2e/e2e.c,
# built against bench/shim's criterion.h (a failed check ends the run, not a test), and times
# src/model/fit*.c on the unit tests' framework simulator (tests/unit/fit_sim.h).
$(BENCH_DIR)/bench: $(BENCH_SRCS) $(wildcard bench/*.h) bench/shim/criterion/criterion.h \
		include/animtrace/wire.h \
		tests/e2e/e2e.c tests/e2e/e2e.h tests/child_signals.h tests/unit/fit_sim.h \
		$(wildcard src/model/fit*.h) $(BENCH_FIT_OBJS) | $(BENCH_DIR)
	$(Q)$(CC) $(BENCH_CFLAGS) -Ibench/shim -Iinclude -Itests -Itests/unit -Isrc \
		-DBUILD_DIR='"$(BUILD)"' -DTESTDATA='"$(TESTDATA)"' \
		$(BENCH_SRCS) tests/e2e/e2e.c $(BENCH_FIT_OBJS) $(JSONC_LIBS) -lm -o $@

# The loop calls the simulator's fixture setters and ART methods; only their headers are shared.
$(BENCH_DIR)/setter_loop: bench/setter_loop.c tests/sim/hwui_fixture.h tests/sim/art_fixture.h \
		tests/sim/dyn_fixture.h \
		| $(BENCH_DIR)
	$(Q)$(CC) $(BENCH_CFLAGS) -Itests/sim $< -ldl -o $@

$(BENCH_DIR)/marker_flood: bench/marker_flood.c | $(BENCH_DIR)
	$(Q)$(CC) $(BENCH_CFLAGS) $< -o $@

# Empty uprobe+uretprobe programs: built like animtrace's (clang -> bpftool gen object ->
# skeleton), linked with the project's symbol reader to find setters in MiniDebugInfo.
$(BENCH_DIR)/bare_uprobe.tmp.o: bench/bare_uprobe.bpf.c | $(BENCH_DIR)
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Ivmlinux/$(ARCH) -Wall -c $< -o $@
$(BENCH_DIR)/bare_uprobe.bpf.o: $(BENCH_DIR)/bare_uprobe.tmp.o
	$(Q)$(BPFTOOL) gen object $@ $<
$(BENCH_DIR)/bare_uprobe.skel.h: $(BENCH_DIR)/bare_uprobe.bpf.o
	$(Q)$(BPFTOOL) gen skeleton $< > $@
$(BENCH_DIR)/bare_uprobe: bench/bare_uprobe.c $(BENCH_DIR)/bare_uprobe.skel.h \
		$(BUILD)/obj/symbols/elfsym.o
	$(Q)$(CC) $(BENCH_CFLAGS) -Isrc -I$(BENCH_DIR) $< $(BUILD)/obj/symbols/elfsym.o $(LDLIBS) -o $@

# The uprobes animtrace attaches to one process, on bare_uprobe's empty programs, found by the
# project's symbol code: the exit time's baselines (b_footprint.c).
MANY_UPROBES_OBJS := $(addprefix $(BUILD)/obj/,symbols/elfsym.o symbols/hwui.o symbols/art.o \
	symbols/insn.o symbols/procmaps.o model/model.o live/ulink.o)
$(BENCH_DIR)/many_uprobes: bench/many_uprobes.c $(BENCH_DIR)/bare_uprobe.skel.h $(MANY_UPROBES_OBJS)
	$(Q)$(CC) $(BENCH_CFLAGS) -Iinclude -Isrc -I$(BENCH_DIR) $< $(MANY_UPROBES_OBJS) $(LDLIBS) \
		-lpthread -o $@

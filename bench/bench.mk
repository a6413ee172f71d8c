# Benchmarks, included by the top Makefile; not part of `make test`. One run of
# bench/bench.sh measures everything it knows and rewrites bench/results.md.
# The live parts (root) use the programs below, built into $(BUILD)/bench/.
BENCH_DIR := $(BUILD)/bench
BENCH_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE
BENCH_BINS := $(BENCH_DIR)/setter_loop $(BENCH_DIR)/marker_flood $(BENCH_DIR)/bare_uprobe \
	$(BENCH_DIR)/bench_fit
BENCH_SRCS := bench/bench.c bench/stats.c bench/results.c bench/proc.c bench/ways.c \
	$(wildcard bench/b_*.c)
JSONC_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)

.PHONY: bench bench-art bench-build bench-fit bench-replay
bench: $(BUILD)/animtrace $(SIM_TARGETS) $(BENCH_BINS)
	$(Q)bench/bench.sh $(BUILD) $(TESTDATA)
# Only the replay throughput table, on stdout; BENCH_BASELINE=old/animtrace adds a row.
bench-replay: $(BUILD)/animtrace
	$(Q)BENCH_ONLY=replay bench/bench.sh $(BUILD) $(TESTDATA)
# Only the animateValue / attributed-setter part (root); rewrites its section of results.md.
bench-art: $(BUILD)/animtrace $(SIM_TARGETS) $(BENCH_BINS)
	$(Q)BENCH_ONLY=art bench/bench.sh $(BUILD) $(TESTDATA)
bench-build: $(BENCH_DIR)/bench $(BENCH_BINS)

$(BENCH_DIR):
	$(Q)mkdir -p $@

# The C driver taking over from bench.sh (bench/bench.c: a registry of one driver per
# benchmark, bench/b_<name>.c). It starts and awaits processes with the e2e tests' harness,
# tests/e2e/e2e.c, built against bench/shim's criterion.h (a failed check ends the run, not a
# test), and times src/model/fit.c on the unit tests' framework simulator.
$(BENCH_DIR)/bench: $(BENCH_SRCS) $(wildcard bench/*.h) bench/shim/criterion/criterion.h \
		tests/e2e/e2e.c tests/e2e/e2e.h tests/child_signals.h tests/unit/fit_sim.h \
		src/model/fit.h $(BUILD)/obj/model/fit.o | $(BENCH_DIR)
	$(Q)$(CC) $(BENCH_CFLAGS) -Ibench/shim -Itests -Itests/unit -Isrc \
		-DBUILD_DIR='"$(BUILD)"' -DTESTDATA='"$(TESTDATA)"' \
		$(BENCH_SRCS) tests/e2e/e2e.c $(BUILD)/obj/model/fit.o $(JSONC_LIBS) -lm -o $@

# The loop calls the simulator's fixture setters and ART methods; only their headers are shared.
$(BENCH_DIR)/setter_loop: bench/setter_loop.c tests/sim/hwui_fixture.h tests/sim/art_fixture.h \
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

# The fitting cost per animation run: src/model/fit.c on the unit tests' framework simulator, no
# probes and no root. `make bench-fit` runs it alone (bench.sh runs it too).
$(BENCH_DIR)/bench_fit: bench/bench_fit.c tests/unit/fit_sim.h src/model/fit.h $(BUILD)/obj/model/fit.o \
		| $(BENCH_DIR)
	$(Q)$(CC) $(BENCH_CFLAGS) -Isrc -Itests/unit $< $(BUILD)/obj/model/fit.o -lm -o $@
bench-fit: $(BENCH_DIR)/bench_fit
	$(Q)$<

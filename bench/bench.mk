# Benchmarks, included by the top Makefile; not part of `make test`. One run of
# bench/bench.sh measures everything it knows and rewrites bench/results.md.
# The live parts (root) use the programs below, built into $(BUILD)/bench/.
BENCH_DIR := $(BUILD)/bench
BENCH_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE
BENCH_BINS := $(BENCH_DIR)/setter_loop $(BENCH_DIR)/marker_flood $(BENCH_DIR)/bare_uprobe \
	$(BENCH_DIR)/bench_fit

.PHONY: bench bench-art bench-build bench-fit bench-replay
bench: $(BUILD)/animtrace $(SIM_TARGETS) $(BENCH_BINS)
	$(Q)bench/bench.sh $(BUILD) $(TESTDATA)
# Only the replay throughput table, on stdout; BENCH_BASELINE=old/animtrace adds a row.
bench-replay: $(BUILD)/animtrace
	$(Q)BENCH_ONLY=replay bench/bench.sh $(BUILD) $(TESTDATA)
# Only the animateValue / attributed-setter part (root); rewrites its section of results.md.
bench-art: $(BUILD)/animtrace $(SIM_TARGETS) $(BENCH_BINS)
	$(Q)BENCH_ONLY=art bench/bench.sh $(BUILD) $(TESTDATA)
bench-build: $(BENCH_BINS)

$(BENCH_DIR):
	$(Q)mkdir -p $@

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

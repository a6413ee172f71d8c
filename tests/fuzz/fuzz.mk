# libFuzzer targets (host clang only), included by the top Makefile. Everything lands in
# $(BUILD)/fuzz/: the binaries, seeds/<target>/ (sampled from TESTDATA by seeds.sh),
# corpus/<target>/ (what the runs found, kept between runs) and artifacts/ (crash, leak,
# timeout and OOM inputs). None of it is ever committed.
#
#   make fuzz                          every target for FUZZ_SECONDS each; fails on a finding
#   make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS=elfsym
#   make fuzz-build                    only build the targets
#   $(BUILD)/fuzz/fuzz_marker CRASH    replay one input
FUZZ_SECONDS ?= 60
FUZZ_RSS_MB ?= 2048
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SRC := tests/fuzz
FUZZ_CC ?= $(CLANG)
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE -Iinclude -Isrc

# Each target links only the modules it exercises.
FUZZ_DEPS_marker := src/common/marker.c
# capture reads Perfetto traces through pftrace (when that module is in the tree).
# The line parser is also held to the one it replaced (tests/replay/capture_line_ref.c).
FUZZ_DEPS_capture_line := src/replay/capture.c src/common/marker.c tests/replay/capture_line_ref.c \
	$(wildcard src/replay/pftrace.c src/replay/pftimeline.c src/replay/pfframe.c)
FUZZ_LIBS_capture_line := -lz
FUZZ_DEPS_capture_file := $(FUZZ_DEPS_capture_line)
FUZZ_LIBS_capture_file := -lz
FUZZ_DEPS_elfsym := src/symbols/elfsym.c src/symbols/insn.c
FUZZ_LIBS_elfsym := -lelf -llzma -lz
FUZZ_DEPS_insn := src/symbols/insn.c
FUZZ_DEPS_animname := src/sinks/animname.c src/common/marker.c src/model/model.c
FUZZ_DEPS_dex := src/symbols/dex.c
FUZZ_CFLAGS_dex := $(shell pkg-config --cflags minizip 2>/dev/null || echo -I/usr/include/minizip)
FUZZ_LIBS_dex := -lminizip -lz
# Perfetto protobuf reader: built only while src/replay/pftrace.c exists (written in parallel).
FUZZ_DEPS_pftrace := src/replay/pftrace.c src/replay/pftimeline.c src/replay/pfframe.c \
	src/common/marker.c src/common/frametimeline.c
FUZZ_LIBS_pftrace := -lz
FUZZ_PFTRACE := $(if $(wildcard src/replay/pftrace.c),pftrace)

# Whole replays: the driver, the engine and the box, JSON and trace sinks (not the live side).
FUZZ_DEPS_replay_text := $(foreach d,replay engine model sinks common,$(wildcard src/$(d)/*.c))
FUZZ_LIBS_replay_text := -lz -lminizip -lm
FUZZ_DEPS_replay_pftrace := $(FUZZ_DEPS_replay_text)
FUZZ_LIBS_replay_pftrace := $(FUZZ_LIBS_replay_text)
# Inputs large enough to fill the tables (common/caps.h).
FUZZ_FLAGS_replay_text := -max_len=1048576
FUZZ_FLAGS_replay_pftrace := -max_len=1048576

FUZZ_TARGETS ?= marker capture_line capture_file elfsym insn $(FUZZ_PFTRACE) replay_text \
	replay_pftrace animname dex
FUZZ_BINS := $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_TARGETS))
FUZZ_SEEDS := $(FUZZ_DIR)/seeds/.done

FUZZ_RUNS := $(patsubst %,fuzz-run-%,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-build fuzz-seeds $(FUZZ_RUNS)
fuzz: $(FUZZ_RUNS)
fuzz-build: $(FUZZ_BINS)
fuzz-seeds: $(FUZZ_SEEDS)

$(FUZZ_DIR):
	$(Q)mkdir -p $@

# Depends on every module (rebuilding is cheap) rather than on its own FUZZ_DEPS_x, which
# would need .SECONDEXPANSION for the whole Makefile.
FUZZ_MODULES := $(SRCS) $(HDRS)
$(FUZZ_DIR)/fuzz_%: $(FUZZ_SRC)/fuzz_%.c $(FUZZ_SRC)/fuzz.h $(FUZZ_MODULES) | $(FUZZ_DIR)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CFLAGS_$*) $< $(FUZZ_DEPS_$*) $(FUZZ_LIBS_$*) -o $@

# The simulator's libhwui.so (tests/sim) is a small ELF with MiniDebugInfo and getters:
# a seed that reaches every elfsym path quickly, unlike the megabyte Android libraries.
FUZZ_ELF_FIXTURES := $(BUILD)/sim/libhwui.so

# The dex target's seeds: the smali-built fixtures (tests/fixtures/dex), real dex files.
FUZZ_DEX_FIXTURES = $(filter %.dex,$(DEXFIX_TARGETS))

$(FUZZ_SEEDS): $(FUZZ_SRC)/seeds.sh $(FUZZ_ELF_FIXTURES) $(FUZZ_DEX_FIXTURES) | $(FUZZ_DIR)
	$(Q)$(FUZZ_SRC)/seeds.sh $(FUZZ_DIR)/seeds $(TESTDATA) $(FUZZ_ELF_FIXTURES)
	$(Q)mkdir -p $(FUZZ_DIR)/seeds/dex && for f in $(FUZZ_DEX_FIXTURES); do \
		cp $$f $(FUZZ_DIR)/seeds/dex/$$(basename $$(dirname $$f))-$$(basename $$f); done
	$(Q)touch $@

# libFuzzer exits non-zero on a crash, leak, timeout or OOM, which fails make.
# New inputs go to the first corpus directory; the seeds stay as generated.
# A static pattern rule: implicit rules are never searched for .PHONY targets.
$(FUZZ_RUNS): fuzz-run-%: $(FUZZ_DIR)/fuzz_% $(FUZZ_SEEDS)
	@echo "fuzz: $* for $(FUZZ_SECONDS) s"
	$(Q)mkdir -p $(FUZZ_DIR)/corpus/$* $(FUZZ_DIR)/artifacts
	$(Q)$< $(FUZZ_DIR)/corpus/$* $(FUZZ_DIR)/seeds/$* -max_total_time=$(FUZZ_SECONDS) \
		-rss_limit_mb=$(FUZZ_RSS_MB) -timeout=25 -print_final_stats=1 $(FUZZ_FLAGS_$*) \
		-artifact_prefix=$(FUZZ_DIR)/artifacts/$*- \
		> $(FUZZ_DIR)/$*.log 2>&1 || { tail -n 60 $(FUZZ_DIR)/$*.log; \
		echo "fuzz: $* found a bug; input in $(FUZZ_DIR)/artifacts/" >&2; exit 1; }
	$(Q)grep -h '^stat::number_of_executed_units\|^stat::peak_rss_mb' $(FUZZ_DIR)/$*.log | \
		sed 's/^/fuzz: $*: /'

# make test's short, deterministic run of the whole-replay targets (-seed=1, a fixed number of
# inputs from the real captures' seeds, a few seconds each): a crash, leak or sanitizer report
# fails it. Skipped, saying so, where clang has no libFuzzer.
FUZZ_SMOKE_TARGETS := replay_text replay_pftrace
FUZZ_SMOKE_RUNS ?= 300
FUZZ_HAVE_TEST := echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' | \
	$(FUZZ_CC) -x c -fsanitize=fuzzer - -o /dev/null 2>/dev/null

.PHONY: fuzz-smoke fuzz-smoke-run
fuzz-smoke:
	$(Q)if $(FUZZ_HAVE_TEST); then $(MAKE) --no-print-directory fuzz-smoke-run; \
	else echo "fuzz-smoke: skipped: $(FUZZ_CC) has no libFuzzer (-fsanitize=fuzzer)"; fi

fuzz-smoke-run: $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_SMOKE_TARGETS)) $(FUZZ_SEEDS)
	$(Q)for t in $(FUZZ_SMOKE_TARGETS); do \
		rm -rf $(FUZZ_DIR)/smoke/$$t && mkdir -p $(FUZZ_DIR)/smoke/$$t $(FUZZ_DIR)/artifacts && \
		$(FUZZ_DIR)/fuzz_$$t $(FUZZ_DIR)/smoke/$$t $(FUZZ_DIR)/seeds/$$t -seed=1 \
			-runs=$(FUZZ_SMOKE_RUNS) -max_len=1048576 -rss_limit_mb=$(FUZZ_RSS_MB) \
			-timeout=25 -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/artifacts/$$t- \
			> $(FUZZ_DIR)/smoke-$$t.log 2>&1 || { tail -n 60 $(FUZZ_DIR)/smoke-$$t.log; \
			echo "fuzz-smoke: $$t found a bug; input in $(FUZZ_DIR)/artifacts/" >&2; \
			exit 1; }; \
		grep -h '^stat::number_of_executed_units\|^stat::peak_rss_mb' \
			$(FUZZ_DIR)/smoke-$$t.log | sed "s/^/fuzz-smoke: $$t: /"; \
	done

# Which engine lines and functions the whole-replay targets reach: each target built with
# clang's source coverage (no sanitizer) replays its seeds and what fuzz-smoke and fuzz kept,
# then llvm-cov reports src/engine/. Needs llvm-profdata and llvm-cov.
FUZZ_COV_DIR := $(FUZZ_DIR)/cov
.PHONY: fuzz-cov
fuzz-cov: $(FUZZ_SEEDS)
	$(Q)mkdir -p $(FUZZ_COV_DIR) && rm -f $(FUZZ_COV_DIR)/*.profraw
	$(Q)for t in $(FUZZ_SMOKE_TARGETS); do \
		$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer -fprofile-instr-generate \
			-fcoverage-mapping -D_GNU_SOURCE -Iinclude -Isrc $(FUZZ_SRC)/fuzz_$$t.c \
			$(FUZZ_DEPS_replay_text) $(FUZZ_LIBS_replay_text) -o $(FUZZ_COV_DIR)/fuzz_$$t && \
		LLVM_PROFILE_FILE=$(FUZZ_COV_DIR)/$$t.profraw $(FUZZ_COV_DIR)/fuzz_$$t -runs=0 \
			$(wildcard $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/smoke/$$t) \
			$(FUZZ_DIR)/seeds/$$t > $(FUZZ_COV_DIR)/$$t.log 2>&1 || exit 1; \
	done
	$(Q)llvm-profdata merge -o $(FUZZ_COV_DIR)/replay.profdata $(FUZZ_COV_DIR)/*.profraw
	$(Q)llvm-cov report $(FUZZ_COV_DIR)/fuzz_replay_text -object $(FUZZ_COV_DIR)/fuzz_replay_pftrace \
		-instr-profile=$(FUZZ_COV_DIR)/replay.profdata $(wildcard src/engine/*.c)

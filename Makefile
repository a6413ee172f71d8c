# animtrace build. `make` builds for this machine, `make ARCH=arm64` cross-builds one static
# aarch64 binary. `make test` installs what is missing and runs every test; `make demo`
# installs what the host build lacks the same way, then runs the simulator traced live (or a
# replay when not root).
.DELETE_ON_ERROR:
.SECONDARY:
.SUFFIXES:

HOST_ARCH := $(if $(filter aarch64,$(shell uname -m)),arm64,x86)
ARCH ?= $(HOST_ARCH)
BUILD ?= build/$(ARCH)
SAN ?=
TESTDATA ?= ../shared/testdata
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

ifeq ($(ARCH),arm64)
CC := aarch64-linux-gnu-gcc
CXX := aarch64-linux-gnu-g++
PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig pkg-config --static
LDSTATIC := -static
else
CC ?= cc
CXX ?= c++
PKG_CONFIG := pkg-config
LDSTATIC :=
endif
CLANG ?= clang
BPFTOOL ?= bpftool

LIBS_PC := libbpf libelf libdw minizip zlib liblzma
CFLAGS_BASE := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE \
	-Iinclude -Isrc -I$(BUILD) $(SAN)
CFLAGS ?=
CFLAGS += $(CFLAGS_BASE) $(shell $(PKG_CONFIG) --cflags $(LIBS_PC) 2>/dev/null)
LDLIBS := $(shell $(PKG_CONFIG) --libs $(LIBS_PC) 2>/dev/null)
LDLIBS := $(if $(strip $(LDLIBS)),$(LDLIBS),-lbpf -ldw -lelf -lminizip -lz -llzma)
LDLIBS += -lm # src/model/fit*.c
LDFLAGS += $(LDSTATIC) $(SAN)

SRC_DIRS := src src/common src/engine src/live src/model src/replay src/sinks src/symbols
SRCS := $(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c))
HDRS := $(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.h))
OBJS := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(SRCS))
LIB_OBJS := $(filter-out $(BUILD)/obj/main.o,$(OBJS))
BPF_SRCS := $(wildcard bpf/*.bpf.c)
SKELS := $(patsubst bpf/%.bpf.c,$(BUILD)/%.skel.h,$(BPF_SRCS))
BPF_ARCH := $(ARCH)

.PHONY: FORCE all clean deps deps-host test unit replay e2e e2e-arm64 demo bench fuzz soak asan conformance \
	check-root format format-check deps-check
all: $(BUILD)/animtrace

$(BUILD)/obj $(BUILD)/bpf $(BUILD)/tests:
	$(Q)mkdir -p $@

# BPF: clang -> bpftool gen object (static linking pass) -> bpftool gen skeleton.
$(BUILD)/bpf/%.tmp.o: bpf/%.bpf.c $(wildcard bpf/*.h include/animtrace/*.h) | $(BUILD)/bpf
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Iinclude -Ivmlinux/$(ARCH) \
		-Wall -Wno-unused-function -c $< -o $@
$(BUILD)/bpf/%.bpf.o: $(BUILD)/bpf/%.tmp.o
	$(Q)$(BPFTOOL) gen object $@ $<
$(BUILD)/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# The kernel types the CO-RE relocations need, cut out of one kernel's BTF (src/live/corebtf.h):
# by default this machine's when it builds for itself, else none (animtrace then reads the
# running kernel's whole BTF, as libbpf does). VMLINUX_BTF=FILE cuts them out of another
# kernel's (e.g. a device's, or vmlinux/btf-extract's output for the arm64 qemu kernel); they
# are used only on the kernel whose BTF has FILE's size and CRC-32 (a gzip trailer's).
VMLINUX_BTF ?= $(if $(filter $(ARCH),$(HOST_ARCH)),$(wildcard /sys/kernel/btf/vmlinux))
# Rewritten only when VMLINUX_BTF names another file: the header follows a change of it.
$(BUILD)/bpf/vmlinux_btf.path: FORCE | $(BUILD)/bpf
	$(Q)echo "$(VMLINUX_BTF)" | cmp -s - $@ || echo "$(VMLINUX_BTF)" > $@
$(BUILD)/corebtf_data.h: bpf/corebtf.sh $(BUILD)/bpf/animtrace.bpf.o $(VMLINUX_BTF) \
		$(BUILD)/bpf/vmlinux_btf.path
	$(Q)BPFTOOL=$(BPFTOOL) bpf/corebtf.sh "$(VMLINUX_BTF)" $(BUILD)/bpf/animtrace.bpf.o \
		$(BUILD)/bpf/animtrace.min.btf > $@
$(BUILD)/obj/live/corebtf.o: $(BUILD)/corebtf_data.h

# Objects mirror src/'s folders under $(BUILD)/obj/.
$(BUILD)/obj/%.o: src/%.c $(HDRS) $(wildcard include/animtrace/*.h) $(SKELS)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/animtrace: $(OBJS)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# ---- tests ----------------------------------------------------------------------------
CRITERION_LIBS := $(shell pkg-config --libs criterion json-c 2>/dev/null || echo -lcriterion -ljson-c)
UNIT_SRCS := $(wildcard tests/unit/*.c) tests/sim/sim_heap.c
REPLAY_SRCS := $(wildcard tests/replay/*.c)
CONF_SRCS := $(wildcard tests/conformance/*.c)
E2E_SRCS := $(wildcard tests/e2e/*.c)
TEST_CFLAGS = $(CFLAGS) -Itests -DTESTDATA='"$(TESTDATA)"' -DBUILD_DIR='"$(BUILD)"'

$(BUILD)/tests/unit_tests: $(UNIT_SRCS) tests/logd/logcheck.h $(LIB_OBJS) | $(BUILD)/tests
	$(Q)$(CC) $(TEST_CFLAGS) $(LDFLAGS) $(UNIT_SRCS) $(LIB_OBJS) $(LDLIBS) $(CRITERION_LIBS) -o $@
$(BUILD)/tests/replay_tests: $(REPLAY_SRCS) tests/logd/logcheck.h $(LIB_OBJS) | $(BUILD)/tests
	$(Q)$(CC) $(TEST_CFLAGS) $(LDFLAGS) $(REPLAY_SRCS) $(LIB_OBJS) $(LDLIBS) $(CRITERION_LIBS) -o $@
$(BUILD)/tests/conformance_tests: $(CONF_SRCS) $(wildcard tests/conformance/*.h) $(LIB_OBJS) \
		| $(BUILD)/tests
	$(Q)$(CC) $(TEST_CFLAGS) $(LDFLAGS) $(CONF_SRCS) $(LIB_OBJS) $(LDLIBS) $(CRITERION_LIBS) -o $@
# The e2e tests read the seed's names back with animname_parse (tests/e2e/names.h).
E2E_LIB_OBJS := $(addprefix $(BUILD)/obj/,sinks/animname.o model/model.o common/marker.o)
$(BUILD)/tests/e2e_tests: $(E2E_SRCS) $(wildcard tests/e2e/*.h) tests/logd/logcheck.h $(E2E_LIB_OBJS) | $(BUILD)/tests
	$(Q)$(CC) $(TEST_CFLAGS) $(LDFLAGS) $(E2E_SRCS) $(E2E_LIB_OBJS) $(CRITERION_LIBS) -lz -o $@ # -lz: tests/damaged_captures.h

# The fake logd (--logcat's tests, x86_64 and arm64) and the checker of its lines (arm64).
$(BUILD)/tests/fakelogd: tests/logd/fakelogd.c | $(BUILD)/tests
	$(Q)$(CC) -std=gnu11 -O2 -Wall -Wextra $(LDSTATIC) $< -o $@
$(BUILD)/tests/logcheck: tests/logd/logcheck_main.c tests/logd/logcheck.h | $(BUILD)/tests
	$(Q)$(CC) -std=gnu11 -O2 -Wall -Wextra -D_GNU_SOURCE -Itests $< -o $@

# The simulator, its fixture libraries and their rules live beside them; so does arm64.
include tests/sim/sim.mk
-include tests/arm64/arm64.mk
include tests/fixtures/dex/dex.mk # before fuzz.mk: its seeds are the dex fixtures
include tests/fuzz/fuzz.mk
include bench/bench.mk
include tests/soak/soak.mk

# UNIT_FILTER (tests/sim/sim.mk) leaves out the arm64 fixture suite: see hwui-arm64-test.
# Unit, replay and e2e tests read real captures and libraries from TESTDATA: say where.
ifneq ($(filter test unit replay conformance asan e2e,$(MAKECMDGOALS)),)
ifeq ($(wildcard $(TESTDATA)/.),)
$(error no test data at $(TESTDATA): clone the shared test data there (beside this repository) or set TESTDATA=DIR)
endif
endif

unit: $(BUILD)/tests/unit_tests $(SIM_TARGETS) $(DEXFIX_TARGETS)
	$(Q)$< --jobs 2 --filter $(UNIT_FILTER)
replay: $(BUILD)/tests/replay_tests $(BUILD)/animtrace
	$(Q)$< --jobs 1
# Cases from Perfetto's tests and other tools' captures (tests/conformance/README.md).
conformance: $(BUILD)/tests/conformance_tests $(BUILD)/animtrace
	$(Q)$< --jobs 1
e2e: $(BUILD)/tests/e2e_tests $(BUILD)/animtrace $(BUILD)/tests/fakelogd $(SIM_TARGETS) \
		check-root sim-check
	$(Q)$< --jobs 1

# Unit and replay tests again under ASan+UBSan, in their own build tree.
asan:
	$(Q)$(MAKE) --no-print-directory BUILD=build/asan \
		SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		unit replay conformance

check-root:
	$(Q)if [ "$$(id -u)" != 0 ]; then echo "e2e: live BPF tests need root" >&2; exit 1; fi

# Every package of every test, the arm64 cross toolchain and qemu included: a fresh machine
# (CI: a fresh clone, as root, no stdin) needs nothing installed beforehand. deps-host is the
# part this machine's build, its tests and the demo need; the arm64 part runs after it (one
# apt at a time).
deps-host:
	$(Q)tests/deps.sh

deps: deps-host
	$(Q)tests/deps-arm64.sh

# The package check asks per architecture (tests/pkgs.sh): proven against a fake dpkg-query.
deps-check:
	$(Q)sh tests/deps_check.sh

test: deps
	$(Q)$(MAKE) --no-print-directory deps-check
	$(Q)$(MAKE) --no-print-directory format-check
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(MAKE) --no-print-directory unit
	$(Q)$(MAKE) --no-print-directory replay
	$(Q)$(MAKE) --no-print-directory conformance
	$(Q)$(MAKE) --no-print-directory asan
	$(Q)$(MAKE) --no-print-directory fuzz-smoke
	$(Q)$(MAKE) --no-print-directory e2e
	$(Q)$(MAKE) --no-print-directory arm64-init-test
	$(Q)$(MAKE) --no-print-directory arm64-version
	$(Q)$(MAKE) --no-print-directory hwui-arm64-test
	$(Q)$(MAKE) --no-print-directory e2e-arm64

# The main job: the simulator traced live as root, else a replay of a real capture. Like
# `make test`, packages first, then a new make: the flags come from pkg-config at parse time.
DEMO_REPLAY := $(TESTDATA)/traces/antutu-2018.ftrace.txt
demo: deps-host
	$(Q)$(MAKE) --no-print-directory all sim
	$(Q)if [ "$$(id -u)" = 0 ]; then tests/sim/demo.sh $(BUILD); else \
		echo "demo: not root, replaying $(DEMO_REPLAY) instead"; \
		$(BUILD)/animtrace --replay $(DEMO_REPLAY) --pid 24675; fi

# Kernel style (.clang-format) over every C and C++ file of ours; vmlinux.h is generated.
CLANG_FORMAT ?= clang-format
FORMAT_FILES = $(shell find src include bpf tests -type f \( -name '*.[ch]' -o -name '*.cpp' \))
format:
	$(Q)command -v $(CLANG_FORMAT) >/dev/null || \
		{ echo "format: no $(CLANG_FORMAT) (apt-get install clang-format)" >&2; exit 1; }
	$(Q)$(CLANG_FORMAT) -i --style=file $(FORMAT_FILES)
# The same rules, checked: a file that `make format` would change fails the build.
format-check:
	$(Q)command -v $(CLANG_FORMAT) >/dev/null || \
		{ echo "format-check: no $(CLANG_FORMAT) (apt-get install clang-format)" >&2; exit 1; }
	$(Q)$(CLANG_FORMAT) --dry-run -Werror --style=file $(FORMAT_FILES)

clean:
	rm -rf build

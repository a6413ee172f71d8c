# arm64 side, included by the top Makefile: the static aarch64 build and its end-to-end test
# under qemu-system-aarch64 booting Debian's arm64 kernel (see tests/arm64/run.sh, init.c).
#   make e2e-arm64        install, fetch the kernel, cross-build, boot, check (root not needed)
#   make arm64-version    the static binary runs under qemu-user and has no dynamic section
#   make arm64-smoke      boot with the smoke program only (no animtrace needed)
#   make arm64-init-test  host tests of the guest's command interpreter (plain and ASan+UBSan)
A64_BIN := build/arm64/animtrace
A64_SIM := build/arm64/sim/animsim
A64_OUT := build/arm64-e2e
A64_SMOKE := $(A64_OUT)/smoke/smoke
A64_CC := aarch64-linux-gnu-gcc
A64_PKG := PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
	pkg-config --static
# A guard against a guest that never powers off, not a speed check: the guest's clock counts
# instructions (-icount), so what it measures does not depend on the host's load, but its wall
# time does (127 s alone at load 10, before this turn's new sessions).
A64_TIMEOUT ?= 900
# BUILD and SAN are reset so a caller's values never reach the cross build.
A64_MAKE := $(MAKE) --no-print-directory ARCH=arm64 BUILD=build/arm64 SAN=

# --scenario config and dyn: the simulator's fake boot class path, the app's base.apk
# (androidx's DynamicAnimation) and the dex fixtures it lays its objects out from, where it looks for them next to /e2e/animsim (tests/sim/sim_heap.c).
A64_HEAP_FILES := $(foreach f,system/build.prop system/framework/framework.jar \
	apex/com.android.art/javalib/core-oj.jar data/app/com.example.dock/base.apk,\
	build/arm64/sim/heaproot/$(f)=/e2e/heaproot/$(f)) \
	$(foreach d,core framework framework2 app,$(foreach x,dex offsets12.txt,\
	build/arm64/fixtures/dex/android14b1/$(d).$(x)=/fixtures/dex/android14b1/$(d).$(x)))

.PHONY: e2e-arm64 arm64-build arm64-version arm64-smoke arm64-init-test

$(A64_OUT)/smoke:
	$(Q)mkdir -p $@

$(A64_OUT)/smoke/smoke.skel.h: tests/arm64/smoke/smoke.bpf.c vmlinux/arm64/vmlinux.h \
		| $(A64_OUT)/smoke
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_arm64 -Ivmlinux/arm64 -Wall \
		-c $< -o $(A64_OUT)/smoke/smoke.tmp.o
	$(Q)$(BPFTOOL) gen object $(A64_OUT)/smoke/smoke.bpf.o $(A64_OUT)/smoke/smoke.tmp.o
	$(Q)$(BPFTOOL) gen skeleton $(A64_OUT)/smoke/smoke.bpf.o name smoke > $@

$(A64_SMOKE): tests/arm64/smoke/smoke.c $(A64_OUT)/smoke/smoke.skel.h
	$(Q)$(A64_CC) -std=gnu11 -O2 -Wall -Wextra -static -I$(A64_OUT)/smoke $< \
		$$($(A64_PKG) --libs libbpf) -o $@

# The simulator's arm64 build is optional until tests/sim provides a `sim` target
# (make -q exits 2 when there is no such rule).
arm64-build:
	$(Q)$(A64_MAKE) all
	$(Q)$(A64_MAKE) -q sim >/dev/null 2>&1; if [ $$? != 2 ]; then $(A64_MAKE) sim; fi
	$(Q)$(A64_MAKE) build/arm64/tests/fakelogd

arm64-version:
	$(Q)tests/deps-arm64.sh
	$(Q)$(A64_MAKE) all
	$(Q)qemu-aarch64-static $(A64_BIN) --version
	$(Q)file $(A64_BIN) | grep -q 'ARM aarch64.*statically linked' || \
		{ file $(A64_BIN); echo "arm64-version: not a static aarch64 executable"; exit 1; }
	$(Q)readelf -d $(A64_BIN) | grep -qx 'There is no dynamic section in this file.' || \
		{ echo "arm64-version: $(A64_BIN) has a dynamic section"; exit 1; }

# One boot: smoke checks, animtrace --version, then the scenario when animsim exists.
e2e-arm64:
	$(Q)tests/deps-arm64.sh
	$(Q)tests/arm64/kernel.sh >/dev/null
	$(Q)$(MAKE) --no-print-directory arm64-build $(A64_SMOKE) $(BUILD)/tests/logcheck
	$(Q)cp tests/arm64/smoke/commands $(A64_OUT)/commands
	$(Q)echo "run /e2e/animtrace --version" >> $(A64_OUT)/commands
	$(Q)files="$(A64_SMOKE)=/e2e/smoke $(A64_BIN)=/e2e/animtrace"; \
	if [ -x $(A64_SIM) ]; then \
		cat tests/arm64/scenario >> $(A64_OUT)/commands; \
		files="$$files $(A64_SIM)=/e2e/animsim $(A64_HEAP_FILES)"; \
		files="$$files build/arm64/tests/fakelogd=/e2e/fakelogd"; \
	else \
		echo "e2e-arm64: no $(A64_SIM) yet, smoke and --version only"; \
	fi; \
	tests/arm64/run.sh -t $(A64_TIMEOUT) $$(tests/arm64/kernel.sh) $(A64_OUT) $$files \
		$(A64_OUT)/commands=/e2e/commands; \
	rc=$$?; LOGCHECK=$(BUILD)/tests/logcheck tests/arm64/check.sh $(A64_OUT)/console.log && \
		[ $$rc = 0 ]

arm64-smoke:
	$(Q)tests/deps-arm64.sh
	$(Q)$(MAKE) --no-print-directory $(A64_SMOKE)
	$(Q)tests/arm64/run.sh -t $(A64_TIMEOUT) $$(tests/arm64/kernel.sh) $(A64_OUT) \
		$(A64_SMOKE)=/e2e/smoke tests/arm64/smoke/commands=/e2e/commands; \
	rc=$$?; tests/arm64/check.sh --smoke-only $(A64_OUT)/console.log && [ $$rc = 0 ]

arm64-init-test:
	$(Q)tests/arm64/init-test.sh
	$(Q)CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" tests/arm64/init-test.sh

# Simulator of an Android app and its fixture libraries (see tests/sim/README.md).
# Included by the top Makefile; everything lands in $(BUILD)/sim/.
#
# SIM_HWUI selects how animsim reaches the RenderNode setters:
#   dl     (default for dynamic builds): dlopen of the stripped $(BUILD)/sim/libhwui.so
#   linked (default when LDSTATIC is set, i.e. ARCH=arm64): the fixture object is linked into
#          animsim, whose own symbols are then stripped into MiniDebugInfo like libhwui.so's
SIM_DIR := $(BUILD)/sim
SIM_SRC := tests/sim
SIM_HWUI ?= $(if $(strip $(LDSTATIC)),linked,dl)

SIM_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -D_GNU_SOURCE -I$(SIM_SRC)
# -O2 makes each getter one load plus ret, the shape animtrace decodes for field offsets.
SIM_CXXFLAGS := -std=gnu++17 -O2 -g -fPIC -fvisibility=hidden -fno-exceptions -fno-rtti \
	-Wall -Wextra -I$(SIM_SRC)
SIM_HDRS := $(SIM_SRC)/hwui_fixture.h $(SIM_SRC)/hwui_load.h $(SIM_SRC)/art_fixture.h \
	$(SIM_SRC)/art_load.h $(SIM_SRC)/utils_fixture.h $(SIM_SRC)/dyn_fixture.h \
	$(SIM_SRC)/dyn_load.h $(SIM_SRC)/sim_dyn.h \
	$(SIM_SRC)/sim_heap.h
# ART fixture: callers must stay real frames (no sibling calls) and no two methods may be
# folded into one address (no identical code folding).
SIM_ART_CFLAGS := $(SIM_CFLAGS) -fPIC -fvisibility=hidden -fno-optimize-sibling-calls \
	-fno-ipa-icf -fno-omit-frame-pointer
SIM_STRIP := $(SIM_SRC)/minidebuginfo.sh

# Builds of the fixture libhwui for the tests of the RenderNode name decoder (never loaded):
# libhwui-noname.so (create never calls String8::setTo) and, x86_64 only, the other ways a
# call reaches an import: libhwui-ibt.so (endbr64 everywhere, .plt.sec stubs) and
# libhwui-noplt.so (-fno-plt: call *GOT(%rip), GLOB_DAT relocations). libhwui-calls.so's
# setters call out after their store: the setter decoder's fallback (loaded by test_onetrap).
SIM_HWUI_VARIANTS := noname calls $(if $(filter x86,$(ARCH)),ibt noplt)
SIM_VARIANT_CXXFLAGS_noname := -DHWUI_FIXTURE_NO_SET_NAME
SIM_VARIANT_CXXFLAGS_calls := -DHWUI_FIXTURE_SETTER_CALLS
SIM_VARIANT_CXXFLAGS_ibt := -fcf-protection=full
SIM_VARIANT_LDFLAGS_ibt := -Wl,-z,ibtplt
SIM_VARIANT_CXXFLAGS_noplt := -fno-plt
SIM_VARIANT_LIBS := $(patsubst %,$(SIM_DIR)/libhwui-%.so,$(SIM_HWUI_VARIANTS))

# --scenario config: a fake device root whose boot class path jars are the dex fixtures'
# (sim_heap.h), with the dex files and offsets the simulator lays its objects out from.
SIM_HEAPROOT := $(SIM_DIR)/heaproot
SIM_HEAP_FIX := $(BUILD)/fixtures/dex
SIM_HEAPROOT_FILES := $(SIM_HEAPROOT)/system/build.prop \
	$(SIM_HEAPROOT)/system/framework/framework.jar \
	$(SIM_HEAPROOT)/apex/com.android.art/javalib/core-oj.jar \
	$(SIM_HEAPROOT)/data/app/com.example.dock/base.apk \
	$(SIM_HEAP_FIX)/android14b1/app.dex $(SIM_HEAP_FIX)/android14b1/app.offsets12.txt \
	$(foreach s,android14b1 android10,$(foreach d,core framework framework2,\
		$(SIM_HEAP_FIX)/$(s)/$(d).dex $(SIM_HEAP_FIX)/$(s)/$(d).offsets.txt \
		$(SIM_HEAP_FIX)/$(s)/$(d).offsets12.txt))

SIM_TARGETS := $(SIM_DIR)/libhwui.so $(SIM_DIR)/libhwui.unstripped.so $(SIM_DIR)/libutils.so \
	$(SIM_DIR)/libandroid_runtime.so \
	$(SIM_DIR)/animsim \
	$(SIM_DIR)/boot-framework.oat $(SIM_DIR)/boot-framework.unstripped.oat $(SIM_VARIANT_LIBS) \
	$(SIM_DIR)/base.odex \
	$(SIM_HEAPROOT_FILES)

.PHONY: sim sim-check hwui-arm64-test
sim: $(SIM_TARGETS)

# Checks the fixtures and a short run of the simulator (root: it writes trace_marker).
sim-check: $(SIM_TARGETS)
	$(Q)$(SIM_SRC)/check.sh $(SIM_DIR)

# The RenderNode name and id decoder on the arm64 fixtures (libhwui.so through its PLT, the
# static animsim with direct calls), run by this machine's unit runner: no qemu needed. `make
# unit` cannot build them, as a fresh machine gets the cross toolchain from deps-arm64.sh
# only under `make test`, so `make unit` filters the hwui_arm64 suite out (UNIT_FILTER) and
# this target, run by `make test`, builds build/arm64/sim and runs just that suite with the
# directory in HWUI_ARM64_DIR. Without the variable the suite fails rather than skips.
UNIT_FILTER := '!(hwui_arm64/*)'
hwui-arm64-test: $(BUILD)/tests/unit_tests
	$(Q)tests/deps-arm64.sh
	$(Q)$(MAKE) --no-print-directory ARCH=arm64 BUILD=build/arm64 SAN= sim
	$(Q)HWUI_ARM64_DIR=build/arm64/sim $< --filter 'hwui_arm64/*'

$(SIM_DIR):
	$(Q)mkdir -p $@

$(SIM_DIR)/hwui_fixture.o $(SIM_DIR)/utils_fixture.o $(SIM_DIR)/runtime_fixture.o: \
		$(SIM_DIR)/%.o: $(SIM_SRC)/%.cpp \
		$(SIM_SRC)/hwui_fixture.h $(SIM_SRC)/utils_fixture.h | $(SIM_DIR)
	$(Q)$(CXX) $(SIM_CXXFLAGS) -c $< -o $@

# android::String8 lives in a library of its own, as in Android's libutils, so that libhwui's
# RenderNode create calls String8::setTo through its PLT (animtrace resolves that call).
$(SIM_DIR)/libutils.so: $(SIM_DIR)/utils_fixture.o
	$(Q)$(CC) -shared -Wl,-soname,libutils.so $< -o $@

# No libstdc++ is used, so the C driver links it and the .so needs only libc and libutils.so,
# found next to it ($ORIGIN) wherever libhwui.so is dlopen'ed from.
$(SIM_DIR)/libhwui.unstripped.so: $(SIM_DIR)/hwui_fixture.o $(SIM_DIR)/libutils.so
	$(Q)$(CC) -shared -Wl,-soname,libhwui.so -Wl,-rpath,'$$ORIGIN' $< $(SIM_DIR)/libutils.so \
		-o $@

$(SIM_DIR)/libhwui.so: $(SIM_DIR)/libhwui.unstripped.so $(SIM_STRIP)
	$(Q)$(SIM_STRIP) $< $@

$(SIM_DIR)/hwui_fixture-%.o: $(SIM_SRC)/hwui_fixture.cpp $(SIM_SRC)/hwui_fixture.h \
		$(SIM_SRC)/utils_fixture.h | $(SIM_DIR)
	$(Q)$(CXX) $(SIM_CXXFLAGS) $(SIM_VARIANT_CXXFLAGS_$*) -c $< -o $@

# (make picks this rule over the one below for libhwui-X.unstripped.so: shortest stem.)
$(SIM_DIR)/libhwui-%.unstripped.so: $(SIM_DIR)/hwui_fixture-%.o $(SIM_DIR)/libutils.so
	$(Q)$(CC) -shared -Wl,-soname,libhwui.so $(SIM_VARIANT_LDFLAGS_$*) -Wl,-rpath,'$$ORIGIN' \
		$< $(SIM_DIR)/libutils.so -o $@

$(SIM_DIR)/libhwui-%.so: $(SIM_DIR)/libhwui-%.unstripped.so $(SIM_STRIP)
	$(Q)$(SIM_STRIP) $< $@

# libandroid_runtime.so: the vsync request (nativeScheduleVsync), static, in MiniDebugInfo.
$(SIM_DIR)/libandroid_runtime.unstripped.so: $(SIM_DIR)/runtime_fixture.o
	$(Q)$(CC) -shared -Wl,-soname,libandroid_runtime.so $< -o $@

$(SIM_DIR)/libandroid_runtime.so: $(SIM_DIR)/libandroid_runtime.unstripped.so $(SIM_STRIP)
	$(Q)$(SIM_STRIP) $< $@

# The ART fixture: ART-named methods in an ELF .so named like the boot image's oat file.
SIM_ART_OBJS := $(SIM_DIR)/art_fixture.o $(SIM_DIR)/art_fixture_overload.o \
	$(SIM_DIR)/dyn_fixture-fw.o

$(SIM_DIR)/art_fixture.o $(SIM_DIR)/art_fixture_overload.o: $(SIM_DIR)/%.o: $(SIM_SRC)/%.c \
		$(SIM_SRC)/art_fixture.h | $(SIM_DIR)
	$(Q)$(CC) $(SIM_ART_CFLAGS) -c $< -o $@

# DynamicAnimation, once per package: the framework's copy goes into the boot oat, androidx's
# into the app's own base.odex (mapped late by --scenario dyn).
$(SIM_DIR)/dyn_fixture-fw.o: $(SIM_SRC)/dyn_fixture.c $(SIM_SRC)/dyn_fixture.h | $(SIM_DIR)
	$(Q)$(CC) $(SIM_ART_CFLAGS) '-DDYN_PKG="com.android.internal.dynamicanimation.animation."' \
		-DDYN_TABLE=dyn_fixture_framework -c $< -o $@

$(SIM_DIR)/dyn_fixture-ax.o: $(SIM_SRC)/dyn_fixture.c $(SIM_SRC)/dyn_fixture.h | $(SIM_DIR)
	$(Q)$(CC) $(SIM_ART_CFLAGS) '-DDYN_PKG="androidx.dynamicanimation.animation."' \
		-DDYN_TABLE=dyn_fixture_androidx -c $< -o $@

$(SIM_DIR)/base.unstripped.odex: $(SIM_DIR)/dyn_fixture-ax.o
	$(Q)$(CC) -shared -Wl,-soname,base.odex $^ -o $@

$(SIM_DIR)/base.odex: $(SIM_DIR)/base.unstripped.odex $(SIM_STRIP)
	$(Q)$(SIM_STRIP) $< $@

$(SIM_DIR)/boot-framework.unstripped.oat: $(SIM_ART_OBJS)
	$(Q)$(CC) -shared -Wl,-soname,boot-framework.oat $^ -o $@

$(SIM_DIR)/boot-framework.oat: $(SIM_DIR)/boot-framework.unstripped.oat $(SIM_STRIP)
	$(Q)$(SIM_STRIP) $< $@

SIM_OBJS_dl := $(SIM_SRC)/hwui_load_dl.c $(SIM_SRC)/art_load_dl.c $(SIM_SRC)/fixture_dl.c \
	$(SIM_SRC)/dyn_load_dl.c $(SIM_SRC)/sim_dyn.c
SIM_LIBS_dl := -ldl -lpthread
SIM_OBJS_linked := $(SIM_SRC)/hwui_load_linked.c $(SIM_DIR)/hwui_fixture.o $(SIM_DIR)/utils_fixture.o \
	$(SIM_DIR)/runtime_fixture.o \
	$(SIM_SRC)/art_load_linked.c $(SIM_ART_OBJS) $(SIM_SRC)/dyn_load_linked.c \
	$(SIM_DIR)/dyn_fixture-ax.o $(SIM_SRC)/sim_dyn.c
SIM_LIBS_linked := -lpthread

# The physics scenario steps DynamicAnimation with the fit tests' framework model (fit_sim.h).
# The findings scenarios live in sim_findings.c (animsim.c calls them through sim_findings.h).
SIM_SCRIPTS := $(SIM_SRC)/sim_findings.c
$(SIM_DIR)/animsim.unstripped: $(SIM_SRC)/animsim.c $(SIM_SCRIPTS) $(SIM_SRC)/sim_findings.h \
		$(SIM_OBJS_$(SIM_HWUI)) $(SIM_HDRS) tests/unit/fit_sim.h src/model/fit.h | $(SIM_DIR)
	$(Q)$(CC) $(SIM_CFLAGS) -Isrc -Itests/unit $(LDSTATIC) $(SIM_SRC)/animsim.c $(SIM_SCRIPTS) \
		$(SIM_OBJS_$(SIM_HWUI)) $(SIM_LIBS_$(SIM_HWUI)) -lm -o $@

ifeq ($(SIM_HWUI),linked)
$(SIM_DIR)/animsim: $(SIM_DIR)/animsim.unstripped $(SIM_STRIP)
	$(Q)$(SIM_STRIP) $< $@ && chmod +x $@
else
$(SIM_DIR)/animsim: $(SIM_DIR)/animsim.unstripped
	$(Q)cp $< $@
endif

$(SIM_HEAPROOT)/system/build.prop:
	$(Q)mkdir -p $(@D) && echo "ro.build.version.sdk=34" > $@

$(SIM_HEAPROOT)/system/framework/framework.jar: $(SIM_HEAP_FIX)/android14b1/framework.jar
	$(Q)mkdir -p $(@D) && cp $< $@

$(SIM_HEAPROOT)/apex/com.android.art/javalib/core-oj.jar: $(SIM_HEAP_FIX)/android14b1/core.dex
	$(Q)rm -rf $@.d && mkdir -p $@.d && cp $< $@.d/classes.dex
	$(Q)cd $@.d && zip -q -X -0 ../$(notdir $@) classes.dex && cd .. && rm -rf $(notdir $@).d

# --scenario dyn: the app's own APK, its classes.dex androidx's DynamicAnimation classes
# (deflated, as an APK's usually is).
$(SIM_HEAPROOT)/data/app/com.example.dock/base.apk: $(SIM_HEAP_FIX)/android14b1/app.dex
	$(Q)rm -rf $@.d && mkdir -p $@.d && cp $< $@.d/classes.dex
	$(Q)cd $@.d && zip -q -X -9 ../$(notdir $@) classes.dex && cd .. && rm -rf $(notdir $@).d

# The config scenario's heap (sim_heap.c) is linked into animsim whichever way it reaches the
# fixtures (the recipe expands these lists when it runs; the rule below adds the prerequisite).
SIM_OBJS_dl += $(SIM_SRC)/sim_heap.c
SIM_OBJS_linked += $(SIM_SRC)/sim_heap.c
$(SIM_DIR)/animsim.unstripped: $(SIM_SRC)/sim_heap.c

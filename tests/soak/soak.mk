# `make soak` (minutes, root, not in CI): see tests/soak/soak.sh. Included by the top Makefile.
# SOAK_SECONDS shortens the run (default 600 s = 10 minutes).
SOAK_SECONDS ?= 600
SOAK_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)

.PHONY: soak
$(BUILD)/tests/soak_check: tests/soak/soak_check.c | $(BUILD)/tests
	$(Q)$(CC) $(CFLAGS_BASE) $< $(SOAK_LIBS) -o $@

soak: $(BUILD)/animtrace $(SIM_TARGETS) $(BUILD)/tests/soak_check check-root
	$(Q)tests/soak/soak.sh $(BUILD) $(SOAK_SECONDS)

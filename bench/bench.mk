# Benchmarks, included by the top Makefile; not part of `make test`. One run of
# bench/bench.sh measures everything it knows and rewrites bench/results.md.
.PHONY: bench
bench: $(BUILD)/animtrace
	$(Q)bench/bench.sh $(BUILD) $(TESTDATA)

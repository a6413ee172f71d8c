#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# animtrace benchmarks, all in one run; writes bench/results.md (next to this script).
# Usage: bench/bench.sh BUILD_DIR TESTDATA   (what `make bench` passes)
#
# Measured now: replay throughput against `wc -l` and `grep -c` on the same capture (best of
# N after a warm-up read, so every tool reads from the page cache) and peak RSS.
# Slots for later (live, need root and the simulator): per-setter-call overhead and the
# highest marker rate without drops; see bench_setter_overhead and bench_marker_rate.
set -euo pipefail
export LC_ALL=C # grep at its fastest; every tool sees the same bytes-only locale

build=${1:?usage: bench.sh BUILD_DIR TESTDATA}
testdata=${2:?usage: bench.sh BUILD_DIR TESTDATA}
bin=$build/animtrace
trace=$testdata/traces/miui-launcher-2021.ftrace.txt
runs=${BENCH_RUNS:-5}
results=$(cd "$(dirname "$0")" && pwd)/results.md
gnu_time=/usr/bin/time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

die() { echo "bench: $*" >&2; exit 1; }

[ -r "$trace" ] || die "no capture at $trace (set TESTDATA)"
[ -x "$bin" ] || die "no $bin: build it first (make bench does)"

apt_get() { DEBIAN_FRONTEND=noninteractive apt-get -y -qq "$@" > /dev/null 2>&1; }

# Peak RSS comes from GNU time (Debian package `time`); install it when it is missing.
ensure_gnu_time() {
	[ -x "$gnu_time" ] && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
		apt_get install time || { apt_get update && apt_get install time; } || true
	fi
	[ -x "$gnu_time" ] || die "GNU time is missing: apt-get install time"
}

now_ns() { local t=$EPOCHREALTIME; echo "${t/./}000"; }

# best_of NAME CMD...: runs CMD $runs times (must succeed); stores every wall time in ns in
# $tmp/NAME.raw and prints the smallest. Output goes to a file, not /dev/null: GNU grep
# stops at the first match when its stdout is /dev/null (13 ms -> 1.5 ms here).
best_of() {
	local name=$1 i t0 t1
	shift
	: > "$tmp/$name.raw"
	for ((i = 0; i < runs; i++)); do
		t0=$(now_ns)
		"$@" > "$tmp/out" || die "'$*' failed"
		t1=$(now_ns)
		echo $((t1 - t0)) >> "$tmp/$name.raw"
	done
	sort -n "$tmp/$name.raw" | head -n 1
}

# peak_rss_kb CMD...: maximum resident set size of one run, in KiB.
peak_rss_kb() {
	"$gnu_time" -f '%M' -o "$tmp/rss" "$@" > "$tmp/out" || die "'$*' failed"
	tail -n 1 "$tmp/rss"
}

ms() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e6 }'; }
mbps() { awk -v b="$1" -v ns="$2" 'BEGIN { printf "%.0f", b / (ns / 1e9) / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
raw_ms() { awk '{ printf "%s%.2f", (NR > 1 ? " " : ""), $1 / 1e6 } END { print "" }' "$tmp/$1.raw"; }

# row NAME NS KB: one line of the throughput table (uses $size and $wc_ns).
row() {
	printf '| %s | %s | %s | %s | %s |' "$1" "$(ms "$2")" "$(mbps "$size" "$2")" \
		"$(ratio "$2" "$wc_ns")" "$3"
}

replay() { "$bin" --replay "$trace" --format json -o /dev/null; }
wc_lines() { wc -l "$trace"; }
grep_markers() { grep -c tracing_mark_write "$trace"; }

bench_replay() {
	local size lines out_lines
	size=$(stat -c %s "$trace")
	lines=$(wc -l < "$trace")
	out_lines=$("$bin" --replay "$trace" --format json | wc -l)
	cat "$trace" > /dev/null # warm-up: the file is in the page cache for every tool
	replay_ns=$(best_of replay replay)
	wc_ns=$(best_of wc wc_lines)
	grep_ns=$(best_of grep grep_markers)
	replay_kb=$(peak_rss_kb "$bin" --replay "$trace" --format json -o /dev/null)
	wc_kb=$(peak_rss_kb wc -l "$trace")
	grep_kb=$(peak_rss_kb grep -c tracing_mark_write "$trace")
	cat <<EOT
## Replay throughput

Capture: \`traces/miui-launcher-2021.ftrace.txt\` from TESTDATA, $size bytes, $lines lines;
animtrace wrote $out_lines JSON lines. Wall time is the best of $runs runs after a warm-up
read (page cache hot); MB = 10^6 bytes; "x wc" is the time relative to \`wc -l\`.
Commands: \`animtrace --replay FILE --format json -o /dev/null\`, \`wc -l FILE\`,
\`grep -c tracing_mark_write FILE\`.

| command | best (ms) | MB/s | x wc | peak RSS (KiB) |
|---|---:|---:|---:|---:|
$(row "animtrace --replay" "$replay_ns" "$replay_kb")
$(row "wc -l" "$wc_ns" "$wc_kb")
$(row "grep -c" "$grep_ns" "$grep_kb")

animtrace / grep time: $(ratio "$replay_ns" "$grep_ns"). animtrace maps the capture, so its peak
RSS includes the capture's page-cache pages it touched (up to the file size).

Raw wall times (ms, in run order):

- animtrace: $(raw_ms replay)
- wc -l: $(raw_ms wc)
- grep -c: $(raw_ms grep)

EOT
}

# ---- slot: live measurement, not implemented yet (issue 7) -----------------------------
# Per-setter-call overhead of a RenderNode setter in the simulator's libhwui.so: no probes,
# a bare uprobe+uretprobe pair, animtrace attached, bpftrace with an equivalent map store.
# Needs root; the floors measured on this VM are in shared/design/RECIPES.md.
bench_setter_overhead() {
	cat <<'EOT'
## Per-setter-call overhead (live)

Not measured yet: slot for no probes / bare uprobe+uretprobe / animtrace / bpftrace.

EOT
}

# ---- slot: live measurement, not implemented yet (issue 7) -----------------------------
# Highest trace_marker write rate animtrace follows with zero ring-buffer drops.
bench_marker_rate() {
	cat <<'EOT'
## Max marker rate with zero drops (live)

Not measured yet: slot.

EOT
}

machine() {
	local model
	model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	cat <<EOT
# animtrace benchmarks

Generated by \`make bench\` (bench/bench.sh); do not edit by hand.

- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')
- machine: $(nproc) CPUs, ${model:-unknown CPU model}
- kernel: $(uname -srm)
- load average at start (1/5/15 min): $(cut -d" " -f1-3 /proc/loadavg)
- animtrace: $("$bin" --version 2>/dev/null | head -n 1 || echo unknown), $bin

EOT
}

main() {
	ensure_gnu_time
	{
		machine
		bench_replay
		bench_setter_overhead
		bench_marker_rate
	} > "$tmp/results.md"
	mv "$tmp/results.md" "$results"
	cat "$results"
}

main

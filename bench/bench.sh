#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# animtrace benchmarks, all in one run; writes bench/results.md (next to this script).
# Usage: bench/bench.sh BUILD_DIR TESTDATA   (what `make bench` passes)
#
# Measured: replay throughput against `wc -l` and `grep -c` on the same capture (best of
# N after a warm-up read, so every tool reads from the page cache) and peak RSS; live (root,
# programs from bench/bench.mk, the simulator's libhwui.so): per-setter-call overhead with no
# probes / bare uprobe+uretprobe / animtrace / bpftrace in one process, per animateValue call
# and per attributed setter call (no probes / bare / animtrace with ART probes), the marker rate
# animtrace follows without drops, attach time and peak RSS. Knobs (environment):
# BENCH_RUNS, BENCH_SETTER_CALLS, BENCH_SETTER_ROUNDS, BENCH_MARKER_RATES, BENCH_MARKER_SECS;
# BENCH_ONLY=replay: only the replay table, on stdout (results.md is left as it is);
# BENCH_ONLY=annotate: only the --annotate delay table (root), on stdout; BENCH_ANNOTATE_FRAMES;
# BENCH_ONLY=art (make bench-art): only the animateValue / attributed-setter section (root),
# spliced into results.md in place of its previous version; BENCH_ART_CALLS, BENCH_ART_ROUNDS;
# BENCH_ONLY=refresh: only the --refresh cost per probe hit and hits per frame (root), on
# stdout and in place of its section of results.md; BENCH_REFRESH_CALLS, BENCH_REFRESH_ROUNDS;
# BENCH_BASELINE=PATH: another animtrace binary measured in the same run, for before/after.
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
baseline() { "$BENCH_BASELINE" --replay "$trace" --format json -o /dev/null; }
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
	if [ -n "${BENCH_BASELINE:-}" ]; then
		base_ns=$(best_of baseline baseline)
		base_kb=$(peak_rss_kb "$BENCH_BASELINE" --replay "$trace" --format json -o /dev/null)
	fi
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
$([ -n "${BENCH_BASELINE:-}" ] && row "baseline --replay" "$base_ns" "$base_kb")
$(row "wc -l" "$wc_ns" "$wc_kb")
$(row "grep -c" "$grep_ns" "$grep_kb")

animtrace / grep time: $(ratio "$replay_ns" "$grep_ns"). animtrace reads the capture with
pread into a 256 KiB buffer (it used to map it, and its peak RSS then included the page-cache
pages it touched).

Raw wall times (ms, in run order):

- animtrace: $(raw_ms replay)
- wc -l: $(raw_ms wc)
- grep -c: $(raw_ms grep)

EOT
}

# ---- fitting cost (offline) -------------------------------------------------------------
# src/model/fit.c per animation run, on the unit tests' simulator of the framework (bench_fit).
fit_col() { awk -F' *[|] *' -v row="$1" '$2 == row { print $5 }' "$tmp/fit"; }

bench_fit() {
	local fit=$build/bench/bench_fit
	[ -x "$fit" ] || die "no $fit: build it first (make bench does)"
	"$fit" 200 > "$tmp/fit" || die "bench_fit failed"
	fit_spring=$(fit_col "spring, fit_run")
	fit_fling=$(fit_col "fling, fit_run")
	fit_anim=$(fit_col "ValueAnimator, fit_run")
	fit_marked=$(fit_col "ValueAnimator, fit_interpolator")
	cat <<EOT
## Fitting cost (offline)

\`bench/bench_fit 200\` fits 200 synthetic runs of each kind, computed the way the framework
computes them (\`tests/unit/fit_sim.h\`, +-1 ms frame jitter): springs over every stiffness x
damping constant at 60/90/120 Hz (0 -> 300 px), flings of friction 0.5/1/2 from 2000 and
-3000 px/s, ValueAnimators over the ten interpolators (300 ms at 60 Hz, 250 ms at 120 Hz),
the last once more through \`fit_interpolator\` (start, duration and from/to known). Each run
is fitted 3 times and its best time kept; the table has the median and 90th percentile over
the runs, in microseconds on one core, and how many came out as the right kind (and name).

$(cat "$tmp/fit")

EOT
}

# ---- live measurements (root): helpers ------------------------------------------------
# Every process started here is recorded in $pids and ended by its id on exit.
pids=()
setter_sym=_ZN7androidL32android_view_RenderNode_setAlphaElf
alpha_off=0x4c # HWUI_OFF_ALPHA in tests/sim/hwui_fixture.h

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -INT "$p" 2> /dev/null || true
	done
	sleep 0.2
	for p in "${pids[@]}"; do
		kill -KILL "$p" 2> /dev/null || true
	done
	[ -z "${annot_on:-}" ] || echo "$annot_on" > /sys/kernel/tracing/tracing_on
	rm -rf "$tmp"
}
trap cleanup EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
	else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
minimum() { sort -n | head -n 1; }
words() { tr '\n' ' ' | sed 's/ $//'; }

# spawn VAR CMD...: starts CMD with its stdin and stdout on fifos; sets ${VAR}_pid, ${VAR}_in
# (fd to write commands to) and ${VAR}_out (fd to read its lines from).
spawn() {
	local var=$1 in out
	shift
	mkfifo "$tmp/$var.in" "$tmp/$var.out"
	"$@" < "$tmp/$var.in" > "$tmp/$var.out" 2>> "$tmp/$var.err" &
	printf -v "${var}_pid" %s $!
	pids+=("$!")
	exec {in}> "$tmp/$var.in" {out}< "$tmp/$var.out"
	printf -v "${var}_in" %s "$in"
	printf -v "${var}_out" %s "$out"
}

# unspawn VAR: closes its stdin (the programs here exit on EOF) and waits for it.
unspawn() {
	local in=${1}_in out=${1}_out pid=${1}_pid fin fout
	fin=${!in}
	fout=${!out}
	exec {fin}>&- {fout}<&-
	wait "${!pid}" 2> /dev/null || true
	rm -f "$tmp/$1.in" "$tmp/$1.out"
}

# reply VAR: the next line VAR prints (60 s at most: a probed loop of 10^6 calls takes ~10 s).
reply() {
	local out=${1}_out line
	IFS= read -r -t 60 -u "${!out}" line || die "$1 did not answer: $(tail -n 3 "$tmp/$1.err")"
	echo "$line"
}

# stamp FILE: copies stdin to FILE, each line prefixed with the time it arrived (ns).
stamp() {
	local line
	while IFS= read -r line; do
		echo "$(now_ns) $line"
	done > "$1"
}

# wait_for FILE REGEX [SECONDS]: until a line of FILE matches (default 15 s).
wait_for() {
	local i
	for ((i = 0; i < ${3:-15} * 50; i++)); do
		grep -qE -- "$2" "$1" 2> /dev/null && return 0
		sleep 0.02
	done
	return 1
}

# animtrace_start LOG PID ARGS...: starts animtrace with its stderr time-stamped in LOG, waits
# for its "ready" line and its "tracing ... (pid PID)" line. Sets $at_pid and $at_attach_ns
# (start until the ready line: BPF loaded, probes attached, the target's symbols read).
animtrace_start() {
	local log=$1 target=$2 t0 ready
	shift 2
	t0=$(now_ns)
	"$bin" "$@" 2> >(stamp "$log") &
	at_pid=$!
	pids+=("$at_pid")
	wait_for "$log" ' animtrace: ready' || die "animtrace did not get ready: $(cat "$log")"
	wait_for "$log" "tracing .*\\(pid $target\\)" || die "animtrace did not attach: $(cat "$log")"
	ready=$(awk '/ animtrace: ready/ { print $1; exit }' "$log")
	at_attach_ns=$((ready - t0))
}

animtrace_stop() {
	kill -INT "$at_pid" 2> /dev/null || true
	wait "$at_pid" 2> /dev/null || true
	sleep 0.05 # the stamp process drains the last lines
}

# last_stat LOG FIELD: a number from the last "stats:" line, 0 before the first one. FIELD:
# markers, property changes, lost, ring full. The line reads "stats: N markers/s, N markers,
# N property changes, N truncated, N lost (ring full N, read faults N)".
last_stat() {
	awk -v f="$2" '/ stats: [0-9]+ markers\/s/ { line = $0 } END {
		n = split(line, w, /[ ,()]+/); v = 0
		for (i = 2; i <= n; i++) {
			if (f == "ring full" && w[i - 1] == "ring" && w[i] == "full") v = w[i + 1]
			else if (f == "property changes" && w[i] == "property") v = w[i - 1]
			else if (w[i] == f) v = w[i - 1]
		}
		print v + 0 }' "$1"
}

# wait_stat LOG FIELD N: until the stats lines count at least N (3 s at most).
wait_stat() {
	local i
	for ((i = 0; i < 150; i++)); do
		[ "$(last_stat "$1" "$2")" -ge "$3" ] && return 0
		sleep 0.02
	done
	return 1
}

ensure_bpftrace() {
	command -v bpftrace > /dev/null && return 0
	apt_get install bpftrace || { apt_get update && apt_get install bpftrace; } || true
	command -v bpftrace > /dev/null
}

# ---- per-setter-call overhead (issue 7, issue 3) ---------------------------------------
# One setter_loop process (the stripped fixture libhwui.so, dlopen'ed) runs rounds of
# setAlpha calls; between rounds the probes of one way are attached or detached. The ways
# take turns each round (rotated order), so load from elsewhere on this 2-CPU VM hits all
# of them alike.
setter_calls=${BENCH_SETTER_CALLS:-1000000}
setter_rounds=${BENCH_SETTER_ROUNDS:-5}

bt_script() {
	local lib=$1 vaddr=$2 pid=$3
	# The same capture as animtrace's setter probes: stash the node by tid at entry; on a
	# true return read the float at node + offset (tag bits cleared) into a map with the
	# time, pid, tid and node. BEGIN runs once every probe is attached.
	cat <<EOT
BEGIN { printf("ready\n"); }
uprobe:$lib:$vaddr /pid == $pid/ { @node[tid] = arg0; }
uretprobe:$lib:$vaddr /pid == $pid/ {
	\$n = @node[tid] & 0x00ffffffffffffff;
	if ((retval & 0xff) != 0) {
		@val[tid] = (nsecs, pid, tid, \$n, *(uint32 *)(\$n + $alpha_off));
		@changes = count();
	}
	delete(@node[tid]);
}
EOT
}

# way_none / way_bare / way_animtrace / way_bpftrace N: one round of N calls with that
# way's probes attached; append ns/call to $tmp/set_<way>.
loop_run() {
	local r
	echo "run $1" >&"$loop_in"
	r=$(reply loop)
	[[ $r == *" changed $1" ]] || die "setter_loop: unexpected '$r'"
	echo "$r" | awk '{ print $2 }'
}

way_none() { loop_run "$1" >> "$tmp/set_none"; }

way_bare() {
	spawn bare "$build/bench/bare_uprobe" "$lib" "$setter_sym" "$loop_pid"
	[[ $(reply bare) == ready* ]] || die "bare_uprobe did not attach"
	loop_run "$1" >> "$tmp/set_bare"
	unspawn bare
}

way_animtrace() {
	local log=$tmp/set_animtrace.log
	animtrace_start "$log" "$loop_pid" --pid "$loop_pid" --no-art --no-atrace-setup --stats \
		--format json -o /dev/null
	loop_run "$1" >> "$tmp/set_animtrace"
	# Every change must have reached animtrace, or the number would flatter it.
	wait_stat "$log" 'property changes' "$1" ||
		die "animtrace saw $(last_stat "$log" 'property changes') of $1 changes"
	[ "$(last_stat "$log" lost)" = 0 ] || die "animtrace lost property changes"
	animtrace_stop
	# Names on: the setter entry read mUniqueId each call and the one node was named once.
	grep -q 'View names: 1 nodes named, 0 without' "$log" ||
		die "animtrace did not name the bench node: $(grep 'View names' "$log")"
	rm -f "$log"
}

# animtrace with its reader stopped (SIGSTOP) during the loop: the BPF programs run the
# same, but the reader never catches up, so bpf_ringbuf_submit() finds no reader to wake.
# The difference to way_animtrace is the cost of the per-record wake-up.
way_stopped() {
	local log=$tmp/set_stopped.log
	animtrace_start "$log" "$loop_pid" --pid "$loop_pid" --no-art --no-atrace-setup --stats \
		--buffer-size 64M --format json -o /dev/null
	kill -STOP "$at_pid"
	loop_run "$1" >> "$tmp/set_stopped"
	kill -CONT "$at_pid"
	wait_stat "$log" 'property changes' "$1" ||
		die "stopped animtrace saw $(last_stat "$log" 'property changes') of $1 changes"
	[ "$(last_stat "$log" lost)" = 0 ] || die "stopped animtrace lost property changes"
	animtrace_stop
	rm -f "$log"
}

way_bpftrace() {
	local log=$tmp/set_bpftrace.log changes
	bt_script "$lib" "$bt_vaddr" "$loop_pid" > "$tmp/set.bt"
	# --unsafe: bpftrace cannot check the instruction boundary of an address in a stripped
	# file; the address is the symbol's own (from MiniDebugInfo), so it is one.
	bpftrace --unsafe -p "$loop_pid" "$tmp/set.bt" > "$log" 2>&1 &
	bt_pid=$!
	pids+=("$bt_pid")
	wait_for "$log" '^ready$' 30 || die "bpftrace did not attach: $(cat "$log")"
	loop_run "$1" >> "$tmp/set_bpftrace"
	kill -INT "$bt_pid"
	wait "$bt_pid" 2> /dev/null || true
	changes=$(awk '/^@changes:/ { print $2 }' "$log")
	[ "$changes" = "$1" ] || die "bpftrace counted ${changes:-no} changes of $1"
	rm -f "$log"
}

# rotate ROUNDS PREFIX N WAY...: ROUNDS rounds of PREFIX<WAY> N for every WAY, the order
# rotated by one each round.
rotate() {
	local rounds=$1 prefix=$2 n=$3 i j
	shift 3
	for ((i = 0; i < rounds; i++)); do
		for ((j = 0; j < $#; j++)); do
			local k=$(((i + j) % $# + 1))
			"$prefix${!k}" "$n"
		done
	done
}

setter_rounds() {
	local per=$((setter_calls / setter_rounds)) ways=(none bare animtrace bpftrace stopped)
	[ -n "$bt_vaddr" ] || ways=(none bare animtrace stopped)
	loop_run 100000 > /dev/null # warm-up: page faults, caches, CPU frequency
	rotate "$setter_rounds" way_ "$per" "${ways[@]}"
}

# setter_row WAY LABEL: "| label | median | min | raw |".
setter_row() {
	[ -s "$tmp/set_$1" ] || { echo "| $2 | not measured | | |"; return; }
	printf '| %s | %s | %s | %s |\n' "$2" "$(median < "$tmp/set_$1")" \
		"$(minimum < "$tmp/set_$1")" "$(words < "$tmp/set_$1")"
}

# verdict OK_EXPR TEXT_OK TEXT_MISSED
verdict() { if awk "BEGIN { exit !($1) }"; then echo "$2"; else echo "$3"; fi; }

bench_setter_overhead() {
	local bt_ver="bpftrace missing" addr
	lib=$(readlink -f "$build/sim/libhwui.so")
	bt_vaddr=
	addr=$("$build/bench/bare_uprobe" "$lib" "$setter_sym") || die "no $setter_sym in $lib"
	if ensure_bpftrace; then
		bt_ver=$(bpftrace --version)
		bt_vaddr=$(echo "$addr" | awk '{ print $2 }')
	fi
	spawn loop "$build/bench/setter_loop" "$lib"
	[[ $(reply loop) == ready* ]] || die "setter_loop did not start"
	setter_rounds
	unspawn loop
	none=$(median < "$tmp/set_none")
	bare=$(median < "$tmp/set_bare")
	at=$(median < "$tmp/set_animtrace")
	bt=$( [ -s "$tmp/set_bpftrace" ] && median < "$tmp/set_bpftrace" || echo 0)
	r_bare=$(ratio "$at" "$bare")
	r_bt=$( [ "$bt" != 0 ] && ratio "$at" "$bt" || echo n/a)
	cat <<EOT
## Per-setter-call overhead (live)

\`bench/setter_loop\` dlopens the simulator's stripped \`libhwui.so\` (setters only in
MiniDebugInfo), creates one node and calls \`android_view_RenderNode_setAlpha\` ($setter_sym,
$addr) with alternating values 0.25/0.75, so every call changes the value and returns true.
One process, $setter_calls calls per way in $setter_rounds rounds of $((setter_calls / setter_rounds)); each round
attaches one way, runs its calls, detaches, and the ways take turns (rotated order) so the
background load of this VM falls on all of them alike. ns/call = loop wall time / calls.

- no probes: nothing attached;
- bare: \`bench/bare_uprobe\`, an empty uprobe + uretprobe (libbpf, attached to the pid at
  the file offset the project's elfsym finds): the kernel's floor for this capture;
- animtrace: \`animtrace --pid PID --no-art --no-atrace-setup --stats --format json -o /dev/null\`
  (its own setter probes on all 10 setters; started once per round, timed after its "ready"
  and "tracing" lines; every round checked: the stats count every change, 0 lost), with View
  names on: each setter entry also reads the node's \`mUniqueId\` and each record looks the
  node's name up in the cache (read once: every round checks "View names: 1 nodes named");
- animtrace, reader stopped: the same with \`--buffer-size 64M\`, SIGSTOP'ed during the loop
  (not a way to run it: a diagnostic). Its BPF programs do the same work, but as the reader
  never catches up, \`bpf_ringbuf_submit(r, 0)\` never has a reader to wake (no irq_work,
  no wake-up IPI). animtrace minus this row is the cost of waking the reader once per
  property change: $(awk -v a="$(median < "$tmp/set_animtrace")" -v s="$(median < "$tmp/set_stopped")" 'BEGIN { printf "%.0f", a - s }') ns/call here;
- bpftrace: $bt_ver, \`bpftrace --unsafe -p PID\` on \`uprobe:LIB:$bt_vaddr\` and
  \`uretprobe:LIB:$bt_vaddr\` of the same stripped file (the address syntax; bpftrace cannot
  read MiniDebugInfo, and needs --unsafe because it cannot check the instruction boundary in a
  stripped file); entry stashes arg0 by tid, return reads the float at node+$alpha_off when
  retval is true and stores (nsecs, pid, tid, node, value) in a map plus a count, which is
  checked to equal the calls.

| way | median ns/call | best ns/call | per round (ns/call, run order) |
|---|---:|---:|---|
$(setter_row none "no probes")
$(setter_row bare "bare uprobe+uretprobe")
$(setter_row animtrace "animtrace (View names on)")
$(setter_row bpftrace "bpftrace")
$(setter_row stopped "animtrace, reader stopped (diagnostic)")

Ratios of medians: animtrace / bare = **$r_bare** (target <= 1.25:
$(verdict "$r_bare <= 1.25" met "missed by $(ratio "$at" "$(awk -v b="$bare" 'BEGIN { print b * 1.25 }')")x, $(awk -v a="$at" -v b="$bare" 'BEGIN { printf "%.0f", a - 1.25 * b }') ns/call above 1.25 x bare")),
animtrace / bpftrace = **$r_bt** (target <= 1.00:
$(verdict "\"$r_bt\" != \"n/a\" && $r_bt <= 1.0" met "missed by $r_bt x, $(awk -v a="$at" -v b="$bt" 'BEGIN { printf "%.0f", a - b }') ns/call above bpftrace")).
$(verdict "$r_bare <= 1.25" "" "Why: the reader-stopped row above; the fix to try is \`BPF_RB_NO_WAKEUP\` on the
property records (or a wake-up only past a fill threshold, \`bpf_ringbuf_query\`) with the
reader calling \`ring_buffer__consume()\` every tick instead of waiting for a wake-up.")
Cost added per call over no probes: bare $(awk -v a="$bare" -v n="$none" 'BEGIN { printf "%.0f", a - n }') ns,
animtrace $(awk -v a="$at" -v n="$none" 'BEGIN { printf "%.0f", a - n }') ns, bpftrace $( [ "$bt" != 0 ] && awk -v a="$bt" -v n="$none" 'BEGIN { printf "%.0f", a - n }' || echo n/a) ns.

EOT
}
# ---- per-animateValue-call overhead, attributed setter calls (issue 11) -----------------
# One setter_loop process with the ART fixture's boot-framework.oat dlopen'ed too. Each
# round, per way: `animate N` (N ValueAnimator.animateValue calls, no listener) and
# `attributed N` (S marker, one animateValue whose update listener makes N setAlpha calls,
# F marker: every write is attributed while names are read). Rotated order, as above.
art_calls=${BENCH_ART_CALLS:-1000000}
art_rounds=${BENCH_ART_ROUNDS:-5}
av_sym=android.animation.ValueAnimator.animateValue

# av_loop CMD N FILE: one loop of the process; appends its ns/call to $tmp/FILE.
av_loop() {
	local r
	echo "$1 $2" >&"$avloop_in"
	r=$(reply avloop)
	[[ $r == "ns_per_call "*" calls $2"* ]] || die "setter_loop $1: unexpected '$r'"
	[ "$1" = animate ] || [[ $r == *" changed $2 "* ]] || die "setter_loop $1: '$r'"
	echo "$r" | awk '{ print $2 }' >> "$tmp/$3"
}

av_way_none() {
	av_loop animate "$1" av_none
	av_loop attributed "$1" avset_none
}

av_way_bare() {
	spawn avbare "$build/bench/bare_uprobe" --entry "$oat" "$av_sym" "$avloop_pid"
	[[ $(reply avbare) == ready* ]] || die "bare_uprobe --entry did not attach"
	spawn avsetbare "$build/bench/bare_uprobe" "$lib" "$setter_sym" "$avloop_pid"
	[[ $(reply avsetbare) == ready* ]] || die "bare_uprobe did not attach"
	av_loop animate "$1" av_bare
	av_loop attributed "$1" avset_bare
	unspawn avsetbare
	unspawn avbare
}

# av_check LOG JSON N: the round's animator_end holds all N writes, attributed exactly; with
# View names in this build (its "View names:" line at exit), to the one node, named once.
# Sets $av_names to what the round showed.
av_check() {
	local end
	end=$(grep '"type":"animator_end"' "$2" | tail -n 1)
	[[ $end == *'"target_source":"exact"'* ]] || die "animator not attributed exactly: $end"
	[[ $end == *"\"sets\":$3}"* ]] || die "the targets do not count $3 writes: $end"
	av_names=$(grep -o -m 1 'View names: .*' "$1" || true)
	[ -n "$av_names" ] || return 0
	[[ $av_names == 'View names: 1 nodes named, 0 without'* ]] ||
		die "animtrace did not name the bench node: $av_names"
	[[ $end == *'"node_class":"BenchView"'* ]] || die "no View name in the targets: $end"
}

av_way_animtrace() {
	local log=$tmp/av_animtrace.log out=$tmp/av_animtrace.jsonl
	animtrace_start "$log" "$avloop_pid" --pid "$avloop_pid" --art-oat "$oat" \
		--no-atrace-setup --stats --format json -o "$out"
	wait_for "$log" "pid $avloop_pid: end reasons from ART probes in" ||
		die "animtrace attached no ART probes: $(cat "$log")"
	! grep -q 'animateValue not AOT-compiled' "$log" || die "no animateValue probes: $(cat "$log")"
	av_loop animate "$1" av_animtrace
	av_loop attributed "$1" avset_animtrace
	wait_stat "$log" 'property changes' "$1" ||
		die "animtrace saw $(last_stat "$log" 'property changes') of $1 changes"
	# One more stats line: the ART records of the loop are behind the changes in the ring.
	sleep 1.1
	[ "$(last_stat "$log" lost)" = 0 ] || die "animtrace lost records: $(grep stats: "$log" | tail -n 1)"
	animtrace_stop
	av_check "$log" "$out" "$1"
	rm -f "$log" "$out"
}

av_rounds() {
	av_loop animate 100000 av_warm # warm-up: page faults, caches, CPU frequency
	av_loop attributed 100000 av_warm
	rotate "$art_rounds" av_way_ $((art_calls / art_rounds)) none bare animtrace
}

# av_row FILE LABEL: "| label | median | best | per round |".
av_row() {
	printf '| %s | %s | %s | %s |\n' "$2" "$(median < "$tmp/$1")" "$(minimum < "$tmp/$1")" \
		"$(words < "$tmp/$1")"
}

added() { awk -v a="$1" -v n="$2" 'BEGIN { printf "%.0f", a - n }'; }

bench_art() {
	local av_addr load_start
	load_start=$(cut -d" " -f1-3 /proc/loadavg)
	lib=$(readlink -f "$build/sim/libhwui.so")
	oat=$(readlink -f "$build/sim/boot-framework.oat")
	av_addr=$("$build/bench/bare_uprobe" "$oat" "$av_sym") || die "no $av_sym in $oat"
	rm -f "$tmp"/av_* "$tmp"/avset_*
	spawn avloop "$build/bench/setter_loop" "$lib" "$oat"
	[[ $(reply avloop) == ready* ]] || die "setter_loop did not start: $(cat "$tmp/avloop.err")"
	av_rounds
	unspawn avloop
	av_none=$(median < "$tmp/av_none")
	av_bare=$(median < "$tmp/av_bare")
	av_at=$(median < "$tmp/av_animtrace")
	avset_none=$(median < "$tmp/avset_none")
	avset_bare=$(median < "$tmp/avset_bare")
	avset_at=$(median < "$tmp/avset_animtrace")
	r_av=$(ratio "$av_at" "$av_bare")
	r_avset=$(ratio "$avset_at" "$avset_bare")
	cat <<EOT
## Per-animateValue-call overhead, and setter calls with names and attribution (live)

Measured $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load average at start $load_start, with $bin.
\`bench/setter_loop LIBHWUI OAT\` dlopens the simulator's stripped \`libhwui.so\` and its
\`boot-framework.oat\` (ART-named methods in MiniDebugInfo, reached through
\`art_fixture_methods()\` as animsim does), creates one node (\`com.example.bench.BenchView\`)
and one animator object (identity hash $((0x0bec4a1)) in its lock word). One process, $art_calls calls
per way and loop in $art_rounds rounds of $((art_calls / art_rounds)), the ways rotated each round. Per round and way:

- animateValue: \`animate N\`, N calls of \`ValueAnimator.animateValue\` ($av_sym,
  $av_addr) with no update listener;
- setter, attributed: \`attributed N\`: \`S|pid|animator|cookie\`, one \`animateValue\` whose
  update listener makes N \`setAlpha\` calls (timed alone, alternating 0.25/0.75: all changes),
  \`F|pid|animator|cookie\`. With animtrace every write is the animator's (exact attribution)
  and, with View names, its node is shown by the class name read from the RenderNode.

Ways:

- no probes;
- bare: \`bench/bare_uprobe --entry OAT $av_sym PID\` (an empty entry-only uprobe, the kind
  animtrace's ART probes are) and \`bench/bare_uprobe LIB setter PID\` (empty uprobe+uretprobe
  on setAlpha), both attached for the round;
- animtrace: \`animtrace --pid PID --art-oat OAT --no-atrace-setup --stats --format json -o FILE\`
  (setter probes on all 10 setters, the ART probes on start/cancel/end and both animateValue
  methods), started once per round, timed after its "ready", "tracing" and \`pid PID: end
  reasons from ART probes in OAT\` lines. Every round checked: the
  stats count every change, 0 lost, and the round's \`animator_end\` has
  \`"target_source":"exact"\` and \`"sets"\` equal to N. View names:
  $(if [ -n "$av_names" ]; then echo "on; every round checked \`\"node_class\":\"BenchView\"\` and, at exit,
  \`$av_names\`."; else echo "**not in this build** (no \"View names:\" line at exit,
  \`node_class\` null): these rows are attribution without names."; fi)

| way | median ns/call | best ns/call | per round (ns/call, run order) |
|---|---:|---:|---|
$(av_row av_none "animateValue, no probes")
$(av_row av_bare "animateValue, bare entry uprobe")
$(av_row av_animtrace "animateValue, animtrace")
$(av_row avset_none "setter (attributed), no probes")
$(av_row avset_bare "setter (attributed), bare uprobe+uretprobe")
$(av_row avset_animtrace "setter, animtrace with $([ -n "$av_names" ] && echo "names and ")attribution")

Ratios of medians, animtrace / bare: animateValue **$r_av**, setter with ${av_names:+names and }attribution
**$r_avset**. Cost added per call over no probes: animateValue bare $(added "$av_bare" "$av_none") ns,
animtrace $(added "$av_at" "$av_none") ns; setter bare $(added "$avset_bare" "$avset_none") ns, animtrace $(added "$avset_at" "$avset_none") ns.
(The per-setter-call table above, from the full run, has animtrace with \`--no-art\`.)

EOT
}

# art_only: BENCH_ONLY=art; the section above replaces its namesake in results.md (or goes
# before the marker section), the rest of the file is left as it is.
art_only() {
	local heading
	bench_art > "$tmp/art.md"
	heading=$(head -n 1 "$tmp/art.md")
	[ -f "$results" ] || : > "$results"
	awk -v h="$heading" -v sec="$tmp/art.md" '
		function put() { while ((getline l < sec) > 0) print l; done = 1 }
		$0 == h { skip = 1; put(); next }
		skip && /^## / { skip = 0 }
		skip { next }
		!done && /^## Marker capture rate/ { put() }
		{ print }
		END { if (!done) put() }' "$results" > "$tmp/results.new"
	mv "$tmp/results.new" "$results"
}
# ---- marker capture rate (issue 7) ------------------------------------------------------
# One marker_flood process; per rate and ring size a fresh animtrace --pid on it. Each run
# waits until the stats lines account for every marker written (or 3 s), then reads the
# JSON summary's "drops" and the last stats line.
marker_rates=${BENCH_MARKER_RATES:-10000 50000 100000 200000 400000}
marker_secs=${BENCH_MARKER_SECS:-3}
small_ring=64K

# marker_run RATE RING: appends "rate ring achieved written captured drops lost ringfull
# vmhwm_kb" to $tmp/markers.
marker_run() {
	local rate=$1 ring=$2 log=$tmp/marker.log out=$tmp/marker.jsonl r written achieved i
	local captured drops hwm
	animtrace_start "$log" "$flood_pid" --pid "$flood_pid" --no-art --no-atrace-setup --stats \
		--buffer-size "$ring" --format json -o "$out"
	echo "flood $rate $marker_secs" >&"$flood_in"
	r=$(reply flood)
	written=$(echo "$r" | awk '{ print $2 }')
	echo "$r" | awk '{ print $8 }' > "$tmp/flood_bytes"
	achieved=$(echo "$r" | awk '{ print $6 }')
	# Until the stats account for every marker (seen or lost), 3 s at most; then one more
	# stats line so the counts are final.
	for ((i = 0; i < 150; i++)); do
		(($(last_stat "$log" markers) + $(last_stat "$log" lost) >= written)) && break
		sleep 0.02
	done
	sleep 1.1
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$at_pid/status" 2> /dev/null || echo 0)
	animtrace_stop
	captured=$(last_stat "$log" markers)
	drops=$(grep -o '"drops":[0-9]*' "$out" | tail -n 1 | cut -d: -f2)
	echo "$rate $ring $achieved $written $captured ${drops:-?} $(last_stat "$log" lost)" \
		"$(last_stat "$log" 'ring full') ${hwm:-0}" >> "$tmp/markers"
	grep ' stats: cpu' "$log" | sed 's/^[0-9]* //' > "$tmp/marker_cpu_${rate}_$ring"
	rm -f "$log" "$out"
}

marker_table() {
	awk '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8 }' \
		"$tmp/markers"
}

bench_marker_rate() {
	local rate rss sample
	: > "$tmp/markers"
	spawn flood "$build/bench/marker_flood"
	[[ $(reply flood) == ready* ]] || die "marker_flood did not start: $(cat "$tmp/flood.err")"
	for rate in $marker_rates; do
		marker_run "$rate" 8M
	done
	for rate in $marker_rates; do
		marker_run "$rate" "$small_ring"
	done
	unspawn flood
	# Highest requested rate with nothing lost and every marker seen (default ring).
	best=$(awk '$2 == "8M" && $6 == 0 && $7 == 0 && $5 == $4 { r = $1 } END { print r + 0 }' \
		"$tmp/markers")
	best_achieved=$(awk -v b="$best" '$2 == "8M" && $1 == b { print $3 }' "$tmp/markers")
	r100=$(awk '$2 == "8M" && $1 == 100000 { print $6 + $7 }' "$tmp/markers")
	rss=$(awk '$2 == "8M" && $1 == 100000 { print $9 }' "$tmp/markers")
	rss_100k=$rss
	sample=$(awk -v s="$small_ring" '$2 == s && $7 > 0 { print $1; exit }' "$tmp/markers")
	cat <<EOT
## Marker capture rate (live)

\`bench/marker_flood\` writes libcutils-format markers to trace_marker on one fd, one write()
each: \`B|<pid>|bench:marker_flood xxx..\` (40 bytes) then \`E|<pid>\`, alternating (mean
$(cat "$tmp/flood_bytes") bytes), paced on 1 ms absolute deadlines for ${marker_secs} s per rate. For each
rate a fresh \`animtrace --pid PID --no-art --no-atrace-setup --stats --buffer-size RING
--format json -o FILE\` (JSON to a scratch file instead of /dev/null, to read the summary
record) is attached first; after the flood it runs until its stats lines count every
marker written (or 3 s more), then gets SIGINT. "achieved" is what the writer managed
(markers/s), "captured" the markers animtrace's stats counted, "drops" the summary
record's \`drops\`, "lost" and "ring full" the last stats line (\`N lost (ring full N, ...)\`).

| rate asked (/s) | ring | achieved (/s) | written | captured | drops (JSON) | lost (stats) | ring full (stats) |
|---:|---|---:|---:|---:|---:|---:|---:|
$(marker_table)

Highest rate with zero drops and every marker captured (default 8M ring): **$best/s asked,
${best_achieved:-0}/s achieved**$(verdict "${best_achieved:-0} < 0.9 * $best" " (the writer, not animtrace, was the limit: it could not produce more on this VM)" ""). Target (zero drops at 100,000 markers/s):
$(verdict "${r100:-1} == 0" "met" "missed: ${r100:-?} markers lost at 100,000/s").
Past it, or with a ${small_ring} ring, drops show as the summary record's \`"drops"\`, in each stats line
(\`N lost (ring full N, read faults N)\`) and per CPU at exit; e.g. with the ${small_ring} ring at
${sample:-(none lost)}/s:

\`\`\`
$( [ -n "$sample" ] && cat "$tmp/marker_cpu_${sample}_${small_ring}")
\`\`\`

EOT
}

# ---- attach time and peak RSS (issue 7) -------------------------------------------------
# Start until the "ready" line, with the setter probes (symbols of the stripped libhwui.so
# read from its MiniDebugInfo: xz inflate, getters decoded) and without (--no-props).
bench_attach() {
	local i log=$tmp/attach.log props
	spawn loop "$build/bench/setter_loop" "$(readlink -f "$build/sim/libhwui.so")"
	[[ $(reply loop) == ready* ]] || die "setter_loop did not start"
	# Alternating, so both see the same background load.
	for ((i = 0; i < runs; i++)); do
		for props in --props --no-props; do
			animtrace_start "$log" "$loop_pid" --pid "$loop_pid" --no-art \
				--no-atrace-setup "$props" --format json -o /dev/null
			echo "$at_attach_ns" >> "$tmp/attach_${props//[-]/}"
			animtrace_stop
			rm -f "$log"
		done
	done
	unspawn loop
	attach_props=$(median < "$tmp/attach_props")
	attach_noprops=$(median < "$tmp/attach_noprops")
	cat <<EOT
## Attach time and peak RSS (live)

Attach time: from starting \`animtrace --pid PID --no-art --no-atrace-setup --format json -o
/dev/null\` until its "ready" line (BPF loaded and attached, the target found in /proc, its
libhwui.so located in its maps and read: .dynsym, .symtab and the xz MiniDebugInfo, getters
decoded, 10 setter uprobes + uretprobes attached), on a setter_loop process.

| run | median (ms) | best (ms) | all (ms, run order) | N |
|---|---:|---:|---|---:|
| with setter probes | $(ms "$attach_props") | $(ms "$(minimum < "$tmp/attach_props")") | $(awk '{ printf "%.1f ", $1 / 1e6 }' "$tmp/attach_props") | $runs |
| --no-props | $(ms "$attach_noprops") | $(ms "$(minimum < "$tmp/attach_noprops")") | $(awk '{ printf "%.1f ", $1 / 1e6 }' "$tmp/attach_noprops") | $runs |

Symbol loading and probe attachment for the setters add $(awk -v a="$attach_props" -v b="$attach_noprops" 'BEGIN { printf "%.1f", (a - b) / 1e6 }') ms (median difference).

Peak RSS of animtrace during the 100,000 markers/s run (default 8M ring): VmHWM
**${rss_100k:-?} KiB**, read from /proc/PID/status just before SIGINT. For each marker run
(ring, rate: KiB): $(awk '{ printf "%s%s %s: %s", (NR > 1 ? "; " : ""), $2, $1, $9 }' "$tmp/markers").

EOT
}

# ---- annotation delay (issue 14) ---------------------------------------------------------
# animtrace --annotate on the simulator at 120 frames/s with 20 property writes per frame
# (the soak scenario: its animators start and end every 20 frames). Each annotation's delay
# is from the BPF timestamp of the record that caused it to its write() to trace_marker;
# animtrace puts p50/p99/max in its JSON summary. tracing_on is set for the run (a write is
# only timed when the kernel took it) and restored.
annot_frames=${BENCH_ANNOTATE_FRAMES:-1200}
annot_tracefs=/sys/kernel/tracing

annot_field() { grep -o '"annotation_delay_ns":{[^}]*}' "$1" | tail -n 1 | grep -o "\"$2\":[0-9]*" |
	cut -d: -f2; }

bench_annotate() {
	local log=$tmp/annot.log out=$tmp/annot.jsonl name=com.example.benchannot sim_ns t0
	annot_on=$(cat "$annot_tracefs/tracing_on")
	echo 1 > "$annot_tracefs/tracing_on"
	"$bin" --proc "$name" --annotate --no-atrace-setup --format json -o "$out" \
		2> >(stamp "$log") &
	at_pid=$!
	pids+=("$at_pid")
	wait_for "$log" ' animtrace: ready' || die "animtrace did not get ready: $(cat "$log")"
	t0=$(now_ns)
	"$build/sim/animsim" --name "$name" --scenario soak --fps 120 --props-per-frame 20 \
		--frames "$annot_frames" > /dev/null 2> "$tmp/annot_sim.err" ||
		die "animsim failed: $(cat "$tmp/annot_sim.err")"
	sim_ns=$(($(now_ns) - t0))
	wait_for "$log" "$name \\(pid [0-9]+\\) exited" || die "animtrace missed the exit: $(cat "$log")"
	animtrace_stop
	echo "$annot_on" > "$annot_tracefs/tracing_on"
	annot_on=
	annot_n=$(annot_field "$out" count)
	annot_p50=$(annot_field "$out" p50)
	annot_p99=$(annot_field "$out" p99)
	annot_max=$(annot_field "$out" max)
	[ -n "$annot_n" ] || die "no annotation_delay_ns in the summary: $(tail -n 1 "$out")"
	local frames props line
	frames=$(grep -c '"type":"frame"' "$out")
	props=$(grep -c '"type":"frame_props"' "$out")
	line=$(grep ' animtrace: annotations: ' "$log" | head -n 1 | sed 's/^[0-9]* //')
	cat <<EOT
## Annotation delay (live, --annotate)

\`animtrace --proc NAME --annotate --no-atrace-setup --format json -o FILE\` on
\`animsim --scenario soak --fps 120 --props-per-frame 20 --frames $annot_frames\` ($(ms "$sim_ns") ms;
animtrace saw $frames frames and $props node-frames of property values), with tracing_on 1.
Delay: from the BPF timestamp of the record that caused an annotation (the doFrame's end for
a frame's counters, the S/F marker for a slice) to the return of its write() to trace_marker
(CLOCK_MONOTONIC), over every annotation written. The reader is woken at every record with
--annotate (not on the 100 ms tick).

| annotations | p50 (ms) | p99 (ms) | max (ms) |
|---:|---:|---:|---:|
| $annot_n | $(ms "$annot_p50") | $(ms "$annot_p99") | $(ms "$annot_max") |

Target p99 < 2 ms: $(verdict "$annot_p99 < 2000000" met "missed ($(ms "$annot_p99") ms)").
animtrace's own line at exit: \`$line\`

EOT
}

# ---- --refresh: cost per probe hit and hits per frame (issue 15) ------------------------
# One setter_loop process with the fixture libhwui.so and libandroid_runtime.so dlopen'ed
# calls finishRecording (the redraw probe's function) and nativeScheduleVsync (the vsync
# probe's) in rounds; each round attaches one way, runs both loops, detaches; the ways take
# turns (rotated order) as in the setter bench. Then the simulator's refresh scenario under
# animtrace --refresh for the records per frame.
redraw_sym=_ZN7androidL46android_view_DisplayListCanvas_finishRecordingEll
vsync_sym=_ZN7androidL19nativeScheduleVsyncEP7_JNIEnvP7_jclassl
refresh_calls=${BENCH_REFRESH_CALLS:-1000000}
refresh_rounds=${BENCH_REFRESH_ROUNDS:-5}

# refresh_loop FN N FILE: N calls of FN (redraw | vsync); appends ns/call to $tmp/rf_FILE.
refresh_loop() {
	local r
	echo "$1 $2" >&"$loop_in"
	r=$(reply loop)
	[[ $r == "ns_per_call "*" calls $2" ]] || die "setter_loop: unexpected '$r'"
	echo "$r" | awk '{ print $2 }' >> "$tmp/rf_$3"
}

# rway_none / rway_bare / rway_animtrace N: both loops of N calls with that way's probes.
rway_none() {
	refresh_loop redraw "$1" redraw_none
	refresh_loop vsync "$1" vsync_none
}

rway_bare() {
	spawn bare "$build/bench/bare_uprobe" --entry "$lib" "$redraw_sym" "$loop_pid"
	[[ $(reply bare) == ready* ]] || die "bare_uprobe did not attach to $redraw_sym"
	spawn bare2 "$build/bench/bare_uprobe" --entry "$rt_lib" "$vsync_sym" "$loop_pid"
	[[ $(reply bare2) == ready* ]] || die "bare_uprobe did not attach to $vsync_sym"
	refresh_loop redraw "$1" redraw_bare
	refresh_loop vsync "$1" vsync_bare
	unspawn bare2
	unspawn bare
}

# animtrace --refresh, timed once both refresh probes are in; a stats line that comes after
# the loops must count nothing lost (ring full on the refresh records included).
rway_animtrace() {
	local log=$tmp/rf_animtrace.log t i
	animtrace_start "$log" "$loop_pid" --pid "$loop_pid" --refresh --no-art --no-atrace-setup \
		--stats --format json -o /dev/null
	wait_for "$log" "pid $loop_pid: frame requests from " ||
		die "animtrace attached no vsync probe: $(cat "$log")"
	grep -q "pid $loop_pid: redraws from $redraw_sym " "$log" ||
		die "animtrace attached no redraw probe: $(cat "$log")"
	refresh_loop redraw "$1" redraw_animtrace
	refresh_loop vsync "$1" vsync_animtrace
	t=$(now_ns)
	for ((i = 0; i < 150; i++)); do
		awk -v t="$t" '$1 > t && / stats: [0-9]+ markers\/s/ { f = 1 } END { exit !f }' \
			"$log" && break
		sleep 0.02
	done
	[ "$(last_stat "$log" lost)" = 0 ] || die "animtrace lost refresh records: $(tail -n 2 "$log")"
	animtrace_stop
	rm -f "$log"
}

refresh_rounds() {
	local per=$((refresh_calls / refresh_rounds)) ways=(none bare animtrace) i j
	refresh_loop redraw 100000 warm # page faults, caches, CPU frequency
	refresh_loop vsync 100000 warm
	for ((i = 0; i < refresh_rounds; i++)); do
		for ((j = 0; j < ${#ways[@]}; j++)); do
			"rway_${ways[(i + j) % ${#ways[@]}]}" "$per"
		done
	done
}

# rf_row FN WAY LABEL: "| label | median | min | over none | over bare | raw |" (medians).
rf_row() {
	local m n b
	m=$(median < "$tmp/rf_$1_$2")
	n=$(median < "$tmp/rf_$1_none")
	b=$(median < "$tmp/rf_$1_bare")
	printf '| %s | %s | %s | %s | %s | %s |\n' "$3" "$m" "$(minimum < "$tmp/rf_$1_$2")" \
		"$(awk -v a="$m" -v b="$n" 'BEGIN { printf "%.0f", a - b }')" \
		"$([ "$2" = none ] || awk -v a="$m" -v b="$b" 'BEGIN { printf "%.0f", a - b }')" \
		"$(words < "$tmp/rf_$1_$2")"
}

# The refresh scenario (tests/sim/README.md) under animtrace --refresh; the simulator plays
# once animtrace says its vsync probe is in. Sets rf_* from the JSON frames: every refresh
# record lands in its frame's "redraws" (one per View) and "vsync_requests".
refresh_storm_run() {
	local log=$tmp/rf_storm.log out=$tmp/rf_storm.jsonl name=com.example.benchrefresh sim
	"$bin" --proc "$name" --refresh --no-atrace-setup --format json -o "$out" \
		2> >(stamp "$log") &
	at_pid=$!
	pids+=("$at_pid")
	wait_for "$log" ' animtrace: ready' || die "animtrace did not get ready: $(cat "$log")"
	"$build/sim/animsim" --name "$name" --scenario refresh --frames 95 --go "$tmp/rf_go" \
		--expect "$tmp/rf_expect.jsonl" > /dev/null 2> "$tmp/rf_sim.err" &
	sim=$!
	pids+=("$sim")
	wait_for "$log" ": frame requests from " 30 || die "no vsync probe: $(cat "$log")"
	touch "$tmp/rf_go"
	wait "$sim" || die "animsim failed: $(cat "$tmp/rf_sim.err")"
	wait_for "$log" "$name \\(pid [0-9]+\\) exited" || die "animtrace missed the exit: $(cat "$log")"
	animtrace_stop
	grep -qF '"type":"refresh_storm"' "$out" || die "no refresh_storm in $out"
	read -r rf_frames rf_hits rf_max rf_sframes rf_shits rf_sredraws rf_svsync < <(awk '
		function num(k,   m) {
			if (!match($0, "\"" k "\":[0-9]+"))
				return 0
			m = substr($0, RSTART, RLENGTH)
			sub(/.*:/, "", m)
			return m + 0
		}
		/"type":"refresh_storm"/ { first = num("first_ns"); last = first + num("duration_ns") }
		/"type":"frame"/ { n++; ts[n] = num("ts_ns"); v[n] = num("vsync_requests")
			match($0, /"redraws":\[[^]]*\]/); rd = substr($0, RSTART, RLENGTH)
			r[n] = gsub(/"node":"/, "&", rd) }
		END {
			for (i = 1; i <= n; i++) {
				h = r[i] + v[i]; hits += h; if (h > max) max = h
				if (ts[i] >= first && ts[i] <= last) { sf++; sh += h; sr += r[i]; sv += v[i] }
			}
			print n, hits, max, sf, sh, sr, sv
		}' "$out")
	# Every call the simulator made reached its frame: its --expect lines count them.
	rf_want=$(grep -cE '"type":"(redraw|vsync_request)"' "$tmp/rf_expect.jsonl")
	[ "$rf_hits" = "$rf_want" ] || die "animtrace has $rf_hits refresh records, animsim made $rf_want"
}

bench_refresh() {
	local rd_at rd_none vs_at vs_none
	lib=$(readlink -f "$build/sim/libhwui.so")
	rt_lib=$(readlink -f "$build/sim/libandroid_runtime.so")
	spawn loop "$build/bench/setter_loop" "$lib" "$rt_lib"
	[[ $(reply loop) == ready* ]] || die "setter_loop did not start: $(cat "$tmp/loop.err")"
	refresh_rounds
	unspawn loop
	refresh_storm_run
	rd_at=$(median < "$tmp/rf_redraw_animtrace")
	rd_none=$(median < "$tmp/rf_redraw_none")
	vs_at=$(median < "$tmp/rf_vsync_animtrace")
	vs_none=$(median < "$tmp/rf_vsync_none")
	rf_hit_ns=$(awk -v a="$rd_at" -v b="$rd_none" -v c="$vs_at" -v d="$vs_none" \
		'BEGIN { printf "%.0f", ((a - b) + (c - d)) / 2 }')
	rf_own_rd=$(awk -v a="$rd_at" -v b="$(median < "$tmp/rf_redraw_bare")" \
		'BEGIN { printf "%.0f", a - b }')
	rf_own_vs=$(awk -v a="$vs_at" -v b="$(median < "$tmp/rf_vsync_bare")" \
		'BEGIN { printf "%.0f", a - b }')
	rf_spread_rd=$(sort -n "$tmp/rf_redraw_bare" | awk 'NR == 1 { a = $1 } { b = $1 } END { printf "%.0f", b - a }')
	rf_spread_vs=$(sort -n "$tmp/rf_vsync_bare" | awk 'NR == 1 { a = $1 } { b = $1 } END { printf "%.0f", b - a }')
	rf_hits_pf=$(awk -v h="$rf_shits" -v f="$rf_sframes" 'BEGIN { printf "%.2f", h / f }')
	rf_frame_us=$(awk -v a="$rd_at" -v b="$rd_none" -v c="$vs_at" -v d="$vs_none" \
		-v r="$rf_sredraws" -v v="$rf_svsync" -v f="$rf_sframes" \
		'BEGIN { printf "%.2f", ((a - b) * r + (c - d) * v) / f / 1000 }')
	cat <<EOT
## --refresh probes (live): cost per hit and hits per frame

Run $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $("$bin" --version 2>/dev/null | head -n 1), $bin, load average
$(cut -d" " -f1-3 /proc/loadavg) (\`BENCH_ONLY=refresh\` runs this part alone and replaces this section).

\`bench/setter_loop LIBHWUI LIBANDROID_RUNTIME\` dlopens the simulator's stripped fixture
libraries and calls \`$redraw_sym\` (redraw N: canvas i, one node) and \`$vsync_sym\`
(vsync N: receiver i); $refresh_calls calls of each per way in $refresh_rounds rounds of
$((refresh_calls / refresh_rounds)), the ways taking turns (rotated order) in one process. ns/call = loop wall
time / calls.

- no probes: nothing attached;
- bare entry uprobe: \`bench/bare_uprobe --entry\` on each function (an empty program, no
  uretprobe: --refresh's probes are entry-only), the kernel's floor;
- animtrace: \`animtrace --pid PID --refresh --no-art --no-atrace-setup --stats --format json
  -o /dev/null\` (without --stacks; its setter probes are attached too, but not hit), timed
  once its "redraws from" and "frame requests from" lines are out; every round checked: a
  stats line after the loops counts 0 lost (ring full on refresh records included). Outside
  a frame the engine keeps no count of the records, so the hit count is checked by the
  scenario run below instead (its records equal the simulator's calls).

| function, way | median ns/call | best ns/call | added over none | added over bare | per round (ns/call, run order) |
|---|---:|---:|---:|---:|---|
$(rf_row redraw none "finishRecording, no probes")
$(rf_row redraw bare "finishRecording, bare entry uprobe")
$(rf_row redraw animtrace "finishRecording, animtrace --refresh")
$(rf_row vsync none "nativeScheduleVsync, no probes")
$(rf_row vsync bare "nativeScheduleVsync, bare entry uprobe")
$(rf_row vsync animtrace "nativeScheduleVsync, animtrace --refresh")

Cost per probe hit (animtrace minus no probes, medians): finishRecording **$((${rd_at%.*} - ${rd_none%.*})) ns**,
nativeScheduleVsync **$((${vs_at%.*} - ${vs_none%.*})) ns** (mean $rf_hit_ns ns); of which animtrace's own
program, record and reader (animtrace minus the bare entry uprobe): $rf_own_rd and $rf_own_vs ns, against
a spread of $rf_spread_rd and $rf_spread_vs ns between the bare rounds (max - min): the uprobe trap
itself (about 9-10 us on this VM, as in the setter table) is nearly all of the cost.

Hits per frame: \`animtrace --proc NAME --refresh --no-atrace-setup --format json -o FILE\` on
\`animsim --scenario refresh --frames 95 --go FILE\` (played once animtrace's vsync probe is
in). Each frame's hits are its \`redraws\` entries plus its \`vsync_requests\` (a View
redrawn twice in a frame is listed once; the simulator redraws each View once).

| frames | refresh records (= animsim's calls) | max per frame | storm frames | records in the storm (redraws + requests) | per storm frame |
|---:|---:|---:|---:|---:|---:|
| $rf_frames | $rf_hits | $rf_max | $rf_sframes | $rf_shits ($rf_sredraws + $rf_svsync) | $rf_hits_pf |

At the measured cost that is $rf_frame_us us of probe time per storm frame (redraws x
finishRecording's added ns + requests x nativeScheduleVsync's).

EOT
}

# splice_section FILE: replaces the "## --refresh probes" section of FILE (or appends it)
# with stdin.
splice_section() {
	local new=$tmp/section
	cat > "$new"
	awk -v new="$new" '
		/^## --refresh probes/ { skip = 1; while ((getline l < new) > 0) print l; done = 1; next }
		skip && /^## / { skip = 0 }
		!skip { print }
		END { if (!done) while ((getline l < new) > 0) print l }' "$1" > "$1.tmp"
	mv "$1.tmp" "$1"
}

live_ok() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
	for f in setter_loop marker_flood bare_uprobe; do
		[ -x "$build/bench/$f" ] || { echo "no $build/bench/$f"; return 1; }
	done
	[ -r "$build/sim/libhwui.so" ] || { echo "no $build/sim/libhwui.so"; return 1; }
	[ -r "$build/sim/boot-framework.oat" ] || { echo "no $build/sim/boot-framework.oat"; return 1; }
	return 0
}

summary_art() {
	cat <<EOT
bench: animateValue ns/call (median): none $av_none, bare entry uprobe $av_bare, animtrace $av_at (animtrace/bare $r_av)
bench: setter with ${av_names:+names and }attribution ns/call (median): none $avset_none, bare $avset_bare, animtrace $avset_at (animtrace/bare $r_avset)
EOT
}

refresh_summary() {
	cat <<EOT
bench: --refresh ns/call (median) finishRecording none $(median < "$tmp/rf_redraw_none"), bare $(median < "$tmp/rf_redraw_bare"), animtrace $(median < "$tmp/rf_redraw_animtrace"); nativeScheduleVsync none $(median < "$tmp/rf_vsync_none"), bare $(median < "$tmp/rf_vsync_bare"), animtrace $(median < "$tmp/rf_vsync_animtrace")
bench: --refresh $rf_hit_ns ns per hit (animtrace over bare: finishRecording $rf_own_rd, nativeScheduleVsync $rf_own_vs); storm: $rf_hits_pf records per frame ($rf_shits in $rf_sframes frames), $rf_frame_us us per frame
EOT
}

summary() {
	cat <<EOT
bench: replay $(mbps "$(stat -c %s "$trace")" "$replay_ns") MB/s (target >= 100)
bench: fit_run median us per run: spring $fit_spring, fling $fit_fling, ValueAnimator $fit_anim; fit_interpolator $fit_marked
EOT
	[ -n "${at:-}" ] || return 0
	cat <<EOT
bench: setter ns/call (median): none $none, bare $bare, animtrace $at, bpftrace ${bt:-n/a}
bench: animtrace/bare $r_bare (target <= 1.25), animtrace/bpftrace $r_bt (target <= 1.00)
$(summary_art)
bench: markers: zero drops up to $best/s asked (${best_achieved:-0}/s achieved); lost at 100k/s: ${r100:-?} (target 0)
bench: attach $(ms "$attach_props") ms with setter probes, $(ms "$attach_noprops") ms without; peak RSS at 100k/s ${rss_100k:-?} KiB
bench: --annotate delay at 120 fps x 20 props: p50 $(ms "${annot_p50:-0}") ms, p99 $(ms "${annot_p99:-0}") ms, max $(ms "${annot_max:-0}") ms over ${annot_n:-0} annotations (target p99 < 2 ms)
EOT
	refresh_summary
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
	local why
	ensure_gnu_time
	if [ "${BENCH_ONLY:-}" = replay ]; then
		bench_replay
		[ -n "${BENCH_BASELINE:-}" ] &&
			echo "bench: replay / baseline time: $(ratio "$replay_ns" "$base_ns")"
		return 0
	fi
	if [ "${BENCH_ONLY:-}" = art ]; then
		why=$(live_ok) || die "art: $why"
		art_only
		summary_art
		echo "bench: its section is in $results"
		return 0
	fi
	if [ "${BENCH_ONLY:-}" = refresh ]; then
		why=$(live_ok) || die "refresh: $why"
		bench_refresh > "$tmp/refresh.md" # not a pipe: its numbers feed the summary
		cat "$tmp/refresh.md"
		splice_section "$results" < "$tmp/refresh.md"
		refresh_summary
		return 0
	fi
	if [ "${BENCH_ONLY:-}" = annotate ]; then
		why=$(live_ok) || die "annotate: $why"
		bench_annotate
		return 0
	fi
	{
		machine
		bench_replay
		bench_fit
		if why=$(live_ok); then
			bench_setter_overhead
			bench_art
			bench_marker_rate
			bench_attach
			bench_annotate
			bench_refresh
		else
			printf '## Live measurements\n\nSkipped: %s.\n' "$why"
		fi
	} > "$tmp/results.md"
	mv "$tmp/results.md" "$results"
	summary
	echo "bench: every number in $results"
}

main

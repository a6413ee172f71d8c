#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The soak run (make soak): animsim at 120 frames/s with 50 property sets per frame for
# SOAK_SECONDS (600), traced by animtrace --format json --stats; animtrace's VmRSS is sampled
# every 10 s; soak_check then asserts a flat RSS, zero drops and every lifecycle accounted
# for. usage: soak.sh BUILD_DIR SECONDS; root only. Files stay in $SOAK_DIR (a temp dir).
set -u

build=${1:?usage: soak.sh BUILD_DIR SECONDS}
secs=${2:-600}
name=com.example.soak.$$ # unique to this run: no other run's simulator is traced
dir=${SOAK_DIR:-$(mktemp -d /tmp/animtrace-soak.XXXXXX)}
mkdir -p "$dir"
at= sim=
cleanup() {
	[ -n "$sim" ] && kill "$sim" 2>/dev/null
	[ -n "$at" ] && kill -INT "$at" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM

[ "$(id -u)" = 0 ] || { echo "soak: needs root (live BPF)" >&2; exit 1; }
"$build/animtrace" --proc "$name" --format json -o "$dir/out.jsonl" --stats \
	--no-atrace-setup 2>"$dir/err.txt" &
at=$!
for _ in $(seq 200); do
	grep -q 'animtrace: ready' "$dir/err.txt" && break
	kill -0 "$at" 2>/dev/null || { cat "$dir/err.txt" >&2; exit 1; }
	sleep 0.1
done
# The simulator plays on go, once animtrace has attached its probes: all frames count.
"$build/sim/animsim" --name "$name" --scenario soak --fps 120 --props-per-frame 50 \
	--go "$dir/go" \
	--frames $((secs * 120)) --linger-ms 2000 --expect "$dir/expect.jsonl" &
sim=$!
for _ in $(seq 1200); do # at most ~2 minutes
	grep -q 'end reasons from ART probes in' "$dir/err.txt" && break
	kill -0 "$at" 2>/dev/null || { cat "$dir/err.txt" >&2; exit 1; }
	sleep 0.1
done
grep -q 'end reasons from ART probes in' "$dir/err.txt" ||
	{ echo "soak: animtrace did not attach its probes:" >&2; cat "$dir/err.txt" >&2; exit 1; }
: >"$dir/go"
echo "soak: ${secs}s at 120 frames/s, 50 property sets per frame; files in $dir"
: >"$dir/rss.txt"
t=0
while kill -0 "$sim" 2>/dev/null; do
	sleep 1
	t=$((t + 1))
	if [ $((t % 10)) = 0 ]; then
		awk '/^VmRSS:/ {print $2}' "/proc/$at/status" >>"$dir/rss.txt"
	fi
done
wait "$sim"
simrc=$?
sim=
kill -INT "$at"
wait "$at"
atrc=$?
at=
echo "soak: animsim exit $simrc, animtrace exit $atrc"
"$build/tests/soak_check" "$dir/out.jsonl" "$dir/expect.jsonl" "$dir/err.txt" \
	"$dir/rss.txt" || exit 1
[ "$simrc" = 0 ] && [ "$atrc" = 0 ]

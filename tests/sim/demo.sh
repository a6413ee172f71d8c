#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `make demo` as root: animtrace traces three simulated apps live, one after the other, while
# a decoy app (which must not appear) plays too: SystemUI's animators (View names, end
# reasons, call stacks), a launcher's spring and fling (no markers: found and fitted from the
# property values) and a feed that drops frames (smoothness and its causes).
# usage: demo.sh BUILD (e.g. build/x86)
set -eu

build=${1:?usage: demo.sh BUILD}
sim="$build/sim/animsim"
tmp=$(mktemp -d)
trap 'kill "$tracer" 2>/dev/null || true; rm -rf "$tmp"' EXIT

"$build/animtrace" --proc com.android.systemui,com.android.launcher3,com.example.feed \
	--stacks 2>"$tmp/err" &
tracer=$!

alive() { kill -0 "$tracer" 2>/dev/null || { cat "$tmp/err" >&2; exit 1; }; }

# Each app waits for its go file, written once animtrace has attached its probes to it.
play() { # PKG ANIMSIM_ARGS...
	pkg=$1
	shift
	rm -f "$tmp/go"
	"$sim" --name "$pkg" --go "$tmp/go" "$@" &
	app=$! pid=
	until [ -n "$pid" ]; do
		alive
		pid=$(sed -n "s/^animtrace: tracing $pkg (pid \([0-9]*\))$/\1/p" "$tmp/err")
		sleep 0.05
	done
	until grep -q "pid $pid: end reasons from ART probes" "$tmp/err"; do
		alive
		sleep 0.05
	done
	touch "$tmp/go"
	wait "$app"
}

play com.android.systemui --decoy com.example.decoy
play com.android.launcher3 --scenario physics
play com.example.feed --scenario jank --frames 40
kill -INT "$tracer"
wait "$tracer" || true
grep -v '^animtrace: pid .*: node ' "$tmp/err" >&2 || true

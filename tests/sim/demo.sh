#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `make demo` as root: animtrace traces the simulated app live while a decoy app, which must
# not appear, plays the same scenario. usage: demo.sh BUILD (e.g. build/x86)
set -eu

build=${1:?usage: demo.sh BUILD}
pkg=com.android.systemui

"$build/animtrace" --proc "$pkg" --duration 4 &
tracer=$!
sleep 1 # let the probes attach before the app "starts"
"$build/sim/animsim" --name "$pkg" --decoy com.example.decoy --linger-ms 500
wait "$tracer"

#!/bin/bash
# Replays every capture in a directory with two animtrace binaries, in every output mode
# (boxes, --frames, --format json, --trace-out) and with --proc/--pid choices taken from
# what each capture holds, and reports any difference in stdout, stderr, exit status or the
# --trace-out file. For a parser change that must not change what a replay says.
#
#   tests/replay/same_output.sh REF_BINARY NEW_BINARY [CAPTURE_DIR] [EXTRA_CAPTURE...]
set -u
ref=$1 new=$2 dir=${3:-../shared/testdata/traces}
shift $(($# < 3 ? $# : 3))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=0 diffs=0

# One replay with both binaries; args after the capture.
one() {
	local cap=$1; shift
	local b out
	for b in ref new; do
		out=$work/$b
		local bin=$ref
		[ $b = new ] && bin=$new
		"$bin" --replay "$cap" --color=never "$@" >"$out.stdout" 2>"$out.stderr" \
			</dev/null
		echo $? >"$out.rc"
		if [[ " $* " == *" --trace-out "* ]]; then
			[ -f "$work/trace.json" ] && mv "$work/trace.json" "$out.trace" ||
				: >"$out.trace"
		fi
	done
	runs=$((runs + 1))
	for f in stdout stderr rc trace; do
		[ -e "$work/ref.$f" ] || continue
		if ! cmp -s "$work/ref.$f" "$work/new.$f"; then
			diffs=$((diffs + 1))
			echo "DIFF ($f): $(basename "$cap") $*"
			diff "$work/ref.$f" "$work/new.$f" | head -5
		fi
	done
	rm -f "$work"/ref.* "$work"/new.*
}

# Names and pids a capture holds, from the reference binary's own error messages.
pids_of() {
	"$ref" --replay "$1" --pid 2147483647 2>&1 >/dev/null | tr ',' '\n' |
		sed -n 's/.*(\([0-9]*\))$/\1/p; s/^ *\([0-9][0-9]*\)$/\1/p' | head -${2:-3}
}
names_of() {
	{ "$ref" --replay "$1" --pid 2147483647 2>&1 >/dev/null
	  "$ref" --replay "$1" --proc zz.no.such.proc 2>&1 >/dev/null; } | tr ',' '\n' |
		sed -n 's/^.*: \(.*\) ([0-9]*)$/\1/p; s/^ \(.*\) ([0-9]*)$/\1/p' | head -${2:-3}
}

for cap in "$dir"/* "$@"; do
	[ -f "$cap" ] || continue
	for mode in "" "--frames" "--format json" "--trace-out $work/trace.json"; do
		one "$cap" $mode
	done
	mapfile -t pids < <(pids_of "$cap" 4)
	mapfile -t names < <(names_of "$cap" 3)
	for pid in "${pids[@]}" 2147483647; do
		one "$cap" --pid "$pid"
		one "$cap" --pid "$pid" --format json
	done
	[ ${#pids[@]} -ge 2 ] && one "$cap" --pid "${pids[0]},${pids[1]}" --frames
	for name in "${names[@]}" zz.no.such.proc; do
		one "$cap" --proc "$name"
		one "$cap" --proc "$name" --format json
		one "$cap" --proc "$name:*" --trace-out "$work/trace.json"
	done
	[ ${#names[@]} -ge 1 ] && [ ${#pids[@]} -ge 1 ] &&
		one "$cap" --proc "${names[0]}" --pid "${pids[-1]}" --format json
	# standard input: a pipe is spooled, then replayed like the file
	cat "$cap" | "$ref" --replay - --format json >"$work/ref.stdout" 2>"$work/ref.stderr"
	cat "$cap" | "$new" --replay - --format json >"$work/new.stdout" 2>"$work/new.stderr"
	runs=$((runs + 1))
	cmp -s "$work/ref.stdout" "$work/new.stdout" && cmp -s "$work/ref.stderr" "$work/new.stderr" ||
		{ diffs=$((diffs + 1)); echo "DIFF: $(basename "$cap") from standard input"; }
done
echo "same_output: $runs replays, $diffs differences"
[ $diffs -eq 0 ]

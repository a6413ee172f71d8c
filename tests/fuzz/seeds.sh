#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Builds the seed corpora of the fuzz targets from the real captures and binaries in TESTDATA.
# Usage: seeds.sh OUT_DIR TESTDATA [ELF...]. The ELF files (small fixtures built here) join
# the elfsym seeds. Writes OUT_DIR/<target>/ (one input per file); the
# samples are evenly spaced and deterministic. Never commit the output (it is test data).
set -eu

out=$1
td=$2
shift 2
tr=$td/traces
an=$td/android

for f in "$tr/perfetto-example-30s.atrace-payloads.txt" "$tr/antutu-2018.ftrace.txt" \
	 "$tr/antutu-2018.systrace.html" "$tr/flyme-launcher-scroll-2019.ftrace.txt" \
	 "$tr/miui-launcher-2021.ftrace.txt" "$an/android9-arm64-libcutils.so" \
	 "$tr/pixel6a-android13-startup.perfetto-trace"; do
	[ -r "$f" ] || { echo "seeds.sh: missing $f (set TESTDATA)" >&2; exit 1; }
done

# sample FILE N DIR PREFIX: about N evenly spaced lines of FILE (or of stdin when FILE is
# -), one per file, without their newline.
sample() {
	awk -v n="$2" -v dir="$3" -v pre="$4" -v total="$5" '
		BEGIN { step = int(total / n); if (step < 1) step = 1 }
		NR % step == 0 {
			f = sprintf("%s/%s%06d", dir, pre, NR)
			printf "%s", $0 > f
			close(f)
		}
	' "$1"
}

lines() { wc -l < "$1"; }

rm -rf "$out.tmp"
mkdir -p "$out.tmp/marker" "$out.tmp/capture_line" "$out.tmp/capture_file" \
	 "$out.tmp/elfsym" "$out.tmp/insn" "$out.tmp/pftrace" "$out.tmp/replay_text" \
	 "$out.tmp/replay_pftrace" "$out.tmp/animname"

# marker: raw payloads, plus the payloads of real tracing_mark_write lines.
p=$tr/perfetto-example-30s.atrace-payloads.txt
sample "$p" 300 "$out.tmp/marker" pf "$(lines "$p")"
grep -h 'tracing_mark_write: ' "$tr/antutu-2018.ftrace.txt" \
	"$tr/flyme-launcher-scroll-2019.ftrace.txt" |
	sed 's/.*tracing_mark_write: //' > "$out.tmp/payloads"
sample "$out.tmp/payloads" 100 "$out.tmp/marker" ft "$(lines "$out.tmp/payloads")"
printf 'E\n' > "$out.tmp/marker/bare-e"
printf 'H|1|track|7\n' > "$out.tmp/marker/h14"
printf 'G|1|track|name|-9223372036854775808' > "$out.tmp/marker/g-min"

# capture_line: any lines (headers, sched events) and marker lines of the three layouts.
for t in antutu-2018 flyme-launcher-scroll-2019 miui-launcher-2021; do
	f=$tr/$t.ftrace.txt
	sample "$f" 60 "$out.tmp/capture_line" "$t-any" "$(lines "$f")"
	grep 'tracing_mark_write: \|print: ' "$f" > "$out.tmp/marks" || true
	sample "$out.tmp/marks" 60 "$out.tmp/capture_line" "$t-mark" "$(lines "$out.tmp/marks")"
done
head -n 11 "$tr/antutu-2018.ftrace.txt" > "$out.tmp/capture_line/header"

# capture_file: the head of each text capture and a cut-down systrace .html.
for t in antutu-2018 flyme-launcher-scroll-2019 miui-launcher-2021; do
	head -n 150 "$tr/$t.ftrace.txt" > "$out.tmp/capture_file/$t"
done
h=$tr/antutu-2018.systrace.html
tag=$(grep -n '<script class="trace-data" type="application/text">' "$h" | tail -n 1 | cut -d: -f1)
{
	printf '<!DOCTYPE html>\n<html>\n<body>\n  <script>\n  </script>\n'
	sed -n "$((tag - 1)),$((tag + 120))p" "$h"
	printf '  </script>\n<!-- END TRACE -->\n</body>\n</html>\n'
} > "$out.tmp/capture_file/systrace.html"
pf=$tr/pixel7pro-android13-nowinandroid.perfetto-trace
head -c 4096 "$pf" > "$out.tmp/capture_file/perfetto-4k"
head -c 65536 "$pf" > "$out.tmp/capture_file/perfetto-64k"

# elfsym: the real Android binaries, the big ones as they are.
cp "$an"/*.so "$an"/*.oat "$out.tmp/elfsym/"
for f in "$@"; do
	cp "$f" "$out.tmp/elfsym/fixture-$(basename "$f")"
done
chmod u+w "$out.tmp/elfsym/"*

# insn: byte 0 picks the machine (even: arm64, odd: x86-64), the rest is the code.
x() {
	f=$out.tmp/insn/$1
	shift
	: > "$f"
	for b in "$@"; do
		printf "\\$(printf %03o "0x$b")" >> "$f"
	done
}
x a64-ldr500 00 00 f4 41 bd c0 03 5f d6
x a64-bti 00 5f 24 03 d5 00 f4 41 bd c0 03 5f d6
x a64-str 00 00 08 00 bd 00 08 00 bd c0 03 5f d6
x x64-disp0 01 f3 0f 10 07 c3
x x64-disp8 01 f3 0f 10 47 10 c3
x x64-disp32 01 f3 0f 1e fa f3 0f 10 87 00 01 00 00 c3

# pftrace: a Perfetto protobuf trace, whole and cut short.
cp "$pf" "$out.tmp/pftrace/pixel7pro"
head -c 65536 "$pf" > "$out.tmp/pftrace/head64k"
# The 63 FrameTimeline packets of the Pixel 6a startup capture (bytes 1951754 to 1955785).
tail -c +1951755 "$tr/pixel6a-android13-startup.perfetto-trace" | head -c 4031 \
	> "$out.tmp/pftrace/pixel6a-frametimeline"
chmod u+w "$out.tmp/pftrace/"*

# replay_text: whole replays of up to 1 MiB (-max_len): the header and the first MiB of each
# text capture, its busiest MiB (the most markers), 64 KiB heads, and the cut-down systrace.
kib() { # kib FILE FIRST_LINE KIB: whole lines from FIRST_LINE, at most KIB KiB in all
	{ head -n 11 "$1"; tail -n +"$2" "$1"; } | head -c $(($3 * 1024)) | sed '$d'
}
for t in antutu-2018 flyme-launcher-scroll-2019 miui-launcher-2021; do
	f=$tr/$t.ftrace.txt
	kib "$f" 12 1000 > "$out.tmp/replay_text/$t-head1m"
	kib "$f" 12 64 > "$out.tmp/replay_text/$t-head64k"
	busy=$(awk '/tracing_mark_write|print: / { n[int(NR / 8000)]++ }
		END { for (k in n) if (n[k] > m) { m = n[k]; b = k } print b * 8000 + 12 }' "$f")
	kib "$f" "$busy" 1000 > "$out.tmp/replay_text/$t-busy1m"
done
cp "$out.tmp/capture_file/systrace.html" "$out.tmp/replay_text/systrace.html"
# Inputs that fill the tables of common/caps.h, so the mutations start at the evictions.
gen() { # gen NAME COUNT AWK_PRINTF_BODY: COUNT marker lines, i from 0
	awk -v n="$2" 'BEGIN { print "# tracer: nop"; for (i = 0; i < n; i++) '"$3"' }' \
		> "$out.tmp/replay_text/caps-$1"
}
# animname: the seed tracers' names (sinks/animname.h), both separators, odd values and names.
printf 'Anim|42|Obj|NotifRow@3f2c|alpha:1->0|AccelDecel|300ms' > "$out.tmp/animname/anim"
printf 'Anim|43|Val|?:0->1|Linear|200ms' > "$out.tmp/animname/seed-val"
printf 'Spring|105|NotifRow@3f2c|translationY|s=200,d=0.8|0->-100' > "$out.tmp/animname/spring"
printf 'Fling|7|Row@1a2b|translationX|f=1.5|v0=-2000' > "$out.tmp/animname/fling"
printf 'V|NotificationRow@3f2c|alpha' > "$out.tmp/animname/counter"
printf 'Anim\302\2461\302\246Val\302\246R%%7Cx@1\302\246a:NaN->-Infinity,+2\302\246?\302\246133.282ms\302\246end' \
	> "$out.tmp/animname/atrace"

line='printf "  app-%d  ( %d) [001] .... %d.%06d: tracing_mark_write: '
gen threads 5000 "$line"'B|1000|work\n", 1000 + i, 1000, 1 + int(i / 1e6), i % 1e6'
gen depth 200 "$line"'B|1000|nested\n", 1000, 1000, 1, i'
gen procs 1200 "$line"'B|%d|x\n", 2000 + i, 2000 + i, 1, i, 2000 + i'
gen anims 5000 "$line"'S|%d|animator:n%d|%d\n", 3000 + i % 5, 3000 + i % 5, 1, i, 3000 + i % 5, i, i'

# replay_pftrace: the Perfetto captures whole (up to 1 MiB) and their heads.
head -c 1048576 "$pf" > "$out.tmp/replay_pftrace/pixel7pro"
head -c 65536 "$pf" > "$out.tmp/replay_pftrace/pixel7pro-64k"
head -c 1048576 "$tr/pixel6a-android13-startup.perfetto-trace" \
	> "$out.tmp/replay_pftrace/pixel6a-1m"

rm -f "$out.tmp/payloads" "$out.tmp/marks"
rm -rf "$out"
mv "$out.tmp" "$out"

#!/bin/bash
# Boots Debian's arm64 kernel under qemu (TCG) with an initramfs holding the static /init of
# tests/arm64/init.c plus the given files, runs a test script there and exits with its result.
#
#   tests/arm64/run.sh [-t SECS] KERNEL OUTDIR [HOST=GUEST ...] [-- ARGV...]
#
# HOST=GUEST copies a host file into the initramfs (GUEST is absolute; executables keep their
# mode). The guest runs /e2e/commands (format: tests/arm64/init.c); either pass one as
# SCRIPT=/e2e/commands, or give `-- ARGV...` for a single `run ARGV...`. OUTDIR receives
# init, rootfs/, initramfs.cpio.gz and console.log. The exit status is the guest's
# ANIMTRACE-E2E-RC, or 1 when that line is missing (boot failure, hang killed by -t SECS,
# default 120).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
limit=120
if [ "${1:-}" = -t ]; then
	limit=$2
	shift 2
fi
if [ $# -lt 2 ]; then
	sed -n '2,13p' "$0" >&2
	exit 2
fi
kernel=$1
out=$2
shift 2

root=$out/rootfs
rm -rf "$root"
mkdir -p "$root/e2e" "$root/dev" "$root/proc" "$root/sys" "$root/tmp"

aarch64-linux-gnu-gcc -std=gnu11 -O2 -Wall -Wextra -static -o "$out/init" "$here/init.c"
cp "$out/init" "$root/init"

while [ $# -gt 0 ] && [ "$1" != -- ]; do
	host=${1%%=*}
	guest=${1#*=}
	case "$guest" in
	/*) ;;
	*) echo "run.sh: guest path must be absolute: $1" >&2; exit 2 ;;
	esac
	mkdir -p "$root$(dirname "$guest")"
	cp "$host" "$root$guest"
	shift
done
if [ "${1:-}" = -- ]; then
	shift
	echo "run $*" > "$root/e2e/commands"
fi
[ -f "$root/e2e/commands" ] || { echo "run.sh: no /e2e/commands and no -- ARGV" >&2; exit 2; }

# Without /dev/console in the initramfs the kernel starts init with no stdio; init.c copes,
# but the node also lets early messages from init reach the console. mknod needs root.
if [ "$(id -u)" = 0 ]; then
	mknod -m 600 "$root/dev/console" c 5 1
fi
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 \
	> "$out/initramfs.cpio.gz"

# -icount shift=0,sleep=off: the guest's clock counts executed instructions (1 ns each) and
# skips ahead when every vCPU idles, so a loaded host slows the run but never the guest's
# frames (24 Hz periods, late starts and the checks' 1 ms tolerances are guest time; without
# it, a host at load 10 on 2 cores made the simulator's frames late by tens of ms). The vCPUs
# then take turns in one host thread.
start=$(date +%s.%N)
status=0
timeout --kill-after=5 "$limit" qemu-system-aarch64 -M virt -cpu cortex-a57 -m 1024 -smp 2 \
	-icount shift=0,sleep=off \
	-nographic -no-reboot -kernel "$kernel" -initrd "$out/initramfs.cpio.gz" \
	-append "console=ttyAMA0 quiet rdinit=/init panic=-1" \
	< /dev/null > "$out/console.raw" 2>&1 || status=$?
end=$(date +%s.%N)
tr -d '\r' < "$out/console.raw" > "$out/console.log"
rm -f "$out/console.raw"
cat "$out/console.log"

rc=$(sed -n 's/^.*ANIMTRACE-E2E-RC=\([0-9][0-9]*\).*$/\1/p' "$out/console.log" | tail -n 1)
awk -v s="$start" -v e="$end" -v q="$status" -v f="$out/console.log" \
	'BEGIN { printf "run.sh: qemu exit %d after %.1f s, log in %s\n", q, e - s, f }' >&2
if [ -z "$rc" ]; then
	echo "run.sh: no ANIMTRACE-E2E-RC line: the guest did not finish" >&2
	exit 1
fi
exit "$rc"

#!/bin/sh
# Regenerates vmlinux/<arch>/vmlinux.h, the kernel types the BPF programs are compiled
# against with CO-RE. Never edit the headers by hand: rerun this.
#   vmlinux/gen.sh x86     dump this machine's /sys/kernel/btf/vmlinux (x86_64 host)
#   vmlinux/gen.sh arm64   dump the BTF inside Debian's arm64 kernel Image
#                          (fetched and cached by tests/arm64/kernel.sh)
# Env: BPFTOOL (default bpftool), CC (host compiler for btf-extract, default cc),
#      VMLINUX_IMAGE (arm64: use this Image instead of fetching Debian's).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
bpftool=${BPFTOOL:-bpftool}
arch=${1:-}

# Writes through a temporary file so a failed dump never leaves a truncated header.
dump() {
	mkdir -p "$here/$arch"
	"$bpftool" btf dump file "$1" format c > "$here/$arch/vmlinux.h.tmp"
	mv "$here/$arch/vmlinux.h.tmp" "$here/$arch/vmlinux.h"
	echo "gen.sh: $arch/vmlinux.h: $(wc -l < "$here/$arch/vmlinux.h") lines from $2" >&2
}

case "$arch" in
x86)
	[ "$(uname -m)" = x86_64 ] || { echo "gen.sh: x86 needs an x86_64 host" >&2; exit 1; }
	dump /sys/kernel/btf/vmlinux /sys/kernel/btf/vmlinux
	;;
arm64)
	image=${VMLINUX_IMAGE:-$("$here/../tests/arm64/kernel.sh")}
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -o "$tmp/btf-extract" "$here/btf-extract.c"
	"$tmp/btf-extract" "$image" "$tmp/vmlinux.btf"
	dump "$tmp/vmlinux.btf" "$(basename "$image")"
	;;
*)
	echo "usage: $0 x86|arm64" >&2
	exit 2
	;;
esac

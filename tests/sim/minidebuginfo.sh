#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Strips an ELF file the way Android's build does (build/soong/scripts/strip.sh): every symbol
# goes, except that the function symbols missing from .dynsym are kept in an xz-compressed
# ELF in the .gnu_debugdata section (MiniDebugInfo). After it `nm OUT` finds nothing.
#
# usage: minidebuginfo.sh IN OUT
# The binutils are chosen from IN's machine (aarch64-linux-gnu-* for arm64); CROSS_PREFIX
# overrides the choice.
set -eu

if [ $# -ne 2 ]; then
	echo "usage: $0 IN OUT" >&2
	exit 2
fi
in=$1
out=$2

if [ -z "${CROSS_PREFIX+set}" ]; then
	case $(readelf -h "$in" | sed -n 's/^ *Machine: *//p') in
	AArch64) CROSS_PREFIX=aarch64-linux-gnu- ;;
	*) CROSS_PREFIX= ;;
	esac
fi
NM=${CROSS_PREFIX}nm
OBJCOPY=${CROSS_PREFIX}objcopy

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# A static executable has no .dynsym: then every function symbol is kept.
if readelf -S -W "$in" | grep -q ' \.dynsym '; then
	$NM -D --format=posix --defined-only "$in" | awk '{print $1}' | sort -u > "$tmp/dynsyms"
else
	: > "$tmp/dynsyms"
fi
$NM --format=posix --defined-only "$in" | awk '$2 ~ /^[Tt]$/ {print $1}' | sort -u > "$tmp/funcsyms"
comm -13 "$tmp/dynsyms" "$tmp/funcsyms" > "$tmp/keep"

$OBJCOPY --only-keep-debug "$in" "$tmp/debug"
$OBJCOPY -S --remove-section .gdb_index --remove-section .comment \
	--keep-symbols="$tmp/keep" "$tmp/debug" "$tmp/mini"
xz -c "$tmp/mini" > "$tmp/mini.xz"
$OBJCOPY --strip-all --remove-section .comment "$in" "$tmp/stripped"
$OBJCOPY --add-section .gnu_debugdata="$tmp/mini.xz" "$tmp/stripped" "$tmp/out"
mv "$tmp/out" "$out"

#!/bin/sh
# Installs what the arm64 cross build and the qemu end-to-end test need, when any is missing:
# the aarch64 cross toolchain, the arm64 static libraries animtrace links, qemu and cpio.
# Idempotent and quiet when everything is there. The amd64 and arm64 libbpf-dev packages are
# Multi-Arch: same and install side by side (bpftool is a separate package, amd64 only).
set -eu

PKGS="gcc-aarch64-linux-gnu g++-aarch64-linux-gnu binutils-aarch64-linux-gnu
libbpf-dev:arm64 libelf-dev:arm64 libdw-dev:arm64 libbz2-dev:arm64 zlib1g-dev:arm64 liblzma-dev:arm64
libminizip-dev:arm64
qemu-system-arm qemu-user-static cpio file"

export DEBIAN_FRONTEND=noninteractive
updated=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "deps-arm64: adding the arm64 architecture"
	dpkg --add-architecture arm64
	apt-get update -qq
	updated=1
fi

. "$(dirname "$0")/pkgs.sh"
missing=$(pkg_missing $PKGS)
if [ -n "$missing" ]; then
	echo "deps-arm64: installing $missing"
	[ "$updated" = 1 ] || apt-get update -qq
	apt-get install -y -qq $missing >/dev/null
fi

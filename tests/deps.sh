#!/bin/sh
# Installs the Debian packages animtrace builds and tests with, when any is missing.
# Idempotent and quiet when everything is there.
set -eu

HOST_PKGS="clang llvm make gcc g++ pkg-config libbpf-dev bpftool libelf-dev zlib1g-dev
liblzma-dev libdw-dev libcriterion-dev libjson-c-dev binutils xz-utils libminizip-dev
libsmali-java default-jre-headless dexdump zip python3 clang-format"

. "$(dirname "$0")/pkgs.sh"
missing=$(pkg_missing $HOST_PKGS)
if [ -n "$missing" ]; then
	echo "deps: installing $missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq $missing >/dev/null
fi

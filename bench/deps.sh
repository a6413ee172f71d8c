#!/bin/sh
# Installs what `make bench` needs beyond tests/deps.sh's packages, when it is missing:
# bpftrace (Debian's package), the peer every live benchmark measures animtrace beside.
# Idempotent and quiet when it is there. The check asks for this machine's architecture
# (tests/pkgs.sh), as tests/deps.sh does.
set -eu

PKGS="bpftrace"

. "$(dirname "$0")/../tests/pkgs.sh"
missing=$(pkg_missing $PKGS)
if [ -n "$missing" ]; then
	echo "bench-deps: installing $missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq $missing >/dev/null
fi

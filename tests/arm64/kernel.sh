#!/bin/sh
# Fetches Debian's arm64 kernel (an uncompressed Image with BTF, uprobes, BPF events and a
# built-in PL011 console) into a cache outside the repo and prints the path of its vmlinuz.
# Cached: a second run only prints the path. Needs the arm64 dpkg architecture
# (tests/deps-arm64.sh). Env: ANIMTRACE_ARM64_CACHE (default /var/cache/animtrace/arm64).
set -eu

cache=${ANIMTRACE_ARM64_CACHE:-/var/cache/animtrace/arm64}

find_vmlinuz() {
	ls "$cache"/root/boot/vmlinuz-* 2>/dev/null | head -n 1
}

# Fails loudly if the kernel cannot run the probes animtrace uses.
check_config() {
	cfg=$(ls "$cache"/root/boot/config-* | head -n 1)
	for opt in CONFIG_UPROBE_EVENTS CONFIG_BPF_EVENTS CONFIG_DEBUG_INFO_BTF CONFIG_BPF_SYSCALL \
		CONFIG_FTRACE CONFIG_FTRACE_SYSCALLS CONFIG_KPROBE_EVENTS CONFIG_TRACING \
		CONFIG_SERIAL_AMBA_PL011_CONSOLE CONFIG_BLK_DEV_INITRD CONFIG_RD_GZIP; do
		if ! grep -qx "$opt=y" "$cfg"; then
			echo "kernel.sh: $cfg lacks $opt=y" >&2
			return 1
		fi
	done
}

# Root downloads into a directory the _apt sandbox user cannot write: say so to apt.
download() {
	apt-get -o APT::Sandbox::User=root download -q "$1" >/dev/null
}

vmlinuz=$(find_vmlinuz)
if [ -z "$vmlinuz" ]; then
	mkdir -p "$cache/deb"
	cd "$cache/deb"
	# The meta package names the versioned image it depends on (linux-image-6.1.0-N-arm64).
	# A fresh machine may not have the arm64 package lists yet.
	if ! download linux-image-arm64:arm64 2>/dev/null; then
		apt-get update -qq
		download linux-image-arm64:arm64
	fi
	meta=$(ls linux-image-arm64_*_arm64.deb | head -n 1)
	image=$(dpkg-deb -f "$meta" Depends | tr ',|' '\n\n' | sed 's/^ *//; s/[ (].*//' |
		grep '^linux-image-[0-9]' | head -n 1)
	[ -n "$image" ] || { echo "kernel.sh: no image dependency in $meta" >&2; exit 1; }
	download "$image:arm64"
	rm -rf "$cache/root.tmp"
	dpkg-deb -x "$(ls "$image"_*_arm64.deb | head -n 1)" "$cache/root.tmp"
	# Only the Image and its config are needed: drop the modules (hundreds of MB).
	rm -rf "$cache/root.tmp/lib" "$cache/root.tmp/usr"
	rm -rf "$cache/root"
	mv "$cache/root.tmp" "$cache/root"
	rm -f "$cache"/deb/*.deb
	vmlinuz=$(find_vmlinuz)
fi
check_config
echo "$vmlinuz"

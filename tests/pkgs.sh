# Sourced by tests/deps.sh and tests/deps-arm64.sh: whether a Debian package is installed for
# one architecture. `dpkg-query -W libbpf-dev` answers for every installed instance of a
# Multi-Arch: same package, so with only libbpf-dev:arm64 installed it says "installed" and
# the host's headers are never fetched; each instance's Architecture is read instead.

# pkg_installed NAME[:ARCH]: true when NAME is installed for ARCH (default: this machine's
# native architecture) or as an Architecture: all package.
pkg_installed() {
	_name=${1%%:*}
	_arch=${1#"$_name"}
	_arch=${_arch#:}
	[ -n "$_arch" ] || _arch=$(dpkg --print-architecture)
	dpkg-query -W -f='${Architecture} ${Status}\n' "$_name" 2>/dev/null |
		grep -Eq "^($_arch|all) .*ok installed$"
}

# pkg_missing PKG...: the ones not installed, space-separated, each with its architecture
# when it had one.
pkg_missing() {
	_out=""
	for _p in "$@"; do
		pkg_installed "$_p" || _out="$_out $_p"
	done
	echo "${_out# }"
}

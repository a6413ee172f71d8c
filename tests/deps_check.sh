#!/bin/sh
# Proves tests/pkgs.sh asks per architecture: a fake dpkg-query plays the states that fooled
# the old check (only the arm64 instance of a Multi-Arch: same package installed, or only the
# host's), an Architecture: all package, and both instances. Needs no root and no apt.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT

# The installed instances, one "NAME ARCH" a line, are what the fake dpkg-query reports.
cat >"$fake/dpkg" <<'SH'
#!/bin/sh
[ "$1" = --print-architecture ] && echo amd64
SH
cat >"$fake/dpkg-query" <<'SH'
#!/bin/sh
name=$3
found=1
while read -r n a; do
	[ "$n" = "$name" ] || continue
	echo "$a install ok installed"
	found=0
done <"$FAKE_DB"
exit $found
SH
chmod +x "$fake/dpkg" "$fake/dpkg-query"
PATH="$fake:$PATH"
FAKE_DB="$fake/db"
export FAKE_DB
. "$here/pkgs.sh"

fails=0
expect() { # expect WANT QUERY: WANT is "yes" or "no"
	if pkg_installed "$2"; then got=yes; else got=no; fi
	if [ "$got" != "$1" ]; then
		echo "deps-check: $2 with [$(tr '\n' ';' <"$FAKE_DB")] installed: want $1, got $got" >&2
		fails=$((fails + 1))
	fi
}

printf 'libbpf-dev arm64\n' >"$FAKE_DB" # after `make e2e-arm64` on a fresh machine
expect no libbpf-dev
expect yes libbpf-dev:arm64
printf 'libbpf-dev amd64\n' >"$FAKE_DB" # after `make demo` on a fresh machine
expect yes libbpf-dev
expect no libbpf-dev:arm64
printf 'libbpf-dev amd64\nlibbpf-dev arm64\n' >"$FAKE_DB"
expect yes libbpf-dev
expect yes libbpf-dev:arm64
printf 'libsmali-java all\n' >"$FAKE_DB" # Architecture: all serves every architecture
expect yes libsmali-java
expect yes libsmali-java:arm64
: >"$FAKE_DB"
expect no zip
printf 'libbpf-dev arm64\nzip amd64\n' >"$FAKE_DB"
[ "$(pkg_missing libbpf-dev zip libbpf-dev:arm64)" = libbpf-dev ] ||
	{ echo "deps-check: pkg_missing: want libbpf-dev" >&2; fails=$((fails + 1)); }

[ "$fails" = 0 ] && echo "deps-check: 12 answers per architecture right"
exit "$fails"

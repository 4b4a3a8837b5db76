#!/usr/bin/env bash
# Install what the harness needs on a fresh Debian 12 machine.  Idempotent:
# a warm machine costs one dpkg query.  Usage: deps.sh [bench]
. "$(dirname "$0")/lib.sh"
. "$TOP/base.env"

pkgs="build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils
      rsync python3 ccache kmod qemu-system-x86 qemu-system-arm
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross busybox-static bash-static
      sparse python3-matplotlib python3-ply python3-git
      python3-sphinx python3-sphinx-rtd-theme b4 spin linux-source-6.12"
[ "${1:-}" = bench ] && pkgs="$pkgs linux-perf"

missing=$(dpkg-query -W -f '${Package} ${Status}\n' $pkgs 2>/dev/null |
	awk '$NF != "installed" { print $1 }')
# dpkg-query prints nothing for a package it has never heard of.
for p in $pkgs; do
	dpkg-query -W "$p" >/dev/null 2>&1 || missing="$missing $p"
done
installed_base=$(dpkg-query -W -f '${Version}' "$BASE_PKG" 2>/dev/null)
[ -n "$installed_base" ] || missing="$missing $BASE_PKG=$BASE_VERSION"

if [ -n "${missing// /}" ]; then
	[ "$(id -u)" = 0 ] || die "missing packages:$missing; install them as root (apt-get install ...)"
	say "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || die "apt-get update failed; check the network or the apt sources"
	# The recorded base version may have left the archive: fall back to
	# whatever version is there, tree.sh then says so.
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	apt-get install -y -qq --no-install-recommends ${missing//=$BASE_VERSION/} >/dev/null ||
		die "apt-get install failed for:$missing"
fi

# arm64 guest userspace: static busybox and bash, unpacked from Debian's
# arm64 packages into build/guest-bin/arm64 (never installed on the host).
gb=$BUILD/guest-bin/arm64
if [ ! -x "$gb/bin/busybox" ] || [ ! -x "$gb/bin/bash-static" ]; then
	dpkg --print-foreign-architectures | grep -qx arm64 || {
		dpkg --add-architecture arm64 && apt-get update -qq; } ||
		die "cannot add the arm64 architecture to apt"
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -qq busybox-static:arm64 bash-static:arm64) ||
		die "cannot download busybox-static:arm64 and bash-static:arm64"
	mkdir -p "$gb"
	for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$gb"; done
	rm -rf "$tmp"
fi

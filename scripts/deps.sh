#!/usr/bin/env bash
# Install what the harness needs on a fresh Debian 12 machine: the host's
# tools, each arch's QEMU and (on a host of another arch) cross compiler
# (config/arch/), each base kernel's source package (config/base/), and each
# arch's guest userspace.  Idempotent: a warm machine costs one dpkg query.
. "$(dirname "$0")/lib.sh"

# linux-source-6.12 is also the source of upstream's objpool, the peer the
# userspace harness and the benchmarks build (scripts/upstream-objpool.sh).
pkgs="build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils
      rsync python3 ccache kmod
      sparse python3-matplotlib python3-ply python3-git
      python3-sphinx python3-sphinx-rtd-theme b4 spin linux-source-6.12"
for a in $(valid_arches); do
	use_arch "$a"
	pkgs="$pkgs $ARCH_QEMU_PACKAGE"
	[ -z "$(arch_cross)" ] || pkgs="$pkgs $ARCH_CROSS_PACKAGES"
done
# Each base at the version its series was made on; the version may have
# left the archive, then whatever is there (tree.sh says so).
# A base from another suite (BASE_SUITE) is fetched below instead.
bases= fetch=
for b in $(valid_bases); do
	BASE_SUITE=
	eval "$(grep -E '^BASE_(PKG|VERSION|SUITE)=' "$TOP/config/base/$b.env")"
	if [ -n "$BASE_SUITE" ]; then
		fetch="$fetch $b"
		continue
	fi
	dpkg-query -W -f '${Version}' "$BASE_PKG" >/dev/null 2>&1 || bases="$bases $BASE_PKG=$BASE_VERSION"
done

missing=$(dpkg-query -W -f '${Package} ${Status}\n' $pkgs 2>/dev/null |
	awk '$NF != "installed" { print $1 }')
# dpkg-query prints nothing for a package it has never heard of.
for p in $pkgs; do
	dpkg-query -W "$p" >/dev/null 2>&1 || missing="$missing $p"
done
missing="$missing$bases"

if [ -n "${missing// /}" ]; then
	[ "$(id -u)" = 0 ] || die "missing packages:$missing; install them as root (apt-get install ...)"
	say "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || die "apt-get update failed; check the network or the apt sources"
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	apt-get install -y -qq --no-install-recommends $(echo "$missing" | sed 's/=[^ ]*//g') >/dev/null ||
		die "apt-get install failed for:$missing"
fi

# Guest userspace of each arch: Debian's static busybox and bash of that
# arch, unpacked into build/guest-bin/ARCH (never installed on the host).
for a in $(valid_arches); do
	use_arch "$a"
	gb=$BUILD/guest-bin/$a
	[ -x "$gb/bin/busybox" ] && [ -x "$gb/bin/bash-static" ] && continue
	if [ "$ARCH_DEB" != "$(dpkg --print-architecture)" ] &&
	   ! dpkg --print-foreign-architectures | grep -qx "$ARCH_DEB"; then
		dpkg --add-architecture "$ARCH_DEB" && apt-get update -qq ||
			die "cannot add the $ARCH_DEB architecture to apt (as root: dpkg --add-architecture $ARCH_DEB)"
	fi
	tmp=$(mktemp -d) && chmod 755 "$tmp"	# apt's sandbox user writes there
	(cd "$tmp" && apt-get download -qq "busybox-static:$ARCH_DEB" "bash-static:$ARCH_DEB") ||
		die "cannot download busybox-static:$ARCH_DEB and bash-static:$ARCH_DEB; check the apt sources"
	mkdir -p "$gb"
	for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$gb"; done
	rm -rf "$tmp"
done

# A base from another suite than the host's (7.2 from sid): its source
# package is downloaded with apt-get download and unpacked with dpkg -x into
# BASE_UNPACKED, never installed.  Installing it would pull that suite's
# binutils and xz-utils into a bookworm host (it depends on both), and a sid
# entry in the system's apt sources would offer every sid package to the
# next apt-get upgrade.  So apt reads a source list of its own, with its
# own package lists, in a directory under /var/cache/objpool; the system's
# apt configuration and dpkg database are left as they were.
for b in $fetch; do
	(
	. "$TOP/config/base/$b.env"
	[ -f "$BASE_TARBALL" ] && exit 0
	[ "$(id -u)" = 0 ] || die "$BASE_TARBALL is missing; run make deps as root to fetch $BASE_PKG $BASE_VERSION from $BASE_SUITE"
	apt=/var/cache/objpool/apt-$BASE_SUITE
	mkdir -p "$apt/sources" "$apt/lists/partial" "$apt/cache/archives/partial"
	cat >"$apt/sources/$BASE_SUITE.sources" <<-EOS
		Types: deb
		URIs: http://deb.debian.org/debian
		Suites: $BASE_SUITE
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOS
	opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt/sources"
	      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
	      -o Dir::State::Status=/dev/null)
	say "fetching $BASE_PKG $BASE_VERSION from $BASE_SUITE"
	apt-get "${opts[@]}" update -qq ||
		die "apt-get update of $BASE_SUITE failed; check the network"
	tmp=$(mktemp -d) && chmod 755 "$tmp"	# apt's sandbox user writes there
	(cd "$tmp" && apt-get "${opts[@]}" download -qq "$BASE_PKG=$BASE_VERSION") ||
		die "cannot download $BASE_PKG=$BASE_VERSION from $BASE_SUITE (has it left the archive? update config/base/$b.env)"
	echo "$BASE_DEB_SHA256  $(ls "$tmp"/*.deb)" | sha256sum -c --quiet ||
		die "the downloaded $BASE_PKG does not match BASE_DEB_SHA256 in config/base/$b.env"
	rm -rf "$BASE_UNPACKED.tmp" && dpkg -x "$tmp"/*.deb "$BASE_UNPACKED.tmp" &&
		mv "$BASE_UNPACKED.tmp" "$BASE_UNPACKED" || die "cannot unpack $BASE_PKG into $BASE_UNPACKED"
	rm -rf "$tmp"
	[ -f "$BASE_TARBALL" ] || die "$BASE_PKG has no $BASE_TARBALL"
	) || exit
done

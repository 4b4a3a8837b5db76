#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs on a fresh Debian 12 machine: the host's
# tools, each arch's QEMU and (on a host of another arch) cross compiler
# (config/arch/), each series' base kernel source package
# (series-*/series.env), and each arch's guest userspace.  Idempotent: a warm machine costs one dpkg query.
. "$(dirname "$0")/lib/harness.sh"

# UPSTREAM_POOL_PKG is the source of upstream's objpool, the peer the
# userspace harness and the benchmarks build (config/upstream-pool.env).
pkgs="build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils
      rsync python3 ccache kmod
      sparse python3-matplotlib python3-ply python3-git
      python3-sphinx python3-sphinx-rtd-theme b4 spin $UPSTREAM_POOL_PKG
      shellcheck pyflakes3"
for a in $(valid_arches); do
	use_arch "$a"
	pkgs="$pkgs $ARCH_QEMU_PACKAGE"
	[ -z "$(arch_cross)" ] || pkgs="$pkgs $ARCH_CROSS_PACKAGES"
done
# Each base at the version its series was made on; the version may have
# left the archive, then whatever is there (tree.sh says so).
# A base from another suite (SERIES_BASE_SUITE) is fetched below instead.
bases= fetch=
for b in $(valid_series); do
	SERIES_BASE_SUITE=
	# A base on another base's series has that base's source.
	grep -q '^SERIES_PARENT=' "$(series_env "$b")" && continue
	eval "$(grep -E '^SERIES_BASE_(PKG|VERSION|SUITE)=' "$(series_env "$b")")"
	if [ -n "$SERIES_BASE_SUITE" ]; then
		fetch="$fetch $b"
		continue
	fi
	dpkg-query -W -f '${Version}' "$SERIES_BASE_PKG" >/dev/null 2>&1 || bases="$bases $SERIES_BASE_PKG=$SERIES_BASE_VERSION"
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
# SERIES_BASE_UNPACKED, never installed.  Installing it would pull that suite's
# binutils and xz-utils into a bookworm host (it depends on both), and a sid
# entry in the system's apt sources would offer every sid package to the
# next apt-get upgrade.  So apt reads a source list of its own, with its
# own package lists, in a directory under /var/cache/objpool; the system's
# apt configuration and dpkg database are left as they were.
for b in $fetch; do
	(
	. "$(series_env "$b")"
	[ -f "$SERIES_BASE_TARBALL" ] && exit 0
	[ "$(id -u)" = 0 ] || die "$SERIES_BASE_TARBALL is missing; run make deps as root to fetch $SERIES_BASE_PKG $SERIES_BASE_VERSION from $SERIES_BASE_SUITE"
	apt=/var/cache/objpool/apt-$SERIES_BASE_SUITE
	mkdir -p "$apt/sources" "$apt/lists/partial" "$apt/cache/archives/partial"
	cat >"$apt/sources/$SERIES_BASE_SUITE.sources" <<-EOS
		Types: deb
		URIs: http://deb.debian.org/debian
		Suites: $SERIES_BASE_SUITE
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOS
	opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt/sources"
	      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
	      -o Dir::State::Status=/dev/null)
	say "fetching $SERIES_BASE_PKG $SERIES_BASE_VERSION from $SERIES_BASE_SUITE"
	apt-get "${opts[@]}" update -qq ||
		die "apt-get update of $SERIES_BASE_SUITE failed; check the network"
	tmp=$(mktemp -d) && chmod 755 "$tmp"	# apt's sandbox user writes there
	(cd "$tmp" && apt-get "${opts[@]}" download -qq "$SERIES_BASE_PKG=$SERIES_BASE_VERSION") ||
		die "cannot download $SERIES_BASE_PKG=$SERIES_BASE_VERSION from $SERIES_BASE_SUITE (has it left the archive? update $(series_env "$b"))"
	echo "$SERIES_BASE_DEB_SHA256  $(ls "$tmp"/*.deb)" | sha256sum -c --quiet ||
		die "the downloaded $SERIES_BASE_PKG does not match SERIES_BASE_DEB_SHA256 in $(series_env "$b")"
	rm -rf "$SERIES_BASE_UNPACKED.tmp" && dpkg -x "$tmp"/*.deb "$SERIES_BASE_UNPACKED.tmp" &&
		mv "$SERIES_BASE_UNPACKED.tmp" "$SERIES_BASE_UNPACKED" || die "cannot unpack $SERIES_BASE_PKG into $SERIES_BASE_UNPACKED"
	rm -rf "$tmp"
	[ -f "$SERIES_BASE_TARBALL" ] || die "$SERIES_BASE_PKG has no $SERIES_BASE_TARBALL"
	) || exit
done

# perf in the guests of each arch: Debian's linux-perf (perf of Linux 6.1,
# the base's own version) and the shared libraries it links, unpacked into
# build/guest-bin/ARCH/perf (never installed on the host); initramfs.sh
# copies /usr/bin/perf and only the libraries it needs into the guest.
# Why Debian's and not tools/perf of the tree: 'perf probe' is built only
# with libelf (tools/perf/Build: builtin-probe.o is CONFIG_LIBELF), so a
# static tools/perf needs static libelf and zlib (and libdw for more)
# installed for each arch as foreign -dev packages, and a perf build per
# arch on 2 shared cores; this is a download of the perf users run on
# Debian 12, of the base's version, and it is a 12 MiB archive that vm.sh
# appends only to boots that run perf (scripts/lib/initramfs.sh).
# The libraries are perf's DT_NEEDED closure (readelf -d, any arch), which
# initramfs.sh checks; a library missing here is named there.
perf_pkgs="linux-perf libc6 libgcc-s1 libstdc++6 libbabeltrace1 libbz2-1.0
	   libcap2 libcrypt1 libdw1 libelf1 libexpat1 libglib2.0-0 liblzma5
	   libnuma1 libopencsd1 libpcre2-8-0 libperl5.36 libpython3.11
	   libslang2 libunwind8 libuuid1 libzstd1 zlib1g"
for a in $(valid_arches); do
	use_arch "$a"
	pr=$BUILD/guest-bin/$a/perf
	[ -x "$pr/usr/bin/perf" ] && continue
	tmp=$(mktemp -d) && chmod 755 "$tmp"
	(cd "$tmp" && apt-get download -qq $(printf "%s:$ARCH_DEB " $perf_pkgs)) ||
		die "cannot download linux-perf:$ARCH_DEB and its libraries ($perf_pkgs); check the apt sources (apt-cache policy linux-perf:$ARCH_DEB)"
	rm -rf "$pr.tmp" && mkdir -p "$pr.tmp"
	for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$pr.tmp"; done
	rm -rf "$tmp" "$pr" && mv "$pr.tmp" "$pr"
done

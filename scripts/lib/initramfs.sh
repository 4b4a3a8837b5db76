#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Pack the guest's userspace for ARCH into OBJDIR/initramfs.cpio.gz (and
# perf into build/guest-bin/ARCH/perf.cpio.gz, appended by vm.sh): static
# busybox and bash (build/guest-bin/ARCH, from 'make deps'), /init, the guest
# scripts and programs, /guest/arch.env (the arch's facts the guest needs,
# and the base kernel whose series the build is),
# the modules and kselftests of that build, and /guest/kprobe-hit-callees.txt
# (scripts/lib/kprobe-hit-list.sh).  Packed again only when one of
# those changed since the last packing (every boot calls this).
# Usage: initramfs.sh [--series NAME] ARCH OBJDIR
. "$(dirname "$0")/harness.sh"
arch=$1 obj=$2
use_arch "$arch"
cpio=$obj/initramfs.cpio.gz
busybox=$BUILD/guest-bin/$arch/bin/busybox bash=$BUILD/guest-bin/$arch/bin/bash-static
[ -x "$busybox" ] && [ -x "$bash" ] || die "no static busybox/bash for $arch guests; run 'make deps'"
perfroot=$BUILD/guest-bin/$arch/perf
[ -x "$perfroot/usr/bin/perf" ] || die "no perf for $arch guests (build/guest-bin/$arch/perf); run 'make deps'"

# The guest's own modules (guest/modules): built against this build,
# rebuilt when their source or the kernel changed.
# The series' mutants of its fixed pool (series-NAME/mutants/*.patch),
# where it has them, for the objpool_mut_* modules (guest/modules/Kbuild).
gm=$obj/guest-modules
mut=$(dirname "$PATCHES")/mutants
[ -d "$mut" ] || mut=
# The unfixed push's module (objpool_unfixed_kunit) for the series whose
# suites run it, the fix series: on another series' states its case is no
# fix's (the RFC's pool patches change it before their KUnit patch
# replaces it).
unfixed=
for v in $(compgen -v SERIES_FLAVOR_SUITES_); do
	case " ${!v} " in *" objpool-nmi-unfixed "*) unfixed=1 ;; esac
done
if grep -q '^CONFIG_MODULES=y' "$obj/.config" &&
   { [ ! -d "$gm" ] || [ -n "$(find "$TOP/guest/modules" ${mut:+"$mut"} -newer "$gm/.built" 2>/dev/null)" ] ||
     [ "$obj/vmlinux" -nt "$gm/.built" ]; }; then
	rm -rf "$gm" && cp -r "$TOP/guest/modules" "$gm"
	# Every module guest/modules/Kbuild selects for this kernel must
	# build: Kbuild leaves out the ones made for another base, so a
	# failure here is a broken module, and a suite that needs it would
	# only skip for want of it.
	# Upstream's pool for the upstream_objpool modules, where make deps put its
	# source (scripts/lib/upstream-objpool-dir.sh); without it they are left out.
	up=$("$TOP/scripts/lib/upstream-objpool-dir.sh" 2>/dev/null) || up=
	if ! kmake "$obj/source" "$obj" -s M="$gm" UP_DIR="$up" MUT_DIR="$mut" UNFIXED="$unfixed" \
			modules >"$gm/build.log" 2>&1; then
		tail -n 30 "$gm/build.log" | sed 's/^/    /' >&2
		die "guest/modules do not build against ${obj#$TOP/} (${gm#$TOP/}/build.log, its tail above); fix the module or its condition in guest/modules/Kbuild"
	fi
	touch "$gm/.built"
fi

# perf for this arch's guests, an archive of its own that vm.sh appends to
# the boots whose command needs perf: Debian's linux-perf (scripts/deps.sh)
# and the shared libraries it loads, its DT_NEEDED closure (readelf, any
# arch) found in the unpacked packages' library directories, and its
# program interpreter.  The guest has no ld.so.cache: the libraries go
# where the loader looks without one, /lib/TRIPLET.  42 MB unpacked, which
# the kernel inflates at every boot that carries it: 0.3-1.8 s more of the
# guest's clock before /init (docs/harness.md, "The guest").
perfcpio=$BUILD/guest-bin/$arch/perf.cpio.gz
perf_closure() {
	local todo=$perfroot/usr/bin/perf f so lib seen=" "
	while [ -n "$todo" ]; do
		f=${todo%% *}; todo=${todo#"$f"}; todo=${todo# }
		for so in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			case $seen in *" $so "*) continue ;; esac
			seen="$seen$so "
			lib=
			for d in lib/$ARCH_TRIPLET usr/lib/$ARCH_TRIPLET; do
				[ -e "$perfroot/$d/$so" ] && lib=$perfroot/$d/$so && break
			done
			[ -n "$lib" ] || die "perf for $arch needs $so, which none of the packages scripts/deps.sh unpacked into ${perfroot#$TOP/} has; add its package to perf_pkgs there and run 'rm -rf ${perfroot#$TOP/}; make deps'"
			echo "$lib"
			todo="$todo${todo:+ }$lib"
		done
	done
}
if [ ! -f "$perfcpio" ] || [ -n "$(find "$perfroot" "$0" -newer "$perfcpio" 2>/dev/null | head -n 1)" ]; then
	pr=$perfcpio.root
	rm -rf "$pr" && mkdir -p "$pr/usr/bin" "$pr/lib/$ARCH_TRIPLET"
	cp "$perfroot/usr/bin/perf" "$pr/usr/bin/perf"
	libs=$(perf_closure) || exit
	for lib in $libs; do
		cp -L "$lib" "$pr/lib/$ARCH_TRIPLET/"
	done
	interp=$(readelf -l "$perfroot/usr/bin/perf" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
	mkdir -p "$pr${interp%/*}"
	cp -L "$perfroot/lib/$ARCH_TRIPLET/${interp##*/}" "$pr$interp" ||
		die "no program interpreter ${interp##*/} in ${perfroot#$TOP/}; run 'rm -rf ${perfroot#$TOP/}; make deps'"
	(cd "$pr" && find . | cpio -o -H newc --quiet | gzip -1 -n) >"$perfcpio.tmp" &&
		mv "$perfcpio.tmp" "$perfcpio"
	rm -rf "$pr"
fi

# The functions a kretprobe hit can call in this vmlinux, for the
# kprobe-safety suite (written again when the vmlinux changed).
"$TOP/scripts/lib/kprobe-hit-list.sh" --series "$SERIES" "$arch" "$obj" || exit
hitlist=$obj/kprobe-hit-callees.txt

# The facts of the arch and of the series whose kernel this is.
facts=$(printf 'GUEST_ARCH=%s\nSYSCALL_PREFIX=%s\nGUEST_SERIES=%s\nGUEST_FPROBE_ENTRY_DATA_CASE=%s\nGUEST_POOL_KIND=%s\n' \
	"$arch" "$ARCH_SYSCALL_PREFIX" "$SERIES" "${SERIES_FPROBE_ENTRY_DATA_CASE:-0}" "${SERIES_POOL_KIND:-}")
# Up to date when its facts are the same and nothing it is packed from is
# newer: the guest tree (a file added or removed changes its directory's
# time), this script and lib/harness.sh (the guest programs' compiler), the arch's
# facts, the static binaries, and the build's modules and kselftests
# (kernel.sh installs them afresh after every build).
if [ -f "$cpio" ] && [ "$(cat "$obj/initramfs/guest/arch.env" 2>/dev/null)" = "$facts" ] && [ -z "$(find "$TOP/guest" "$0" "$TOP/scripts/lib/harness.sh" "$TOP/config/arch/$arch.sh" "$busybox" "$bash" \
	"$obj/mod" "$obj/kselftest" "$gm" "$hitlist" -newer "$cpio" 2>/dev/null | head -n 1)" ]; then
	exit 0
fi

root=$obj/initramfs
rm -rf "$root" && mkdir -p "$root"/{bin,usr/bin,lib,guest,results}
cp "$busybox" "$root/bin/busybox"
cp "$bash" "$root/bin/bash"
ln -s busybox "$root/bin/sh"
cp "$TOP/guest/init" "$root/init"
cp -r "$TOP/guest/." "$root/guest/"
rm -rf "$root/guest/src" "$root/guest/init" "$root/guest/modules"
echo "$facts" >"$root/guest/arch.env"
cp "$hitlist" "$root/guest/kprobe-hit-callees.txt"

# Guest programs: one static binary per C file in guest/src.
for c in "$TOP"/guest/src/*.c; do
	[ -e "$c" ] || continue
	"$(arch_cc)" -O2 -static -pthread -Wall -o "$root/usr/bin/$(basename "$c" .c)" "$c" ||
		die "cannot build guest program $c for $arch"
done

# Without the perf archive (below) appended, /usr/bin/perf says how to get it.
cat >"$root/usr/bin/perf" <<'EOS'
#!/bin/sh
echo "perf: not in this boot: vm.sh appends perf (build/guest-bin/ARCH/perf.cpio.gz) when the command names perf, or with PERF=1 (make vm PERF=1 CMD=...)" >&2
exit 127
EOS
chmod 755 "$root/usr/bin/perf"

[ -d "$obj/mod/lib/modules" ] && cp -r "$obj/mod/lib/modules" "$root/lib/"
# The kernel's config where tools read it (the objpool kselftest tells an
# unset option from a module that is missing by it).
if [ -f "$obj/.config" ] && [ -f "$obj/include/config/kernel.release" ]; then
	mkdir -p "$root/boot"
	cp "$obj/.config" "$root/boot/config-$(cat "$obj/include/config/kernel.release")"
fi

if [ -d "$gm" ]; then
	mkdir -p "$root/guest/modules"
	if compgen -G "$gm/*.ko" >/dev/null; then
		cp "$gm"/*.ko "$root/guest/modules/" || die "cannot copy ${gm#$TOP/}/*.ko into the initramfs"
	fi
	# The mutants' list, those whose patch does not apply included.
	[ ! -f "$gm/objpool_mutants.txt" ] || cp "$gm/objpool_mutants.txt" "$root/guest/modules/"
fi
[ -d "$obj/kselftest" ] && cp -r "$obj/kselftest" "$root/kselftest"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1 -n) >"$cpio.tmp" &&
	mv "$cpio.tmp" "$cpio"

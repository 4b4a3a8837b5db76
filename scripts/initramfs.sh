#!/usr/bin/env bash
# Pack the guest's userspace for ARCH into OBJDIR/initramfs.cpio.gz: static
# busybox and bash, /init, the guest scripts and programs, the modules and
# kselftests of that build.  GUEST_PERF=1 adds the host's perf (x86_64).
# Usage: initramfs.sh ARCH OBJDIR
. "$(dirname "$0")/lib.sh"
arch=$1 obj=$2
root=$obj/initramfs
rm -rf "$root" && mkdir -p "$root"/{bin,usr/bin,lib,guest,results}

case $arch in
x86_64)	busybox=/bin/busybox bash=/bin/bash-static cc=gcc ;;
arm64)	busybox=$BUILD/guest-bin/arm64/bin/busybox
	bash=$BUILD/guest-bin/arm64/bin/bash-static cc=aarch64-linux-gnu-gcc ;;
esac
[ -x "$busybox" ] && [ -x "$bash" ] || die "no static busybox/bash for $arch guests; run 'make deps'"
cp "$busybox" "$root/bin/busybox"
cp "$bash" "$root/bin/bash"
ln -s busybox "$root/bin/sh"
cp "$TOP/guest/init" "$root/init"
cp -r "$TOP/guest/." "$root/guest/"
rm -rf "$root/guest/src" "$root/guest/init" "$root/guest/modules"

# Guest programs: one static binary per C file in guest/src.
for c in "$TOP"/guest/src/*.c; do
	[ -e "$c" ] || continue
	"$cc" -O2 -static -pthread -Wall -o "$root/usr/bin/$(basename "$c" .c)" "$c" ||
		die "cannot build guest program $c for $arch"
done

[ -d "$obj/mod/lib/modules" ] && cp -r "$obj/mod/lib/modules" "$root/lib/"

# The guest's own modules (guest/modules): built against this build,
# rebuilt when their source or the kernel changed.
if grep -q '^CONFIG_MODULES=y' "$obj/.config"; then
	gm=$obj/guest-modules
	if [ ! -d "$gm" ] || [ -n "$(find "$TOP/guest/modules" -newer "$gm/.built" 2>/dev/null)" ] ||
	   [ "$obj/vmlinux" -nt "$gm/.built" ]; then
		rm -rf "$gm" && cp -r "$TOP/guest/modules" "$gm"
		make -s -C "$obj" ARCH="$(karch "$arch")" CROSS_COMPILE="$(cross_prefix "$arch")" \
			M="$gm" modules >"$gm/build.log" 2>&1 ||
			{ cat "$gm/build.log" >&2; die "cannot build guest/modules against ${obj#$TOP/}"; }
		touch "$gm/.built"
	fi
	mkdir -p "$root/guest/modules"
	cp "$gm"/*.ko "$root/guest/modules/" 2>/dev/null || true
fi
[ -d "$obj/kselftest" ] && cp -r "$obj/kselftest" "$root/kselftest"

if [ -n "${GUEST_PERF:-}" ] && [ "$arch" = x86_64 ]; then
	perf=$(ls /usr/bin/perf_* 2>/dev/null | sort -V | tail -1)
	[ -n "$perf" ] || die "GUEST_PERF=1 but the host has no perf; apt-get install linux-perf"
	cp "$perf" "$root/usr/bin/perf"
	# The host's shared libraries, at the same paths, so the binary runs.
	ldd "$perf" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	mkdir -p "$root/lib64"
	[ -e /lib64/ld-linux-x86-64.so.2 ] && cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
fi

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1 -n) >"$obj/initramfs.cpio.gz.tmp" &&
	mv "$obj/initramfs.cpio.gz.tmp" "$obj/initramfs.cpio.gz"

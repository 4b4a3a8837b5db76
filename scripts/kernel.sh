#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make kernel: build ARCH/FLAVOR of the series' tree (or of the unpatched
# base with UNPATCHED=1) into <work>/<arch>-<flavor>[-unpatched]/ (<work>: the
# series' SERIES_BUILD, build/SERIES), with modules installed under mod/ and the selftests the guest runs under
# kselftest/.
# Usage: kernel.sh [--series NAME] ARCH FLAVOR [UNPATCHED]
. "$(dirname "$0")/lib/harness.sh"
arch=$1 flavor=$2 unpatched=${3:-}
use_arch "$arch"; check_flavor "$flavor"
obj=$(objdir "$arch" "$flavor" "$unpatched")
src=$TREE
# The base of a series on another's (SERIES_PARENT) is that series' head,
# built by this script started afresh for it (docs/design.md, "A series
# is an argument").
if [ -n "$unpatched" ] && [ -n "${SERIES_PARENT:-}" ]; then
	exec "$0" --series "$SERIES_PARENT" "$arch" "$flavor"
fi
if [ -n "$unpatched" ]; then
	src=$WORK/linux-base
	if [ ! -d "$src" ]; then
		git -C "$TREE" worktree add -q --detach "$src" base ||
			die "cannot create the base worktree in $src; run 'make tree' first"
	fi
fi
[ -f "$src/Makefile" ] || die "$src has no kernel source; run 'make tree'"

# One build of a directory at a time: two makes in one object directory
# (a second make kernel, make bench and make check side by side) leave
# truncated .cmd files and half-linked objects behind.  The second waits.
mkdir -p "$(dirname "$obj")"
exec 9>"$obj.lock"
flock -n 9 || { say "waiting for another build of ${obj#$TOP/} to end"; flock 9; }

# The base never changes: a complete unpatched build of the same config is kept.
if [ -n "$unpatched" ] && [ -f "$obj/.complete" ] &&
   [ "$(cat "$obj/.fragments" 2>/dev/null)" = "$(config_stamp "$arch" "$flavor" "$src")" ]; then
	say "$arch-$flavor (unpatched) is built"
	exit 0
fi

if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.fragments" 2>/dev/null)" != "$(config_stamp "$arch" "$flavor" "$src")" ]; then
	say "configuring $arch-$flavor${unpatched:+ (unpatched)}"
	"$TOP/scripts/lib/kconfig.sh" "$arch" "$flavor" "$src" "$obj" || exit
fi

jobs=$(nproc)
log=$obj/build.log
say "building $arch-$flavor${unpatched:+ (unpatched)} with $jobs jobs (log: ${log#$TOP/})"
start=$(date +%s)
# The selftests the guest runs: ftrace's, and the series' own once it has them.
targets=ftrace
[ -d "$src/tools/testing/selftests/objpool" ] && targets="$targets objpool"
build() {
	kmake "$src" "$obj" -j"$jobs" all && rm -rf "$obj/mod" "$obj/kselftest" &&
	kmake "$src" "$obj" -j"$jobs" INSTALL_MOD_PATH="$obj/mod" INSTALL_MOD_STRIP=1 modules_install &&
	make -C "$src/tools/testing/selftests" ARCH="$ARCH_KBUILD" \
		CROSS_COMPILE="$(arch_cross)" TARGETS="$targets" \
		O="$obj/kselftest-build" INSTALL_PATH="$obj/kselftest" install
}
# A ccache entry stored while a header existed that the tree has lost since
# (seen once: a KCSAN object compiled during a rebase, whose dependency file
# named the removed freelist.h) breaks fixdep; store fresh entries instead.
if ! build >"$log" 2>&1; then
	if grep -q '^fixdep: error opening file' "$log"; then
		warn "a stale ccache entry broke the build; rebuilding with CCACHE_RECACHE=1"
		CCACHE_RECACHE=1 build >"$log" 2>&1
	else
		false
	fi
fi || {
	grep -E -m 20 '(error|Error)[: ]' "$log" >&2
	tail -n 15 "$log" >&2
	die "build of $arch-$flavor failed; full log in ${log#$TOP/}"
}
# Without depmod (Debian's kmod) modules_install only warns, and every
# modprobe in the guest then fails for want of modules.dep.
ls "$obj"/mod/lib/modules/*/modules.dep >/dev/null 2>&1 ||
	die "no modules.dep in ${obj#$TOP/}/mod: depmod is missing; run 'make deps' (it installs kmod)"
secs=$(( $(date +%s) - start ))
echo "$secs" >"$obj/.build-seconds"
[ -f "$obj/.first-build-seconds" ] || echo "$secs" >"$obj/.first-build-seconds"
touch "$obj/.complete"
say "built $ARCH_IMAGE of $arch-$flavor${unpatched:+ (unpatched)} in $secs s"

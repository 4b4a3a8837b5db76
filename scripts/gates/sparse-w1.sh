#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: sparse (C=2) and the compiler's W=1 warnings on every .c file the
# series adds or modifies outside tools/ that the ARCH test config compiles,
# each object built alone in build/SERIES/ARCH-test.  A file passes when it has no
# warning (line numbers aside) that the same file did not have on the base,
# as recorded in EXPECT/sparse-w1-unpatched-ARCH.txt; a file new in the series
# has no base warnings.  Needs the kernel built: make check runs it after
# the test build of each arch config/post-build-gates names for it.
# Usage: sparse-w1.sh [--record] [ARCH]   (default DEFAULT_ARCH)
#   --record: build the same objects of the unpatched base in
#   build/SERIES/ARCH-test-unpatched (make kernel ARCH=ARCH UNPATCHED=1 first) and write
#   EXPECT/sparse-w1-unpatched-ARCH.txt; commit that file.
. "$(dirname "$0")/../lib/harness.sh"
record=
[ "${1:-}" = --record ] && { record=1; shift; }
arch=${1:-$DEFAULT_ARCH}
use_arch "$arch"
command -v sparse >/dev/null || die "sparse not found; run 'make deps' (Debian package sparse)"
expect=$EXPECT/sparse-w1-unpatched-$arch.txt
obj=$(objdir "$arch" "$TEST_FLAVOR")
[ -f "$obj/.config" ] && [ -f "$obj/include/generated/autoconf.h" ] ||
	die "no configured build in ${obj#$TOP/}; run 'make kernel ARCH=$arch' first"
files=$(git -C "$TREE" diff --name-only --diff-filter=AM base..HEAD -- '*.c' | grep -v '^tools/')


# warnings SRC OBJDIR FILE LOG: build FILE's object alone with C=2 W=1 and
# print its diagnostics (sparse's and the compiler's, in the file or in the
# headers it includes) as "path: message", without line and column numbers
# and without the source directory, sorted.  Fails when the build fails.
warnings() {
	local src=$1 o=$2 f=$3 log=$4
	# An up-to-date object is not recompiled and W=1 would say nothing:
	# remove it (ccache replays the compiler's warnings with the object).
	rm -f "$o/${f%.c}.o"
	kmake "$src" "$o" C=2 W=1 "${f%.c}.o" >"$log" 2>&1 || return
	sed -E -n "s#^($src/|\.\./$(basename "$src")/)?([^ :]+):[0-9]+(:[0-9]+)?: #\2: #p" "$log" |
		grep -v ': note: ' | sort -u
}

# compiled FILE: the config builds FILE: its object is in the objdir, or the
# Kconfig symbol of its obj-$(CONFIG_...) line in the directory's Makefile is set.
compiled() {
	local f=$1 dir name sym
	[ -f "$obj/${f%.c}.o" ] && return 0
	dir=$(dirname "$f") name=$(basename "${f%.c}")
	sym=$(sed -n -E "s/^obj-\\\$\((CONFIG_[A-Z0-9_]+)\)[[:space:]]*[+:]?=.*[[:space:]]$name\.o([[:space:]].*)?$/\1/p" \
		"$TREE/$dir/Makefile" 2>/dev/null | head -1)
	[ -n "$sym" ] && grep -Eq "^$sym=(y|m)$" "$obj/.config"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
logdir=$WORK/sparse-w1-$arch
mkdir -p "$logdir"

if [ -n "$record" ]; then
	bsrc=$WORK/linux-base bobj=$(objdir "$arch" "$TEST_FLAVOR" 1)
	[ -f "$bobj/.config" ] && [ -d "$bsrc" ] ||
		die "no unpatched build in ${bobj#$TOP/}; run 'make kernel ARCH=$arch UNPATCHED=1' first"
	{
		echo "# sparse (C=2) and W=1 warnings of the unpatched base ($arch, $TEST_FLAVOR config),"
		echo "# one 'FILE<TAB>warning' line each, line numbers stripped: the baseline of"
		echo "# scripts/gates/sparse-w1.sh.  Produced by 'scripts/gates/sparse-w1.sh --record $arch'"
		echo "# (each object of a .c file the series modifies, built alone with C=2 W=1 in"
		echo "# ${WORK#$TOP/}/$arch-$TEST_FLAVOR-unpatched from ${TREE#$TOP/}-base) with sparse $(sparse --version 2>/dev/null)"
		echo "# and $($(arch_cc) --version | head -1) on $(date -u +%Y-%m-%d).  Files new in the series"
		echo "# have no lines.  Re-record after a base or toolchain change."
		for f in $files; do
			[ -f "$bsrc/$f" ] || continue
			warnings "$bsrc" "$bobj" "$f" "$logdir/unpatched-${f//\//_}.log" >"$tmp/w" ||
				die "the unpatched build of ${f%.c}.o failed; see ${logdir#$TOP/}/unpatched-${f//\//_}.log"
			sed "s#^#$f\t#" "$tmp/w"
		done
	} >"$expect.tmp" && mv "$expect.tmp" "$expect"
	say "wrote ${expect#$TOP/} ($(grep -vc '^#' "$expect") warnings)"
	exit 0
fi

[ -f "$expect" ] || die "no ${expect#$TOP/}; record it with 'scripts/gates/sparse-w1.sh --record $arch'"
set -- $files
echo "TAP version 13"
echo "1..$#"
n=0
for f in "$@"; do
	n=$((n + 1))
	if ! compiled "$f"; then
		echo "ok $n $f # SKIP not built by the $arch $TEST_FLAVOR config"
		continue
	fi
	log=$logdir/${f//\//_}.log
	if ! warnings "$TREE" "$obj" "$f" "$log" >"$tmp/new"; then
		echo "not ok $n $f # the build failed: see ${log#$TOP/}"
		tail -20 "$log" | sed 's/^/# /'
		continue
	fi
	awk -F '\t' -v f="$f" '$1 == f { sub(/^[^\t]*\t/, ""); print }' "$expect" | sort -u >"$tmp/base"
	tap_added "$n" "$f" "$tmp/base" "$tmp/new" || echo "# full output: ${log#$TOP/}"
done

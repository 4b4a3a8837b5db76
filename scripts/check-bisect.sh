#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every prefix of the series builds: base+1, base+2, ... HEAD, each built as
# a kernel (vmlinux and modules) on ARCH.  make check runs it before each
# arch's test kernel (scripts/lib/check-one-series.sh): every prefix or
# the last patch, as the arch's ARCH_BISECT says (config/arch/ARCH.sh).
#
# Usage: check-bisect.sh [ARCH [all|last|objects]]
#   ARCH  one arch (config/arch/); without it, every arch of ARCHES (default
#         all), each with every prefix (make check-bisect)
#   last  only the last patch (HEAD); all (the default) every prefix
#   objects  the last patch's own directories only: after 'make prepare',
#         kbuild's build of each directory holding a C file the series
#         changes (with its subdirectories), which compiles the objects the
#         config enables there, the files that include the series' headers
#         among them; no vmlinux (for an arch where the series boots no
#         guest, whose whole kernel make check does not need)
#
# Cost: the prefixes are built in the test flavor's own object directory
# (<work>/<arch>-test, the one scripts/kernel.sh builds and make check
# boots), from the base's own tree, whose checkout of each prefix rewrites
# only the files the next patch changes.  So make rebuilds only what each
# patch touches (through ccache), and the last prefix is the test kernel:
# the kernel step after this one finds it built.  Kbuild allows one source
# tree per object directory, so this tree, not a worktree beside it.
#
# Config: the test flavor's (scripts/lib/kconfig.sh), which has the objpool
# KUnit suite and test module, kretprobes, fprobe and kprobe events; with
# every prefix (not 'last') plus
# config/bisect.config: CONFIG_DEBUG_OBJPOOL where the series has it, which
# the test kernel leaves out (its icount benchmarks, config/benches, would
# count the checks).  Each prefix gets that whole config through
# olddefconfig, which drops only the options its tree does not define yet.
# After the last prefix the test flavor's config is put back and built
# (only the files that read the debug option recompile), so the object
# directory holds the test kernel again.
#
# Output: one line per prefix, "ok" or "FAIL", with the patch, the seconds
# and the files compiled, also in <obj>/bisect/summary.txt; each prefix's
# build log in <obj>/bisect/NN.log.  A prefix that does not build fails the
# run (exit 1) and names its patch and log; the later prefixes still build.
#
# BISECT_FROM=K starts at prefix K (default 1), e.g. to resume a run.
# BISECT_TREE, BISECT_OBJ and BISECT_PATCHES replace the base's tree, the
# object directory and its patches directory (the control,
# scripts/gates/bisect.sh, runs this script on a small made-up tree).
. "$(dirname "$0")/lib/harness.sh"

if [ $# = 0 ]; then
	status=0
	for a in ${ARCHES:-$(valid_arches)}; do "$0" "$a" all || status=1; done
	exit $status
fi
arch=$1 mode=${2:-all}
case $mode in all|last|objects) ;; *) die "usage: check-bisect.sh [ARCH [all|last|objects]], not '$*'" ;; esac
use_arch "$arch"
src=${BISECT_TREE:-$TREE}
obj=${BISECT_OBJ:-$(objdir "$arch" "$TEST_FLAVOR")}
patches=${BISECT_PATCHES:-$PATCHES}
rel() { echo "${1#$TOP/}"; }

git -C "$src" rev-parse -q --verify base >/dev/null 2>&1 ||
	die "$(rel "$src") has no tag 'base'; run 'make tree SERIES=$SERIES'"
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
	die "$(rel "$src") has uncommitted changes; commit them (or 'make series') before building its prefixes"
head=$(git -C "$src" rev-parse HEAD)
branch=$(git -C "$src" symbolic-ref -q --short HEAD) || branch=
mapfile -t commits < <(git -C "$src" rev-list --reverse base..HEAD)
n=${#commits[@]}
[ "$n" -gt 0 ] || { say "$(rel "$src") has no patch on base: no prefix to build"; exit 0; }
# BISECT_FROM=K starts at prefix K (resuming a run cut short); last: HEAD.
first=${BISECT_FROM:-1}
case $first in ''|0|*[!0-9]*) die "BISECT_FROM must be a patch number from 1, not '$first'" ;; esac
[ "$first" -le "$n" ] || die "BISECT_FROM=$first, but the series has $n patches"
[ "$mode" = all ] || first=$n
# The patch files, in order (0000, the cover letter, is none).
mapfile -t pfiles < <(ls "$patches"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '/0000-')
# Named only when they are the tree's commits, one each (the tree step
# makes them so in make check).
[ "${#pfiles[@]}" = "$n" ] || pfiles=()

mkdir -p "$(dirname "$obj")"
exec 9>"$obj.lock"
flock -n 9 || { say "waiting for another build of $(rel "$obj") to end"; flock 9; }
mkdir -p "$obj/bisect"
rm -f "$obj"/bisect/[0-9]*.log
bis=$obj/bisect

# The test flavor's config, made as scripts/kernel.sh makes it (on HEAD).
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.fragments" 2>/dev/null)" != "$(config_stamp "$arch" test "$src")" ]; then
	say "configuring $arch-$TEST_FLAVOR"
	"$TOP/scripts/lib/kconfig.sh" "$arch" test "$src" "$obj" || exit
fi
cp "$obj/.config" "$bis/test.config"
stamp=$(cat "$obj/.fragments")

# The end (or an interrupt) puts the tree's branch and the test config
# back.  Until then the stamp says neither is in place, so that after a
# run killed outright kernel.sh configures afresh; its tree is then left
# at a prefix: 'git -C <tree> checkout work' (tree.sh's branch) restores it.
restore() {
	cmp -s "$bis/test.config" "$obj/.config" || cp "$bis/test.config" "$obj/.config"
	echo "$stamp" >"$obj/.fragments"
	if [ -n "$branch" ]; then
		git -C "$src" checkout -q "$branch"
	else
		git -C "$src" checkout -q --detach "$head"
	fi
}
echo "check-bisect.sh in progress" >"$obj/.fragments"
trap restore EXIT
trap 'exit 130' INT TERM

# The prefixes' config: the test config plus config/bisect.config, each of
# whose options must land on HEAD where HEAD's Kconfig defines it.
# Only where every prefix builds: the last patch alone (ARCH_BISECT=last)
# builds the test config, whose objects ccache holds from the base's own
# test kernel (and, for a series on another, from its parent's, but for
# the files the series changes); the debug option's code is the same C on
# every arch, built on the arches that build every prefix.
cp "$bis/test.config" "$bis/full.config"
frag=$TOP/config/bisect.config
[ "$mode" = all ] || frag=/dev/null
[ -f "$frag" ] && grep -E '^(CONFIG_|# CONFIG_)' "$frag" >>"$bis/full.config"
cp "$bis/full.config" "$obj/.config"
kmake "$src" "$obj" -s olddefconfig >"$bis/config.log" 2>&1 ||
	die "olddefconfig failed on $(rel "$src"); see $(rel "$bis/config.log")"
cp "$obj/.config" "$bis/full.config"
bad=
while IFS= read -r want; do
	opt=${want#\# }; opt=${opt%%[= ]*}
	grep -rqx --include='Kconfig*' "config ${opt#CONFIG_}" "$src" || continue
	got=$(grep -E "^(# )?${opt}[= ]" "$bis/full.config" || echo "# $opt is not set")
	[ "$got" = "$want" ] || bad="$bad '$want' (got '$got')"
done < <([ -f "$frag" ] && grep -E '^(CONFIG_|# CONFIG_)' "$frag")
[ -z "$bad" ] || die "config/bisect.config options that did not land on $(rel "$src"):$bad"

# unread COMMIT: every file COMMIT changes is one kbuild's make all never
# reads: MAINTAINERS, Documentation/ but its Kconfig files, tools/testing/
# (the userspace tests and selftests; make all builds neither).  Such a
# prefix gives the build of the one before it, which stands for it.
unread() {
	local f
	while IFS= read -r f; do
		case $f in
		Documentation/Kconfig*|Documentation/*/Kconfig*) return 1 ;;
		MAINTAINERS|Documentation/*|tools/testing/*) ;;
		*) return 1 ;;
		esac
	done < <(git -C "$src" diff-tree --no-commit-id --name-only -r "$1")
}
# build LOG: olddefconfig and the kernel for the loaded .config; retried
# once without ccache's stored results when a stale one breaks fixdep (as
# in scripts/kernel.sh: an object cached while a header existed that a
# later prefix removes).
build() {
	if [ "$mode" = objects ]; then
		kmake "$src" "$obj" -j"$(nproc)" olddefconfig prepare >"$1" 2>&1 &&
			kmake "$src" "$obj" -j"$(nproc)" $(series_dirs) >>"$1" 2>&1
		return
	fi
	kmake "$src" "$obj" -j"$(nproc)" olddefconfig all >"$1" 2>&1 && return
	grep -q '^fixdep: error opening file' "$1" || return
	warn "a stale ccache entry broke the build; rebuilding with CCACHE_RECACHE=1"
	CCACHE_RECACHE=1 kmake "$src" "$obj" -j"$(nproc)" olddefconfig all >"$1" 2>&1
}
# series_dirs: the directories of mode 'objects' (see Usage), the loaded
# arch's: none of another arch's.
series_dirs() {
	local f
	git -C "$src" diff --name-only base HEAD -- '*.c' | while read -r f; do
		case $f in
		tools/*|scripts/*|samples/*|Documentation/*|usr/*) continue ;;
		arch/"$ARCH_KBUILD"/*) ;;
		arch/*) continue ;;
		esac
		[ -f "$src/$f" ] && echo "$(dirname "$f")/"
	done | sort -u
}
# verdict K NAME LOG SECONDS OK: one line of the summary, and the reasons of
# a failure from its log.
status=0
verdict() {
	local line compiled
	compiled=$(grep -Ec '^ +CC( \[M\])? ' "$3")
	if [ "$5" = 0 ]; then
		line=$(printf 'ok   %s %s %s: %s s, %s files compiled' "$arch" "$1" "$2" "$4" "$compiled")
	else
		line=$(printf 'FAIL %s %s %s: does not build (log: %s)' "$arch" "$1" "$2" "$(rel "$3")")
		status=1
		grep -E -m 10 '(error|Error)[: ]' "$3" | sed 's/^/  /' >&2
	fi
	echo "$line" | tee -a "$bis/summary.txt" >&2
}

: >"$bis/summary.txt"
rc=0
say "building prefixes $first..$n of $n of $(rel "$src") on $arch in $(rel "$obj")"
for ((k = first; k <= n; k++)); do
	c=${commits[k - 1]}
	git -C "$src" checkout -q --detach "$c" || die "cannot check out prefix $k ($c) in $(rel "$src")"
	subject=$(git -C "$src" log -1 --format=%s "$c")
	name="patch $k/$n \"$subject\""
	[ -n "${pfiles[k - 1]:-}" ] && name="$name ($(rel "${pfiles[k - 1]}"))"
	log=$(printf '%s/%02d.log' "$bis" "$k")
	if [ "$k" -gt "$first" ] && [ "$rc" = 0 ] && unread "$c"; then
		printf 'ok   %s %s/%s %s: changes no file kbuild reads (MAINTAINERS, Documentation/, tools/testing/), so the build of %s/%s stands\n' \
			"$arch" "$k" "$n" "$name" "$((k - 1))" "$n" | tee -a "$bis/summary.txt" >&2
		continue
	fi
	cp "$bis/full.config" "$obj/.config"
	t0=$(date +%s)
	build "$log"; rc=$?
	secs=$(( $(date +%s) - t0 ))
	verdict "$k/$n" "$name" "$log" "$secs" "$rc"
	# The object directory's first build is this one, not the kernel
	# step's after it (make bench's build-boot-times reads it).
	[ "$rc" = 0 ] && [ ! -f "$obj/.first-build-seconds" ] && [ -z "${BISECT_OBJ:-}" ] &&
		echo "$secs" >"$obj/.first-build-seconds"
done
# The test kernel's own config on the last patch, when the prefixes had
# more (the debug option): the object directory holds the test kernel.
if ! cmp -s "$bis/full.config" "$bis/test.config"; then
	cp "$bis/test.config" "$obj/.config"
	log=$bis/test-config.log
	t0=$(date +%s)
	build "$log"; rc=$?
	verdict "$n/$n" "patch $n/$n with the $TEST_FLAVOR flavor's config (no config/bisect.config)" "$log" "$(( $(date +%s) - t0 ))" "$rc"
fi
exit $status

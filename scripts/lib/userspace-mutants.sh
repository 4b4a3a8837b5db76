#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs each mutant of the pool (mutants/objpool-userspace/NAME.patch)
# under a series tree's userspace stress test and says what caught it.
# The objpool-userspace gate runs it; by hand:
#
#   scripts/lib/userspace-mutants.sh DIR OUT [NAME...]  (default: every mutant)
#   scripts/lib/userspace-mutants.sh -l                 (the names, one a line)
#   scripts/lib/userspace-mutants.sh -b DIR OUT NAME    (build only; prints
#                            the directory of its objpool_test{,.tsan})
#
# DIR is the tree's tools/testing/objpool, OUT a directory for the builds,
# kept from one run to the next. A mutant is a small patch against
# lib/objpool.c or include/linux/objpool.h. OUT/NAME mirrors the tree as
# far as the test's Makefile reaches: a copy of DIR in
# tools/testing/objpool, links to the tree's tools/include and tools/lib,
# and copies of the pool's two files with the patch applied, where the
# test's relative paths find them; the test built there runs on the
# mutant, the tree untouched. Each patch's header names:
#
#   Verdict: what must catch it: one of the verdicts of main.c
#            ("[verdict: NAME]" in the output), or tsan-data-race, a
#            ThreadSanitizer report of a data race whose first frame is
#            in take() or put(), the test's accesses to an object, or
#            tsan-other-race, one whose first frame is elsewhere (the
#            pool's own accesses)
#   Build:   plain or tsan, the binary that must catch it
#   Slow:    (optional) why the cases catch it too rarely for a bounded
#            run; such a mutant runs only when named, and the default
#            run prints "skip NAME: ..." for it
#
# Each case of $MUTANT_CASES runs alone (-s), in turn, up to
# $MUTANT_PASSES times over the list, until one run ends with the
# mutant's verdict. A run that ends any other way (a different verdict,
# a crash, a timeout, a pass) does not count. One line per mutant:
# "ok   NAME: ..." or "FAIL NAME: ...", with what every run that did not
# catch it ended with. Exit status 0 when every mutant was caught.
#
# Environment: MUTANT_CASES (the stress cases below), MUTANT_PASSES (5),
# MUTANT_TIMEOUT (30 s a run).

usage="usage: $0 [-b] TREE/tools/testing/objpool OUT [NAME...] | -l"
case ${1:-} in -h|--help) echo "$usage"; exit 0 ;; esac
mutants=$(cd "$(dirname "$0")/../../mutants/objpool-userspace" && pwd) || exit 1
list() {
	(cd "$mutants" && ls -- *.patch) | sed 's/\.patch$//'
}
if [ "$1" = -l ]; then
	list
	exit 0
fi
only_build=
if [ "$1" = -b ]; then
	only_build=1
	shift
	[ $# = 3 ] || set --
fi
if [ $# -lt 2 ] || [ ! -f "$1/Makefile" ]; then
	echo "$usage" >&2
	exit 2
fi
dir=$(cd "$1" && pwd) || exit 1
tree=$(cd "$dir/../../.." && pwd) || exit 1
mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 1
shift 2
passes=${MUTANT_PASSES:-5}
limit=${MUTANT_TIMEOUT:-30}
cases=${MUTANT_CASES:-"stress_small stress_shared_cpu stress_wrap unbalanced spill_passes
	stale_head handoff irq_window landings publish_order all_on_one_cpu give_up
	thief_window sparse_rings hotplug_every_cpu"}
pool="lib/objpool.c include/linux/objpool.h"

names=$*
[ -n "$names" ] || names=$(list)

field() {
	sed -n "s/^$1: *//p" "$mutants/$2.patch" | head -1
}

# verdict OUTPUT STATUS BUILD: how one run ended.
verdict() {
	if [ "$3" = tsan ] && grep -q 'WARNING: ThreadSanitizer: data race' "$1"; then
		if sed -n '/WARNING: ThreadSanitizer: data race/,/^$/p' "$1" |
		   grep -m1 '#0 ' | grep -qE '#0 (take|put) '; then
			echo tsan-data-race
		else
			echo tsan-other-race
		fi
		return
	fi
	v=$(sed -n 's/.*\[verdict: \([a-z-]*\)\].*/\1/p' "$1" | head -1)
	if [ -n "$v" ]; then
		echo "$v"
	elif [ "$2" = 0 ]; then
		echo passed
	elif [ "$2" = 124 ]; then
		echo "timeout, no verdict"
	else
		echo "exit $2, no verdict"
	fi
}

# build NAME: the mutant's tree in $out/NAME and its plain and TSan
# binaries; a copy whose content is unchanged keeps its time, so
# that only what changed since the last run is built again.
build() {
	m=$out/$1
	if [ ! -f "$mutants/$1.patch" ]; then
		echo "no mutants/objpool-userspace/$1.patch"
		return 1
	fi
	rm -rf "$m/new" && mkdir -p "$m/new/lib" "$m/new/include/linux" \
		"$m/lib" "$m/include/linux" "$m/tools/testing" || return 1
	for f in $pool; do
		cp "$tree/$f" "$m/new/$f" || return 1
	done
	echo "  PATCH   $1"
	# Every hunk must apply: a patch reports success with one skipped.
	n=$(grep -c '^@@ ' "$mutants/$1.patch")
	got=$(patch --verbose -p1 -d "$m/new" <"$mutants/$1.patch" |
	      grep -c '^Hunk #.* succeeded')
	if [ "$got" != "$n" ]; then
		echo "mutant $1: $got of its $n hunks applied; regenerate" \
		     "mutants/objpool-userspace/$1.patch with diff -u"
		return 1
	fi
	for f in $pool; do
		cmp -s "$m/new/$f" "$m/$f" || cp "$m/new/$f" "$m/$f" || return 1
	done
	rm -rf "$m/new"
	ln -sfn "$tree/tools/include" "$m/tools/include" &&
	ln -sfn "$tree/tools/lib" "$m/tools/lib" &&
	rsync -a --delete --exclude=/out/ --exclude=/generated/ \
		--exclude='/objpool_test*' "$dir/" "$m/tools/testing/objpool/" ||
		return 1
	# The benchmark's peers are stubs: no case run here uses them.
	make -s -C "$m/tools/testing/objpool" FREELIST_H= UPSTREAM_DIR= \
		peer_freelist_FLAGS=-DPEER_BUILD_FAILED \
		peer_upstream_FLAGS=-DPEER_BUILD_FAILED \
		objpool_test objpool_test.tsan
}

if [ -n "$only_build" ]; then
	build "$1" >&2 && echo "$out/$1/tools/testing/objpool"
	exit
fi

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
rc=0
for name in $names; do
	if [ ! -f "$mutants/$name.patch" ]; then
		echo "FAIL $name: no mutants/objpool-userspace/$name.patch"
		rc=1
		continue
	fi
	slow=$(field Slow "$name")
	if [ -n "$slow" ] && [ -z "$*" ]; then
		echo "skip $name: runs only when named: $slow"
		continue
	fi
	want=$(field Verdict "$name")
	build=$(field Build "$name")
	case $build in
	plain) bin=objpool_test ;;
	tsan) bin=objpool_test.tsan ;;
	*) echo "FAIL $name: no Build: plain or tsan in its header"; rc=1; continue ;;
	esac
	if [ -z "$want" ]; then
		echo "FAIL $name: no Verdict: in its header"
		rc=1
		continue
	fi
	if ! build "$name" >"$work/build.log" 2>&1; then
		echo "FAIL $name: does not build or apply:"
		sed 's/^/  /' "$work/build.log" | tail -5
		rc=1
		continue
	fi
	caught=
	missed=
	pass=1
	while [ -z "$caught" ] && [ "$pass" -le "$passes" ]; do
		for c in $cases; do
			# Not the subshell's last command: the subshell, not
			# this shell, reports the signal that ends the run.
			(cd "$out/$name/tools/testing/objpool" &&
			 timeout "$limit" "./$bin" -s -t "$c"
			 st=$?; exit $st) >"$work/out" 2>&1
			got=$(verdict "$work/out" $? "$build")
			if [ "$got" = "$want" ]; then
				caught="caught by $want in $c ($build build, pass $pass)"
				break
			fi
			missed="${missed:+$missed, }$c: $got"
		done
		pass=$((pass + 1))
	done
	if [ -n "$caught" ]; then
		echo "ok   $name: $caught${missed:+ (before: $missed)}"
	else
		echo "FAIL $name: survived, wanted $want (runs: $missed)"
		rc=1
	fi
done
exit $rc

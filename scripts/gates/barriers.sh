#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: every ordering operation of the pool tied to the litmus test that
# proves it (scripts/lib/barrier_tags.py, on the series tree's lib/objpool.c and
# include/linux/objpool.h, and tools/testing/objpool/litmus/):
#  - tag/T+V: the operation under the comment tag [litmus: T+V] still has
#    what test T needs of it (the acquire, release, fully ordered cmpxchg,
#    barrier, re-read or address dependency that T+V weakens);
#    untagged: no ordering operation is under no tag; cited/T: every
#    litmus test is cited, directly or through its variants;
#  - control/NAME: the same check on a copy of the code with each tagged
#    operation weakened as its variant is, and with the three mutants an
#    audit found surviving every other gate (the pop's first read of
#    @head made READ_ONCE(), which herd7 proves enough and the code now
#    is; smp_mb__after_atomic() removed after the thief clears a bit,
#    provable by herd7 only: x86's clear_bit() is a full barrier; the
#    empty verdict without the re-read of @head), each caught by the
#    named check; an untagged barrier and an uncited test caught too;
#  - litmus/NAME: herd7's verdict on every litmus test, the Never tests
#    and, as each one's control, its Sometimes variants with one
#    operation weakened (litmus/check.sh). herd7 is found by find_herd7
#    (scripts/lib/harness.sh); without one these cases are skipped with the
#    reason, never passed.
. "$(dirname "$0")/../lib/harness.sh"
dir=$TREE/tools/testing/objpool/litmus
tool=$TOP/scripts/lib/barrier_tags.py
echo "TAP version 13"
if [ ! -x "$dir/check.sh" ]; then
	echo "1..1"
	echo "not ok 1 barriers # no tools/testing/objpool/litmus in ${TREE#$TOP/}; run make tree"
	exit 0
fi
out=$(
	python3 "$tool" --self-test 2>&1
	python3 "$tool" check "$TREE" "$dir" 2>&1
	python3 "$tool" controls "$TREE" "$dir" 2>&1
	herd7=$(find_herd7)
	case $? in
	0) HERD7=$herd7 "$dir/check.sh" 2>&1 | sed 's/^\(ok  \|FAIL\) /&litmus\//'
	   echo "# herd7: $herd7" ;;
	1) for f in "$dir"/*.litmus; do
		echo "SKIP litmus/$(basename "$f" .litmus): $herd7"
	   done ;;
	*) echo "FAIL litmus: $herd7" ;;
	esac
)
echo "1..$(echo "$out" | grep -c -E '^(ok  |FAIL|SKIP) ')"
echo "$out" | awk '
	/^ok   / { n++; sub(/^ok   /, "ok " n " "); print; next }
	/^FAIL / { n++; sub(/^FAIL /, "not ok " n " "); print; next }
	/^SKIP / { n++; sub(/^SKIP /, ""); i = index($0, ": ")
		   print "ok " n " " substr($0, 1, i - 1) " # SKIP " substr($0, i + 2); next }
	/^# / { print; next }
	{ print "# " $0 }'

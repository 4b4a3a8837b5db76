#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: every access to a field of the pool that other CPUs or contexts
# read or write concurrently is marked (scripts/lib/marked_accesses.py,
# on the series tree's include/linux/objpool.h and lib/objpool.c, with the
# list config/marked-accesses):
#  - field/F: every access to F is inside READ_ONCE(), WRITE_ONCE(),
#    smp_load_acquire(), smp_store_release(), a cmpxchg or xchg, an
#    atomic_*() or refcount_*() operation or an atomic bitop, or is in a
#    function the list excepts for F with its reason (init before the
#    pool is published, free when nothing may use it, a CPU's read of its
#    own ring pointer); each plain access fails, named by file:line,
#    function and expression;
#  - except/FN/F: each exception is still used;
#  - control/NAME: the same check on a copy of the two files with
#    mutants/objpool-userspace/ring-read-plain.patch applied (the ring
#    pointer read plainly), and with a slot word and a word of the avail
#    bitmap read plainly, each caught at the mutated access.
. "$(dirname "$0")/../lib/harness.sh"
tool=$TOP/scripts/lib/marked_accesses.py
list=$TOP/config/marked-accesses
mutants=$TOP/mutants/objpool-userspace
echo "TAP version 13"
if [ ! -f "$TREE/lib/objpool.c" ]; then
	echo "1..1"
	echo "not ok 1 marked-accesses # no pool in ${TREE#$TOP/}; run make tree"
	exit 0
fi
out=$(
	python3 "$tool" check "$list" "$TREE" 2>&1
	python3 "$tool" controls "$list" "$TREE" "$mutants" 2>&1
)
n=$(echo "$out" | grep -c -E '^(ok  |FAIL) ')
if [ "$n" = 0 ]; then
	# A tool that died before its first line: never a plan of 0, a pass.
	out="FAIL marked-accesses: no result from ${tool#$TOP/}
$out"
	n=1
fi
echo "1..$n"
echo "$out" | awk '
	/^ok   / { n++; sub(/^ok   /, "ok " n " "); print; next }
	/^FAIL / { n++; sub(/^FAIL /, "not ok " n " "); print; next }
	{ print "# " $0 }'

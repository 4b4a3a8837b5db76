#!/usr/bin/env bash
# TAP: the series' userspace stress test of lib/objpool.c
# (tools/testing/objpool), plain, under ThreadSanitizer and under
# AddressSanitizer+UBSan, each in its short mode; one case per test and build.
. "$(dirname "$0")/../lib.sh"
dir=$TREE/tools/testing/objpool
echo "TAP version 13"
if [ ! -d "$dir" ]; then
	echo "1..1"
	echo "not ok 1 objpool-userspace # no tools/testing/objpool in build/linux"
	exit 0
fi
log=$BUILD/objpool-userspace.log
if ! make -C "$dir" -j"$(nproc)" all >"$log" 2>&1; then
	echo "1..1"
	echo "not ok 1 objpool-userspace/build # see ${log#$TOP/}"
	sed 's/^/# /' "$log" | tail -20
	exit 0
fi
out=$(for b in objpool_test objpool_test.tsan objpool_test.asan; do
	(cd "$dir" && timeout 300 "./$b" -s) >"$log.$b" 2>&1
	rc=$?
	sed -n "s|^ok   \(.*\)|ok $b/\1|p; s|^FAIL \(.*\)|not ok $b/\1|p" "$log.$b"
	[ "$rc" = 0 ] || echo "not ok $b # exit status $rc, see ${log#$TOP/}.$b"
done)
echo "1..$(echo "$out" | grep -c .)"
echo "$out" | awk '{ n++; sub(/^(not )?ok /, "&" n " "); print }'

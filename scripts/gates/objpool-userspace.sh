#!/usr/bin/env bash
# TAP: the series' userspace stress test of lib/objpool.c
# (tools/testing/objpool), plain, under ThreadSanitizer and under
# AddressSanitizer+UBSan, each in its short mode; one case per test and
# build. Upstream's objpool (Debian's linux-source-6.12) is built in as
# the peer of the NMI positive control, which must fail on it.
. "$(dirname "$0")/../lib.sh"
dir=$TREE/tools/testing/objpool
echo "TAP version 13"
if [ ! -d "$dir" ]; then
	echo "1..1"
	echo "not ok 1 objpool-userspace # no tools/testing/objpool in build/linux"
	exit 0
fi
if ! up=$("$TOP/scripts/upstream-objpool.sh" 2>&1); then
	echo "1..1"
	echo "not ok 1 objpool-userspace/upstream-peer # $up"
	exit 0
fi
log=$WORK/objpool-userspace.log
if ! make -C "$dir" -j"$(nproc)" UPSTREAM_DIR="$up" all >"$log" 2>&1; then
	echo "1..1"
	echo "not ok 1 objpool-userspace/build # see ${log#$TOP/}"
	sed 's/^/# /' "$log" | tail -20
	exit 0
fi
out=$(if grep -q 'upstream peer: build failed' "$log"; then
		echo "not ok upstream-peer-built # the positive control needs it; see ${log#$TOP/} and $dir/out/*/peer_upstream.log"
	else
		echo "ok upstream-peer-built"
	fi
	for b in objpool_test objpool_test.tsan objpool_test.asan; do
	(cd "$dir" && timeout 300 "./$b" -s) >"$log.$b" 2>&1
	rc=$?
	sed -n "s|^ok   \(.*\)|ok $b/\1|p; s|^FAIL \(.*\)|not ok $b/\1|p
		s|^SKIP \([^ ]*\) # \(.*\)|ok $b/\1 # SKIP \2|p" "$log.$b"
	[ "$rc" = 0 ] || echo "not ok $b # exit status $rc, see ${log#$TOP/}.$b"
done)
echo "1..$(echo "$out" | grep -c .)"
echo "$out" | awk '{ n++; sub(/^(not )?ok /, "&" n " "); print }'

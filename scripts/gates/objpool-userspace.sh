#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the series' userspace stress test of lib/objpool.c
# (tools/testing/objpool), plain, under ThreadSanitizer and under
# AddressSanitizer+UBSan, each in its short mode; one case per test and
# build. Upstream's objpool (Debian's linux-source-6.12) is built in as
# the peer of the NMI positive control, which must fail on it. The
# landings case prints, per signal and window, the landings it counted
# and the least it asserts.
#
# Then mutant/NAME: each mutant of the pool (mutants/objpool-userspace/
# NAME.patch, run on the tree's test by scripts/lib/userspace-mutants.sh,
# built in the series' build directory) must be caught with the verdict
# its header names; a survivor fails; a mutant that runs only when named
# (its Slow: header) is a skip with that reason.
#
# The cases are pinned in expect/host-userspace.txt, "NAME ok",
# "NAME skip" or "NAME ok|skip" (the landings case: a loaded machine
# that does not get its landings in the time bound skips) a line: a pinned case that does not run (missing/NAME), a
# case not pinned (unpinned/NAME), a skip of a case pinned ok
# (unexpected-skip/NAME) and a run of one pinned skip (unexpected-run/
# NAME) each fail. After a deliberate change of the cases:
# USERSPACE_PIN=1 rewrites the list from this run.
. "$(dirname "$0")/../lib/harness.sh"
dir=$TREE/tools/testing/objpool
echo "TAP version 13"
if [ ! -d "$dir" ]; then
	echo "1..1"
	echo "not ok 1 objpool-userspace # no tools/testing/objpool in ${TREE#$TOP/}"
	exit 0
fi
if ! up=$("$TOP/scripts/lib/upstream-objpool-dir.sh" 2>&1); then
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
	sed -n 's/^  \(irqs\|NMIs\) in .*(at least [0-9]*)$/# '"$b"':&/p' "$log.$b"
done
"$TOP/scripts/lib/userspace-mutants.sh" "$dir" "$WORK/objpool-mutants" \
	>"$log.mutants" 2>&1
sed -n 's/^ok   \([^:]*\): \(.*\)/ok mutant\/\1 # \2/p
	s/^FAIL \([^:]*\): \(.*\)/not ok mutant\/\1 # \2/p
	s/^skip \([^:]*\): \(.*\)/ok mutant\/\1 # SKIP \2/p' "$log.mutants"
grep -Eq '^(ok  |FAIL) ' "$log.mutants" ||
	echo "not ok mutants # scripts/lib/userspace-mutants.sh ran none, see ${log#$TOP/}.mutants"
)
pinned=$TOP/expect/host-userspace.txt
# NAME STATUS for each case that ran: skip, or ok (passed or failed).
ran=$(echo "$out" | sed -n 's/^\(not \)\{0,1\}ok \([^ ]*\) # SKIP.*/\2 skip/p; t
	s/^\(not \)\{0,1\}ok \([^ ]*\).*/\2 ok/p' | sort -u)
if [ -n "${USERSPACE_PIN:-}" ]; then
	{ grep '^#' "$pinned" 2>/dev/null; echo "$ran"; } >"$pinned.new" &&
		mv "$pinned.new" "$pinned"
fi
out=$(echo "$out"
if [ ! -f "$pinned" ]; then
	echo "not ok pinned # no ${pinned#$TOP/}; USERSPACE_PIN=1 writes it"
else
	want=$(grep -v '^#' "$pinned" | sort -u)
	join -a1 -a2 -e none -o 0,1.2,2.2 <(echo "$want") <(echo "$ran") |
	while read -r name pin got; do
		case $pin/$got in
		ok/ok | skip/skip | "ok|skip"/ok | "ok|skip"/skip) ;;
		*/none) echo "not ok missing/$name # pinned in ${pinned#$TOP/} ($pin), did not run" ;;
		none/*) echo "not ok unpinned/$name # ran ($got), not in ${pinned#$TOP/}" ;;
		ok/skip) echo "not ok unexpected-skip/$name # pinned ok in ${pinned#$TOP/}, skipped" ;;
		skip/ok) echo "not ok unexpected-run/$name # pinned skip in ${pinned#$TOP/}, ran" ;;
		esac
	done
fi)
echo "1..$(echo "$out" | grep -c '^\(not \)\{0,1\}ok ')"
echo "$out" | awk '/^(not )?ok / { n++; sub(/^(not )?ok /, "&" n " ") } { print }'

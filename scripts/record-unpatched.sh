#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make record-unpatched: build the unpatched base (UNPATCHED=1) for each arch, run the
# same guest suites as make check, and record every case's status in
# EXPECT/unpatched-<arch>.txt.  make check then requires that every case that
# passed on the base passes on the patched kernel.  A case that fails on the
# base must be explained in EXPECT/exceptions.txt.
# ARCHES limits the arches (default: all).
. "$(dirname "$0")/lib/harness.sh"
status=0
# With no patches applied, the series' tree is the base: use its own builds.
unpatched=1
[ "$(git -C "$TREE" rev-list --count base..HEAD)" = 0 ] && unpatched=
for arch in ${ARCHES:-$(valid_arches)}; do
	"$TOP/scripts/kernel.sh" "$arch" "$TEST_FLAVOR" $unpatched || exit
	res=$WORK/results/$arch-$TEST_FLAVOR-unpatched
	RESULTS=$res "$TOP/scripts/vm.sh" "$arch" "$TEST_FLAVOR" $unpatched -- \
		"run-suites $(suites "$TEST_FLAVOR")"
	[ -d "$res" ] || die "no results came back from the $arch base guest"
	out=$EXPECT/unpatched-$arch.txt
	{
		echo "# Cases of the $TEST_FLAVOR flavor's suites (config/flavors) on the unpatched base ($arch),"
		echo "# recorded by 'make record-unpatched' on $(date -u +%Y-%m-%d)."
		"$TOP/scripts/lib/ktap.py" cases "$res"
	} >"$out.tmp" && mv "$out.tmp" "$out"
	while read -r case st; do
		case $st in SUCCESS|SKIPPED) continue ;; esac
		grep -Eq "^($arch|all)[[:space:]]+${case}[[:space:]]" "$EXPECT/exceptions.txt" 2>/dev/null && continue
		warn "$arch: $case is $st on the base; explain it in ${EXPECT#$TOP/}/exceptions.txt"
		status=1
	done < <(grep -v '^#' "$out")
	say "recorded $(grep -vc '^#' "$out") cases in ${out#$TOP/}"
done
exit $status

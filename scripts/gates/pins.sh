#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the pins of the series' claim-bearing guest cases hold.
#  - ktap-pinned/NAME: the controls of scripts/lib/ktap.py compare --pinned
#    (ktap.py self-test, on made-up results): a pinned case that passes
#    is green; the same case skipped, removed, or under another name, and
#    a pinned suite missing, each fail;
#  - pinned/ARCH-FLAVOR/CASE: for each build make check runs for this
#    series (SERIES_CHECK_FLAVORS, config/flavors), each case of
#    EXPECT/claims.txt whose suite the build runs is pinned SUCCESS in
#    its EXPECT/pinned-ARCH-FLAVOR.txt, so that a skip fails make check.
. "$(dirname "$0")/../lib/harness.sh"
claims=$EXPECT/claims.txt
out=$(
	python3 "$TOP/scripts/lib/ktap.py" self-test 2>&1 ||
		echo "FAIL ktap-pinned: ktap.py self-test did not pass (its output above)"
	if [ ! -f "$claims" ]; then
		echo "ok   pinned: no ${claims#$TOP/}, nothing this series claims is listed # SKIP"
		exit 0
	fi
	for flavor in $SERIES_CHECK_FLAVORS; do
		for arch in $(flavor_check_arches "$flavor"); do
			# the arches this series boots (SERIES_CHECK_ARCHES), as check-one-series.sh
			case " ${SERIES_CHECK_ARCHES:-$arch} " in *" $arch "*) ;; *) continue ;; esac
			pin=$EXPECT/pinned-$arch-$flavor.txt
			for s in $(suites "$flavor"); do
				grep -v '^#' "$claims" | grep "^$s/" |
				while read -r c; do
					if grep -qxF "$c SUCCESS" "$pin" 2>/dev/null; then
						echo "ok   pinned/$arch-$flavor/$c: SUCCESS in ${pin#$TOP/}"
					else
						echo "FAIL pinned/$arch-$flavor/$c: not pinned SUCCESS in ${pin#$TOP/}"
					fi
				done
			done
		done
	done
)
echo "TAP version 13"
echo "$out" | tap_lines

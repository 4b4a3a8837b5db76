# SPDX-License-Identifier: GPL-2.0
# The verdicts of guest suites as CSV, for the goals that are test
# outcomes (the 7.2 fix: its reproducer fails on the unfixed push and
# passes with the fix; upstream's lib/test_objpool.c passes).  Runs the
# suites as make check does (run-suites: TAP in /results/NAME.tap), then
# prints one row per TAP or KTAP result line: suite, depth (0 for the
# suite's own cases, 1 for the subtests of a KUnit suite...), case, and
# status (ok, not ok, skip).
# usage: suite-verdicts.sh SUITE...
run-suites "$@" >&2
echo "suite,depth,case,status"
for s; do
	sed -nE 's/^( *)(not ok|ok) [0-9]+ ([^#]*[^# ]) *(#(.*))?$/\1|\2|\3|\5/p' "/results/$s.tap" |
	while IFS='|' read -r indent status name directive; do
		case $directive in *[Ss][Kk][Ii][Pp]*) status=skip ;; esac
		echo "$s,$(( ${#indent} / 4 )),${name//,/;},$status"
	done
done

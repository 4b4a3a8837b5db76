#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# steps-total.sh DIRNAME SERIES...: the end of make check and make quick:
# each series' steps (DIRNAME/steps.tsv of its build directory, written by
# scripts/lib/check-one-series.sh: results for make check, results-quick for
# make quick), then one total over every case, "N passed, N failed, N
# skipped".  Exits non-zero on a failed case, or when a series has no steps.
. "$(dirname "$0")/harness.sh"
dirname=${1:?usage: steps-total.sh DIRNAME SERIES...}
shift
shopt -s nullglob
status=0 steps=() verdicts=()
echo
echo "== steps"
for b; do
	results=$(series_work "$b")/$dirname
	if [ ! -f "$results/steps.tsv" ]; then
		echo "FAIL $b    check-one-series.sh stopped before its first step (see its error above)"
		status=1
		continue
	fi
	awk -F'\t' -v b="$b" '{ printf "%-4s %-5s %s (%ss)\n", $1, b, $2, $3 }' "$results/steps.tsv"
	steps+=(--steps "$results/steps.tsv")
	verdicts+=("$results"/*/verdicts.json)
done
# The total needs a KUnit parser too: that of a series checked here (the
# list may leave out the one lib/harness.sh chose).
for b; do
	d=$(series_work "$b")/linux/tools/testing/kunit
	[ -d "$d" ] && { export KUNIT_DIR=$d; break; }
done
"$TOP/scripts/lib/ktap.py" total "${steps[@]}" "${verdicts[@]}" && [ $status = 0 ]

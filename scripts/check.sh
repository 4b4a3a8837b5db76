#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: everything a submission must pass, for every series
# (series-*/series.env; SERIES_LIST limits them), cheapest first within each
# (see scripts/lib/check-one-series.sh).  Ends with "N passed, N failed, N skipped"
# over all test cases of all series and exits non-zero on a failure.  ARCHES
# and FLAVORS limit each series' runs (FLAVORS=test leaves the sanitizer flavors
# out of a quick local run).
. "$(dirname "$0")/lib.sh"
bases=${SERIES_LIST:-$(checked_series)}
for b in $bases; do
	[ -f "$(series_env "$b")" ] || die "unknown series '$b' in SERIES_LIST; valid: $(valid_series)"
done
# PRUNE=1 (CI's default, whose disk others share) keeps only the trees and
# the results of a base once its steps are done (scripts/clean.sh).
prune=${PRUNE:-${CI:+1}}
# Disk: a base's tree is about 2 GB and stays (the shared gate and the
# totals read it); its kernel builds and make mail's clone, 2-3 GB, go
# once its steps are done when PRUNE=1.  A full disk breaks the unpacking
# of a tree halfway, so say it before.
need=3
for b in $bases; do
	[ -d "$(series_work "$b")/linux" ] || need=$((need + 2))
	[ "$prune" = 1 ] || need=$((need + 3))
done
mkdir -p "$TOP/build"
free=$(df -BG --output=avail "$TOP/build" | tail -n 1 | tr -dc 0-9)
[ "$free" -ge "$need" ] || die "make check of these series ($bases) needs about $need GB free under build/; $free GB are: free some (make clean removes the kernel builds), or run PRUNE=1 make check, or fewer series (SERIES_LIST)"
say deps
"$TOP/scripts/deps.sh" || die "make deps failed: fix the install error above and run make check again"
# First after the install (python3 comes with it on a bare machine).
say "self-tests of the harness's tools"
# ktap.py's self-tests parse with the kernel's own KTAP parser; before the
# first tree exists it comes from the base kernel's tarball.
parser=$("$TOP/scripts/lib/kunit-parser-dir.sh") || parser=
KUNIT_DIR=$parser "$TOP/scripts/tests/run.sh" || die "the harness's own tools fail their self-tests (above): fix them before anything they judge"
status=0
# Two lanes.  The build phases of all bases (trees, prefix builds,
# kernels) run one after another in the background, at the lowest CPU and
# I/O priority; the run phase of each base (host gates, guest suites)
# waits for its build phase and runs in the foreground.  A TCG guest keeps
# one of the two cores busy most of the time (vmstat: ~50% idle while the
# suites run), so the next bases build on the other.  At nice 19 a build
# yields the CPU to a guest, yet the guests still ran 0-35% longer beside
# the builds (the KASAN suites 703 s against 950), which the builds taken
# off the critical path outweigh: 60 minutes for the four series against
# 76 one after another (results/make-check-runs.md).  The timed host gates
# (the userspace stress) run in the foreground.  Each build phase's output is printed
# when its base's run phase starts: the log reads one base at a time.
# Each base judges its KUnit output with its own tree's parser: lib.sh
# exported this script's base's (KUNIT_DIR), which an empty value resets.
lanes=$BUILD/check-lanes
rm -rf "$lanes" && mkdir -p "$lanes"
(
	for b in $bases; do
		SERIES=$b KUNIT_DIR= nice -n 19 ionice -c 2 -n 7 \
			"$TOP/scripts/lib/check-one-series.sh" build >"$lanes/$b.log" 2>&1
		echo $? >"$lanes/$b.rc"
	done
) &
lane=$!
for b in $bases; do
	while [ ! -f "$lanes/$b.rc" ]; do
		kill -0 "$lane" 2>/dev/null || break
		sleep 5
	done
	cat "$lanes/$b.log" 2>/dev/null
	[ "$(cat "$lanes/$b.rc" 2>/dev/null)" = 0 ] || { status=1; warn "the build phase of $b failed (above)"; }
	SERIES=$b KUNIT_DIR= "$TOP/scripts/lib/check-one-series.sh" run || status=1
	[ "$prune" != 1 ] || "$TOP/scripts/clean.sh" "$b"
done
wait "$lane"

shopt -s nullglob
steps=() verdicts=()
echo
echo "== make check steps"
for b in $bases; do
	results=$(series_work "$b")/results
	if [ ! -f "$results/steps.tsv" ]; then
		echo "FAIL $b    check-one-series.sh stopped before its first step (see its error above)"
		status=1
		continue
	fi
	awk -F'\t' -v b="$b" '{ printf "%-4s %-5s %s (%ss)\n", $1, b, $2, $3 }' "$results/steps.tsv"
	steps+=(--steps "$results/steps.tsv")
	verdicts+=("$results"/*/verdicts.json)
done
# The total needs a KUnit parser too: that of a series checked here (SERIES_LIST
# may leave out the one lib.sh chose).
for b in $bases; do
	d=$(series_work "$b")/linux/tools/testing/kunit
	[ -d "$d" ] && { export KUNIT_DIR=$d; break; }
done
"$TOP/scripts/lib/ktap.py" total "${steps[@]}" "${verdicts[@]}" && [ $status = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: everything a submission must pass, for every series
# (series-*/series.env; SERIES_LIST limits them), cheapest first within each
# (see scripts/lib/check-one-series.sh).  Ends with "N passed, N failed, N skipped"
# over all test cases of all series and exits non-zero on a failure.  ARCHES
# and FLAVORS limit each series' runs (FLAVORS=test leaves the sanitizer flavors
# out of a quick local run).
. "$(dirname "$0")/lib/harness.sh"
series_list=${SERIES_LIST:-$(checked_series)}
for b in $series_list; do
	[ -f "$(series_env "$b")" ] || die "unknown series '$b' in SERIES_LIST; valid: $(valid_series)"
done
# PRUNE=1 (CI's default, whose disk others share) keeps only the trees and
# the results of a series once its steps are done (scripts/clean.sh).
prune=${PRUNE:-${CI:+1}}
# Disk: a series' tree is about 2 GB and stays (the shared gate and the
# totals read it); its kernel builds and make mail's clone, 2-3 GB, go
# once its steps are done when PRUNE=1.  A full disk breaks the unpacking
# of a tree halfway, so say it before.
need=3
for b in $series_list; do
	[ -d "$(series_work "$b")/linux" ] || need=$((need + 2))
	[ "$prune" = 1 ] || need=$((need + 3))
done
mkdir -p "$TOP/build"
free=$(df -BG --output=avail "$TOP/build" | tail -n 1 | tr -dc 0-9)
[ "$free" -ge "$need" ] || die "make check of these series ($series_list) needs about $need GB free under build/; $free GB are: free some (make clean removes the kernel builds), or run PRUNE=1 make check, or fewer series (SERIES_LIST)"
say deps
"$TOP/scripts/deps.sh" || die "make deps failed: fix the install error above and run make check again"
# First after the install (python3 comes with it on a bare machine).
say "self-tests of the harness's tools"
"$TOP/scripts/tests/run.sh" || die "the harness's own tools fail their self-tests (above): fix them before anything they judge"
status=0
# Two lanes (docs/design.md, "make check's two lanes").  The build phases
# of all series (trees, prefix builds, kernels) run one after another in
# the background, at the lowest CPU and I/O priority; the run phase of each
# series (host gates, guest suites) waits for its build phase and runs in
# the foreground, its build phase's output printed first: the log reads
# one series at a time.
# Each series judges its KUnit output with its own tree's parser (lib/harness.sh
# derives KUNIT_DIR for each series unless the user set it).
lanes=$BUILD/check-lanes
rm -rf "$lanes" && mkdir -p "$lanes"
(
	for b in $series_list; do
		nice -n 19 ionice -c 2 -n 7 \
			"$TOP/scripts/lib/check-one-series.sh" --series "$b" build >"$lanes/$b.log" 2>&1
		echo $? >"$lanes/$b.rc"
	done
) &
lane=$!
for b in $series_list; do
	while [ ! -f "$lanes/$b.rc" ]; do
		kill -0 "$lane" 2>/dev/null || break
		sleep 5
	done
	cat "$lanes/$b.log" 2>/dev/null
	[ "$(cat "$lanes/$b.rc" 2>/dev/null)" = 0 ] || { status=1; warn "the build phase of $b failed (above)"; }
	"$TOP/scripts/lib/check-one-series.sh" --series "$b" run || status=1
	[ "$prune" != 1 ] || "$TOP/scripts/clean.sh" "$b"
done
wait "$lane"

"$TOP/scripts/lib/steps-total.sh" results $series_list && [ $status = 0 ]

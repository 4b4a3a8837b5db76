#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make quick [SERIES=NAME]: the quick lane, before make check.  The
# harness's self-tests (scripts/tests/run.sh, lint among them), then the
# series' tree and every host gate of config/gates for it: all of make check
# but what needs a built kernel (the prefix builds, kernels, the gates of
# config/post-build-gates, the guest suites).  A few minutes once the tree
# exists.  Writes the series' results-quick/ (make check's results/ is left
# alone); ends "N passed, N failed, N skipped", non-zero on a failure.
. "$(dirname "$0")/lib/harness.sh"
say "self-tests of the harness's tools"
"$TOP/scripts/tests/run.sh" || die "the harness's own tools fail their self-tests (above): fix them before anything they judge"
# This lane checks one series: the gates it shares with another
# (SERIES_SHARED_GATES) run here, on that series' tree, as when make check
# leaves that series out.
SERIES_LIST=$SERIES "$TOP/scripts/lib/check-one-series.sh" --series "$SERIES" quick
status=$?
"$TOP/scripts/lib/steps-total.sh" results-quick "$SERIES" && [ $status = 0 ]

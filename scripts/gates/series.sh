#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the patches directory is the tree's commits, and its cover letter is
# the one scripts/lib/cover_letter.py writes from results/summary.md as it
# is (scripts/check-series.sh,
# which exports the series once for both).
exec "$(dirname "$0")/../check-series.sh" --tap "$@"

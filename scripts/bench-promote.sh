#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-promote: copy the last make bench's output (build/bench/: its
# CSVs, summary.md and plots) into results/.  The cover letters quote
# results/summary.md, so re-export each series afterwards ('make series
# [SERIES=...]') and commit results/ with the patches.
. "$(dirname "$0")/lib/harness.sh"
src=$BUILD/bench
[ -f "$src/summary.md" ] || die "no $src/summary.md: run 'make bench' first"
cp "$src"/* "$TOP/results/"
say "results/ updated from build/bench ($(ls "$src" | wc -l) files); now 'make series' for each series whose cover quotes a changed number, and commit"

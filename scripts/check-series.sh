#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-series: fail when the series' patches directory (PATCHES) and
# its tree (TREE, base..HEAD) differ, or when the cover letter is stale
# (its shortlog, or numbers that no longer match results/summary.md): the
# one judge of "the patches are current", cover letter included.
. "$(dirname "$0")/lib/harness.sh"
# --quiet: no output, only the status; --patches: ignore the cover letter
# (not even made: make tree's check reads nothing of results/);
# --tap: the two verdicts (the patches, the cover letter) as TAP, for the
# series gate (config/gates).
quiet= patches_only= tap=
for a; do case $a in --quiet) quiet=1 ;; --patches) patches_only=1 ;; --tap) tap=1 ;; esac; done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$TOP/scripts/lib/export-patches.sh" "$tmp/tree" ${patches_only:+--no-cover} || exit
mkdir -p "$tmp/repo"
for p in "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -e "$p" ] && cp "$p" "$tmp/repo/"
done
mkdir -p "$tmp/repo-cover" "$tmp/tree-cover"
mv "$tmp"/repo/0000-cover-letter.patch "$tmp/repo-cover/" 2>/dev/null
mv "$tmp"/tree/0000-cover-letter.patch "$tmp/tree-cover/" 2>/dev/null
fix="run 'make series' to export the tree, or 'make tree' after resetting ${TREE#$TOP/} to take ${PATCHES#$TOP/}/"
patches=ok cover=ok
pdiff=$(diff -r "$tmp/repo" "$tmp/tree") || patches=
cdiff=$(diff -r "$tmp/repo-cover" "$tmp/tree-cover") || cover=
if [ -n "$tap" ]; then
	echo "TAP version 13"
	echo "1..2"
	if [ -n "$patches" ]; then echo "ok 1 series/patches-current"; else
		echo "not ok 1 series/patches-current # ${PATCHES#$TOP/}/ and ${TREE#$TOP/} disagree: $fix"
		echo "$pdiff" | head -40 | sed 's/^/# /'
	fi
	if [ -n "$cover" ]; then echo "ok 2 series/cover-letter-current"; else
		echo "not ok 2 series/cover-letter-current # the cover letter is stale (its shortlog, or results/summary.md changed): run 'make series' and commit ${PATCHES#$TOP/}/"
		echo "$cdiff" | head -40 | sed 's/^/# /'
	fi
	[ -n "$patches" ] && series_stamp >"$TREE/.git/series-stamp"
	exit 0
fi
[ -n "$patches_only" ] && cover=ok
if [ -z "$patches" ] || [ -z "$cover" ]; then
	[ -n "$quiet" ] && exit 1
	printf '%s\n%s\n' "$pdiff" "$cdiff" | head -40 >&2
	die "${PATCHES#$TOP/}/ and ${TREE#$TOP/} disagree (or the cover letter is stale after a make bench): $fix"
fi
series_stamp >"$TREE/.git/series-stamp"
what=" and the cover letter"; [ -z "$patches_only" ] || what=
[ -n "$quiet" ] || say "${PATCHES#$TOP/}/ matches ${TREE#$TOP/} ($(ls "$tmp/tree" | wc -l) patches$what)"

#!/usr/bin/env bash
# make check-series: fail when the patches directory (patches/) and the
# tree (build/linux, base..HEAD) differ, or when the cover letter is stale
# (its shortlog, or numbers that no longer match results/summary.md): the
# one judge of "patches/ is current", cover letter included.
. "$(dirname "$0")/lib.sh"
# --quiet: no output, only the status; --patches: ignore the cover letter.
quiet= patches_only=
for a; do case $a in --quiet) quiet=1 ;; --patches) patches_only=1 ;; esac; done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$TOP/scripts/export-series.sh" "$tmp/tree" || exit
mkdir -p "$tmp/repo"
for p in "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -e "$p" ] && cp "$p" "$tmp/repo/"
done
[ -z "$patches_only" ] || rm -f "$tmp"/*/0000-cover-letter.patch
if ! out=$(diff -r "$tmp/repo" "$tmp/tree"); then
	[ -n "$quiet" ] && exit 1
	echo "$out" | head -40 >&2
	die "${PATCHES#$TOP/}/ and ${TREE#$TOP/} disagree (or the cover letter is stale after a make bench): run 'make series' to export the tree, or 'make tree' after resetting ${TREE#$TOP/} to take ${PATCHES#$TOP/}/"
fi
series_stamp >"$TREE/.git/series-stamp"
[ -n "$quiet" ] || say "${PATCHES#$TOP/}/ matches ${TREE#$TOP/} ($(ls "$tmp/tree" | wc -l) patches)"

#!/usr/bin/env bash
# make check-series: fail when patches/ and build/linux (base..HEAD) differ,
# or when the cover letter is stale (its shortlog, or numbers that no longer
# match results/summary.md).
. "$(dirname "$0")/lib.sh"
quiet=; [ "${1:-}" = --quiet ] && quiet=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$TOP/scripts/export-series.sh" "$tmp/tree" || exit
mkdir -p "$tmp/repo"
for p in "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -e "$p" ] && cp "$p" "$tmp/repo/"
done
if ! out=$(diff -r "$tmp/repo" "$tmp/tree"); then
	[ -n "$quiet" ] && exit 1
	echo "$out" | head -40 >&2
	die "patches/ and build/linux disagree: run 'make series' to export the tree, or 'make tree' after resetting build/linux to take patches/"
fi
[ -n "$quiet" ] || say "patches/ matches build/linux ($(ls "$tmp/tree" | wc -l) patches)"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make series: export the commits base..HEAD of the series' tree
# (build/SERIES/linux) to its patches directory (series-SERIES/patches/),
# with a cover letter made from its COVER/cover-letter.txt.  Only replaces the patches
# once the export worked.
. "$(dirname "$0")/lib/harness.sh"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "${TREE#$TOP/} has uncommitted changes; commit them (one commit per patch) first"
tmp=$(mktemp -d "$WORK/series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$TOP/scripts/lib/export-patches.sh" "$tmp" || exit
mkdir -p "$PATCHES"
find "$PATCHES" -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
cp "$tmp"/*.patch "$PATCHES/" 2>/dev/null || true
series_stamp >"$TREE/.git/series-stamp"
say "${PATCHES#$TOP/}/: $(ls "$tmp" | grep -vc '^0000-') patches and a cover letter exported from ${TREE#$TOP/}"

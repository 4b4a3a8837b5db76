#!/usr/bin/env bash
# make series: export the commits of build/linux (base..HEAD) to patches/,
# with a cover letter made from cover/cover-letter.txt.  Only replaces
# patches/ once the export worked.
. "$(dirname "$0")/lib.sh"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes; commit them (one commit per patch) first"
tmp=$(mktemp -d "$WORK/series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$TOP/scripts/export-series.sh" "$tmp" || exit
find "$PATCHES" -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
cp "$tmp"/*.patch "$PATCHES/" 2>/dev/null || true
say "patches/: $(ls "$tmp" | grep -vc '^0000-') patches and a cover letter exported from build/linux"

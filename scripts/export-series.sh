#!/usr/bin/env bash
# Write base..HEAD of build/linux as format-patch files into DIR, with the
# cover letter made from cover/cover-letter.txt and results/summary.md.
# Deterministic: no commit ids, no signature, a fixed cover letter date.
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: export-series.sh DIR}
git -C "$TREE" rev-parse -q --verify base >/dev/null ||
	die "build/linux has no 'base' tag; run 'make tree' first"
mkdir -p "$dir"
[ "$(git -C "$TREE" rev-list --count base..HEAD)" != 0 ] || exit 0
GIT_COMMITTER_DATE=$FIXED_DATE git -C "$TREE" format-patch -q --zero-commit \
	--no-signature --cover-letter --subject-prefix=PATCH -o "$dir" base..HEAD
"$TOP/scripts/cover-letter.py" "$dir/0000-cover-letter.patch" \
	"$TOP/results/summary.md" "$dir/0000-cover-letter.patch"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Write base..HEAD of the series' tree as format-patch files into DIR, with the
# cover letter made from its COVER/cover-letter.txt and results/summary.md;
# --no-cover: the patches only, reading nothing of results/ (make tree's
# "is the tree current" check, through check-series.sh --patches).
# Every patch has the project's identity (lib/harness.sh) as author and no
# Signed-off-by, whoever made the commits: make mail adds the sender's.
# Deterministic: no commit ids, no signature, a fixed cover letter date,
# and neither the user's nor the system's git config (format.signOff...).
. "$(dirname "$0")/harness.sh"
dir=${1:?usage: export-patches.sh DIR [--no-cover]}
cover=1; [ "${2:-}" = --no-cover ] && cover=
git -C "$TREE" rev-parse -q --verify base >/dev/null ||
	die "${TREE#$TOP/} has no 'base' tag; run 'make tree SERIES=$SERIES' first"
mkdir -p "$dir"
[ "$(git -C "$TREE" rev-list --count base..HEAD)" != 0 ] || exit 0
head=$("$TOP/scripts/lib/restamp-commits.sh" "$TREE" "$PROJECT_NAME" "$PROJECT_EMAIL") || exit
# --break-rewrites: a file the series rewrites (6.12's lib/objpool.c) is
# shown as removed and added whole, which is how a reviewer reads it, and
# checkpatch sees each new line beside its comment, not beside old lines.
GIT_COMMITTER_DATE=$FIXED_DATE git_plain -C "$TREE" format-patch -q --zero-commit \
	--break-rewrites --no-signature ${cover:+--cover-letter} --subject-prefix="${SERIES_SUBJECT_PREFIX:-PATCH}" -o "$dir" "base..$head"
[ -z "$cover" ] || "$TOP/scripts/lib/cover_letter.py" write "$COVER" "$dir/0000-cover-letter.patch" \
	"$TOP/results/summary.md" "$dir/0000-cover-letter.patch"

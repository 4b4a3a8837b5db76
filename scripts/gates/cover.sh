#!/usr/bin/env bash
# TAP: the cover letter's quoted results sections exist in results/summary.md
# and its hand-written numbers are measured or explained (scripts/
# cover_letter.py check).  That the exported cover letter is current is
# check-series' to say, with the rest of the series.
. "$(dirname "$0")/../lib.sh"
exec python3 "$TOP/scripts/cover_letter.py" check "$COVER" "$TOP/results/summary.md"

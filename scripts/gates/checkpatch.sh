#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: scripts/checkpatch.pl --strict on every patch of the series (PATCHES); a patch
# passes only when checkpatch has nothing to say (no error, warning or check)
# but the types of config/checkpatch-ignore and of the series'
# SERIES_CHECKPATCH_IGNORE (its own series.env's, not one it sources; it
# says why).
. "$(dirname "$0")/../lib/harness.sh"
set -- $(ls "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '/0000-')
echo "TAP version 13"
echo "1..$#"
ignore=$( { grep -v '^#' "$TOP/config/checkpatch-ignore" | awk 'NF { print $1 }'
	for t in $(own_setting SERIES_CHECKPATCH_IGNORE); do echo "$t"; done; } | paste -sd,)
n=0
for p in "$@"; do
	n=$((n + 1))
	name=$(basename "$p" .patch)
	# Debian's python3 first: checkpatch's SPDX check needs its ply and git modules.
	if out=$(cd "$TREE" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict --quiet \
			${ignore:+--ignore "$ignore"} "$p" 2>&1) && [ -z "$out" ]; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		echo "$out" | sed 's/^/# /'
	fi
done

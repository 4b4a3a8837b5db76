#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the files this series shares with another series
# (SERIES_SHARED_FILES of series-*/series.env) are the same at the head of both
# trees (their committed contents), so that the pool does not fork.  One
# case per file or directory; a skip when the base shares nothing.
. "$(dirname "$0")/../lib/harness.sh"
set -- ${SERIES_SHARED_FILES:-}
echo "TAP version 13"
if [ $# = 0 ]; then
	echo "1..1"
	echo "ok 1 shared # SKIP the $SERIES series shares no files (SERIES_SHARED_FILES is in the series that copies them)"
	exit 0
fi
echo "1..$#"
other=$(series_work "$SERIES_SHARED_WITH")/linux
# blobs TREE PATH: the committed files under PATH at TREE's head (what the
# series exports), as "blob path" lines, the path relative to PATH.
blobs() { git -C "$1" ls-tree -r HEAD -- "$2" | awk -v p="$2" '{ sub("^" p, "", $4); print $3, $4 }'; }
n=0
for f; do
	n=$((n + 1))
	# OURS=THEIRS: a file at another path in this tree (7.2's lib/tests/)
	ours=${f%%=*} path=${f#*=}
	theirs=$(blobs "$other" "$path" 2>/dev/null)
	if [ -z "$theirs" ]; then
		echo "not ok $n shared/$f # not committed in ${other#$TOP/}: run 'make tree SERIES=$SERIES_SHARED_WITH'"
	elif out=$(diff <(echo "$theirs") <(blobs "$TREE" "$ours")); then
		echo "ok $n shared/$f"
	else
		echo "not ok $n shared/$f # differs from ${other#$TOP/}: copy it over and amend the commit that adds it (series-7.2-rfc/README)"
		echo "$out" | head -20 | sed 's/^/# /'
	fi
done

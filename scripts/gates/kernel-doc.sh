#!/usr/bin/env bash
# TAP: scripts/kernel-doc -none on every C file and header the series
# touches; a file passes only when kernel-doc prints nothing.
. "$(dirname "$0")/../lib.sh"
cd "$TREE" || exit 1
set -- $(git diff --name-only --diff-filter=AM base..HEAD -- '*.c' '*.h' | grep -v '^tools/')
echo "TAP version 13"
echo "1..$#"
n=0
for f in "$@"; do
	n=$((n + 1))
	if out=$(scripts/kernel-doc -none "$f" 2>&1) && [ -z "$out" ]; then
		echo "ok $n $f"
	else
		echo "not ok $n $f"
		echo "$out" | sed 's/^/# /'
	fi
done

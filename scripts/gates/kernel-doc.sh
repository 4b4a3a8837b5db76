#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: scripts/kernel-doc -none on every C file and header the series
# touches; a file passes when kernel-doc says nothing that it did not say
# about the same file on the base (line numbers aside).
. "$(dirname "$0")/../lib/harness.sh"
cd "$TREE" || exit 1
set -- $(git diff --name-only --diff-filter=AM base..HEAD -- '*.c' '*.h' | grep -v '^tools/')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The warnings of one file, without line numbers and Perl's own noise.
warnings() { scripts/kernel-doc -none "$1" 2>&1 | grep -v '^Use of uninitialized' |
	sed -E 's/^[^:]+:[0-9]+: //' | sort; }
echo "TAP version 13"
echo "1..$#"
n=0
for f in "$@"; do
	n=$((n + 1))
	: >"$tmp/base"
	if git cat-file -e "base:$f" 2>/dev/null; then
		mkdir -p "$tmp/b/$(dirname "$f")"
		git show "base:$f" >"$tmp/b/$f"
		warnings "$tmp/b/$f" >"$tmp/base"
	fi
	warnings "$f" >"$tmp/new"
	tap_added "$n" "$f" "$tmp/base" "$tmp/new"
done

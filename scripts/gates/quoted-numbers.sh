#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: every number the docs copy by hand from results/ (README.md's
# headline table, the series' and benchmark kernels' READMEs) is still the
# number of the cell it quotes (scripts/lib/quoted_numbers.py, whose
# docstring has the rules; config/quoted-numbers maps each number):
#  - quoted/*: a case per quoted part of a document;
#  - control/*: the made-up README of fixtures/quoted-numbers against the
#    made-up summary of fixtures/: it passes; a number changed by hand
#    (wrong-number.md), a number added without its line
#    (unlisted-number.md) and a cell that moved under a quoted number fail.
. "$(dirname "$0")/../lib/harness.sh"
fx=$TOP/scripts/gates/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
quoted() { python3 "$TOP/scripts/lib/quoted_numbers.py" "$@"; }

# control NAME DOC SUMMARY WANT: the fixture's numbers, read as DOC's,
# against SUMMARY must pass (WANT=-) or fail naming WANT.
control() {
	local out
	sed "s/^@@ good\.md /@@ $2 /" "$fx/quoted-numbers/numbers" >"$tmp/numbers"
	out=$(quoted --root "$fx/quoted-numbers" --summary "$3" "$tmp/numbers")
	if [ "$4" = - ] && grep -q '^ok ' <<<"$out"; then
		echo "ok control/$1"
	elif [ "$4" != - ] && grep -q '^not ok ' <<<"$out" && grep -qF -- "$4" <<<"$out"; then
		echo "ok control/$1 (fails naming $4)"
	else
		echo "not ok control/$1 # expected ${4/#-/a pass}, got:"
		sed 's/^/# /' <<<"$out"
	fi
}
out=$(
	quoted "$TOP/config/quoted-numbers" | grep -v '^TAP version\|^1\.\.'
	control passes good.md "$fx/summary.md" -
	control wrong-number wrong-number.md "$fx/summary.md" '"808.7" (wrong-number.md line 5) is not in its cell'
	control unlisted-number unlisted-number.md "$fx/summary.md" '"96" (unlisted-number.md line 6) has no line'
	sed 's/| 807\.7 \/ 807\.7 |/| 808.1 \/ 808.1 |/' "$fx/summary.md" >"$tmp/moved.md"
	control cell-moved good.md "$tmp/moved.md" '"807.7" (good.md line 5) is not in its cell'
)
echo "TAP version 13"
echo "1..$(grep -c '^\(not \)\{0,1\}ok ' <<<"$out")"
awk '/^(not )?ok [0-9]+ / { n++; sub(/ [0-9]+ /, " " n " "); print; next }
	/^(not )?ok / { n++; sub(/ok /, "ok " n " "); print; next }
	{ print }' <<<"$out"

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
fx=$TOP/scripts/gates/fixtures/quoted-numbers

# control NAME DOC SUMMARY WANT: the fixture's numbers, read as DOC's,
# against SUMMARY must pass (WANT=-) or fail naming WANT.
control() {
	local out
	out=$(python3 "$TOP/scripts/lib/quoted_numbers.py" --root "$fx" --summary "$3" \
		<(sed "s/^@@ good\.md /@@ $2 /" "$fx/numbers"))
	if [ "$4" = - ] && grep -q '^ok ' <<<"$out"; then
		echo "ok control/$1"
	elif [ "$4" != - ] && grep -q '^not ok ' <<<"$out" && grep -qF -- "$4" <<<"$out"; then
		echo "ok control/$1 (fails naming $4)"
	else
		echo "not ok control/$1 # expected ${4/#-/a pass}, got:"
		sed 's/^/# /' <<<"$out"
	fi
}
summary=$fx/../summary.md
out=$(
	python3 "$TOP/scripts/lib/quoted_numbers.py" "$TOP/config/quoted-numbers"
	control passes good.md "$summary" -
	control wrong-number wrong-number.md "$summary" '"808.7" (wrong-number.md line 5) is not in its cell'
	control unlisted-number unlisted-number.md "$summary" '"96" (unlisted-number.md line 6) has no line'
	control cell-moved good.md <(sed 's/| 807\.7 \/ 807\.7 |/| 808.1 \/ 808.1 |/' "$summary") \
		'"807.7" (good.md line 5) is not in its cell'
)
tap_merge <<<"$out"

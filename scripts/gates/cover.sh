#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the cover letter is plain text and each number of the cover letter
# and of the commit messages is true (scripts/lib/cover_letter.py check and
# messages, whose docstring has the rules):
#  - cover/*: the base's cover (series-N/cover) against
#    results/summary.md: it quotes no Markdown section; every place of a
#    number has its line in numbers.txt, in order; each number whose line
#    names a cell of summary.md is in that very cell;
#  - numbers/*: each commit message of the base's patches whose numbers
#    read as measurements has its section in commit-numbers.txt beside
#    numbers.txt, checked the same way;
#  - the patch-list case: the cover's numbered list, where it has one, has
#    an item per patch, in order;
#  - control/*: the made-up cover, commit message and summary of
#    fixtures/: they pass; the check fails when summary.md's cell moved
#    (a wrong number), when two numbers of the cover's table are swapped
#    (each still a number of summary.md), when the cover quotes a section
#    and when a message's measurements have no section.
# That the exported cover letter is current is check-series' to say, with
# the rest of the series.
. "$(dirname "$0")/../lib/harness.sh"
fx=$TOP/scripts/gates/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py() { python3 "$TOP/scripts/lib/cover_letter.py" "$@"; }

# control NAME WANT NUMBER CMD...: CMD's TAP must fail exactly the cases
# WANT (none: pass them all) and name NUMBER in its diagnostics.
control() {
	local name=$1 want=$2 num=$3 out failed
	shift 3
	out=$("$@")
	failed=$(sed -n 's/^not ok \([0-9]*\) .*/\1/p' <<<"$out" | paste -sd,)
	if [ "$failed" = "$want" ] && { [ -z "$num" ] || grep -q "\"$num\"\|($num" <<<"$out"; }; then
		echo "ok control/$name${want:+ (fails case $want${num:+, on $num})}"
	else
		echo "not ok control/$name # expected failing cases '${want}', got '${failed}'"
		sed 's/^/# /' <<<"$out"
	fi
}
out=$(
	py check "$COVER" "$TOP/results/summary.md"
	py messages "$COVER" "$PATCHES" "$TOP/results/summary.md"
	py patches "$COVER" "$PATCHES"
	control cover-passes "" "" py check "$fx/cover" "$fx/summary.md"
	control message-passes "" "" py messages "$fx/cover" "$fx/patches" "$fx/summary.md"
	sed 's/| 807\.7 \/ 807\.7 |/| 808.1 \/ 808.1 |/' "$fx/summary.md" >"$tmp/moved.md"
	control cover-wrong-number 3 807.7 py check "$fx/cover" "$tmp/moved.md"
	control message-wrong-number 1 807.7 py messages "$fx/cover" "$fx/patches" "$tmp/moved.md"
	cp -r "$fx/cover" "$tmp/swapped"
	sed -i 's/^\(  kretprobe, x86_64 *\)789\.7\( *\)807\.7$/\1807.7\2789.7/' "$tmp/swapped/cover-letter.txt"
	control cover-swapped-numbers 2 789.7 py check "$tmp/swapped" "$fx/summary.md"
	cp -r "$fx/cover" "$tmp/quoted"
	printf '\n@@RESULTS Memory@@\n' >>"$tmp/quoted/cover-letter.txt"
	control cover-quoted-section 1 "" py check "$tmp/quoted" "$fx/summary.md"
	cp -r "$fx/cover" "$tmp/nosection"
	: >"$tmp/nosection/commit-numbers.txt"
	control message-without-section 1 789.7 py messages "$tmp/nosection" "$fx/patches" "$fx/summary.md"
	# the made-up series has one patch: a list of one passes, of two fails
	mkdir "$tmp/listed"
	printf 'subject\n\n 1. the made-up patch;\n' >"$tmp/listed/cover-letter.txt"
	control patch-list-passes "" "" py patches "$tmp/listed" "$fx/patches"
	printf ' 2. a patch the series does not have.\n' >>"$tmp/listed/cover-letter.txt"
	control patch-list-one-too-many 1 "" py patches "$tmp/listed" "$fx/patches"
)
tap_merge <<<"$out"

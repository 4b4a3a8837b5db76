#!/usr/bin/env bash
# TAP: the cover letter is plain text and each of its numbers is true
# (scripts/cover_letter.py check, whose docstring has the rules):
#  1-3. the base's cover (cover/ for 6.1, series-N/cover) against
#       results/summary.md: it quotes no Markdown section; every place of
#       a number has its line in numbers.txt, in order; each number whose
#       line names a cell of summary.md is in that very cell;
#  4-7. controls on the made-up cover and summary of fixtures/: the
#       fixture passes; it fails when summary.md's cell moved (a wrong
#       number), when two numbers of its table are swapped (each still a
#       number of summary.md) and when it quotes a section.
# That the exported cover letter is current is check-series' to say, with
# the rest of the series.
. "$(dirname "$0")/../lib.sh"
fx=$TOP/scripts/gates/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { python3 "$TOP/scripts/cover_letter.py" check "$@"; }

echo "TAP version 13"
echo "1..7"
check "$COVER" "$TOP/results/summary.md" | grep -v '^TAP version\|^1\.\.'

# control N NAME WANT COVER SUMMARY: the check of COVER against SUMMARY
# must fail exactly case WANT (none: pass every case) and name the
# number in its diagnostics.
control() {
	local n=$1 name=$2 want=$3 num=$4 out failed
	out=$(check "$5" "$6")
	failed=$(sed -n 's/^not ok \([0-9]\) .*/\1/p' <<<"$out" | paste -sd,)
	if [ "$failed" = "$want" ] && { [ -z "$num" ] || grep -q "^# .*\"$num\"" <<<"$out"; }; then
		echo "ok $n control/$name${want:+ (fails case $want${num:+, on $num})}"
	else
		echo "not ok $n control/$name # expected failing cases '${want}', got '${failed}'"
		sed 's/^/# /' <<<"$out"
	fi
}
control 4 fixture-passes "" "" "$fx/cover" "$fx/summary.md"
sed 's/| 807\.7 \/ 807\.7 |/| 808.1 \/ 808.1 |/' "$fx/summary.md" >"$tmp/moved.md"
control 5 wrong-number 3 807.7 "$fx/cover" "$tmp/moved.md"
cp -r "$fx/cover" "$tmp/swapped"
sed -i 's/^\(  kretprobe, x86_64 *\)789\.7\( *\)807\.7$/\1807.7\2789.7/' "$tmp/swapped/cover-letter.txt"
control 6 swapped-numbers 2 789.7 "$tmp/swapped" "$fx/summary.md"
cp -r "$fx/cover" "$tmp/quoted"
printf '\n@@RESULTS Memory@@\n' >>"$tmp/quoted/cover-letter.txt"
control 7 quoted-section 1 "" "$tmp/quoted" "$fx/summary.md"

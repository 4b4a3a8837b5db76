#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# reproducer-verdict.sh RESULTS_DIR: one line each for the fix's KUnit reproducer
# before (objpool-nmi-unfixed: the case on the base's pool) and after
# (kunit-objpool: the case on the fixed pool), from a guest run's TAP
# files, for make check's log: the verdict, the mechanism a catch saw,
# and the counts of NMIs, of landings inside pops, pushes and a push's
# window (between its reservation and its publication), and of the
# pushes nested there, the events the fix exists for; then a line per
# mutant of the fixed pool the same suite ran (mutant_NAME_caught): its
# verdict, the run that caught it and the mechanism.  Prints nothing
# where the run has neither.
case ${1:-} in -h|--help) sed -n '3,12s/^# //p' "$0"; exit 0 ;; esac
res=${1:?usage: reproducer-verdict.sh RESULTS_DIR}
before=$res/objpool-nmi-unfixed.tap after=$res/kunit-objpool.tap
counts='objpool_test_nmi: CPU [0-9]*: [0-9]* NMIs, [0-9]* in pop, [0-9]* in push[^#]*nested pushes'
[ -f "$before" ] && grep -q 'unfixed_push_fails' "$before" || exit 0
why=$(sed -n 's/^# verdict: //p' "$before" | head -n 1)
caught=$(sed -n 's/^# caught in run /caught in run /p' "$before" | head -n 1)
nmis=$(grep "^# run " "$before" | grep -o "$counts" | tail -n 1)
echo "before the fix: $(grep -E '^(not )?ok 1 unfixed_push_fails' "$before" | sed 's/ 1 / /'); $caught${why:+: $why}${nmis:+ (${nmis#objpool_test_nmi: })}"
grep -Eo '^(not )?ok [0-9]+ mutant_[A-Za-z0-9_]*_caught.*' "$before" | while read -r line; do
	m=$(printf '%s\n' "$line" | grep -o 'mutant_[A-Za-z0-9_]*_caught')
	why=$(sed -n "s/^# $m verdict: //p" "$before" | head -n 1)
	caught=$(sed -n "s/^# $m caught in run /caught in run /p" "$before" | head -n 1)
	echo "$m: $(printf '%s\n' "$line" | sed 's/ok [0-9]* [^ ]*/ok/')${caught:+; $caught}${why:+: $why}"
done
[ -f "$after" ] || exit 0
nmis=$(grep -o "$counts" "$after" | tail -n 1)
echo "after the fix: $(grep -Eo '(not )?ok [0-9]+ objpool_test_nmi( # SKIP.*)?$' "$after" | head -n 1 | sed 's/ok [0-9]* /ok /')${nmis:+ (${nmis#objpool_test_nmi: })}"

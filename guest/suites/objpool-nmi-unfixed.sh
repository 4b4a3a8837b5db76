# SPDX-License-Identifier: GPL-2.0
# The "before" of the fix series (7.2, and 6.12's backport): its KUnit
# NMI case (lib/tests/objpool_kunit.c, lib/objpool_kunit.c on 6.12; the
# "after" in kunit-objpool) built unchanged on the base's objpool.h
# (guest/modules/objpool_unfixed_kunit.c) must fail with a verdict that
# names what went wrong: an object handed out twice, a foreign pointer,
# an owner changed while held, last behind head, last behind tail
# (entries never published), or a pop spinning (the case stops it after
# 10 s).  "objects lost" alone is not a catch: it names no mechanism.
# Its case, unfixed_push_fails, is "ok" when a run caught the base's
# pool (up to ATTEMPTS runs, below).  Also reports how often the base's
# reservation loop would have warned (its WARN_ON_ONCE, counted instead).
#
# Then, where the series has mutants of its fixed pool (series-7.2/mutants:
# NAME.patch, each breaking a part of the fix in HEAD's objpool.h), the
# same case on each (objpool_mut_NAME_kunit.ko, guest/modules/Kbuild),
# one case mutant_NAME_caught each, judged the same way with the
# verdicts its patch lists ("Verdicts:"), in at least as many runs as its
# "Attempts:" line asks (a mutant whose flaw a run finds less often than
# the base's asks more); a patch that no longer applies fails its case.
. /guest/tap.sh
mutants=/guest/modules/objpool_mutants.txt
n=1
[ ! -f "$mutants" ] || n=$((1 + $(grep -c . "$mutants")))
tap_plan "$n"
# The bug needs an NMI that pushes inside another push's window, which a
# run may not get: each run has the exposure of the "after" run (the
# same case, unchanged), and the control passes on the first run that
# catches the bug, and says which.  A run that passes, or whose stress
# fell short (a skip with its counts), is counted, not hidden.
ATTEMPTS=${ATTEMPTS:-3}
runs() { dmesg | grep -c '# Subtest: objpool$'; }
base_verdicts='object handed out twice|pop returned a foreign pointer|object changed owner|last behind head|last behind tail|a pop spinning'

# caught NAME KO VERDICTS [RUNS]: one case, ok when one of RUNS (ATTEMPTS)
# runs of KO's KUnit case fails with a first error matching VERDICTS (an
# extended regex).  Its
# comment lines start "# run", "# verdict:", "# caught in run" for the
# base (scripts/lib/reproducer-verdict.sh reads them), with the case's
# name first for a mutant ("# mutant_NAME_caught verdict: ...").
caught() {
	local name=$1 ko=$2 verdicts="first error: ($3)" tries=${4:-$ATTEMPTS} mod attempt before ktap skip passed=0 short=0 tag=
	[ "$name" = unfixed_push_fails ] || tag="$name "
	mod=$(basename "$ko" .ko)
	mod=${mod//-/_}
	for attempt in $(seq "$tries"); do
		before=$(runs)
		insmod "$ko" || echo "insmod $ko failed" >&2
		ktap=$(kunit_ktap objpool)
		rmmod "$mod"
		printf '%s\n' "$ktap" | grep -E '# objpool_test_nmi|first error|ok 1 objpool' | sed "s/^ */# ${tag}run $attempt: /"
		if [ "$(runs)" -le "$before" ]; then
			tap_fail "$name" "run $attempt of the case printed no KUnit result: see dmesg.txt"
			return
		fi
		skip=$(printf '%s\n' "$ktap" | sed -n 's/^ *ok [0-9]* objpool_test_nmi # SKIP //p')
		case $skip in
		"")	;;
		"stress fell short"*)
			echo "# ${tag}run $attempt: $skip"
			short=$((short + 1))
			continue ;;
		*)	tap_skip "$name" "the KUnit case skipped: $skip"
			return ;;
		esac
		if printf '%s\n' "$ktap" | grep -q '^not ok 1 objpool'; then
			if printf '%s\n' "$ktap" | grep -Eq "$verdicts"; then
				dmesg | grep -o "$mod: the reservation.*" | tail -n 1 | sed 's/^/# /'
				printf '%s\n' "$ktap" | grep -Eo 'first error: [^(]*[^( ]' | head -n 1 |
					sed "s/^first error: /# ${tag}verdict: /"
				echo "# ${tag}caught in run $attempt of $tries ($passed passed, $short fell short before)"
				tap_ok "$name"
				return
			fi
			tap_fail "$name" "run $attempt failed without a verdict naming a mechanism (objects lost only?): see dmesg.txt"
			return
		elif printf '%s\n' "$ktap" | grep -q '^ok 1 objpool'; then
			passed=$((passed + 1))
		else
			tap_fail "$name" "no KUnit result for suite objpool in run $attempt: see dmesg.txt"
			return
		fi
	done
	if [ "$passed" = 0 ]; then
		tap_skip "$name" "the stress fell short in all $tries runs: no NMI pushed inside a push's window"
	else
		tap_fail "$name" "the case passed on this pool in $passed of $tries runs ($short fell short): it cannot catch the bug"
	fi
}

ko=/guest/modules/objpool_unfixed_kunit.ko
if [ ! -f "$ko" ]; then
	tap_skip unfixed_push_fails "no objpool_unfixed_kunit.ko: the tree has no lib/tests/objpool_kunit.c (the unpatched base, or not the 7.2 series)"
else
	caught unfixed_push_fails "$ko" "$base_verdicts"
fi
[ -f "$mutants" ] || exit 0
# objpool_mutants.txt: NAME, status (applies, does-not-apply), verdicts,
# runs; tabs.
while IFS=$'\t' read -r mutant status verdicts tries; do
	[ -n "$mutant" ] || continue
	name=mutant_${mutant//-/_}_caught
	ko=/guest/modules/objpool_mut_${mutant}_kunit.ko
	if [ "$status" != applies ]; then
		tap_fail "$name" "$mutant.patch does not apply to the tree's HEAD include/linux/objpool.h (guest-modules/objpool_mut_$mutant.d.log of the build): refresh it"
	elif [ -z "$verdicts" ]; then
		tap_fail "$name" "$mutant.patch has no 'Verdicts:' line: nothing would count as a catch"
	elif [ ! -f "$ko" ]; then
		tap_fail "$name" "its patch applies but $ko was not built"
	else
		[[ $tries =~ ^[0-9]+$ ]] && [ "$tries" -gt "$ATTEMPTS" ] || tries=$ATTEMPTS
		caught "$name" "$ko" "$verdicts" "$tries"
	fi
done <"$mutants"
exit 0

# SPDX-License-Identifier: GPL-2.0
# The "before" of the fix series (7.2, and 6.12's backport): its KUnit
# NMI case (lib/tests/objpool_kunit.c, lib/objpool_kunit.c on 6.12; the
# "after" in kunit-objpool) built unchanged on the base's objpool.h
# (guest/modules/objpool_unfixed_kunit.c) must fail with a verdict that
# names what went wrong: an object handed out twice, a foreign pointer,
# an owner changed while held, last behind head, last behind tail
# (entries never published), or a pop spinning (the case stops it after
# 10 s).  "objects lost" alone is not a catch: it names no mechanism.
# Its one case, unfixed_push_fails, is "ok" when a run caught the base's
# pool (up to ATTEMPTS runs, below).  Also reports how often the base's
# reservation loop would have warned (its WARN_ON_ONCE, counted instead).
. /guest/tap.sh
tap_plan 1
name=unfixed_push_fails
ko=/guest/modules/objpool_unfixed_kunit.ko
if [ ! -f "$ko" ]; then
	tap_skip "$name" "no objpool_unfixed_kunit.ko: the tree has no lib/tests/objpool_kunit.c (the unpatched base, or not the 7.2 series)"
	exit 0
fi
# The bug needs an NMI that pushes inside another push's window, which a
# run may not get: each run has the exposure of the "after" run (the
# same case, unchanged), and the control passes on the first run that
# catches the bug, and says which.  A run that passes, or whose stress
# fell short (a skip with its counts), is counted, not hidden.
ATTEMPTS=${ATTEMPTS:-3}
runs() { dmesg | grep -c '# Subtest: objpool$'; }
verdicts='first error: (object handed out twice|pop returned a foreign pointer|object changed owner|last behind head|last behind tail|a pop spinning)'
passed=0 short=0
for attempt in $(seq "$ATTEMPTS"); do
	before=$(runs)
	insmod "$ko" || echo "insmod $ko failed" >&2
	ktap=$(kunit_ktap objpool)
	rmmod objpool_unfixed_kunit
	printf '%s\n' "$ktap" | grep -E '# objpool_test_nmi|first error|ok 1 objpool' | sed "s/^ */# run $attempt: /"
	if [ "$(runs)" -le "$before" ]; then
		tap_fail "$name" "run $attempt of the case printed no KUnit result: see dmesg.txt"
		exit 0
	fi
	skip=$(printf '%s\n' "$ktap" | sed -n 's/^ *ok [0-9]* objpool_test_nmi # SKIP //p')
	case $skip in
	"")	;;
	"stress fell short"*)
		echo "# run $attempt: $skip"
		short=$((short + 1))
		continue ;;
	*)	tap_skip "$name" "the KUnit case skipped: $skip"
		exit 0 ;;
	esac
	if printf '%s\n' "$ktap" | grep -q '^not ok 1 objpool'; then
		if printf '%s\n' "$ktap" | grep -Eq "$verdicts"; then
			dmesg | grep -o 'objpool_unfixed_kunit: the reservation.*' | tail -n 1 | sed 's/^/# /'
			printf '%s\n' "$ktap" | grep -Eo 'first error: [^(]*[^( ]' | head -n 1 |
				sed 's/^first error: /# verdict: /'
			echo "# caught in run $attempt of $ATTEMPTS ($passed passed, $short fell short before)"
			tap_ok "$name"
			exit 0
		fi
		tap_fail "$name" "run $attempt failed without a verdict naming a mechanism (objects lost only?): see dmesg.txt"
		exit 0
	elif printf '%s\n' "$ktap" | grep -q '^ok 1 objpool'; then
		passed=$((passed + 1))
	else
		tap_fail "$name" "no KUnit result for suite objpool in run $attempt: see dmesg.txt"
		exit 0
	fi
done
if [ "$passed" = 0 ]; then
	tap_skip "$name" "the stress fell short in all $ATTEMPTS runs: no NMI pushed inside a push's window"
else
	tap_fail "$name" "the case passed on the unfixed pool in $passed of $ATTEMPTS runs ($short fell short): it cannot catch the bug"
fi
exit 0

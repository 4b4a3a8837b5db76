# The "before" of the fix series (7.2, and 6.12's backport): its KUnit
# NMI case (lib/tests/objpool_kunit.c, lib/objpool_kunit.c on 6.12; the
# "after" in kunit-objpool) built on the base's unfixed push (guest/modules/objpool_unfixed_kunit.c) must fail:
# an object handed out twice or lost, or a pop that livelocked, which the
# case stops itself after 10 s without progress.  Its one case,
# unfixed_push_fails, is "ok" when the KUnit case caught the unfixed push.
# Also reports how often the base's reservation loop would have warned
# (its WARN_ON_ONCE, counted instead).
. /guest/tap.sh
tap_plan 1
name=unfixed_push_fails
ko=/guest/modules/objpool_unfixed_kunit.ko
if [ ! -f "$ko" ]; then
	tap_skip "$name" "no objpool_unfixed_kunit.ko: the tree has no lib/tests/objpool_kunit.c (the unpatched base, or not the 7.2 series)"
	exit 0
fi
insmod "$ko" || echo "insmod $ko failed" >&2
ktap=$(kunit_ktap objpool)
rmmod objpool_unfixed_kunit
printf '%s\n' "$ktap" | grep -E '# objpool_test_nmi|first error|ok 1 objpool' | sed 's/^ */# /'
dmesg | grep -o 'objpool_unfixed_kunit: the reservation.*' | tail -n 1 | sed 's/^/# /'
skip=$(printf '%s\n' "$ktap" | sed -n 's/^ *ok [0-9]* objpool_test_nmi # SKIP //p')
if [ -n "$skip" ]; then
	tap_skip "$name" "the KUnit case skipped: $skip"
elif printf '%s\n' "$ktap" | grep -q '^not ok 1 objpool'; then
	tap_ok "$name"
elif printf '%s\n' "$ktap" | grep -q '^ok 1 objpool'; then
	tap_fail "$name" "the case passed on the unfixed push: it cannot catch the bug"
else
	tap_fail "$name" "no KUnit result for suite objpool: see dmesg.txt"
fi
exit 0

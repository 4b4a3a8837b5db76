# Upstream's own lib/test_objpool.c (Linux 6.7 and later), unchanged, on
# whatever pool the kernel has.  It runs its sync, overrun, async and
# hrtimer testcases at load, prints a summary and refuses to stay loaded
# (-EAGAIN); it has no verdict of its own.  A testcase passes here when
# its summary line shows hits, and its memory summary shows every byte
# its pool allocated freed ("kmalloc: A - F = 0", the same for vmalloc).
# Passes wrongly: a pool that hands an object out twice (the module does
# not check ownership; the objpool KUnit suite does).
. /guest/tap.sh
m=$(module_path test_objpool)
if [ -z "$m" ]; then
	tap_plan 1; tap_skip test_objpool "no test_objpool.ko (CONFIG_TEST_OBJPOOL off)"; exit 0
fi
if ! grep -q 'Summary of testcases' "$m"; then
	tap_plan 1
	tap_skip test_objpool "this test_objpool.ko is not upstream's (the 6.1 series' own; kselftest-objpool runs it)"
	exit 0
fi
start=$(dmesg | wc -l)
out=$(insmod "$m" 2>&1)
rc=$?
log=$(log_since "$start" | sed 's/^\[[^]]*\] //')
summary=$(echo "$log" | sed -n '/Summary of testcases:/,$p' | grep 'duration:')
mem=$(echo "$log" | grep -E '^ +(kmalloc|vmalloc): ')
tap_plan $(( 2 + $(echo "$summary" | grep -c .) ))
# 0 is impossible: the module always refuses to stay loaded.
case $out in
*'Resource temporarily unavailable'*|*'Try again'*) tap_ok load_returns_eagain ;;
*) tap_fail load_returns_eagain "insmod: exit $rc: $out" ;;
esac
if [ -n "$mem" ] && ! echo "$mem" | grep -Evq '= 0$'; then
	tap_ok memory_returned
else
	tap_fail memory_returned "a pool kept memory after its test: $(echo "$mem" | grep -Ev '= 0$' | head -n 3 | tr '\n' ';')"
fi
echo "$summary" | while read -r line; do
	name=$(echo "$line" | sed 's/.*miss: *[0-9]* *//' | tr -c 'a-zA-Z0-9\n' _ | tr -s _)
	hits=$(echo "$line" | sed -n 's/.*hits: *\([0-9]*\).*/\1/p')
	if [ "${hits:-0}" -gt 0 ]; then tap_ok "$name"; else tap_fail "$name" "no hits: $line"; fi
done

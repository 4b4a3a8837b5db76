# SPDX-License-Identifier: GPL-2.0
# Upstream's own lib/test_objpool.c (6.7+), unchanged, on the pool of the
# tree it was built in: on the 6.12 series that is our pool behind 6.12's
# API.  The module runs ten cases (sync, hrtimer, overrun, async with
# objpool_drop), prints one summary line each and a kmalloc/vmalloc
# balance, and fails its own init with -EAGAIN on purpose.  Cases:
#   loaded           insmod ran the cases: it failed with EAGAIN and the
#                    module printed its summary of all ten (each run)
#   every_case_hits  each case popped and pushed objects (hits > 0)
#   no_leak          every case freed what it allocated (alloc - free = 0)
#   no_warning       no WARNING, BUG or RCU stall on the console
# It needs a preemptible kernel (config/preempt.config says why), which
# the 6.12 base's test flavor is (series-6.12/series.env).
. /guest/tap.sh
# shellcheck disable=SC2034 # tap_skip_all (guest/tap.sh) reads it
cases="loaded every_case_hits no_leak no_warning"
tap_plan 4
ko=$(module_path test_objpool)
[ -n "$ko" ] || tap_skip_all "no test_objpool.ko (CONFIG_TEST_OBJPOOL off)"
upstream_test_objpool "$ko" ||
	tap_skip_all "test_objpool.ko is the 6.1 series' benchmark module (kselftest-objpool runs it), not upstream's"
# uname -v names the preemption model: "SMP PREEMPT" for CONFIG_PREEMPT.
case " $(uname -v) " in
*" PREEMPT "* | *" PREEMPT_RT "*) ;;
*) tap_skip_all "upstream's test_objpool hangs a kernel that cannot preempt a kthread ($(uname -v)): merge config/preempt.config (series-6.12/series.env does for its test flavor)" ;;
esac

start=$(dmesg | wc -l)
err=$(insmod "$ko" 2>&1)
rc=$?
log=$(log_since "$start" | sed 's/^\[[ 0-9.]*\] //')
summary=$(printf '%s\n' "$log" | grep -E '^ +duration: [0-9]+us')
echo "# insmod exit $rc: $err"
printf '%s\n' "$summary" | sed 's/^ */# /'
nsummary=$(printf '%s\n' "$summary" | grep -c .)
# Busybox's insmod retries with init_module() when finit_module() fails,
# so the module's init runs twice; every run is judged.
runs=$(printf '%s\n' "$log" | grep -c '^Summary of testcases:')
if [ "$rc" != 0 ] && printf '%s' "$err" | grep -q 'Resource temporarily unavailable\|Try again' &&
   [ "$runs" -ge 1 ] && [ "$nsummary" = $((10 * runs)) ]; then
	tap_ok loaded
else
	tap_fail loaded "expected insmod to fail with EAGAIN after ten summary lines a run; got exit $rc, $runs runs, $nsummary lines"
fi
# "duration: 1000123us 	hits:    1234 	miss:   0 	sync: percpu objpool"
zero=$(printf '%s\n' "$summary" | awk '{ for (i = 1; i < NF; i++) if ($i == "hits:") h = $(i + 1); if (h + 0 == 0) n++ } END { print n + 0 }')
if [ "$runs" -ge 1 ] && [ "$zero" = 0 ]; then
	tap_ok every_case_hits
else
	tap_fail every_case_hits "$zero of $nsummary cases had no hit"
fi
# "  kmalloc: 4096 - 4096 = 0", one kmalloc and one vmalloc line per case
balance=$(printf '%s\n' "$log" | grep -E '^ +[kv]malloc: [0-9]+ - [0-9]+ = ')
nbalance=$(printf '%s\n' "$balance" | grep -c .)
leaks=$(printf '%s\n' "$balance" | grep -cv '= 0$')
printf '%s\n' "$balance" | grep -v '= 0$' | sed 's/^ */# leak: /'
if [ "$runs" -ge 1 ] && [ "$nbalance" = $((20 * runs)) ] && [ "$leaks" = 0 ]; then
	tap_ok no_leak
else
	tap_fail no_leak "$leaks of $nbalance allocation balances are not zero (expected 20 lines a run, $runs runs)"
fi
bad=$(printf '%s\n' "$log" | grep -E 'WARNING:|BUG:|rcu: INFO:|Call Trace' | head -n 5)
if [ -z "$bad" ]; then
	tap_ok no_warning
else
	tap_fail no_warning "$(printf '%s' "$bad" | head -n 1)"
	printf '%s\n' "$bad" | sed 's/^/# /'
fi

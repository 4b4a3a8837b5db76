# The project's own kretprobe regression cases; same results on the base and
# the patched kernel.
# - guest/modules/krp_sleep.ko: kretprobes on a function that sleeps; the
#   module runs each scenario in its init and logs one
#   "krp_sleep: result NAME ok|fail|skip DETAIL" line per case:
#   mode=unregister: unregistered while threads are inside, then released;
#   mode=exhaust: maxactive M, K > M threads inside: exactly K - M misses.
# - tracefs kprobe_events: bad maxactive values and a garbage line must be
#   rejected with the base kernel's error_log message; r4096 (the maximum)
#   must work.
. /guest/tap.sh
ko=/guest/modules/krp_sleep.ko
tr=/sys/kernel/tracing

# What a wrong pool would still pass, per case:
# unregister_entered: a pool giving two threads one instance (entries still count n).
# unregister_returned: a pool that frees instances early but whose memory still reads fine (KASAN in debug sees it).
# unregister_no_handler_after: a pool that loses the instances of an unregistered probe (nothing runs).
# unregister_reregister: a pool whose leak only shows after many rounds.
# unregister_no_leak: any; it skips in every make check flavor (test, kcsan: no kmemleak;
#   debug: KASAN quarantine), and the debug flavor's kmemleak suite covers leaks instead.
# exhaust_entered: a pool with maxactive plus one spare that a second miss would show (k - m counted exactly).
# exhaust_returned: a pool that returns instances to the wrong probe's pool (one probe here).
# exhaust_second_round: a pool that misses while instances are free but only below m (never here).
unregister_cases="unregister_entered unregister_returned unregister_no_handler_after unregister_reregister unregister_no_leak"
exhaust_cases="exhaust_entered exhaust_returned exhaust_second_round"
# line|expected error_log message ("(none)": the write fails without one)
bad_inputs=(
	"r0:krp_lt_bad kernel_clone|Invalid maxactive number"
	"r5000:krp_lt_bad kernel_clone|Maxactive is too big"
	"r10fuzz:krp_lt_bad kernel_clone|Invalid maxactive number"
	"krp garbage {line}|(none)"
)
bad_names=(tracefs_r0_rejected tracefs_r5000_rejected tracefs_r10fuzz_rejected tracefs_garbage_rejected)
set -- $unregister_cases $exhaust_cases
tap_plan $(( 2 + $# + ${#bad_inputs[@]} + 2 ))

# run_mode MODE CASES PARAMS...: load the module with mode=MODE, one TAP case
# per expected result line, then one for loading and unloading it.
run_mode() {
	local mode=$1 cases=$2 mark out rc name line res detail
	shift 2
	mark=$(dmesg | wc -l)
	if [ ! -e "$ko" ]; then
		out="$ko missing (not built?)" rc=1
	else
		out=$(insmod "$ko" mode="$mode" "$@" 2>&1) && rc=0 || rc=$?
	fi
	log_since "$mark" >&2
	for name in $cases; do
		line=$(log_since "$mark" | grep -m 1 "krp_sleep: result $name ")
		res=$(echo "$line" | sed -n "s/.*krp_sleep: result $name \([a-z]*\) .*/\1/p")
		detail=$(echo "$line" | sed -n "s/.*krp_sleep: result $name [a-z]* //p")
		case $res in
		ok) tap_ok "$name"; echo "# $detail" ;;
		skip) tap_skip "$name" "$detail" ;;
		fail) tap_fail "$name" "$detail" ;;
		*) tap_fail "$name" "no result line (insmod mode=$mode: rc $rc $out)" ;;
		esac
	done
	if [ "$rc" = 0 ] && log_since "$mark" | grep -q "krp_sleep: done mode=$mode ret=0" &&
	   out=$(rmmod krp_sleep 2>&1); then
		tap_ok "${mode}_load_unload"
	else
		tap_fail "${mode}_load_unload" "insmod rc $rc, rmmod: ${out:-not run}"
		rmmod krp_sleep 2>/dev/null
	fi
}

# 512 threads, each instance with 4 KiB of data (KRETPROBE_MAX_DATA_SIZE):
# a leak of the in-flight instances (2 MiB or more) stands well above the
# noise of the free-memory count (the module's limit is half of it).
run_mode unregister "$unregister_cases" nthreads=512 data_size=4096
run_mode exhaust "$exhaust_cases" nthreads=12 maxactive=4 data_size=64

if [ ! -w $tr/kprobe_events ]; then
	for name in "${bad_names[@]}" tracefs_r4096_accepted tracefs_r4096_hits; do
		tap_skip "$name" "no $tr/kprobe_events (CONFIG_KPROBE_EVENTS off)"
	done
	exit 0
fi

# Each bad line: the write fails and error_log holds the expected message.
# Passes wrongly: a pool that breaks only for accepted lines; these never reach it.
for i in "${!bad_inputs[@]}"; do
	line=${bad_inputs[$i]%|*} want=${bad_inputs[$i]#*|} name=${bad_names[$i]}
	: >$tr/error_log
	if err=$(echo "$line" 2>&1 >>$tr/kprobe_events); then
		tap_fail "$name" "'$line' accepted"
		echo "-:krp_lt_bad" >>$tr/kprobe_events 2>/dev/null
		continue
	fi
	got=$(sed -n 's/.*error: //p' $tr/error_log | tail -n 1)
	cat $tr/error_log >&2
	if [ "${got:-(none)}" = "$want" ]; then
		tap_ok "$name"; echo "# '$line' rejected (${err##*: }), error_log: $want"
	else
		tap_fail "$name" "'$line': error_log '${got:-(none)}', expected '$want'"
	fi
done

# r4096: the maximum is accepted, and the probe works with that many instances.
# Passes wrongly (both cases): a pool that loses instances but keeps more than 5 of 4096.
if err=$(echo "r4096:krp_lt_max kernel_clone" 2>&1 >>$tr/kprobe_events) &&
   grep -q '^r4096:kprobes/krp_lt_max kernel_clone' $tr/kprobe_events; then
	tap_ok tracefs_r4096_accepted
	echo 1 >$tr/events/kprobes/krp_lt_max/enable
	for i in 1 2 3 4 5; do /bin/true; done
	echo 0 >$tr/events/kprobes/krp_lt_max/enable
	read -r _ hits missed < <(grep '^ *krp_lt_max ' $tr/kprobe_profile)
	if [ "${hits:-0}" -ge 5 ] && [ "$missed" = 0 ]; then
		tap_ok tracefs_r4096_hits; echo "# hits $hits, missed $missed"
	else
		tap_fail tracefs_r4096_hits "hits '$hits' (expected >= 5), missed '$missed' (expected 0)"
	fi
	echo "-:krp_lt_max" >>$tr/kprobe_events
else
	tap_fail tracefs_r4096_accepted "'r4096:krp_lt_max kernel_clone': ${err:-not listed in kprobe_events}"
	cat $tr/error_log >&2
	tap_fail tracefs_r4096_hits "r4096 probe not created"
fi

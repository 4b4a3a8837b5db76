# SPDX-License-Identifier: GPL-2.0
# kretprobes defined through tracefs kprobe_events: bad maxactive values and
# a garbage line must be rejected with the base kernel's error_log message;
# r4096 (the maximum) must work.  Same results on the base and the patched
# kernel.  (The kretprobe lifetime cases are the KUnit suite
# kunit-kretprobe-lifetime.)
. /guest/tap.sh
tr=/sys/kernel/tracing

# line|expected error_log message ("(none)": the write fails without one)
bad_inputs=(
	"r0:krp_lt_bad kernel_clone|Invalid maxactive number"
	"r5000:krp_lt_bad kernel_clone|Maxactive is too big"
	"r10fuzz:krp_lt_bad kernel_clone|Invalid maxactive number"
	"krp garbage {line}|(none)"
)
bad_names=(tracefs_r0_rejected tracefs_r5000_rejected tracefs_r10fuzz_rejected tracefs_garbage_rejected)
tap_plan $(( ${#bad_inputs[@]} + 2 ))

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

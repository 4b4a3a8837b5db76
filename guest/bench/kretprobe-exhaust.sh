# SPDX-License-Identifier: GPL-2.0
# What a kretprobe does when its instances run out: SLEEPERS processes
# (busybox sleep) are inside hrtimer_nanosleep() at once under a kretprobe
# of maxactive M (tracefs "rM:"; M=0 is the default, "r:", which is
# max(10, 2 x possible CPUs)), two rounds each, so that a pool that lost
# its instances in the first round misses more in the second.  A hit finds
# no instance: the kretprobe counts it in nmissed and the return is not
# traced.  Counts per round: hits and nmissed from kprobe_profile, the
# return events the trace holds for the sleepers, and the nmissed expected
# when every sleeper was inside at once (SLEEPERS - M, at least 0).
# Prints CSV: maxactive,sleepers,round,hits,nmissed,returns,expected_nmissed
# usage: kretprobe-exhaust.sh "MAXACTIVE..." SLEEPERS [SECONDS]
t=/sys/kernel/tracing
list=${1:-1 4 0} n=${2:-16} secs=${3:-3}
func=hrtimer_nanosleep
grep -q " $func$" /proc/kallsyms || { echo "no $func in /proc/kallsyms" >&2; exit 1; }
possible=$(( $(cut -d- -f2 /sys/devices/system/cpu/possible) + 1 ))
dflt=$(( 2 * possible > 10 ? 2 * possible : 10 ))
echo 64 >$t/buffer_size_kb
profile() { awk '$1 == "exh" { print $2, $3 }' $t/kprobe_profile; }

echo "maxactive,sleepers,round,hits,nmissed,returns,expected_nmissed"
for m in $list; do
	max=$m def="r$m"
	[ "$m" = 0 ] && max=$dflt def=r
	echo "$def:bench/exh $func" >>$t/kprobe_events && echo 1 >$t/events/bench/exh/enable ||
		{ echo "cannot register '$def:bench/exh $func'" >&2; exit 1; }
	for round in 1 2; do
		echo >$t/trace
		read -r h0 m0 < <(profile)
		# Every sleeper starts long before the first one wakes: they are
		# all inside the function at once.
		pids=
		for _ in $(seq "$n"); do sleep "$secs" & pids="$pids $!"; done
		# shellcheck disable=SC2086
		wait $pids
		read -r h1 m1 < <(profile)
		returns=$(grep -c ' sleep-[0-9]* .* exh: ' $t/trace)
		expect=$(( n > max ? n - max : 0 ))
		echo "$max,$n,$round,$((h1 - h0)),$((m1 - m0)),$returns,$expect"
	done
	echo 0 >$t/events/bench/exh/enable
	echo "-:bench/exh" >>$t/kprobe_events
done

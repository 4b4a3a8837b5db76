# SPDX-License-Identifier: GPL-2.0
# CPU hotplug under kretprobe load: a tracefs kretprobe with maxactive M
# on hrtimer_nanosleep() is hit from every CPU by syscall-loop (zero-time
# nanosleep in 12 threads, more than M) while CPU 1 goes offline and online again and
# again, so instances are taken and returned on a CPU that disappears.
# Afterwards:
#  - accounting: hits + misses covers every call of the loop;
#  - conservation: exactly M instances are free again: M sleepers each
#    hold one and miss nothing, one more sleeper is exactly one miss, and
#    after they return M new sleepers again miss nothing.
# Any WARN, BUG or sanitizer report on the console fails the run anyway.
. /guest/tap.sh
tr=/sys/kernel/tracing
cpu1=/sys/devices/system/cpu/cpu1/online
secs=${HOTPLUG_SECONDS:-10}
M=8
tap_plan 3
# shellcheck disable=SC2034 # tap_skip_all (guest/tap.sh) reads it
cases="hotplug_load_runs hotplug_hits_accounted hotplug_instances_conserved"
[ -w $tr/kprobe_events ] || tap_skip_all "no $tr/kprobe_events (CONFIG_KPROBE_EVENTS off)"
[ -w $cpu1 ] || tap_skip_all "CPU 1 cannot go offline (one CPU, or no CONFIG_HOTPLUG_CPU)"
grep -q ' hrtimer_nanosleep$' /proc/kallsyms || tap_skip_all "no hrtimer_nanosleep in /proc/kallsyms"

profile() { awk '$1 == "hp_krp" { print $2, $3 }' $tr/kprobe_profile; }
echo "r$M:hp_krp hrtimer_nanosleep" >>$tr/kprobe_events || tap_skip_all "cannot define the kretprobe"
echo 1 >$tr/events/kprobes/hp_krp/enable
echo 0 >$tr/tracing_on	# the probe fires; the ring buffer stays empty

# The load, and CPU 1 going away and back while it runs.
syscall-loop 12 "$secs" nanosleep >/tmp/hp-load.txt &
load=$!
cycles=0 bad=
end=$(( $(date +%s) + secs - 1 ))
while [ "$(date +%s)" -lt "$end" ]; do
	echo 0 >$cpu1 || { bad="offlining CPU 1 failed"; break; }
	echo 1 >$cpu1 || { bad="onlining CPU 1 failed"; break; }
	cycles=$((cycles + 1))
done
wait $load
rc=$?
[ "$(cat $cpu1)" = 1 ] || echo 1 >$cpu1
calls=$(sed -n 's/.*calls=\([0-9]*\).*/\1/p' /tmp/hp-load.txt)
# Passes wrongly: any pool that does not crash; it checks only that load and hotplug ran.
if [ -z "$bad" ] && [ "$rc" = 0 ] && [ "$cycles" -gt 0 ] && [ -n "$calls" ]; then
	tap_ok hotplug_load_runs; echo "# $cycles offline/online cycles of CPU 1, $calls calls"
else
	tap_fail hotplug_load_runs "${bad:-load exit $rc, $cycles cycles, calls '$calls'}"
fi

# Every call entered the probe: it either got an instance (a hit when it
# returned) or was missed. A few sleeps of this script and of the loop's
# main thread come on top. The kretprobe pre-handler counts a miss with a
# plain "rp->nmissed++" (kernel/kprobes.c, unpatched and patched alike), so two
# CPUs missing at once can lose one: up to 1% of the misses may be lost.
# Passes wrongly: a pool handing one instance to two callers (each still counts a hit).
read -r hits misses < <(profile)
total=$(( ${hits:-0} + ${misses:-0} ))
low=$(( ${calls:-0} - ${misses:-0} / 100 ))
if [ -n "$calls" ] && [ "$total" -ge "$low" ] && [ "$total" -le $(( calls + 100 )) ]; then
	tap_ok hotplug_hits_accounted; echo "# hits $hits + misses $misses = $total for $calls calls"
else
	tap_fail hotplug_hits_accounted "hits '$hits' + misses '$misses' = $total for '$calls' calls (expected $low to calls + 100)"
fi

# sleepers N SECONDS: N background sleeps, each holding an instance.
sleepers() { for _ in $(seq "$1"); do sleep "$2" & done; }
mkfifo /tmp/hp-never && exec 9<>/tmp/hp-never
read -r _ m0 < <(profile)
sleepers $M 6
pause 2			# the M sleepers are inside, holding every instance
read -r _ m1 < <(profile)
sleep 0.1		# one call too many: no instance left
read -r _ m2 < <(profile)
wait
sleepers $M 1
wait
read -r _ m3 < <(profile)
# Passes wrongly: a pool that lost one instance and duplicated another (M free either way).
if [ "$m1" = "$m0" ] && [ "$m2" = "$((m0 + 1))" ] && [ "$m3" = "$m2" ]; then
	tap_ok hotplug_instances_conserved
	echo "# $M sleepers held all $M instances: one more sleep missed, then $M again missed nothing"
else
	tap_fail hotplug_instances_conserved "misses: $m0 before, $m1 with $M sleepers inside, $m2 after one more sleep, $m3 after $M new sleepers (expected $m0, $m0, $((m0 + 1)), $((m0 + 1)))"
fi
echo 0 >$tr/events/kprobes/hp_krp/enable
echo 1 >$tr/tracing_on
echo "-:hp_krp" >>$tr/kprobe_events

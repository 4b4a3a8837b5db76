# SPDX-License-Identifier: GPL-2.0
# Positive control of the objpool KUnit NMI case (make check, on x86_64
# test kernels of the 6.1 series, and make soak): the same NMI stress on
# upstream's objpool of Linux 6.12 (guest/modules/upstream_objpool_nmi_main.c)
# must fail with the stress's own verdict, and nothing else: "ok" only for
# its "RESULT pool failed" line naming a double hand-out, a foreign
# pointer, or a lost or duplicated object in the final drain, or its
# livelock verdict with the STALL line (the module's watchdog ends a
# livelock after stall_seconds of no progress and keeps the guest alive).
# A kernel report (an RCU stall, a lockup, a warning, a BUG) at any time, no
# verdict, or a failure the stress did not find (it could not run) is a
# harness error: "not ok", saying what to look at.
# Environment: NMI_CONTROL_WAIT (seconds to wait for the verdict, 60),
# NMI_STALL_SECONDS (the module's stall_seconds, 5), NMI_MIN_LANDINGS (32).
. /guest/tap.sh
tap_plan 1
name=nmi_stress_catches_upstream_objpool
ko=/guest/modules/upstream_objpool_nmi.ko
if [ ! -f "$ko" ]; then
	tap_fail "$name" "upstream_objpool_nmi.ko not built: needs an x86_64 kernel of the series and upstream's pool source on the host (config/upstream-pool.env, make deps)"
	exit 0
fi
# The kernel's reports of trouble, as scripts/lib/console.py reads them.
trouble='Kernel panic|Oops|BUG:|WARNING:|general protection fault|UBSAN:|INFO: task .* blocked|rcu: INFO:|hard LOCKUP|soft lockup'
wait_s=${NMI_CONTROL_WAIT:-60}
mark=$(dmesg | wc -l)
# The module keeps its first online CPU out of the pool for itself and its
# watchdog; this shell waits there too, in case the watchdog fails and the
# other CPUs stay wedged.  init (PID 1) too, which sends the results back.
first=$(cut -d, -f1 /sys/devices/system/cpu/online | cut -d- -f1)
for pid in 1 "$PPID" $$; do
	taskset -p "$((1 << first))" "$pid" >/dev/null || echo "cannot bind $pid to CPU $first" >&2
done
start=$(cut -d' ' -f1 /proc/uptime)
insmod "$ko" "min_landings=${NMI_MIN_LANDINGS:-32}" "stall_seconds=${NMI_STALL_SECONDS:-5}" 2>/dev/null &
insmod_pid=$!
result= report= i=0
while [ "$i" -lt "$wait_s" ]; do
	log=$(log_since "$mark" | sed 's/^\[[ 0-9.]*\] //')
	result=$(printf '%s\n' "$log" | grep -m 1 'upstream_objpool_nmi: RESULT')
	report=$(printf '%s\n' "$log" | grep -m 1 -E "$trouble")
	[ -n "$result$report" ] && break
	sleep 1
	i=$((i + 1))
done
waited=$(awk -v a="$start" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }')
# The module returns from its init right after its RESULT line.
if [ -n "$result" ]; then
	wait "$insmod_pid"
	rmmod upstream_objpool_nmi || echo "rmmod upstream_objpool_nmi failed" >&2
fi
log=$(log_since "$mark" | sed 's/^\[[ 0-9.]*\] //')
report=$(printf '%s\n' "$log" | grep -m 1 -E "$trouble")
stall=$(printf '%s\n' "$log" | grep -m 1 'objpool NMI stress: STALL')
printf '%s\n' "$log" | grep -E 'upstream_objpool_nmi: (CPU|upstream|the )|NMI handler .* took too long' | sed 's/^/# /'
[ -z "$stall" ] || echo "# $stall"
[ -z "$result" ] || echo "# $result"
echo "# verdict after ${waited} s (insmod to the RESULT line)"

why=$(printf '%s\n' "$result" | sed -n 's/.*RESULT pool failed: \(.*\) (object .*/\1/p')
drain=$(printf '%s\n' "$result" | sed -n 's/.*final drain \([0-9]*\) of \([0-9]*\) objects, \([0-9]*\) duplicates.*/\1 \2 \3/p')
ms=$(printf '%s\n' "$result" | sed -n 's/.*; \([0-9]*\) ms$/\1/p')
caught=
case $why in
"object handed out twice" | "object changed owner while held")
	caught="a double hand-out" ;;
"pop returned a foreign pointer")
	caught="a foreign pointer" ;;
"no progress: the pool livelocked")
	[ -n "$stall" ] && caught="a livelock (its STALL line)" ;;
none)
	set -- $drain
	if [ "$#" = 3 ] && { [ "$1" != "$2" ] || [ "$3" != 0 ]; }; then
		caught="a lost or duplicated object (final drain $1 of $2, $3 duplicates)"
	fi ;;
esac

if [ -n "$report" ]; then
	tap_fail "$name" "harness error, not a catch: the kernel reported \"$report\"; see dmesg.txt and the console: a pop still spinning after the module's watchdog (its STALL line and 'emptied' line), or the stress itself"
elif [ -z "$result" ]; then
	tap_fail "$name" "harness error, not a catch: no RESULT line in $wait_s s; the module's watchdog did not end the run: see dmesg.txt for its STALL line and the console for the CPUs"
elif [ -n "$caught" ]; then
	tap_ok "$name"
	echo "# caught: $caught in ${ms:-?} ms: ${result#*RESULT }"
else
	case $result in
	*"RESULT pool passed"*)
		tap_fail "$name" "upstream's pool passed the stress, which therefore cannot catch its bug: $result" ;;
	*"RESULT skipped"*)
		tap_skip "$name" "${result#*skipped: }" ;;
	*"RESULT pool failed: no progress"*)
		tap_fail "$name" "harness error, not a catch: a livelock verdict without the STALL line: $result" ;;
	*)
		tap_fail "$name" "harness error, not a catch: a failure that is none of the stress's verdicts (double hand-out, foreign or lost object, STALL): $result" ;;
	esac
fi
exit 0

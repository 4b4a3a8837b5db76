# Positive control of the objpool KUnit NMI case (make check, on x86_64
# test kernels, and make soak): the same NMI stress on upstream's objpool
# of Linux 6.12 (guest/modules/upobjpool_nmi_main.c) must fail with the
# stress's own verdict: its "RESULT pool failed" line (a double hand-out,
# a foreign or lost object) or its STALL line (a livelock).  "ok" means
# the stress caught upstream's pool.  Any other report first (an RCU
# stall, a lockup, a warning) is a harness error, not a catch: the
# control fails.  make check boots with the RCU stall and lockup
# detectors quiet for longer than the stress's STALL.
# Environment: NMI_CONTROL_WAIT (seconds to wait for a verdict, 600).
. /guest/tap.sh
tap_plan 1
name=nmi_stress_catches_upstream_objpool
ko=/guest/modules/upobjpool_nmi.ko
if [ ! -f "$ko" ]; then
	tap_fail "$name" "upobjpool_nmi.ko not built: needs an x86_64 kernel of the series and /usr/src/linux-source-6.12.tar.xz on the host (make deps)"
	exit 0
fi
# A livelocked pool wedges the worker CPUs (all but the first, with three
# or more) and never lets insmod return: stay on the first CPU, run insmod
# in the background and read the verdict from the kernel log.
# init (PID 1) too, which sends the results back after the suites.
first=$(cut -d, -f1 /sys/devices/system/cpu/online | cut -d- -f1)
for pid in 1 "$PPID" $$; do
	taskset -p "$((1 << first))" "$pid" >/dev/null || echo "cannot bind $pid to CPU $first" >&2
done
insmod "$ko" "min_landings=${NMI_MIN_LANDINGS:-32}" 2>/dev/null &
verdict= i=0
while [ "$i" -lt "${NMI_CONTROL_WAIT:-600}" ]; do
	log=$(dmesg)
	verdict=$(printf '%s\n' "$log" | grep -m 1 -E 'upobjpool_nmi: RESULT|objpool NMI stress: STALL|rcu: INFO:|hard LOCKUP|soft lockup|WARNING:')
	[ -n "$verdict" ] && break
	sleep 1
	i=$((i + 1))
done
verdict=$(printf '%s\n' "$verdict" | sed 's/^\[[ 0-9.]*\] //')
dmesg | grep -E 'upobjpool_nmi: (CPU|upstream)' | sed 's/^/# /'
case $verdict in
*"RESULT pool failed"* | *"objpool NMI stress: STALL"*)
	tap_ok "$name"
	echo "# caught: $verdict"
	case $verdict in *RESULT*) rmmod upobjpool_nmi ;; esac ;;
*"rcu: INFO"* | *LOCKUP* | *lockup* | *WARNING*)
	tap_fail "$name" "harness error, not a catch: the kernel reported before the stress did: $verdict" ;;
*"RESULT pool passed"*)
	rmmod upobjpool_nmi
	tap_fail "$name" "upstream's pool passed the stress, which therefore cannot catch its bug: $verdict" ;;
*"RESULT skipped"*)
	tap_skip "$name" "${verdict#*skipped: }" ;;
*)
	tap_fail "$name" "no verdict in ${NMI_CONTROL_WAIT:-600} s and no stall report: see dmesg.txt" ;;
esac
exit 0

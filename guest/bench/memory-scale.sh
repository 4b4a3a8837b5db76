# SPDX-License-Identifier: GPL-2.0
# Memory of kretprobe instance pools as the possible CPUs grow: N
# kretprobes with the default maxactive (max(10, 2 x possible CPUs),
# tracefs "r:" without a number), then N with maxactive 1 ("r1:").  N
# probes so that the delta stands out of the noise: /proc/meminfo moves
# by a few hundred KiB on its own.  Memory in use is mem_kb() of
# guest/bench/mem-in-use.sh (MemTotal - MemFree - Buffers - Cached, less
# the free pages of the per-CPU lists), before and after registering.  The probes are created, not enabled: tracefs registers a
# kretprobe, and so allocates its instances, when it creates the event
# (disabled), and arming each on a 96-vCPU TCG guest would take minutes.
# Prints CSV: probe,probes,objects,delta_kb
# usage: memory-scale.sh [N]   (N: probes of each kind, 16)
t=/sys/kernel/tracing
nr=${1:-16}
possible=$(( $(cut -d- -f2 /sys/devices/system/cpu/possible) + 1 ))
. /guest/arch.env

. /guest/bench/mem-in-use.sh

# One function every kernel has; kretprobes may share it.
func=${SYSCALL_PREFIX}getppid
echo "probe,probes,objects,delta_kb"
dflt=$(( 2 * possible > 10 ? 2 * possible : 10 ))
for kind in default r1; do
	case $kind in
	default) prefix=r objs=$dflt ;;
	r1) prefix=r1 objs=1 ;;
	esac
	before=$(mem_kb)
	for i in $(seq 0 $((nr - 1))); do
		echo "$prefix:scale/m$i $func" >>$t/kprobe_events ||
			{ echo "memory-scale.sh: cannot register $prefix on $func" >&2; exit 1; }
	done
	after=$(mem_kb)
	echo "kretprobe $kind,$nr,$((nr * objs)),$((after - before))"
	for i in $(seq 0 $((nr - 1))); do
		echo "-:scale/m$i" >>$t/kprobe_events
	done
	settle "$before" "$after" "$kind kretprobes"
done

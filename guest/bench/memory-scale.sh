# SPDX-License-Identifier: GPL-2.0
# Memory of kretprobe instance pools as the possible CPUs grow: N
# kretprobes with the default maxactive (max(10, 2 x possible CPUs),
# tracefs "r:" without a number), then N with maxactive 1 ("r1:").  N
# probes so that the delta stands out of the noise: /proc/meminfo moves
# by a few hundred KiB on its own.  Memory in use is measured as
# guest/bench/memory.sh does (MemTotal - MemFree - Buffers - Cached,
# less the free pages of the per-CPU lists), before and after
# registering.  The probes are created, not enabled: tracefs registers a
# kretprobe, and so allocates its instances, when it creates the event
# (disabled), and arming each on a 96-vCPU TCG guest would take minutes.
# Prints CSV: probe,probes,objects,delta_kb
# usage: memory-scale.sh [N]   (N: probes of each kind, 16)
t=/sys/kernel/tracing
nr=${1:-16}
possible=$(( $(cut -d- -f2 /sys/devices/system/cpu/possible) + 1 ))
. /guest/arch.env

mem_kb() {
	local pcp
	sync
	pcp=$(awk '$1 == "count:" { s += $2 } END { print s * 4 }' /proc/zoneinfo)
	awk -v pcp="$pcp" '/^MemTotal:/ { s += $2 } /^(MemFree|Buffers|Cached):/ { s -= $2 }
		END { print s - pcp }' /proc/meminfo
}

# settle BEFORE AFTER WHAT: wait (at most 60 s) until half of what
# registering took has come back after the probes went, so that the next
# row does not count it being freed an RCU grace period later.
settle() {
	local i=0
	while [ "$(mem_kb)" -gt $(( $2 - ($2 - $1) / 2 )) ] && [ "$i" -lt 60 ]; do
		sleep 1
		i=$((i + 1))
	done
	[ "$i" -lt 60 ] || echo "memory-scale.sh: the $3's memory did not come back within 60 s" >&2
}

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

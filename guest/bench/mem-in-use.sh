# SPDX-License-Identifier: GPL-2.0
# Sourced by memory.sh and memory-scale.sh: memory in use, and waiting
# for a freed pool to come back.

# Memory in use, KiB: MemTotal - MemFree - Buffers - Cached, less the free
# pages on the per-CPU lists (/proc/zoneinfo's pageset counts, 4 KiB
# pages), which are not in MemFree: with 96 CPUs online they moved a
# kretprobe's delta by hundreds of KiB, so they count as free here.
mem_kb() {
	local pcp
	sync
	pcp=$(awk '$1 == "count:" { s += $2 } END { print s * 4 }' /proc/zoneinfo)
	awk -v pcp="$pcp" '/^MemTotal:/ { s += $2 } /^(MemFree|Buffers|Cached):/ { s -= $2 }
		END { print s - pcp }' /proc/meminfo
}

# settle BEFORE AFTER WHAT: a pool goes back after an RCU grace period;
# wait (at most 60 s) until half of what registering took has come back,
# so that the next row does not count it being freed.
settle() {
	local i=0
	while [ "$(mem_kb)" -gt $(( $2 - ($2 - $1) / 2 )) ] && [ "$i" -lt 60 ]; do
		sleep 1
		i=$((i + 1))
	done
	[ "$i" -lt 60 ] || echo "${0##*/}: the $3's memory did not come back within 60 s" >&2
}

# SPDX-License-Identifier: GPL-2.0
# Memory of the probe instance pools at scale: an fprobe on about 1,000
# functions with the default nr_maxactive (functions x possible CPUs x 2;
# where fprobe draws on the pool, before 7.2: probe_mem.ko is built only
# there), then 16 kretprobes with the default maxactive (max(10, 2 x
# possible CPUs), tracefs "r:" without a number; 16 so that the delta
# stands out of the noise), then a kretprobe with maxactive 4096.  Memory is what /proc/meminfo
# shows in use (MemTotal - MemFree - Buffers - Cached, less the free pages
# of the per-CPU lists), before and after registering: slab, vmalloc and
# per-CPU memory, and pages the pool takes from the page allocator and
# vmap()s (VM_MAP_PUT_PAGES), which VmallocUsed does not count.
# Prints CSV: probe,functions,objects,delta_kb,meta_bytes (meta_bytes: the
# objpool's own count of its rings and metadata, fprobe on the patched
# kernel only; empty elsewhere)
# usage: memory.sh [PATTERN]   (PATTERN: the fprobe filter; default: the
#        one-letter prefix whose function count is closest to 1,000)
t=/sys/kernel/tracing
possible=$(( $(cut -d- -f2 /sys/devices/system/cpu/possible) + 1 ))
. /guest/bench/mem-in-use.sh
funcs() { grep -c "^$1" $t/available_filter_functions; }

pattern=$1
if [ -z "$pattern" ]; then
	best=
	for p in a b c d e f g h i j k l m n p q r s t u v w x y z; do
		n=$(funcs "$p")
		d=$(( n > 1000 ? n - 1000 : 1000 - n ))
		if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d pattern="$p*"; fi
	done
fi
n=$(funcs "${pattern%\*}")
# Enabling the first trace event (the kretprobe below) expands the trace
# ring buffer, about 1.4 MiB a CPU: 135 MiB with 96 CPUs online.  Setting
# the size first means it is never expanded, so no row counts it.
echo 4 >$t/buffer_size_kb
echo "probe,functions,objects,delta_kb,meta_bytes"

if [ -f /guest/modules/probe_mem.ko ]; then
	before=$(mem_kb)
	insmod /guest/modules/probe_mem.ko filter="$pattern" ||
		{ echo "probe_mem.ko filter=$pattern failed" >&2; exit 1; }
	after=$(mem_kb)
	meta=$(dmesg | sed -n 's/.*probe_mem: pool .*meta_bytes=\([0-9]*\).*/\1/p' | tail -n 1)
	echo "fprobe $pattern,$n,$((n * possible * 2)),$((after - before)),$meta"
	rmmod probe_mem
	settle "$before" "$after" fprobe
else
	echo "memory.sh: no fprobe row: this kernel's fprobe does not use the pool (no probe_mem.ko)" >&2
fi

. /guest/arch.env
# 16 system calls every kernel has, for the kretprobes with the default
# maxactive.
calls="getppid getpid gettid getuid geteuid getgid getegid getpgrp umask
	sync getpriority setpgid setsid getsid times sysinfo"
before=$(mem_kb)
k=0
for c in $calls; do
	echo "r:bench/memd$k ${SYSCALL_PREFIX}$c" >>$t/kprobe_events &&
		echo 1 >$t/events/bench/memd$k/enable ||
		{ echo "cannot register a kretprobe on ${SYSCALL_PREFIX}$c" >&2; exit 1; }
	k=$((k + 1))
done
after=$(mem_kb)
dflt=$(( 2 * possible > 10 ? 2 * possible : 10 ))
echo "kretprobe default x$k,$k,$((k * dflt)),$((after - before)),"
for i in $(seq 0 $((k - 1))); do
	echo 0 >$t/events/bench/memd$i/enable
	echo "-:bench/memd$i" >>$t/kprobe_events
done
settle "$before" "$after" "default kretprobes"

func=${SYSCALL_PREFIX}getppid
before=$(mem_kb)
echo "r4096:bench/mem $func" >>$t/kprobe_events && echo 1 >$t/events/bench/mem/enable ||
	{ echo "cannot register r4096 on $func" >&2; exit 1; }
after=$(mem_kb)
echo "kretprobe maxactive=4096,1,4096,$((after - before)),"
echo 0 >$t/events/bench/mem/enable
echo "-:bench/mem" >>$t/kprobe_events

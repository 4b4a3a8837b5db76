# Memory of the probe instance pools at scale: an fprobe on about 1,000
# functions with the default nr_maxactive (functions x possible CPUs x 2),
# then a kretprobe with maxactive 4096.  Memory is what /proc/meminfo
# shows in use (MemTotal - MemFree - Buffers - Cached), before and after
# registering: slab, vmalloc and per-CPU memory, and pages the pool takes
# from the page allocator and vmap()s (VM_MAP_PUT_PAGES), which VmallocUsed
# does not count.
# Prints CSV: probe,functions,objects,delta_kb,meta_bytes (meta_bytes: the
# objpool's own count of its rings and metadata, fprobe on the patched
# kernel only; empty elsewhere)
# usage: memory.sh [PATTERN]   (PATTERN: the fprobe filter; default: the
#        one-letter prefix whose function count is closest to 1,000)
t=/sys/kernel/tracing
possible=$(( $(cut -d- -f2 /sys/devices/system/cpu/possible) + 1 ))
mem_kb() {
	sync
	awk '/^MemTotal:/ { s += $2 } /^(MemFree|Buffers|Cached):/ { s -= $2 } END { print s }' /proc/meminfo
}
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
echo "probe,functions,objects,delta_kb,meta_bytes"
before=$(mem_kb)
insmod /guest/modules/probe_mem.ko filter="$pattern" ||
	{ echo "probe_mem.ko filter=$pattern failed" >&2; exit 1; }
after=$(mem_kb)
meta=$(dmesg | sed -n 's/.*probe_mem: pool .*meta_bytes=\([0-9]*\).*/\1/p' | tail -n 1)
echo "fprobe $pattern,$n,$((n * possible * 2)),$((after - before)),$meta"
rmmod probe_mem
# The pool goes back after an RCU grace period: wait until the memory
# stops falling (at most 30 s), or the kretprobe below counts it as freed.
prev=$(mem_kb) i=0
while [ "$i" -lt 30 ]; do
	sleep 1
	now=$(mem_kb)
	[ "$now" -lt "$prev" ] || break
	prev=$now i=$((i + 1))
done

. /guest/arch.env
func=${SYSCALL_PREFIX}getppid
before=$(mem_kb)
echo "r4096:bench/mem $func" >>$t/kprobe_events && echo 1 >$t/events/bench/mem/enable ||
	{ echo "cannot register r4096 on $func" >&2; exit 1; }
after=$(mem_kb)
echo "kretprobe maxactive=4096,1,4096,$((after - before)),"
echo 0 >$t/events/bench/mem/enable
echo "-:bench/mem" >>$t/kprobe_events

# SPDX-License-Identifier: GPL-2.0
# Real load: syscall-loop in N threads, with no probe, a kprobe and a
# kretprobe (tracefs) on the syscall's kernel function.  Tracing is off
# (tracing_on=0) so the probes fire but record nothing: what is measured
# is the probe machinery, including the kretprobe instance pool.
# Prints CSV rows: row,threads,run,calls_per_sec
# usage: real-load.sh "THREADS..." SECONDS REPEATS
threads=${1:-1 2 4 8} secs=${2:-2} reps=${3:-3}
t=/sys/kernel/tracing
. /guest/arch.env
func=${SYSCALL_PREFIX}getppid
grep -q " $func$" /proc/kallsyms || { echo "no $func in /proc/kallsyms" >&2; exit 1; }
echo 0 >$t/tracing_on

measure() {	# measure ROW
	local n r
	for n in $threads; do
		for r in $(seq "$reps"); do
			syscall-loop "$n" "$secs" getppid |
				sed -n "s/.*calls_per_sec=\([0-9]*\).*/$1,$n,$r,\1/p"
		done
	done
}
probe() {	# probe ROW DEFINITION
	echo "$2" >>$t/kprobe_events || { echo "cannot define '$2'" >&2; exit 1; }
	echo 1 >$t/events/bench/$1/enable
	measure "$1"
	echo 0 >$t/events/bench/$1/enable
	echo "-:bench/$1" >>$t/kprobe_events
}
echo "row,threads,run,calls_per_sec"
measure native
probe kprobe "p:bench/kprobe $func"
probe kretprobe "r:bench/kretprobe $func"
# fprobe: samples/fprobe on the same function (x86_64: 6.1 has rethook,
# hence fprobe exit handlers, only there). trace_printk() into a stopped
# ring buffer and no stack dumps: the handlers cost the same on both
# kernels, the difference is the rethook node pool.
ko=$(find /lib/modules -name fprobe_example.ko 2>/dev/null | head -n 1)
if [ -n "$ko" ]; then
	insmod "$ko" symbol="$func" use_trace=1 stackdump=0 ||
		{ echo "cannot load $ko" >&2; exit 1; }
	measure fprobe
	rmmod fprobe_example
fi

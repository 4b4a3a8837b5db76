# Real load: syscall-loop in N threads, with no probe, a kprobe and a
# kretprobe (tracefs) on the syscall's kernel function.  Tracing is off
# (tracing_on=0) so the probes fire but record nothing: what is measured
# is the probe machinery, including the kretprobe instance pool.
# Prints CSV rows: row,threads,run,calls_per_sec
# usage: real-load.sh "THREADS..." SECONDS REPEATS
threads=${1:-1 2 4 8} secs=${2:-2} reps=${3:-3}
t=/sys/kernel/tracing
func=$(grep -o -m1 -E '\b__(x64|arm64)_sys_getppid\b' /proc/kallsyms) ||
	{ echo "no getppid syscall symbol in /proc/kallsyms" >&2; exit 1; }
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

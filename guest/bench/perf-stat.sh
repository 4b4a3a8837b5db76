# SPDX-License-Identifier: GPL-2.0
# The measurement of upstream's objpool series, as a user runs it with
# perf: a kretprobe on the prctl system call ('perf probe -a
# FUNC%return'), N threads calling prctl() in a loop (syscall-loop), the
# returns counted system-wide by 'perf stat -a -e probe:FUNC__return'.
# Upstream counted 'perf stat -a -I 10000 -e syscalls:sys_enter_prctl'
# per 10 s at 1 to 128 threads; here each run is SECONDS long and the count
# is the probe's own.  Under multi-threaded TCG the wall-clock rate varies
# by tens of percent between boots: indicative only (the icount
# benchmarks are the exact ones).
# Prints CSV rows: threads,rep,seconds,calls,hits,hits_per_sec (rep: the
# repeat within this boot)
# usage: perf-stat.sh "THREADS..." SECONDS REPEATS
threads=${1:-1 2 4} secs=${2:-2} reps=${3:-3}
. /guest/arch.env
func=${SYSCALL_PREFIX}prctl ev=${SYSCALL_PREFIX}prctl__return
export PERF_PAGER=cat
cd /tmp || exit 1
command -v perf >/dev/null || { echo "no perf in the guest; run 'make deps'" >&2; exit 1; }
grep -q " $func$" /proc/kallsyms || { echo "no $func in /proc/kallsyms" >&2; exit 1; }
perf probe -q -a "$func%return" || { echo "perf probe -a '$func%return' failed" >&2; exit 1; }
echo 0 >/sys/kernel/tracing/tracing_on	# count, do not record

echo "threads,rep,seconds,calls,hits,hits_per_sec"
status=0
for n in $threads; do
	for r in $(seq "$reps"); do
		perf stat -a -x, -o stat.csv -e "probe:$ev" -- syscall-loop "$n" "$secs" prctl >loop.out 2>loop.err
		hits=$(awk -F, -v e="probe:$ev" '$3 == e { print $1 }' stat.csv)
		s=$(sed -n 's/.* seconds=\([0-9.]*\) calls=\([0-9]*\).*/\1 \2/p' loop.out)
		if [ -z "$hits" ] || [ -z "$s" ]; then
			echo "threads $n run $r: no count (perf stat: $(cat stat.csv loop.err | tr '\n' ' '))" >&2
			status=1
			continue
		fi
		set -- $s
		# hits against the loop's own seconds: perf stat's extra start
		# and stop time is not the probe's.
		echo "$n,$r,$1,$2,$hits,$(awk -v h="$hits" -v s="$1" 'BEGIN { printf "%.0f", h / s }')"
	done
done
perf probe -q -d "probe:$ev"
exit $status

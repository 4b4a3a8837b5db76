# The in-kernel pool benchmark (lib/test_objpool.ko): objpool, the old
# freelist and the per-CPU floor, each case with and without an hrtimer per
# CPU.  Prints CSV: impl,case,irq,threads,run,ops_per_sec,hits,misses
# usage: objpool-module.sh "THREADS_PER_CPU..." DURATION_MS REPEATS
tpcs=${1:-1} ms=${2:-500} reps=${3:-3}
ko=$(find /lib/modules -name test_objpool.ko | head -n 1)
[ -n "$ko" ] || { echo "test_objpool.ko is not built (CONFIG_TEST_OBJPOOL=m)" >&2; exit 1; }
echo "impl,case,irq,threads,run,ops_per_sec,hits,misses"
for tpc in $tpcs; do
	for r in $(seq "$reps"); do
		mark=$(dmesg | wc -l)
		insmod "$ko" duration_ms="$ms" threads_per_cpu="$tpc" ||
			{ echo "test_objpool failed (threads_per_cpu=$tpc)" >&2; dmesg | tail -n +"$((mark + 1))" >&2; exit 1; }
		rmmod test_objpool
		dmesg | tail -n +"$((mark + 1))" | grep 'objpool_bench: impl=' |
		sed -n "s/.*impl=\([^ ]*\) case=\([^ ]*\) irq=\([^ ]*\) threads=\([^ ]*\) .* ops_per_sec=\([^ ]*\) hits=\([^ ]*\) misses=\([^ ]*\) .*/\1,\2,\3,\4,$r,\5,\6,\7/p"
	done
done

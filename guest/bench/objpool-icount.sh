# The pool module (lib/test_objpool.ko) for an icount guest (1 vCPU): what
# each run printed, for the host to turn into instructions.  Two loads:
# the nonblocking case (pop then push back, 16 objects: every pop succeeds)
# and the misses case with one object (batches of 1-16 pops: one succeeds,
# the rest find the pool empty).  No hrtimer (irq=1 is the "without" bit).
# Prints CSV: impl,case,objs,pairs,pairs_per_sec,hits,misses
# usage: objpool-icount.sh DURATION_MS
ms=${1:-200}
ko=$(find /lib/modules -name test_objpool.ko | head -n 1)
[ -n "$ko" ] || { echo "test_objpool.ko is not built (CONFIG_TEST_OBJPOOL=m)" >&2; exit 1; }
echo "impl,case,objs,pairs,pairs_per_sec,hits,misses"
for load in "cases=1 nr_objs=16" "cases=4 nr_objs=1"; do
	mark=$(dmesg | wc -l)
	# shellcheck disable=SC2086
	insmod "$ko" duration_ms="$ms" irq=1 threads_per_cpu=1 $load ||
		{ echo "test_objpool failed ($load)" >&2; dmesg | tail -n +"$((mark + 1))" >&2; exit 1; }
	rmmod test_objpool
	dmesg | tail -n +"$((mark + 1))" | grep 'objpool_bench: impl=' |
	sed -n "s/.*impl=\([^ ]*\) case=\([^ ]*\) .* pairs=\([^ ]*\) pairs_per_sec=\([^ ]*\) hits=\([^ ]*\) misses=\([^ ]*\) .* objs=\([^ ]*\) .*/\1,\2,\7,\3,\4,\5,\6/p"
done

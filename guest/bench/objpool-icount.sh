# SPDX-License-Identifier: GPL-2.0
# The pool module (lib/test_objpool.ko) for an icount guest (1 vCPU): what
# each run printed, for the host to turn into instructions.  Two loads:
# the nonblocking case (pop then push back, 16 objects: every pop succeeds)
# and the misses case with one object (batches of 1-16 pops: one succeeds,
# the rest find the pool empty).  No hrtimer (irq=1 is the "without" bit).
# Each load also runs on upstream's objpool of Linux 6.12 (impl=upstream;
# pool-modules.sh).
# Prints CSV: impl,case,objs,pairs,pairs_per_sec,hits,misses
# usage: objpool-icount.sh DURATION_MS
ms=${1:-200}
. /guest/bench/pool-modules.sh
echo "impl,case,objs,pairs,pairs_per_sec,hits,misses"
pool_not_built
for load in "cases=1 nr_objs=16" "cases=4 nr_objs=1"; do
	# shellcheck disable=SC2086
	pool_run duration_ms="$ms" irq=1 threads_per_cpu=1 $load |
	sed -n "s/.*impl=\([^ ]*\) case=\([^ ]*\) .* pairs=\([^ ]*\) pairs_per_sec=\([^ ]*\) hits=\([^ ]*\) misses=\([^ ]*\) .* objs=\([^ ]*\) .*/\1,\2,\7,\3,\4,\5,\6/p"
	[ "${PIPESTATUS[0]}" = 0 ] || exit 1
done

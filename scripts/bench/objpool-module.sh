#!/usr/bin/env bash
# Pool benchmark in the kernel: guest/bench/objpool-module.sh on the patched
# bench kernel, 1 vCPU (1 thread) and 2 vCPUs (2, 4, 8 kthreads).
# CSV: accel,vcpus,impl,case,irq,threads,run,pairs_per_sec,hits,misses,ns_per_miss
# (columns of guest/bench/objpool-module.sh, which says what they mean)
. "$(dirname "$0")/../lib.sh"
out=$1
echo "accel,vcpus,impl,case,irq,threads,run,pairs_per_sec,hits,misses,ns_per_miss" >"$out/objpool-module.csv"
for setting in "1:1" "2:1 2 4"; do
	vcpus=${setting%%:*} tpcs=${setting#*:}
	res=$WORK/results/bench-objpool-module-$vcpus
	VCPUS=$vcpus RESULTS=$res "$TOP/scripts/vm.sh" x86_64 bench -- \
		"bash /guest/bench/objpool-module.sh '$tpcs' ${BENCH_MS:-500} ${BENCH_REPEATS:-3} >/results/objpool-module.csv" ||
		die "objpool module benchmark failed at $vcpus vCPUs"
	accel=$(cat "$(objdir x86_64 bench)/vm/accel")
	tail -n +2 "$res/objpool-module.csv" | sed "s/^/$accel,$vcpus,/" >>"$out/objpool-module.csv"
done

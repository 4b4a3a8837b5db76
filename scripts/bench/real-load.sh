#!/usr/bin/env bash
# Real-load benchmark: guest/bench/real-load.sh on the base and the patched
# bench kernels (x86_64), one CSV: kernel,accel,vcpus,row,threads,run,calls_per_sec
. "$(dirname "$0")/../lib.sh"
out=$1
vcpus=${VCPUS:-2}
echo "kernel,accel,vcpus,row,threads,run,calls_per_sec" >"$out/real-load.csv"
for kernel in base patched; do
	base=; [ $kernel = base ] && base=1
	res=$WORK/results/bench-real-load-$kernel
	RESULTS=$res "$TOP/scripts/vm.sh" x86_64 bench $base -- \
		"bash /guest/bench/real-load.sh '${BENCH_THREADS:-1 2 4 8}' ${BENCH_SECONDS:-2} ${BENCH_REPEATS:-3} >/results/real-load.csv" ||
		die "real-load run on the $kernel kernel failed"
	accel=$(cat "$(objdir x86_64 bench $base)/vm/accel")
	tail -n +2 "$res/real-load.csv" | sed "s/^/$kernel,$accel,$vcpus,/" >>"$out/real-load.csv"
done

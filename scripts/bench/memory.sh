#!/usr/bin/env bash
# Memory at scale: guest/bench/memory.sh on the base and the patched bench
# kernels, booted with 2 present and 96 possible CPUs (MAXCPUS).
# CSV: kernel,accel,vcpus,possible,probe,functions,objects,delta_kb,meta_bytes
. "$(dirname "$0")/../lib.sh"
out=$1
possible=${MAXCPUS:-96}
echo "kernel,accel,vcpus,possible,probe,functions,objects,delta_kb,meta_bytes" >"$out/memory.csv"
pattern=
for kernel in base patched; do
	base=; [ $kernel = base ] && base=1
	res=$WORK/results/bench-memory-$kernel
	MAXCPUS=$possible RESULTS=$res "$TOP/scripts/vm.sh" x86_64 bench $base -- \
		"bash /guest/bench/memory.sh '$pattern' >/results/memory.csv" ||
		die "memory run on the $kernel kernel failed"
	# The patched kernel probes the same functions as the base.
	pattern=$(sed -n 's/^fprobe \([^,]*\),.*/\1/p' "$res/memory.csv")
	accel=$(cat "$(objdir x86_64 bench $base)/vm/accel")
	tail -n +2 "$res/memory.csv" | sed "s/^/$kernel,$accel,${VCPUS:-2},$possible,/" >>"$out/memory.csv"
done

#!/usr/bin/env bash
# The pool module under QEMU icount (make vm ICOUNT=1: one vCPU, 1 ns of
# guest time per guest instruction): guest/bench/objpool-icount.sh on the
# patched bench kernel (the module carries objpool, the old freelist and
# the per-CPU floor) with 2 and with 96 possible CPUs (MAXCPUS), ICOUNT_RUNS
# boots each (default 2).  The possible CPUs recorded are the guest's own
# count: an arm64 virt guest has as many as it has vCPUs (1).  report.py turns the runs into instructions per
# successful pop+push pair and per failed pop.
# Environment: ICOUNT_ARCHES (x86_64 arm64), ICOUNT_RUNS (2),
#   ICOUNT_POSSIBLE ("2 96"), ICOUNT_MS (200 virtual ms per run).
# CSV: arch,accel,vcpus,possible,run,impl,case,objs,pairs,pairs_per_sec,hits,misses
. "$(dirname "$0")/../lib.sh"
out=$1
arches=${ICOUNT_ARCHES:-x86_64 arm64} runs=${ICOUNT_RUNS:-2}
csv=$out/objpool-module-icount.csv
echo "arch,accel,vcpus,possible,run,impl,case,objs,pairs,pairs_per_sec,hits,misses" >"$csv"
for arch in $arches; do
	check_arch "$arch"
	for possible in ${ICOUNT_POSSIBLE:-2 96}; do
		for run in $(seq "$runs"); do
			res=$WORK/results/bench-objpool-icount-$arch-$possible-$run
			rm -rf "$res"
			ICOUNT=1 MAXCPUS=$possible RESULTS=$res "$TOP/scripts/vm.sh" "$arch" bench -- \
				"bash /guest/bench/objpool-icount.sh ${ICOUNT_MS:-200} >/results/objpool.csv" ||
				die "icount pool module run $run on $arch ($possible possible CPUs) failed; see build/$arch-bench/vm/console.log"
			accel=$(cat "$(objdir "$arch" bench)/vm/accel")
			[ "$accel" = tcg-icount ] || die "the $arch guest ran under '$accel', not tcg-icount"
			[ "$(tail -n +2 "$res/objpool.csv" | wc -l)" -gt 0 ] ||
				die "the $arch guest printed no pool runs; see $res/objpool.csv and the console log"
			got=$(tail -n +2 "$res/objpool.csv" | cut -d, -f1 | sort -u)
			tail -n +2 "$res/objpool.csv" | cut -d, -f2- | sed "s/^/$arch,$accel,1,$got,$run,/" >>"$csv"
		done
		# QEMU's arm64 virt machine has no hot-pluggable vCPUs: its guests
		# see possible = present CPUs whatever MAXCPUS says.
		if [ "$got" != "$possible" ]; then
			warn "$arch guest booted with MAXCPUS=$possible has $got possible CPUs (QEMU cannot add absent vCPUs there): measured at $got only"
			break
		fi
	done
done

#!/usr/bin/env bash
# Real load under QEMU icount (make vm ICOUNT=1: one vCPU, 1 ns of guest
# time per guest instruction): guest/bench/real-load.sh with one thread on
# the base and the patched bench kernels of each arch, ICOUNT_RUNS boots of
# each (default 2), so that calls per virtual second give instructions per
# call and two boots show how repeatable they are.  Each boot first checks
# that the guest clock follows icount (guest/bench/icount-clock.sh).
# Environment: ICOUNT_ARCHES (x86_64 arm64), ICOUNT_RUNS (2),
#   ICOUNT_SECONDS (0.2 virtual seconds per row), ICOUNT_KERNELS ("base patched").
# CSV: arch,kernel,accel,vcpus,clocksource,ns_per_insn,row,run,calls_per_vsec
. "$(dirname "$0")/../lib.sh"
out=$1
arches=${ICOUNT_ARCHES:-x86_64 arm64} runs=${ICOUNT_RUNS:-2} secs=${ICOUNT_SECONDS:-0.2}
csv=$out/real-load-icount.csv
echo "arch,kernel,accel,vcpus,clocksource,ns_per_insn,row,run,calls_per_vsec" >"$csv"
for arch in $arches; do
	check_arch "$arch"
	for kernel in ${ICOUNT_KERNELS:-base patched}; do
		case $kernel in base|patched) ;; *) die "ICOUNT_KERNELS: '$kernel' is neither base nor patched" ;; esac
		base=; [ $kernel = base ] && base=1
		for run in $(seq "$runs"); do
			res=$WORK/results/bench-real-load-icount-$arch-$kernel-$run
			rm -rf "$res"
			ICOUNT=1 RESULTS=$res "$TOP/scripts/vm.sh" "$arch" bench $base -- \
				"bash /guest/bench/icount-clock.sh >/results/clock.csv &&
				 bash /guest/bench/real-load.sh 1 $secs 1 >/results/real-load.csv" ||
				die "icount real-load run $run on the $arch $kernel kernel failed; see build/$arch-bench${base:+-base}/vm/console.log"
			accel=$(cat "$(objdir "$arch" bench $base)/vm/accel")
			[ "$accel" = tcg-icount ] || die "the $arch guest ran under '$accel', not tcg-icount"
			clock=$(tail -n +2 "$res/clock.csv")
			[ -n "$clock" ] || die "the $arch guest printed no clock check; see $res/clock.csv"
			IFS=, read -r cs insns ns <<<"$clock"
			ratio=$(echo "scale=4; $ns / $insns" | bc)
			# Timer interrupts inside the loop add a little; a clock that
			# does not follow icount is off by far more (or runs on host time).
			echo "$ratio" | awk '{ exit !($1 >= 0.995 && $1 <= 1.02) }' ||
				die "$arch guest: $insns instructions took $ns ns of clocksource $cs (want 1 ns each): the clock does not count instructions under icount"
			tail -n +2 "$res/real-load.csv" | awk -F, -v p="$arch,$kernel,$accel,1,$cs,$ratio" -v run="$run" \
				'{ print p "," $1 "," run "," $4 }' >>"$csv"
		done
	done
done

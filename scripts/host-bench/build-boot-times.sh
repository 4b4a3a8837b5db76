#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# How long the harness's own steps take: the first build of a kernel's
# build directory (as kernel.sh recorded it), a no-change rebuild and a
# guest round trip (boot, run 'true', power off), for each arch with a
# bench (else test) kernel.  Writes OUT/build-boot-times.csv:
# step,arch,flavor,accel,vcpus,run,seconds
# Usage: build-boot-times.sh OUT
. "$(dirname "$0")/../lib/harness.sh"
out=$1
csv=$out/build-boot-times.csv
res=$WORK/results/bench-build-boot-times
echo "step,arch,flavor,accel,vcpus,run,seconds" >"$csv"
# timed STEP ARCH FLAVOR RUN CMD...: one row, accel and vCPUs from the
# guest run of CMD if it booted one (RESULTS), '-' otherwise.
timed() {
	local step=$1 arch=$2 flavor=$3 run=$4 t0 t1; shift 4
	rm -rf "$res"
	t0=$(date +%s.%N)
	RESULTS=$res "$@" >/dev/null 2>&1 </dev/null || die "'$*' failed"
	t1=$(date +%s.%N)
	echo "$step,$arch,$flavor,$(vm_fact "$res" accel vcpus),$run,$(echo "$t1 - $t0" | bc)" >>"$csv"
}
for arch in $(valid_arches); do
	flavor=$BENCH_FLAVOR
	[ -f "$(objdir "$arch" $flavor)/.first-build-seconds" ] || flavor=$TEST_FLAVOR
	[ -f "$(objdir "$arch" $flavor)/.first-build-seconds" ] || continue
	echo "first build of the build dir,$arch,$flavor,-,-,1,$(cat "$(objdir "$arch" $flavor)/.first-build-seconds")" >>"$csv"
	for run in 1 2 3; do
		timed "rebuild (no change)" "$arch" "$flavor" "$run" "$TOP/scripts/kernel.sh" "$arch" "$flavor"
	done
	for run in 1 2 3 4 5; do
		timed "boot + true + power off" "$arch" "$flavor" "$run" "$TOP/scripts/vm.sh" "$arch" "$flavor" -- true
	done
done

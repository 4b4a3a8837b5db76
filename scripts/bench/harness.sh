#!/usr/bin/env bash
# The harness's own timings: a no-change kernel rebuild and a guest round
# trip (boot, run 'true', power off).  CSV: step,arch,flavor,accel,vcpus,run,seconds
. "$(dirname "$0")/../lib.sh"
out=$1
csv=$out/harness.csv
echo "step,arch,flavor,accel,vcpus,run,seconds" >"$csv"
timed() {	# timed STEP ARCH FLAVOR RUN CMD...
	local step=$1 arch=$2 flavor=$3 run=$4 t0 t1; shift 4
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || die "harness timing: '$*' failed"
	t1=$(date +%s.%N)
	echo "$step,$arch,$flavor,$(cat "$(objdir "$arch" "$flavor")/vm/accel" 2>/dev/null || echo -),${VCPUS:-2},$run,$(echo "$t1 - $t0" | bc)" >>"$csv"
}
for arch in x86_64 arm64; do
	flavor=bench
	[ -f "$(objdir "$arch" $flavor)/.first-build-seconds" ] || flavor=test
	[ -f "$(objdir "$arch" $flavor)/.first-build-seconds" ] || continue
	echo "first build of the build dir,$arch,$flavor,-,-,1,$(cat "$(objdir "$arch" $flavor)/.first-build-seconds")" >>"$csv"
	for run in 1 2 3; do
		timed "rebuild (no change)" "$arch" "$flavor" "$run" "$TOP/scripts/kernel.sh" "$arch" "$flavor"
	done
	for run in 1 2 3 4 5; do
		timed "boot + true + power off" "$arch" "$flavor" "$run" "$TOP/scripts/vm.sh" "$arch" "$flavor" -- true
	done
done

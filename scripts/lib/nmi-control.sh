#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The positive control of the KUnit NMI case, for make check
# (scripts/lib/check-one-series.sh, nmi_control) and make soak: boot ARCH/FLAVOR with
# 3 vCPUs and run guest suite objpool-nmi-upstream, where the NMI stress of
# lib/objpool_nmi_stress.h runs on upstream's objpool of 6.12 and must fail
# with the stress's own verdict (guest/modules/upstream_objpool_nmi_main.c ends a
# livelock itself, with the stress's STALL line, and keeps the guest
# alive).  No detector of the kernel is held off for it (the RCU stall
# detector stays at vm.sh's 120 s, 300 s with more vCPUs than host CPUs):
# any report of theirs, or any other, is a harness error.
# Usage: nmi-control.sh ARCH FLAVOR DIR
# Writes DIR/vm.log, DIR/console.log, DIR/guest/ (what the guest sent) and
# DIR/tap/objpool-nmi-upstream.tap, whose one case is ok only when the
# stress caught upstream's pool and the kernel reported nothing; prints
# the verdict; exits 0 when caught.
# Environment: NMI_CONTROL_TIMEOUT (QEMU's, 240 s), NMI_CONTROL_WAIT (the
# guest's wait for a verdict, 60 s), NMI_STALL_SECONDS (the module's, 5),
# APPEND (kernel parameters).
. "$(dirname "$0")/harness.sh"
[ $# = 3 ] || die "usage: nmi-control.sh ARCH FLAVOR DIR"
arch=$1 flavor=$2 res=$3
name=nmi_stress_catches_upstream_objpool
tap=$res/tap/objpool-nmi-upstream.tap
rm -rf "$res" && mkdir -p "$res/tap"
t0=$(date +%s)
VCPUS=3 TIMEOUT=${NMI_CONTROL_TIMEOUT:-240} RESULTS=$res/guest \
	"$TOP/scripts/vm.sh" "$arch" "$flavor" -- \
	"NMI_CONTROL_WAIT=${NMI_CONTROL_WAIT:-60} NMI_STALL_SECONDS=${NMI_STALL_SECONDS:-5} run-suites objpool-nmi-upstream" \
	>"$res/vm.log" 2>&1
rc=$?
secs=$(( $(date +%s) - t0 ))
console=$(objdir "$arch" "$flavor")/vm/console.log
cp "$console" "$res/console.log" 2>/dev/null
rel=${res#$TOP/}
# scripts/lib/console.py's reports of trouble, and the stress's own lines.
first_report=$(grep -a -m 1 -E 'Kernel panic|Oops|BUG:|WARNING:|general protection fault|UBSAN:|INFO: task .* blocked|rcu: INFO:|hard LOCKUP|soft lockup' \
	"$res/console.log" 2>/dev/null | sed 's/^\[[ 0-9.]*\] //')
stress=$(grep -a -m 1 -E 'upstream_objpool_nmi: RESULT|objpool NMI stress: STALL' \
	"$res/console.log" 2>/dev/null | sed 's/^\[[ 0-9.]*\] //')

harness_error() {
	printf 'TAP version 13\n1..1\nnot ok 1 %s\n# harness error, not a catch: %s\n' "$name" "$1" >"$tap"
}
if [ -f "$res/guest/objpool-nmi-upstream.tap" ]; then
	cp "$res/guest/objpool-nmi-upstream.tap" "$tap"
	# A report after the guest's verdict, or one the guest did not see.
	if [ "$rc" = 3 ] || [ -n "$first_report" ]; then
		harness_error "the kernel reported \"$first_report\" (vm.sh exit $rc); see $rel/console.log: a pop still spinning after the module's watchdog, or the stress itself"
	elif [ "$rc" != 0 ]; then
		harness_error "the guest run ended with vm.sh exit $rc; see $rel/vm.log"
	fi
else
	case $rc in
	4) what="the guest never reported its exit status (wedged, or QEMU killed at NMI_CONTROL_TIMEOUT=${NMI_CONTROL_TIMEOUT:-240} s)" ;;
	*) what="the guest sent no result (vm.sh exit $rc)" ;;
	esac
	harness_error "$what; the console's first report: \"${first_report:-none}\", the stress's first line: \"${stress:-none}\"; see $rel/console.log"
fi
verdict=$(grep -E '^(not )?ok 1 ' "$tap" | head -n 1)
case $verdict in
"ok 1 $name") msg="upstream's objpool caught: $(sed -n 's/^# caught: //p' "$tap")" ;;
"ok 1 $name # SKIP"*) msg="SKIPPED: ${verdict#*# SKIP }" ;;
*) msg="NOT CAUGHT: $(sed -n '/^not ok 1 /{n;s/^# //p;}' "$tap")" ;;
esac
after=$(sed -n 's/^# verdict after \([0-9.]*\) s.*/\1/p' "$tap")
echo "nmi control $arch-$flavor: $msg (verdict ${after:-?} s after insmod; guest run ${secs} s)"
[ "$verdict" = "ok 1 $name" ]

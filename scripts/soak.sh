#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make soak: the stress cases for a long time, for local runs before a
# submission; not part of make check. SOAK_SECONDS (default 600) is the
# time of each part: the userspace stress test (all cases, each for
# SOAK_SECONDS / 10), the lifecycle case as long under ASan and TSan,
# then in one guest of ARCH/FLAVOR (default DEFAULT_ARCH and
# SOAK_FLAVOR, config/defaults.env): CPU hotplug under kretprobe load,
# the objpool module, the unload races, the pools' lifetimes against
# hotplug where the flavor runs hotplug-lifecycle, and where the
# flavor's suites (config/flavors) have them the fault sweep at every
# point and kmemleak; then, on an arch whose guests send NMI IPIs
# (ARCH_NMI_IPI), the positive control of the KUnit NMI case
# (the same NMI stress on upstream's objpool must fail with the stress's
# own verdict; scripts/lib/nmi-control.sh, a guest of its own with 3 vCPUs).
# Writes build/soak.md (results/ is not touched: copy it there to keep it).
. "$(dirname "$0")/lib/harness.sh"
secs=${SOAK_SECONDS:-600}
arch=${ARCH:-$DEFAULT_ARCH} flavor=${FLAVOR:-$SOAK_FLAVOR}
use_arch "$arch"; check_flavor "$flavor"
case $secs in ''|*[!0-9]*) die "SOAK_SECONDS must be a number of seconds, not '$secs'" ;; esac
res=$WORK/results/soak-$arch-$flavor
rm -rf "$res"; mkdir -p "$res"
rc=0

say "userspace stress test, $((secs / 10)) s per case"
dir=$TREE/tools/testing/objpool
make -s -C "$dir" objpool_test >"$res/userspace-build.log" 2>&1 ||
	die "cannot build tools/testing/objpool; see $res/userspace-build.log"
(cd "$dir" && ./objpool_test -d "$((secs / 10 > 0 ? secs / 10 : 1))") | tee "$res/userspace.txt" || rc=1
# The pool's lifetime against CPU hotplug, as long again under each sanitizer.
say "userspace lifecycle stress under AddressSanitizer and ThreadSanitizer, $((secs / 10)) s each"
make -s -C "$dir" objpool_test.asan objpool_test.tsan >>"$res/userspace-build.log" 2>&1 ||
	die "cannot build the sanitizer builds of tools/testing/objpool; see $res/userspace-build.log"
for b in objpool_test.asan objpool_test.tsan; do
	(cd "$dir" && "./$b" -t lifecycle -d "$((secs / 10 > 0 ? secs / 10 : 1))") |
		sed "s/^/$b: /" | tee -a "$res/userspace-lifecycle.txt" || rc=1
done

"$TOP/scripts/kernel.sh" "$arch" "$flavor" || exit 1
suites="hotplug-load objpool-soak probe-unload"
case " $(suites "$flavor") " in *" hotplug-lifecycle "*) suites="$suites hotplug-lifecycle" ;; esac
case " $(suites "$flavor") " in *" fault-inject "*) suites="$suites fault-inject" ;; esac
case " $(suites "$flavor") " in *" kmemleak "*) suites="kmemleak-baseline $suites kmemleak" ;; esac
say "guest: $suites, $secs s each where it applies"
# A suite may take the whole boot's time (the full fault sweep): its own
# limit (run-suites, SUITE_TIMEOUT) is the boot's.
limit=$((3 * secs + 2700))
TIMEOUT=$limit RESULTS=$res/guest "$TOP/scripts/vm.sh" "$arch" "$flavor" -- \
	"HOTPLUG_SECONDS=$secs LIFECYCLE_SECONDS=$secs SOAK_SECONDS=$secs FAULT_FULL=1000000 SUITE_TIMEOUT=$limit run-suites $suites" || rc=1
"$TOP/scripts/lib/ktap.py" compare "$res/guest" "$arch" --label "soak $arch-$flavor" |
	tee "$res/guest-compare.txt" || rc=1

# The positive control: upstream's pool under the NMI stress must fail
# with the stress's own verdict (scripts/lib/nmi-control.sh, as in make check).
control="skipped: the NMI stress sends NMI IPIs, which $arch's guests cannot (ARCH_NMI_IPI, config/arch/$arch.sh)"
if [ "$ARCH_NMI_IPI" = 1 ]; then
	say "positive control: the NMI stress on upstream's objpool (must fail)"
	[ -f "$UPSTREAM_POOL_TARBALL" ] ||
		die "no $UPSTREAM_POOL_TARBALL (upstream's pool); run 'make deps'"
	line=$("$TOP/scripts/lib/nmi-control.sh" "$arch" "$flavor" "$res/nmi-control") || rc=1
	control=${line#nmi control "$arch-$flavor": }
	say "positive control: $control"
fi

mkdir -p "$BUILD"
{
	echo "# make soak"
	echo
	echo "$(date -u +%Y-%m-%d), SOAK_SECONDS=$secs, guest $(vm_fact "$res/guest" accel | tr a-z A-Z) ${VCPUS:-2} vCPUs, $arch-$flavor kernel."
	echo
	echo "Userspace stress test (host, $((secs / 10)) s per case): $(tail -n 1 "$res/userspace.txt")"
	echo
	echo "Userspace lifecycle stress, ASan and TSan: $(grep -c ': ok ' "$res/userspace-lifecycle.txt") of 2 ok"
	echo
	echo "Guest: $(tail -n 1 "$res/guest-compare.txt")"
	echo
	echo "Positive control of the KUnit NMI case (NMI stress on upstream's objpool, $arch-$flavor, 3 vCPUs): $control"
	sed -n 's/^\(  FAILED .*\)/\1/p' "$res/guest-compare.txt"
	echo
	for s in $suites; do
		[ -f "$res/guest/$s.tap" ] && grep -E '^(not )?ok |^# ' "$res/guest/$s.tap" | sed "s/^/    $s: /"
	done
} >"$BUILD/soak.md"
say "wrote build/soak.md; copy it to results/soak.md to keep it"
exit $rc

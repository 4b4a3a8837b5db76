# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the guest's suite scripts; source it.
# A suite prints "TAP version 13", its plan, then one line per case.
tap_n=0
tap_plan() { echo "TAP version 13"; echo "1..$1"; }
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1"; }
tap_fail() { tap_n=$((tap_n + 1)); echo "not ok $tap_n $1"; [ -z "${2:-}" ] || echo "# $2"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1 # SKIP $2"; }
# tap_check NAME CMD...: one case from a command's exit status.
tap_check() { local name=$1; shift; if "$@"; then tap_ok "$name"; else tap_fail "$name" "failed: $*"; fi; }
# The path of module NAME.ko under /lib/modules, or nothing.
module_path() { find /lib/modules -name "$1.ko" 2>/dev/null | head -n 1; }
# upstream_test_objpool KO: KO is upstream's lib/test_objpool.c (6.7+),
# which has no parameters, not the 6.1 series' benchmark module; loading it
# hangs the test guest (series-6.12/expect/README).
upstream_test_objpool() { ! grep -q 'parm=verify_iterations' "$1"; }
# kunit_ktap SUITE [N]: the KTAP of KUnit suite SUITE's last run, from the
# kernel log, as test 1 of 1 + N: the caller prints tests 2 to N + 1 (its
# own checks around the suite) after it.  Not debugfs: in 6.1 its results
# file keeps neither the header nor any line but the last of a
# parameterised case, and the KTAP parser then loses every case after it.
kunit_ktap() {
	echo "KTAP version 1"
	echo "1..$((1 + ${2:-0}))"
	echo "    KTAP version 1"
	dmesg | sed 's/^\[[^]]*\] //' | awk -v s="$1" '
		$0 ~ "^ *# Subtest: " s "$" { on = 1; buf = "" }
		!on { next }
		$0 ~ "^(not )?ok [0-9]+ " s "( |$)" {
			# numbered across all suites run since boot: 1 of 1 here
			sub(/ok [0-9]+ /, "ok 1 ")
			last = buf $0 "\n"; on = 0; next
		}
		{ buf = buf $0 "\n" }
		END { printf "%s", last }'
}
# tap_skip_all REASON: skip every case named in $cases with REASON, and end
# the suite (for a suite whose whole setup is missing).  The suite sets $cases.
# shellcheck disable=SC2154
tap_skip_all() { local c; for c in $cases; do tap_skip "$c" "$1"; done; exit 0; }
# log_since MARK: the kernel log after its first MARK lines (MARK from
# 'dmesg | wc -l' taken before).
log_since() { dmesg | tail -n +"$(( $1 + 1 ))"; }
# pause SECONDS: wait without entering hrtimer_nanosleep(), which suites
# probe (a read with a timeout on fd 9, a FIFO no one writes: the suite
# opens it with 'mkfifo F && exec 9<>F').
pause() { read -r -t "$1" -u 9 _ || true; }
# kmemleak_scan: scan until kmemleak can report: it reports an object only
# when its contents did not change since the previous scan, so one scan
# leaves every new unreferenced object unreported (and 'clear' would then
# keep it, to be blamed on a later suite).  Nor does it report or clear an
# object younger than 5 s (MSECS_MIN_AGE), so wait that out first.
kmemleak_scan() {
	local _
	sleep 6
	for _ in 1 2; do
		echo scan >/sys/kernel/debug/kmemleak || return 1
	done
}

# SPDX-License-Identifier: GPL-2.0
# The start of the kmemleak suite's window: scan until kmemleak can report
# what boot left unreferenced, then forget it, so that the kmemleak suite
# (last) reports only what the suites in between leaked.  Runs first.
. /guest/tap.sh
k=/sys/kernel/debug/kmemleak
tap_plan 1
[ -e $k ] || { tap_skip baseline "no $k (CONFIG_DEBUG_KMEMLEAK off)"; exit 0; }
if kmemleak_scan && echo clear >$k; then
	tap_ok baseline
else
	tap_fail baseline "cannot scan or clear $k"
fi

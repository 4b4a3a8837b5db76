# SPDX-License-Identifier: GPL-2.0
# Does the guest clock count instructions?  Runs insn-loop (a loop of a
# known instruction count) and prints CSV: clocksource,insns,ns.  Under
# ICOUNT=1 ns/insns is about 1.0; the host checks it.
# usage: icount-clock.sh [ITERATIONS]   (default 100,000,000: 0.2 virtual s)
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) ||
	{ echo "no current_clocksource in sysfs" >&2; exit 1; }
line=$(insn-loop "${1:-100000000}") || exit
echo "clocksource,insns,ns"
echo "$line" | sed -n "s/^insn-loop insns=\([0-9]*\) ns=\([0-9]*\)$/$cs,\1,\2/p"

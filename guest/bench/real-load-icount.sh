# SPDX-License-Identifier: GPL-2.0
# Real load for an icount guest (make vm ICOUNT=1): first checks that the
# guest clock counts instructions (icount-clock.sh: about 1 ns per
# instruction; timer interrupts inside the loop add a little, a clock that
# does not follow icount is off by far more), then real-load.sh with one
# thread, one repeat.  Calls per virtual second give instructions per call.
# Prints CSV: clocksource,ns_per_insn,row,calls_per_vsec
# usage: real-load-icount.sh SECONDS   (virtual seconds per row)
clock=$(bash /guest/bench/icount-clock.sh | tail -n +2)
[ -n "$clock" ] || { echo "the clock check printed nothing" >&2; exit 1; }
IFS=, read -r cs insns ns <<<"$clock"
ratio=$(awk -v n="$ns" -v i="$insns" 'BEGIN { printf "%.4f", n / i }')
awk -v r="$ratio" 'BEGIN { exit !(r >= 0.995 && r <= 1.02) }' ||
	{ echo "$insns instructions took $ns ns of clocksource $cs (want 1 ns each): the clock does not count instructions; run under ICOUNT=1" >&2; exit 1; }
echo "clocksource,ns_per_insn,row,calls_per_vsec"
bash /guest/bench/real-load.sh 1 "${1:-0.2}" 1 | tail -n +2 |
	awk -F, -v p="$cs,$ratio" '{ print p "," $1 "," $4 }'

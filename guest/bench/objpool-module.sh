# SPDX-License-Identifier: GPL-2.0
# The in-kernel pool benchmark (lib/test_objpool.ko): objpool, the old
# freelist and the per-CPU floor, each case with and without an hrtimer per
# CPU, and in each run also upstream's objpool of Linux 6.12
# (impl=upstream; pool-modules.sh).
# Prints CSV: impl,case,irq,threads,run,pairs_per_sec,hits,misses,ns_per_miss
# pairs_per_sec counts successful pop+push pairs only (a failed pop is not
# an operation); ns_per_miss, CPU time per failed pop, is set for the
# "empty" case (every pop misses) and empty for the others.
# usage: objpool-module.sh "THREADS_PER_CPU..." DURATION_MS REPEATS
tpcs=${1:-1} ms=${2:-500} reps=${3:-3}
. /guest/bench/pool-modules.sh
echo "impl,case,irq,threads,run,pairs_per_sec,hits,misses,ns_per_miss"
pool_not_built
# field NAME LINE: the value of NAME=... in LINE.
field() { local v=${2#* $1=}; echo "${v%% *}"; }
for tpc in $tpcs; do
	for r in $(seq "$reps"); do
		pool_run duration_ms="$ms" threads_per_cpu="$tpc" |
		while read -r line; do
			line=" ${line#*objpool_bench: } "
			case=$(field case "$line") miss=
			[ "$case" = empty ] && miss=$(field ns_per_miss "$line")
			echo "$(field impl "$line"),$case,$(field irq "$line"),$(field threads "$line"),$r,$(field pairs_per_sec "$line"),$(field hits "$line"),$(field misses "$line"),$miss"
		done
		[ "${PIPESTATUS[0]}" = 0 ] || exit 1
	done
done

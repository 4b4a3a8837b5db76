# The pool module (lib/test_objpool.ko) for an icount guest (1 vCPU): what
# each run printed, for the host to turn into instructions.  Two loads:
# the nonblocking case (pop then push back, 16 objects: every pop succeeds)
# and the misses case with one object (batches of 1-16 pops: one succeeds,
# the rest find the pool empty).  No hrtimer (irq=1 is the "without" bit).
# Then the same loads on upstream's objpool of Linux 6.12
# (upobjpool_bench.ko: test_objpool.c's objpool implementation on
# upstream's pool), relabelled impl=upstream; when that module is missing,
# one row "upstream,not built" says so.
# Prints CSV: impl,case,objs,pairs,pairs_per_sec,hits,misses
# usage: objpool-icount.sh DURATION_MS
ms=${1:-200}
. /guest/bench/pool-modules.sh
echo "impl,case,objs,pairs,pairs_per_sec,hits,misses"
# loads KO [PARAM...]: each load once on KO, its lines as CSV.
loads() {
	local ko=$1 load; shift
	for load in "cases=1 nr_objs=16" "cases=4 nr_objs=1"; do
		# shellcheck disable=SC2086
		pool_module_run "$ko" "$@" duration_ms="$ms" irq=1 threads_per_cpu=1 $load |
		sed -n "s/.*impl=\([^ ]*\) case=\([^ ]*\) .* pairs=\([^ ]*\) pairs_per_sec=\([^ ]*\) hits=\([^ ]*\) misses=\([^ ]*\) .* objs=\([^ ]*\) .*/\1,\2,\7,\3,\4,\5,\6/p"
		[ "${PIPESTATUS[0]}" = 0 ] || exit 1
	done
}
pool_modules loads

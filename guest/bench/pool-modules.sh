# SPDX-License-Identifier: GPL-2.0
# Sourced by the pool benchmarks (objpool-icount.sh, objpool-module.sh):
# the modules that run lib/test_objpool.c, loaded one after the other for
# each run, so that on a shared host the pools are measured side by side:
# test_objpool.ko (objpool, freelist, percpu), then
# upstream_objpool_bench.ko (its objpool implementation on upstream's
# objpool of Linux 6.12, impls=1), whose lines are relabelled
# impl=upstream.

POOL_KO=$(find /lib/modules -name test_objpool.ko | head -n 1)
[ -n "$POOL_KO" ] || { echo "test_objpool.ko is not built (CONFIG_TEST_OBJPOOL=m)" >&2; exit 1; }
POOL_UP=/guest/modules/upstream_objpool_bench.ko
if [ ! -f "$POOL_UP" ]; then
	echo "upstream_objpool_bench.ko is not built: needs a kernel of the 6.1 series and upstream's pool source on the host (config/upstream-pool.env, make deps); see build/<series>/<arch>-bench/guest-modules/build.log" >&2
	POOL_UP=
fi

# pool_not_built: after the CSV header, the row "upstream,not built" when
# upstream's module is missing, so that the report says so.
pool_not_built() { [ -n "$POOL_UP" ] || echo "upstream,not built"; }

# pool_module_run KO PARAM...: load KO with PARAMs, unload it, print the
# "objpool_bench: impl=..." lines it logged; on a failed load, the log to
# stderr and status 1.
pool_module_run() {
	local ko=$1 mark; shift
	mark=$(dmesg | wc -l)
	insmod "$ko" "$@" || {
		echo "$(basename "$ko") failed ($*)" >&2
		dmesg | tail -n +"$((mark + 1))" >&2
		return 1
	}
	rmmod "$(basename "$ko" .ko)"
	dmesg | tail -n +"$((mark + 1))" | grep 'objpool_bench: impl=' ||
		{ echo "$(basename "$ko") printed no objpool_bench line ($*)" >&2; return 1; }
}

# pool_run PARAM...: one run of each module with PARAMs, their lines.
pool_run() {
	pool_module_run "$POOL_KO" "$@" || return 1
	[ -n "$POOL_UP" ] || return 0
	pool_module_run "$POOL_UP" impls=1 "$@" | sed 's/objpool_bench: impl=objpool /objpool_bench: impl=upstream /'
	return "${PIPESTATUS[0]}"
}

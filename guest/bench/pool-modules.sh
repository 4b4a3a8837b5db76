# Sourced by the pool benchmarks (objpool-icount.sh, objpool-module.sh):
# the modules that run lib/test_objpool.c, and one run of one of them.

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

# pool_modules FN: FN KO [PARAM...] for test_objpool.ko (its three
# implementations), then for upobjpool_bench.ko (its objpool
# implementation on upstream's pool, impls=1) with impl=objpool relabelled
# impl=upstream on FN's CSV rows.  FN's rows start with the impl.  Without
# upobjpool_bench.ko, one row "upstream,not built" and the reason on stderr.
pool_modules() {
	local fn=$1 ko up=/guest/modules/upobjpool_bench.ko
	ko=$(find /lib/modules -name test_objpool.ko | head -n 1)
	[ -n "$ko" ] || { echo "test_objpool.ko is not built (CONFIG_TEST_OBJPOOL=m)" >&2; exit 1; }
	"$fn" "$ko" || exit 1
	if [ ! -f "$up" ]; then
		echo "upobjpool_bench.ko is not built: needs a kernel of the series and /usr/src/linux-source-6.12.tar.xz on the host (make deps); see build/<arch>-bench/guest-modules/build.log" >&2
		echo "upstream,not built"
		return
	fi
	"$fn" "$up" impls=1 | sed 's/^objpool,/upstream,/'
	[ "${PIPESTATUS[0]}" = 0 ] || exit 1
}

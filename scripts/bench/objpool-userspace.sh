#!/usr/bin/env bash
# Pool benchmark in userspace (tools/testing/objpool -b) on the host's 2
# cores: this series' objpool, the old freelist (base tree's freelist.h),
# upstream's objpool (Debian's linux-source-6.12, extracted here, never
# committed) and a per-CPU floor, all built against the same shims.
# CSV: impl,case,threads,ops_per_sec,run
. "$(dirname "$0")/../lib.sh"
out=$1
up=$BUILD/upstream-objpool
tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || die "no /usr/src/linux-source-6.12.tar.*; run 'make deps' (scripts/deps.sh bench)"
if [ ! -f "$up/lib/objpool.c" ]; then
	mkdir -p "$up"
	tar -xf "$tarball" -C "$up" --strip-components=1 \
		linux-source-6.12/include/linux/objpool.h linux-source-6.12/lib/objpool.c ||
		die "cannot extract upstream's objpool from $tarball"
fi
dir=$TREE/tools/testing/objpool
make -C "$dir" UPSTREAM_DIR="$up" objpool_test >"$BUILD/objpool-userspace-bench.log" 2>&1 ||
	die "cannot build tools/testing/objpool; see build/objpool-userspace-bench.log"
grep 'build failed' "$BUILD/objpool-userspace-bench.log" >&2
(cd "$dir" && ./objpool_test -b -d "${BENCH_SECONDS:-1}" -r "${BENCH_REPEATS:-3}") >"$out/objpool-userspace.csv" ||
	die "objpool_test -b failed"

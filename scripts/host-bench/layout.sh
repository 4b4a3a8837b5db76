#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Layout check's numbers in userspace (tools/testing/objpool -L): for 2, 8
# and 96 CPUs, 2 and 8 objects per CPU and objects of 48, 56 and 200
# bytes, the cache lines that the own-share pops and pushes of two CPUs
# both write, for this series' objpool, upstream's (Debian's
# linux-source-6.12, extracted at build time) and the freelist. Counted
# from the stores the pool makes, so deterministic: no timing involved.
# CSV: pool,cpus,per_cpu,obj_size,shared_lines
. "$(dirname "$0")/../lib/harness.sh"
out=$1
up=$("$TOP/scripts/lib/upstream-objpool-dir.sh") || exit
dir=$TREE/tools/testing/objpool
log=$WORK/layout-bench.log
make -C "$dir" UPSTREAM_DIR="$up" objpool_test >"$log" 2>&1 ||
	die "cannot build tools/testing/objpool; see ${log#$TOP/}"
! grep 'build failed' "$log" >&2 || die "a peer did not build; see ${log#$TOP/}"
(cd "$dir" && ./objpool_test -L) >"$out/layout.csv" || die "objpool_test -L failed"

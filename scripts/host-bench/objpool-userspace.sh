#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Pool scenario benchmark in userspace (tools/testing/objpool -b) on the
# host's cores: this series' objpool, upstream's objpool (Debian's
# linux-source-6.12, extracted at build time, never committed), the old
# freelist (base tree's freelist.h) and a per-CPU floor, all built
# against the same shims. The CSV's series column names the commit of
# this repository and the lib/objpool.c it measured, the host's CPU model
# and core count (results from two machines do not compare), and its load
# average when the run started (the machine is shared).
#   BENCH_US_SECONDS  length of one run (0.2)
#   BENCH_US_PAIRS    A/B pairs of objpool and upstream per point (7)
#   BENCH_US_SCENARIOS  comma-separated subset (all)
# CSV: see the head of tools/testing/objpool/bench.c.
. "$(dirname "$0")/../lib/harness.sh"
out=$1
up=$("$TOP/scripts/lib/upstream-objpool-dir.sh") || exit
dir=$TREE/tools/testing/objpool
log=$WORK/objpool-userspace-bench.log
make -C "$dir" UPSTREAM_DIR="$up" objpool_test >"$log" 2>&1 ||
	die "cannot build tools/testing/objpool; see ${log#$TOP/}"
! grep 'build failed' "$log" >&2 || die "a peer did not build; see ${log#$TOP/}"
rev=$(git -C "$TOP" rev-parse --short HEAD)
git -C "$TOP" diff --quiet HEAD -- patches || rev="$rev+dirty"
blob=$(git -C "$TREE" rev-parse --short HEAD:lib/objpool.c)
git -C "$TREE" diff --quiet HEAD -- lib/objpool.c include/linux/objpool.h || blob="$blob+dirty"
load=$(cut -d' ' -f1 /proc/loadavg)
# The label is the CSV's last column: no commas in it.
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1 | tr -d ,)
host="${cpu:-$(uname -m)} x $(nproc) cores"
(cd "$dir" && ./objpool_test -b -d "${BENCH_US_SECONDS:-0.2}" -r "${BENCH_US_PAIRS:-7}" \
	${BENCH_US_SCENARIOS:+-S "$BENCH_US_SCENARIOS"} -l "$rev lib/objpool.c $blob; $host; load $load") \
	>"$out/objpool-userspace.csv" || die "objpool_test -b failed"

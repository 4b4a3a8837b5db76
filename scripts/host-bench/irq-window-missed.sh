#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Missed pops with irqs in the push window, in userspace: the irq_window
# case of tools/testing/objpool (a CPU that only pops, another whose
# thread and irq handler push back what it pops, the handler spinning
# 20 us after its push as softirqs would) counts the pops that returned
# NULL while an object whose push had returned was in the pool. Five
# runs of 1 s each of the pool as it is, and of the same pool with
# mutants/objpool-userspace/irqs-in-push-window.patch (built by
# scripts/lib/userspace-mutants.sh; interrupts left on from a push's
# reservation until its ring's bit is set, the preempt-only push), side
# by side. Signals play the irqs; wall-clock runs on a shared host, so
# the counts vary from run to run: the goal is 0 for the pool as it is.
# CSV: pool,run,seconds,pops,pushes,irq_pushes,irqs,missed,result,series
. "$(dirname "$0")/../lib/harness.sh"
out=$1
dir=$TREE/tools/testing/objpool
mutant=irqs-in-push-window
runs=5
seconds=1
log=$WORK/irq-window-missed.log
[ -f "$dir/Makefile" ] ||
	die "no tools/testing/objpool in ${TREE#$TOP/}: make tree SERIES=$SERIES"
{ make -C "$dir" objpool_test &&
  mut=$("$TOP/scripts/lib/userspace-mutants.sh" -b "$dir" "$WORK/objpool-mutants" "$mutant"); } >"$log" 2>&1 ||
	die "cannot build tools/testing/objpool or its mutant; see ${log#$TOP/}"
rev=$(git -C "$TOP" rev-parse --short HEAD)
blob=$(git -C "$TREE" rev-parse --short HEAD:lib/objpool.c)
git -C "$TREE" diff --quiet HEAD -- lib/objpool.c include/linux/objpool.h || blob="$blob+dirty"
load=$(cut -d' ' -f1 /proc/loadavg)
label="$rev lib/objpool.c $blob; $(nproc) cores; load $load"
csv=$out/irq-window-missed.csv
echo "pool,run,seconds,pops,pushes,irq_pushes,irqs,missed,result,series" >"$csv"
for pool in objpool "$mutant"; do
	bin=$dir/objpool_test
	[ "$pool" = objpool ] || bin=$mut/objpool_test
	for run in $(seq "$runs"); do
		res=$( (cd "$dir" && timeout 60 "$bin" -d "$seconds" -t irq_window) 2>&1)
		# "  N pops, N pushes (N by irqs, N irqs), N missed pops"
		nums=$(echo "$res" | sed -n 's/^ *\([0-9]*\) pops, \([0-9]*\) pushes (\([0-9]*\) by irqs, \([0-9]*\) irqs), \([0-9]*\) missed pops$/\1,\2,\3,\4,\5/p')
		[ -n "$nums" ] || die "irq_window of $pool printed no counts; its output: $(echo "$res" | tail -3)"
		result=$(echo "$res" | sed -n 's/^\(ok\|FAIL\|SKIP\) *irq_window.*/\1/p' | head -1)
		echo "$pool,$run,$seconds,$nums,${result:-none},$label" >>"$csv"
	done
done

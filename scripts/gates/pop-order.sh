#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the proof of the fix series' pop fix (7.2 and 6.12: the pop reads
# last with smp_load_acquire(), pairing with the push's release):
#  - litmus/NAME: herd7 with the base tree's own tools/memory-model on
#    scripts/pop-order/NAME.litmus, which must give the verdict of its
#    "Result:" line; the tests the pop fix's message cites:
#    pop-last-relaxed (Sometimes) and pop-last-acquire (Never), the entry
#    read before and after the fix; pop-contents-relaxed (Sometimes) and
#    pop-contents-acquire (Never), the object's contents as its last user
#    left them; pop-head-reread (Sometimes: last seen behind a head read
#    with no ordering, even with the acquire, why the fixed pop keeps its
#    range check) and pop-head-acquired (Never: the same with head read
#    by acquire).  herd7: $HERD7, else herd7 on PATH (lib/harness.sh's
#    find_herd7); none found: each skips with its reason; a HERD7 that
#    does not run: each fails;
#  - code/base-pop-relaxed, code/series-pop-acquire, code/series-pop-
#    range-check: the litmus tests are the code's: the base's
#    __objpool_try_get_slot() reads last with READ_ONCE() and no acquire,
#    the series' with smp_load_acquire(), and its push still publishes
#    last with smp_store_release(); the series' pop reads head again with
#    READ_ONCE() and keeps its range check on the acquired last;
#  - stress/reordered, stress/fixed: the pool built in userspace from the
#    base's objpool.h and objpool.c (scripts/pop-order/: shim.h, stress.c,
#    variant.py), threads as CPUs, one object per CPU.  "reordered" is the
#    base's pop with its entry load moved before its load of last, as a
#    weakly ordered CPU may execute it: it must hand objects out twice or
#    lose them (up to POP_ORDER_RUNS runs); "fixed" is the series' pop with the same
#    window between its two loads: none, over the same time in each run.
#    This host's CPU keeps loads in order (x86 is TSO; QEMU TCG guests
#    too), so the base's pop as written shows nothing here: the gate
#    prints its counts as a comment, not as a case;
#  - stress/weak, control/acquire-first-only: the series' pop with every
#    load of last as its ordering allows (variant.py weak: a relaxed load
#    lets the entry load after it go first, an acquire one does not):
#    none over the runs; and its control, the series' pop reading last
#    with acquire once before its loop and with READ_ONCE() on each
#    retry: it must be caught (up to POP_ORDER_RUNS runs) by what the pop
#    does, not only by the spelling code/series-pop-acquire looks for.
#    Up to POP_ORDER_RUNS (6) runs: a run catches the retry's relaxed load
#    about two times in three on a loaded 2-core host (journal,
#    2026-11-29), and a run that catches ends the pair.
. "$(dirname "$0")/../lib/harness.sh"
dir=$TOP/scripts/pop-order
out=$WORK/pop-order
rm -rf "$out" && mkdir -p "$out"
cpus=${POP_ORDER_CPUS:-4} seconds=${POP_ORDER_SECONDS:-3} runs_max=${POP_ORDER_RUNS:-6}
echo "TAP version 13"
if ! git -C "$TREE" cat-file -e base:include/linux/objpool.h 2>/dev/null; then
	echo "1..1"
	echo "ok 1 pop-order # SKIP the $SERIES base has no upstream objpool: a gate of the fix series (SERIES_GATES of 7.2 and 6.12)"
	exit 0
fi
litmus_tests="pop-last-relaxed pop-last-acquire pop-contents-relaxed pop-contents-acquire pop-head-reread pop-head-acquired"
set -- $litmus_tests
nl=$#
echo "1..$((nl + 7))"

# herd7 as lib/harness.sh's find_herd7 finds it: none is a skip with its reason,
# a HERD7 that does not run a failure.
herd7=$(find_herd7); herd7_rc=$?
# litmus N NAME: herd7's verdict must be the "Result:" line of NAME.litmus.
litmus() {
	local n=$1 name=$2 got want
	want=$(sed -n 's/^ \* Result: //p' "$dir/$name.litmus")
	if [ "$herd7_rc" = 1 ]; then
		echo "ok $n litmus/$name # SKIP $herd7"
		return
	elif [ "$herd7_rc" != 0 ]; then
		echo "not ok $n litmus/$name # $herd7"
		return
	fi
	if [ ! -f "$TREE/tools/memory-model/linux-kernel.cfg" ]; then
		echo "not ok $n litmus/$name # no tools/memory-model in ${TREE#$TOP/}; run make tree SERIES=$SERIES"
		return
	fi
	got=$(cd "$TREE/tools/memory-model" && "$herd7" -conf linux-kernel.cfg "$dir/$name.litmus" 2>&1 |
		awk '/^Observation/ { print $3 }')
	if [ "$got" = "$want" ]; then
		echo "ok $n litmus/$name # herd7 on $SERIES's LKMM: $got, as it must"
	else
		echo "not ok $n litmus/$name # herd7 on $SERIES's LKMM: '${got:-no verdict}', expected $want"
	fi
}
n=0
for t in $litmus_tests; do
	n=$((n + 1))
	litmus $n "$t"
done

# The pop of SRC (a git revision of the tree): its loop reads of last.
pop_of() { git -C "$TREE" show "$1:include/linux/objpool.h" |
	sed -n '/__objpool_try_get_slot(/,/^}/p'; }
push_of() { git -C "$TREE" show "$1:include/linux/objpool.h" |
	sed -n '/__objpool_try_add_slot(/,/^}/p'; }
base_pop=$(pop_of base) series_pop=$(pop_of HEAD) series_push=$(push_of HEAD)
if grep -q 'READ_ONCE(slot->last)' <<<"$base_pop" && ! grep -q 'smp_load_acquire(&slot->last)' <<<"$base_pop"; then
	echo "ok $((nl + 1)) code/base-pop-relaxed # the base's pop reads last with READ_ONCE(): pop-last-relaxed and pop-contents-relaxed are its tests"
else
	echo "not ok $((nl + 1)) code/base-pop-relaxed # the base's __objpool_try_get_slot() does not read last as pop-last-relaxed and pop-contents-relaxed say"
fi
if grep -q 'smp_load_acquire(&slot->last)' <<<"$series_pop" && ! grep -q 'READ_ONCE(slot->last)' <<<"$series_pop" &&
   grep -q 'smp_store_release(&slot->last' <<<"$series_push"; then
	echo "ok $((nl + 2)) code/series-pop-acquire # the series' pop reads last with smp_load_acquire() only, its push stores it with smp_store_release(): pop-last-acquire and pop-contents-acquire are their tests"
else
	echo "not ok $((nl + 2)) code/series-pop-acquire # the series' pop or push lost the ordering pop-last-acquire and pop-contents-acquire need (smp_load_acquire(&slot->last) in __objpool_try_get_slot(), no READ_ONCE(slot->last) there, smp_store_release(&slot->last in the push)"
fi
# pop-head-reread: the series' pop reads head with no ordering (after a
# failed try_cmpxchg_release(), and READ_ONCE() after the range check),
# so it must keep the range check on the last it acquired.
if grep -q 'READ_ONCE(slot->head)' <<<"$series_pop" && grep -q 'try_cmpxchg_release(&slot->head' <<<"$series_pop" &&
   grep -q 'if (last - head - 1 >= pool->nr_objs)' <<<"$series_pop"; then
	echo "ok $((nl + 3)) code/series-pop-range-check # the series' pop reads head again with no ordering and checks last - head - 1 >= nr_objs on the acquired last: pop-head-reread is why, pop-head-acquired why its first read of head needs none"
else
	echo "not ok $((nl + 3)) code/series-pop-range-check # the series' __objpool_try_get_slot() does not read head and check last as pop-head-reread says (READ_ONCE(slot->head), try_cmpxchg_release(&slot->head, 'if (last - head - 1 >= pool->nr_objs)')"
fi

# build NAME REV KIND: the stress on REV's pool, KIND of variant.py.
build() {
	local d=$out/$1
	mkdir -p "$d/linux"
	git -C "$TREE" show "$2:include/linux/objpool.h" >"$d/objpool.h.orig" &&
		git -C "$TREE" show "base:lib/objpool.c" >"$d/objpool.c" &&
		"$dir/variant.py" "$3" "$d/objpool.h.orig" "$d/linux/objpool.h" >"$d/build.log" 2>&1 &&
		cc -O2 -Wall -pthread -I "$d" -I "$dir" -o "$d/stress" "$dir/stress.c" "$d/objpool.c" >>"$d/build.log" 2>&1
}
bad() { awk '{ print $4 + $6 + $8 + $10 }' <<<"$1"; }	# doubles foreign lost dups
ok=1
for v in "reordered base reordered" "fixed HEAD as-written" "as-written base as-written" \
	"weak HEAD weak" "acquire-first-only HEAD weak-acquire-first-only"; do
	set -- $v
	build "$1" "$2" "$3" || { ok=; echo "# stress/$1: build failed: $(tail -n 3 "$out/$1/build.log" | tr '\n' ' ')"; }
done
if [ -z "$ok" ]; then
	echo "not ok $((nl + 4)) stress/reordered # the stress does not build, see ${out#$TOP/}/*/build.log"
	echo "not ok $((nl + 5)) stress/fixed # the stress does not build, see ${out#$TOP/}/*/build.log"
	echo "not ok $((nl + 6)) stress/weak # the stress does not build, see ${out#$TOP/}/*/build.log"
	echo "not ok $((nl + 7)) control/acquire-first-only # the stress does not build, see ${out#$TOP/}/*/build.log"
	exit 0
fi
# pair BUGGY CLEAN: up to runs_max runs of the two stresses side by side, until
# BUGGY hands out an object twice or loses one. Sets caught (its run, or
# empty), last (its counts then), clean_bad (runs where CLEAN did) and
# runs (the runs made).
pair() {
	local b c run
	caught= last= clean_bad=0 runs=
	for run in $(seq "$runs_max"); do
		b=$(timeout $((seconds + 30)) "$out/$1/stress" "$cpus" "$seconds") || b="exit $?"
		c=$(timeout $((seconds + 30)) "$out/$2/stress" "$cpus" "$seconds") || c="exit $? 0 0 0 0 0 0 0 1"
		echo "# run $run, $cpus threads, $seconds s each: $1: $b; $2: $c"
		runs="$runs $run"
		[ "$(bad "$c")" = 0 ] || clean_bad=$((clean_bad + 1))
		if [ "${b%% *}" = pops ] && [ "$(bad "$b")" -gt 0 ]; then
			caught=$run last=$b
			return
		fi
	done
}
pair reordered fixed
if [ -n "$caught" ]; then
	echo "ok $((nl + 4)) stress/reordered # the base's pop with its entry load before its load of last: caught in run $caught ($last)"
else
	echo "not ok $((nl + 4)) stress/reordered # the base's pop with its entry load moved first: nothing caught in $runs_max runs, the stress cannot show the bug"
fi
if [ "$clean_bad" = 0 ]; then
	echo "ok $((nl + 5)) stress/fixed # the series' pop, the same window, runs$runs: no double hand-out, no loss"
else
	echo "not ok $((nl + 5)) stress/fixed # the series' pop handed out twice or lost objects in $clean_bad run(s): see the lines above"
fi
w=$(timeout $((seconds + 30)) "$out/as-written/stress" "$cpus" "$seconds" || true)
echo "# the base's pop as written, on this $(uname -m) host: $w"
echo "# $(uname -m) keeps loads in order (x86 is TSO, as are QEMU TCG guests on it): the unfixed order shows only when the entry load is moved first by hand, as arm64, powerpc and riscv may execute it; herd7 (cases 1-$nl) is the proof for those."
pair acquire-first-only weak
if [ "$clean_bad" = 0 ]; then
	echo "ok $((nl + 6)) stress/weak # the series' pop, each load of last as its ordering allows, runs$runs: no double hand-out, no loss"
else
	echo "not ok $((nl + 6)) stress/weak # the series' pop handed out twice or lost objects in $clean_bad run(s) with its relaxed loads reordered: a load of last lacks its acquire"
fi
if [ -n "$caught" ]; then
	echo "ok $((nl + 7)) control/acquire-first-only # last acquired once, then READ_ONCE() on retry: caught in run $caught ($last)"
else
	echo "not ok $((nl + 7)) control/acquire-first-only # nothing caught in $runs_max runs: stress/weak cannot see a relaxed load of last"
fi

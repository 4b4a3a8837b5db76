#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the ring protocol, model-checked.
#  - model/NAME: every case of the series' spin model
#    (tools/testing/objpool/model/check.sh): for 1 to 3 objects a safety
#    search that reaches every assertion and a liveness search, both
#    without error; reach-*, which spin must find reachable; mut-*, each
#    mutant caught first by the property it is for; prop-*, each property
#    with the searches it held in and the mutants it caught; ctl-*, the
#    controls of its own checks (a search cut short by memory is refused);
#  - upstream-last/*: the positive control model/upstream-last.pml
#    (upstream's `last` publication): spin must find the stale entry and
#    the endless spin at OPS=4; upstream-last-fixed/*: the same model with
#    the 7.2 series' fixed push (-DFIXED) at the same bound, OPS=4, where
#    spin must find neither.
# A search cut short (pan out of memory, its memory bound or its depth
# limit reached) fails whatever its error count. The LKMM litmus tests
# are the barriers gate's (scripts/gates/barriers.sh). A missing spin is
# a failure. The cases are pinned in expect/host-model.txt, one name a
# line: a pinned case that does not run (missing/NAME) and a case that is
# not pinned (unpinned/NAME) each fail. After a deliberate change of the
# cases: MODEL_PIN=1 rewrites the list from this run.
. "$(dirname "$0")/../lib/harness.sh"
dir=$TREE/tools/testing/objpool
log=$WORK/model
mkdir -p "$log"

# cut_short PANLOG: pan's line saying the search was cut short, if any.
cut_short() {
	grep -E -m1 'out of memory|reached -DMEMLIM bound|max search depth too small' "$1"
}

# upstream NAME EXPECT PANFLAGS -DFLAG...: one search of upstream-last.pml
# that must end with pan's error line containing EXPECT.
upstream() {
	local name=$1 expect=$2 panflags=$3 d=$log/upstream-$1 err stats cut
	shift 3
	rm -rf "$d" && mkdir -p "$d"
	if ! (cd "$d" && spin -a "$@" "$TOP/model/upstream-last.pml" >spin.log 2>&1 &&
	      cc -O1 -w -o pan pan.c >cc.log 2>&1); then
		echo "FAIL upstream-last/$name: spin -a or cc failed, see ${d#$TOP/}"
		return
	fi
	# shellcheck disable=SC2086
	(cd "$d" && ./pan -m100000 $panflags >pan.log 2>&1)
	err=$(sed -n 's/^pan:[0-9]*: \(.*\) (at depth [0-9]*)$/\1/p' "$d/pan.log" | head -1)
	stats=$(awk '/states, stored/ { print $1 " states" }' "$d/pan.log")
	cut=$(cut_short "$d/pan.log")
	if [ -n "$err" ] && [ -z "${err##*"$expect"*}" ]; then
		echo "ok   upstream-last/$name: spin finds \"$err\" as it must; $stats"
	elif [ -n "$cut" ]; then
		echo "FAIL upstream-last/$name: search cut short (\"$cut\") before the error; $stats, see ${d#$TOP/}"
	else
		echo "FAIL upstream-last/$name: expected \"$expect\", got \"${err:-no error}\"; $stats, see ${d#$TOP/}"
	fi
}

# fixed NAME PANFLAGS -DFLAG...: one search of upstream-last.pml with
# -DFIXED, the push of the 7.2 series' fix, that must end with no error
# (the same searches find both bugs without -DFIXED, above).
fixed() {
	local name=$1 panflags=$2 d=$log/fixed-$1 stats cut
	shift 2
	rm -rf "$d" && mkdir -p "$d"
	if ! (cd "$d" && spin -a -DFIXED "$@" "$TOP/model/upstream-last.pml" >spin.log 2>&1 &&
	      cc -O2 -w -DCOLLAPSE -o pan pan.c >cc.log 2>&1); then
		echo "FAIL upstream-last-fixed/$name: spin -a or cc failed, see ${d#$TOP/}"
		return
	fi
	# shellcheck disable=SC2086
	(cd "$d" && ./pan -m100000 $panflags >pan.log 2>&1)
	stats=$(awk '/states, stored/ { print $1 " states" }' "$d/pan.log")
	cut=$(cut_short "$d/pan.log")
	if [ -n "$cut" ]; then
		echo "FAIL upstream-last-fixed/$name: search cut short (\"$cut\"): no verdict; $stats, see ${d#$TOP/}"
	elif grep -q 'errors: 0$' "$d/pan.log"; then
		echo "ok   upstream-last-fixed/$name: no error, as it must; $stats"
	else
		echo "FAIL upstream-last-fixed/$name: $(grep -m1 '^pan:' "$d/pan.log" || echo 'no verdict'); $stats, see ${d#$TOP/}"
	fi
}

out=$(
	if [ ! -x "$dir/model/check.sh" ]; then
		echo "FAIL series: no tools/testing/objpool/model/check.sh in ${TREE#$TOP/}; run make tree"
	fi
	if ! command -v spin >/dev/null; then
		echo "FAIL spin: not installed; run scripts/deps.sh (Debian package spin)"
	else
		"$dir/model/check.sh" 2>&1 | sed 's/^\(ok  \|FAIL\) /&model\//'
		upstream stale-entry 'assertion violated (status[' "" -DOPS=4
		upstream endless-spin 'acceptance cycle' "-a -f" -DOPS=4 -DLIVE
		fixed stale-entry "" -DOPS=4
		# At OPS=4, the bound where the unfixed model's acceptance
		# cycle is (upstream endless-spin above, its control): 5.5
		# million states, about a minute of CPU and 0.8 GB.
		fixed endless-spin "-a -f -w26" -DOPS=4 -DLIVE
	fi
)
pinned=$TOP/expect/host-model.txt
names=$(echo "$out" | sed -n 's/^\(ok  \|FAIL\) \([^ :]*\):.*/\2/p')
if [ -n "${MODEL_PIN:-}" ]; then
	# Keep the list's comment, replace the names.
	{ grep '^#' "$pinned" 2>/dev/null; echo "$names"; } >"$pinned.new" &&
		mv "$pinned.new" "$pinned"
fi
out=$(
	echo "$out"
	if [ ! -f "$pinned" ]; then
		echo "FAIL pinned: no ${pinned#$TOP/}; MODEL_PIN=1 writes it"
	else
		comm -23 <(grep -v '^#' "$pinned" | sort) <(echo "$names" | sort) |
			sed 's|.*|FAIL missing/&: pinned in expect/host-model.txt, did not run|'
		comm -13 <(grep -v '^#' "$pinned" | sort) <(echo "$names" | sort) |
			sed 's|.*|FAIL unpinned/&: ran, not in expect/host-model.txt|'
	fi
)
echo "TAP version 13"
echo "$out" | tap_lines

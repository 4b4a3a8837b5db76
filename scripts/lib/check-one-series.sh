#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check-one-series.sh [--series NAME] [build|run|all|quick]: the part of make
# check for one series (NAME, else SERIES), in two phases.  build: its
# tree, the prefix builds and kernels (and the host checks that read a
# built kernel); run: the host gates and the guest suites of the kernels
# that built.  all (the default) runs both.  make check
# (scripts/check.sh) runs the build phases of the next series in the
# background while this one's run phase boots its guests, which leave a
# core idle most of the time.  quick (make quick, scripts/quick.sh): the
# tree and the host gates only, nothing that needs a built kernel.
# Writes $WORK/results (quick: $WORK/results-quick): one directory of
# verdicts per step that ran suites or gates, and steps.tsv (verdict,
# step, seconds).  FLAVORS limits the flavors
# (default: SERIES_CHECK_FLAVORS of its series-*/series.env, each on the
# arches config/flavors names); ARCHES the arches (default: the series'
# SERIES_CHECK_ARCHES, else all).
. "$(dirname "$0")/harness.sh"
phase=${1:-all}
case $phase in
build|run|all|quick) ;;
*) die "unknown phase '$phase'; usage: check-one-series.sh [--series NAME] [build|run|all|quick]" ;;
esac
arches=${ARCHES:-${SERIES_CHECK_ARCHES:-$(valid_arches)}}
flavors=${FLAVORS:-$SERIES_CHECK_FLAVORS}
results=$WORK/results
[ "$phase" != quick ] || results=$WORK/results-quick
steps=$results/steps.tsv
if [ "$phase" != run ]; then
	rm -rf "$results"
	mkdir -p "$results"
	: >"$steps"
fi
failed_steps=

step() {	# step NAME CMD...: run one step, record its verdict
	local name=$1; shift
	say "$name ($SERIES)"
	local t0 verdict=ok; t0=$(date +%s)
	"$@" || { verdict=FAIL; failed_steps="$failed_steps $name"; }
	printf '%s\t%s\t%s\n' "$verdict" "$name" "$(( $(date +%s) - t0 ))" >>"$steps"
	[ "$verdict" = ok ]
}

# judge DIR ARCH LABEL: the verdicts of one results directory; the cases
# of the series' own suites are pinned per LABEL (ARCH-FLAVOR) in
# EXPECT/pinned-LABEL.txt, where one exists.
judge() {
	"$TOP/scripts/lib/ktap.py" compare "$1" "$2" --label "$SERIES/$3" \
		--unpatched "$EXPECT/unpatched-$2.txt" --exceptions "$EXPECT/exceptions.txt" \
		--pinned "$EXPECT/pinned-$3.txt"
}

# guest_suites ARCH FLAVOR: boot, run the flavor's suites, judge them.
guest_suites() {
	local arch=$1 flavor=$2 res=$results/$1-$2
	TIMEOUT=$(flavor_timeout "$flavor") RESULTS=$res "$TOP/scripts/vm.sh" "$arch" "$flavor" -- \
		"run-suites $(suites "$flavor")"
	judge "$res" "$arch" "$arch-$flavor" || return
	# the fix series' reproducer, before and after, in make check's log
	"$TOP/scripts/lib/reproducer-verdict.sh" "$res" | sed "s/^/$SERIES\/$arch-$flavor: /" >&2
}

# gates LABEL LIST [ARG]: the host checks named in config/LIST (each
# scripts/gates/NAME.sh, printing TAP), judged as one results directory.
# A line of config/post-build-gates names the arches the check runs for.
# Most checks are one process's work (perl, git, sphinx), so they run
# side by side, one per CPU, each into its own TAP file; a line marked
# 'alone' (a timed stress test) waits for the others and runs by itself.
# A gate of SERIES_SHARED_GATES is skipped, with the reason, once the shared
# gate has passed: all it reads is files that gate found identical in
# SERIES_SHARED_WITH's series, whose check runs it.  When this make check
# leaves that series out (SERIES_LIST), the gate runs here instead, on
# that series' tree (the build phase makes it): the shared files are the
# same, and the gates build them on the base they were written for.
gates() {
	local label=$1 list=$2 arg=${3:-} res=$results/$1 g words gate_series
	mkdir -p "$res"
	while read -r g words; do
		[ -z "$arg" ] || case " $words " in *" $arg "*) ;; *) continue ;; esac
		if [ -n "${SERIES_GATES:-}" ] && ! case " $SERIES_GATES " in *" $g "*) ;; *) false ;; esac; then
			printf 'TAP version 13\n1..1\nok 1 %s # SKIP not a gate of the %s series (SERIES_GATES, %s)\n' \
				"$g" "$SERIES" "$(series_env "$SERIES" | sed "s,^$TOP/,,")" >"$res/$g.tap"
			continue
		fi
		gate_series=$SERIES
		if shared_gate "$g" "$res"; then
			if checked_in_this_run "$SERIES_SHARED_WITH"; then
				printf 'TAP version 13\n1..1\nok 1 %s # SKIP its files are %s'\''s (gates/shared.sh passed): %s'\''s make check runs it\n' \
					"$g" "$SERIES_SHARED_WITH" "$SERIES_SHARED_WITH" >"$res/$g.tap"
				continue
			fi
			gate_series=$SERIES_SHARED_WITH
		fi
		case " $words " in
		*" alone "*)
			wait
			run_gate "$g" "$res" --series "$gate_series" $arg
			continue ;;
		esac
		while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
		run_gate "$g" "$res" --series "$gate_series" $arg &
	done < <(grep -Ev '^[[:space:]]*(#|$)' "$TOP/config/$list")
	wait
	# What later patches take out of what earlier ones added to the pool.
	[ "$label" != host ] || say "churn of the pool's sources in $SERIES: $("$TOP/scripts/lib/churn.py" "$TREE")"
	[ -f "$res/seconds.tsv" ] && sort -t"$(printf '\t')" -k2,2nr "$res/seconds.tsv" | awk -F'\t' '{ printf "%s %ss", sep $1, $2; sep = ", " } END { if (NR) print "" }' |
		sed 's/^/gates by seconds: /' >&2
	judge "$res" host "$label"
}
# run_gate GATE RES [--series S] [ARG]: one gate's TAP into RES/GATE.tap, its seconds
# into RES/seconds.tsv (make check's log lists them, slowest first).
run_gate() {
	local g=$1 res=$2 t0; shift 2
	t0=$(date +%s)
	"$TOP/scripts/gates/$g.sh" "$@" >"$res/$g.tap"
	printf '%s\t%s\n' "$g" "$(( $(date +%s) - t0 ))" >>"$res/seconds.tsv"
}
# A base whose series-*/series.env sets SERIES_GATES runs only the gates it
# names (of config/gates and config/post-build-gates); the others are
# reported skipped.
# shared_gate GATE RES: GATE is in SERIES_SHARED_GATES and RES/shared.tap
# (written before it, config/gates) passed.
shared_gate() {
	case " ${SERIES_SHARED_GATES:-} " in *" $1 "*) ;; *) return 1 ;; esac
	wait	# for the shared gate, which may still be running
	[ -s "$2/shared.tap" ] && grep -q '^ok ' "$2/shared.tap" && ! grep -q '^not ok' "$2/shared.tap"
}
# checked_in_this_run SERIES: this make check checks SERIES too.
checked_in_this_run() {
	case " ${SERIES_LIST:-$(checked_series)} " in *" $1 "*) return 0 ;; esac
	return 1
}
# nmi_control ARCH FLAVOR (series with SERIES_NMI_CONTROL=1): the positive
# control of the KUnit NMI case, in a guest of its own with 3 vCPUs
# (scripts/lib/nmi-control.sh): upstream's objpool under the same NMI stress
# must fail with the stress's own verdict (a double hand-out, a foreign or
# lost object, or its STALL line, which the module's watchdog prints after
# 5 s without progress and then ends the livelock); an RCU stall, a
# lockup or any other kernel report, or a guest that sends no verdict, is
# a harness error and fails. Its case is pinned SUCCESS in
# EXPECT/pinned-ARCH-FLAVOR-nmi-control.txt.
nmi_control() {
	local arch=$1 flavor=$2 res=$results/$1-$2-nmi-control
	"$TOP/scripts/lib/nmi-control.sh" "$arch" "$flavor" "$res" >&2
	judge "$res/tap" "$arch" "$arch-$flavor-nmi-control"
}
post_build_gates_for() { grep -Eq "^[^#].*[[:space:]]$1([[:space:]]|\$)" "$TOP/config/post-build-gates"; }
# bisect ARCH: every prefix of the series builds (scripts/check-bisect.sh):
# each prefix or the last patch only, as the arch's ARCH_BISECT says
# (config/arch/ARCH.sh), in the test
# flavor's object directory, so that the last prefix is the test kernel
# the kernel step then finds built.  It runs on every arch of ARCHES
# (default all), also where the series boots no guest (6.12 and 7.2-rfc on
# arm64): there the last patch's own directories only (check-bisect.sh
# objects: each series' arm64-only code, the KUnit case's pseudo-NMI
# path and kretprobe's own pool where arm64 has no rethook, compiles),
# not a whole kernel nothing boots.
bisect_arches=${ARCHES:-$(valid_arches)}
bisect() {	# bisect ARCH [MODE]: MODE as check-bisect.sh's; default by arch
	"$TOP/scripts/check-bisect.sh" "$1" "${2:-$(arch_fact "$1" BISECT)}"
}
bisect_name() {
	case ${2:-$(arch_fact "$1" BISECT)} in
	all) echo "bisect $1 (every patch)" ;;
	objects) echo "bisect $1 (last patch's directories)" ;;
	*) echo "bisect $1 (last patch)" ;;
	esac
}
# built ARCH-FLAVOR: the build phase built that kernel (its marker).
built() { [ -f "$results/built-$1" ]; }

# trees: the series' tree; and the tree the shared files are compared
# with (gates/shared.sh), which the shared gates run on when its series
# is not checked in this run.
trees() {
	step tree "$TOP/scripts/tree.sh" || return 1
	: >"$results/built-tree"
	if [ -n "${SERIES_SHARED_WITH:-}" ] && ! checked_in_this_run "$SERIES_SHARED_WITH"; then
		step "tree $SERIES_SHARED_WITH (shared files)" "$TOP/scripts/tree.sh" --series "$SERIES_SHARED_WITH"
	fi
	return 0
}

build_phase() {
	local flavor arch bisected=
	trees || return 1
	for flavor in $flavors; do
		for arch in $(flavor_check_arches "$flavor"); do
			case " $arches " in *" $arch "*) ;; *) continue ;; esac
			if [ "$flavor" = "$TEST_FLAVOR" ] && case " $bisect_arches " in *" $arch "*) true ;; *) false ;; esac; then
				step "$(bisect_name "$arch")" bisect "$arch"
				bisected="$bisected $arch"
			fi
			step "kernel $arch-$flavor" "$TOP/scripts/kernel.sh" "$arch" "$flavor" || continue
			: >"$results/built-$arch-$flavor"
			[ "$flavor" = "$TEST_FLAVOR" ] && post_build_gates_for "$arch" &&
				step "gates after kernel $arch-$flavor" gates "host-post-$arch" post-build-gates "$arch"
		done
	done
	# The arches of ARCHES the series boots no test kernel on: their prefix
	# builds.
	for arch in $bisect_arches; do
		case " $bisected " in *" $arch "*) continue ;; esac
		case " $flavors " in *" $TEST_FLAVOR "*) ;; *) continue ;; esac
		step "$(bisect_name "$arch" objects)" bisect "$arch" objects
	done
	return 0
}

run_phase() {
	local flavor arch
	built tree || { warn "the $SERIES tree was not made (the build phase's step 'tree' failed): nothing to run"; return 1; }
	step "gates" gates host gates
	for flavor in $flavors; do
		for arch in $(flavor_check_arches "$flavor"); do
			case " $arches " in *" $arch "*) ;; *) continue ;; esac
			built "$arch-$flavor" || continue	# its kernel step failed
			step "suites $arch-$flavor" guest_suites "$arch" "$flavor"
			[ "$flavor" = "$TEST_FLAVOR" ] && [ "$(arch_fact "$arch" NMI_IPI)" = 1 ] &&
				[ "${SERIES_NMI_CONTROL:-}" = 1 ] &&
				step "nmi control $arch-$flavor" nmi_control "$arch" "$flavor"
		done
	done
	return 0
}

case $phase in
build) build_phase || exit 1 ;;
run) run_phase || exit 1 ;;
all) { build_phase && run_phase; } || exit 1 ;;
quick) { trees && step "gates" gates host gates; } || exit 1 ;;
esac
[ -z "$failed_steps" ]

#!/usr/bin/env bash
# make check: everything a submission must pass, cheapest first.  Ends with
# "N passed, N failed" over all test cases and exits non-zero on a failure.
# CHECK_ARCHES limits the arches (default: x86_64 arm64); CHECK_DEBUG_FLAVORS
# the x86_64 sanitizer flavors run after them (default: "debug kcsan"; set
# it empty to leave them out of a quick local run).
. "$(dirname "$0")/lib.sh"
arches=${CHECK_ARCHES-x86_64 arm64}
debug_flavors=${CHECK_DEBUG_FLAVORS-debug kcsan}
mkdir -p "$BUILD"
summary=$BUILD/check-summary.txt
: >"$summary"
failed_steps=

step() {	# step NAME CMD...: run one step, record its verdict
	local name=$1; shift
	say "$name"
	local t0; t0=$(date +%s)
	if "$@"; then
		echo "ok   $name ($(( $(date +%s) - t0 ))s)" >>"$summary"
	else
		echo "FAIL $name ($(( $(date +%s) - t0 ))s)" >>"$summary"
		failed_steps="$failed_steps $name"
		return 1
	fi
}

# guest_timeout FLAVOR: seconds a guest of FLAVOR gets for boot and suites
# under TCG, about twice what it took here (KASAN and KCSAN guests are
# several times slower; the debug flavor also sweeps fault points).
guest_timeout() {
	case $1 in
	debug) echo 3600 ;;
	kcsan) echo 1800 ;;
	*) echo 900 ;;
	esac
}

# guest_suites ARCH FLAVOR: boot, run the suites, compare with the base.
guest_suites() {
	local arch=$1 flavor=$2 res=$BUILD/results/$1-$2 rc=0
	TIMEOUT=$(guest_timeout "$flavor") RESULTS=$res "$TOP/scripts/vm.sh" "$arch" "$flavor" -- \
		"run-suites $(suites "$flavor")" || rc=$?
	[ -d "$res" ] || { echo "no results came back from the $arch guest" >&2; return 1; }
	"$TOP/scripts/ktap.py" compare "$res" "$arch" --label "$arch-$flavor" \
		--base "$TOP/expect/base-$arch.txt" \
		--exceptions "$TOP/expect/exceptions.txt" | tee "$res/compare.txt"
	local cmp=${PIPESTATUS[0]}
	if [ "$rc" != 0 ]; then	# the guest itself failed: one more failed case
		echo "$arch-$flavor guest (exit $rc, see build/$arch-$flavor/vm/console.log): 0 passed, 1 failed, 0 skipped" |
			tee -a "$res/compare.txt"
	fi
	[ "$cmp" = 0 ] && [ "$rc" = 0 ]
}

rm -rf "$BUILD/results"
# host_gates: the checks that need no guest, each a TAP file.
host_gates() {
	local res=$BUILD/results/host g
	mkdir -p "$res"
	for g in $(grep -v '^#' "$TOP/config/gates"); do
		"$TOP/scripts/gates/$g.sh" >"$res/$g.tap"
	done
	"$TOP/scripts/ktap.py" compare "$res" host --label host | tee "$res/compare.txt"
	[ "${PIPESTATUS[0]}" = 0 ]
}
# post_build_gates ARCH: the checks of config/post-build-gates that need the
# ARCH test objdir (sparse and W=1 on the series' files), each a TAP file.
post_build_gates() {
	local arch=$1 res=$BUILD/results/host-post-$1 g arches
	mkdir -p "$res"
	while read -r g arches; do
		case " $arches " in *" $arch "*) ;; *) continue ;; esac
		"$TOP/scripts/gates/$g.sh" "$arch" >"$res/$g.tap"
	done < <(grep -v '^#' "$TOP/config/post-build-gates")
	"$TOP/scripts/ktap.py" compare "$res" host --label "host-post-$arch" | tee "$res/compare.txt"
	[ "${PIPESTATUS[0]}" = 0 ]
}

step deps "$TOP/scripts/deps.sh" || exit 1
step tree "$TOP/scripts/tree.sh" || exit 1
step check-series "$TOP/scripts/check-series.sh"
step "suites host" host_gates
for arch in $arches; do
	step "kernel $arch-test" "$TOP/scripts/kernel.sh" "$arch" test || continue
	grep -Eq "^[^#].*[[:space:]]$arch([[:space:]]|\$)" "$TOP/config/post-build-gates" &&
		step "suites host-post-$arch" post_build_gates "$arch"
	step "suites $arch-test" guest_suites "$arch" test
done
# The sanitizer flavors, x86_64 only: KASAN+lockdep+kmemleak, then KCSAN.
for flavor in $debug_flavors; do
	step "kernel x86_64-$flavor" "$TOP/scripts/kernel.sh" x86_64 "$flavor" &&
	step "suites x86_64-$flavor" guest_suites x86_64 "$flavor"
done

echo
echo "== make check summary"
cat "$summary"
passed=0 failed=0 skipped=0
for f in "$BUILD"/results/*/compare.txt; do
	[ -f "$f" ] || continue
	while read -r p fl s; do
		passed=$((passed + p)) failed=$((failed + fl)) skipped=$((skipped + s))
	done < <(sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$f")
done
# A step that failed outside the test suites (build, boot, series) counts as a failed case.
nsteps=$(grep '^FAIL' "$summary" | grep -vc '^FAIL suites ')
echo "$passed passed, $((failed + nsteps)) failed, $skipped skipped"
[ -z "$failed_steps" ] && [ "$failed" = 0 ]

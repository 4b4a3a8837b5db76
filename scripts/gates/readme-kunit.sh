#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: README's "Try it" lines take Debian's kernel tarball to a KUnit run
# whose NMI case, the fix's reproducer, runs on two CPUs and passes.  The
# lines are README.md's code block after "<!-- gate: readme-kunit -->"
# (scripts/lib/readme_block.py), run by bash -e in a fresh directory,
# build/SERIES/readme-kunit, with what a user sets changed and nothing
# else: v (the series), repo (this repository) and, where the tarball is
# not in /usr/src (7.2: sid's package unpacked), its path, SERIES_BASE_TARBALL of
# the series' series.env.
#  - block: README has the block, with those three in it once each;
#  - run: the lines run to their end (output in readme-kunit/run.log; the
#    seconds they took in the case's comment);
#  - nmi-case: the run's KTAP (kunit.py parse of .kunit/test.log, through
#    scripts/lib/ktap.py) has objpool_test_nmi of the objpool suite
#    passed, not skipped, and no case of the suite failed;
#  - control/one-cpu: the block's kunit.py command without its
#    --qemu_args='-smp 2', run again in the same tree: its case is
#    skipped, and nmi-case's check must fail it.
# The compiler goes through ccache (/usr/lib/ccache first on PATH, the
# cache of every kernel build: harness.sh's kbuild_env); kunit.py's build is
# about 10 min cold on 2 cores.  QEMU runs under TCG, as on a host
# without KVM (scripts/lib/qemu-tcg-only.sh: kunit.py's QEMU takes KVM
# wherever /dev/kvm opens, and here KVM cannot run its guest).  The
# unpacked tree is removed at the end.
# Usage: readme-kunit.sh [--series NAME] [ARCH]
#   without ARCH: for SERIES, whichever it is
#     (SERIES=6.12 scripts/gates/readme-kunit.sh);
#   with ARCH (make check, config/post-build-gates: x86_64): only for the
#     series the block names (its v=); any other skips, saying so.
# Skipped, with the reason: no tarball, no QEMU, a host of another arch
# than the lines' --arch, a series applied on another (SERIES_PARENT).
. "$(dirname "$0")/../lib/harness.sh"
marker='<!-- gate: readme-kunit -->'
smp="--qemu_args='-smp 2'"
case=objpool/objpool_test_nmi
out=$WORK/readme-kunit
echo "TAP version 13"
skip() { echo "1..1"; echo "ok 1 readme-kunit # SKIP $*"; exit 0; }

# lines [--replace OLD NEW]...: the block, as the gate runs it.
lines() {
	python3 "$TOP/scripts/lib/readme_block.py" "$TOP/README.md" "$marker" \
		--set v "$SERIES" --set repo "$(printf %q "$TOP")" \
		--replace '/usr/src/linux-source-$v.tar.xz' "$(printf %q "$SERIES_BASE_TARBALL")" "$@"
}
rm -rf "$out" && mkdir -p "$out"
if ! lines >"$out/try.sh" 2>"$out/block.err" ||
   ! lines --replace "$smp " '' >"$out/try-one-cpu.sh" 2>>"$out/block.err"; then
	echo "1..1"
	echo "not ok 1 block # README.md: $(head -1 "$out/block.err"); the gate sets v=, repo= and the tarball's path, and removes $smp"
	exit 0
fi
readme_v=$(python3 "$TOP/scripts/lib/readme_block.py" "$TOP/README.md" "$marker" |
	sed -n 's/^v=\([^[:space:]]*\).*/\1/p')
[ -z "${1:-}" ] || [ "$SERIES" = "$readme_v" ] ||
	skip "make check runs README's lines on the series they name, $readme_v; by hand: SERIES=$SERIES scripts/gates/readme-kunit.sh"
[ -z "${SERIES_PARENT:-}" ] ||
	skip "README's lines apply one series to its Debian base; the $SERIES series goes on top of series-$SERIES_PARENT"
# The arch of the lines' kunit.py, which they build with the host's gcc.
arch=$(sed -n 's/.*kunit\.py run.*--arch=\([^[:space:]]*\).*/\1/p' "$out/try.sh")
[ -f "$TOP/config/arch/$arch.sh" ] || {
	echo "1..1"
	echo "not ok 1 block # README.md: its kunit.py line has no --arch= of config/arch/ ('$arch'), whose facts the gate needs"
	exit 0
}
use_arch "$arch"
[ "$(uname -m)" = "$ARCH_UNAME" ] || skip "README's lines build $ARCH_UNAME with the host's gcc; this host is $(uname -m)"
command -v "${ARCH_QEMU[0]}" >/dev/null || skip "no ${ARCH_QEMU[0]}; run 'make deps'"
[ -f "$SERIES_BASE_TARBALL" ] || skip "no $SERIES_BASE_TARBALL; run 'make deps' (it installs or fetches $SERIES_BASE_PKG)"

echo "1..4"
mkdir -p "$out/bin" && ln -s "$TOP/scripts/lib/qemu-tcg-only.sh" "$out/bin/${ARCH_QEMU[0]}"
trap 'rm -rf "$out/linux-source-$SERIES"' EXIT
echo "ok 1 block # README's lines for $SERIES, as run: ${out#$TOP/}/try.sh"

# verdict KTAP_DIR: the NMI case passed and no case of the suite failed;
# else say why and return 1.
verdict() {
	local cases status bad
	cases=$(KUNIT_DIR=$kunit "$TOP/scripts/lib/ktap.py" cases "$1") ||
		{ echo "ktap.py could not read ${1#$TOP/}"; return 1; }
	status=$(awk -v c="$case" '$1 ~ "(^|/)" c "$" { print $2 }' <<<"$cases")
	bad=$(awk '$1 ~ /(^|\/)objpool\// && $2 != "SUCCESS" && $2 != "SKIPPED" { print $1 }' <<<"$cases" | paste -sd' ')
	if [ "$status" != SUCCESS ]; then
		echo "$case ${status:-did not run}"; return 1
	elif [ -n "$bad" ]; then
		echo "$case passed, but failed: $bad"; return 1
	fi
	echo "$case passed"
}
# run SCRIPT DIR LOG: run SCRIPT's lines in DIR by bash -e, with ccache,
# QEMU under TCG and without the user's git config, its output into LOG.
run() {
	(cd "$2" && kbuild_env && PATH=$out/bin:/usr/lib/ccache:$PATH \
		GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 bash -e -x "$1") >"$3" 2>&1
}
ktap() {	# ktap DIR: the run's KTAP, kunit.py's own extract, into DIR
	mkdir -p "$1"
	"$kunit/kunit.py" parse --raw_output=kunit "$tree/.kunit/test.log" >"$1/kunit.ktap" 2>/dev/null
}

tree=$out/linux-source-$SERIES kunit=$out/linux-source-$SERIES/tools/testing/kunit
t0=$(date +%s)
if run "$out/try.sh" "$out" "$out/run.log"; then
	echo "ok 2 run # $(( $(date +%s) - t0 )) s, from the tarball to kunit.py's results (${out#$TOP/}/run.log)"
else
	echo "not ok 2 run # README's lines stopped after $(( $(date +%s) - t0 )) s; the last of ${out#$TOP/}/run.log:"
	tail -n 15 "$out/run.log" | sed 's/^/# /'
fi
why=
if [ -f "$tree/.kunit/test.log" ] && ktap "$out/ktap" && why=$(verdict "$out/ktap"); then
	counts=$(sed -n 's/^[[:space:]]*# objpool_test_nmi: \(CPU [0-9]*: .*\)/\1/p' "$out/ktap/kunit.ktap" | paste -sd';')
	echo "ok 3 nmi-case # $why on two CPUs${counts:+: $counts}"
else
	echo "not ok 3 nmi-case # ${why:-no kunit.py results in ${tree#$TOP/}/.kunit}"
fi

# The positive control: on one CPU the case skips, and the check fails it.
rm -f "$tree/.kunit/test.log"
sed -n '/kunit\.py run/,$p' "$out/try-one-cpu.sh" >"$out/kunit-one-cpu.sh"
if [ ! -f "$kunit/kunit.py" ]; then
	echo "not ok 4 control/one-cpu # no tree: README's lines did not unpack it"
elif ! run "$out/kunit-one-cpu.sh" "$tree" "$out/one-cpu.log" && [ ! -f "$tree/.kunit/test.log" ]; then
	echo "not ok 4 control/one-cpu # kunit.py without $smp did not run (${out#$TOP/}/one-cpu.log)"
elif why= && ktap "$out/ktap-one-cpu" && why=$(verdict "$out/ktap-one-cpu"); then
	echo "not ok 4 control/one-cpu # without $smp the check still says '$why'"
elif [ "$why" = "$case SKIPPED" ]; then
	echo "ok 4 control/one-cpu # without $smp: $why, which nmi-case fails"
else
	echo "not ok 4 control/one-cpu # without $smp: '$why', not the skip of one CPU"
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the docs and comments name only what exists (scripts/lib/docs_refs.py,
# whose docstring has the rules): paths (under build/: a series' build
# directory or what the scripts write there), patches by number (of a
# named series, which has it, touching the file named beside), a series
# README's list of its patches (an item per patch), make targets, make help's
# variables, README and docs/harness.md sections, benchmarks, and every
# variable a script reads is one make help lists.
#  - docs/*: README.md, docs/, each series' README and expect/README, and
#    the comments of every tracked script and config file;
#  - control/*: the fixtures of fixtures/docs-refs: the good one passes,
#    each made-up mistake fails with its own message.
. "$(dirname "$0")/../lib/harness.sh"
fx=$TOP/scripts/gates/fixtures/docs-refs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$TOP" help >"$tmp/help"
check() { python3 "$TOP/scripts/lib/docs_refs.py" --root "$TOP" --help-text "$tmp/help" "$@"; }

# docs/changelog.md names the old names on purpose: it is history, as
# results/ is, and read by no check of names.
mapfile -t docs < <(cd "$TOP" && { ls README.md docs/*.md series-*/README series-*/expect/README series-*/series.env \
	bench-kernels/*/README bench-kernels/*/series.env 2>/dev/null
	git ls-files scripts config guest Makefile | grep -v '^scripts/gates/fixtures/'; } |
	grep -vx 'docs/changelog.md' | sort -u)
n=0
echo "TAP version 13"
echo "1..2"
n=$((n + 1))
if (cd "$TOP" && check "${docs[@]}") >"$tmp/docs.tap"; then
	echo "ok $n - docs/${#docs[@]} files name only what exists"
else
	echo "not ok $n - docs: a name that does not exist (fix the text or the name)"
	grep -v '^ok ' "$tmp/docs.tap" | grep -v '^TAP\|^1\.\.' | sed 's/^/# /'
fi

# control FILE WANT: FILE alone must fail naming WANT (or pass: WANT=-);
# named relative to the fixtures, as the docs are relative to the root.
bad=
control() {
	local out
	out=$(cd "$fx" && check "$1")
	if [ "$2" = - ]; then
		grep -q '^ok ' <<<"$out" || bad="$bad $1 (should pass)"
	elif ! grep -q '^not ok ' <<<"$out" || ! grep -qF -- "$2" <<<"$out"; then
		bad="$bad $1 (should fail with '$2')"
	fi
}
control good.md -
control missing-path.md "path config/no-such-file does not exist"
control no-target.md "'make frobnicate' is no target"
control no-variable.md "NOSUCHVAR= is not in make help"
control broken-link.md "link no-such-target.md does not resolve"
control broken-anchor.md "#no-such-heading: no such heading"
control stale-section.sh 'has no section "A section that is gone"'
control stale-bench.sh "benchmark memory-4.19 is not in config/benches"
control unlisted-var.sh "reads NOT_IN_MAKE_HELP"
control stale-env.sh "settings file 4.19.env does not exist"
control guest/run-unlisted "reads NOT_IN_MAKE_HELP_GUEST"
control stale-build-path.sh "path build/ARCH-test/vmlinux is no build directory"
control stale-patch-number.sh "series-6.1 patch 4 does not touch lib/objpool_kunit.c (patch 5 does)"
control stale-patch-number.sh "series-6.1 has 11 patches: no patch 40"
control stale-patch-number.sh "patch 2 of which series?"
control wrapped-section.sh 'docs/design.md has no section "A section that moved away"'
control series-6.1/README "its list of the patches has items 1, 2, series-6.1 has 11 patches"
n=$((n + 1))
if [ -z "$bad" ]; then
	echo "ok $n - control: 16 made-up mistakes caught, the good text passes"
else
	echo "not ok $n - control: the checker missed:$bad"
fi

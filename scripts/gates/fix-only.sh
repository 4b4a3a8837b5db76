#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the fixes of a fix series carry nothing but the fix
# (scripts/lib/fix_only.py, whose docstring has the rules).  The fixes are
# the patches SERIES_FIX_PATCHES of the series' own series.env names (7.2
# and 6.12: 0001 and 0002; a series.env that sources 7.2's does not
# inherit it):
#  - fixes/tagged: exactly those patches carry a Fixes: trailer, each with
#    Cc: stable@vger.kernel.org;
#  - NAME/test-file, NAME/harness, NAME/size, for each fix: no test file
#    and no line naming KUnit or a test option; no path, target, gate or
#    suite name of this repository, its identity or the word "harness" in
#    its subject, message or added lines; under 80 lines of diff;
#  - control/*: the made-up fixes of fixtures/fix-only/: clean.patch
#    passes every rule; test-file.patch, the same fix with a test file
#    beside it, fails test-file and only it; clean.patch with a path of
#    this repository in its message fails harness and only it, and with
#    its diff grown to 80 lines fails size and only it.
# A series without SERIES_FIX_PATCHES: one case, skipped with the reason.
. "$(dirname "$0")/../lib/harness.sh"
fx=$TOP/scripts/gates/fixtures/fix-only
rules="test-file harness size"
check() { python3 "$TOP/scripts/lib/fix_only.py" --harness "$TOP" --kernel "$TREE" "$@"; }
echo "TAP version 13"
fixes=$(own_setting SERIES_FIX_PATCHES)
if [ -z "$fixes" ]; then
	echo "1..1"
	echo "ok 1 fix-only # SKIP the $SERIES series names no fix (SERIES_FIX_PATCHES of its series.env; 7.2 and 6.12 do)"
	exit 0
fi
set -- $fixes
echo "1..$((1 + 3 * $# + 4))"
n=0

# fixes/tagged: the patches with a Fixes: trailer are the fixes named.
tagged= untagged= nostable=
for p in "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch; do
	num=$(basename "$p" | cut -c1-4)
	[ "$num" = 0000 ] && continue
	if grep -q '^Fixes: [0-9a-f]\{12\} ("' "$p"; then
		tagged="$tagged $num"
		grep -q '^Cc: stable@vger\.kernel\.org' "$p" || nostable="$nostable $num"
	fi
done
for f in "$@"; do
	case " $tagged " in *" $f "*) ;; *) untagged="$untagged $f" ;; esac
done
n=$((n + 1))
if [ "${tagged# }" = "$*" ] && [ -z "$nostable" ]; then
	echo "ok $n fixes/tagged # Fixes: and Cc: stable on$tagged, the fixes SERIES_FIX_PATCHES names, and on no other patch"
else
	echo "not ok $n fixes/tagged # SERIES_FIX_PATCHES: $*; Fixes: on:${tagged:- none}${untagged:+; a fix without Fixes::$untagged}${nostable:+; no Cc: stable on:$nostable}"
fi

# the rules, each fix
for f in "$@"; do
	p=$(ls "$PATCHES/$f"-*.patch 2>/dev/null | head -1)
	out=$( [ -n "$p" ] && check "$p")
	for r in $rules; do
		n=$((n + 1))
		if [ -z "$p" ]; then
			echo "not ok $n $f/$r # no ${PATCHES#$TOP/}/$f-*.patch"
		elif hits=$(grep ": $r: " <<<"$out"); then
			echo "not ok $n $(basename "$p" .patch)/$r"
			sed "s#^$TOP/##; s/^/# /" <<<"$hits"
		else
			echo "ok $n $(basename "$p" .patch)/$r"
		fi
	done
done

# control NAME WANT FILE: fix_only.py must find WANT's rule and no other
# in FILE (WANT empty: nothing at all).
control() {
	local name=$1 want=$2 file=$3 out got
	out=$(check "$file")
	got=$(for r in $rules; do grep -q ": $r: " <<<"$out" && echo "$r"; done | paste -sd' ')
	n=$((n + 1))
	if [ "$got" = "$want" ]; then
		echo "ok $n control/$name # ${want:-no rule}: $([ -n "$want" ] && echo "it fails, and no other" || echo "it passes")"
	else
		echo "not ok $n control/$name # expected '${want:-nothing}', got '${got:-nothing}'"
		sed "s#^$TOP/##; s/^/# /" <<<"$out"
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
control clean "" "$fx/clean.patch"
control test-file test-file "$fx/test-file.patch"
sed 's/^else, so that the check passes it\.$/else (see series-7.2\/patches\/)./' "$fx/clean.patch" >"$tmp/harness.patch"
control harness harness "$tmp/harness.patch"
awk '/^ .start = raw_smp_processor_id\(\);$/ { print; for (i = 0; i < 70; i++) print " "; next } 1' \
	"$fx/clean.patch" >"$tmp/size.patch"
control size size "$tmp/size.patch"

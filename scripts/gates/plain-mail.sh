#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: every mail of the series is plain text a kernel list reads
# (scripts/lib/plain_mail.py, whose docstring has the rules): the cover letter
# and each commit message of $PATCHES (series-N/patches
# for SERIES=N): no line over 100 columns, text and subjects wrapped
# at 75 (trailers and URLs aside), no Markdown table, heading or other
# markup, no HTML tag, no path or make target of this repository.
# One case per message, then the checker's two controls: a made-up
# Markdown cover letter (fixtures/markdown-mail.patch) that every rule
# must reject, and a made-up plain commit message with pipes, #include
# <...> and addresses (fixtures/plain-mail.patch) that it must pass.
. "$(dirname "$0")/../lib/harness.sh"
check() { python3 "$TOP/scripts/lib/plain_mail.py" --harness "$TOP" --kernel "$TREE" "$@"; }
fixtures=$TOP/scripts/gates/fixtures
rules="long-line wrap md-table md-heading md-markup html harness"
set -- $(ls "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null)
echo "TAP version 13"
echo "1..$(($# + 3))"
n=1
if [ -f "$PATCHES/0000-cover-letter.patch" ]; then
	echo "ok $n cover-letter exported"
else
	echo "not ok $n cover-letter exported # no ${PATCHES#$TOP/}/0000-cover-letter.patch: run 'make series SERIES=$SERIES'"
fi
for p in "$@"; do
	n=$((n + 1))
	if out=$(check "$p"); then
		echo "ok $n $(basename "$p" .patch)"
	else
		echo "not ok $n $(basename "$p" .patch) # not plain text: reword it (see scripts/lib/plain_mail.py for the rules)"
		echo "$out" | sed "s#^$TOP/##; s/^/# /"
	fi
done

n=$((n + 1))
out=$(check "$fixtures/markdown-mail.patch")
missed=$(for r in $rules; do grep -q ": $r: " <<<"$out" || echo "$r"; done | paste -sd' ')
if [ -z "$missed" ]; then
	echo "ok $n control/markdown-mail rejected by every rule ($rules)"
else
	echo "not ok $n control/markdown-mail # rules that did not fire on the Markdown fixture: $missed"
fi
n=$((n + 1))
if out=$(check "$fixtures/plain-mail.patch"); then
	echo "ok $n control/plain-mail passed"
else
	echo "not ok $n control/plain-mail # a plain message was rejected:"
	echo "$out" | sed "s#^$TOP/##; s/^/# /"
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the objpool documentation page built by the kernel's own doc build
# (make SPHINXDIRS=core-api htmldocs, Debian's Sphinx),
# from scratch into build/SERIES/docs.  Cases: the build succeeds; Sphinx and
# kernel-doc say nothing about objpool (Documentation/core-api/objpool.rst,
# include/linux/objpool.h, lib/objpool.c); the page is in core-api's
# toctree; each kernel-doc directive of the page renders every function and
# struct its file documents.
. "$(dirname "$0")/../lib/harness.sh"
page=Documentation/core-api/objpool.rst
out=$WORK/docs
html=$out/Documentation/output/core-api
log=$WORK/sphinx.log
# Debian's python3 and sphinx-build first (the harness's PATH may lead
# to a python3 without the sphinx modules).
export PATH=/usr/bin:$PATH
command -v sphinx-build >/dev/null && python3 -c 'import sphinx_rtd_theme' 2>/dev/null ||
	die "Sphinx or its rtd theme is missing; run 'make deps' (Debian python3-sphinx, python3-sphinx-rtd-theme)"
echo "TAP version 13"
if [ ! -f "$TREE/$page" ]; then
	echo "1..1"
	echo "not ok 1 sphinx/page # no $page in ${TREE#$TOP/}; run 'make tree'"
	exit 0
fi
directives=$(sed -n 's/^\.\. kernel-doc:: *\([^ ]*\).*/\1/p' "$TREE/$page")
echo "1..$((3 + $(echo "$directives" | grep -c .)))"

# From scratch: an incremental Sphinx build does not repeat the warnings of
# pages it does not re-read.
rm -rf "$out/Documentation/output/.doctrees/core-api" "$html"
mkdir -p "$out"
if make -C "$TREE" O="$out" SPHINXDIRS=core-api htmldocs >"$log" 2>&1 && [ -f "$html/objpool.html" ]; then
	echo "ok 1 sphinx/build"
else
	echo "not ok 1 sphinx/build # see ${log#$TOP/}"
	tail -20 "$log" | sed 's/^/# /'
fi

bad=$(grep -iE 'warning|error' "$log" | grep -i objpool)
if [ -z "$bad" ]; then
	echo "ok 2 sphinx/no-objpool-warnings"
else
	echo "not ok 2 sphinx/no-objpool-warnings"
	echo "$bad" | sed "s#$TREE/##; s/^/# /"
fi

if grep -Eq '^[[:space:]]+objpool[[:space:]]*$' "$TREE/Documentation/core-api/index.rst" &&
   grep -q 'href="objpool.html"' "$html/index.html" 2>/dev/null; then
	echo "ok 3 sphinx/in-core-api-index"
else
	echo "not ok 3 sphinx/in-core-api-index # add 'objpool' to the toctree of Documentation/core-api/index.rst"
fi

# Every kernel-doc comment of FILE ('name() - ...' or 'struct name - ...')
# must have its anchor in the page.
n=3
for f in $directives; do
	n=$((n + 1))
	names=$(sed -n -E 's/^ \* (struct |union |enum )?([A-Za-z_][A-Za-z0-9_]*)(\(\))? - .*/\2/p' "$TREE/$f" | sort -u)
	missing=
	for name in $names; do
		grep -q "id=\"c\.$name\"" "$html/objpool.html" 2>/dev/null || missing="$missing $name"
	done
	if [ -z "$names" ]; then
		echo "not ok $n sphinx/kernel-doc $f # no kernel-doc comments found in $f"
	elif grep -q "$f:.*no structured comments found" "$log" || [ -n "$missing" ]; then
		echo "not ok $n sphinx/kernel-doc $f # not rendered in objpool.html:${missing:- (no structured comments found)}"
	else
		echo "ok $n sphinx/kernel-doc $f ($(echo "$names" | wc -l) entries)"
	fi
done

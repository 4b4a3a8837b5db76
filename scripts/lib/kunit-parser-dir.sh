#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Prints a directory holding the kernel's KTAP parser (tools/testing/kunit
# of the series' base kernel), for the self-tests of scripts/lib/ktap.py that
# make check runs before it makes any tree: the tree's own copy when the
# tree exists, else one extracted once into build/kunit-tool from the base
# kernel's tarball (make deps installs it).
. "$(dirname "$0")/harness.sh"
if [ -f "$TREE/tools/testing/kunit/kunit_parser.py" ]; then
	echo "$TREE/tools/testing/kunit"
	exit 0
fi
dir=$BUILD/kunit-tool
if [ ! -f "$dir/tools/testing/kunit/kunit_parser.py" ]; then
	[ -f "$SERIES_BASE_TARBALL" ] || die "no $SERIES_BASE_TARBALL; run 'make deps'"
	rm -rf "$dir" && mkdir -p "$dir"
	tar -xf "$SERIES_BASE_TARBALL" -C "$dir" --strip-components=1 --wildcards \
		'*/tools/testing/kunit/*.py' ||
		die "cannot extract tools/testing/kunit from $SERIES_BASE_TARBALL"
fi
echo "$dir/tools/testing/kunit"

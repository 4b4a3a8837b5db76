#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The harness's own Python tools' self-tests (scripts/tests/test_*.py,
# unittest), as the kernel's kunit.py has kunit_tool_test.py.  make check
# runs them first: a gate's verdict means nothing if its tool is broken.
# ktap.py's self-tests parse with the kernel's own KTAP parser: KUNIT_DIR's
# when it has one, else the series' tree's, else (before the first tree
# exists) one from the base kernel's tarball (scripts/lib/kunit-parser-dir.sh).
cd "$(dirname "$0")/.." || exit
if [ ! -f "${KUNIT_DIR:-}/kunit_parser.py" ]; then
	KUNIT_DIR=$(lib/kunit-parser-dir.sh) || KUNIT_DIR=
	export KUNIT_DIR
fi
PYTHONPATH=$PWD/lib exec python3 -m unittest discover -s tests "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The harness's own Python tools' self-tests (scripts/tests/test_*.py,
# unittest), as the kernel's kunit.py has kunit_tool_test.py.  make check
# runs them first: a gate's verdict means nothing if its tool is broken.
cd "$(dirname "$0")/.." || exit
PYTHONPATH=$PWD/lib exec python3 -m unittest discover -s tests "$@"

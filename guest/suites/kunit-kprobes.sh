# SPDX-License-Identifier: GPL-2.0
# The in-tree kprobes KUnit suite (lib/test_kprobes.c), built as a module.
. /guest/tap.sh
ko=$(module_path test_kprobes) || true
[ -n "$ko" ] || { tap_plan 1; tap_fail "test_kprobes.ko" "module not built (CONFIG_KPROBES_SANITY_TEST=m)"; exit 1; }
# Passes wrongly: a pool that fails only with many instances out (the suite's kretprobes hold one at a time).
insmod "$ko" || { echo "insmod $ko failed" >&2; }
kunit_ktap kprobes_test
rmmod test_kprobes

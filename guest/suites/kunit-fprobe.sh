# SPDX-License-Identifier: GPL-2.0
# The in-tree fprobe KUnit suite (CONFIG_FPROBE_SANITY_TEST=y runs it at boot).
# On a kernel of a series that adds test_fprobe_entry_data
# (SERIES_FPROBE_ENTRY_DATA_CASE=1 in its series-*/series.env), one more case:
# the suite ran it (6.12 and later have test_fprobe_data already).  That
# case catches an overrun of the rethook node only under KASAN (without it
# the write lands in the neighbouring allocation and reads back fine), so
# it matters that it runs in the debug flavor, whose kernel has KASAN.
. /guest/tap.sh
. /guest/arch.env
results=/sys/kernel/debug/kunit/fprobe_test/results
if [ ! -e "$results" ]; then
	tap_plan 1
	if ! grep -q ' register_fprobe$' /proc/kallsyms; then
		tap_skip fprobe_test "no fprobe in this kernel (no register_fprobe in /proc/kallsyms): the flavors ask for CONFIG_FPROBE only where every base has rethook (config/test-x86_64.config)"
	else
		tap_fail fprobe_test "no $results: is CONFIG_FPROBE_SANITY_TEST=y?"
	fi
	exit 0
fi
# Passes wrongly: a rethook pool that overruns nodes, on a kernel without KASAN (see above).
if ! grep -Eq ' (__)?objpool_pop_slow$' /proc/kallsyms || [ "$GUEST_FPROBE_ENTRY_DATA_CASE" != 1 ]; then
	kunit_ktap fprobe_test	# a base, or a series without the entry-data case
	exit 0
fi
# kunit_ktap starts with "KTAP version 1" and "1..1": one more test after it.
kunit_ktap fprobe_test | sed '2s/^1\.\.1$/1..2/'
# shellcheck disable=SC2034 # the numbering of guest/tap.sh's tap_ok and tap_fail
tap_n=1
kasan=no; dmesg | grep -q 'KernelAddressSanitizer initialized' && kasan=yes
# Passes wrongly: a test_fprobe_entry_data that checks nothing; it only proves the case ran.
if grep -Eq '^ *(not )?ok [0-9]+ test_fprobe_entry_data( |$)' "$results"; then
	tap_ok fprobe_entry_data_ran; echo "# test_fprobe_entry_data ran (KASAN: $kasan)"
else
	tap_fail fprobe_entry_data_ran "test_fprobe_entry_data not in $results (KASAN: $kasan)"
fi

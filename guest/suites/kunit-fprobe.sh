# The in-tree fprobe KUnit suite (CONFIG_FPROBE_SANITY_TEST=y runs it at boot).
. /guest/tap.sh
results=/sys/kernel/debug/kunit/fprobe_test/results
if [ ! -e "$results" ]; then
	tap_plan 1
	if [ "$(uname -m)" = aarch64 ]; then
		tap_skip fprobe_test "fprobe needs rethook, which arm64 lacks in 6.1"
	else
		tap_fail fprobe_test "no $results: is CONFIG_FPROBE_SANITY_TEST=y?"
	fi
	exit 0
fi
cat "$results"

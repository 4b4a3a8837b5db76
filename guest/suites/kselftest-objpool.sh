# tools/testing/selftests/objpool through the installed kselftest runner.
. /guest/tap.sh
if [ ! -d /kselftest/objpool ]; then
	tap_plan 1
	tap_skip kselftest_objpool "this tree has no selftests/objpool (unpatched base)"
	exit 0
fi
cd /kselftest && ./run_kselftest.sh -c objpool

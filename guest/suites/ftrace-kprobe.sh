# SPDX-License-Identifier: GPL-2.0
# tools/testing/selftests/ftrace test.d/kprobe/*, one ftracetest run per
# file so that each case is named by its file.
. /guest/tap.sh
cd /kselftest/ftrace || { tap_plan 1; tap_fail ftracetest "not installed in the guest"; exit 1; }
set -- test.d/kprobe/*.tc
tap_plan $#
# Passes wrongly, each file: a pool bug off these paths (they test tracefs
# parsing and probe hits, not instance reuse under load); XFAIL counts as ok.
for tc in "$@"; do
	name=$(basename "$tc" .tc)
	logs=/tmp/ftrace-logs/$name
	out=$(./ftracetest -l "$logs" "$tc" 2>&1)
	echo "$out" >&2
	result=$(echo "$out" | sed -n 's/.*\[\([A-Z]*\)\][[:space:]]*$/\1/p' | head -n 1)
	case $result in
	PASS|XFAIL) tap_ok "$name" ;;
	UNSUPPORTED|UNTESTED) tap_skip "$name" "$result" ;;
	*) tap_fail "$name" "ftracetest result: ${result:-none}"
	   cat "$logs"/* >&2 ;;
	esac
done

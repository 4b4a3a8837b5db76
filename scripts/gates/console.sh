#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the console check (scripts/lib/console.py) on made-up consoles, a positive
# control of the detector every guest run relies on: a WARNING outside an
# expected-warning bracket fails the run, exactly one WARNING naming
# objpool_push inside one passes, anything else inside one fails; a report
# listed in expect/known-reports.txt passes, any other sanitizer report fails.
. "$(dirname "$0")/../lib/harness.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
begin='[    5.000001] objpool_kunit: expected WARNING begin: __objpool_debug_push'
end='[    5.000009] objpool_kunit: expected WARNING end'
warn() { # a WARNING report at function $1
	printf '%s\n' "[    5.000002] ------------[ cut here ]------------" \
		"[    5.000003] WARNING: CPU: 0 PID: 91 at lib/objpool.c:321 $1+0x4d/0x90" \
		"[    5.000004] RIP: 0010:$1+0x4d/0x90" \
		"[    5.000005] Call Trace:" \
		"[    5.000006]  objpool_test_double_push+0x8e/0x1c0 [objpool_kunit]" \
		"[    5.000007] ---[ end trace 0000000000000000 ]---"
}
kcsan() { # a KCSAN data-race report between functions $1 and $2
	printf '%s\n' "[   40.710000] ==================================================================" \
		"[   40.710157] BUG: KCSAN: data-race in $1 / $2" \
		"[   40.710627] write to 0xffff888000afbeac of 4 bytes by task 2513 on cpu 0:" \
		"[   40.710833]  $1+0xa6/0xc0" \
		"[   40.712437] read to 0xffff888000afbeac of 4 bytes by task 2517 on cpu 1:" \
		"[   40.712437]  $2+0x95/0xc0" \
		"[   40.712500] =================================================================="
}
# console NAME EXPECTED-STATUS LINES...: one case.
n=0
case_() {
	local name=$1 want=$2 got
	shift 2
	{ echo '@@VM-READY@@'; printf '%s\n' "$@"; echo '@@VM-EXIT=0@@'; } |
		"$TOP/scripts/lib/console.py" "$tmp/log" - 0 >/dev/null 2>"$tmp/err"
	got=$?
	n=$((n + 1))
	if [ "$got" = "$want" ]; then
		echo "ok $n - $name (exit $got)"
	else
		echo "not ok $n - $name: exit $got, expected $want"
		sed 's/^/# /' "$tmp/err"
	fi
}
echo "TAP version 13"
echo "1..9"
case_ "clean console passes" 0 "[    1.0] hello"
case_ "unbracketed WARNING fails" 3 "$(warn __objpool_debug_push)"
case_ "bracketed WARNING in __objpool_debug_push passes" 0 "$begin" "$(warn __objpool_debug_push)" "$end"
case_ "bracketed WARNING elsewhere fails" 3 "$begin" "$(warn kmem_cache_free)" "$end"
case_ "two bracketed WARNINGs fail" 3 "$begin" "$(warn __objpool_debug_push)" "$(warn __objpool_debug_push)" "$end"
case_ "bracket without its WARNING fails" 3 "$begin" "$end"
case_ "WARNING after the bracket fails" 3 "$begin" "$(warn __objpool_debug_push)" "$end" "$(warn __objpool_debug_push)"
case_ "known report of the base (expect/known-reports.txt) passes" 0 \
	"$(kcsan pre_handler_kretprobe pre_handler_kretprobe)"
case_ "other KCSAN report fails" 3 "$(kcsan rethook_try_get rethook_recycle)"

# TAP helpers for the guest's suite scripts; source it.
# A suite prints "TAP version 13", its plan, then one line per case.
tap_n=0
tap_plan() { echo "TAP version 13"; echo "1..$1"; }
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1"; }
tap_fail() { tap_n=$((tap_n + 1)); echo "not ok $tap_n $1"; [ -z "${2:-}" ] || echo "# $2"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1 # SKIP $2"; }
# tap_check NAME CMD...: one case from a command's exit status.
tap_check() { local name=$1; shift; if "$@"; then tap_ok "$name"; else tap_fail "$name" "failed: $*"; fi; }
# The path of module NAME.ko under /lib/modules, or nothing.
module_path() { find /lib/modules -name "$1.ko" 2>/dev/null | head -n 1; }
# kunit_ktap SUITE: the KTAP of KUnit suite SUITE's last run, from the
# kernel log.  Not debugfs: in 6.1 its results file keeps neither the
# header nor any line but the last of a parameterised case, and the KTAP
# parser then loses every case after it.
kunit_ktap() {
	echo "KTAP version 1"
	echo "1..1"
	echo "    KTAP version 1"
	dmesg | sed 's/^\[[^]]*\] //' | awk -v s="$1" '
		$0 ~ "^ *# Subtest: " s "$" { on = 1; buf = "" }
		!on { next }
		$0 ~ "^(not )?ok [0-9]+ " s "( |$)" {
			# numbered across all suites run since boot: 1 of 1 here
			sub(/ok [0-9]+ /, "ok 1 ")
			last = buf $0 "\n"; on = 0; next
		}
		{ buf = buf $0 "\n" }
		END { printf "%s", last }'
}

# SPDX-License-Identifier: GPL-2.0
# samples/kprobes/kretprobe_example.ko and samples/fprobe/fprobe_example.ko on
# a function the suite then calls a known number of times (kernel_clone, by
# forking), with their counts checked from the kernel log.
. /guest/tap.sh
forks=20
fork_n() { for _ in $(seq "$1"); do /bin/true; done; }
# counts SAMPLE HITS WANT MISSED: SAMPLE_hits, at least WANT hits, and
# SAMPLE_nmissed, none missed.
counts() {
	[ "${2:-0}" -ge "$3" ] && tap_ok "$1_hits" ||
		tap_fail "$1_hits" "'$2' hits for $forks forks (expected >= $3)"
	[ "$4" = 0 ] && tap_ok "$1_nmissed" ||
		tap_fail "$1_nmissed" "nmissed '$4', expected 0"
}
# unloaded SAMPLE: both its cases fail, its module did not load.
unloaded() {
	tap_fail "$1_hits" "cannot load $1.ko"
	tap_fail "$1_nmissed" "cannot load $1.ko"
}

if [ -e /sys/kernel/tracing/available_filter_functions ] &&
   grep -q fprobe /proc/kallsyms; then fprobe=1; else fprobe=; fi
tap_plan $(( fprobe ? 4 : 2 ))

# kretprobe_example: one "kernel_clone returned" line per return.
ko=$(module_path kretprobe_example)
mark=$(dmesg | wc -l)
if [ -n "$ko" ] && insmod "$ko" func=kernel_clone; then
	fork_n $forks
	rmmod kretprobe_example
	hits=$(log_since "$mark" | grep -c 'kernel_clone returned')
	missed=$(log_since "$mark" | sed -n 's/.*Missed probing \([0-9]*\) instances.*/\1/p')
	# Passes wrongly: hits, a pool handing one instance out twice (returns
	# still reach 20); nmissed, a pool that misses only under concurrency
	# (forks here are sequential).
	counts kretprobe_example "$hits" $forks "$missed"
else
	unloaded kretprobe_example
fi
[ -n "$fprobe" ] || exit 0

# fprobe_example: entry and exit each count one hit.
ko=$(module_path fprobe_example)
mark=$(dmesg | wc -l)
if [ -n "$ko" ] && insmod "$ko" symbol=kernel_clone; then
	fork_n $forks
	rmmod fprobe_example
	line=$(log_since "$mark" | grep 'fprobe at kernel_clone unregistered')
	hits=$(echo "$line" | sed -n 's/.*\. \([0-9]*\) times hit.*/\1/p')
	missed=$(echo "$line" | sed -n 's/.* \([0-9]*\) times missed.*/\1/p')
	# Passes wrongly: as kretprobe_example's cases, with rethook's pool.
	counts fprobe_example "$hits" $((2 * forks)) "$missed"
else
	unloaded fprobe_example
fi

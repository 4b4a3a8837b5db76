# SPDX-License-Identifier: GPL-2.0
# The pools' lifetimes against CPU hotplug, on a kernel booted with fewer
# CPUs online than possible (the debug flavor: 3 vCPUs, maxcpus=2), so
# that pools are made while a possible CPU is offline and the pool's CPU
# hotplug callback gives it a ring when it comes up. For SECS seconds,
# side by side:
#  - every CPU but the first goes offline and online again, in turn;
#  - kretprobes are defined, enabled, hit, disabled and removed through
#    kprobe_events, each a new pool, freed by RCU after removal;
#  - test_objpool.ko (the series' benchmark module, verify mode) is
#    loaded and unloaded, its pools made and finalised as CPUs come up;
#  - a syscall loop enters the probed function all the while.
# Each loop must finish without error and do its work at least once.
# The verdicts that matter come from around it: any KASAN, lockdep or
# other report on the console fails the boot, and the kmemleak suite,
# which runs after this one in the debug flavor, reports any leak.
. /guest/tap.sh
tr=/sys/kernel/tracing
secs=${LIFECYCLE_SECONDS:-20}
target=hrtimer_nanosleep
# shellcheck disable=SC2034 # tap_skip_all (guest/tap.sh) reads it
cases="lifecycle_offline_at_boot lifecycle_cpu_churn lifecycle_kretprobe_churn lifecycle_module_churn"
tap_plan 4
mkfifo /tmp/lc-never && exec 9<>/tmp/lc-never

offline=$(cat /sys/devices/system/cpu/offline 2>/dev/null)
[ -n "$offline" ] ||
	tap_skip_all "every possible CPU is online: boot with maxcpus= below the vCPUs (config/flavors, column 7)"
[ -w $tr/kprobe_events ] || tap_skip_all "no $tr/kprobe_events (CONFIG_KPROBE_EVENTS off)"
grep -q " $target\$" /proc/kallsyms || tap_skip_all "no $target in /proc/kallsyms"
tap_ok lifecycle_offline_at_boot; echo "# CPUs offline at boot: $offline"

# The CPUs that may go offline: every one but CPU 0, the boot CPU.
cpus=$(ls -d /sys/devices/system/cpu/cpu[1-9]* 2>/dev/null | sed 's|.*/cpu||' | sort -n)
end=$(( $(date +%s) + secs ))
running() { [ "$(date +%s)" -lt "$end" ]; }

# cpu_churn: each CPU online, then offline, in turn; all online at the end.
cpu_churn() {
	local n=0 c f
	while running; do
		for c in $cpus; do
			f=/sys/devices/system/cpu/cpu$c/online
			echo 1 >"$f" || { echo "onlining CPU $c failed"; return 1; }
			echo 0 >"$f" || { echo "offlining CPU $c failed"; return 1; }
			n=$((n + 1))
		done
	done
	for c in $cpus; do echo 1 >/sys/devices/system/cpu/cpu$c/online; done
	echo "$n offline/online cycles"
	[ "$n" -gt 0 ]
}

# kretprobe_churn: a new kretprobe each round, hit, then removed.
kretprobe_churn() {
	local n=0 hits=0 h
	while running; do
		echo "r4:lc_krp $target" >>$tr/kprobe_events || { echo "defining the kretprobe failed"; return 1; }
		echo 1 >$tr/events/kprobes/lc_krp/enable || { echo "enabling it failed"; return 1; }
		sleep 0.01
		echo 0 >$tr/events/kprobes/lc_krp/enable
		h=$(awk '$1 == "lc_krp" { print $2 }' $tr/kprobe_profile)
		hits=$((hits + ${h:-0}))
		echo "-:lc_krp" >>$tr/kprobe_events || { echo "removing it failed"; return 1; }
		n=$((n + 1))
	done
	echo "$n kretprobes defined and removed, $hits hits"
	[ "$n" -gt 0 ] && [ "$hits" -gt 0 ]
}

# module_churn KO: test_objpool.ko loaded (short verify runs) and unloaded.
module_churn() {
	local n=0
	while running; do
		insmod "$1" verify=1 verify_iterations=200 irq=1 impls=1 cases=9 ||
			{ echo "insmod test_objpool failed: see the kernel log"; return 1; }
		rmmod test_objpool || { echo "rmmod test_objpool failed"; return 1; }
		n=$((n + 1))
	done
	echo "$n loads and unloads of test_objpool"
	[ "$n" -gt 0 ]
}

echo 0 >$tr/tracing_on	# the probe fires; the ring buffer stays empty
syscall-loop 2 "$secs" nanosleep >/tmp/lc-load.txt 2>&1 &
load=$!
cpu_churn >/tmp/lc-cpu.txt 2>&1 &
cpu_pid=$!
kretprobe_churn >/tmp/lc-krp.txt 2>&1 &
krp_pid=$!
ko=$(module_path test_objpool)
mod_pid=
if [ -n "$ko" ] && ! upstream_test_objpool "$ko"; then
	module_churn "$ko" >/tmp/lc-mod.txt 2>&1 &
	mod_pid=$!
fi

# verdict NAME PID LOG: one case from a loop's exit status and last line.
verdict() {
	if wait "$2"; then
		tap_ok "$1"; echo "# $(tail -n 1 "$3")"
	else
		tap_fail "$1" "$(tail -n 3 "$3" | tr '\n' ' ')"
	fi
}
verdict lifecycle_cpu_churn $cpu_pid /tmp/lc-cpu.txt
verdict lifecycle_kretprobe_churn $krp_pid /tmp/lc-krp.txt
if [ -n "$mod_pid" ]; then
	verdict lifecycle_module_churn $mod_pid /tmp/lc-mod.txt
elif [ -z "$ko" ]; then
	tap_skip lifecycle_module_churn "no test_objpool.ko (CONFIG_TEST_OBJPOOL off)"
else
	tap_skip lifecycle_module_churn "test_objpool.ko is upstream's: it takes no parameters and hangs this guest"
fi
wait $load
echo 1 >$tr/tracing_on

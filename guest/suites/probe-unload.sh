# SPDX-License-Identifier: GPL-2.0
# Unloading the module that owns a kretprobe or an fprobe while instances
# are out: samples/kprobes/kretprobe_example.ko and samples/fprobe/
# fprobe_example.ko probe hrtimer_nanosleep(); 8 sleepers are inside it
# and a loop keeps entering it when the module goes away. Then the
# sleepers return through the trampoline with their instances: nothing
# may call into the unloaded module or touch the freed probe (KASAN in
# the debug flavor), every sleeper and the loop must finish normally, and
# the same probe loads again and works.
. /guest/tap.sh
target=hrtimer_nanosleep
mkfifo /tmp/pu-never && exec 9<>/tmp/pu-never

# unload_inflight NAME MODULE PARAMS...: one case.
unload_inflight() {
	local name=$1 mod=$2 ko pids= pid bad= mark loop hits want_hits
	shift 2
	ko=$(module_path "$mod")
	[ -n "$ko" ] || { tap_skip "$name" "no $mod.ko (sample not built for this arch)"; return; }
	mark=$(dmesg | wc -l)
	insmod "$ko" "$@" || { tap_fail "$name" "insmod $mod $* failed"; return; }
	for _ in $(seq 8); do sleep 3 & pids="$pids $!"; done
	( for _ in $(seq 30); do sleep 0.05; done ) & loop=$!
	pause 1				# the sleepers are inside
	rmmod "$mod" || bad="rmmod $mod failed with instances out"
	# Without hits the probe was not armed and nothing was in flight:
	# the case would pass by construction. The module logs them.
	hits=$(log_since "$mark" | probe_hits "$mod")
	want_hits=$(probe_hits_min)
	[ "${hits:-0}" -ge "$want_hits" ] ||
		bad="${bad:+$bad; }$mod saw '${hits:-0}' hits before rmmod, expected >= $want_hits: probe not armed?"
	for pid in $pids $loop; do
		wait "$pid" || bad="${bad:+$bad; }a sleeper exited with $?"
	done
	# The probe is gone for good: load it again, hit it, unload it.
	mark=$(dmesg | wc -l)
	if insmod "$ko" "$@"; then
		sleep 0.1
		rmmod "$mod" || bad="${bad:+$bad; }second rmmod failed"
	else
		bad="${bad:+$bad; }second insmod failed"
	fi
	log_since "$mark" >&2
	if [ -z "$bad" ]; then
		tap_ok "$name"; echo "# $hits hits before rmmod; 8 sleepers and an entering loop survived rmmod $mod"
	else
		tap_fail "$name" "$bad"
	fi
}

# probe_hits MODULE: the hits MODULE logged (stdin: its log up to rmmod).
# kretprobe_example logs each return (the loop's, before rmmod);
# fprobe_example counts entries and exits and logs the sum at unload.
probe_hits() {
	case $1 in
	kretprobe_example) grep -c "$target returned" ;;
	fprobe_example) sed -n 's/.*unregistered\. \([0-9]*\) times hit.*/\1/p' | tail -n 1 ;;
	esac
}
# probe_hits_min MODULE: hits that prove the probe was armed while the
# sleepers entered.  One: fprobe_example has 2 nodes per possible CPU,
# so with 2 CPUs most of the 8 sleepers miss and only 4 hold a node.
probe_hits_min() { echo 1; }

tap_plan 2
grep -q " $target$" /proc/kallsyms || {
	tap_skip kretprobe_module_unload_inflight "no $target in /proc/kallsyms"
	tap_skip fprobe_module_unload_inflight "no $target in /proc/kallsyms"
	exit 0
}
# Passes wrongly: a use-after-free of the probe that reads stale but intact memory (KASAN in debug sees it).
unload_inflight kretprobe_module_unload_inflight kretprobe_example func=$target
# Passes wrongly: as above, for rethook's pool.
unload_inflight fprobe_module_unload_inflight fprobe_example symbol=$target use_trace=1 stackdump=0

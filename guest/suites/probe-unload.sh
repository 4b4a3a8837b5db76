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
pause() { read -r -t "$1" -u 9 _ || true; }
log_since() { dmesg | tail -n +"$(( $1 + 1 ))"; }

# unload_inflight NAME MODULE PARAMS...: one case.
unload_inflight() {
	local name=$1 mod=$2 ko pids= pid bad= i mark loop
	shift 2
	ko=$(module_path "$mod")
	[ -n "$ko" ] || { tap_skip "$name" "no $mod.ko (sample not built for this arch)"; return; }
	insmod "$ko" "$@" || { tap_fail "$name" "insmod $mod $* failed"; return; }
	for i in $(seq 8); do sleep 3 & pids="$pids $!"; done
	( for i in $(seq 30); do sleep 0.05; done ) & loop=$!
	pause 1				# the sleepers are inside
	rmmod "$mod" || bad="rmmod $mod failed with instances out"
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
		tap_ok "$name"; echo "# 8 sleepers and an entering loop survived rmmod $mod"
	else
		tap_fail "$name" "$bad"
	fi
}

tap_plan 2
grep -q " $target$" /proc/kallsyms || {
	tap_skip kretprobe_module_unload_inflight "no $target in /proc/kallsyms"
	tap_skip fprobe_module_unload_inflight "no $target in /proc/kallsyms"
	exit 0
}
unload_inflight kretprobe_module_unload_inflight kretprobe_example func=$target
unload_inflight fprobe_module_unload_inflight fprobe_example symbol=$target use_trace=1 stackdump=0

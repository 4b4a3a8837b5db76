# SPDX-License-Identifier: GPL-2.0
# perf as a kretprobe client, the way users drive kretprobes: 'perf probe
# -a FUNC%return' on the getppid system call's kernel function, which
# getppid-n (guest/src/getppid-n.c) enters exactly N times; 'perf stat'
# must count N, kprobe_profile must agree (N hits, no miss), 'perf record'
# and 'perf script' must show N returns carrying getppid()'s return value,
# and 'perf probe -d' must leave nothing registered and, on the patched
# kernel, free the probe's instance pool (its release callback's kfree()
# seen by the kmem:kfree event: kmemleak cannot see a leaked pool).  Bad
# input (a blacklisted function, a function that does not exist, maxactive
# beyond KRETPROBE_MAXACTIVE_MAX) must be refused with perf's or the
# kernel's error and leave nothing registered.  perf is Debian's
# linux-perf 6.1 (scripts/deps.sh).  Same results on the base and the
# patched kernel but the pool's release, which the base's freelist does
# not have; in the debug flavor (KASAN) it runs before kmemleak.
. /guest/tap.sh
. /guest/arch.env
tr=/sys/kernel/tracing
n=500
func=${SYSCALL_PREFIX}getppid
ev=${func}__return
cases="perf_runs perf_probe_add perf_stat_counts_n kprobe_profile_agrees perf_record_script_retval perf_probe_del_clean
       perf_probe_del_pool_freed
       perf_probe_blacklisted_refused tracefs_blacklisted_refused perf_probe_nonexistent_refused tracefs_nonexistent_refused
       tracefs_r4097_refused
       nothing_left_registered"
tap_plan $(echo $cases | wc -w)
export PERF_PAGER=cat
cd /tmp || exit 1

[ -w $tr/kprobe_events ] || tap_skip_all "no $tr/kprobe_events (CONFIG_KPROBE_EVENTS off)"
grep -q " $func$" /proc/kallsyms || tap_skip_all "no $func in /proc/kallsyms"

# registered: what the kernel holds besides the suite's start: tracefs
# probes, dynamic events, and kprobes on the probed function.
registered() {
	cat $tr/kprobe_events $tr/dynamic_events 2>/dev/null
	grep -E " $func(\+0x0)?( |\$)" /sys/kernel/debug/kprobes/list 2>/dev/null
}
# clean NAME: nothing registered; otherwise say what, and remove it so
# that the next case starts clean.
left=
clean() {
	left=$(registered)
	[ -z "$left" ] && return 0
	echo "# $1 left registered: $(echo $left)"
	perf probe -q -d 'probe:*' 2>/dev/null
	echo >$tr/kprobe_events 2>/dev/null
	return 1
}
# profile: "hits misses" of the event in kprobe_profile (0 0 if absent).
profile() { awk -v e="$ev" '$1 == e { h = $2; m = $3 } END { print h + 0, m + 0 }' $tr/kprobe_profile; }

# perf itself: the binary and every library it links load in the guest.
# Passes wrongly: never; fails when the initramfs lacks perf or a library.
if ver=$(perf --version 2>&1); then
	tap_ok perf_runs; echo "# $ver"
else
	tap_fail perf_runs "perf does not run: $ver (run 'make deps': it unpacks linux-perf into build/guest-bin/ARCH/perf)"
	for c in $cases; do [ "$c" = perf_runs ] || tap_fail "$c" "no perf"; done
	exit 0
fi
if [ -n "$(registered)" ]; then
	echo "# probes left by an earlier suite (removed): $(registered | tr '\n' ' ')"
	echo >$tr/kprobe_events
fi

# Add: no vmlinux and no debuginfo in the guest, so perf finds the function
# in /proc/kallsyms (and defines the probe at _text+OFFSET) and passes
# $retval through as the kernel's fetch arg.
# Passes wrongly: a perf that defines the event but a kernel that never
# registers the kretprobe (caught by the next two cases).
out=$(perf probe -a "$func%return \$retval" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
if [ $rc = 0 ] && grep -q "^r[0-9]*:probe/$ev .*arg1=\$retval" $tr/kprobe_events; then
	tap_ok perf_probe_add; echo "# $(grep "probe/$ev " $tr/kprobe_events)"
	added=1
else
	tap_fail perf_probe_add "perf probe -a '$func%return \$retval': exit $rc, kprobe_events: $(cat $tr/kprobe_events)"
	added=
fi

# Count: N calls from one process, perf stat counts that process only.
# Passes wrongly: a pool that loses or duplicates instances only under
# concurrency (the hotplug-load suite and the benchmarks load it).
if [ -n "$added" ]; then
	read -r h0 m0 < <(profile)
	perf stat -x, -o stat.csv -e "probe:$ev" -- getppid-n $n >loop.out 2>&1
	rc=$?
	read -r h1 m1 < <(profile)
	count=$(awk -F, -v e="probe:$ev" '$3 == e { print $1 }' stat.csv)
	if [ $rc = 0 ] && [ "$count" = $n ]; then
		tap_ok perf_stat_counts_n; echo "# perf stat: $count probe:$ev for $n calls"
	else
		tap_fail perf_stat_counts_n "perf stat -e probe:$ev -- getppid-n $n: exit $rc, counted '$count', expected $n"
		sed 's/^/# /' stat.csv loop.out
	fi
	# kprobe_profile counts every hit on the system while perf holds the
	# probe: nothing but getppid-n calls getppid() meanwhile.
	# Passes wrongly: never for a lost return (it would be a miss or a
	# missing hit).
	if [ $((h1 - h0)) = $n ] && [ $((m1 - m0)) = 0 ]; then
		tap_ok kprobe_profile_agrees; echo "# kprobe_profile: $((h1 - h0)) hits, $((m1 - m0)) misses"
	else
		tap_fail kprobe_profile_agrees "kprobe_profile: $((h1 - h0)) hits (expected $n), $((m1 - m0)) misses (expected 0)"
	fi

	# Record, then script: one sample per return, each with the value
	# getppid() returned to getppid-n (its parent, perf record).
	# Passes wrongly: a kretprobe that fires on return but reads the
	# return value from the wrong register or instance would still show
	# the right count; this case checks the value.
	perf record -q -N -B -o perf.data -e "probe:$ev" -- getppid-n $n >loop.out 2>record.err
	rc=$?
	ppid=$(sed -n 's/.*ppid=\([0-9]*\).*/\1/p' loop.out)
	perf script -i perf.data -F comm,event,trace >script.out 2>script.err
	src=$?
	lines=$(grep -c "probe:$ev:" script.out)
	# arg1=0x1f5 (hex, perf's default type for $retval) or decimal
	vals=$(sed -n 's/.*arg1=\([0-9a-fx]*\).*/\1/p' script.out | sort -u)
	good=
	[ -n "$ppid" ] && [ "$(echo "$vals" | wc -l)" = 1 ] && [ -n "$vals" ] && [ $((vals)) = "$ppid" ] && good=1
	if [ $rc = 0 ] && [ $src = 0 ] && [ "$lines" = $n ] && [ -n "$good" ]; then
		tap_ok perf_record_script_retval; echo "# perf script: $lines returns, arg1=$vals (getppid() returned $ppid)"
		head -n 2 script.out | sed 's/^/# /'
	else
		tap_fail perf_record_script_retval "perf record exit $rc, perf script exit $src: $lines samples (expected $n), arg1 values '$(echo $vals)' (expected $ppid)"
		cat record.err script.err | head -n 20 | sed 's/^/# /'
		head -n 5 script.out | sed 's/^/# /'
	fi

	# Delete: perf removes the tracefs event, the kernel unregisters the
	# kretprobe, and once its instances are back the pool is freed:
	# objpool_free() frees the pool's memory, then calls the release
	# callback given to objpool_init() (rethook's on x86_64, which has
	# KRETPROBE_ON_RETHOOK; the kretprobe holder's on arm64), whose
	# kfree() of the holder the kmem:kfree event sees (call_site within
	# the callback; the pool's functions refuse kprobes). kmemleak cannot
	# see a leaked pool: 6.1 scans per-CPU memory (the pool's rings) but
	# never reports it, so the objects, and the holder they point to, stay
	# referenced (a kernel whose rethook_free_rcu() skipped objpool_fini()
	# passes the debug flavor's kmemleak suite).
	# Passes wrongly: a pool that frees its objects but not its rings
	# (objpool_free_all() frees both before the callback runs).
	relfn= range=
	for f in rethook_fini_pool kretprobe_fini_pool; do
		grep -q " $f$" /proc/kallsyms && relfn=$f && break
	done
	# START END of its text: from its address to the next symbol's.
	[ -n "$relfn" ] && range=$(sort /proc/kallsyms |
		awk -v f="$relfn" 'seen && $1 != start { print start, $1; exit } $3 == f { start = $1; seen = 1 }')
	kf=$tr/events/kmem/kfree
	watch=
	if [ -n "$range" ] && [ -d $kf ]; then
		set -- $range
		echo 0 >$kf/enable; : >$tr/trace
		echo "call_site >= 0x$1 && call_site < 0x$2" >$kf/filter && echo 1 >$kf/enable && watch=1
	fi
	out=$(perf probe -d "probe:$ev" 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	freed=
	if [ -n "$watch" ]; then
		# The pool goes after an RCU grace period (call_rcu()).
		for _ in $(seq 50); do
			freed=$(grep -c ' kfree: ' $tr/trace)
			[ "$freed" -ge 1 ] && break
			sleep 0.2
		done
		sleep 0.5; freed=$(grep -c ' kfree: ' $tr/trace)
		echo 0 >$kf/enable; echo 0 >$kf/filter
		grep ' kfree: ' $tr/trace | head -n 3 | sed 's/^/# /'
	fi
	if [ $rc = 0 ] && clean perf_probe_del_clean && [ -z "$(perf probe -l 2>/dev/null)" ]; then
		tap_ok perf_probe_del_clean
	else
		tap_fail perf_probe_del_clean "perf probe -d probe:$ev: exit $rc, left: $(echo $left)"
	fi
	if [ -z "$relfn" ]; then
		tap_skip perf_probe_del_pool_freed "no objpool release callback (rethook_fini_pool, kretprobe_fini_pool) in /proc/kallsyms: the unpatched base's freelist"
	elif [ -z "$watch" ]; then
		tap_fail perf_probe_del_pool_freed "could not filter kmem:kfree on $relfn ($range): $(cat $kf/filter 2>&1)"
	elif [ "$freed" = 1 ]; then
		tap_ok perf_probe_del_pool_freed; echo "# $relfn freed the pool's holder once after perf probe -d"
	else
		tap_fail perf_probe_del_pool_freed "$relfn freed ${freed:-0} holders (expected 1) within 10 s of perf probe -d: the kretprobe's instance pool was not freed"
	fi
else
	for c in perf_stat_counts_n kprobe_profile_agrees perf_record_script_retval perf_probe_del_clean perf_probe_del_pool_freed; do
		tap_fail "$c" "no probe (perf_probe_add failed)"
	done
	clean perf_probe_add
fi

# refused NAME WANT CMD...: CMD fails, its output matches WANT (an ERE),
# and nothing is left registered.
refused() {
	local name=$1 want=$2 out rc; shift 2
	out=$("$@" 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	if [ $rc = 0 ]; then
		tap_fail "$name" "'$*' succeeded"; clean "$name"
	elif ! echo "$out" | grep -Eq "$want"; then
		tap_fail "$name" "'$*' failed without saying /$want/"; clean "$name"
	elif ! clean "$name"; then
		tap_fail "$name" "'$*' failed but left: $(echo $left)"
	else
		tap_ok "$name"
	fi
}

# A blacklisted function: perf reads the kernel's list and refuses; the
# kernel refuses it too when asked directly through tracefs (kprobe-safety
# checks the pool's own functions).  The first function of the list that
# /proc/kallsyms names once, notify_die when it is there.
bl=
if [ -r /sys/kernel/debug/kprobes/blacklist ]; then
	for f in notify_die $(awk '{ print $2 }' /sys/kernel/debug/kprobes/blacklist | grep -v '\.' | head -n 50); do
		grep -q "[[:space:]]$f$" /sys/kernel/debug/kprobes/blacklist &&
			[ "$(grep -c " [tT] $f$" /proc/kallsyms)" = 1 ] && bl=$f && break
	done
fi
if [ -n "$bl" ]; then
	echo "# blacklisted function: $bl"
	refused perf_probe_blacklisted_refused "blacklist" perf probe -a "$bl%return"
	: >$tr/error_log
	refused tracefs_blacklisted_refused "Failed to register probe event" \
		sh -c "echo 'r:probe/perf_krp_bl $bl' >>$tr/kprobe_events || { cat $tr/error_log; exit 1; }"
else
	for c in perf_probe_blacklisted_refused tracefs_blacklisted_refused; do
		tap_skip $c "no /sys/kernel/debug/kprobes/blacklist entry named once in /proc/kallsyms"
	done
fi

# A function that does not exist: perf finds no symbol and asks the kernel
# nothing, so the kernel is asked directly too (trace_kprobe_create()
# logs BAD_PROBE_ADDR for register_kretprobe()'s -ENOENT).
refused perf_probe_nonexistent_refused "[Ff]ailed to find symbol|not found" \
	perf probe -a 'objpool_no_such_function%return'
: >$tr/error_log
refused tracefs_nonexistent_refused "Invalid probed address or symbol" \
	sh -c "echo 'r:probe/perf_krp_none objpool_no_such_function' >>$tr/kprobe_events || { cat $tr/error_log; exit 1; }"

# maxactive one beyond KRETPROBE_MAXACTIVE_MAX (4096): perf probe has no
# syntax for maxactive, tracefs is where users set it.  r4096 is accepted
# (kretprobe-tracefs).
: >$tr/error_log
refused tracefs_r4097_refused "Maxactive is too big" \
	sh -c "echo 'r4097:probe/perf_krp_max $func' >>$tr/kprobe_events || { cat $tr/error_log; exit 1; }"

# The end: nothing of the suite's left anywhere.  Passes wrongly: never;
# fails for a probe any case above left.
if clean nothing_left_registered; then
	tap_ok nothing_left_registered
else
	tap_fail nothing_left_registered "left: $(echo $left)"
fi

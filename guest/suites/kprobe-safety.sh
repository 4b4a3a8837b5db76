# SPDX-License-Identifier: GPL-2.0
# Kprobe safety of the pool's fast path: every out-of-line objpool_* or
# __objpool_* function objpool_pop() and objpool_push() can reach, and
# objpool_drop() (kretprobe and rethook drop an instance that a push did
# not take, inside the handler), must refuse kprobes
# and kretprobes, else a probe on it recurses into the kretprobe/rethook
# code that pops and pushes.  The symbols are every t/T [__]objpool_* text
# symbol of vmlinux in /proc/kallsyms (what nm shows of the built vmlinux,
# compiler clones such as .constprop.0 included) except those reached only
# from init and teardown ($init_only).  Cases, KTAP:
#  1. guest/modules/objpool_kprobe_safety.ko (KTAP from its init):
#     register_kprobe() and register_kretprobe() on each symbol return
#     -EINVAL; both succeed on objpool_init (positive control);
#  2. each symbol is listed in the debugfs kprobes blacklist; controls: a
#     known blacklisted function is listed, objpool_init is not;
#  3. tracefs "p:" and "r:" on each symbol are rejected; control: "p:" on
#     kernel_clone is accepted.  lib/ is built without ftrace
#     instrumentation, so without CONFIG_KPROBE_EVENTS_ON_NOTRACE tracefs
#     refuses these for that reason too; the reason is logged.
. /guest/tap.sh
ko=/guest/modules/objpool_kprobe_safety.ko
bl=/sys/kernel/debug/kprobes/blacklist
tr=/sys/kernel/tracing
# Reached only from objpool_init(), objpool_fini() and objpool_free() (which
# objpool_drop() calls for the last reference, from RCU callbacks after
# unregister, never while a handler can push), or from the CPU hotplug
# callback that gives a CPU coming online its rings, never from pop or push:
# kprobes on them are allowed.
init_only="objpool_init objpool_fini objpool_free objpool_free_all
objpool_plan_rings objpool_alloc_block objpool_fill_rings objpool_alloc_all
objpool_block_size objpool_ring_inline objpool_free_ring objpool_alloc_ring
objpool_hp_del objpool_hp_install objpool_cpu_prepare objpool_hp_init"
# A function kernel/kprobes.c puts on the blacklist (NOKPROBE_SYMBOL).
known_blacklisted=pre_handler_kretprobe

if ! grep -q ' __objpool_pop_slow$' /proc/kallsyms; then
	echo "KTAP version 1"; echo "1..1"
	tap_skip kprobe_safety "this kernel has no objpool (unpatched base)"
	exit 0
fi
# Text symbols of vmlinux only (a module's carry a 4th field, [module]).
# A compiler part of a function (NAME.cold, NAME.constprop.0, ...) goes
# with NAME.
syms=$(awk 'NF == 3 && $2 ~ /^[tT]$/ && $3 ~ /^(__)?objpool_/ { print $3 }' /proc/kallsyms |
	sort -u | awk -v skip="$init_only" '
	BEGIN { n = split(skip, a); for (i = 1; i <= n; i++) s[a[i]] = 1 }
	{ base = $1; sub(/\..*/, "", base); if (!(base in s)) print }')
set -- $syms
echo "# fast-path symbols: $*" >&2
echo "# If one of them is reached only from init or teardown, add it to init_only in guest/suites/kprobe-safety.sh." >&2
echo "KTAP version 1"
echo "1..$(( 1 + $# + 2 + 2 * $# + 1 ))"

# 1. The module's cases, as subtest 1 (it prints them prefixed, in init).
pfx="objpool_kprobe_safety_ktap: "
mark=$(dmesg | wc -l)
if [ ! -e "$ko" ]; then
	tap_fail objpool_kprobe_safety "$ko missing: guest/modules not built with CONFIG_KRETPROBES?"
elif ! out=$(insmod "$ko" refuse="$(IFS=,; echo "$*")" accept=objpool_init 2>&1); then
	tap_fail objpool_kprobe_safety "insmod: $out"
else
	rmmod objpool_kprobe_safety
	lines=$(dmesg | tail -n +"$(( mark + 1 ))" | sed -n "s/^\(\[[^]]*\] \)\{0,1\}$pfx//p")
	echo "    KTAP version 1"
	echo "    # Subtest: objpool_kprobe_safety"
	echo "$lines" | grep -v '^done$' | sed 's/^/    /'
	if echo "$lines" | grep -qx 'done' && ! echo "$lines" | grep -q '^not ok '; then
		tap_ok objpool_kprobe_safety
	else
		tap_fail objpool_kprobe_safety "a case failed, or the module did not finish (see above)"
	fi
fi
# 2. The debugfs blacklist: lines "0xSTART-0xEND<TAB>SYMBOL".
listed() { awk -v s="$1" '$2 == s { f = 1 } END { exit !f }' "$bl" 2>/dev/null; }
for s in "$@"; do
	if listed "$s"; then tap_ok "blacklisted_$s"; else tap_fail "blacklisted_$s" "$s not in $bl"; fi
done
if listed $known_blacklisted; then tap_ok blacklist_control_listed
else tap_fail blacklist_control_listed "$known_blacklisted not in $bl: is the file readable (CONFIG_DEBUG_FS)?"; fi
if listed objpool_init; then tap_fail blacklist_control_unlisted "objpool_init is in $bl: the module's positive control cannot work"
else tap_ok blacklist_control_unlisted; fi

# 3. tracefs: each definition must be rejected; log why.
rejected() {	# rejected TYPE SYMBOL
	local out
	: >$tr/error_log
	if out=$(echo "$1:ks_probe $2" 2>&1 >>$tr/kprobe_events); then
		echo "-:ks_probe" >>$tr/kprobe_events
		return 1
	fi
	echo "# $1:$2 rejected: ${out##*: }; error_log: $(sed -n 's/.*error: //p' $tr/error_log | tail -n 1)" >&2
}
for s in "$@"; do
	for t in p r; do
		if [ ! -w $tr/kprobe_events ]; then
			tap_skip "tracefs_${t}_rejected_$s" "no $tr/kprobe_events (CONFIG_KPROBE_EVENTS off)"
		elif rejected $t "$s"; then
			tap_ok "tracefs_${t}_rejected_$s"
		else
			tap_fail "tracefs_${t}_rejected_$s" "'$t:ks_probe $s' accepted by $tr/kprobe_events"
		fi
	done
done
if [ ! -w $tr/kprobe_events ]; then
	tap_skip tracefs_control_accepted "no $tr/kprobe_events (CONFIG_KPROBE_EVENTS off)"
elif out=$(echo "p:ks_probe kernel_clone" 2>&1 >>$tr/kprobe_events); then
	echo "-:ks_probe" >>$tr/kprobe_events
	tap_ok tracefs_control_accepted
else
	tap_fail tracefs_control_accepted "'p:ks_probe kernel_clone' rejected: $out"
fi
dmesg | grep -i 'notrace function\|kprobe' | tail -n 20 >&2

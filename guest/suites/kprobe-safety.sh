# SPDX-License-Identifier: GPL-2.0
# Kprobe safety of the kretprobe hit path: every function a kretprobe,
# rethook or fprobe hit can call (pop, push, drop and what they call,
# compiler copies such as an out-of-line arch_local_irq_save() or
# NAME.constprop.0 included) must refuse kprobes and kretprobes, else a
# probe on it recurses into the code that pops and pushes.  The functions
# are not listed by hand: the host computed them from this very vmlinux's
# disassembly (scripts/lib/kprobe_hit_callees.py from the roots of
# config/kprobe-hit-roots, by scripts/lib/kprobe-hit-list.sh), less those
# config/kprobe-hit-harmless shows harmless, and the initramfs carries
# them as /guest/kprobe-hit-callees.txt: NAME OFFSET-FROM-_text VERDICT
# VIA.  Each is checked at its address: copies of a static function share
# its name.  Cases, KTAP:
#  0. hit_list_matches_kernel: each NAME is at _text+OFFSET in
#     /proc/kallsyms (the list is of this build); indirect_calls_reviewed:
#     the list has no '# unreviewed-indirect' function (one whose calls
#     through pointers config/kprobe-hit-indirect does not explain);
#  1. guest/modules/objpool_kprobe_safety.ko (KTAP from its init):
#     register_kprobe() and register_kretprobe() at each address return
#     -EINVAL; both succeed on objpool_init (positive control);
#  2. each address is in a range of the debugfs kprobes blacklist (a
#     NAME.suffix part: NAME is listed);
#     controls: a known blacklisted function is listed, objpool_init is not;
#  3. tracefs "p:" and "r:" on each (by name, by address where the name
#     repeats in kallsyms) are rejected; control: "p:" on kernel_clone is
#     accepted.  lib/ is built without ftrace instrumentation, so without
#     CONFIG_KPROBE_EVENTS_ON_NOTRACE tracefs refuses those for that reason
#     too; the reason is logged.
# A case is named after the function, NAME@OFFSET where two reached
# functions share the name.
. /guest/tap.sh
ko=/guest/modules/objpool_kprobe_safety.ko
list=/guest/kprobe-hit-callees.txt
bl=/sys/kernel/debug/kprobes/blacklist
tr=/sys/kernel/tracing
# A function kernel/kprobes.c puts on the blacklist (NOKPROBE_SYMBOL).
known_blacklisted=pre_handler_kretprobe

if ! grep -q ' __objpool_pop_slow$' /proc/kallsyms; then
	echo "KTAP version 1"; echo "1..1"
	tap_skip kprobe_safety "this kernel has no objpool (unpatched base)"
	exit 0
fi
if [ ! -f "$list" ]; then
	echo "KTAP version 1"; echo "1..1"
	tap_fail kprobe_safety "no $list: scripts/lib/initramfs.sh packs it from scripts/lib/kprobe-hit-list.sh; boot with make vm"
	exit 0
fi
if skip=$(sed -n 's/^# skip: //p' "$list") && [ -n "$skip" ]; then
	echo "KTAP version 1"; echo "1..1"
	tap_skip kprobe_safety "$skip"
	exit 0
fi
sed -n 's/^# \(harmless\|indirect\|unreviewed-indirect\) /# host: \1 /p' "$list" >&2
# Each function's label and address here: _text's address plus OFFSET
# (bash's 64-bit arithmetic; kallsyms prints 16 hex digits).
text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
declare -A addr name seen
while read -r n off _; do seen[$n]=$(( ${seen[$n]:-0} + 1 )); done < <(grep -v '^#' "$list")
labels=
while read -r n off _; do
	l=$n; [ "${seen[$n]}" = 1 ] || l=$n@$off
	addr[$l]=$(printf '%016x' $(( 0x${text:-0} + off ))) name[$l]=$n labels="$labels $l"
done < <(grep -v '^#' "$list")
set -- $labels
echo "# hit-path functions: $*" >&2
echo "KTAP version 1"
echo "1..$(( 2 + 1 + $# + 2 + 2 * $# + 1 ))"

# 0. The list is of this kernel: each NAME where the list says.
missing=$(for l in "$@"; do
	awk -v a="${addr[$l]}" -v s="${name[$l]}" '"x" $1 == "x" a && $3 == s { f = 1 } END { exit !f }' /proc/kallsyms ||
		echo "$l"
done)
if [ -z "$text" ]; then
	tap_fail hit_list_matches_kernel "no _text in /proc/kallsyms (kptr_restrict?)"
elif [ -n "$missing" ]; then
	tap_fail hit_list_matches_kernel "not at _text+OFFSET in /proc/kallsyms: $(echo $missing); $list is of another build (scripts/lib/kprobe-hit-list.sh)"
else
	tap_ok hit_list_matches_kernel
fi
unreviewed=$(sed -n 's/^# unreviewed-indirect \([^:]*\):.*/\1/p' "$list")
if [ -n "$unreviewed" ]; then
	tap_fail indirect_calls_reviewed "indirect calls not in config/kprobe-hit-indirect: $(echo $unreviewed)"
else
	tap_ok indirect_calls_reviewed
fi

# 1. The module's cases, as subtest 1 (it prints them prefixed, in init).
pfx="objpool_kprobe_safety_ktap: "
mark=$(dmesg | wc -l)
refuse=$(for l in "$@"; do printf '%s=0x%s,' "$l" "${addr[$l]}"; done)
if [ ! -e "$ko" ]; then
	tap_fail objpool_kprobe_safety "$ko missing: guest/modules not built with CONFIG_KRETPROBES?"
elif ! out=$(insmod "$ko" refuse="${refuse%,}" accept=objpool_init 2>&1); then
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
in_blacklist() {	# in_blacklist HEXADDR: in some [START, END)
	# As strings (same length, lower case): busybox awk would read "0x.." as
	# a double.
	awk -v a="x0x$1" '{ split($1, r, "-"); if ("x" r[1] <= a && a < "x" r[2]) f = 1 } END { exit !f }' "$bl" 2>/dev/null
}
listed() { awk -v s="$1" '$2 == s { f = 1 } END { exit !f }' "$bl" 2>/dev/null; }
# A compiler part NAME.suffix is refused when NAME is listed
# (within_kprobe_blacklist()), without a range of its own.
for l in "$@"; do
	n=${name[$l]}
	if in_blacklist "${addr[$l]}" || { [ "$n" != "${n%%.*}" ] && listed "${n%%.*}"; }; then
		tap_ok "blacklisted_$l"
	else
		tap_fail "blacklisted_$l" "0x${addr[$l]} ($l) in no range of $bl"
	fi
done
if listed $known_blacklisted; then tap_ok blacklist_control_listed
else tap_fail blacklist_control_listed "$known_blacklisted not in $bl: is the file readable (CONFIG_DEBUG_FS)?"; fi
if listed objpool_init; then tap_fail blacklist_control_unlisted "objpool_init is in $bl: the module's positive control cannot work"
else tap_ok blacklist_control_unlisted; fi

# 3. tracefs: each definition must be rejected; log why.
rejected() {	# rejected TYPE PLACE
	local out
	: >$tr/error_log
	if out=$(echo "$1:ks_probe $2" 2>&1 >>$tr/kprobe_events); then
		echo "-:ks_probe" >>$tr/kprobe_events
		return 1
	fi
	echo "# $1:$2 rejected: ${out##*: }; error_log: $(sed -n 's/.*error: //p' $tr/error_log | tail -n 1)" >&2
}
for l in "$@"; do
	place=${name[$l]}
	[ "$(awk -v s="$place" '$3 == s' /proc/kallsyms | wc -l)" = 1 ] || place=0x${addr[$l]}
	for t in p r; do
		if [ ! -w $tr/kprobe_events ]; then
			tap_skip "tracefs_${t}_rejected_$l" "no $tr/kprobe_events (CONFIG_KPROBE_EVENTS off)"
		elif rejected $t "$place"; then
			tap_ok "tracefs_${t}_rejected_$l"
		else
			tap_fail "tracefs_${t}_rejected_$l" "'$t:ks_probe $place' accepted by $tr/kprobe_events"
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

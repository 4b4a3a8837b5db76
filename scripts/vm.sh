#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make vm: boot the kernel of ARCH/FLAVOR under QEMU, run CMD in the guest,
# stream its output, bring back what it wrote under /results, return its
# exit status.  Always ends: QEMU is killed after TIMEOUT seconds.  With
# RESULTS, the run's facts go to RESULTS/vm.json (arch, flavor, series,
# patched, accelerator, vCPUs, possible CPUs, NUMA nodes, memory, kernel
# release, the guest's command, exit status).
# Usage: vm.sh ARCH FLAVOR [UNPATCHED] -- CMD
# Environment: VCPUS (2), MAXCPUS (VCPUS: possible CPUs), MEM (the
#   flavor's, config/flavors), TIMEOUT (900 s), RESULTS (host dir for /results), ACCEL (auto|kvm|tcg),
#   ICOUNT=1 (one vCPU, single-threaded TCG with -icount shift=0,sleep=off:
#   the guest clock advances 1 ns per executed guest instruction, so a timed
#   loop in the guest counts instructions; accelerator "tcg-icount"),
#   TCG_THREAD (multi|single: TCG's vCPUs on host threads of their own, or
#   all on one; default the flavor's, column 8 of config/flavors; single for
#   guests that rewrite hot kernel text, see config/benches' memory-7.2-rfc), PERF (auto|1|0: append perf and its
#   libraries to the initramfs; auto when CMD names perf), APPEND (extra
#   kernel parameters), V=1 (show the whole console),
#   NODES (auto|1|2: NUMA nodes; auto is 2 for an x86_64 kernel built with
#   CONFIG_NUMA and two or more vCPUs: the test flavor, see
#   config/numa-x86_64.config).
. "$(dirname "$0")/lib/harness.sh"
arch=$1 flavor=$2; shift 2
unpatched=
[ "${1:-}" = -- ] || { unpatched=$1; shift; }
[ "${1:-}" = -- ] || die "usage: vm.sh ARCH FLAVOR [UNPATCHED] -- CMD"
shift
cmd=$*
use_arch "$arch"; check_flavor "$flavor"
[ -n "$cmd" ] || die "nothing to run: give CMD='...' (a shell command for the guest)"
obj=$(objdir "$arch" "$flavor" "$unpatched")
image=$obj/$ARCH_IMAGE
[ -f "$image" ] || die "no kernel in ${obj#$TOP/}; run 'make kernel ARCH=$arch FLAVOR=$flavor${unpatched:+ UNPATCHED=1}' first"

icount=
case ${ICOUNT:-0} in
0) ;;
1)	[ "${VCPUS:-1}" = 1 ] ||
		die "ICOUNT=1 runs one vCPU (icount needs single-threaded TCG); drop VCPUS=$VCPUS or ICOUNT=1"
	[ "${ACCEL:-tcg}" = tcg ] || [ "${ACCEL:-tcg}" = auto ] ||
		die "ICOUNT=1 is a TCG mode; drop ACCEL=$ACCEL or ICOUNT=1"
	icount=1 VCPUS=1 ;;
*)	die "ICOUNT must be 0 or 1, not '$ICOUNT'" ;;
esac
# The flavor's CPUs (config/flavors, column 7) unless VCPUS is given: its
# vCPUs, and maxcpus= for those online at boot when fewer.
read -r fl_vcpus fl_online < <(flavor_cpus "$flavor") || exit
if [ -z "${VCPUS:-}" ] && [ "$fl_online" != "$fl_vcpus" ]; then
	VCPUS=$fl_vcpus APPEND="maxcpus=$fl_online ${APPEND:-}"
fi
vcpus=${VCPUS:-$fl_vcpus} maxcpus=${MAXCPUS:-${VCPUS:-$fl_vcpus}} timeout=${TIMEOUT:-900}
mem=${MEM:-$(flavor_memory "$flavor")}

# The unpatched kernel of a series on another (SERIES_PARENT) is the
# parent's: its guest facts are the parent series'.
facts_of=$SERIES
[ -z "$unpatched" ] || facts_of=${SERIES_PARENT:-$SERIES}
"$TOP/scripts/lib/initramfs.sh" --series "$facts_of" "$arch" "$obj" || exit
rundir=$obj/vm
mkdir -p "$rundir"
# The command travels as a second cpio archive appended to the first: the
# kernel unpacks both, and the big one is not rebuilt for a new command.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/root/guest"
printf '%s\n' "$cmd" >"$tmp/root/guest/cmd"
(cd "$tmp/root" && find . | cpio -o -H newc --quiet | gzip -1 -n) >"$tmp/cmd.cpio.gz"
# perf (scripts/lib/initramfs.sh) only where the command needs it: its 42 MB
# cost a boot up to 1.8 s under TCG.  PERF=auto: when the command names
# perf (perf ..., a suite or benchmark named perf-*).
perf=
case ${PERF:-auto} in
1) perf=$BUILD/guest-bin/$arch/perf.cpio.gz ;;
0) ;;
auto) case " $cmd " in *perf*) perf=$BUILD/guest-bin/$arch/perf.cpio.gz ;; esac ;;
*) die "PERF is auto, 1 or 0, not '$PERF'" ;;
esac
cat "$obj/initramfs.cpio.gz" $perf "$tmp/cmd.cpio.gz" >"$rundir/initrd.gz"

append="console=$ARCH_CONSOLE panic=-1 oops=panic printk.devkmsg=on ${APPEND:-}"
# An arm64 kernel built with pseudo-NMI (config/nmi-arm64.config) uses it
# only when asked: the NMI IPIs the objpool reproducer sends need it, and
# QEMU's virt machine has the GICv3 it needs (config/arch/arm64.sh).
grep -q '^CONFIG_ARM64_PSEUDO_NMI=y' "$obj/.config" && append="irqchip.gicv3_pseudo_nmi=1 $append"
thread=${TCG_THREAD:-$(flavor_tcg_thread "$flavor")}
case $thread in
multi | single) ;;
*) die "TCG_THREAD is multi or single, not '$TCG_THREAD'" ;;
esac
accel=tcg,thread=$thread cpu=$ARCH_QEMU_CPU_TCG
if [ -z "$icount" ] &&
   { [ "${ACCEL:-auto}" = kvm ] || { [ "${ACCEL:-auto}" = auto ] && "$TOP/scripts/lib/kvm-probe.sh" "$arch" "$image"; }; }; then
	accel=kvm cpu=$ARCH_QEMU_CPU_KVM
fi
qemu=("${ARCH_QEMU[@]}" -cpu "$cpu")
# TCG runs a sanitizer kernel tens of times slower than hardware: its boot
# tripped the default 21 s RCU stall detector (KASAN+kmemleak, in
# tracer_init_tracefs_work_func). A real stall still shows after 120 s.
# Many more vCPUs than host CPUs (96 on this 2-core host) boot slower
# still: each secondary vCPU's delay-loop calibration fails after seconds,
# and a vCPU waits long for a host thread.  lpj= skips the calibration (it
# only scales udelay()'s busy loop; the value is arbitrary) and the stall
# timeout goes to its maximum.  APPEND comes last and wins.
case $accel in tcg*)
	stall=120
	if [ "$vcpus" -gt "$(nproc)" ]; then
		stall=300 append="lpj=10000000 $append"
	fi
	append="rcupdate.rcu_cpu_stall_timeout=$stall $append" ;;
esac
label=${accel%%,*}
[ "$accel" != tcg,thread=single ] || label=tcg-single
if [ -n "$icount" ]; then
	# One instruction per virtual ns; sleep=off: an idle guest does not
	# wait for host time, its clock jumps to the next timer.
	accel=tcg label=tcg-icount
	qemu+=(-icount shift=0,sleep=off)
fi
nodes=${NODES:-auto}
if [ "$nodes" = auto ]; then
	nodes=1
	[ "$vcpus" -ge 2 ] && grep -q '^CONFIG_NUMA=y' "$obj/.config" && nodes=2
fi
say "booting $arch-$flavor${unpatched:+ (unpatched)}: $label, $vcpus vCPUs ($maxcpus possible)$([ "$nodes" = 1 ] || echo ", $nodes NUMA nodes"), $mem, timeout ${timeout}s"
smp=$vcpus,maxcpus=$maxcpus
# One socket per CPU with NUMA nodes: CPUs of one socket share a last-level
# cache, and the kernel warns (topology_sane()) when such CPUs sit on two
# nodes.
[ "$nodes" = 1 ] || smp+=",sockets=$maxcpus,cores=1,threads=1"
qemu+=(-accel "$accel" -smp "$smp" -m "$mem"
	-display none -no-reboot -monitor none -serial stdio
	-kernel "$image" -initrd "$rundir/initrd.gz" -append "$append")
case $nodes in
1) ;;
2)	# The CPUs alternate between the nodes; the memory is halved.
	case $mem in
	*G) mib=$((${mem%G} * 1024)) ;;
	*M) mib=${mem%M} ;;
	*) die "MEM=$mem: give it in M or G (e.g. 1G) to boot NUMA nodes, or set NODES=1" ;;
	esac
	for n in 0 1; do
		size=$((mib / 2)); [ "$n" = 0 ] && size=$((mib - mib / 2))
		spec="node,nodeid=$n,memdev=mem$n"
		for ((c = n; c < maxcpus; c += 2)); do spec+=",cpus=$c"; done
		qemu+=(-object "memory-backend-ram,id=mem$n,size=${size}M" -numa "$spec")
	done ;;
*) die "NODES must be auto, 1 or 2, not '$nodes'" ;;
esac

results=${RESULTS:--}
timeout -k 5 "$timeout" "${qemu[@]}" </dev/null 2>"$rundir/qemu.err" |
	"$TOP/scripts/lib/console.py" "$rundir/console.log" "$results" "${V:-0}"
rc=${PIPESTATUS[1]} qrc=${PIPESTATUS[0]}
[ "$qrc" = 124 ] && warn "QEMU killed after ${timeout}s (TIMEOUT=)"
[ -s "$rundir/qemu.err" ] && [ "$qrc" != 0 ] && cat "$rundir/qemu.err" >&2
# The possible CPUs the guest saw (its @@VM-READY@@ line says "0-95
# possible"): an arm64 virt guest has as many as it has vCPUs, whatever
# MAXCPUS asked.
guest_possible() {
	sed -n 's/.*@@VM-READY@@ .* \([0-9]*-\)\{0,1\}\([0-9]*\) possible.*/\2/p' "$rundir/console.log" |
		head -n 1 | awk '{ print $1 + 1 }'
}
# The CPUs online when the guest was ready (its @@VM-READY@@ line says "2
# CPUs online"): fewer than the vCPUs with maxcpus= in APPEND.
guest_online() {
	sed -n 's/.*@@VM-READY@@ .* \([0-9]*\) CPUs online.*/\1/p' "$rundir/console.log" | head -n 1
}
if [ "$results" != - ]; then
	mkdir -p "$results"
	python3 -c 'import json, sys; k = sys.argv[1::2]; v = sys.argv[2::2]
print(json.dumps({a: (int(b) if b.isdigit() else b) for a, b in zip(k, v)}, indent=1))' \
		arch "$arch" flavor "$flavor" series "$SERIES" patched "$([ -n "$unpatched" ] && echo no || echo yes)" \
		accel "$label" vcpus "$vcpus" maxcpus "$maxcpus" online_cpus "$(guest_online)" possible_cpus "$(guest_possible)" nodes "$nodes" memory "$mem" \
		kernel_release "$(cat "$obj/include/config/kernel.release" 2>/dev/null)" \
		console "${rundir#$TOP/}/console.log" cmd "$cmd" exit "$rc" qemu_exit "$qrc" >"$results/vm.json"
fi
exit "$rc"

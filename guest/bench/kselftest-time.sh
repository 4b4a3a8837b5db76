# SPDX-License-Identifier: GPL-2.0
# The objpool selftest's wall time, as CI runs it: kselftest's own runner
# (/kselftest/run_kselftest.sh -c objpool, what 'make -C
# tools/testing/selftests TARGETS=objpool run_tests' runs, with the
# settings file's timeout) in the guest, with the guest's CPU time beside
# it.  Under TCG the guest clock is the host's: with more vCPUs than host
# cores the wall time is the vCPUs' work shared out over the host's cores,
# so busy_s / vcpus (the work each vCPU did) is what a machine with one
# real CPU per vCPU would take, near enough.
# Prints CSV rows: vcpus,possible,part,start_s,wall_s,busy_s,rc: the
# whole run ('total', with the runner's exit status and the CPU time), then
# its parts, from the markers objpool.sh writes to the kernel log before
# each load (objpool_selftest_PID_N_kunit or _bench), each from its marker
# to the next or to the end ('start_s': since the runner started).
# usage: kselftest-time.sh
up() { cut -d' ' -f1 /proc/uptime; }
# Busy CPU seconds of all CPUs (user nice system irq softirq steal), from
# /proc/stat's jiffies (USER_HZ 100).
busy() { awk '/^cpu / { printf "%.2f", ($2 + $3 + $4 + $7 + $8 + $9) / 100 }' /proc/stat; }
vcpus=$(grep -c '^processor' /proc/cpuinfo)
possible=$(cat /sys/devices/system/cpu/possible)
case $possible in *-*) possible=$((${possible#*-} + 1)) ;; *) possible=1 ;; esac
[ -x /kselftest/run_kselftest.sh ] && [ -d /kselftest/objpool ] ||
	{ echo "no /kselftest/objpool (a kernel without the series' patch 0007)" >&2; exit 1; }
cd /kselftest || exit 1
t0=$(up) b0=$(busy)
# The runner's output (its TAP) goes to stderr, the console.
./run_kselftest.sh -c objpool >&2
rc=$?
t1=$(up) b1=$(busy)
echo "vcpus,possible,part,start_s,wall_s,busy_s,rc"
echo "$vcpus,$possible,total,0.00,$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'),$(awk -v a="$b0" -v b="$b1" 'BEGIN { printf "%.2f", b - a }'),$rc"
# The kernel log's clock and /proc/uptime's are the same clock.
dmesg | sed -n 's/^\[ *\([0-9.]*\)\] objpool_selftest_[0-9]*_\([0-9]*\)_\([a-z]*\)$/\1 \3\2/p' |
	awk -v t0="$t0" -v t1="$t1" -v v="$vcpus" -v p="$possible" '
		{ t[NR] = $1; n[NR] = $2 }
		END { t[NR + 1] = t1
		      for (i = 1; i <= NR; i++)
			printf "%s,%s,%s,%.2f,%.2f,,\n", v, p, n[i], t[i] - t0, t[i + 1] - t[i] }'
exit "$rc"

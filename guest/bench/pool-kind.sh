# SPDX-License-Identifier: GPL-2.0
# Runs a benchmark command and puts, before each of its CSV rows, the kind
# of kretprobe instances of the booted kernel, as its series.env names it
# (SERIES_POOL_KIND, in /guest/arch.env): objpool, the fixed upstream pool;
# rfc-pool, the RFC's pool; kmalloc_nolock, no pool, an allocation on each
# hit.  The kind is checked against the kernel: only the kmalloc_nolock
# kernel has the symbols of that patch.
# Prints CSV: pool,<the command's columns>
# usage: pool-kind.sh CMD...
. /guest/arch.env
pool=$GUEST_POOL_KIND
case $pool in
objpool | rfc-pool | kmalloc_nolock) ;;
*) echo "pool-kind.sh: the series '$GUEST_SERIES' names no pool kind (SERIES_POOL_KIND of its series.env: objpool, rfc-pool or kmalloc_nolock)" >&2; exit 1 ;;
esac
# rethook_put (rethook: x86_64) or put_kretprobe_holder (kprobes: arm64).
nolock=no
grep -qE ' (rethook_put|put_kretprobe_holder)$' /proc/kallsyms && nolock=yes
case $pool,$nolock in
kmalloc_nolock,yes | objpool,no | rfc-pool,no) ;;
*) echo "pool-kind.sh: kernel of base '$GUEST_SERIES', kmalloc_nolock patch's symbols: $nolock; the build is not of its base" >&2; exit 1 ;;
esac
out=$("$@") || exit
head -n 1 <<<"$out" | sed 's/^/pool,/'
tail -n +2 <<<"$out" | sed "s/^/$pool,/"

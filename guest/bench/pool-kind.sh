# SPDX-License-Identifier: GPL-2.0
# Runs a benchmark command and puts, before each of its CSV rows, the kind
# of kretprobe instances of the booted kernel, named from the base kernel
# the build is of (/guest/arch.env): 7.2, the fixed upstream objpool (the
# 7.2 series); 7.2-rfc, the RFC's pool; 7.2-nolock, no pool: kmalloc_nolock()
# on each hit (bench/7.2-nolock).  The kind is checked against the kernel:
# only the kmalloc_nolock kernel has the symbols of that patch.
# Prints CSV: pool,<the command's columns>
# usage: pool-kind.sh CMD...
. /guest/arch.env
case $GUEST_SERIES in
7.2) pool=objpool ;;
7.2-rfc) pool=rfc-pool ;;
7.2-nolock) pool=kmalloc_nolock ;;
*) echo "pool-kind.sh: base kernel '$GUEST_SERIES' is none of 7.2, 7.2-rfc, 7.2-nolock" >&2; exit 1 ;;
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

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Write OBJDIR/kprobe-hit-callees.txt, the functions a kretprobe, rethook
# or fprobe hit can call in OBJDIR's vmlinux (scripts/lib/
# kprobe_hit_callees.py from config/kprobe-hit-roots), which initramfs.sh
# carries to guest/suites/kprobe-safety.sh: the guest has no objdump.
# Where no list applies (an unpatched kernel, a series without roots, no
# kretprobes) the file is one '# skip: REASON' line the suite reports.
# Written again only when the vmlinux, the tool or its tables changed.
# Usage: kprobe-hit-list.sh [--series NAME] ARCH OBJDIR
. "$(dirname "$0")/harness.sh"
arch=$1 obj=$2
use_arch "$arch"
out=$obj/kprobe-hit-callees.txt
tool=$TOP/scripts/lib/kprobe_hit_callees.py
roots=$TOP/config/kprobe-hit-roots harmless=$TOP/config/kprobe-hit-harmless
indirect=$TOP/config/kprobe-hit-indirect
[ -f "$obj/vmlinux" ] || die "no ${obj#$TOP/}/vmlinux; run 'make kernel'"
if [ -f "$out" ] && [ -z "$(find "$obj/vmlinux" "$tool" "$roots" "$harmless" "$indirect" "$0" -newer "$out" | head -n 1)" ]; then
	exit 0
fi
skip() { echo "# skip: $*" >"$out"; exit 0; }
case $obj in *-unpatched) skip "an unpatched kernel: the base's kretprobes have no objpool" ;; esac
awk -v s="$SERIES" '!/^#/ && NF { n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == s) f = 1 } END { exit !f }' "$roots" ||
	skip "series $SERIES has no roots in config/kprobe-hit-roots (its kernel does not carry this project's pool)"
grep -q '^CONFIG_KRETPROBES=y' "$obj/.config" || skip "CONFIG_KRETPROBES is off"
python3 "$tool" --arch "$arch" --series "$SERIES" --roots "$roots" --harmless "$harmless" --indirect "$indirect" \
	--objdump "$(arch_cross)objdump" --nm "$(arch_cross)nm" "$obj/vmlinux" >"$out.tmp" ||
	{ rm -f "$out.tmp"; die "kprobe_hit_callees.py failed on ${obj#$TOP/}/vmlinux (above)"; }
mv "$out.tmp" "$out"

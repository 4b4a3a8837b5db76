#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Does KVM really run an ARCH guest here?  /dev/kvm may exist while a
# nested-virtualization guest hangs silently, so boot KERNEL with a one-line
# init under KVM and wait a few seconds for it.  The answer is cached in
# build/kvm-probe-ARCH (delete it to probe again).  Exit 0: use KVM.
# Usage: kvm-probe.sh ARCH KERNEL
. "$(dirname "$0")/harness.sh"
use_arch "$1"
kernel=$2
cache=$BUILD/kvm-probe-$1
if [ -f "$cache" ]; then [ "$(cat "$cache")" = kvm ]; exit; fi
answer=tcg
busybox=$BUILD/guest-bin/$1/bin/busybox
if [ -w /dev/kvm ] && [ "$(uname -m)" = "$ARCH_UNAME" ] && [ -x "$busybox" ]; then
	tmp=$(mktemp -d)
	mkdir -p "$tmp/root/bin"
	cp "$busybox" "$tmp/root/bin/busybox"
	printf '#!/bin/busybox sh\n/bin/busybox echo KVM-PROBE-OK\n/bin/busybox reboot -f\n' >"$tmp/root/init"
	chmod +x "$tmp/root/init"
	(cd "$tmp/root" && find . | cpio -o -H newc --quiet) >"$tmp/initrd"
	if timeout -k 2 20 "${ARCH_QEMU[@]}" -accel kvm -cpu "$ARCH_QEMU_CPU_KVM" -m 256 -smp 1 \
		-display none -no-reboot -serial stdio -monitor none \
		-kernel "$kernel" -initrd "$tmp/initrd" \
		-append "console=$ARCH_CONSOLE panic=-1" </dev/null 2>/dev/null |
		grep -q KVM-PROBE-OK; then
		answer=kvm
	fi
	rm -rf "$tmp"
fi
echo "$answer" >"$cache"
say "accelerator probe for $1: $answer (cached in ${cache#$TOP/})"
[ "$answer" = kvm ]

#!/usr/bin/env bash
# Does KVM really run an x86_64 guest here?  /dev/kvm may exist while a
# nested-virtualization guest hangs silently, so boot KERNEL with a one-line
# init under KVM and wait a few seconds for it.  The answer is cached in
# build/kvm-probe (delete it to probe again).  Exit 0: use KVM.
. "$(dirname "$0")/lib.sh"
kernel=$1
cache=$BUILD/kvm-probe
if [ -f "$cache" ]; then [ "$(cat "$cache")" = kvm ]; exit; fi
answer=tcg
if [ -w /dev/kvm ] && [ "$(uname -m)" = x86_64 ]; then
	tmp=$(mktemp -d)
	mkdir -p "$tmp/root/bin"
	cp /bin/busybox "$tmp/root/bin/busybox"
	printf '#!/bin/busybox sh\n/bin/busybox echo KVM-PROBE-OK\n/bin/busybox reboot -f\n' >"$tmp/root/init"
	chmod +x "$tmp/root/init"
	(cd "$tmp/root" && find . | cpio -o -H newc --quiet) >"$tmp/initrd"
	if timeout -k 2 20 qemu-system-x86_64 -accel kvm -cpu host -m 256 -smp 1 \
		-display none -no-reboot -serial stdio -monitor none \
		-kernel "$kernel" -initrd "$tmp/initrd" \
		-append "console=ttyS0 panic=-1" </dev/null 2>/dev/null |
		grep -q KVM-PROBE-OK; then
		answer=kvm
	fi
	rm -rf "$tmp"
fi
echo "$answer" >"$cache"
say "accelerator probe: $answer (cached in build/kvm-probe)"
[ "$answer" = kvm ]

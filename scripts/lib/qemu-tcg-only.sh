#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A QEMU that runs its guest under TCG only: linked as qemu-system-ARCH in
# a directory put first on PATH, it runs the next qemu-system-ARCH on PATH
# with its arguments but "-accel kvm".  kunit.py asks for "-accel kvm
# -accel hvf -accel tcg", and QEMU takes KVM wherever /dev/kvm opens, also
# where KVM cannot run the guest (nested virtualization here: an emulation
# failure, then kunit.py's timeout); the readme-kunit gate runs kunit.py
# through it, as on a host without KVM.
# Usage: ln -s .../qemu-tcg-only.sh DIR/qemu-system-ARCH; PATH=DIR:$PATH
# (run as itself, it only answers -h or --help).
self_dir=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$0")
if [ "$name" = qemu-tcg-only.sh ]; then
	case ${1:-} in
	-h|--help) sed -n '3,/^[^#]/{/^#/!d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	esac
	echo "$name: link it as qemu-system-ARCH in a directory first on PATH (see $name --help)" >&2
	exit 2
fi
args=()
while [ $# -gt 0 ]; do
	if [ "$1" = -accel ] && [ "${2:-}" = kvm ]; then
		shift 2
		continue
	fi
	args+=("$1")
	shift
done
PATH=$(tr ':' '\n' <<<"$PATH" | grep -vx "$self_dir" | paste -sd:)
real=$(command -v "$name") || { echo "$name: no $name on PATH but this one; install QEMU (make deps)" >&2; exit 127; }
exec "$real" "${args[@]}"

# SPDX-License-Identifier: GPL-2.0
# Its ARCH_* variables are for lib/harness.sh, which sources it (SC2034).
# shellcheck shell=bash disable=SC2034
# x86_64: every fact the harness needs about one architecture, in one file
# (use_arch of scripts/lib/harness.sh sources it).  docs/harness.md,
# "Extending the harness".

# kbuild's ARCH, uname -m of a host that builds it natively, and the GNU
# triplet of the cross compiler on any other host ("<triplet>-gcc").
ARCH_KBUILD=x86
ARCH_UNAME=x86_64
ARCH_TRIPLET=x86_64-linux-gnu
# Where kbuild leaves the bootable image.
ARCH_IMAGE=arch/x86/boot/bzImage
# Debian's architecture: the guest's static busybox and bash come from its
# packages; the packages below are installed on the host.
ARCH_DEB=amd64
ARCH_QEMU_PACKAGE=qemu-system-x86
ARCH_CROSS_PACKAGES="gcc-x86-64-linux-gnu libc6-dev-amd64-cross"
# QEMU: the program and machine, the CPU under TCG and under KVM (KVM only
# on a host of this arch, and only when scripts/lib/kvm-probe.sh says it works),
# and the serial console the kernel writes to.
ARCH_QEMU=(qemu-system-x86_64 -machine pc)
ARCH_QEMU_CPU_TCG=qemu64
ARCH_QEMU_CPU_KVM=host
ARCH_CONSOLE=ttyS0
# The prefix of system call entry points in /proc/kallsyms (the guest's
# benchmarks probe <prefix>getppid).
# make check's prefix builds on this arch: every patch (all) or the last
# (last); every patch on one arch is enough to bisect, the rest is time.
ARCH_BISECT=all
# 1 when its guests can send NMI IPIs, which the NMI control's stress
# (scripts/lib/nmi-control.sh, make check and make soak) needs.
ARCH_NMI_IPI=1
ARCH_SYSCALL_PREFIX=__x64_sys_

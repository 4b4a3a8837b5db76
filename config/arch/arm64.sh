# SPDX-License-Identifier: GPL-2.0
# Its ARCH_* variables are for lib/harness.sh, which sources it (SC2034).
# shellcheck shell=bash disable=SC2034
# arm64: every fact the harness needs about one architecture, in one file
# (use_arch of scripts/lib/harness.sh sources it).  docs/harness.md,
# "Extending the harness".

# kbuild's ARCH, uname -m of a host that builds it natively, and the GNU
# triplet of the cross compiler on any other host ("<triplet>-gcc").
ARCH_KBUILD=arm64
ARCH_UNAME=aarch64
ARCH_TRIPLET=aarch64-linux-gnu
# Where kbuild leaves the bootable image.
ARCH_IMAGE=arch/arm64/boot/Image
# Debian's architecture: the guest's static busybox and bash come from its
# packages; the packages below are installed on the host.
ARCH_DEB=arm64
ARCH_QEMU_PACKAGE=qemu-system-arm
ARCH_CROSS_PACKAGES="gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
# QEMU: the program and machine (GICv3: more than 8 CPUs), the CPU under
# TCG (pauth-impdef: QEMU's cheap pointer authentication, the architected
# one costs much time under TCG) and under KVM, and the serial console.
ARCH_QEMU=(qemu-system-aarch64 -machine virt,gic-version=3)
ARCH_QEMU_CPU_TCG=max,pauth-impdef=on
ARCH_QEMU_CPU_KVM=host
ARCH_CONSOLE=ttyAMA0
# The prefix of system call entry points in /proc/kallsyms (the guest's
# benchmarks probe <prefix>getppid).
# make check's prefix builds on this arch: every patch (all) or the last
# (last); every patch on one arch is enough to bisect, the rest is time.
ARCH_BISECT=last
# 1 when its guests can send NMI IPIs, which the NMI control's stress
# (scripts/lib/nmi-control.sh, make check and make soak) needs.
ARCH_NMI_IPI=0
ARCH_SYSCALL_PREFIX=__arm64_sys_

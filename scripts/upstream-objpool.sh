#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Prints the directory holding upstream's objpool (include/linux/objpool.h
# and lib/objpool.c of Debian's linux-source-6.12), extracting it into
# build/ on first use. Never committed: the userspace benchmark and the
# NMI positive control build it as a peer at build time.
. "$(dirname "$0")/lib.sh"
up=$BUILD/upstream-objpool
if [ ! -f "$up/lib/objpool.c" ]; then
	tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)
	[ -n "$tarball" ] || die "no /usr/src/linux-source-6.12.tar.*; run 'make deps' (scripts/deps.sh installs linux-source-6.12)"
	mkdir -p "$up"
	tar -xf "$tarball" -C "$up" --strip-components=1 \
		linux-source-6.12/include/linux/objpool.h linux-source-6.12/lib/objpool.c ||
		die "cannot extract upstream's objpool from $tarball"
fi
echo "$up"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Prints the directory holding upstream's objpool (include/linux/objpool.h
# and lib/objpool.c of config/upstream-pool.env's package), extracting it into
# build/ on first use. Never committed: the userspace benchmark and the
# NMI positive control build it as a peer at build time.
. "$(dirname "$0")/harness.sh"
up=$BUILD/upstream-objpool
if [ ! -f "$up/lib/objpool.c" ]; then
	tarball=$UPSTREAM_POOL_TARBALL
	[ -f "$tarball" ] || die "no $tarball; run 'make deps' (it installs $UPSTREAM_POOL_PKG)"
	mkdir -p "$up"
	tar -xf "$tarball" -C "$up" --strip-components=1 --wildcards \
		'*/include/linux/objpool.h' '*/lib/objpool.c' ||
		die "cannot extract upstream's objpool from $tarball"
fi
echo "$up"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make clean [SERIES_LIST=...]: remove the kernel builds of every series, or
# of the series named (each series' object directories ARCH-FLAVOR[-unpatched],
# where its prefix builds are too, about 0.2 GB each, and make mail's
# clone, b4-tree, 1.5 GB: mail.sh makes it again), keeping the trees, the
# guest userspace and ccache.  make check calls it for each series once that
# series' steps are done when PRUNE=1 (CI's default: its disk is shared).
. "$(dirname "$0")/lib/harness.sh"
case ${1:-} in -h|--help) echo "usage: clean.sh [SERIES...] (default: every series)"; exit 0 ;; esac
[ $# -gt 0 ] || set -- $(valid_series)
for b; do
	[ -f "$(series_env "$b")" ] || die "unknown series '$b'; valid: $(valid_series)"
	w=$(series_work "$b")
	rm -rf "$w/b4-tree"
	for a in $(valid_arches); do
		for f in $(valid_flavors); do
			rm -rf "$w/$a-$f" "$w/$a-$f-unpatched"
		done
	done
done

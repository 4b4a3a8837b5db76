#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make clean: remove the kernel builds of every series (each series' object
# directories ARCH-FLAVOR[-base] and its prefix builds), keeping the trees,
# the guest userspace and ccache.
. "$(dirname "$0")/lib.sh"
for b in $(valid_bases); do
	w=$(base_work "$b")
	for a in $(valid_arches); do
		for f in $(valid_flavors); do
			rm -rf "$w/$a-$f" "$w/$a-$f-base"
		done
	done
	rm -rf "$w"/bisect-*
done

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-bisect: build every prefix of the series (base+1 .. HEAD) for
# each arch, incrementally in one worktree per arch, so that each patch is
# known to build on its own.  Writes <work>/check-bisect.txt.
# ARCHES limits the arches (default: every arch of config/arch/); BISECT_FROM=N
# starts at patch N (default 1), e.g. to resume a run that was cut short.
. "$(dirname "$0")/lib.sh"
log=$WORK/check-bisect.txt
status=0
from=${BISECT_FROM:-1}
case $from in ''|0|*[!0-9]*) die "BISECT_FROM must be a patch number from 1, not '$from'" ;; esac
commits=$(git -C "$TREE" rev-list --reverse base..HEAD | tail -n +"$from")
[ -n "$commits" ] || die "no patch $from in the series; nothing to bisect"
: >"$log"
for arch in ${ARCHES:-$(valid_arches)}; do
	use_arch "$arch"
	wt=$WORK/bisect-src
	[ -d "$wt" ] || git -C "$TREE" worktree add -q --detach "$wt" base || exit
	obj=$WORK/bisect-$arch
	mkdir -p "$obj"
	config=$(objdir "$arch" test)/.config
	# The test flavor's config; generating it needs no kernel build.
	[ -f "$config" ] || "$TOP/scripts/kconfig.sh" "$arch" test "$TREE" "$(objdir "$arch" test)" || exit
	for c in $commits; do
		git -C "$wt" checkout -q --detach "$c" || exit
		# The full config each time: olddefconfig on an early patch drops
		# the options of later ones (the objpool tests), which would then
		# never be built.
		cp "$config" "$obj/.config"
		subject=$(git -C "$wt" log -1 --format=%s)
		if kmake "$wt" "$obj" -s -j"$(nproc)" olddefconfig all >"$obj/build.log" 2>&1; then
			echo "ok   $arch $subject" | tee -a "$log"
		else
			echo "FAIL $arch $subject (log: ${obj#$TOP/}/build.log)" | tee -a "$log"
			status=1
			break
		fi
	done
done
exit $status

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Generate OBJDIR/.config for ARCH and FLAVOR: tinyconfig, then the flavor's
# fragments (config/flavors), then olddefconfig; fail naming every option a
# fragment asked for that did not land (a dependency was missing).
# On an unpatched tree (the base worktree, or a base whose series is still
# empty), options its Kconfig does not define (the series adds them) are
# not required.
# Usage: kconfig.sh ARCH FLAVOR SRCDIR OBJDIR
. "$(dirname "$0")/harness.sh"
arch=$1 flavor=$2 src=$3 obj=$4
unpatched=
unpatched "$src" && unpatched=1
use_arch "$arch"

frags=$(fragments "$arch" "$flavor") || exit

mkdir -p "$obj"
kmake "$src" "$obj" -s tinyconfig >/dev/null || die "tinyconfig failed for $arch"
# shellcheck disable=SC2086
(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags) \
	>"$obj/merge.log" 2>&1 || die "merging fragments failed; see $obj/merge.log"
kmake "$src" "$obj" -s olddefconfig >>"$obj/merge.log" 2>&1 || die "olddefconfig failed for $arch; see $obj/merge.log"

# Every request of a fragment must hold in the final .config, the last
# fragment's where several set one option (as merge_config.sh merges
# them: bench512 raises common's CONFIG_NR_CPUS).
declare -A want_of from_of
opts=()
for f in $frags; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) want=$line ;;
		"# CONFIG_"*" is not set") want=$line ;;
		*) continue ;;
		esac
		opt=${want#\# }; opt=${opt%%[= ]*}
		[ -n "${want_of[$opt]+set}" ] || opts+=("$opt")
		want_of[$opt]=$want from_of[$opt]=${f##*/}
	done <"$f"
done
bad=
for opt in "${opts[@]}"; do
	want=${want_of[$opt]}
	if [ -n "$unpatched" ] && ! grep -rqx --include='Kconfig*' "config ${opt#CONFIG_}" "$src"; then
		continue
	fi
	got=$(grep -E "^(# )?${opt}[= ]" "$obj/.config" || echo "# $opt is not set")
	[ "$got" = "$want" ] || bad="$bad
  ${from_of[$opt]}: wanted '$want', got '$got'"
done
[ -z "$bad" ] || die "options that did not land in $obj/.config (a dependency is missing):$bad"
config_stamp "$arch" "$flavor" "$src" >"$obj/.fragments"

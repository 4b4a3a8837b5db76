#!/usr/bin/env bash
# Write base..HEAD of build/linux as format-patch files into DIR.
# Deterministic: no commit ids, no signature, fixed subject prefix.
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: export-series.sh DIR}
git -C "$TREE" rev-parse -q --verify base >/dev/null ||
	die "build/linux has no 'base' tag; run 'make tree' first"
mkdir -p "$dir"
git -C "$TREE" format-patch -q --zero-commit --no-signature --no-stat \
	--stat=80 --subject-prefix=PATCH -o "$dir" base..HEAD

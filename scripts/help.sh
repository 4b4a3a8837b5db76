#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make help: the targets of the Makefile with their '##' descriptions, then
# its variables (the '# NAME  text' lines under '##@ Variables'), then the
# defaults of config/defaults.env.
# Usage: help.sh MAKEFILE
case ${1:-} in -h|--help) sed -n '3,6s/^# //p' "$0"; exit 0 ;; esac
awk '
	/^##@ / { sub(/^##@ /, ""); printf "\n%s\n", $0; vars = !/Targets/; next }
	vars && /^# / { sub(/^# /, "  "); print; next }
	/^[a-z-]+:.*## / {
		name = $0; sub(/:.*/, "", name)
		text = $0; sub(/.*## /, "", text)
		printf "  %-16s %s\n", name, text
	}' "$1"
printf '\nDefaults (config/defaults.env)\n'
grep -E '^[A-Z_]+=' "$(dirname "$0")/../config/defaults.env" | sed 's/^/  /'

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make help: the targets of the Makefile with their '##' descriptions, then
# its variables (the '# NAME  text' lines under '##@ Variables').
# Usage: help.sh MAKEFILE
case ${1:-} in -h|--help) sed -n '3,5s/^# //p' "$0"; exit 0 ;; esac
awk '
	/^##@ / { sub(/^##@ /, ""); printf "\n%s\n", $0; vars = !/Targets/; next }
	vars && /^# / { sub(/^# /, "  "); print; next }
	/^[a-z-]+:.*## / {
		name = $0; sub(/:.*/, "", name)
		text = $0; sub(/.*## /, "", text)
		printf "  %-14s %s\n", name, text
	}' "$1"

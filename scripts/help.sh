#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make help: the targets of the Makefile with their '##' descriptions, then
# its variables (the '# NAME  text' lines under '##@ Variables').
# Usage: help.sh MAKEFILE
awk '
	/^##@ / { sub(/^##@ /, ""); printf "\n%s\n", $0; vars = !/Targets/; next }
	vars && /^# / { sub(/^# /, "  "); print; next }
	/^[a-z-]+:.*## / {
		name = $0; sub(/:.*/, "", name)
		text = $0; sub(/.*## /, "", text)
		printf "  %-14s %s\n", name, text
	}' "$1"

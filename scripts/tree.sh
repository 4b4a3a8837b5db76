#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make tree: unpack the base kernel of the series (SERIES, its series.env) into its
# tree (build/SERIES/linux), commit it as tag 'base', apply its patches.
# Quick when the tree is already at the series.
. "$(dirname "$0")/lib/harness.sh"
env=$(series_env "$SERIES") env=${env#$TOP/}
t=${TREE#$TOP/} p=${PATCHES#$TOP/}

if [ -n "${SERIES_BASE_SUITE:-}" ]; then
	# Downloaded and unpacked by deps.sh, not installed (series-7.2/series.env).
	[ -f "$SERIES_BASE_TARBALL" ] ||
		die "$SERIES_BASE_TARBALL is missing; run 'make deps' (it fetches $SERIES_BASE_PKG $SERIES_BASE_VERSION from $SERIES_BASE_SUITE)"
	installed=$SERIES_BASE_VERSION
else
	installed=$(dpkg-query -W -f '${Version}' "$SERIES_BASE_PKG" 2>/dev/null) ||
		die "$SERIES_BASE_PKG is not installed; run 'make deps' (or apt-get install $SERIES_BASE_PKG)"
fi
[ "$installed" = "$SERIES_BASE_VERSION" ] ||
	warn "$SERIES_BASE_PKG $installed is installed but the series was made on $SERIES_BASE_VERSION ($env); going on as long as the series applies"

series() { ls "${1:-$PATCHES}"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '/0000-'; }

# A series on top of another series (SERIES_PARENT, series-7.2-rfc/series.env):
# its 'base' is the parent's base with the parent's patches applied, so its
# own series is exported and mailed on its own.  parent_stamp says which
# parent series the tree was made with; a tree made with another is made
# anew, unless it holds commits not exported yet.
parent_patches() { (. "$(series_env "$SERIES_PARENT")" && echo "$TOP/$SERIES_PATCHES"); }
parent_stamp() { [ -z "${SERIES_PARENT:-}" ] || cat $(series "$(parent_patches)") | sha256sum; }
if [ -n "${SERIES_PARENT:-}" ] && git -C "$TREE" rev-parse -q --verify base >/dev/null 2>&1 &&
   [ "$(cat "$TREE/.git/parent-stamp" 2>/dev/null)" != "$(parent_stamp)" ]; then
	[ "$(git -C "$TREE" rev-list --count base..HEAD)" = 0 ] ||
		"$TOP/scripts/check-series.sh" --quiet --patches ||
		die "the $SERIES_PARENT series changed under $t, which has commits not in $p/; export them with 'make series SERIES=$SERIES' first"
	say "the $SERIES_PARENT series changed: making $t anew"
	rm -rf "$TREE"
fi

if ! git -C "$TREE" rev-parse -q --verify base >/dev/null 2>&1; then
	[ -f "$SERIES_BASE_TARBALL" ] || die "$SERIES_BASE_TARBALL is missing; reinstall $SERIES_BASE_PKG"
	if [ "$installed" = "$SERIES_BASE_VERSION" ]; then
		say "verifying $SERIES_BASE_TARBALL"
		echo "$SERIES_BASE_SHA256  $SERIES_BASE_TARBALL" | sha256sum -c --quiet ||
			die "$SERIES_BASE_TARBALL does not match SERIES_BASE_SHA256 in $env"
	fi
	say "unpacking $SERIES_BASE_PKG $installed into $TREE"
	rm -rf "$TREE" && mkdir -p "$TREE"
	tar -xJf "$SERIES_BASE_TARBALL" -C "$TREE" --strip-components=1
	cd "$TREE" || die "cannot enter $TREE"
	git init -q -b work
	git config core.autocrlf false
	git config gc.auto 0
	git add -A -f .
	GIT_AUTHOR_DATE=$FIXED_DATE GIT_COMMITTER_DATE=$FIXED_DATE \
		git commit -q -m "$SERIES_BASE_PKG $installed" --no-verify
	if [ -n "${SERIES_PARENT:-}" ]; then
		git tag "$SERIES_PARENT"
		for p in $(series "$(parent_patches)"); do
			GIT_COMMITTER_DATE=$FIXED_DATE git_plain am -q --committer-date-is-author-date "$p" ||
				die "the $SERIES_PARENT series ($(basename "$p")) does not apply to $SERIES_BASE_PKG"
		done
		parent_stamp >.git/parent-stamp
	fi
	git tag base
	cd "$TOP" || exit
fi

cd "$TREE" || die "cannot enter $TREE"
# Commits made by hand in the tree get the project's identity too (make
# series would put it on them anyway; make mail puts the sender's).
git config user.name "$PROJECT_NAME"
git config user.email "$PROJECT_EMAIL"
# Already current: the tree holds exactly the series on top of base.
if [ -z "$(git status --porcelain --untracked-files=no)" ] &&
   { [ "$(cat .git/series-stamp 2>/dev/null)" = "$(series_stamp)" ] ||
     "$TOP/scripts/check-series.sh" --quiet --patches; }; then
	say "$t is current ($(git rev-list --count base..HEAD) patches on base)"
	exit 0
fi
if [ "$(git rev-list --count base..HEAD)" != 0 ]; then
	die "$t has commits that differ from $p/; export them with 'make series' or drop them with 'git -C $t reset --hard base'"
fi
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "$t has uncommitted changes on base; commit or discard them first"

for p in $(series); do
	GIT_COMMITTER_DATE=$FIXED_DATE git_plain am -q --committer-date-is-author-date "$p" 2>/tmp/am.$$ || {
		files=$(sed -n 's/^error: patch failed: \(.*\):[0-9]*$/\1/p; s/^error: \(.*\): does not exist in index$/\1/p' /tmp/am.$$ | sort -u | tr '\n' ' ')
		git am --abort
		cat /tmp/am.$$ >&2; rm -f /tmp/am.$$
		die "patch $(basename "$p") does not apply to the base (files: ${files:-see above})"
	}
done
rm -f /tmp/am.$$
say "$t: $(git rev-list --count base..HEAD) patches applied on base"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# restamp-commits.sh REPO NAME EMAIL [--sign] [--maintainer]: write a copy of the
# commits base..HEAD of REPO whose author and committer are NAME <EMAIL>,
# with every Signed-off-by line of their messages removed, and print the
# copy's head (REPO's branches are left alone).  The author dates are kept;
# the committer date is FIXED_DATE, so the same input gives the same commits.
#  --sign        add "Signed-off-by: NAME <EMAIL>" to every message;
#  --maintainer  where MAINTAINERS has the OBJPOOL entry without an M: line,
#                insert "M: NAME <EMAIL>" under its title; an M: line that
#                is a placeholder (identity_problem) is an error.
# make series uses it with the project's identity, make mail with the
# sender's (scripts/lib/export-patches.sh, scripts/mail.sh).
. "$(dirname "$0")/harness.sh"
repo=${1:?usage: restamp-commits.sh REPO NAME EMAIL [--sign] [--maintainer]}
name=${2:?} email=${3:?}
shift 3
sign= maint=
for a; do case $a in --sign) sign=1 ;; --maintainer) maint=1 ;;
	*) die "unknown option $a" ;; esac; done
cd "$repo" || exit 1
[ -z "$(git rev-list --merges base..HEAD)" ] ||
	die "base..HEAD of $repo has merge commits; the series must be linear"
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
export GIT_COMMITTER_DATE=$FIXED_DATE

# The OBJPOOL entry's M: lines in MAINTAINERS blob $1.
entry_maintainers() {
	git cat-file blob "$1" |
		awk '$0 == "OBJPOOL" { e = 1; next } e && /^$/ { exit } e && /^M:/'
}

# The tree of commit $1 with the M: line stamped into the OBJPOOL entry.
stamped_tree() {
	local tree blob new m why ms
	tree=$(git rev-parse "$1^{tree}")
	blob=$(git rev-parse -q --verify "$1:MAINTAINERS") &&
	git cat-file blob "$blob" | grep -qx 'OBJPOOL' || { echo "$tree"; return; }
	ms=$(entry_maintainers "$blob")
	if [ -n "$ms" ]; then
		# Already named: each must be a person.
		while IFS= read -r m; do
			m=$(sed 's/^M:[[:space:]]*//' <<<"$m")
			why=$(identity_problem "${m% <*}" "$(sed 's/.*<\(.*\)>.*/\1/' <<<"$m")") ||
				die "the OBJPOOL entry of MAINTAINERS (patch 1) has 'M: $m': $why; remove that line from patch 1 (make mail adds the sender's)"
		done <<<"$ms"
		echo "$tree"
		return
	fi
	new=$(git cat-file blob "$blob" |
		awk -v m="M:	$name <$email>" '{ print } $0 == "OBJPOOL" { print m }' |
		git hash-object -w --stdin)
	# MAINTAINERS is at the top: only the root tree changes.
	git ls-tree "$tree" | awk -v b="$new" -F '\t' \
		'$2 == "MAINTAINERS" { sub(/ [0-9a-f]+$/, " " b, $1) } { print $1 "\t" $2 }' |
		git mktree
}

head=$(git rev-parse base)
for c in $(git rev-list --reverse base..HEAD); do
	tree=$(git rev-parse "$c^{tree}")
	[ -z "$maint" ] || tree=$(stamped_tree "$c") || exit
	msg=$(git log -1 --format=%B "$c" | grep -v '^Signed-off-by:' | git stripspace)
	[ -z "$sign" ] ||
		msg=$(printf '%s\n' "$msg" |
			git_plain interpret-trailers --trailer "Signed-off-by: $name <$email>")
	head=$(printf '%s\n' "$msg" |
		GIT_AUTHOR_DATE=$(git log -1 --format=%ad --date=raw "$c") \
		git_plain commit-tree --no-gpg-sign "$tree" -p "$head") || exit
done
echo "$head"

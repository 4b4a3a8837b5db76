#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make mail: the series as mail-ready messages, written by b4 (Debian's
# package) into build/SERIES/mail/ and never sent.  The sender is the user's own
# git identity (git config user.name, user.email): it becomes the author
# and From: of every patch, every patch gets the sender's Signed-off-by
# (the sender certifies the DCO), and an OBJPOOL entry of MAINTAINERS
# that names no maintainer would get "M: sender" (scripts/lib/restamp-commits.sh; the
# 6.1 series lists its files under KPROBES instead, so it has none).  The patches carry the project's identity and no Signed-off-by
# (make series); an unset or placeholder sender is refused (lib/harness.sh,
# identity_problem).  b4 takes the stamped commits, the cover letter of
# the series' 0000-cover-letter.patch and the recipients the tree's
# scripts/get_maintainer.pl names for them (b4 prep --auto-to-cc), in a
# shared clone, WORK/b4-tree, so the series' tree is left as it is.  Sending is
# b4 send (with a signing key from 'patatt genkey') from build/SERIES/b4-tree, or
# git send-email build/SERIES/mail/*.
# MAIL_TEST_SENDER=1 (the mail gate, when no sender is configured): the
# fixed test sender of lib/harness.sh instead, into build/SERIES/mail-check/; those
# messages are undeliverable (.invalid) and only show that the series mails.
. "$(dirname "$0")/lib/harness.sh"
work=$WORK/b4-tree out=$WORK/mail cover=$PATCHES/0000-cover-letter.patch
command -v b4 >/dev/null || die "b4 is not installed; run 'make deps'"
git -C "$TREE" rev-parse -q --verify base >/dev/null ||
	die "no series tree in ${TREE#$TOP/}; run 'make tree SERIES=$SERIES'"
[ -f "$cover" ] || die "no $cover; run 'make series'"

if [ -n "${MAIL_TEST_SENDER:-}" ]; then
	name=$MAIL_TEST_NAME email=$MAIL_TEST_EMAIL out=$WORK/mail-check
else
	name=$(git -C "$TOP" config user.name) email=$(git -C "$TOP" config user.email)
	why=$(identity_problem "$name" "$email") || die "$why.
  make mail sends as you and signs every patch off in your name
  (Signed-off-by certifies the Developer's Certificate of Origin,
  Documentation/process/submitting-patches.rst), so it needs your own
  name and address, not a placeholder (the rule: README.md, 'Submitting
  the series').  Now: user.name='$name' user.email='$email'.  Set them:
    git config --global user.name \"Your Name\"
    git config --global user.email \"you@your.mail.domain\"
  then run 'make mail' again."
fi
# b4 makes the cover letter commit with these.
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email

rm -rf "$work" "$out"
git clone -q -n --shared "$TREE" "$work" || die "cannot clone ${TREE#$TOP/}"
head=$("$TOP/scripts/lib/restamp-commits.sh" "$work" "$name" "$email" --sign --maintainer) ||
	die "cannot stamp the series with $name <$email> (see above)"
cd "$work" || exit 1
git checkout -q -b objpool "$head"
git config user.name "$name"
git config user.email "$email"
# b4 send -o only writes the messages; an SMTP setting keeps b4 from
# asking for its web endpoint, which would need a signing key.
git config sendemail.smtpserver /bin/false

# The cover letter: subject without the [PATCH 00/N] prefix, unfolded,
# then the body up to the shortlog, which b4 writes again itself.
awk '!body && sub(/^Subject: \[[A-Z ]*PATCH [0-9]+\/[0-9]+\] /, "") { subject = $0; next }
     !body && subject != "" && /^[ \t]/ { sub(/^[ \t]+/, " "); subject = subject $0; next }
     !body && subject != "" { print subject; print ""; subject = "" }
     !body && /^$/ { body = 1; next }
     body && /^[^ ].* \([0-9]+\):$/ { exit }
     body' "$cover" >"$WORK/b4-cover.txt"
printf '#!/bin/sh\ncp "%s" "$1"\n' "$WORK/b4-cover.txt" >"$WORK/b4-editor.sh"
chmod +x "$WORK/b4-editor.sh"

{
	b4 prep --enroll base &&
	# An RFC series (SERIES_SUBJECT_PREFIX "RFC PATCH"): b4's RFC prefix.
	case ${SERIES_SUBJECT_PREFIX:-PATCH} in RFC*) b4 prep --set-prefixes RFC ;; esac &&
	EDITOR=$WORK/b4-editor.sh b4 prep --edit-cover &&
	b4 prep --auto-to-cc &&
	b4 send --no-sign -o "$out"
} >"$WORK/b4.log" 2>&1 || die "b4 failed; see ${WORK#$TOP/}/b4.log"
say "$(find "$out" -name '*.eml' | wc -l) messages from $name <$email> in ${out#"$TOP"/}/"
# get_maintainer.pl Cc's the author and signers of each commit a Fixes:
# trailer names, looked up in the tree's history; a base from a source
# package has none, so say whom it could not add (a mainline clone's
# get_maintainer.pl on the messages names them).
for id in $(sed -n 's/^Fixes: \([0-9a-f]\{12,40\}\) .*/\1/p' "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch | sort -u); do
	git -C "$TREE" cat-file -e "$id^{commit}" 2>/dev/null ||
		say "not in the recipients: the author and signers of $id (Fixes:), which a tree without history cannot look up; run get_maintainer.pl on the messages in a mainline clone"
done
# A series on top of this one (SERIES_PARENT, the 7.2 RFC on the 7.2 fix)
# is mailed on its own, after this one: make mail SERIES=7.2 writes
# both, each into its own build directory.
[ -n "${MAIL_TEST_SENDER:-}" ] && exit 0
for b in $(checked_series); do
	grep -qx "SERIES_PARENT=$SERIES" "$(series_env "$b")" || continue
	say "the $b series, on top of this one"
	"$TOP/scripts/tree.sh" --series "$b" && "$TOP/scripts/mail.sh" --series "$b" || exit
done

#!/usr/bin/env bash
# make mail: the series as mail-ready messages, written by b4 (Debian's
# package) into build/mail/ and never sent. b4 takes the commits of
# build/linux (base..HEAD), the cover letter of patches/0000-cover-letter.patch
# and the recipients the tree's scripts/get_maintainer.pl names for them
# (b4 prep --auto-to-cc). It works on a shared clone, build/b4-tree, so
# build/linux is left as it is. Sending is b4 send (with a signing key
# from 'patatt genkey') from build/b4-tree, or git send-email build/mail/*.
. "$(dirname "$0")/lib.sh"
work=$BUILD/b4-tree out=$BUILD/mail cover=$TOP/patches/0000-cover-letter.patch
command -v b4 >/dev/null || die "b4 is not installed; run 'make deps'"
git -C "$TREE" rev-parse -q --verify base >/dev/null ||
	die "no series tree in build/linux; run 'make tree'"
[ -f "$cover" ] || die "no $cover; run 'make series'"

rm -rf "$work" "$out"
git clone -q --shared "$TREE" "$work" || die "cannot clone build/linux"
cd "$work" || exit 1
git checkout -q -b objpool
git config user.name "$GIT_AUTHOR_NAME"
git config user.email "$GIT_AUTHOR_EMAIL"
# b4 send -o only writes the messages; an SMTP setting keeps b4 from
# asking for its web endpoint, which would need a signing key.
git config sendemail.smtpserver /bin/false

# The cover letter: subject without the [PATCH 00/N] prefix, then the
# body up to the shortlog, which b4 writes again itself.
awk '!body && sub(/^Subject: \[PATCH [0-9]+\/[0-9]+\] /, "") { print; print "" }
     !body && /^$/ { body = 1; next }
     body && /^[^ ].* \([0-9]+\):$/ { exit }
     body' "$cover" >"$BUILD/b4-cover.txt"
printf '#!/bin/sh\ncp "%s" "$1"\n' "$BUILD/b4-cover.txt" >"$BUILD/b4-editor.sh"
chmod +x "$BUILD/b4-editor.sh"

{
	b4 prep --enroll base &&
	EDITOR=$BUILD/b4-editor.sh b4 prep --edit-cover &&
	b4 prep --auto-to-cc &&
	b4 send --no-sign -o "$out"
} >"$BUILD/b4.log" 2>&1 || die "b4 failed; see build/b4.log"
say "$(find "$out" -name '*.eml' | wc -l) messages in build/mail/"

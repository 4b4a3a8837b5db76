#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: b4 can make the mail-ready series from the series' tree (scripts/mail.sh),
# stamped with the sender's identity:
#  1. it writes one message per patch of the series plus the cover letter;
#  2. each message carries its commit's change, and the stamping changed
#     nothing in the tree but, where an OBJPOOL entry names no maintainer,
#     the sender's M: line in it;
#  3. each message has recipients, from the tree's get_maintainer.pl;
#  4. each message is From: the sender, each patch's last Signed-off-by is
#     the sender's;
#  5. no message names the project's identity or another placeholder
#     (From:, Signed-off-by:, M: lines);
#  6. make mail refuses an unset and a placeholder sender, saying what to
#     set (the positive control of the check that keeps 4 and 5 true).
# The sender is the user's git config user.name/user.email when they pass
# identity_problem (lib/harness.sh); otherwise (a CI machine) the fixed test sender
# of lib/harness.sh, into build/SERIES/mail-check/, and the TAP says so.
. "$(dirname "$0")/../lib/harness.sh"
echo "TAP version 13"
echo "1..6"
name=$(git -C "$TOP" config user.name) email=$(git -C "$TOP" config user.email)
out=$WORK/mail test=
if why=$(identity_problem "$name" "$email"); then
	echo "# sender: $name <$email> (git config)"
else
	name=$MAIL_TEST_NAME email=$MAIL_TEST_EMAIL out=$WORK/mail-check test=1
	echo "# sender: the test sender $name <$email>: no usable git identity here ($why)"
fi
sender="$name <$email>"

# 6 first: it must not disturb what the others check.
refused=
refusal() {	# NAME EMAIL: mail.sh must refuse them and say what to set
	local msg
	msg=$(env -u MAIL_TEST_SENDER GIT_CONFIG_COUNT=2 \
		GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="$1" \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$2" \
		"$TOP/scripts/mail.sh" 2>&1) && { refused="$refused [$1 <$2>: accepted]"; return; }
	grep -q 'git config --global user.email' <<<"$msg" ||
		refused="$refused [$1 <$2>: refused without saying what to set: $(head -1 <<<"$msg")]"
}
refusal "" ""
refusal "$name" someone@example.org

if ! MAIL_TEST_SENDER=$test "$TOP/scripts/mail.sh" 2>"$WORK/mail-gate.log"; then
	for c in messages same-changes recipients sender no-placeholder; do
		echo "not ok - $c"
	done
	sed 's/^/# /' "$WORK/mail-gate.log"
else
	mails=("$out"/*.eml)
	patches=("$PATCHES"/*.patch)
	if [ "${#mails[@]}" = "${#patches[@]}" ]; then
		echo "ok 1 - messages: ${#mails[@]} for ${#patches[@]} files in ${PATCHES#$TOP/}/"
	else
		echo "not ok 1 - messages: ${#mails[@]} for ${#patches[@]} files in ${PATCHES#$TOP/}/"
	fi

	# 2. The same commits mail.sh stamped (restamp-commits.sh is deterministic).
	stamped=$("$TOP/scripts/lib/restamp-commits.sh" "$TREE" "$name" "$email" --sign --maintainer)
	mapfile -t commits < <(git -C "$TREE" rev-list --reverse "base..$stamped")
	differ=
	for i in "${!patches[@]}"; do
		[ "$i" = 0 ] && continue	# the cover letter has no change
		a=$(git -C "$TREE" diff-tree -p "${commits[$((i - 1))]:-none}" 2>/dev/null |
			git patch-id --stable | cut -d' ' -f1)
		b=$(git patch-id --stable <"${mails[$i]:-/dev/null}" | cut -d' ' -f1)
		[ -n "$a" ] && [ "$a" = "$b" ] || differ="$differ ${patches[$i]##*/}"
	done
	extra=$(git -C "$TREE" diff HEAD "$stamped" | grep '^[-+][^-+]' | grep -vxF "+M:	$sender")
	if [ -z "$differ" ] && [ -z "$extra" ]; then
		echo "ok 2 - same-changes: every message carries its patch's change, plus the sender's M: line"
	else
		echo "not ok 2 - same-changes"
		[ -z "$differ" ] || echo "# the messages differ from:$differ (run make series?)"
		[ -z "$extra" ] || echo "$extra" | sed 's/^/# stamping changed: /'
	fi

	norcpt=
	for m in "${mails[@]}"; do
		grep -q '^To: .*@' "$m" || norcpt="$norcpt ${m##*/}"
	done
	if [ -z "$norcpt" ]; then
		echo "ok 3 - recipients: every message has a To: line"
	else
		echo "not ok 3 - recipients"
		echo "# no recipients in:$norcpt"
	fi

	# 4 and 5: decoded headers and trailers, one line per finding.
	found=$(python3 - "$sender" "${mails[@]}" <<-'EOF'
	import email, email.policy, re, sys
	sender, files = sys.argv[1], sys.argv[2:]
	for i, f in enumerate(files):
	    m = email.message_from_binary_file(open(f, 'rb'), policy=email.policy.default)
	    frm = str(m['From'])
	    body = m.get_body().get_content() if m.get_body() else ''
	    head = body.split('\n---\n')[0]
	    sobs = re.findall(r'^Signed-off-by: (.*)$', head, flags=re.M)
	    if frm != sender:
	        print(f'4\t{f.rsplit("/", 1)[1]}: From: {frm}')
	    if i > 0 and (not sobs or sobs[-1] != sender):
	        print(f'4\t{f.rsplit("/", 1)[1]}: last Signed-off-by: {sobs[-1] if sobs else "none"}')
	    for who in [frm] + sobs + re.findall(r'^[+ ]?M:\s+(.*)$', body, flags=re.M):
	        print(f'5?\t{f.rsplit("/", 1)[1]}\t{who}')
	EOF
	)
	bad4=$(grep '^4	' <<<"$found" | cut -f2-)
	if [ -z "$bad4" ]; then
		echo "ok 4 - sender: every message is From: $sender, every patch signed off by it"
	else
		echo "not ok 4 - sender: $sender"
		echo "$bad4" | sed 's/^/# /'
	fi
	bad5=$(grep -il -F "$PROJECT_EMAIL" "${mails[@]}" | sed 's|.*/||; s/$/: the project address/')
	while IFS=$'\t' read -r _ f who; do
		[ -n "$who" ] && [ "$who" != "$sender" ] || continue
		w=$(identity_problem "${who% <*}" "$(sed 's/.*<\(.*\)>.*/\1/' <<<"$who")") ||
			bad5="$bad5${bad5:+$'\n'}$f: $w"
	done < <(grep '^5?' <<<"$found")
	if [ -z "$bad5" ]; then
		echo "ok 5 - no-placeholder: no project identity or placeholder in From:, Signed-off-by: or M: lines"
	else
		echo "not ok 5 - no-placeholder"
		sort -u <<<"$bad5" | sed 's/^/# /'
	fi
fi

if [ -z "$refused" ]; then
	echo "ok 6 - refusal: make mail refuses an unset and an example.org sender and says what to set"
else
	echo "not ok 6 - refusal"
	echo "#$refused"
fi

#!/usr/bin/env bash
# TAP: b4 can make the mail-ready series from build/linux (scripts/mail.sh):
#  1. it writes one message per patch of patches/ plus the cover letter;
#  2. each message carries the same change as its patch (git patch-id);
#  3. each message has recipients, from the tree's get_maintainer.pl.
. "$(dirname "$0")/../lib.sh"
echo "TAP version 13"
echo "1..3"
if ! "$TOP/scripts/mail.sh" 2>"$BUILD/mail-gate.log"; then
	for c in messages same-changes recipients; do
		echo "not ok - $c"
	done
	sed 's/^/# /' "$BUILD/mail-gate.log"
	exit 0
fi
mails=("$BUILD"/mail/*.eml)
patches=("$TOP"/patches/*.patch)
if [ "${#mails[@]}" = "${#patches[@]}" ]; then
	echo "ok 1 - messages: ${#mails[@]} for ${#patches[@]} files in patches/"
else
	echo "not ok 1 - messages: ${#mails[@]} for ${#patches[@]} files in patches/"
fi
differ=
for i in "${!patches[@]}"; do
	[ "$i" = 0 ] && continue	# the cover letter has no change
	a=$(git patch-id --stable <"${patches[$i]}" | cut -d' ' -f1)
	b=$(git patch-id --stable <"${mails[$i]:-/dev/null}" | cut -d' ' -f1)
	[ -n "$a" ] && [ "$a" = "$b" ] || differ="$differ ${patches[$i]##*/}"
done
if [ -z "$differ" ]; then
	echo "ok 2 - same-changes: every message carries its patch's change"
else
	echo "not ok 2 - same-changes"
	echo "# the messages differ from:$differ (run make series?)"
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

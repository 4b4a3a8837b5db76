#!/usr/bin/env bash
# TAP: the files this series shares with another base's series
# (BASE_SHARED_FILES of config/base/*.env) are the same at the head of both
# trees, so that the pool does not fork.  One case per file or directory;
# none when the base shares nothing.
. "$(dirname "$0")/../lib.sh"
set -- ${BASE_SHARED_FILES:-}
echo "TAP version 13"
echo "1..$#"
[ $# = 0 ] && exit 0
other=$(base_work "$BASE_SHARED_WITH")/linux
n=0
for f; do
	n=$((n + 1))
	if [ ! -e "$other/$f" ]; then
		echo "not ok $n shared/$f # not in ${other#$TOP/}: run 'make tree BASE_KERNEL=$BASE_SHARED_WITH'"
	elif out=$(diff -r "$other/$f" "$TREE/$f" 2>&1); then
		echo "ok $n shared/$f"
	else
		echo "not ok $n shared/$f # differs from ${other#$TOP/}/$f: copy it over and amend the commit that adds it (series-6.12/README)"
		echo "$out" | head -20 | sed 's/^/# /'
	fi
done

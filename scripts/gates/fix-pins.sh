#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the pins of a fix series (7.2, 6.12) catch what they are for.  For
# each EXPECT/pinned-ARCH-FLAVOR.txt of the base (scripts/lib/check-one-series.sh's
# judge() passes it to scripts/lib/ktap.py compare --pinned), a results
# directory is made up with one KTAP file per pinned suite, every case
# ending as pinned; then:
#  - pinned/LABEL/as-pinned: ktap.py compare passes it;
#  - pinned/LABEL/removed/CASE: the same with CASE left out must fail;
#  - pinned/LABEL/skipped/CASE: the same with CASE skipped must fail;
# for every case pinned SUCCESS, so that a reproducer that did not run
# or skipped (no NMI, a stress that fell short, a module not built)
# fails make check.  A base with no pinned file skips, saying so.
. "$(dirname "$0")/../lib/harness.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"
case " ${SERIES_GATES:-} " in
*" fix-pins "*) ;;
*)	echo "1..1"
	echo "ok 1 fix-pins # SKIP a gate of the fix series (SERIES_GATES of 7.2 and 6.12); the $SERIES series' pins have their own checks"
	exit 0 ;;
esac
files=$(ls "$EXPECT"/pinned-*.txt 2>/dev/null)
if [ -z "$files" ]; then
	echo "1..1"
	echo "ok 1 fix-pins # SKIP no ${EXPECT#$TOP/}/pinned-*.txt: the $SERIES series pins nothing"
	exit 0
fi
# make_results PINNED DIR [CASE MODE]: DIR with a KTAP file per suite of
# PINNED, each case as pinned, but CASE dropped (MODE drop) or skipped.
make_results() {
	mkdir -p "$2"
	python3 - "$@" <<'PY'
import os, sys
pinned, out = sys.argv[1], sys.argv[2]
target, mode = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else (None, None)
suites = {}
for line in open(pinned):
    line = line.strip()
    if not line or line.startswith('#'):
        continue
    case, status = line.split()
    if case == target and mode == 'drop':
        continue
    if case == target and mode == 'skip':
        status = 'SKIPPED'
    suite, *path = case.split('/')
    node = suites.setdefault(suite, {})
    for p in path[:-1]:
        node = node.setdefault(p, {})
    node[path[-1]] = status

def emit(tree, depth, lines, name=None):
    """KTAP as KUnit prints it: version, subtest name, plan, results."""
    ind = '    ' * depth
    lines.append(f'{ind}KTAP version 1')
    if name:
        lines.append(f'{ind}# Subtest: {name}')
    lines.append(f'{ind}1..{len(tree)}')
    for n, (child, sub) in enumerate(tree.items(), 1):
        if isinstance(sub, dict):
            emit(sub, depth + 1, lines, child)
            lines.append(f'{ind}ok {n} {child}')
        else:
            skip = ' # SKIP made up by the pin control' if sub == 'SKIPPED' else ''
            lines.append(f'{ind}ok {n} {child}{skip}')

for suite, tree in suites.items():
    lines = []
    emit(tree, 0, lines)
    with open(os.path.join(out, suite + '.tap'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
PY
}
compare() {	# compare PINNED DIR ARCH: ktap.py compare's exit status
	"$TOP/scripts/lib/ktap.py" compare "$2" "$3" --label control --pinned "$1" >"$2.log" 2>&1
}
out=$(
for f in $files; do
	label=$(basename "$f" .txt) label=${label#pinned-} arch=${label%%-*}
	d=$tmp/$label
	make_results "$f" "$d/as-pinned"
	if compare "$f" "$d/as-pinned" "$arch"; then
		echo "ok pinned/$label/as-pinned"
	else
		echo "not ok pinned/$label/as-pinned # ktap.py compare fails a run that ends as pinned: $(tail -n 3 "$d/as-pinned.log" | tr '\n' ' ')"
	fi
	for c in $(awk '!/^#/ && $2 == "SUCCESS" { print $1 }' "$f"); do
		for mode in drop skip; do
			r=$d/$mode-$(echo "$c" | tr '/' '_')
			make_results "$f" "$r" "$c" "$mode"
			if compare "$f" "$r" "$arch"; then
				echo "not ok pinned/$label/$mode/$c # ktap.py compare passed a run where this pinned case $([ $mode = drop ] && echo 'did not run' || echo skipped)"
			else
				echo "ok pinned/$label/$mode/$c # fails, as it must: $(grep -m1 FAILED "$r.log" | sed 's/^ *//')"
			fi
		done
	done
done
)
echo "1..$(grep -c '^\(not \)\{0,1\}ok ' <<<"$out")"
awk '/^(not )?ok / { n++; sub(/^(not )?ok /, "&" n " ") } { print }' <<<"$out"

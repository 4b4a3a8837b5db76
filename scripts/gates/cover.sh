#!/usr/bin/env bash
# TAP: the cover letter cannot drift from results/summary.md.
#  1. every '@@RESULTS <heading>@@' of cover/cover-letter.txt names a section
#     of results/summary.md;
#  2. the subject and body of patches/0000-cover-letter.patch are what
#     scripts/cover-letter.py makes today from cover/cover-letter.txt and
#     results/summary.md (fix: make series, then commit patches/);
#  3. every number written by hand in cover/cover-letter.txt outside the
#     @@RESULTS@@ sections is in results/summary.md or explained in
#     cover/numbers.txt (cited, computed, a version...), and every number
#     explained there is still in the cover text.  A single digit without
#     a unit is a count or an ordinal ("patches 1-3"), not a claim.
. "$(dirname "$0")/../lib.sh"
exec python3 - "$TOP" <<'EOF'
import difflib
import importlib.util
import os
import re
import sys

top = sys.argv[1]
spec = importlib.util.spec_from_file_location('cover_letter', os.path.join(top, 'scripts/cover-letter.py'))
cl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cl)


def read(rel):
    p = os.path.join(top, rel)
    return open(p).read() if os.path.exists(p) else None


cover = read('cover/cover-letter.txt')
summary = read('results/summary.md') or ''
patch = read('patches/0000-cover-letter.patch')
explained_txt = read('cover/numbers.txt') or ''
print('TAP version 13')
print('1..3')
if cover is None:
    print('not ok 1 cover/results-sections # no cover/cover-letter.txt')
    print('not ok 2 cover/patch-current # no cover/cover-letter.txt')
    print('not ok 3 cover/numbers # no cover/cover-letter.txt')
    sys.exit(0)
subject, _, template = cover.partition('\n')

# 1. The quoted sections exist.
secs = cl.sections(summary)
wanted = re.findall(r'^@@RESULTS (.*)@@$', template, flags=re.M)
absent = [w for w in wanted if not any(n.startswith(w.strip()) for n in secs)]
if absent:
    print('not ok 1 cover/results-sections')
    for w in absent:
        print(f'# no "## {w.strip()}" section in results/summary.md: run make bench, or fix the heading in cover/cover-letter.txt')
else:
    print(f'ok 1 cover/results-sections ({len(wanted)} sections)')

# 2. The exported cover letter carries today's body.
want_body = cl.body(template.strip('\n'), summary)
if patch is None:
    print('not ok 2 cover/patch-current # no patches/0000-cover-letter.patch: run make series')
else:
    head, _, rest = patch.partition('\n\n')
    m = re.search(r'^\S.* \(\d+\):$', rest, flags=re.M)   # the shortlog's author line
    have_body = (rest[:m.start()] if m else rest).rstrip('\n')
    subj_ok = re.search(r'^Subject: \[PATCH[^]]*\] ' + re.escape(subject.strip()) + '$', head, flags=re.M)
    if subj_ok and have_body == want_body:
        print('ok 2 cover/patch-current')
    else:
        print('not ok 2 cover/patch-current # patches/0000-cover-letter.patch is stale: run make series and commit patches/')
        if not subj_ok:
            print(f'# subject should be: {subject.strip()}')
        diff = difflib.unified_diff(have_body.splitlines(), want_body.splitlines(),
                                    'patches/0000-cover-letter.patch', 'regenerated', lineterm='', n=1)
        for line in list(diff)[:30]:
            print(f'# {line}')

# 3. Hand-written numbers: measured (in summary.md) or explained.
NUM = re.compile(r'(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)((?:[kMG]i?B|[kMG]|x|%)(?![\w]))?(?![\w]|[.,]\d)')


def plain(s):
    return re.sub(r'(?<=\d),(?=\d{3})', '', s)


hand = '\n'.join(l for l in template.splitlines() if not l.startswith('@@RESULTS'))
flat_summary = plain(summary)
explained = {}
for line in explained_txt.splitlines():
    if line.strip() and not line.startswith('#'):
        tok, _, why = line.strip().partition(' ')
        explained[tok] = why.strip()
bad, seen = [], set()
for m in NUM.finditer(hand):
    tok = m.group(0)
    seen.add(tok)
    if re.fullmatch(r'\d', tok) or tok in explained:
        continue
    # Found as the same number in summary.md (1,015 there may be 1015;
    # the unit may be written apart or be in the column's heading).
    if re.search(r'(?<![\d.])' + re.escape(plain(m.group(1))) + r'(?![\d]|\.\d)', flat_summary):
        continue
    bad.append(tok)
stale = [t for t in explained if t not in seen]
if bad or stale:
    print('not ok 3 cover/numbers')
    for t in sorted(set(bad), key=bad.index):
        print(f'# "{t}" in cover/cover-letter.txt is not in results/summary.md: quote the measurement, or explain it in cover/numbers.txt')
    for t in stale:
        print(f'# "{t}" is explained in cover/numbers.txt but no longer in the cover text: remove its line')
else:
    print(f'ok 3 cover/numbers ({len(seen)} numbers, {len(explained)} explained)')
EOF

#!/usr/bin/env python3
"""The cover letter of a series: made from its cover/cover-letter.txt, kept
true to results/summary.md.

  cover_letter.py write COVER_DIR FORMAT_PATCH_COVER SUMMARY_MD OUT
      write OUT, the series' 0000-cover-letter.patch: FORMAT_PATCH_COVER is
      what 'git format-patch --cover-letter' wrote (it has the shortlog and
      diffstat); COVER_DIR/cover-letter.txt gives the subject (first line)
      and the body.  In the body, a line '@@RESULTS <heading>@@' is replaced
      by the section of SUMMARY_MD whose '## ' heading starts with
      <heading>, without its images: the numbers in the cover letter are
      the last make bench's.
  cover_letter.py check COVER_DIR SUMMARY_MD
      TAP: 1. every '@@RESULTS <heading>@@' names a section of SUMMARY_MD;
      2. every number written by hand outside those sections is in
      SUMMARY_MD or explained in COVER_DIR/numbers.txt (cited, computed, a
      version...), and every number explained there is still in the text.
      A single digit without a unit is a count or an ordinal ("patches
      1-3"), not a claim.

Whether the exported 0000-cover-letter.patch is the one 'write' makes today
is scripts/check-series.sh's to judge, with the rest of the series.
"""
import os
import re
import sys


def sections(summary):
    out, name = {}, None
    for line in summary.splitlines():
        if line.startswith('## '):
            name = line[3:].strip()
            out[name] = []
        elif name and not line.startswith('!['):
            out[name].append(line)
    return {k: '\n'.join(v).strip('\n') for k, v in out.items()}


def body(template, summary):
    secs = sections(summary)

    def repl(m):
        want = m.group(1).strip()
        for name, text in secs.items():
            if name.startswith(want):
                return f'{name}\n\n{text}'
        return f'[no section "{want}" in results/summary.md: run make bench]'
    return re.sub(r'^@@RESULTS (.*)@@$', repl, template, flags=re.M)


def read_template(cover_dir):
    """The subject and the body template of COVER_DIR/cover-letter.txt."""
    with open(os.path.join(cover_dir, 'cover-letter.txt')) as f:
        subject, _, template = f.read().partition('\n')
    return subject.strip(), template.strip('\n')


def read_or_empty(path):
    return open(path).read() if os.path.exists(path) else ''


def write(cover_dir, cover, summary_path, out):
    subject, template = read_template(cover_dir)
    text = open(cover).read()
    text = text.replace('*** SUBJECT HERE ***', subject)
    text = text.replace('*** BLURB HERE ***', body(template, read_or_empty(summary_path)))
    with open(out + '.tmp', 'w') as f:
        f.write(text)
    os.replace(out + '.tmp', out)


# A number written by hand: 1,015 or 12.5, with an optional unit.
NUM = re.compile(r'(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)((?:[kMG]i?B|[kMG]|x|%)(?![\w]))?(?![\w]|[.,]\d)')


def plain(s):
    """Digits without thousands separators."""
    return re.sub(r'(?<=\d),(?=\d{3})', '', s)


def unmeasured(template, summary, explained):
    """Hand-written numbers neither in SUMMARY nor EXPLAINED, the explained
    ones no longer in the text, and how many numbers there are."""
    hand = '\n'.join(l for l in template.splitlines() if not l.startswith('@@RESULTS'))
    flat_summary = plain(summary)
    bad, seen = [], set()
    for m in NUM.finditer(hand):
        tok = m.group(0)
        seen.add(tok)
        if re.fullmatch(r'\d', tok) or tok in explained:
            continue
        # The same number in summary.md (1,015 there may be 1015; the unit
        # may be written apart or be in the column's heading).
        if re.search(r'(?<![\d.])' + re.escape(plain(m.group(1))) + r'(?![\d]|\.\d)', flat_summary):
            continue
        bad.append(tok)
    return list(dict.fromkeys(bad)), [t for t in explained if t not in seen], len(seen)


def check(cover_dir, summary_path):
    print('TAP version 13')
    print('1..2')
    rel = os.path.relpath(cover_dir)
    summary_path = os.path.relpath(summary_path)
    if not os.path.exists(os.path.join(cover_dir, 'cover-letter.txt')):
        print(f'not ok 1 cover/results-sections # no {rel}/cover-letter.txt')
        print(f'not ok 2 cover/numbers # no {rel}/cover-letter.txt')
        return 0
    _, template = read_template(cover_dir)
    summary = read_or_empty(summary_path)

    secs = sections(summary)
    wanted = re.findall(r'^@@RESULTS (.*)@@$', template, flags=re.M)
    absent = [w for w in wanted if not any(n.startswith(w.strip()) for n in secs)]
    if absent:
        print('not ok 1 cover/results-sections')
        for w in absent:
            print(f'# no "## {w.strip()}" section in {summary_path}: run make bench, '
                  f'or fix the heading in {rel}/cover-letter.txt')
    else:
        print(f'ok 1 cover/results-sections ({len(wanted)} sections)')

    explained = {}
    for line in read_or_empty(os.path.join(cover_dir, 'numbers.txt')).splitlines():
        if line.strip() and not line.startswith('#'):
            tok, _, why = line.strip().partition(' ')
            explained[tok] = why.strip()
    bad, stale, nseen = unmeasured(template, summary, explained)
    if bad or stale:
        print('not ok 2 cover/numbers')
        for t in bad:
            print(f'# "{t}" in {rel}/cover-letter.txt is not in {summary_path}: '
                  f'quote the measurement, or explain it in {rel}/numbers.txt')
        for t in stale:
            print(f'# "{t}" is explained in {rel}/numbers.txt but no longer in the cover text: remove its line')
    else:
        print(f'ok 2 cover/numbers ({nseen} numbers, {len(explained)} explained)')
    return 0


def main():
    usage = __doc__.split('\n\n')[1]
    if len(sys.argv) == 6 and sys.argv[1] == 'write':
        write(*sys.argv[2:6])
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == 'check':
        return check(*sys.argv[2:4])
    sys.exit('usage:\n' + usage)


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The cover letter of a series: made from its cover/cover-letter.txt, each
measured number checked against the cell of results/summary.md it quotes.

  cover_letter.py write COVER_DIR FORMAT_PATCH_COVER SUMMARY_MD OUT
      write OUT, the series' 0000-cover-letter.patch: FORMAT_PATCH_COVER is
      what 'git format-patch --cover-letter' wrote (it has the shortlog and
      diffstat); COVER_DIR/cover-letter.txt gives the subject (first line)
      and the body, plain text as it is mailed, its tables written in it.
  cover_letter.py check COVER_DIR SUMMARY_MD
      TAP: 1. the template is mail (no '@@RESULTS ...@@' line: quoting a
      section of SUMMARY_MD would mail its Markdown); 2. each place of a
      number in the text has its line in COVER_DIR/numbers.txt, in the
      same order, and each line there is for a place; 3. each number whose
      line names a cell of SUMMARY_MD is a number of that very cell (the
      other lines say what the number is: cited, computed, a version...).
      A single digit without a unit is a count or an ordinal ("patches
      1-3", "2 cores"), not a claim, and has no line.

COVER_DIR/numbers.txt, one line per place of a number, in the text's order
('#' lines are comments):

  NUMBER = SECTION > [SUBSECTION >] ROW > COLUMN    a cell of SUMMARY_MD
  NUMBER what it is                                 not measured here

NUMBER as written in the text (807.7, 1,016; +18.0 is written 18.0, 2.02
MiB 2.02).  SECTION is the start of one '## ' heading of SUMMARY_MD,
SUBSECTION a '### ' heading under it when the table is under one; ROW the
row's first cell, or its first cells joined with ', ' when the first is
not unique ("kretprobe, 2"); COLUMN the column's heading, or the start of
one heading.  The number must be one of the numbers of that cell
("12.5 (12.5-12.6) MiB" holds 12.5 and 12.6).  Because every place has
its own line, a number moved to the wrong row, or two numbers swapped,
fails even when each is a number of summary.md.

  cover_letter.py patches COVER_DIR PATCHES_DIR
      TAP: where cover-letter.txt has a numbered list (' N. ' lines), it
      numbers the patches of PATCHES_DIR, 0000 aside: one item each, 1 to
      their count, in order.

  cover_letter.py messages COVER_DIR PATCHES_DIR SUMMARY_MD
      TAP, one case per commit message of PATCHES_DIR: a message with a
      number that reads as a measurement (a decimal part or a unit: 807.7,
      2.02 MiB, 20.36M, 6.7 too) has a section in
      COVER_DIR/commit-numbers.txt, a line '@@ SUBJECT' (the commit's
      subject) followed by a line per place of a number of the message, as
      in numbers.txt, and each cell named holds its number.

Whether the exported 0000-cover-letter.patch is the one 'write' makes today
is scripts/check-series.sh's to judge, with the rest of the series.
"""
import difflib
import os
import re
import sys
import textwrap
from pathlib import Path


def read_template(cover_dir):
    """The subject and the body of COVER_DIR/cover-letter.txt."""
    with open(os.path.join(cover_dir, 'cover-letter.txt')) as f:
        subject, _, template = f.read().partition('\n')
    return subject.strip(), template.strip('\n')


def read_or_empty(path):
    return Path(path).read_text() if os.path.exists(path) else ''


def quote_sections(template, summary):
    """TEMPLATE with each '@@RESULTS <heading>@@' line replaced by the
    section of SUMMARY whose '## ' heading starts with <heading>.  Kept so
    that a series whose cover still quotes exports as before; 'check'
    fails such a cover, as that mails Markdown."""
    secs, name = {}, None
    for line in summary.splitlines():
        if line.startswith('## '):
            name = line[3:].strip()
            secs[name] = []
        elif name and not line.startswith('!['):
            secs[name].append(line)

    def repl(m):
        want = m.group(1).strip()
        for name, lines in secs.items():
            if name.startswith(want):
                return name + '\n\n' + '\n'.join(lines).strip('\n')
        return f'[no section "{want}" in results/summary.md: run make bench]'
    return re.sub(r'^@@RESULTS (.*)@@$', repl, template, flags=re.M)


def write(cover_dir, cover, summary_path, out):
    subject, template = read_template(cover_dir)
    text = Path(cover).read_text()
    # The Subject: header folded at 78 columns, as git folds a patch's.
    m = re.search(r'^Subject: .*\*\*\* SUBJECT HERE \*\*\*$', text, flags=re.M)
    if m:
        header = m.group(0).replace('*** SUBJECT HERE ***', subject)
        folded = textwrap.wrap(header, 78, subsequent_indent=' ', break_long_words=False,
                               break_on_hyphens=False)
        text = text[:m.start()] + '\n'.join(folded) + text[m.end():]
    text = text.replace('*** SUBJECT HERE ***', subject)
    text = text.replace('*** BLURB HERE ***', quote_sections(template, read_or_empty(summary_path)))
    with open(out + '.tmp', 'w') as f:
        f.write(text)
    os.replace(out + '.tmp', out)


# A number written by hand: 1,015 or 12.5, with an optional unit.
NUM = re.compile(r'(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)((?:[kMG]i?B|[kMG]|x|%)(?![\w]))?(?![\w]|[.,]\d)')


def plain(s):
    """Digits without thousands separators."""
    return re.sub(r'(?<=\d),(?=\d{3})', '', s)


def tables(summary):
    """{(section, subsection): [table]} of a Markdown SUMMARY, each table a
    list of rows of cells, its heading row first (the '---' row left out)."""
    out, sec, sub, table = {}, None, None, None
    for line in summary.splitlines():
        if line.startswith('## '):
            sec, sub, table = line[3:].strip(), None, None
        elif line.startswith('### '):
            sub, table = line[4:].strip(), None
        elif line.startswith('|') and sec is not None:
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if all(re.fullmatch(r':?-+:?', c) for c in cells):
                continue
            if table is None:
                table = []
                out.setdefault((sec, sub), []).append(table)
            table.append(cells)
        else:
            table = None
    return out


def lookup(summary_tables, ref):
    """The text of the cell REF names ('SECTION > [SUB >] ROW > COLUMN'),
    or raise LookupError saying what is wrong with REF."""
    parts = [p.strip() for p in ref.split('>')]
    if len(parts) not in (3, 4):
        raise LookupError('a cell is SECTION > [SUBSECTION >] ROW > COLUMN')
    sec, sub, row, col = (parts if len(parts) == 4 else [parts[0], None] + parts[1:])
    secs = sorted({s for s, _ in summary_tables if s.startswith(sec)})
    if len(secs) != 1:
        raise LookupError(f'{len(secs)} "## " headings start with "{sec}"'
                          + (f': {"; ".join(secs)}' if secs else ''))
    found = summary_tables.get((secs[0], sub))
    if not found:
        raise LookupError(f'no table under "## {secs[0]}"' + (f' > "### {sub}"' if sub else
                                                              ' before its first "###" heading'))
    hits, heads = [], []
    for t in found:
        head, rows = t[0], t[1:]
        cols = [i for i, h in enumerate(head) if h == col] or \
               [i for i, h in enumerate(head) if h.startswith(col)]
        if len(cols) > 1:
            raise LookupError(f'{len(cols)} column headings start with "{col}": '
                              + '; '.join(head[i] for i in cols))
        heads += head
        if not cols:
            continue
        for r in rows:
            if any(', '.join(r[:k]) == row for k in range(1, len(r) + 1)):
                hits.append(r[cols[0]] if cols[0] < len(r) else '')
    if not any(h == col or h.startswith(col) for h in heads):
        raise LookupError(f'no column heading starts with "{col}": ' + '; '.join(heads))
    if len(hits) != 1:
        where = f'"{secs[0]}"' + (f' > "{sub}"' if sub else '')
        raise LookupError(f'{len(hits)} cells of {where} are in row "{row}" and column "{col}"')
    return hits[0]


def cell_numbers(text):
    return {plain(m.group(1)) for m in NUM.finditer(text)}


def read_numbers(path):
    """[(line number, number, ('cell', ref) or ('why', text))] of numbers.txt."""
    out = []
    for n, line in enumerate(read_or_empty(path).splitlines(), start=1):
        if not line.strip() or line.startswith('#'):
            continue
        tok, _, rest = line.strip().partition(' ')
        rest = rest.strip()
        out.append((n, tok, ('cell', rest[1:].strip()) if rest.startswith('=') else ('why', rest)))
    return out


def occurrences(path):
    """[(line number, number)] of the cover letter at PATH, in order: each
    place of a number but a single digit without a unit (its subject line
    and '@@RESULTS' lines aside)."""
    out = []
    for n, line in enumerate(Path(path).read_text().splitlines()[1:], start=2):
        if line.startswith('@@RESULTS'):
            continue
        out += [(n, m.group(0)) for m in NUM.finditer(line) if not re.fullmatch(r'\d', m.group(0))]
    return out


def tap_case(n, name, problems, passed):
    """TAP case N NAME: 'not ok' with each of PROBLEMS as a diagnostic
    line, or 'ok' with PASSED, what was checked, in parentheses."""
    if problems:
        print(f'not ok {n} {name}')
        for p in problems:
            print(f'# {p}')
    else:
        print(f'ok {n} {name} ({passed})')


def check(cover_dir, summary_path):
    print('TAP version 13')
    print('1..3')
    rel = os.path.relpath(cover_dir)
    srel = os.path.relpath(summary_path)
    nrel = os.path.join(rel, 'numbers.txt')
    if not os.path.exists(os.path.join(cover_dir, 'cover-letter.txt')):
        for i, name in enumerate(('plain', 'explained', 'cells'), 1):
            print(f'not ok {i} cover/{name} # no {rel}/cover-letter.txt')
        return 0
    _, template = read_template(cover_dir)
    quoted = re.findall(r'^@@RESULTS (.*)@@$', template, flags=re.M)
    tap_case(1, 'cover/plain', [f'@@RESULTS {q}@@ quotes the Markdown of {srel}: write the numbers '
                                f'the cover needs as a plain table in {rel}/cover-letter.txt, each '
                                f'number\'s cell in {nrel}' for q in quoted],
             'no quoted Markdown section')

    places = occurrences(os.path.join(cover_dir, 'cover-letter.txt'))
    lines = read_numbers(os.path.join(cover_dir, 'numbers.txt'))
    off, bad, ncells = verify(places, lines, tables(read_or_empty(summary_path)),
                              'cover-letter.txt', nrel, srel)
    tap_case(2, 'cover/explained', off, f'{len(places)} numbers, each with its line in {nrel}, in order')
    tap_case(3, 'cover/cells', bad, f'{ncells} numbers, each in the cell of {srel} it names')
    return 0


def verify(places, lines, summary_tables, where, nrel, srel):
    """Each place of a number of a text (PLACES, [(line, number)]) against
    the line of a numbers file (LINES, read_numbers()) in the same order,
    aligned so that one number added or removed shows as such and not as
    every later line out of step; then each number whose line names a
    cell against that cell.  Returns (places and lines out of step,
    numbers not in their cells, how many numbers name a cell)."""
    pairs, off = [], []
    sm = difflib.SequenceMatcher(a=[t for _, t in places], b=[t for _, t, _ in lines], autojunk=False)
    for op, a0, a1, b0, b1 in sm.get_opcodes():
        if op == 'equal':
            pairs += zip(places[a0:a1], lines[b0:b1])
            continue
        for n, tok in places[a0:a1]:
            after = f' (after the line for "{lines[b0 - 1][1]}", line {lines[b0 - 1][0]})' if b0 else ''
            off.append(f'"{tok}" ({where} line {n}) has no line of its own in {nrel}{after}: '
                       f'insert "{tok} = SECTION > ROW > COLUMN" (its cell of {srel}), or '
                       f'"{tok} what it is"')
        for n, tok, _ in lines[b0:b1]:
            off.append(f'line {n} of {nrel}, "{tok}", is for no number at that place of '
                       f'{where}: remove it, or correct the number it is for')
    bad, ncells = [], 0
    for (n, tok), (m, _, (kind, ref)) in pairs:
        if kind != 'cell':
            continue
        ncells += 1
        try:
            text = lookup(summary_tables, ref)
        except LookupError as e:
            bad.append(f'"{tok}" ({where} line {n}): {nrel} line {m} names no cell of {srel}: {e}')
            continue
        if plain(NUM.fullmatch(tok).group(1)) not in cell_numbers(text):
            bad.append(f'"{tok}" ({where} line {n}) is not in its cell "{ref}" ({nrel} line {m}), '
                       f'which holds "{text}": write the cell\'s number (make bench changed it?), '
                       f'or name the right cell')
    return off, bad, ncells


# A number that reads as a measurement: with a decimal part or a unit.
MEASURED = re.compile(r'\.\d|[kMG]i?B$|[kMGx%]$')


def message_places(path):
    """(subject, [(line number, number)]) of the commit message of the
    format-patch file PATH: its subject without the [PATCH] prefix, and
    each place of a number in the message text (single digits aside)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import plain_mail
    subject, body = plain_mail.message(path)
    title = re.sub(r'^Subject:\s*(\[[^]]*\]\s*)?', '', subject[1], flags=re.I) if subject else ''
    places = []
    for n, line in body:
        if line is None:
            continue
        places += [(n, m.group(0)) for m in NUM.finditer(line) if not re.fullmatch(r'\d', m.group(0))]
    return title, places


def read_sections(path):
    """{subject: (first line number, [read_numbers() lines])} of a file of
    '@@ SUBJECT' sections, one per commit message."""
    out, cur = {}, None
    for n, line in enumerate(read_or_empty(path).splitlines(), start=1):
        if line.startswith('@@ '):
            cur = line[3:].strip()
            out[cur] = (n, [])
        elif cur is not None and line.strip() and not line.startswith('#'):
            tok, _, rest = line.strip().partition(' ')
            rest = rest.strip()
            out[cur][1].append((n, tok, ('cell', rest[1:].strip()) if rest.startswith('=') else ('why', rest)))
    return out


def messages(cover_dir, patches, summary_path):
    """TAP, one case per commit message of PATCHES (0000 aside): a message
    with a number that reads as a measurement (a decimal part or a unit)
    has a section '@@ SUBJECT' in COVER_DIR/commit-numbers.txt with a line
    for every place of a number, as numbers.txt for the cover; each named
    cell must hold its number. A message without one needs no section."""
    files = sorted(f for f in (os.listdir(patches) if os.path.isdir(patches) else [])
                   if re.match(r'\d{4}-.*\.patch$', f) and not f.startswith('0000-'))
    srel = os.path.relpath(summary_path)
    nrel = os.path.relpath(os.path.join(cover_dir, 'commit-numbers.txt'))
    sections = read_sections(os.path.join(cover_dir, 'commit-numbers.txt'))
    summary_tables = tables(read_or_empty(summary_path))
    print('TAP version 13')
    print(f'1..{len(files) + 1}')
    used = set()
    for i, f in enumerate(files, 1):
        title, places = message_places(os.path.join(patches, f))
        name = f'numbers/{f[:-6]}'
        if title not in sections:
            measured = [t for _, t in places if MEASURED.search(t)]
            if measured:
                print(f'not ok {i} {name} # measured-looking numbers ({", ".join(measured[:5])}) '
                      f'and no "@@ {title}" section in {nrel}: add one, a line per number')
            else:
                print(f'ok {i} {name} # no measurement, no section needed')
            continue
        used.add(title)
        off, bad, ncells = verify(places, sections[title][1], summary_tables, f, nrel, srel)
        tap_case(i, name, off + bad, f'{len(places)} numbers, {ncells} in the cell they name')
    tap_case(len(files) + 1, 'numbers/sections',
             [f'"@@ {t}" (line {sections[t][0]} of {nrel}) is the subject of no patch: '
              'fix it or remove the section' for t in sections if t not in used],
             'each for a patch')
    return 0


def patch_list(cover_dir, patches):
    """TAP, one case: the cover's numbered list (lines ' N. ...'), where it
    has one, is the list of the series' patches: items 1 to the number of
    patches of PATCHES (0000 aside), each once, in order."""
    files = [f for f in (os.listdir(patches) if os.path.isdir(patches) else [])
             if re.match(r'\d{4}-.*\.patch$', f) and not f.startswith('0000-')]
    text = read_or_empty(os.path.join(cover_dir, 'cover-letter.txt'))
    items = [int(m.group(1)) for m in re.finditer(r'^ {0,2}(\d+)\. ', text, re.M)]
    print('TAP version 13')
    print('1..1')
    if not items:
        print('ok 1 cover/patch-list # no numbered list of the patches')
        return 0
    want = list(range(1, len(files) + 1))
    problems = [] if items == want else [
        f'the cover\'s list numbers {items[0]}-{items[-1]} '
        f'({len(items)} items{", out of order" if items != sorted(items) else ""}), '
        f'the series has {len(files)} patches: one item per patch, in their order']
    tap_case(1, 'cover/patch-list', problems, f'{len(items)} items, one per patch')
    return 0


def main():
    usage = __doc__.split('\n\n')[1]
    if sys.argv[1:2] in (['-h'], ['--help']):
        print('usage:\n' + usage)
        return 0
    if len(sys.argv) == 6 and sys.argv[1] == 'write':
        write(*sys.argv[2:6])
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == 'check':
        return check(*sys.argv[2:4])
    if len(sys.argv) == 5 and sys.argv[1] == 'messages':
        return messages(*sys.argv[2:5])
    if len(sys.argv) == 4 and sys.argv[1] == 'patches':
        return patch_list(*sys.argv[2:4])
    sys.exit('usage:\n' + usage)


if __name__ == '__main__':
    sys.exit(main())

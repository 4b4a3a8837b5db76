#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Numbers of the docs copied by hand from results/: each still the number
of the cell it quotes.

Usage: quoted_numbers.py [--root DIR] [--summary FILE] NUMBERS_FILE

NUMBERS_FILE (config/quoted-numbers) has a section per quoted part of a
document, a line '@@ DOC > START' followed by a line per place of a number
of that part, in order, as a series' cover/numbers.txt
(scripts/lib/cover_letter.py):

  NUMBER = [results/FILE.md >] SECTION > [SUBSECTION >] ROW > COLUMN
  NUMBER what it is (a date, a count, measured elsewhere...)

DOC is a path relative to the root (README.md, series-7.2/README); the
part is the paragraph or table whose first line starts with START (a
Markdown heading's '#' marks and the text's indentation aside) and runs
to the next blank line.  A cell is one of results/summary.md (--summary),
or of the results file named first.  Single digits are counts and have no
line.  Prints TAP, a case per section: every number of the part has its
line, in order, and each line that names a cell names one that holds its
number.  A number changed by hand, a result that moved under a quoted
number, a number added without a line and a part that no longer starts
with START all fail, saying what to do.
Exit status 0 when every case passes, 1 otherwise.
"""
import argparse
import os
import re
import sys

import cover_letter


def part(lines, start):
    """[(line number, text)] of the paragraph of LINES whose first line
    starts with START, or None when no line does."""
    for i, line in enumerate(lines):
        if re.sub(r'^\s*#*\s*', '', line).startswith(start):
            out = []
            for n, text in enumerate(lines[i:], start=i + 1):
                if not text.strip():
                    break
                out.append((n, text))
            return out
    return None


def places(numbered_lines):
    """[(line number, number)] of each place of a number but a single digit."""
    return [(n, m.group(0)) for n, text in numbered_lines
            for m in cover_letter.NUM.finditer(text) if not re.fullmatch(r'\d', m.group(0))]


def split_ref(ref, root, default):
    """(results file, cell ref): a ref whose first part is a results/*.md
    names that file's cell; any other, DEFAULT's."""
    first, sep, rest = ref.partition('>')
    if sep and re.fullmatch(r'results/[\w.-]+\.md', first.strip()):
        return os.path.join(root, first.strip()), rest.strip()
    return default, ref


def check_section(key, lines, root, summary, nrel):
    """The problems of one section: KEY is 'DOC > START', LINES its
    read_numbers() lines.  Returns (problems, places, cells checked)."""
    doc, _, start = (s.strip() for s in key.partition('>'))
    path = os.path.join(root, doc)
    if not os.path.exists(path):
        return [f'{doc} does not exist: fix "@@ {key}" in {nrel} or remove the section'], [], 0
    with open(path, encoding='utf-8') as f:
        text = f.read().splitlines()
    found = part(text, start)
    if found is None:
        return [f'no line of {doc} starts with "{start}": the quoted part was reworded or '
                f'removed; fix "@@ {key}" in {nrel}'], [], 0
    where = places(found)
    problems, ncells = [], 0
    srel = os.path.relpath(summary, root)
    if len(where) != len(lines):
        off, _, _ = cover_letter.verify(where, lines, {}, doc, nrel, srel)
        return off, where, 0
    # As many places as lines: each place against its line, so that a
    # number changed by hand is judged by its cell, not only by its line.
    for (n, tok), (m, said, (kind, ref)) in zip(where, lines):
        if kind != 'cell':
            if tok != said:
                problems.append(f'"{tok}" ({doc} line {n}): line {m} of {nrel} is for "{said}": '
                                f'correct the line or the number')
            continue
        results, cell = split_ref(ref, root, summary)
        tables = cover_letter.tables(cover_letter.read_or_empty(results))
        _, bad, k = cover_letter.verify([(n, tok)], [(m, tok, ('cell', cell))], tables, doc, nrel,
                                        os.path.relpath(results, root))
        problems += bad
        ncells += k
        if not bad and tok != said:
            problems.append(f'"{tok}" ({doc} line {n}) is in its cell, but line {m} of {nrel} says '
                            f'"{said}": write "{tok}" there')
    return problems, where, ncells


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', default=os.path.join(os.path.dirname(__file__), '..', '..'))
    ap.add_argument('--summary', help='the default results file (ROOT/results/summary.md)')
    ap.add_argument('numbers')
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    summary = os.path.abspath(a.summary or os.path.join(root, 'results', 'summary.md'))
    nrel = os.path.relpath(os.path.abspath(a.numbers), root)
    sections = cover_letter.read_sections(a.numbers)
    print('TAP version 13')
    print(f'1..{max(len(sections), 1)}')
    if not sections:
        print(f'not ok 1 quoted-numbers # {nrel} has no "@@ DOC > START" section')
        return 1
    status = 0
    for i, (key, (_, lines)) in enumerate(sections.items(), 1):
        problems, where, ncells = check_section(key, lines, root, summary, nrel)
        status |= bool(problems)
        cover_letter.tap_case(i, f'quoted/{key.partition(">")[0].strip()}: {key.partition(">")[2].strip()}',
                              problems, f'{len(where)} numbers, {ncells} in the cell they name')
    return status


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that a fix patch carries nothing but the fix.

  fix_only.py [--harness TOP] [--kernel TREE] FILE...

Each FILE is one patch as 'git format-patch' writes it.  The rules, one
name each:

  test-file   the diff touches a test: a path under a tests/, testing/,
              selftests/ or kunit/ directory, a file named test_*, *_test.*,
              *_kunit.* or *kunit*, or an added line naming KUnit or a
              CONFIG_*TEST* option; a fix goes to stable alone, its test
              in a patch of its own
  harness     the subject, the message (after the headers, up to '---')
              or a line the diff adds names this repository: what plain_mail.py's
              harness rule finds, the project's identity, the word
              "harness", or the name of one of its gates or guest suites
              (scripts/gates/NAME.sh, guest/suites/NAME.sh) that has a
              '-' and is not also a name in the kernel's scripts/
  size        the diff (from the first 'diff --git' line to the end, the
              signature aside) has MAX_DIFF_LINES lines or more

Prints one line per finding, "FILE: RULE: text", and exits 1 when there
is one, 0 otherwise.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plain_mail  # noqa: E402

MAX_DIFF_LINES = 80
TEST_PATH = re.compile(r'(^|/)(tests?|testing|selftests?|kunit)/|(^|/)test_[^/]*$|'
                       r'_(test|kunit)\.[^/]*$|kunit', re.I)
TEST_LINE = re.compile(r'\bkunit\b|\bCONFIG_\w*TEST\w*', re.I)
IDENTITY = re.compile(r'objpool series|objpool-series@|objpool\.invalid|\bharness\b', re.I)


def harness_names(top, kernel):
    """A pattern of the repository's gate and suite names with a '-'."""
    names = set()
    for sub in ('scripts/gates', 'guest/suites'):
        d = os.path.join(top, sub)
        if os.path.isdir(d):
            names |= {f[:-3] for f in os.listdir(d) if f.endswith('.sh') and '-' in f}
    return plain_mail.names_pattern(names, kernel, '', r'(?![\w-])')


def parts(path):
    """(message lines, diff lines) of one format-patch file."""
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')
    subject, body = plain_mail.message(path)
    msg = [subject[1]] if subject else []
    msg += [line for _, line in body if line is not None]
    diff = []
    for i, line in enumerate(lines):
        if line.startswith('diff --git '):
            diff = lines[i:]
            break
    # the signature git format-patch appends: "-- " and a version
    if '-- ' in diff:
        diff = diff[:diff.index('-- ')]
    while diff and diff[-1] == '':
        diff.pop()
    return msg, diff


def findings(path, top=None, kernel=None):
    """[(rule, text)] of one patch."""
    msg, diff = parts(path)
    out = []
    files = sorted({m.group(1) for line in diff
                    for m in [re.match(r'diff --git a/(\S+) b/', line)] if m} |
                   {m.group(1) for line in diff
                    for m in [re.match(r'diff --git a/\S+ b/(\S+)', line)] if m})
    added = [line[1:] for line in diff if line.startswith('+') and not line.startswith('+++')]
    for f in files:
        if TEST_PATH.search(f):
            out.append(('test-file', f'touches {f}'))
    for line in added:
        if TEST_LINE.search(line):
            out.append(('test-file', f'adds "{line.strip()[:60]}"'))
    patterns = list(plain_mail.RULES['harness']) + [IDENTITY]
    if top:
        for p in (plain_mail.harness_scripts(top, kernel), harness_names(top, kernel)):
            if p:
                patterns.append(p)
    for where, lines in (('message', msg), ('diff', added)):
        for line in lines:
            if any(p.search(line) for p in patterns):
                out.append(('harness', f'{where}: "{line.strip()[:60]}"'))
    if len(diff) >= MAX_DIFF_LINES:
        out.append(('size', f'{len(diff)} lines of diff, {MAX_DIFF_LINES} or more'))
    return out


def main(argv):
    args = plain_mail.parse_args(argv, __doc__)
    if args is None:
        return 0
    top, kernel, argv = args
    bad = 0
    for path in argv:
        for rule, text in findings(path, top, kernel):
            print(f'{path}: {rule}: {text}')
            bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

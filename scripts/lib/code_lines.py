#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""code_lines.py TREE [REV...]: the lines of code of the pool at each REV.

TREE is a series' build tree (git). For each REV (default: base, then
every commit of base..HEAD), prints "REV SUBJECT: N" where N counts the
lines of include/linux/objpool.h and lib/objpool.c at REV that hold
code: comments (/* */ and //) and blank lines left out, a line with
code and a comment counted once. The cover letter's "Size" paragraph
quotes these counts."""
import re
import subprocess
import sys

FILES = ['include/linux/objpool.h', 'lib/objpool.c']


def code_lines(text):
    """Lines of C TEXT that are not blank once comments are removed."""
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return sum(1 for line in text.splitlines() if line.strip())


def git(tree, *args):
    return subprocess.run(['git', '-C', tree, *args], check=True,
                          capture_output=True, text=True).stdout


def at(tree, rev):
    """Lines of code of FILES at REV; a file REV lacks counts 0."""
    n = 0
    for f in FILES:
        r = subprocess.run(['git', '-C', tree, 'show', f'{rev}:{f}'],
                           capture_output=True, text=True)
        if r.returncode == 0:
            n += code_lines(r.stdout)
    return n


def main(argv):
    if len(argv) < 2 or argv[1] in ('-h', '--help'):
        print(__doc__)
        return 0 if len(argv) > 1 else 2
    tree = argv[1]
    revs = argv[2:] or ['base'] + git(tree, 'rev-list', '--reverse',
                                      'base..HEAD').split()
    for rev in revs:
        subject = git(tree, 'log', '-1', '--format=%s', rev).strip()
        print(f'{rev[:12]} {subject}: {at(tree, rev)}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

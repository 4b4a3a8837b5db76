#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""churn.py TREE [FILE...]: how much of what a series adds to FILEs a later
patch of the same series takes out again.

TREE is a series' build tree (git, its patches the commits base..HEAD).
Added: the lines each commit adds to FILEs (git's numstat), summed.
Kept: the lines of FILEs at HEAD that git blame gives to a commit of the
series. Every added line that is not kept was removed, or rewritten, by a
later patch: a series whose patches each bring their mechanism in its
final form keeps nearly all it adds. Counted with git's own diffs, so to
a line or two (blame may align a change otherwise). Prints one line,
"FILES: N lines added, M removed again by a later patch (P%)".
FILEs default to include/linux/objpool.h and lib/objpool.c."""
import subprocess
import sys

DEFAULT_FILES = ['include/linux/objpool.h', 'lib/objpool.c']


def git(tree, *args):
    return subprocess.run(['git', '-C', tree, *args], check=True,
                          capture_output=True, text=True).stdout


def added(tree, files):
    """Lines the commits base..HEAD add to FILES, summed over the commits."""
    out = git(tree, 'log', '--format=', '--numstat', 'base..HEAD', '--', *files)
    return sum(int(f[0]) for f in (l.split('\t') for l in out.splitlines() if l)
               if f[0].isdigit())


def kept(tree, files):
    """Lines of FILES at HEAD that a commit of base..HEAD wrote."""
    commits = set(git(tree, 'rev-list', 'base..HEAD').split())
    n = 0
    for f in files:
        if subprocess.run(['git', '-C', tree, 'cat-file', '-e', f'HEAD:{f}'],
                          capture_output=True).returncode:
            continue
        for line in git(tree, 'blame', '--porcelain', 'HEAD', '--', f).splitlines():
            word = line.split(' ', 1)[0]
            # a header line of a blamed line: its commit, then line numbers
            if len(word) == 40 and word in commits and len(line.split()) >= 3 \
                    and line.split()[1].isdigit():
                n += 1
    return n


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ('-h', '--help'):
        print(__doc__)
        return 0 if len(sys.argv) > 1 else 2
    tree, files = sys.argv[1], sys.argv[2:] or DEFAULT_FILES
    a = added(tree, files)
    # git blame's diff may align a line or two otherwise than numstat's
    gone = max(0, a - kept(tree, files))
    share = f'{100 * gone / a:.1f}%' if a else 'nothing added'
    print(f'{" and ".join(files)}: {a} lines added, {gone} removed again by a later patch ({share})')
    return 0


if __name__ == '__main__':
    sys.exit(main())

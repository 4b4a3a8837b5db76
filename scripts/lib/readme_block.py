#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""readme_block.py FILE MARKER [--set NAME VALUE]... [--replace OLD NEW]...

Print the code block of the Markdown FILE that follows the line MARKER
(an HTML comment such as "<!-- gate: readme-kunit -->", which a reader of
the rendered page does not see): the lines between the first ``` fence
after the marker and the fence that closes it.  A gate runs what it
prints, so that the gate and the document cannot say different things.

--set NAME VALUE replaces the value of the block's line "NAME=..." (its
comment after the value stays); --replace OLD NEW replaces the text OLD
by NEW (empty: removes it).
Each must match exactly once in the block: a block that changed shape is
an error, not a block run with a setting left unchanged.

Exits 1 with the reason when the marker is missing or found twice, no
fence follows it, the block is not closed, or a --set or --replace does
not match exactly once."""
import argparse
import re
import sys


class BlockError(Exception):
    pass


def block(text, marker):
    """The lines of the fenced block after MARKER's line, as one string."""
    lines = text.splitlines()
    at = [i for i, line in enumerate(lines) if line.strip() == marker]
    if len(at) != 1:
        raise BlockError('%s marker line "%s"' %
                         ('no' if not at else '%d lines are the' % len(at), marker))
    i = at[0] + 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i == len(lines) or not lines[i].startswith('```'):
        raise BlockError('no ``` fence right after the marker "%s"' % marker)
    end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith('```')), None)
    if end is None:
        raise BlockError('the block after "%s" has no closing ``` fence' % marker)
    return '\n'.join(lines[i + 1:end]) + '\n'


def set_value(code, name, value):
    """CODE with the value of its one line NAME=... replaced by VALUE."""
    pattern = re.compile(r'^(%s=)\S*' % re.escape(name), re.M)
    found = len(pattern.findall(code))
    if found != 1:
        raise BlockError('%d lines set %s= in the block, not one' % (found, name))
    return pattern.sub(lambda m: m.group(1) + value, code)


def replace(code, old, new):
    """CODE with its one occurrence of OLD replaced by NEW."""
    found = code.count(old)
    if found != 1:
        raise BlockError('"%s" is in the block %d times, not once' % (old, found))
    return code.replace(old, new)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[1],
                                 usage=__doc__.split('\n')[0])
    ap.add_argument('file')
    ap.add_argument('marker')
    ap.add_argument('--set', nargs=2, action='append', default=[],
                    metavar=('NAME', 'VALUE'))
    ap.add_argument('--replace', nargs=2, action='append', default=[],
                    metavar=('OLD', 'NEW'))
    args = ap.parse_args()
    try:
        with open(args.file) as f:
            code = block(f.read(), args.marker)
        for name, value in args.set:
            code = set_value(code, name, value)
        for old, new in args.replace:
            code = replace(code, old, new)
    except (OSError, BlockError) as e:
        sys.exit('readme_block.py: %s: %s' % (args.file, e))
    sys.stdout.write(code)


if __name__ == '__main__':
    main()

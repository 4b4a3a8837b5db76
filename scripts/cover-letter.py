#!/usr/bin/env python3
"""Write patches/0000-cover-letter.patch from cover/cover-letter.txt.

usage: cover-letter.py FORMAT_PATCH_COVER SUMMARY_MD OUT

FORMAT_PATCH_COVER is what 'git format-patch --cover-letter' wrote (it has
the shortlog and diffstat); cover/cover-letter.txt gives the subject (first
line) and the body.  In the body, a line '@@RESULTS <heading>@@' is replaced
by the section of results/summary.md whose '## ' heading starts with
<heading>, without its images: the numbers in the cover letter are the last
make bench's, and 'make check' fails when the two drift apart.
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


def main():
    cover, summary_path, out = sys.argv[1:4]
    with open(os.path.join(TOP, 'cover/cover-letter.txt')) as f:
        subject, _, template = f.read().partition('\n')
    summary = open(summary_path).read() if os.path.exists(summary_path) else ''
    text = open(cover).read()
    text = text.replace('*** SUBJECT HERE ***', subject.strip())
    text = text.replace('*** BLURB HERE ***', body(template.strip('\n'), summary))
    with open(out + '.tmp', 'w') as f:
        f.write(text)
    os.replace(out + '.tmp', out)


if __name__ == '__main__':
    main()

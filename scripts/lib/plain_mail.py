#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that mails are plain text a kernel list can read.

  plain_mail.py [--harness TOP] [--kernel TREE] FILE...

Each FILE is one message as 'git format-patch' writes it (a patch, or the
cover letter).  What is checked: the Subject: header, unfolded, and the
message text, that is everything after the headers up to the '---' line
that starts the diffstat (a cover letter has none: all of it).  The
rules, one name each:

  long-line   a line longer than 100 columns (tabs to 8 columns)
  wrap        a line longer than 75 columns, or a subject whose summary
              (after "[PATCH n/m] ") is longer than 75 characters: text
              is wrapped at 72 to 75 columns as checkpatch asks of commit
              messages (it says so of the first such line only); a trailer
              (Link:, Fixes:, Cc:...) or a lone URL may be longer, and so
              may the shortlog and diffstat git appends to a cover letter
  md-table    a Markdown table: a row that starts with '|' and has
              another '|' ("| a | b |"), or a separator row ("---|---",
              "|:--|")
  md-heading  a Markdown heading: '#' to '######', a space, then text
  md-markup   other Markdown: a ``` fence, an inline `code` span, **bold**,
              a [link](target) or an ![image](path)
  html        an HTML tag (<br>, <b>, </td>, <details>...) or entity
              (&nbsp; &lt; &gt; &amp; &quot;); <linux/objpool.h> and
              <someone@host> are not tags
  harness     a path or a command of the harness repository, which the
              list cannot run: guest/, results/, cover/, expect/,
              patches/, series-N/, config/benches..., the harness's own
              scripts/NAME (with --harness; NAMEs that are also in the
              kernel's scripts/ are left out with --kernel), 'make bench',
              'make check', 'make vm' and the other harness targets

Prints one line per finding, "FILE:LINE: RULE: text", and exits 1 when
there is one, 0 otherwise.
"""
import os
import re
import sys

MAX_COLUMNS = 100
WRAP_COLUMNS = 75
# Lines 'wrap' lets run longer: trailers and a URL alone on its line.
UNWRAPPABLE = re.compile(r'^\s*([A-Z][\w-]*: |\S*://\S*$)')
# The shortlog git writes after a cover letter's text: "Name (N):".
SHORTLOG = re.compile(r'^\S.* \(\d+\):$')

HTML_TAGS = ('a abbr b blockquote br code dd del details div dl dt em h1 h2 h3 h4 h5 h6 hr i img '
             'ins kbd li ol p pre s small span strong sub summary sup table tbody td th thead tr tt '
             'u ul').split()
HARNESS_TARGETS = ('bench check vm tree series soak record-unpatched check-series check-bisect '
                   'mail deps kernel').split()

RULES = {
    'md-table': [re.compile(r'^\s*\|.*\|'),
                 re.compile(r'^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$'),
                 re.compile(r'^\s*\|\s*:?-{3,}')],
    'md-heading': [re.compile(r'^#{1,6}\s+\S')],
    'md-markup': [re.compile(r'^\s*```'),
                  re.compile(r'(?<![`\w])`[^`\s][^`]*`(?![`\w])'),
                  re.compile(r'\*\*[^*\s][^*]*\*\*'),
                  re.compile(r'!?\[[^\]\n]+\]\([^)\s]+\)')],
    'html': [re.compile(r'</?\s*(' + '|'.join(HTML_TAGS) + r')(\s+[^<>@]*)?\s*/?>', re.I),
             re.compile(r'&(nbsp|lt|gt|amp|quot|#\d+);', re.I)],
    'harness': [re.compile(r'(?<![\w./~-])(guest|results|cover|expect|patches|series-[0-9.]+|'
                           r'config/(benches|flavors|gates|post-build-gates|base))/'),
                re.compile(r'\bmake +(' + '|'.join(HARNESS_TARGETS) + r')\b(?![-.\w])')],
}


def names_pattern(names, kernel, prefix, end):
    """A pattern of NAMES (a set) that the kernel tree KERNEL's scripts/
    does not also hold, each after PREFIX and before the lookahead END, and
    not inside a longer name or path; None when no name is left."""
    if kernel and os.path.isdir(os.path.join(kernel, 'scripts')):
        names = names - set(os.listdir(os.path.join(kernel, 'scripts')))
    if not names:
        return None
    alt = '|'.join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(r'(?<![\w./-])' + prefix + '(' + alt + ')' + end)


def harness_scripts(top, kernel):
    """The harness's scripts/NAME paths that are not the kernel's."""
    names = set(os.listdir(os.path.join(top, 'scripts')))
    return names_pattern(names, kernel, 'scripts/', r'(?![\w.-])')


def message(path):
    """(Subject line unfolded with its line number, [(line number, line)]) of
    one format-patch file: the text from the headers to the '---' line."""
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')
    i, subject = 0, None
    if lines and lines[0].startswith('From '):
        i = 1
    # Headers up to the first empty line; continuation lines start with
    # white space.
    while i < len(lines) and lines[i] != '':
        if lines[i].lower().startswith('subject:'):
            n, text = i + 1, lines[i]
            while i + 1 < len(lines) and lines[i + 1][:1] in (' ', '\t'):
                i += 1
                text += ' ' + lines[i].strip()
            subject = (n, text)
        i += 1
    body = []
    for n in range(i + 1, len(lines)):
        if lines[n] == '---':
            break
        if SHORTLOG.match(lines[n]) and n + 1 < len(lines) and lines[n + 1].startswith('  '):
            body += [(m + 1, None) for m in range(n, len(lines))]
            break
        body.append((n + 1, lines[n]))
    return subject, body


def findings(path, scripts=None):
    """[(line number, rule, text)] of one message."""
    subject, body = message(path)
    out = []
    rules = dict(RULES)
    if scripts:
        rules['harness'] = rules['harness'] + [scripts]
    if subject:
        n, line = subject
        summary = re.sub(r'^Subject:\s*(\[[^]]*\]\s*)?', '', line, flags=re.I)
        if len(line) > MAX_COLUMNS:
            out.append((n, 'long-line', f'{len(line)} columns'))
        if len(summary) > WRAP_COLUMNS:
            out.append((n, 'wrap', f'a subject of {len(summary)} characters: {summary[:60]}...'))
    body = [(n, line) for n, line in body if line is not None]
    for n, line in body:
        width = len(line.expandtabs(8))
        if width > MAX_COLUMNS:
            out.append((n, 'long-line', f'{width} columns'))
        if WRAP_COLUMNS < width and not UNWRAPPABLE.match(line):
            out.append((n, 'wrap', f'{width} columns: {line.strip()[:60]}...'))
        for rule, patterns in rules.items():
            if any(p.search(line) for p in patterns):
                out.append((n, rule, line.strip()[:80]))
    return out


def parse_args(argv, doc):
    """The options --harness TOP and --kernel TREE, then the files, of
    this checker or another (DOC: its docstring, whose second paragraph is
    its usage): (top, kernel, files), or None after printing the usage
    for -h or --help.  Exits with the usage on a call it cannot take."""
    usage = doc.split('\n\n')[1]
    top = kernel = None
    argv = list(argv)
    while argv and (argv[0].startswith('--') or argv[0] == '-h'):
        opt = argv.pop(0)
        if opt in ('-h', '--help'):
            print(usage)
            return None
        if opt == '--harness' and argv:
            top = argv.pop(0)
        elif opt == '--kernel' and argv:
            kernel = argv.pop(0)
        else:
            sys.exit(usage)
    if not argv:
        sys.exit(usage)
    return top, kernel, argv


def main(argv):
    args = parse_args(argv, __doc__)
    if args is None:
        return 0
    top, kernel, argv = args
    scripts = harness_scripts(top, kernel) if top else None
    bad = 0
    for path in argv:
        for n, rule, text in findings(path, scripts):
            print(f'{path}:{n}: {rule}: {text}')
            bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

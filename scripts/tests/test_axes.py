# SPDX-License-Identifier: GPL-2.0
"""No script decides by the name of a series, an arch or a flavor: each
axis is its own file or line (series-NAME/series.env, config/arch/NAME.sh,
config/flavors) and the defaults and roles are config/defaults.env.  A
decision is a test, a case arm or a default value; names in messages and
comments are prose and pass."""
import glob
import os
import re
import unittest
from pathlib import Path

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def axis_names():
    """Every series, arch (kbuild's, uname's) and flavor name."""
    names = {os.path.basename(os.path.dirname(p))[len('series-'):]
             for p in glob.glob(os.path.join(TOP, 'series-*', 'series.env'))}
    names |= {os.path.basename(os.path.dirname(p))
              for p in glob.glob(os.path.join(TOP, 'bench-kernels', '*', 'series.env'))}
    for p in glob.glob(os.path.join(TOP, 'config', 'arch', '*.sh')):
        names.add(os.path.basename(p)[:-3])
        names |= set(re.findall(r'^ARCH_UNAME=(\S+)', Path(p).read_text(), re.M))
    for line in Path(TOP, 'config', 'flavors').read_text().splitlines():
        if line.strip() and not line.lstrip().startswith('#'):
            names.add(line.split('|')[0].strip())
    return names


def decisions(text, names):
    """(line number, name) of each decision by NAME in shell or make TEXT:
    a comparison with it, a case arm of it, a default of it."""
    alt = '|'.join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    word = r'["\']?(%s)["\']?' % alt
    rules = [re.compile(r'!?=\s*' + word + r'\s*\]'),               # [ "$x" = NAME ]
             re.compile(r'^\s*\(?' + word + r'(?:[-*\w]*)\s*(?:\|[^)]*)?\)'),  # NAME) in a case
             re.compile(r':-' + word + r'\}'),                      # a default of NAME
             re.compile(r'\?=\s*' + word + r'\s*$'),                # VAR ?= NAME
             re.compile(r',\s*' + word + r'\)')]                    # $(or $(X),NAME)
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        code = line.split(' #', 1)[0]
        if code.lstrip().startswith('#'):
            continue
        # Prose in messages is not a decision.
        code = re.sub(r'"[^"$]*[A-Za-z]+\s+[A-Za-z]+[^"$]*"', '""', code)
        for rule in rules:
            m = rule.search(code)
            if m:
                found.append((n, m.group(1)))
                break
    return found


def harness_files():
    pats = ['Makefile', 'scripts/*.sh', 'scripts/*/*.sh', 'guest/init', 'guest/run-suites',
            'guest/tap.sh', 'guest/suites/*.sh', 'guest/bench/*.sh']
    return sorted(p for pat in pats for p in glob.glob(os.path.join(TOP, pat))
                  if '/fixtures/' not in p)


class Axes(unittest.TestCase):
    def test_no_script_decides_by_name(self):
        names = axis_names()
        self.assertTrue({'x86_64', 'arm64', 'test', '6.1'} <= names, names)
        for path in harness_files():
            with self.subTest(file=os.path.relpath(path, TOP)):
                self.assertEqual(decisions(Path(path).read_text(), names), [],
                                 'name the role in config/defaults.env, config/arch/NAME.sh '
                                 'or a series.env key instead')

    def test_control_decisions_are_caught(self):
        names = {'x86_64', 'aarch64', '7.2', '7.2-rfc', 'test', 'debug', '6.1'}
        text = '\n'.join([
            '[ "$arch" = x86_64 ] && mode=all',
            'if [ "$(uname -m)" = aarch64 ]; then',
            'case $SERIES in',
            '7.2-rfc) pool=rfc-pool ;;',
            '\tx86_64-*) echo every ;;',
            '[ "$flavor" = "test" ] && step',
            'arch=${ARCH:-x86_64} flavor=${FLAVOR:-debug}',
            'SERIES ?= 6.1',
            '\t@$(S)/kernel.sh $(ARCH) $(or $(FLAVOR),test)',
            # prose: not decisions
            'tap_skip x "fprobe needs rethook, which arm64 lacks in 6.1"',
            '# [ "$arch" = x86_64 ] in a comment',
            '[ "$flavor" = "$TEST_FLAVOR" ] && step',
        ])
        self.assertEqual([n for n, _ in decisions(text, names)], [1, 2, 4, 5, 6, 7, 8, 9])


if __name__ == '__main__':
    unittest.main()

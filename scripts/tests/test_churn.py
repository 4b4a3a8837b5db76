# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/churn.py on a made-up series: what a later
patch takes out of what an earlier one added is counted, what it keeps
is not."""
import subprocess
import tempfile
import unittest
from pathlib import Path

import churn


def commit(tree, text, message):
    (Path(tree) / 'lib').mkdir(exist_ok=True)
    (Path(tree) / 'lib' / 'objpool.c').write_text(text)
    subprocess.run(['git', '-C', tree, 'add', '-A'], check=True)
    subprocess.run(['git', '-C', tree, '-c', 'user.name=t', '-c', 'user.email=t@t',
                    'commit', '-q', '-m', message], check=True)


class Churn(unittest.TestCase):
    def test_lines_a_later_patch_removes(self):
        with tempfile.TemporaryDirectory() as tree:
            subprocess.run(['git', 'init', '-q', tree], check=True)
            commit(tree, 'base\n', 'base')
            subprocess.run(['git', '-C', tree, 'tag', 'base'], check=True)
            first = ''.join(f'line {i}\n' for i in range(10))
            commit(tree, 'base\n' + first, 'adds ten')
            # the second patch drops three of them and adds two of its own
            second = ''.join(f'line {i}\n' for i in range(7)) + 'new a\nnew b\n'
            commit(tree, 'base\n' + second, 'takes three out')
            files = ['lib/objpool.c']
            self.assertEqual(churn.added(tree, files), 12)
            self.assertEqual(churn.kept(tree, files), 9)

    def test_a_series_that_keeps_all_it_adds(self):
        with tempfile.TemporaryDirectory() as tree:
            subprocess.run(['git', 'init', '-q', tree], check=True)
            commit(tree, 'base\n', 'base')
            subprocess.run(['git', '-C', tree, 'tag', 'base'], check=True)
            commit(tree, 'base\none\n', 'adds one')
            commit(tree, 'base\none\ntwo\n', 'adds two')
            self.assertEqual(churn.added(tree, ['lib/objpool.c']), 2)
            self.assertEqual(churn.kept(tree, ['lib/objpool.c']), 2)


if __name__ == '__main__':
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""scripts/lib/readme_block.py: the block after a marker, exactly; a
setting or a replacement that does not match once is an error; and the
README's own block is found, with the settings the readme-kunit gate
changes."""
import os
import subprocess
import sys
import tempfile
import unittest

import readme_block

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(TOP, 'scripts/lib/readme_block.py')
MARK = '<!-- gate: example -->'
DOC = '''# Title

```
not this one
```

%s
```
v=7.2          # the version
cd linux-$v
tar -xf /usr/src/linux-$v.tar.xz
```

```
nor this one
```
''' % MARK


class Block(unittest.TestCase):
    def test_the_block_after_the_marker(self):
        self.assertEqual(readme_block.block(DOC, MARK),
                         'v=7.2          # the version\ncd linux-$v\n'
                         'tar -xf /usr/src/linux-$v.tar.xz\n')

    def test_no_marker(self):
        with self.assertRaisesRegex(readme_block.BlockError, 'no marker'):
            readme_block.block(DOC.replace(MARK, ''), MARK)

    def test_two_markers(self):
        with self.assertRaisesRegex(readme_block.BlockError, '2 lines'):
            readme_block.block(DOC + MARK + '\n', MARK)

    def test_no_fence_after_the_marker(self):
        with self.assertRaisesRegex(readme_block.BlockError, 'no ``` fence'):
            readme_block.block(DOC.replace(MARK + '\n```', MARK + '\ntext\n```'), MARK)

    def test_unclosed(self):
        with self.assertRaisesRegex(readme_block.BlockError, 'no closing'):
            readme_block.block('%s\n```\nv=1\n' % MARK, MARK)


class Settings(unittest.TestCase):
    code = readme_block.block(DOC, MARK)

    def test_set_keeps_the_comment(self):
        self.assertEqual(readme_block.set_value(self.code, 'v', '6.12').splitlines()[0],
                         'v=6.12          # the version')

    def test_set_a_missing_name(self):
        with self.assertRaisesRegex(readme_block.BlockError, '0 lines set repo='):
            readme_block.set_value(self.code, 'repo', '/x')

    def test_set_a_name_set_twice(self):
        with self.assertRaisesRegex(readme_block.BlockError, '2 lines set v='):
            readme_block.set_value(self.code + 'v=1\n', 'v', '2')

    def test_replace_once(self):
        out = readme_block.replace(self.code, '/usr/src/linux-$v.tar.xz', '/cache/t.tar.xz')
        self.assertIn('tar -xf /cache/t.tar.xz\n', out)

    def test_replace_absent(self):
        with self.assertRaisesRegex(readme_block.BlockError, '0 times'):
            readme_block.replace(self.code, '/usr/src/other', 'x')


class Command(unittest.TestCase):
    def run_tool(self, *args):
        return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)

    def test_error_names_the_file(self):
        with tempfile.NamedTemporaryFile('w', suffix='.md') as f:
            f.write('no block\n')
            f.flush()
            out = self.run_tool(f.name, MARK)
        self.assertEqual(out.returncode, 1)
        self.assertIn(f.name, out.stderr)
        self.assertIn('no marker', out.stderr)

    def test_the_readme_block_the_gate_runs(self):
        """What scripts/gates/readme-kunit.sh asks of README.md."""
        out = self.run_tool(os.path.join(TOP, 'README.md'), '<!-- gate: readme-kunit -->',
                            '--set', 'v', '6.12', '--set', 'repo', '/r',
                            '--replace', '/usr/src/linux-source-$v.tar.xz', '/t.tar.xz',
                            '--replace', "--qemu_args='-smp 2' ", '')
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn('kunit.py run', out.stdout)
        self.assertNotIn('-smp', out.stdout)
        self.assertRegex(out.stdout, r'(?m)^v=6\.12\b')
        self.assertIn('/t.tar.xz', out.stdout)


if __name__ == '__main__':
    unittest.main()

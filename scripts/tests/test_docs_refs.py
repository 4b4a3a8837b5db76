# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/docs_refs.py, on a made-up repository."""
import os
import tempfile
import unittest

import docs_refs


class DocsRefs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        os.makedirs(os.path.join(self.root, 'series-7.2'))
        os.makedirs(os.path.join(self.root, 'config'))
        for p in ('series-7.2/series.env', 'config/benches', 'README.md'):
            with open(os.path.join(self.root, p), 'w') as f:
                f.write({'config/benches': 'memory | x86_64\n',
                         'README.md': '# Title\n## Try it\n'}.get(p, ''))
        with open(os.path.join(self.root, 'Makefile'), 'w') as f:
            f.write('check: deps\n\t@true\n')

    def tearDown(self):
        self.tmp.cleanup()

    def problems(self, text, name='doc.md', help_text='VCPUS  the vCPUs'):
        path = os.path.join(self.root, name)
        with open(path, 'w') as f:
            f.write(text)
        return docs_refs.check_file(path, self.root, docs_refs.targets(self.root),
                                    help_text, docs_refs.benches(self.root),
                                    docs_refs.env_files(self.root))

    def test_placeholder_matches_any_name(self):
        self.assertEqual(self.problems('see series-NAME/series.env\n'), [])

    def test_missing_path(self):
        self.assertEqual(len(self.problems('see series-6.1/series.env\n')), 1)

    def test_english_make_is_no_command(self):
        self.assertEqual(self.problems('this would make the tree dirty\n'), [])

    def test_unknown_target(self):
        self.assertIn("'make frob' is no target", self.problems('run `make frob`\n')[0])

    def test_unlisted_variable(self):
        self.assertIn('NOPE=', self.problems('run `make check NOPE=1`\n')[0])

    def test_listed_variable(self):
        self.assertEqual(self.problems('run `make check VCPUS=4`\n'), [])

    def test_section(self):
        self.assertEqual(self.problems('# README, "Try it"\n', name='x.sh'), [])
        self.assertEqual(len(self.problems('# README, "Gone"\n', name='x.sh')), 1)

    def test_anchor(self):
        self.assertEqual(self.problems('[x](README.md#try-it)\n'), [])
        self.assertIn('no such heading', self.problems('[x](README.md#gone)\n')[0])

    def test_settings_file_by_name(self):
        self.assertEqual(self.problems('# keys as in series.env\n', name='x.sh'), [])
        self.assertIn('settings file 6.1.env does not exist',
                      self.problems('# keys as in 6.1.env\n', name='x.sh')[0])

    def test_script_reads_unlisted_variable(self):
        read = 'echo "$' + '{%s:-1}"\n'   # split, or this file would read it
        self.assertEqual(len(self.problems(read % 'SECRET', name='x.sh')), 1)
        self.assertEqual(self.problems(read % 'SERIES_BASE_PKG', name='x.sh'), [])

    def test_readme_list_of_patches(self):
        patches = {'7.2': [{'a.c'}, {'b.c'}]}
        listed = ['The patches, one', 'each:', '', '  1. the fix;', '  2. its test.', '', 'Then']
        self.assertEqual(docs_refs.patch_list_problems(listed, '7.2', patches), [])
        self.assertIn('series-7.2 has 2 patches',
                      docs_refs.patch_list_problems(listed[:4], '7.2', patches)[0])
        self.assertEqual(docs_refs.patch_list_problems(['No list.'], '7.2', patches), [])


if __name__ == '__main__':
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/quoted_numbers.py, on a made-up document."""
import os
import tempfile
import unittest

import quoted_numbers

SUMMARY = """# made up

## Goals

| goal | measured | verdict |
|---|---|---|
| hit | 932.1 against 925.1 (+7.0) | no |
"""


class QuotedNumbers(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.summary = os.path.join(self.root, 'summary.md')
        with open(self.summary, 'w') as f:
            f.write(SUMMARY)

    def tearDown(self):
        self.tmp.cleanup()

    def check(self, doc, lines):
        with open(os.path.join(self.root, 'doc.md'), 'w') as f:
            f.write(doc)
        numbers = [(i, tok, ('cell', rest[2:]) if rest.startswith('= ') else ('why', rest))
                   for i, (tok, rest) in enumerate(lines, 1)]
        return quoted_numbers.check_section('doc.md > Cost', numbers, self.root, self.summary,
                                            'numbers')[0]

    def test_part_is_the_paragraph_from_its_start(self):
        lines = ['intro', '', '## Cost of it', 'a 12.5', '', 'after 13.5']
        self.assertEqual(quoted_numbers.part(lines, 'Cost'), [(3, '## Cost of it'), (4, 'a 12.5')])
        self.assertIsNone(quoted_numbers.part(lines, 'Gone'))

    def test_number_in_its_cell_passes(self):
        self.assertEqual(self.check('Cost: 932.1 on 2026\n',
                                    [('932.1', '= Goals > hit > measured'), ('2026', 'a year')]), [])

    def test_number_changed_by_hand_fails_on_its_cell(self):
        problems = self.check('Cost: 933.1\n', [('932.1', '= Goals > hit > measured')])
        self.assertIn('is not in its cell', problems[0])

    def test_number_without_a_line_fails(self):
        problems = self.check('Cost: 932.1 and 17.5\n', [('932.1', '= Goals > hit > measured')])
        self.assertIn('"17.5"', problems[0])

    def test_reworded_start_fails(self):
        problems = self.check('Price: 932.1\n', [('932.1', '= Goals > hit > measured')])
        self.assertIn('starts with "Cost"', problems[0])

    def test_other_results_file(self):
        self.assertEqual(quoted_numbers.split_ref('results/x.md > A > b > c', '/r', 'S'),
                         ('/r/results/x.md', 'A > b > c'))
        self.assertEqual(quoted_numbers.split_ref('A > b > c', '/r', 'S'), ('S', 'A > b > c'))


if __name__ == '__main__':
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/cover_letter.py's reading of results/summary.md."""
import unittest

import cover_letter

SUMMARY = """# Summary
## Goals
| goal | measured | met |
| --- | --- | --- |
| kretprobe hit, x86_64 | 886.0 against 932.1 | yes |
| memory, 96 CPUs | 0.6 against 6.4 MiB | yes |
## Other
| x | y |
| --- | --- |
| a | 1,234 |
"""


class Lookup(unittest.TestCase):
    def setUp(self):
        self.t = cover_letter.tables(SUMMARY)

    def test_cell(self):
        self.assertEqual(cover_letter.lookup(self.t, 'Goals > kretprobe hit, x86_64 > measured'),
                         '886.0 against 932.1')

    def test_section_by_prefix(self):
        self.assertEqual(cover_letter.lookup(self.t, 'Oth > a > y'), '1,234')

    def test_missing_row(self):
        with self.assertRaises(LookupError):
            cover_letter.lookup(self.t, 'Goals > fprobe hit > measured')

    def test_missing_column(self):
        with self.assertRaises(LookupError):
            cover_letter.lookup(self.t, 'Goals > memory, 96 CPUs > verdict')

    def test_numbers_of_a_cell(self):
        self.assertEqual(cover_letter.cell_numbers('0.6 against 6.4 MiB'), {'0.6', '6.4'})
        self.assertEqual(cover_letter.cell_numbers('1,234 pairs'), {'1234'})


if __name__ == '__main__':
    unittest.main()

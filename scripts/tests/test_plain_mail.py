# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/plain_mail.py's rules for mail text."""
import os
import tempfile
import unittest

import plain_mail


def rules_of(body, subject='[PATCH 1/2] objpool: fix a thing'):
    with tempfile.NamedTemporaryFile('w', suffix='.patch', delete=False) as f:
        f.write(f'From 0 Mon Sep 17 00:00:00 2001\nSubject: {subject}\n\n{body}\n---\n')
    try:
        return {rule for _, rule, _ in plain_mail.findings(f.name)}
    finally:
        os.unlink(f.name)


class Findings(unittest.TestCase):
    def test_plain_text_passes(self):
        self.assertEqual(rules_of('The pop reads last with acquire.\n'), set())

    def test_long_line_fails(self):
        self.assertIn('long-line', rules_of('x' * 120))

    def test_unwrapped_line_fails(self):
        self.assertIn('wrap', rules_of(' '.join(['word'] * 17)))

    def test_markdown_fails(self):
        self.assertIn('md-markup', rules_of('Use **this** now.'))

    def test_html_fails(self):
        self.assertIn('html', rules_of('a <b>bold</b> claim'))

    def test_harness_path_fails(self):
        self.assertIn('harness', rules_of('as results/summary.md shows'))

    def test_long_subject_fails(self):
        self.assertIn('wrap', rules_of('ok', subject='[PATCH] ' + 'w' * 80))


if __name__ == '__main__':
    unittest.main()

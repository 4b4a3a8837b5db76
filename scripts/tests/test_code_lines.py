# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/code_lines.py: comments and blank lines are
not code, a line with code and a comment is."""
import unittest

import code_lines


class CodeLines(unittest.TestCase):
    def test_comments_and_blank_lines_left_out(self):
        text = ('/*\n * design\n */\n\n#include <x.h>\n'
                'int a; /* why */\n// note\nint b;\n')
        self.assertEqual(code_lines.code_lines(text), 3)

    def test_comment_spanning_code_lines(self):
        self.assertEqual(code_lines.code_lines('int a; /* one\n two */ int b;\n'), 2)


if __name__ == '__main__':
    unittest.main()

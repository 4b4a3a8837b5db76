# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/console.py's verdict on a guest's console."""
import unittest

import console

BEGIN = '[    5.1] objpool_kunit: expected WARNING begin: __objpool_debug_push'
END = '[    5.9] objpool_kunit: expected WARNING end'


def warning(func):
    return ['[    5.2] ------------[ cut here ]------------',
            f'[    5.3] WARNING: CPU: 0 PID: 9 at lib/objpool.c:1 {func}+0x4d/0x90',
            f'[    5.4] RIP: 0010:{func}+0x4d/0x90',
            '[    5.5] ---[ end trace 0000000000000000 ]---']


class Judge(unittest.TestCase):
    def failing(self, lines, known=()):
        return console.judge(lines, known=list(known))[0]

    def test_clean_console_passes(self):
        self.assertEqual(self.failing(['[    1.0] hello']), [])

    def test_unbracketed_warning_fails(self):
        self.assertEqual(len(self.failing(warning('__objpool_debug_push'))), 1)

    def test_bracketed_warning_of_its_function_passes(self):
        lines = [BEGIN] + warning('__objpool_debug_push') + [END]
        self.assertEqual(self.failing(lines), [])

    def test_bracketed_warning_elsewhere_fails(self):
        lines = [BEGIN] + warning('kmem_cache_free') + [END]
        self.assertEqual(len(self.failing(lines)), 1)

    def test_bracket_without_warning_fails(self):
        self.assertEqual(len(self.failing([BEGIN, END])), 1)

    def test_panic_fails(self):
        self.assertEqual(len(self.failing(['[    9.0] Kernel panic - not syncing: x'])), 1)

    def test_known_report_is_accepted_with_its_reason(self):
        import re
        known = [(re.compile(r'BUG: KCSAN: data-race in pre_handler'), 'base code')]
        failing, notes = console.judge(['[ 4.0] BUG: KCSAN: data-race in pre_handler_kretprobe'],
                                       known=known)
        self.assertEqual(failing, [])
        self.assertTrue(any('base code' in n for n in notes))


if __name__ == '__main__':
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/console.py's verdict on a guest's console: on
made-up lines, and on real consoles (fixtures/consoles/, and the crash kept
in results/): a panic in the middle of a suite, a KASAN report, a hung
suite run-suites killed, a guest killed in the middle of a suite."""
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import console

TOP = Path(__file__).resolve().parents[2]
FIXTURES = TOP / 'scripts' / 'tests' / 'fixtures' / 'consoles'
# The debug guest's console when fault-inject's two groups ran at once:
# a NULL pointer dereference, then the panic (oops=panic), mid-suite.
PANIC_MID_SUITE = TOP / 'results' / 'crash-fault-at-once-2026-11-25.txt'


def real_console(path):
    """A kept console without its explaining '#' lines."""
    return [l for l in path.read_text().splitlines() if not l.startswith('#')]


def run_console(lines, results='-'):
    """console.py over LINES as a guest's console, the results it carries
    into RESULTS: (exit status, stderr)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, str(TOP / 'scripts' / 'lib' / 'console.py'),
                              os.path.join(tmp, 'console.log'), results, '0'],
                             input='\n'.join(lines) + '\n', capture_output=True, text=True,
                             timeout=60)
    return out.returncode, out.stderr

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
        known = [(re.compile(r'BUG: KCSAN: data-race in pre_handler'), 'base code')]
        failing, notes = console.judge(['[ 4.0] BUG: KCSAN: data-race in pre_handler_kretprobe'],
                                       known=known)
        self.assertEqual(failing, [])
        self.assertTrue(any('base code' in n for n in notes))


class RealConsoles(unittest.TestCase):
    def test_panic_mid_suite_fails_with_both_reports(self):
        lines = ['@@VM-READY@@ 6.1.192+ 2 CPUs online, 0-1 possible'] + real_console(PANIC_MID_SUITE)
        failing, _ = console.judge(lines)
        self.assertEqual([console.first_line(b) for b in failing],
                         ['BUG: kernel NULL pointer dereference, address: 0000000000000000',
                          'Kernel panic - not syncing: Fatal exception'])
        # The guest never said its exit status: the run is a crash.
        status, err = run_console(lines)
        self.assertEqual(status, 4)
        self.assertIn('the guest ended without an exit status', err)
        self.assertIn('Oops: 0010 [#1] SMP KASAN', err)

    def test_digest_says_where_it_stopped(self):
        # What a CI log cut to its last lines shows of the crash.
        self.assertEqual(console.first_reports(str(PANIC_MID_SUITE)), [
            ['BUG: kernel NULL pointer dereference, address: 0000000000000000',
             'RIP: 0010:0x0',
             'call trace: trace_clock_x86_tsc < do_syscall_64 < entry_SYSCALL_64_after_hwframe'],
            ['Kernel panic - not syncing: Fatal exception']])
        self.assertEqual(console.first_reports(str(FIXTURES / 'no-such-console.txt')), [])

    def test_kasan_report_fails_whole(self):
        lines = real_console(FIXTURES / 'kasan-report.txt')
        failing, _ = console.judge(lines)
        self.assertEqual([console.first_line(b) for b in failing],
                         ['BUG: KASAN: slab-out-of-bounds in kmalloc_oob_right+0xa8/0xbc [test_kasan]'])
        # The guest went on and exited 0: the report alone fails the run.
        status, err = run_console(lines)
        self.assertEqual(status, 3)
        self.assertIn('Write of size 1 at addr ffff8801f44ec37b', err)

    def test_hung_suite_killed_the_others_kept(self):
        with tempfile.TemporaryDirectory() as tmp:
            results = os.path.join(tmp, 'results')
            status, err = run_console(real_console(FIXTURES / 'hung-suite.txt'), results)
            self.assertEqual(status, 1, err)	# run-suites' own status: a suite failed
            files = set(os.listdir(results))
            self.assertTrue({'kunit-objpool.tap', 'hang-on-purpose.timeout', 'samples.tap',
                             'dmesg.txt'} <= files, files)

    def test_guest_killed_mid_suite_keeps_the_suites_that_ended(self):
        lines = real_console(FIXTURES / 'killed-mid-suite.txt')
        with tempfile.TemporaryDirectory() as tmp:
            results = os.path.join(tmp, 'results')
            status, err = run_console(lines, results)
            self.assertEqual(status, 4)
            self.assertIn('the guest ended without an exit status', err)
            # The tail it shows is the console's, not the results' data.
            self.assertNotIn('H4sI', err)
            self.assertEqual(sorted(os.listdir(results)),
                             ['kunit-objpool.log', 'kunit-objpool.tap', 'samples.log', 'samples.tap'])

    def test_kasan_report_passes_only_when_known(self):
        lines = real_console(FIXTURES / 'kasan-report.txt')
        known = [(re.compile(r'BUG: KASAN: slab-out-of-bounds in kmalloc_oob_right'), 'test_kasan')]
        failing, notes = console.judge(lines, known=known)
        self.assertEqual(failing, [])
        self.assertTrue(any('test_kasan' in n for n in notes))


if __name__ == '__main__':
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""Every script of the harness answers --help with its usage and runs
nothing: no "==>" step line, no error, exit status 0."""
import glob
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def scripts():
    """The entry points and helpers, shell and Python; not lib/harness.sh (sourced)
    nor the unittest modules of tests/ (run.sh runs them)."""
    found = glob.glob(os.path.join(SCRIPTS, '*.sh')) + \
        glob.glob(os.path.join(SCRIPTS, '*', '*.sh')) + \
        glob.glob(os.path.join(SCRIPTS, '*', '*.py'))
    return sorted(p for p in found
                  if os.path.basename(p) != 'harness.sh' and
                  not os.path.basename(p).startswith('test_'))


def ask_help(path):
    cmd = ['bash', path, '--help'] if path.endswith('.sh') \
        else [sys.executable, path, '--help']
    return subprocess.run(cmd, capture_output=True, text=True, timeout=20,
                          stdin=subprocess.DEVNULL)


def problems(out):
    """What is wrong with a script's answer to --help ([] when nothing)."""
    found = []
    if out.returncode != 0:
        found.append(f'exit status {out.returncode}: {out.stderr[-300:]}')
    if len(out.stdout.strip()) < 20:
        found.append('no usage on stdout')
    if '==>' in out.stdout + out.stderr or 'error' in out.stderr:
        found.append('it ran instead of answering')
    return found


class Help(unittest.TestCase):
    def test_every_script(self):
        self.assertGreater(len(scripts()), 20)
        for path in scripts():
            with self.subTest(script=os.path.relpath(path, SCRIPTS)):
                self.assertTrue(os.access(path, os.X_OK), 'not executable')
                self.assertEqual(problems(ask_help(path)), [])

    def test_control_a_script_without_help_is_caught(self):
        # Positive control: a script that runs its body on --help.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'no-help.sh')
            with open(path, 'w') as f:
                f.write('#!/usr/bin/env bash\necho "==> building the kernel"\n')
            self.assertEqual(problems(ask_help(path)),
                             ['it ran instead of answering'])


if __name__ == '__main__':
    unittest.main()

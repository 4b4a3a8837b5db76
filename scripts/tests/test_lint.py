# SPDX-License-Identifier: GPL-2.0
"""Lint of the harness itself: shellcheck over every shell script (at
severity warning, with the checks .shellcheckrc turns off and its reasons)
and pyflakes over every Python file.  make deps installs both (Debian's
shellcheck and pyflakes3); without one, its test skips, saying so.  Each
has a positive control: a made-up file with the mistake it is for."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RCFILE = os.path.join(TOP, '.shellcheckrc')
# Made-up inputs of the gates' controls, wrong on purpose.
FIXTURES = os.path.join(TOP, 'scripts', 'gates', 'fixtures')


def harness_files(patterns):
    found = set()
    for pattern in patterns:
        found.update(glob.glob(os.path.join(TOP, pattern), recursive=True))
    return sorted(p for p in found
                  if os.path.isfile(p) and not p.startswith(FIXTURES + os.sep))


def shell_scripts():
    """Every shell file of the harness: scripts, settings files, the guest's
    init, run-suites, suites and benchmarks, CI's entry point."""
    return harness_files(['scripts/**/*.sh', 'config/**/*.sh', 'guest/**/*.sh',
                          'guest/init', 'guest/run-suites', '.ci/run'])


def python_files():
    return harness_files(['scripts/**/*.py', 'guest/**/*.py', 'model/**/*.py'])


def tool(*names):
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    why = f'{" or ".join(names)} is not installed: make deps installs it'
    # unittest counts the skip; say why where make check's log shows it.
    print(f'test_lint: skipped: {why}', file=sys.stderr)
    raise unittest.SkipTest(why)


def shellcheck(paths):
    """shellcheck's findings on PATHS (each finds the .shellcheckrc above it)."""
    out = subprocess.run([tool('shellcheck'), '-S', 'warning', '-f', 'gcc', *paths],
                         capture_output=True, text=True, timeout=300)
    return out.stdout + out.stderr


def pyflakes(paths):
    out = subprocess.run([tool('pyflakes3', 'pyflakes'), *paths],
                         capture_output=True, text=True, timeout=300)
    return out.stdout + out.stderr


class Shellcheck(unittest.TestCase):
    maxDiff = 0

    def test_harness_is_clean(self):
        paths = shell_scripts()
        self.assertGreater(len(paths), 80)
        self.assertIn(os.path.join(TOP, 'guest', 'run-suites'), paths)
        found = shellcheck(paths)
        self.assertEqual(found, '', 'shellcheck finds (fix it, or turn the check off in .shellcheckrc with the reason):\n' + found)

    def test_control_a_cd_without_exit_is_caught(self):
        # Under the harness's own .shellcheckrc, copied beside the script.
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(RCFILE, tmp)
            path = os.path.join(tmp, 'suite.sh')
            with open(path, 'w') as f:
                f.write('# a guest suite, no shebang\ncd /results\nrm -f ./*.tap\n')
            self.assertIn('[SC2164]', shellcheck([path]))


class Pyflakes(unittest.TestCase):
    maxDiff = 0

    def test_harness_is_clean(self):
        paths = python_files()
        self.assertGreater(len(paths), 30)
        found = pyflakes(paths)
        self.assertEqual(found, '', 'pyflakes finds:\n' + found)

    def test_control_an_unused_import_is_caught(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'tool.py')
            with open(path, 'w') as f:
                f.write('import subprocess\n\nprint(undefined_name)\n')
            found = pyflakes([path])
            self.assertIn("'subprocess' imported but unused", found)
            self.assertIn("undefined name 'undefined_name'", found)


if __name__ == '__main__':
    unittest.main()

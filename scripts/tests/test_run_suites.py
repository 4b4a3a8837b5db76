# SPDX-License-Identifier: GPL-2.0
"""guest/run-suites on the host, with its positive control
guest/suites/hang-on-purpose.sh between two made-up suites: the hung suite
is killed at SUITE_TIMEOUT with its child, reported as its own failing case
(ktap.py compare), and the suites before and after it keep their results,
also when the guest never sends its final /results (scripts/lib/console.py
unpacks the parts run-suites sent as each suite ended)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUEST = os.path.join(TOP, 'guest')
CONSOLE = os.path.join(TOP, 'scripts', 'lib', 'console.py')
PASSING = 'echo "TAP version 13"; echo 1..1; echo "ok 1 {name}_runs"\n'


def run_suites(tmp, suites, limit):
    """Run run-suites over SUITES in a made-up guest directory under TMP."""
    guest = os.path.join(tmp, 'guest')
    os.makedirs(os.path.join(guest, 'suites'))
    shutil.copy(os.path.join(GUEST, 'tap.sh'), guest)
    shutil.copy(os.path.join(GUEST, 'suites', 'hang-on-purpose.sh'), os.path.join(guest, 'suites'))
    for name in ('before', 'after'):
        with open(os.path.join(guest, 'suites', name + '.sh'), 'w') as f:
            f.write(PASSING.format(name=name))
    env = dict(os.environ, GUEST_DIR=guest, RESULTS_DIR=os.path.join(tmp, 'results'),
               SUITE_TIMEOUT=str(limit))
    # timeout: a guard against a run-suites that never kills, not a speed test.
    return subprocess.run(['bash', os.path.join(GUEST, 'run-suites'), *suites], env=env,
                          capture_output=True, text=True, timeout=120)


def alive(pid):
    """PID runs (a killed process whose parent is gone may stay a zombie
    until init reaps it: that one is dead)."""
    try:
        with open(f'/proc/{pid}/stat') as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except FileNotFoundError:
        return False


def console(tmp, text):
    """console.py over TEXT as a guest's console; (exit status, stderr, results dir)."""
    results = os.path.join(tmp, 'host-results')
    out = subprocess.run([sys.executable, CONSOLE, os.path.join(tmp, 'console.log'), results, '0'],
                         input=text, capture_output=True, text=True, timeout=60)
    return out.returncode, out.stderr, results


class RunSuites(unittest.TestCase):
    def test_hung_suite_is_killed_and_the_others_kept(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = run_suites(tmp, ['before', 'hang-on-purpose', 'after'], limit=2)
            results = os.path.join(tmp, 'results')
            self.assertEqual(out.returncode, 1, out.stderr)
            self.assertIn('suite hang-on-purpose: 1 ok, 0 not ok, exit timeout', out.stdout)
            with open(os.path.join(results, 'hang-on-purpose.timeout')) as f:
                self.assertIn('did not finish in 2s', f.read())
            self.assertFalse(os.path.exists(os.path.join(results, 'before.timeout')))
            with open(os.path.join(results, 'after.tap')) as f:
                self.assertIn('ok 1 after_runs', f.read())
            # The suite's child went with it (run-suites kills its session).
            with open(os.path.join(results, 'hang-on-purpose.log')) as f:
                child = int(f.read().split('child ')[1].split()[0])
            self.assertFalse(alive(child))

    def test_parts_survive_a_guest_that_never_finishes(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = run_suites(tmp, ['before', 'hang-on-purpose', 'after'], limit=1)
            # The guest hangs after the suites: no exit status, no final /results.
            status, err, results = console(tmp, '@@VM-READY@@ test\n' + out.stdout)
            self.assertEqual(status, 4, err)
            self.assertEqual(sorted(f for f in os.listdir(results) if not f.endswith('.log')),
                             ['after.tap', 'before.tap', 'hang-on-purpose.tap',
                              'hang-on-purpose.timeout'])

    def test_control_an_interrupted_part_is_named_and_earlier_parts_kept(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = run_suites(tmp, ['before', 'after'], limit=5)
            lines = out.stdout.splitlines()
            # The guest dies while sending the second part: its end and a
            # line of its data never arrive.
            cut = lines.index('@@RESULTS-PART-BEGIN after@@') + 1
            status, err, results = console(tmp, '\n'.join(lines[:cut]) + '\n')
            self.assertEqual(status, 4)
            self.assertIn('the results of suite after came back incomplete', err)
            self.assertEqual(sorted(os.listdir(results)), ['before.log', 'before.tap'])

    def test_a_kernel_line_amid_the_data_is_not_data(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = run_suites(tmp, ['before'], limit=5)
            lines = out.stdout.splitlines()
            begin = lines.index('@@RESULTS-PART-BEGIN before@@')
            lines.insert(begin + 1, '[   12.345678] WARNING: CPU: 0 PID: 1 at lib/x.c:1 f+0x1/0x2')
            status, err, results = console(tmp, '\n'.join(lines) + '\n@@VM-EXIT=0@@\n')
            self.assertEqual(status, 3, err)	# the WARNING is judged
            self.assertIn('before.tap', os.listdir(results))

    def test_a_bad_limit_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = run_suites(tmp, ['before'], limit='ten')
            self.assertEqual(out.returncode, 2)
            self.assertIn("SUITE_TIMEOUT='ten' is not a number", out.stderr)


if __name__ == '__main__':
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/ktap.py: a passing, a failing and a skipped case
through the kernel's KTAP parser, and compare's verdicts on them; on real
output (fixtures/consoles/): the objpool KUnit suite's KTAP whole and
interrupted in the middle, and the results of a boot whose hung suite
run-suites killed.

ktap.py parses with the kernel tree's own tools/testing/kunit: $KUNIT_DIR,
else the first tree under build/.  Without one (a clone before its first
'make tree') these tests skip, saying so."""
import argparse
import contextlib
import gc
import glob
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
import warnings

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def kunit_dir():
    """The kunit_parser directory ktap.py will use, or None."""
    wanted = os.environ.get('KUNIT_DIR')
    candidates = ([wanted] if wanted else []) + sorted(
        glob.glob(os.path.join(TOP, 'build', 'linux', 'tools', 'testing', 'kunit'))
        + glob.glob(os.path.join(TOP, 'build', '*', 'linux', 'tools', 'testing', 'kunit')))
    for d in candidates:
        if os.path.exists(os.path.join(d, 'kunit_parser.py')):
            return d
    return None


ktap = None

PASS = 'KTAP version 1\n1..1\n    KTAP version 1\n    1..1\n    ok 1 pops_back\nok 1 pool\n'
FAIL = ('KTAP version 1\n1..1\n    KTAP version 1\n    1..2\n    ok 1 pops_back\n'
        '    # lost_object: EXPECTATION FAILED at lib/x.c:1\n    not ok 2 lost_object\nnot ok 1 pool\n')
SKIP = 'KTAP version 1\n1..1\n    KTAP version 1\n    1..1\n    ok 1 nmi_stress # SKIP no NMI source\nok 1 pool\n'


def setUpModule():
    global ktap
    d = kunit_dir()
    if not d:
        why = ('no kernel tree with tools/testing/kunit (KUNIT_DIR, build/): '
               'run make tree, or set KUNIT_DIR, to test ktap.py')
        # unittest counts the skip; say why where make check's log shows it.
        print(f'test_ktap: skipped: {why}', file=sys.stderr)
        raise unittest.SkipTest(why)
    os.environ['KUNIT_DIR'] = d
    sys.modules.pop('ktap', None)
    import ktap as module
    ktap = module


def results_dir(tmp, **files):
    """A made-up guest results directory of SUITE.tap files."""
    for suite, text in files.items():
        with open(os.path.join(tmp, suite + '.tap'), 'w') as f:
            f.write(text)
    return tmp


def compare(results, unpatched=None):
    args = argparse.Namespace(results=results, arch='x86_64', unpatched=unpatched, exceptions=None,
                              pinned=None, label='test')
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = ktap.compare(args)
    with open(os.path.join(results, 'verdicts.json')) as f:
        return status, json.load(f), out.getvalue()


class Parse(unittest.TestCase):
    def parse(self, text):
        with tempfile.TemporaryDirectory() as tmp:
            return ktap.parse_file(os.path.join(results_dir(tmp, s=text), 's.tap'))

    def test_passing_case(self):
        self.assertEqual(self.parse(PASS), [('s/pool/pops_back', 'SUCCESS')])

    def test_failing_case(self):
        self.assertEqual(self.parse(FAIL), [('s/pool/pops_back', 'SUCCESS'),
                                            ('s/pool/lost_object', 'FAILURE')])

    def test_skipped_case(self):
        self.assertEqual(self.parse(SKIP), [('s/pool/nmi_stress', 'SKIPPED')])

    def test_no_results_is_a_failure(self):
        self.assertIn(('s/<no results>', 'FAILURE'), self.parse('KTAP version 1\n'))


class Compare(unittest.TestCase):
    def test_pass_passes(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, v, out = compare(results_dir(tmp, s=PASS))
        self.assertEqual(status, 0)
        self.assertEqual(v['counts'], {'passed': 1, 'failed': 0, 'skipped': 0})
        self.assertIn('test: 1 passed, 0 failed, 0 skipped', out)

    def test_not_ok_is_reported_as_failure(self):
        # The positive control: a 'not ok' must fail the run, be named,
        # and come with the lines of output that say why.
        with tempfile.TemporaryDirectory() as tmp:
            status, v, out = compare(results_dir(tmp, s=FAIL))
        self.assertEqual(status, 1)
        self.assertEqual(v['cases']['s/pool/lost_object']['verdict'], 'failed')
        self.assertEqual(v['counts'], {'passed': 1, 'failed': 1, 'skipped': 0})
        self.assertIn('FAILED  s/pool/lost_object: FAILURE', out)
        self.assertIn('EXPECTATION FAILED', out)

    def test_skip_is_counted_as_skipped(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, v, _ = compare(results_dir(tmp, s=SKIP))
        self.assertEqual(status, 0)
        self.assertEqual(v['counts'], {'passed': 0, 'failed': 0, 'skipped': 1})

    def test_skip_of_a_case_the_base_passed_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            base = os.path.join(tmp, 'base.txt')
            with open(base, 'w') as f:
                f.write('s/pool/nmi_stress SUCCESS\n')
            res = os.path.join(tmp, 'run')
            os.mkdir(res)
            status, v, _ = compare(results_dir(res, s=SKIP), unpatched=base)
        self.assertEqual(status, 1)
        self.assertEqual(v['cases']['s/pool/nmi_stress']['verdict'], 'failed')

    def test_failed_guest_fails_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            results_dir(tmp, s=PASS)
            with open(os.path.join(tmp, 'vm.json'), 'w') as f:
                json.dump({'exit': 3, 'qemu_exit': 0}, f)
            status, v, _ = compare(tmp)
        self.assertEqual(status, 1)
        self.assertEqual(v['counts']['failed'], 1)

    def test_suites_a_dead_guest_never_ended_are_named(self):
        # A guest that crashed in suite b: a's results came back, b's and
        # c's never did; each fails as a case of its own.
        with tempfile.TemporaryDirectory() as tmp:
            results_dir(tmp, a=PASS)
            with open(os.path.join(tmp, 'vm.json'), 'w') as f:
                json.dump({'exit': 1, 'qemu_exit': 0, 'cmd': 'SUITE_TIMEOUT=60 run-suites a b c'}, f)
            status, v, out = compare(tmp)
        self.assertEqual(status, 1)
        gone = '<no results: the guest stopped before this suite ended>'
        self.assertEqual([c for c in v['cases'] if gone in c], [f'b/{gone}', f'c/{gone}'])
        self.assertEqual(v['cases']['a/pool/pops_back']['verdict'], 'passed')
        self.assertIn(f'FAILED  c/{gone}', out)

    def test_a_guest_that_exits_0_names_no_unfinished_suite(self):
        # The control: the same command, every suite's results there.
        with tempfile.TemporaryDirectory() as tmp:
            results_dir(tmp, a=PASS, b=PASS)
            with open(os.path.join(tmp, 'vm.json'), 'w') as f:
                json.dump({'exit': 0, 'qemu_exit': 0, 'cmd': 'run-suites a b'}, f)
            status, v, _ = compare(tmp)
        self.assertEqual(status, 0)
        self.assertEqual(v['counts']['failed'], 0)

    def test_suite_killed_at_its_time_limit_fails_as_its_own_case(self):
        # guest/run-suites leaves NAME.timeout beside the TAP the suite
        # printed before it hung; the cases it printed still count.
        with tempfile.TemporaryDirectory() as tmp:
            results_dir(tmp, s=PASS)
            with open(os.path.join(tmp, 's.timeout'), 'w') as f:
                f.write('suite s did not finish in 600s (SUITE_TIMEOUT): killed\n')
            status, v, out = compare(tmp)
        self.assertEqual(status, 1)
        self.assertEqual(v['cases']['s/<timed out>']['verdict'], 'failed')
        self.assertEqual(v['cases']['s/pool/pops_back']['verdict'], 'passed')
        self.assertIn('did not finish in 600s', out)

    def test_pinned_controls(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = ktap.self_test()
        self.assertEqual(status, 0, out.getvalue())


FIXTURES = os.path.join(TOP, 'scripts', 'tests', 'fixtures', 'consoles')


def real_ktap():
    with open(os.path.join(FIXTURES, 'kunit-objpool.tap')) as f:
        return f.read()


class RealOutput(unittest.TestCase):
    def test_whole_kunit_suite_passes(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, v, _ = compare(results_dir(tmp, **{'kunit-objpool': real_ktap()}))
        self.assertEqual(status, 0)
        self.assertEqual(v['counts'], {'passed': 47, 'failed': 0, 'skipped': 2})

    def test_interrupted_ktap_stream_fails_its_lost_cases(self):
        # The stream stops in the middle of the suite, as when a guest
        # dies; the whole run, recorded as the base, passed 47 cases.
        lines = real_ktap().splitlines()
        cut = '\n'.join(lines[:len(lines) // 2]) + '\n'
        with tempfile.TemporaryDirectory() as tmp:
            whole = ktap.parse_file(os.path.join(results_dir(tmp, s=real_ktap()), 's.tap'))
            base = os.path.join(tmp, 'base.txt')
            with open(base, 'w') as f:
                f.writelines(f'{case} {status}\n' for case, status in whole)
            res = os.path.join(tmp, 'run')
            os.mkdir(res)
            status, v, out = compare(results_dir(res, s=cut), unpatched=base)
        self.assertEqual(status, 1)
        lost = [c for c, s in whole if s == 'SUCCESS' and v['cases'][c]['status'] == 'MISSING']
        kept = [c for c, s in whole if s == 'SUCCESS' and v['cases'][c]['status'] == 'SUCCESS']
        self.assertEqual(len(lost) + len(kept), 47)
        self.assertTrue(len(lost) > 10 and len(kept) > 10, (len(lost), len(kept)))
        self.assertEqual({v['cases'][c]['verdict'] for c in lost}, {'failed'})
        self.assertEqual({v['cases'][c]['verdict'] for c in kept}, {'passed'})
        # The parser says the stream broke off.
        self.assertIn('s/<KTAP it could not parse>: FAILURE', out)

    def test_boot_with_a_hung_suite_fails_that_suite_only(self):
        with tempfile.TemporaryDirectory() as tmp:
            results = os.path.join(tmp, 'results')
            with open(os.path.join(FIXTURES, 'hung-suite.txt')) as f:
                console = ''.join(l for l in f if not l.startswith('#'))
            subprocess.run([sys.executable, os.path.join(TOP, 'scripts', 'lib', 'console.py'),
                            os.path.join(tmp, 'console.log'), results, '0'],
                           input=console, capture_output=True, text=True, timeout=60)
            status, v, _ = compare(results)
        self.assertEqual(status, 1)
        failed = sorted(c for c, d in v['cases'].items() if d['verdict'] == 'failed')
        self.assertIn('hang-on-purpose/<timed out>', failed)
        self.assertEqual([c for c in failed if not c.startswith('hang-on-purpose/')], [])
        passed = [c for c, d in v['cases'].items() if d['verdict'] == 'passed']
        self.assertEqual(len([c for c in passed if c.startswith('kunit-objpool/')]), 47)
        self.assertEqual(len([c for c in passed if c.startswith('samples/')]), 4)


class Total(unittest.TestCase):
    def test_a_failed_step_counts_as_a_failure(self):
        with tempfile.TemporaryDirectory() as tmp:
            verdicts = os.path.join(tmp, 'verdicts.json')
            with open(verdicts, 'w') as f:
                json.dump({'counts': {'passed': 3, 'failed': 0, 'skipped': 1}}, f)
            steps = os.path.join(tmp, 'steps.tsv')
            with open(steps, 'w') as f:
                f.write('ok\tbuild x86_64\t10\nFAIL\tboot x86_64\t5\n'
                        'FAIL\tgates\t9\nFAIL\tsuites x86_64-test\t50\n')
            out = io.StringIO()
            # total() leaves its files to the garbage collector.
            with contextlib.redirect_stdout(out), warnings.catch_warnings():
                warnings.simplefilter('ignore', ResourceWarning)
                status = ktap.total(argparse.Namespace(verdicts=[verdicts], steps=[steps]))
                gc.collect()
        self.assertEqual(status, 1)
        self.assertEqual(out.getvalue().strip(), '3 passed, 1 failed, 1 skipped')


if __name__ == '__main__':
    unittest.main()

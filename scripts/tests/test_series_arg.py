# SPDX-License-Identifier: GPL-2.0
"""A script started for one series gets it as its first arguments,
`--series NAME`: scripts/lib/harness.sh takes them before the script's own, and
they win over SERIES in the environment."""
import os
import subprocess
import tempfile
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = os.path.dirname(SCRIPTS)
# A script as the harness's are: it sources lib/harness.sh, then reads its own
# arguments.
PROBE = ('. "%s/lib/harness.sh"\n'
         'echo "$SERIES|${WORK#$TOP/}|$#|$*"\n' % SCRIPTS)


def valid_series():
    out = subprocess.run(['bash', '-c', '. "%s/lib/harness.sh" && valid_series' % SCRIPTS],
                         capture_output=True, text=True, check=True)
    return out.stdout.split()


class SeriesArgument(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.probe = os.path.join(tmp.name, 'probe.sh')
        with open(self.probe, 'w') as f:
            f.write(PROBE)
        names = valid_series()
        self.assertGreaterEqual(len(names), 2, names)
        self.one, self.other = names[0], names[1]

    def run_probe(self, args, **env):
        environ = {k: v for k, v in os.environ.items()
                   if k not in ('SERIES', 'SERIES_LIST')}
        environ.update(env)
        return subprocess.run(['bash', self.probe] + args, capture_output=True,
                              text=True, env=environ, stdin=subprocess.DEVNULL)

    def test_argument_is_taken_and_shifted(self):
        out = self.run_probe(['--series', self.one, 'x86_64', 'test'])
        self.assertEqual(out.returncode, 0, out.stderr)
        series, work, argc, args = out.stdout.strip().split('|')
        self.assertEqual(series, self.one)
        self.assertEqual(argc, '2')
        self.assertEqual(args, 'x86_64 test')

    def test_argument_wins_over_the_environment(self):
        out = self.run_probe(['--series', self.one, 'a'], SERIES=self.other)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.split('|')[0], self.one)

    def test_without_it_the_environment_says(self):
        out = self.run_probe(['a'], SERIES=self.other)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip().split('|')[::2], [self.other, '1'])

    def test_control_a_missing_or_unknown_name_fails(self):
        for args in (['--series'], ['--series', ''], ['--series', 'no-such-series', 'a']):
            with self.subTest(args=args):
                out = self.run_probe(args)
                self.assertNotEqual(out.returncode, 0)
                self.assertIn('error', out.stderr)
                self.assertEqual(out.stdout, '')


if __name__ == '__main__':
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""Self-test of scripts/lib/bench_report/irq_window_missed.py: made-up
rows of the userspace irq_window case in, its section and goal out."""
import unittest

import bench_report
from bench_report import irq_window_missed


def rows(ours, mutant):
    """Runs of the pool as it is and of its mutant, each run's missed
    pops from the lists given."""
    out = []
    for pool, counts in (('objpool', ours), ('irqs-in-push-window', mutant)):
        for run, missed in enumerate(counts, 1):
            out.append({'pool': pool, 'run': str(run), 'seconds': '1', 'pops': '1000', 'pushes': '1000',
                        'irq_pushes': '50', 'irqs': '900', 'missed': str(missed),
                        'result': 'FAIL' if missed else 'ok', 'series': 'abc lib/objpool.c def; 2 cores; load 1.0'})
    return out


class IrqWindowMissed(unittest.TestCase):
    def test_none_missed_with_the_mutant_caught_is_met(self):
        (goal, measured, verdict), = irq_window_missed.goal(rows([0, 0], [3, 5]), None)
        self.assertEqual(goal, "6.1: no pop misses an object held back by an irq in a push's window (userspace)")
        self.assertEqual(measured, '0 missed in 2 runs (2000 pops); irqs-in-push-window: 8 in 2 runs')
        self.assertEqual(verdict, 'met')

    def test_a_missed_pop_is_not_met(self):
        (_, measured, verdict), = irq_window_missed.goal(rows([0, 1], [3, 5]), None)
        self.assertTrue(measured.startswith('1 missed in 2 runs'), measured)
        self.assertEqual(verdict, 'not met')

    def test_a_mutant_that_missed_nothing_proves_nothing(self):
        (_, _, verdict), = irq_window_missed.goal(rows([0, 0], [0, 0]), None)
        self.assertTrue(verdict.startswith('unproven'), verdict)

    def test_no_mutant_rows_prove_nothing(self):
        only_ours = [r for r in rows([0], [1]) if r['pool'] == 'objpool']
        (_, _, verdict), = irq_window_missed.goal(only_ours, None)
        self.assertTrue(verdict.startswith('unproven'), verdict)

    def test_no_rows_of_the_pool_no_goal(self):
        mutant_only = [r for r in rows([0], [1]) if r['pool'] != 'objpool']
        self.assertEqual(irq_window_missed.goal(mutant_only, None), [])

    def test_section_puts_the_pool_first_and_each_run(self):
        lines = irq_window_missed.section(rows([0, 0], [3, 5]), None)
        self.assertTrue(lines[0].startswith('## Missed pops with irqs in the push window'), lines[0])
        body = [line for line in lines if line.startswith('| objpool') or line.startswith('| irqs-in')]
        self.assertEqual(body, ['| objpool | 2 | 2000 | 100 | 0 | 0 0 |',
                                '| irqs-in-push-window | 2 | 2000 | 100 | 8 | 3 5 |'])

    def test_listed_in_the_report(self):
        self.assertIn(irq_window_missed, bench_report.SECTIONS)
        self.assertIn((irq_window_missed.CSV, irq_window_missed.goal), bench_report.GOALS)


if __name__ == '__main__':
    unittest.main()

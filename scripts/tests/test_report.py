# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/report.py's benchmark modules (scripts/lib/bench_report/):
small made-up CSVs in, their section and goal verdicts out."""
import contextlib
import csv
import difflib
import glob
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

import bench_report
from bench_report import core, irq_window_icount, layout, memory_scale, real_load_icount


def write_csv(directory, name, rows):
    with open(os.path.join(directory, name), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def layout_rows(objpool_shared):
    return [{'pool': 'objpool', 'cpus': '2', 'per_cpu': '4', 'obj_size': '64', 'shared_lines': objpool_shared},
            {'pool': 'freelist', 'cpus': '2', 'per_cpu': '4', 'obj_size': '64', 'shared_lines': '3'}]


def icount_rows(unpatched_insns, patched_insns):
    """One x86_64 boot per kernel: a kretprobe row of the given instructions
    per call, and a native row of 500."""
    rows = []
    for kernel, insns in (('unpatched', unpatched_insns), ('patched', patched_insns)):
        for row, n in (('native', 500), ('kretprobe', insns)):
            rows.append({'arch': 'x86_64', 'kernel': kernel, 'row': row, 'run': '1',
                         'calls_per_vsec': repr(1e9 / n), 'clocksource': 'tsc', 'ns_per_insn': '1.0000'})
    return rows


def suite_rows(unfixed_status):
    return [{'arch': 'x86_64', 'kernel': 'patched', 'vcpus': '2', 'suite': 'objpool-nmi-unfixed',
             'depth': '0', 'case': 'unfixed_push_fails', 'status': unfixed_status},
            {'arch': 'x86_64', 'kernel': 'patched', 'vcpus': '2', 'suite': 'kunit-objpool',
             'depth': '1', 'case': 'objpool_test_nmi', 'status': 'ok'},
            {'arch': 'x86_64', 'kernel': 'patched', 'vcpus': '2', 'suite': 'upstream-test-objpool',
             'depth': '0', 'case': 'objpool', 'status': 'ok'}]


def scale_rows(r1_sparse_kb, default_96_patched_kb):
    """memory-scale rows: r1 and default kretprobes, 2 of 2 and 2 of 512
    possible and 96 of 96 CPUs online; the patched r1 delta with 2 of 512
    online and the patched default delta at 96 CPUs as given."""
    rows = []
    for vcpus, possible in ((2, 2), (96, 96), (2, 512)):
        for kernel in ('unpatched', 'patched'):
            dflt = max(10, 2 * possible)
            d_kb = 16 * dflt * 64 // 1024 or 1
            if kernel == 'patched':
                d_kb = default_96_patched_kb if possible == 96 else d_kb
            r1_kb = 1
            if kernel == 'patched' and possible == 512:
                r1_kb = r1_sparse_kb
            for probe, objs, kb in (('kretprobe default', 16 * dflt, d_kb), ('kretprobe r1', 16, r1_kb)):
                rows.append({'kernel': kernel, 'accel': 'tcg', 'vcpus': str(vcpus), 'possible': str(possible),
                             'run': '1', 'probe': probe, 'probes': '16', 'objects': str(objs),
                             'delta_kb': str(kb)})
    return rows


class MemoryScale(unittest.TestCase):
    def test_section_has_a_row_per_probe_and_scale(self):
        lines = memory_scale.section(scale_rows(64, 192), None)
        self.assertTrue(lines[0].startswith('## Memory of kretprobe pools'))
        self.assertEqual(sum('| kretprobe r1 |' in line for line in lines), 3)

    def test_eight_bytes_per_offline_cpu_is_met(self):
        # 16 probes x 510 offline CPUs x 8 B = 63.75 KiB over the 2-of-2 row's 1 KiB
        (goal, measured, verdict), = memory_scale.offline_goal(scale_rows(64, 192), None)
        self.assertEqual(verdict, 'met', measured)

    def test_a_ring_per_offline_cpu_is_not_met(self):
        # positive control: 192 B per offline CPU, as a ring per possible CPU costs
        (_, measured, verdict), = memory_scale.offline_goal(scale_rows(1531, 192), None)
        self.assertTrue(verdict.startswith('not met'), measured)

    def test_twice_the_freelist_is_met(self):
        # the r1 rows with 2 of 512 online take 64 KiB against 1: left out
        rows = [r for r in scale_rows(64, 384) if r['possible'] != '512']
        (_, measured, verdict), = memory_scale.ratio_goal(rows, None)
        self.assertEqual(verdict, 'met', measured)

    def test_over_twice_the_freelist_is_not_met(self):
        # positive control: the pool's 31,552 B a probe at 96 CPUs against 12,288
        rows = [r for r in scale_rows(64, 493) if r['possible'] != '512']
        (_, measured, verdict), = memory_scale.ratio_goal(rows, None)
        self.assertTrue(verdict.startswith('not met'), measured)
        self.assertIn('96 of 96', measured)

    def test_without_a_sparse_row_no_offline_goal(self):
        rows = [r for r in scale_rows(64, 192) if r['possible'] != '512']
        self.assertEqual(memory_scale.offline_goal(rows, None), [])


class Layout(unittest.TestCase):
    def test_section_has_a_column_per_pool(self):
        lines = layout.section(layout_rows('0'), None)
        self.assertEqual(lines[0], "## Layout: cache lines that two CPUs' own hits both write")
        self.assertIn('| CPUs | objects per CPU | object bytes | objpool | freelist |', lines)
        self.assertIn('| 2 | 4 | 64 | 0 | 3 |', lines)

    def test_no_shared_line_meets_the_goal(self):
        (goal, measured, verdict), = layout.shared_lines_goal(layout_rows('0'), None)
        self.assertEqual(verdict, 'met')
        self.assertEqual(measured, 'objpool 0 at worst (1 points); freelist up to 3')

    def test_a_shared_line_fails_the_goal(self):
        (_, measured, verdict), = layout.shared_lines_goal(layout_rows('1'), None)
        self.assertEqual(verdict, 'not met')
        self.assertIn('objpool 1 at worst', measured)


class RealLoadIcount(unittest.TestCase):
    def test_section_gives_instructions_per_call(self):
        lines = real_load_icount.section(icount_rows(1000, 1010), None)
        self.assertIn('### x86_64', lines)
        self.assertIn('| kretprobe | 1000.0 | 1010.0 | 1000.0 | 1010.0 | +10.0 (+1.00%) | '
                      '0.0000% / 0.0000% |', lines)
        self.assertTrue(any('results/real-load-icount.csv' in line for line in lines))

    def test_headings_name_the_two_kernels(self):
        lines = real_load_icount.section(icount_rows(1000, 1010), None)
        self.assertIn("| row | 6.1's freelist, each run | series-6.1, each run | 6.1's freelist insns/call | "
                      "series-6.1 insns/call | series-6.1 - 6.1's freelist | "
                      "spread 6.1's freelist / series-6.1 |", lines)
        fix = bench_report.real_load_icount_7_2.section(icount_rows(1000, 1010), None)
        self.assertIn('| row | unfixed, each run | fixed, each run | unfixed insns/call | fixed insns/call | '
                      'fixed - unfixed | spread unfixed / fixed |', fix)

    def test_an_old_base_row_is_no_kernel(self):
        # 'base' is unpatched's old name: such rows fill neither column.
        rows = [dict(r, kernel='base') if r['kernel'] == 'unpatched' else r for r in icount_rows(1000, 1010)]
        self.assertIn('| kretprobe | - | 1010.0 | - | 1010.0 | - | - / 0.0000% |',
                      real_load_icount.section(rows, None))
        self.assertEqual(real_load_icount.goal(rows, None), [])

    def test_within_the_limit_is_met(self):
        (goal, measured, verdict), = real_load_icount.goal(icount_rows(1000, 1010), None)
        self.assertEqual(goal, "kretprobe hit, x86_64: at most 20 instructions more patched than "
                               "with 6.1's freelist (icount)")
        self.assertEqual(verdict, 'met, +10.0 insns per hit')

    def test_over_the_limit_is_not_met(self):
        (_, _, verdict), = real_load_icount.goal(icount_rows(1000, 1100), None)
        self.assertEqual(verdict, 'not met, +100.0 insns per hit')

    def test_fix_cost_over_two_instructions_is_not_met(self):
        (goal, _, verdict), = real_load_icount.fix_cost_goals(icount_rows(1000, 1003), series='7.2 fix')
        self.assertTrue(goal.startswith('7.2 fix: a kretprobe hit at most +2 instructions'))
        self.assertEqual(verdict, 'not met, +3.0')


class IrqWindowIcount(unittest.TestCase):
    # unpatched: the series, interrupts off in the windows; patched: preempt-only.
    def test_section_is_titled_for_the_irq_window(self):
        lines = irq_window_icount.section(icount_rows(1008, 1000), None)
        self.assertTrue(lines[0].startswith('## Linux 6.1, the irq window'), lines[0])
        self.assertTrue(any(line.startswith('| row | irqs off, each run | preempt-only, each run |')
                            for line in lines))
        self.assertIn('| kretprobe | 1008.0 | 1000.0 | 1008.0 | 1000.0 | -8.0 (-0.79%) | '
                      '0.0000% / 0.0000% |', lines)

    def test_cost_within_the_limit_is_met(self):
        (goal, measured, verdict), = irq_window_icount.goal(icount_rows(1008, 1000), None)
        self.assertEqual(goal, "6.1: irqs off in the pool's windows, a kretprobe hit at most 10 "
                               "instructions over preempt-only, x86_64")
        self.assertEqual(measured, '1008.0 irqs off, 1000.0 preempt-only (+8.0; 1 + 1 boots)')
        self.assertEqual(verdict, 'met')

    def test_cost_over_the_limit_is_not_met(self):
        (_, _, verdict), = irq_window_icount.goal(icount_rows(1011, 1000), None)
        self.assertEqual(verdict, 'not met, +11.0')

    def test_no_preempt_only_rows_no_goal(self):
        rows = [r for r in icount_rows(1008, 1000) if r['kernel'] == 'unpatched']
        self.assertEqual(irq_window_icount.goal(rows, None), [])


class SuiteVerdicts(unittest.TestCase):
    def test_reproducer_that_catches_the_bug_is_met(self):
        verdicts = [v for _, _, v in bench_report.suite_verdicts_7_2.GOALS[0][1](suite_rows('ok'), None)]
        self.assertEqual(verdicts, ['met', 'met', 'met'])

    def test_reproducer_that_misses_the_bug_is_not_met(self):
        (goal, measured, verdict) = bench_report.suite_verdicts_7_2.GOALS[0][1](suite_rows('not ok'), None)[0]
        self.assertEqual(goal, '7.2 fix: the KUnit reproducer fails on the unfixed push, x86_64')
        self.assertEqual((measured, verdict), ('objpool-nmi-unfixed: not ok', 'not met'))


class Summary(unittest.TestCase):
    def test_goals_table_sections_and_generic(self):
        with tempfile.TemporaryDirectory() as d:
            write_csv(d, 'layout.csv', layout_rows('2'))
            write_csv(d, 'real-load-icount.csv', icount_rows(1000, 1010))
            write_csv(d, 'made-up.csv', [{'what': 'x', 'value': '1', 'run': '1'},
                                         {'what': 'x', 'value': '3', 'run': '2'}])
            md = bench_report.summary(d)
        self.assertEqual(md[0], '# Benchmark results')
        heads = [line for line in md if line.startswith('## ')]
        self.assertEqual(heads, ['## Goals', '## Instructions per call under QEMU icount: real load',
                                 "## Layout: cache lines that two CPUs' own hits both write", '## made-up'])
        rows = [line for line in md if line.startswith('| layout: ') or line.startswith('| kretprobe hit')]
        self.assertEqual(len(rows), 2)
        self.assertTrue(rows[0].endswith('| not met |'), rows[0])
        self.assertTrue(rows[1].endswith('| met, +10.0 insns per hit |'), rows[1])
        self.assertIn('| x | 2.00 (1.00-3.00) | 2 |', md)

    def test_no_csv_no_goals(self):
        with tempfile.TemporaryDirectory() as d:
            md = bench_report.summary(d)
        self.assertNotIn('## Goals', md)

    def test_every_goal_reads_a_csv_of_a_module(self):
        csvs = {m.CSV for m in bench_report.SECTIONS}
        for name, goal in bench_report.GOALS:
            self.assertTrue(name in csvs or bench_report.read_by_a_module(name), (name, goal))


class CommittedResults(unittest.TestCase):
    def test_results_summary_is_what_the_modules_make_of_its_csvs(self):
        results = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                               'results')
        if not os.path.exists(os.path.join(results, 'summary.md')):
            self.skipTest('no results/summary.md to compare with')
        with open(os.path.join(results, 'summary.md')) as f:
            want = f.read().splitlines()
        # The plots are matplotlib's, and slow: not drawn here.
        modules = [m for name, m in sys.modules.items()
                   if name.startswith('bench_report.') and hasattr(m, 'plot')]
        with tempfile.TemporaryDirectory() as d, contextlib.ExitStack() as stack:
            for m in modules:
                stack.enter_context(mock.patch.object(m, 'plot'))
            for path in glob.glob(os.path.join(results, '*.csv')):
                shutil.copy(path, d)
            got = bench_report.summary(d)
        diff = list(difflib.unified_diff(want, got, 'results/summary.md', 'report.py', lineterm='', n=1))
        self.assertFalse(diff, 'results/summary.md is not what scripts/lib/report.py makes of results/*.csv: '
                         'a change of scripts/lib/bench_report/ changed the report (keep it, or regenerate '
                         'with make bench), or results/ changed without report.py:\n' + '\n'.join(diff[:30]))


class Prose(unittest.TestCase):
    def test_paragraphs_wrap_at_72_columns(self):
        prose = core.Prose('test', {'k': ('word ' * 30) + '{n}\n\nsecond paragraph'})
        lines = prose.text('k', n=7)
        self.assertTrue(all(len(line) <= 72 for line in lines))
        self.assertEqual(lines[-3:], ['', 'second paragraph', ''])
        self.assertTrue(lines[-4].endswith('word 7'))

    def test_missing_block_or_value_says_what_to_do(self):
        prose = core.Prose('test', {'k': 'needs {n}'})
        with self.assertRaisesRegex(SystemExit, 'no prose block "other" in test: add it'):
            prose.text('other')
        with self.assertRaisesRegex(SystemExit, r'uses \{n\}, which its section does not give'):
            prose.text('k')


if __name__ == '__main__':
    unittest.main()

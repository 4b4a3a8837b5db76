# SPDX-License-Identifier: GPL-2.0
"""Self-test of scripts/lib/bench_report/claim_icount_arm64.py: made-up
icount rows of the release claim (unpatched) and the fully ordered one
(patched) in, its goal and section out."""
import unittest

import bench_report
from bench_report import claim_icount_arm64


def rows(release_insns, full_insns):
    """Two boots a kernel, each kretprobe row at the instructions per
    call given (a native row beside it, as the guest prints)."""
    out = []
    for kernel, insns in (('unpatched', release_insns), ('patched', full_insns)):
        for run in (1, 2):
            for row, n in (('native', 237.3), ('kretprobe', insns)):
                out.append({'arch': 'arm64', 'kernel': kernel, 'accel': 'tcg-icount', 'vcpus': '1',
                            'run': str(run), 'series': '6.1-fullclaim@abc+6.1@def',
                            'clocksource': 'arch_sys_counter', 'ns_per_insn': '1.0011', 'row': row,
                            'calls_per_vsec': str(1e9 / n)})
    return out


class ClaimIcountArm64(unittest.TestCase):
    def test_release_cheaper_is_met_with_the_saving(self):
        (goal, measured, verdict), = claim_icount_arm64.goal(rows(1345.5, 1346.5), None)
        self.assertTrue(goal.startswith("6.1: the pop's release claim"), goal)
        self.assertEqual(measured, '1345.5 release, 1346.5 fully ordered (1.0 saved; 2 + 2 boots)')
        self.assertEqual(verdict, 'met, 1.0 fewer per hit')

    def test_release_dearer_is_not_met(self):
        (_, _, verdict), = claim_icount_arm64.goal(rows(1347.0, 1345.5), None)
        self.assertEqual(verdict, 'not met, 1.5 more')

    def test_one_kernel_missing_no_goal(self):
        only_release = [r for r in rows(1345.5, 1346.5) if r['kernel'] == 'unpatched']
        self.assertEqual(claim_icount_arm64.goal(only_release, None), [])

    def test_section_title(self):
        lines = claim_icount_arm64.section(rows(1345.5, 1346.5), None)
        self.assertTrue(lines[0].startswith("## Linux 6.1, the pop's claim"), lines[0])

    def test_listed_in_the_report(self):
        self.assertIn(claim_icount_arm64, bench_report.SECTIONS)
        self.assertIn((claim_icount_arm64.CSV, claim_icount_arm64.goal), bench_report.GOALS)


if __name__ == '__main__':
    unittest.main()

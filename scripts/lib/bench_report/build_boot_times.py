# SPDX-License-Identifier: GPL-2.0
"""build-boot-times (scripts/host-bench/build-boot-times.sh, on the host): the
harness's own first build, no-change rebuild and guest round trip."""
from collections import defaultdict

from .core import Prose, cell, table

CSV = 'build-boot-times.csv'
PROSE = Prose(__file__, {
    'build-boot-times': '''
Whole-command wall times in seconds on this machine (2 cores); median
(min-max) over the runs.
''',
})


def section(rows, results):
    groups = defaultdict(list)
    for r in rows:
        groups[(r['step'], r['arch'], r['flavor'], r['accel'], r['vcpus'])].append(float(r['seconds']))
    cells = []
    for (step, arch, flavor, accel, vcpus), v in groups.items():
        if not step.startswith('boot'):
            accel = vcpus = '-'
        cells.append([step, arch, flavor, accel.upper(), vcpus, len(v), cell(v, lambda x: f'{x:.1f}')])
    return (['## Build and boot times', '']
            + table(['step', 'arch', 'flavor', 'guest', 'vCPUs', 'runs', 'median s (min-max)'], cells)
            + [''] + PROSE.text('build-boot-times'))

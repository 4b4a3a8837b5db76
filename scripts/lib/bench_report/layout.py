# SPDX-License-Identifier: GPL-2.0
"""layout (scripts/host-bench/layout.sh, on the host): the cache lines two
CPUs' own pops and pushes both write, counted in userspace."""
from collections import defaultdict

from .core import Prose, table

CSV = 'layout.csv'
PROSE = Prose(__file__, {
    'layout': '''
Counted in userspace (objpool_test -L): each CPU in turn pops and pushes
its own objects while the shim logs the line of every store the pool
makes and of each object popped. Deterministic; the freelist, one head
for all CPUs, is the check's positive control.
''',
})


def section(rows, results):
    """Shared cache lines per point, one column per pool."""
    pools = sorted({r['pool'] for r in rows}, key=lambda p: (p != 'objpool', p))
    pts = defaultdict(dict)
    for r in rows:
        pts[(int(r['cpus']), int(r['per_cpu']), int(r['obj_size']))][r['pool']] = r['shared_lines']
    cells = [list(k) + [pts[k].get(p, '-') for p in pools] for k in sorted(pts)]
    return (['## Layout: cache lines that two CPUs\' own hits both write', '']
            + table(['CPUs', 'objects per CPU', 'object bytes'] + pools, cells) + [''] + PROSE.text('layout'))


def shared_lines_goal(rows, results):
    """The layout goal: no cache line written by two CPUs' own hits."""
    by = defaultdict(list)
    for r in rows:
        by[r['pool']].append(r)
    ours = by.get('objpool', [])
    if not ours:
        return []
    worst = max(int(r['shared_lines']) for r in ours)
    controls = ', '.join(f'{p} up to {max(int(r["shared_lines"]) for r in rs)}'
                         for p, rs in sorted(by.items()) if p != 'objpool')
    goal = 'layout: no cache line written by two CPUs\' own pops and pushes'
    measured = f'objpool {worst} at worst ({len(ours)} points)' + (f'; {controls}' if controls else '')
    return [(goal, measured, 'met' if worst == 0 else 'not met')]


GOALS = [(CSV, shared_lines_goal)]

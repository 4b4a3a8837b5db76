# SPDX-License-Identifier: GPL-2.0
"""real-load (guest/bench/real-load.sh): syscall-loop calls/s with no
probe, a kprobe, a kretprobe, an fprobe; 1-8 threads on 2 vCPUs, 6.1's
freelist (unpatched) and the pool (patched), TCG wall time (indicative
only)."""
import os
import statistics
from collections import defaultdict

from .core import KERNELS_6_1, Prose, cell, plot, table

CSV = 'real-load.csv'
PROSE = Prose(__file__, {
    'real-load': '''
getppid() in N threads; guest {accel}, {vcpus} vCPUs (N > {vcpus} is
oversubscribed). Median (min-max) over repeats; {ratio} is the
ratio of the medians. Under TCG atomics are emulated and caches are not
modelled, so the shared-cache-line contention the series removes does
not show, while its extra instructions do.
''',
    'real-load-scaling': '''
Scaling efficiency T(2) / (2 x T(1)) of the medians:
''',
})


def section(rows, results):
    data = defaultdict(list)
    for r in rows:
        data[(r['kernel'], r['row'], int(r['threads']))].append(float(r['calls_per_sec']))
    accel = {r['kernel']: r['accel'].upper() for r in rows}
    vcpus = rows[0]['vcpus']
    probes = [p for p in ('native', 'kprobe', 'kretprobe', 'fprobe') if any(p == q for _, q, _ in data)]
    threads = sorted({t for _, _, t in data})
    guests = "/".join(sorted(set(accel.values())))
    cells = []
    for p in probes:
        for t in threads:
            v = {k: data.get((k, p, t)) for k in KERNELS_6_1._fields}
            txt = [cell(v[k]) if v[k] else '-' for k in KERNELS_6_1._fields]
            ratio = (f'{statistics.median(v["patched"]) / statistics.median(v["unpatched"]):.3f}'
                     if all(v.values()) else '-')
            cells.append([p, t, txt[0], txt[1], ratio])
    out = (['## Real load: syscall-loop calls/s', '']
           + table(['row', 'threads', *KERNELS_6_1, KERNELS_6_1.ratio()], cells)
           + [''] + PROSE.text('real-load', accel=guests, vcpus=vcpus, ratio=KERNELS_6_1.ratio()) + PROSE.text('real-load-scaling'))
    efficiency = []
    for p in probes:
        efficiency.append([p])
        for k in KERNELS_6_1._fields:
            one, two = data.get((k, p, 1)), data.get((k, p, 2))
            efficiency[-1].append(f'{statistics.median(two) / (2 * statistics.median(one)):.2f}'
                                  if one and two else '-')
    out += table(['row', *KERNELS_6_1], efficiency)
    series = defaultdict(list)
    for (k, p, t), v in data.items():
        series[f'{p} ({getattr(KERNELS_6_1, k)})'].append((t, statistics.median(v)))
    plot(os.path.join(results, 'real-load.png'),
         f'syscall-loop, {"/".join(sorted(set(accel.values())))}, {vcpus} vCPUs', 'calls/s', series)
    out += ['', '![real load](real-load.png)']
    return out

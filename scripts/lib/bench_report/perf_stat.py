# SPDX-License-Identifier: GPL-2.0
"""perf-stat (guest/bench/perf-stat.sh): upstream's objpool series'
measurement, perf stat -a on a perf-probe kretprobe on prctl; TCG wall
clock, indicative only."""
import statistics
from collections import defaultdict

from .core import KERNELS_6_1, Prose, cell, table

CSV = 'perf-stat.csv'
PROSE = Prose(__file__, {
    'perf-stat': '''
What upstream's objpool series measured, with perf: `perf probe -a
'<prctl syscall>%return'`, N threads calling prctl() in a loop, returns
counted by `perf stat -a -e probe:...`. Guest {accel}, {vcpus} vCPUs (N >
{vcpus} is oversubscribed) on a {hosts}-core host; kretprobe returns/s,
median (min-max) over the runs (boots x repeats); {ratio} is
the ratio of the medians of the same `make bench`. Indicative only:
multi-threaded TCG wall-clock rates vary by tens of percent between
boots, and TCG models no cache contention; the icount tables are the
exact ones. On a many-core machine the same command (`make bench`
there, or `guest/bench/perf-stat.sh`) measures what the series is for.
''',
})


def section(rows, results):
    """Per arch and thread count, the median (min-max) of the runs'
    returns/s on each kernel, and patched / unpatched of the medians of this one
    make bench (results/perf-stat.csv holds one run's rows)."""
    data = defaultdict(list)
    for r in rows:
        data[(r.get('arch', 'x86_64'), int(r['threads']), r['kernel'])].append(
            float(r['hits_per_sec']))
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    vcpus = '/'.join(sorted({r['vcpus'] for r in rows}))
    hosts = '/'.join(sorted({r['host_cpus'] for r in rows if r.get('host_cpus')})) or '?'
    cells = []
    for a, t in sorted({(a, t) for a, t, _ in data}, key=lambda k: (k[0] != 'x86_64', k)):
        v = {k: data.get((a, t, k)) for k in KERNELS_6_1._fields}
        txt = [cell(v[k]) if v[k] else '-' for k in KERNELS_6_1._fields]
        runs = '/'.join(str(len(v[k])) if v[k] else '0' for k in KERNELS_6_1._fields)
        ratio = (f'{statistics.median(v["patched"]) / statistics.median(v["unpatched"]):.3f}'
                 if all(v.values()) else '-')
        cells.append([a, t, runs, txt[0], txt[1], ratio])
    return ([f'## perf stat on a kretprobe: indicative only: QEMU {accel} wall clock '
             f'on a {hosts}-core host', '']
            + table(['arch', 'threads', 'runs', *KERNELS_6_1, KERNELS_6_1.ratio()], cells)
            + [''] + PROSE.text('perf-stat', accel=accel, vcpus=vcpus, hosts=hosts, ratio=KERNELS_6_1.ratio()))

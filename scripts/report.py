#!/usr/bin/python3
"""Turn the CSV files of a benchmark run into PNG plots and summary.md.

usage: report.py RESULTS_DIR

Every table states the guest type (TCG or KVM) and the vCPU count next to
its numbers; medians are quoted with their min-max spread over repeats.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def spread(values):
    return statistics.median(values), min(values), max(values)


def fmt(v):
    if v >= 1e6:
        return f'{v / 1e6:.2f}M'
    if v >= 1e3:
        return f'{v / 1e3:.1f}k'
    return f'{v:.2f}'


def plot(path, title, ylabel, series):
    """series: {label: [(x, y), ...]}"""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, points in sorted(series.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker='o', label=label)
    ax.set_title(title)
    ax.set_xlabel('threads')
    ax.set_ylabel(ylabel)
    ax.set_xscale('log', base=2)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize='small')
    fig.tight_layout()
    fig.savefig(path + '.tmp.png', dpi=100)
    os.replace(path + '.tmp.png', path)
    plt.close(fig)


def harness(rows):
    out = ['## Harness timings', '',
           'Whole-command wall times in seconds on this machine (2 cores); '
           'median (min-max) over the runs.', '',
           '| step | arch | flavor | guest | vCPUs | runs | median s (min-max) |',
           '|---|---|---|---|---|---|---|']
    groups = defaultdict(list)
    for r in rows:
        groups[(r['step'], r['arch'], r['flavor'], r['accel'], r['vcpus'])].append(float(r['seconds']))
    for (step, arch, flavor, accel, vcpus), v in groups.items():
        m, lo, hi = spread(v)
        if not step.startswith('boot'):
            accel = vcpus = '-'
        out.append(f'| {step} | {arch} | {flavor} | {accel.upper()} | {vcpus} | {len(v)} | '
                   f'{m:.1f} ({lo:.1f}-{hi:.1f}) |')
    return out


def real_load(rows, results):
    data = defaultdict(list)
    for r in rows:
        data[(r['kernel'], r['row'], int(r['threads']))].append(float(r['calls_per_sec']))
    accel = {r['kernel']: r['accel'].upper() for r in rows}
    vcpus = rows[0]['vcpus']
    kernels = sorted({k for k, _, _ in data})
    probes = [p for p in ('native', 'kprobe', 'kretprobe', 'fprobe') if any(p == q for _, q, _ in data)]
    threads = sorted({t for _, _, t in data})
    out = ['## Real load: syscall-loop calls/s', '',
           f'getppid() in N threads; guest {"/".join(sorted(set(accel.values())))}, '
           f'{vcpus} vCPUs (N > {vcpus} is oversubscribed). Median (min-max) over repeats; '
           'ratio = patched / base of the medians. Under TCG atomics are emulated and '
           'caches are not modelled, so the shared-cache-line contention the series '
           'removes does not show, while its extra instructions do.', '',
           '| row | threads | base | patched | patched/base |', '|---|---|---|---|---|']
    for p in probes:
        for t in threads:
            cells = []
            for k in ('base', 'patched'):
                v = data.get((k, p, t))
                cells.append(spread(v) if v else None)
            txt = [f'{fmt(c[0])} ({fmt(c[1])}-{fmt(c[2])})' if c else '-' for c in cells]
            ratio = f'{cells[1][0] / cells[0][0]:.3f}' if all(cells) else '-'
            out.append(f'| {p} | {t} | {txt[0]} | {txt[1]} | {ratio} |')
    out += ['', 'Scaling efficiency T(2) / (2 x T(1)) of the medians:', '',
            '| row | base | patched |', '|---|---|---|']
    for p in probes:
        eff = []
        for k in ('base', 'patched'):
            one, two = data.get((k, p, 1)), data.get((k, p, 2))
            eff.append(f'{statistics.median(two) / (2 * statistics.median(one)):.2f}' if one and two else '-')
        out.append(f'| {p} | {eff[0]} | {eff[1]} |')
    series = defaultdict(list)
    for (k, p, t), v in data.items():
        series[f'{p} ({k})'].append((t, statistics.median(v)))
    plot(os.path.join(results, 'real-load.png'),
         f'syscall-loop, {"/".join(sorted(set(accel.values())))}, {vcpus} vCPUs', 'calls/s', series)
    out += ['', '![real load](real-load.png)']
    return out


def objpool_module(rows, results):
    """Pairs/s per case; the "empty" case in ns per failed pop.

    CSVs written before pairs_per_sec existed have ops_per_sec, which
    counted hits + misses + pushes: they are still read, and labelled so.
    """
    legacy = 'pairs_per_sec' not in rows[0]
    data = defaultdict(list)
    for r in rows:
        key = (r['case'], int(r['irq']), r['impl'], int(r['vcpus']), int(r['threads']))
        if r['case'] == 'empty':
            if r.get('ns_per_miss'):
                data[key].append(float(r['ns_per_miss']))
        else:
            data[key].append(float(r['ops_per_sec' if legacy else 'pairs_per_sec']))
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    impls = sorted({k[2] for k in data})
    points = sorted({(k[3], k[4]) for k in data})
    what = ('Operations per second (hits + misses + pushes: this CSV predates '
            'pairs_per_sec, and a pool that fails fast scores high in its misses case)'
            if legacy else
            'Successful pop+push pairs per second (a failed pop counts nothing)')
    out = ['## Pool benchmark in the kernel (lib/test_objpool.ko)', '',
           f'{what}, all threads together; guest {accel}. '
           'The empty case (every object held, every pop fails) is in CPU nanoseconds '
           'per failed pop instead: lower is better. '
           'TCG emulates atomics and models no caches, so the cache-line contention '
           'that objpool removes costs nothing here: read these for correctness and '
           'relative overhead, and the userspace table for scaling on real cores. '
           'Threads above the vCPU count are oversubscribed kthreads. '
           'Median (min-max) over repeats. irq=1: an hrtimer per CPU does the same in hardirq context.', '']
    ratios = ['| case | irq | objpool/freelist (2 vCPUs, 2 threads) | objpool/floor (1 vCPU, 1 thread) |',
              '|---|---|---|---|']
    for case in sorted({k[0] for k in data}):
        unit = 'ns per failed pop' if case == 'empty' else ('ops/s' if legacy else 'pairs/s')
        for irq in sorted({k[1] for k in data if k[0] == case}):
            out += [f'### {case}, irq={irq} ({unit})', '',
                    '| vCPUs | threads | ' + ' | '.join(impls) + ' |',
                    '|---|---|' + '---|' * len(impls)]
            series = defaultdict(list)
            for vcpus, threads in points:
                cells = []
                for impl in impls:
                    v = data.get((case, irq, impl, vcpus, threads))
                    if v:
                        m, lo, hi = spread(v)
                        cells.append(f'{fmt(m)} ({fmt(lo)}-{fmt(hi)})')
                        series[impl].append((threads if vcpus > 1 else 1, m))
                    else:
                        cells.append('-')
                out.append(f'| {vcpus} | {threads} | ' + ' | '.join(cells) + ' |')
            out.append('')

            def ratio(a, b, vcpus, threads):
                va, vb = data.get((case, irq, a, vcpus, threads)), data.get((case, irq, b, vcpus, threads))
                return f'{statistics.median(va) / statistics.median(vb):.2f}' if va and vb else '-'
            note = ' (ns ratio: below 1 is cheaper)' if case == 'empty' else ''
            ratios.append(f'| {case}{note} | {irq} | {ratio("objpool", "freelist", 2, 2)} | '
                          f'{ratio("objpool", "percpu", 1, 1)} |')
            plot(os.path.join(results, f'objpool-module-{case}-irq{irq}.png'),
                 f'test_objpool {case} irq={irq}, {accel}', unit, series)
            out += [f'![{case} irq={irq}](objpool-module-{case}-irq{irq}.png)', '']
    return out[:4] + ['### Ratios', ''] + ratios + [''] + out[4:]


def memory(rows):
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    r0 = rows[0]
    possible = int(r0['possible'])
    out = ['## Memory of the instance pools at scale', '',
           f'Guest {accel}, {r0["vcpus"]} present / {possible} possible CPUs. '
           'Delta of Slab + VmallocUsed + Percpu (/proc/meminfo) across registering the probe; '
           'one sample per kernel, so small deltas carry a few hundred KiB of noise. '
           '"pool metadata" is what the patched objpool allocated beside the objects '
           '(rings, headers, bitmap: its meta_bytes, printed by guest/modules/probe_mem.ko); '
           'the target is at most 16 bytes per object plus 256 bytes per possible CPU, '
           'and "one ring per CPU" is what rings holding every object on every CPU '
           '(upstream 6.7-6.12) would take: possible CPUs x roundup_pow_of_two(objects) x 8 bytes.', '',
           '| probe | functions | objects | base | patched | patched/base | patched bytes/object '
           '| pool metadata (patched) | target | one ring per CPU |',
           '|---|---|---|---|---|---|---|---|---|---|']
    by = defaultdict(dict)
    meta = {}
    for r in rows:
        key = (r['probe'], r['functions'], r['objects'])
        by[key][r['kernel']] = int(r['delta_kb'])
        if r['kernel'] == 'patched' and r.get('meta_bytes'):
            meta[key] = int(r['meta_bytes'])
    mib = lambda v: f'{v / 2**20:.2f} MiB'
    for key, k in by.items():
        probe, funcs, objs = key
        b, p = k.get('base'), k.get('patched')
        cell = lambda v: f'{v / 1024:.1f} MiB' if v is not None else '-'
        ratio = f'{p / b:.2f}' if b and p is not None else '-'
        per = f'{p * 1024 / int(objs):.0f}' if p is not None else '-'
        n = int(objs)
        m = f'{mib(meta[key])} ({meta[key] / n:.1f} B/object)' if key in meta else '-'
        target = mib(16 * n + 256 * possible)
        full = mib(possible * (1 << (n - 1).bit_length()) * 8)
        out.append(f'| {probe} | {funcs} | {objs} | {cell(b)} | {cell(p)} | {ratio} | {per} '
                   f'| {m} | {target} | {full} |')
    return out


def objpool_userspace(rows, results):
    data = defaultdict(list)
    for r in rows:
        try:
            data[(r['case'], r['impl'], int(r['threads']))].append(float(r['ops_per_sec']))
        except ValueError:  # "init failed" or a peer that did not build
            continue
    impls = sorted({k[1] for k in data})
    threads = sorted({k[2] for k in data})
    out = ['## Pool benchmark in userspace (tools/testing/objpool)', '',
           'Pop+push pairs per second on the host (2 cores, no guest), threads '
           'above 2 oversubscribed; median (min-max) over runs. Peers built from '
           'their real sources: freelist.h of the base, upstream objpool of Linux 6.12.', '']
    for case in sorted({k[0] for k in data}):
        out += [f'### {case}', '', '| threads | ' + ' | '.join(impls) + ' | objpool/upstream | objpool/freelist |',
                '|---|' + '---|' * (len(impls) + 2)]
        series = defaultdict(list)
        for t in threads:
            cells = []
            for impl in impls:
                v = data.get((case, impl, t))
                if v:
                    m, lo, hi = spread(v)
                    cells.append(f'{fmt(m)} ({fmt(lo)}-{fmt(hi)})')
                    series[impl].append((t, m))
                else:
                    cells.append('-')
            med = {i: statistics.median(data[(case, i, t)]) for i in impls if (case, i, t) in data}
            r = lambda a, b: f'{med[a] / med[b]:.2f}' if a in med and b in med else '-'
            out.append(f'| {t} | ' + ' | '.join(cells) + f' | {r("objpool", "upstream")} | {r("objpool", "freelist")} |')
        plot(os.path.join(results, f'objpool-userspace-{case}.png'), f'objpool_test -b {case} (host)', 'pairs/s', series)
        out += ['', f'![{case}](objpool-userspace-{case}.png)', '']
    return out


SECTIONS = [('harness.csv', harness), ('real-load.csv', real_load),
            ('memory.csv', memory), ('objpool-module.csv', objpool_module),
            ('objpool-userspace.csv', objpool_userspace)]


def main():
    results = sys.argv[1]
    md = ['# Benchmark results', '',
          'Produced by `make bench`; see README.md for what each number means.', '']
    for name, section in SECTIONS:
        path = os.path.join(results, name)
        if not os.path.exists(path):
            continue
        rows = read(path)
        if not rows:
            continue
        args = (rows, results) if section.__code__.co_argcount == 2 else (rows,)
        md += section(*args) + ['']
    with open(os.path.join(results, 'summary.md.tmp'), 'w') as f:
        f.write('\n'.join(md) + '\n')
    os.replace(os.path.join(results, 'summary.md.tmp'), os.path.join(results, 'summary.md'))


if __name__ == '__main__':
    main()

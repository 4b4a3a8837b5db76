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
    data = defaultdict(list)
    for r in rows:
        key = (r['case'], int(r['irq']), r['impl'], int(r['vcpus']), int(r['threads']))
        data[key].append(float(r['ops_per_sec']))
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    impls = sorted({k[2] for k in data})
    points = sorted({(k[3], k[4]) for k in data})
    out = ['## Pool benchmark in the kernel (lib/test_objpool.ko)', '',
           f'Pop+push operations per second, all threads together; guest {accel}. '
           'TCG emulates atomics and models no caches, so the cache-line contention '
           'that objpool removes costs nothing here: read these for correctness and '
           'relative overhead, and the userspace table for scaling on real cores. '
           'Threads above the vCPU count are oversubscribed kthreads. '
           'Median (min-max) over repeats. irq=1: an hrtimer per CPU does the same in hardirq context.', '']
    ratios = ['| case | irq | objpool/freelist (2 vCPUs, 2 threads) | objpool/floor (1 vCPU, 1 thread) |',
              '|---|---|---|---|']
    for case in sorted({k[0] for k in data}):
        for irq in sorted({k[1] for k in data if k[0] == case}):
            out += [f'### {case}, irq={irq}', '',
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
            ratios.append(f'| {case} | {irq} | {ratio("objpool", "freelist", 2, 2)} | '
                          f'{ratio("objpool", "percpu", 1, 1)} |')
            plot(os.path.join(results, f'objpool-module-{case}-irq{irq}.png'),
                 f'test_objpool {case} irq={irq}, {accel}', 'ops/s', series)
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

ICOUNT_NOTE = ('icount counts executed guest instructions, not time: cache misses, '
               'cache-line contention and memory ordering cost nothing here, so these '
               'numbers are the single-thread instruction cost only, not a speed on '
               'real hardware.')


def icount_runs(rows):
    """{(arch, row, kernel): {run: calls per virtual second}}"""
    data = defaultdict(dict)
    for r in rows:
        data[(r['arch'], r['row'], r['kernel'])][int(r['run'])] = float(r['calls_per_vsec'])
    return data


def real_load_icount(rows):
    data = icount_runs(rows)
    arches = sorted({r['arch'] for r in rows}, key=lambda a: (a != 'x86_64', a))
    clocks = defaultdict(set)
    ratios = defaultdict(list)
    for r in rows:
        clocks[r['arch']].add(r['clocksource'])
        ratios[r['arch']].append(float(r['ns_per_insn']))
    out = ['## Instructions per call under QEMU icount: real load', '',
           'syscall-loop getppid(), 1 thread, 1 vCPU, QEMU TCG with `-icount shift=0,sleep=off` '
           '(`make vm ICOUNT=1`): the guest clock advances 1 ns per guest instruction, so '
           'instructions per call = 1e9 / calls per virtual second (the loop, the syscall, '
           'the probe and the timer ticks that land in the loop). Each run is a separate boot; '
           'spread = (max - min) / mean of the runs. The native row has no probe and the '
           'kprobe row never touches the instance pool: they are the controls, and should '
           'not differ between the kernels. Kernels: the bench flavor, base and patched, same config. '
           + ICOUNT_NOTE + ' Regenerate with `BENCHES=real-load-icount make bench` '
           '(ICOUNT_RUNS=, ICOUNT_ARCHES=, ICOUNT_SECONDS= to change the defaults 2, x86_64 arm64, 0.2).', '',
           'Guest clock check (guest/bench/icount-clock.sh: a loop of known instruction count, '
           'timed with CLOCK_MONOTONIC): ' +
           '; '.join(f'{a}: clocksource {"/".join(sorted(clocks[a]))}, '
                     f'{min(ratios[a]):.4f}-{max(ratios[a]):.4f} ns per instruction'
                     for a in arches) + '.', '']
    for arch in arches:
        rws = [p for p in ('native', 'kprobe', 'kretprobe', 'fprobe')
               if any(k[0] == arch and k[1] == p for k in data)]
        out += [f'### {arch}', '',
                '| row | base: calls/virtual s, insns/call (each run) | patched: same | base insns/call (mean) | '
                'patched insns/call (mean) | patched - base (insns per hit) | spread base / patched |',
                '|---|---|---|---|---|---|---|']
        for p in rws:
            cells, ipc, spr = [], [], []
            for k in ('base', 'patched'):
                runs = data.get((arch, p, k), {})
                v = [runs[i] for i in sorted(runs)]
                cells.append(' / '.join(f'{x:,.0f}' for x in v) or '-')
                if v:
                    cells[-1] += '<br>' + ' / '.join(f'{1e9 / x:.1f}' for x in v)
                    ipc.append(statistics.mean(1e9 / x for x in v))
                    spr.append(f'{(max(v) - min(v)) / statistics.mean(v) * 100:.4f}%')
                else:
                    ipc.append(None)
                    spr.append('-')
            i = [f'{x:.1f}' if x is not None else '-' for x in ipc]
            d = f'{ipc[1] - ipc[0]:+.1f} ({(ipc[1] / ipc[0] - 1) * 100:+.2f}%)' if None not in ipc else '-'
            out.append(f'| {p} | {cells[0]} | {cells[1]} | {i[0]} | {i[1]} | {d} | {spr[0]} / {spr[1]} |')
        out.append('')
    return out


def icount_goals(rows):
    """Goal rows: a probe hit costs no more instructions patched than base."""
    data = icount_runs(rows)
    out = []
    for arch in sorted({r['arch'] for r in rows}, key=lambda a: (a != 'x86_64', a)):
        for p in ('kretprobe', 'fprobe'):
            b, q = data.get((arch, p, 'base')), data.get((arch, p, 'patched'))
            if not b or not q:
                continue
            ib = [1e9 / x for x in b.values()]
            iq = [1e9 / x for x in q.values()]
            d = statistics.mean(iq) - statistics.mean(ib)
            noise = max(max(ib) - min(ib), max(iq) - min(iq))
            if d <= 0:
                verdict = 'met'
            elif d <= noise:
                verdict = f'met within the runs\' spread ({d:+.1f}, spread {noise:.1f})'
            else:
                verdict = f'not met, {d:+.1f} instructions per hit'
            article = 'an' if p == 'fprobe' else 'a'
            out.append(f'| {article} {p} hit costs no more instructions patched than base, 1 thread, '
                       f'{arch} (icount) | base {statistics.mean(ib):.1f}, patched '
                       f'{statistics.mean(iq):.1f} insns/call ({d:+.1f}; {len(ib)} + {len(iq)} runs) '
                       f'| {verdict} |')
    return out

def pool_icount(rows):
    """{(arch, impl, possible): {'pair': {run: insns}, 'miss': {run: insns}}}

    A run's virtual ns (= instructions) is ops / ops_per_sec.  Pair: the
    nonblocking case, every pop succeeds: instructions / successful pops.
    Miss: the misses case (one object, batches of 1-16 pops): its
    instructions minus its successful pops at the same boot's pair cost,
    divided by the failed pops.
    """
    ns = {}
    for r in rows:
        key = (r['arch'], r['impl'], int(r['possible']), int(r['run']), r['case'])
        ns[key] = (int(r['ops']) * 1e9 / float(r['ops_per_sec']), int(r['hits']), int(r['misses']))
    out = defaultdict(lambda: {'pair': {}, 'miss': {}})
    for (arch, impl, possible, run, case), (t, hits, misses) in ns.items():
        if case == 'nonblocking' and hits:
            out[(arch, impl, possible)]['pair'][run] = t / hits
    for (arch, impl, possible, run, case), (t, hits, misses) in ns.items():
        pair = out[(arch, impl, possible)]['pair'].get(run)
        if case == 'misses' and misses and pair is not None:
            out[(arch, impl, possible)]['miss'][run] = (t - hits * pair) / misses
    return out


def objpool_module_icount(rows):
    data = pool_icount(rows)
    arches = sorted({k[0] for k in data}, key=lambda a: (a != 'x86_64', a))
    impls = sorted({k[1] for k in data})
    runs = lambda d: ' / '.join(f'{d[i]:.1f}' for i in sorted(d)) if d else '-'
    out = ['## Instructions per pool operation under QEMU icount: lib/test_objpool.ko', '',
           'lib/test_objpool.ko on the patched bench kernel, 1 vCPU, `make vm ICOUNT=1` '
           '(1 ns of guest time per guest instruction), no hrtimer, booted with 2 and with '
           '96 possible CPUs (MAXCPUS; an arm64 QEMU virt guest cannot have absent CPUs, so '
           'it has 1 possible CPU whatever MAXCPUS says). Pair: the nonblocking case (16 objects, pop then push '
           'back: every pop succeeds), instructions per successful pop+push pair, including '
           'the module\'s own per-iteration work (owner tag claim and release, loop). '
           'Failed pop: the misses case with one object (batches of 1-16 pops, one succeeds), '
           'its instructions minus its successful pairs at the same boot\'s pair cost, per '
           'failed pop: an estimate that also carries the batch loop\'s difference from the '
           'nonblocking loop. Each value is one boot (run 1 / run 2). ' + ICOUNT_NOTE +
           ' Regenerate with `BENCHES=objpool-module-icount make bench`.', '']
    for arch in arches:
        possibles = sorted({k[2] for k in data if k[0] == arch})
        hdr = ['impl'] + [f'pair, {p} possible' for p in possibles] + \
              [f'failed pop, {p} possible' for p in possibles]
        if len(possibles) > 1:
            hdr.append(f'failed pop {possibles[-1]} / {possibles[0]} possible')
        out += [f'### {arch}', '', '| ' + ' | '.join(hdr) + ' |', '|' + '---|' * len(hdr)]
        for impl in impls:
            cells = [runs(data[(arch, impl, p)]['pair']) for p in possibles] + \
                    [runs(data[(arch, impl, p)]['miss']) for p in possibles]
            if len(possibles) > 1:
                lo, hi = data[(arch, impl, possibles[0])]['miss'], data[(arch, impl, possibles[-1])]['miss']
                cells.append(f'{statistics.mean(hi.values()) / statistics.mean(lo.values()):.2f}'
                             if lo and hi else '-')
            out.append(f'| {impl} | ' + ' | '.join(cells) + ' |')
        out.append('')
    return out


def pool_icount_goals(rows):
    data = pool_icount(rows)
    out = []
    for arch in sorted({k[0] for k in data}, key=lambda a: (a != 'x86_64', a)):
        lo, hi = data.get((arch, 'objpool', 2)), data.get((arch, 'objpool', 96))
        if not lo or not hi or not lo['miss'] or not hi['miss']:
            continue
        a, b = statistics.mean(lo['miss'].values()), statistics.mean(hi['miss'].values())
        verdict = 'met' if b <= 2 * a else f'not met, {b / a:.2f}x'
        out.append(f'| an empty-pool pop at 96 possible CPUs costs at most 2x its cost at 2, '
                   f'{arch} (icount) | {a:.1f} insns at 2, {b:.1f} at 96 ({b / a:.2f}x) | {verdict} |')
    return out


def goals(results):
    """The goals section: one row per goal with its measured verdict."""
    out = []
    path = os.path.join(results, 'real-load-icount.csv')
    if os.path.exists(path):
        rows = read(path)
        if rows:
            out += icount_goals(rows)
    path = os.path.join(results, 'objpool-module-icount.csv')
    if os.path.exists(path):
        rows = read(path)
        if rows:
            out += pool_icount_goals(rows)
    if not out:
        return []
    return ['## Goals', '',
            'Each goal with what was measured and the verdict. ' + ICOUNT_NOTE, '',
            '| goal | measured | verdict |', '|---|---|---|'] + out + ['']


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


SECTIONS = [('harness.csv', harness), ('real-load-icount.csv', real_load_icount),
            ('real-load.csv', real_load),
            ('memory.csv', memory), ('objpool-module-icount.csv', objpool_module_icount),
            ('objpool-module.csv', objpool_module),
            ('objpool-userspace.csv', objpool_userspace)]


def main():
    results = sys.argv[1]
    md = ['# Benchmark results', '',
          'Produced by `make bench`; see README.md for what each number means.', '']
    md += goals(results)
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

#!/usr/bin/python3
"""Turn the CSV files of a benchmark run into PNG plots and summary.md.

usage: report.py RESULTS_DIR

Every table states the guest type (TCG or KVM) and the vCPU count next to
its numbers; medians are quoted with their min-max spread over repeats.
"""
import csv
import functools
import inspect
import os
import statistics
import sys
from collections import defaultdict


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def spread(values):
    return statistics.median(values), min(values), max(values)


def cell(values, f=None):
    """'median (min-max)' of VALUES, each written with F (fmt by default)."""
    return span(spread(values), f)


def span(stats, f=None):
    """'median (min-max)' of a (median, min, max, ...) tuple."""
    f = f or fmt
    return f'{f(stats[0])} ({f(stats[1])}-{f(stats[2])})'


def fmt(v):
    if v >= 1e6:
        return f'{v / 1e6:.2f}M'
    if v >= 1e3:
        return f'{v / 1e3:.1f}k'
    return f'{v:.2f}'


def arch_order(arches):
    """ARCHES once each, x86_64 first."""
    return sorted(set(arches), key=lambda a: (a != 'x86_64', a))


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


def build_boot_times(rows):
    out = ['## Build and boot times', '',
           'Whole-command wall times in seconds on this machine (2 cores); '
           'median (min-max) over the runs.', '',
           '| step | arch | flavor | guest | vCPUs | runs | median s (min-max) |',
           '|---|---|---|---|---|---|---|']
    groups = defaultdict(list)
    for r in rows:
        groups[(r['step'], r['arch'], r['flavor'], r['accel'], r['vcpus'])].append(float(r['seconds']))
    for (step, arch, flavor, accel, vcpus), v in groups.items():
        if not step.startswith('boot'):
            accel = vcpus = '-'
        out.append(f'| {step} | {arch} | {flavor} | {accel.upper()} | {vcpus} | {len(v)} | '
                   f'{cell(v, lambda x: f"{x:.1f}")} |')
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
            v = {k: data.get((k, p, t)) for k in ('base', 'patched')}
            txt = [cell(v[k]) if v[k] else '-' for k in ('base', 'patched')]
            ratio = (f'{statistics.median(v["patched"]) / statistics.median(v["base"]):.3f}'
                     if all(v.values()) else '-')
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


def perf_stat(rows):
    """perf stat -a on a perf-probe kretprobe (guest/bench/perf-stat.sh):
    per arch and thread count, the median (min-max) of the runs' returns/s
    on each kernel, and patched/base of the medians of this one make bench
    (results/perf-stat.csv holds one run's rows)."""
    data = defaultdict(list)
    for r in rows:
        data[(r.get('arch', 'x86_64'), int(r['threads']), r['kernel'])].append(
            float(r['hits_per_sec']))
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    vcpus = '/'.join(sorted({r['vcpus'] for r in rows}))
    hosts = '/'.join(sorted({r['host_cpus'] for r in rows if r.get('host_cpus')})) or '?'
    secs = '/'.join(sorted({f'{float(r["seconds"]):.0f}' for r in rows}))
    out = [f'## perf stat on a kretprobe: indicative only: QEMU {accel} wall clock '
           f'on a {hosts}-core host', '',
           'What upstream\'s objpool series measured, with perf: `perf probe -a '
           '\'<prctl syscall>%return\'`, N threads calling prctl() in a loop for '
           f'{secs} s, returns counted by `perf stat -a -e probe:...`. '
           f'Guest {accel}, {vcpus} vCPUs (N > {vcpus} is oversubscribed) on a '
           f'{hosts}-core host; kretprobe returns/s, median '
           '(min-max) over the runs; ratio = patched / base of the medians of the same '
           '`make bench`. Indicative only: multi-threaded TCG wall-clock rates vary by tens '
           'of percent between boots, and TCG models no cache contention; the icount tables '
           'are the exact ones. On a many-core machine the same command (`make bench` there, '
           'or `guest/bench/perf-stat.sh`) measures what the series is for.', '',
           '| arch | threads | runs | base | patched | patched/base |',
           '|---|---|---|---|---|---|']
    for a, t in sorted({(a, t) for a, t, _ in data}, key=lambda k: (k[0] != 'x86_64', k)):
        v = {k: data.get((a, t, k)) for k in ('base', 'patched')}
        txt = [cell(v[k]) if v[k] else '-' for k in ('base', 'patched')]
        runs = '/'.join(str(len(v[k])) if v[k] else '0' for k in ('base', 'patched'))
        ratio = (f'{statistics.median(v["patched"]) / statistics.median(v["base"]):.3f}'
                 if all(v.values()) else '-')
        out.append(f'| {a} | {t} | {runs} | {txt[0]} | {txt[1]} | {ratio} |')
    return out


# The pools of lib/test_objpool.ko's rows, in table order: upstream is
# upstream's objpool of Linux 6.12 running the same loop
# (guest/modules/upobjpool_bench_main.c).
POOL_IMPLS = ['objpool', 'upstream', 'freelist', 'percpu']
# The case of the one row guest/bench/pool-modules.sh prints for a pool
# whose module did not build.
NOT_BUILT = 'not built'
POOL_PEERS = ('Pools: objpool (this series), upstream (upstream\'s objpool of Linux 6.12, '
              'extracted from Debian\'s linux-source-6.12 at build time and never committed, running '
              'the same lib/test_objpool.c loop: guest/modules/upobjpool_bench_main.c), freelist '
              '(a copy of the lock-free list objpool replaces) and percpu (a per-CPU stack under '
              'local_irq_save(): the floor).')


def pool_impls(impls):
    """IMPLS once each, in POOL_IMPLS order, any other after them."""
    order = {i: n for n, i in enumerate(POOL_IMPLS)}
    return sorted(set(impls), key=lambda i: (order.get(i, len(order)), i))


def pool_built(rows):
    """ROWS without the rows of pools whose module did not build."""
    return [r for r in rows if r['case'] != NOT_BUILT]


def not_built(rows, arch=None):
    """The pools whose module did not build (on ARCH), with their arch."""
    return sorted({r['impl'] + (f' ({r["arch"]})' if r.get('arch') else '')
                   for r in rows if r['case'] == NOT_BUILT and arch in (None, r.get('arch'))})


def not_built_note(rows):
    """A line saying which pools were not measured because their module did not build."""
    missing = not_built(rows)
    if not missing:
        return []
    return [f'**Not measured: {", ".join(missing)}: the guest had no module for it** (make bench\'s '
            'log names the modules that did not build; see build/ARCH-bench/guest-modules/build.log).', '']


# objpool_module()'s ratio columns: (numerator, denominator, vCPUs, threads).
POOL_RATIOS = [('objpool', 'upstream', 1, 1), ('objpool', 'upstream', 2, 2),
               ('objpool', 'freelist', 2, 2), ('objpool', 'percpu', 1, 1)]


def objpool_module(rows, results):
    """Pairs/s per case; the "empty" case in ns per failed pop.

    CSVs written before pairs_per_sec existed have ops_per_sec, which
    counted hits + misses + pushes: they are still read, and labelled so.
    """
    legacy = 'pairs_per_sec' not in rows[0]
    data = defaultdict(list)
    for r in pool_built(rows):
        key = (r['case'], int(r['irq']), r['impl'], int(r['vcpus']), int(r['threads']))
        if r['case'] == 'empty':
            if r.get('ns_per_miss'):
                data[key].append(float(r['ns_per_miss']))
        else:
            data[key].append(float(r['ops_per_sec' if legacy else 'pairs_per_sec']))
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    impls = pool_impls(k[2] for k in data)
    points = sorted({(k[3], k[4]) for k in data})
    what = ('Operations per second (hits + misses + pushes: this CSV predates '
            'pairs_per_sec, and a pool that fails fast scores high in its misses case)'
            if legacy else
            'Successful pop+push pairs per second (a failed pop counts nothing)')
    intro = ['## Pool benchmark in the kernel (lib/test_objpool.ko)', '',
             f'{what}, all threads together; guest {accel}. '
             'The empty case (every object held, every pop fails) is in CPU nanoseconds '
             'per failed pop instead: lower is better. '
             'TCG emulates atomics and models no caches, so the cache-line contention '
             'that objpool removes costs nothing here: read these for correctness and '
             'relative overhead, and the userspace table for scaling on real cores. '
             'Threads above the vCPU count are oversubscribed kthreads. '
             'Median (min-max) over repeats. irq=1: an hrtimer per CPU does the same in hardirq context. '
             + POOL_PEERS, ''] + not_built_note(rows)
    out = []
    ratios = ['| case | irq | ' + ' | '.join(f'{a}/{b} ({v} vCPU{"s" * (v > 1)}, {t} thread{"s" * (t > 1)})'
                                             for a, b, v, t in POOL_RATIOS) + ' |',
              '|---|---|' + '---|' * len(POOL_RATIOS)]
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
                        cells.append(cell(v))
                        series[impl].append((threads if vcpus > 1 else 1, statistics.median(v)))
                    else:
                        cells.append('-')
                out.append(f'| {vcpus} | {threads} | ' + ' | '.join(cells) + ' |')
            out.append('')

            def ratio(a, b, vcpus, threads):
                va, vb = data.get((case, irq, a, vcpus, threads)), data.get((case, irq, b, vcpus, threads))
                return f'{statistics.median(va) / statistics.median(vb):.2f}' if va and vb else '-'
            note = ' (ns ratio: below 1 is cheaper)' if case == 'empty' else ''
            ratios.append(f'| {case}{note} | {irq} | ' + ' | '.join(ratio(*c) for c in POOL_RATIOS) + ' |')
            plot(os.path.join(results, f'objpool-module-{case}-irq{irq}.png'),
                 f'test_objpool {case} irq={irq}, {accel}', unit, series)
            out += [f'![{case} irq={irq}](objpool-module-{case}-irq{irq}.png)', '']
    return intro + ['### Ratios', ''] + ratios + [''] + out


def memory(rows, title='Memory of the instance pools at scale'):
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    r0 = rows[0]
    possible = int(r0['possible'])
    runs = len({r.get('run', '1') for r in rows})
    samples = ('one sample per kernel' if runs == 1 else
               f'{runs} boots per kernel, median (min-max), ratio and bytes/object of the medians')
    out = [f'## {title}', '',
           f'Guest {accel}, {r0["vcpus"]} online / {possible} possible CPUs. '
           'Delta of memory in use (/proc/meminfo: MemTotal - MemFree - Buffers - Cached, '
           'less the free pages on the per-CPU lists of /proc/zoneinfo) '
           'across registering the probe, so pages the pool vmap()s count too; '
           f'{samples}, so small deltas carry a few hundred KiB of noise. '
           '"pool metadata" is what the patched objpool allocated beside the objects '
           '(rings, headers, bitmap: its meta_bytes, printed by guest/modules/probe_mem.ko); '
           'the target is at most 16 bytes per object plus 256 bytes per possible CPU, '
           'and "one ring per CPU" is what rings holding every object on every CPU '
           '(upstream 6.7-6.12) would take: possible CPUs x roundup_pow_of_two(objects) x 8 bytes.', '',
           '| probe | functions | objects | base | patched | patched/base | patched bytes/object '
           '| pool metadata (patched) | target | one ring per CPU |',
           '|---|---|---|---|---|---|---|---|---|---|']
    by = defaultdict(lambda: defaultdict(list))
    meta = {}
    for r in rows:
        key = (r['probe'], r['functions'], r['objects'])
        by[key][r['kernel']].append(int(r['delta_kb']))
        if r['kernel'] == 'patched' and r.get('meta_bytes'):
            meta[key] = int(r['meta_bytes'])
    mib = lambda v: f'{v / 2**20:.2f} MiB'
    kib_as_mib = lambda v: f'{v / 1024:.1f} MiB'
    for key, k in by.items():
        probe, funcs, objs = key
        b = statistics.median(k['base']) if k['base'] else None
        p = statistics.median(k['patched']) if k['patched'] else None
        kcell = lambda v: ('-' if not v else kib_as_mib(v[0]) if len(v) == 1
                           else cell(v, lambda x: f'{x / 1024:.1f}') + ' MiB')
        ratio = f'{p / b:.2f}' if b and p is not None else '-'
        per = f'{p * 1024 / int(objs):.0f}' if p is not None else '-'
        n = int(objs)
        m = f'{mib(meta[key])} ({meta[key] / n:.1f} B/object)' if key in meta else '-'
        target = mib(16 * n + 256 * possible)
        full = mib(possible * (1 << (n - 1).bit_length()) * 8)
        out.append(f'| {probe} | {funcs} | {objs} | {kcell(k["base"])} | {kcell(k["patched"])} | {ratio} | {per} '
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


def real_load_icount(rows, title='Instructions per call under QEMU icount: real load',
                     bench='real-load-icount'):
    data = icount_runs(rows)
    arches = arch_order(r['arch'] for r in rows)
    clocks = defaultdict(set)
    ratios = defaultdict(list)
    for r in rows:
        clocks[r['arch']].add(r['clocksource'])
        ratios[r['arch']].append(float(r['ns_per_insn']))
    out = [f'## {title}', '',
           'syscall-loop getppid(), 1 thread, 1 vCPU, QEMU TCG with `-icount shift=0,sleep=off` '
           '(`make vm ICOUNT=1`): the guest clock advances 1 ns per guest instruction, so '
           'instructions per call = 1e9 / calls per virtual second (the loop, the syscall, '
           'the probe and the timer ticks that land in the loop). Each run is a separate boot; '
           'spread = (max - min) / mean of the runs. The native row has no probe and the '
           'kprobe row never touches the instance pool: they are the controls, and should '
           'not differ between the kernels. Kernels: the bench flavor, base and patched, same config. '
           + ICOUNT_NOTE + f' Regenerate with `BENCHES={bench} make bench` '
           '(its boots, arches and run length are its lines in config/benches).', '',
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


def icount_goals(rows, base='base'):
    """Goal rows: a probe hit costs no more instructions patched than BASE."""
    data = icount_runs(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
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
            out.append(f'| {article} {p} hit costs no more instructions patched than {base}, 1 thread, '
                       f'{arch} (icount) | base {statistics.mean(ib):.1f}, patched '
                       f'{statistics.mean(iq):.1f} insns/call ({d:+.1f}; {len(ib)} + {len(iq)} runs) '
                       f'| {verdict} |')
    return out


def memory_goals(rows, against):
    """Goal row: the fprobe example takes no more memory patched than base."""
    fp = [r for r in rows if r['probe'].startswith('fprobe')]
    b = [int(r['delta_kb']) for r in fp if r['kernel'] == 'base']
    p = [int(r['delta_kb']) for r in fp if r['kernel'] == 'patched']
    if not b or not p:
        return []
    r0 = fp[0]
    mb, mp = statistics.median(b), statistics.median(p)
    d = mp - mb
    # Samples overlap: the difference is within what two boots of one kernel differ by.
    if d <= 0:
        verdict = 'met'
    elif min(b) <= max(p) and min(p) <= max(b):
        verdict = f'met within the boots\' spread ({d / 1024:+.2f} MiB)'
    else:
        meta = [int(r['meta_bytes']) for r in fp if r['kernel'] == 'patched' and r.get('meta_bytes')]
        why = (f': the pool\'s rings, padding and metadata are {meta[0] / 2**20:.2f} MiB '
               f'(pointer slots, each online CPU\'s share rounded up to a power of two), less the '
               f'slab rounding that packing the objects saves') if meta else ''
        verdict = f'not met, {d / 1024:+.2f} MiB{why}'
    return [f'| the fprobe example ({r0["functions"]} functions, {int(r0["objects"]):,} objects, '
            f'{r0["possible"]} possible CPUs, {r0["vcpus"]} online) takes no more memory patched than with '
            f'{against} | base {mb / 1024:.2f} MiB, patched {mp / 1024:.2f} MiB (medians of {len(b)} + {len(p)} '
            f'boots) | {verdict} |']


def pool_icount(rows):
    """{(arch, impl, possible): {'pair': {run: insns}, 'miss': {run: insns}}}

    A run's virtual ns (= instructions) is pairs / pairs_per_sec (ops and
    ops_per_sec in CSVs of module versions that counted every operation).  Pair: the
    nonblocking case, every pop succeeds: instructions / successful pops.
    Miss: the misses case (one object, batches of 1-16 pops): its
    instructions minus its successful pops at the same boot's pair cost,
    divided by the failed pops.
    """
    ns = {}
    for r in pool_built(rows):
        key = (r['arch'], r['impl'], int(r['possible']), int(r['run']), r['case'])
        n, rate = (r['pairs'], r['pairs_per_sec']) if 'pairs' in r else (r['ops'], r['ops_per_sec'])
        ns[key] = (int(n) * 1e9 / float(rate), int(r['hits']), int(r['misses']))
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
    arches = arch_order(k[0] for k in data)
    impls = pool_impls(k[1] for k in data)
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
           'nonblocking loop. Each value is one boot (run 1 / run 2). ' + POOL_PEERS + ' ' + ICOUNT_NOTE +
           ' Regenerate with `BENCHES=objpool-module-icount make bench`.', ''] + not_built_note(rows)
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
    for arch in arch_order(k[0] for k in data):
        lo, hi = data.get((arch, 'objpool', 2)), data.get((arch, 'objpool', 96))
        if not lo or not hi or not lo['miss'] or not hi['miss']:
            continue
        a, b = statistics.mean(lo['miss'].values()), statistics.mean(hi['miss'].values())
        verdict = 'met' if b <= 2 * a else f'not met, {b / a:.2f}x'
        out.append(f'| an empty-pool pop at 96 possible CPUs costs at most 2x its cost at 2, '
                   f'{arch} (icount) | {a:.1f} insns at 2, {b:.1f} at 96 ({b / a:.2f}x) | {verdict} |')
    return out


def pool_upstream_goals(rows):
    """Goal rows: our pop+push pair costs fewer instructions than upstream's, per arch."""
    data = pool_icount(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        goal = f'our pop+push costs fewer instructions than upstream\'s, {arch} (icount)'
        if not_built(rows, arch):
            out.append(f'| {goal} | upstream\'s module did not build | not measured |')
            continue
        diffs = []
        for p in sorted({k[2] for k in data if k[0] == arch}):
            ours, up = data.get((arch, 'objpool', p)), data.get((arch, 'upstream', p))
            if ours and up and ours['pair'] and up['pair']:
                a, b = statistics.mean(ours['pair'].values()), statistics.mean(up['pair'].values())
                diffs.append((a - b, f'{p} possible: objpool {a:.1f}, upstream {b:.1f} insns per pair ({a - b:+.1f})'))
        if not diffs:
            continue
        worst = max(d for d, _ in diffs)
        verdict = (f'met, {-worst:.1f} fewer instructions per pair' if worst < 0 else
                   f'not met, {worst:+.1f} instructions per pair')
        out.append(f'| {goal} | ' + '; '.join(m for _, m in diffs) + f' | {verdict} |')
    return out


def goals(results):
    """The goals section: one row per goal with its measured verdict."""
    out = []
    for name, rows_goals in GOALS:
        path = os.path.join(results, name)
        rows = read(path) if os.path.exists(path) else []
        if rows:
            out += rows_goals(rows)
    if not out:
        return []
    return ['## Goals', '',
            'Each goal with what was measured and the verdict. ' + ICOUNT_NOTE, '',
            '| goal | measured | verdict |', '|---|---|---|'] + out + ['']


US_POOLS = ['objpool', 'upstream', 'freelist', 'percpu-floor']
US_SCENARIOS = {
    'balanced': 'pop, then push on the same CPU',
    'held': 'each thread keeps objs/threads - 1 objects out and pushes the oldest back: the pool runs near empty',
    'exhausted': 'every object is out: every pop misses (misses/s, counters per miss)',
    'migrating': 'pop on one thread\'s CPU, push on the next thread\'s (at most 16 objects in flight per thread; '
                 'the handover waits for the receiver to run, so on this shared 2-core machine its pairs/s '
                 'measure scheduling more than the pool: read its counters)',
    'touched-64': 'balanced, the user writes all 64 bytes of each object between pop and push',
    'touched-256': 'balanced, the user writes all 256 bytes of each object between pop and push',
    'sparse-balanced': 'balanced with 96 possible CPUs, 2 online, 192 objects (kretprobe\'s default maxactive, 2 x possible)',
    'sparse-held': 'held with 96 possible CPUs, 2 online, 192 objects',
    'sparse-burst': 'each thread pops objs/threads - 1 objects, then pushes them all back; 96 possible CPUs, 2 online, 192 objects',
    'sparse-exhausted': 'exhausted with 96 possible CPUs, 2 online, 192 objects',
    'sparse-migrating': 'migrating with 96 possible CPUs, 2 online, 192 objects',
}


def us_points(rows):
    """{(scenario, threads): {'rate': {pool: {pair: v}}, 'count': {pool: row}, 'row': row}}"""
    pts = {}
    for r in rows:
        pt = pts.setdefault((r['scenario'], int(r['threads'])), {'rate': defaultdict(dict), 'count': {}, 'row': r})
        metric = 'misses_per_s' if r['scenario'].endswith('exhausted') else 'pairs_per_s'
        try:
            v = float(r[metric])
        except ValueError:  # "init failed" or a peer that did not build
            continue
        if r['mode'] == 'rate':
            pt['rate'][r['pool']][int(r['pair'])] = v
        else:
            pt['count'][r['pool']] = r
    return pts


def us_order(pts):
    """The (scenario, threads) keys of PTS in US_SCENARIOS order, then by threads."""
    order = list(US_SCENARIOS)
    return sorted(pts, key=lambda k: (order.index(k[0]) if k[0] in order else len(order), k[1]))


def us_ratio(pt):
    a, b = pt['rate'].get('objpool', {}), pt['rate'].get('upstream', {})
    ratios = [a[p] / b[p] for p in a if p in b and b[p] > 0]
    if not ratios:
        return None
    return spread(ratios) + (len(ratios),)


def ratio_cell(rt):
    """us_ratio()'s 'median (min-max)', or '-'."""
    return span(rt, lambda x: f'{x:.2f}') if rt else '-'


def us_per(row, key):
    """Counter per successful pair (per miss in the exhausted scenarios)."""
    if not row:
        return '-'
    per = int(row['misses']) if row['scenario'].endswith('exhausted') else int(row['pairs'])
    if not per:
        return '-'
    v = int(row[key]) / per
    return f'{v:.3g}' if v else '0'


def us_counts(row, keys=('spills', 'steals', 'avail_writes')):
    return ' / '.join(us_per(row, k) for k in keys) if row else '-'


def us_series(rows):
    return sorted({r.get('series', '') for r in rows}) or ['']


# Why objpool is below a userspace goal in a scenario, where the repository
# already says why: (scenarios, one sentence).
US_WHY = [(('migrating', 'sparse-migrating'),
           'their pairs/s measure the scheduling of this shared 2-core machine more than the pool '
           '(their scenario note)')]


def thread_count(t):
    return f'{t} thread' + 's' * (t != 1)


def us_goal(rows, goal, minimum, scenarios=None):
    """Goal row: objpool/upstream, the median of the paired ratios, is at
    least MINIMUM at every thread count of SCENARIOS (every scenario by
    default); the verdict names the points below it."""
    if 'mode' not in rows[0]:
        return []
    pts = us_points(rows)
    got = []
    for sc, t in us_order(pts):
        rt = us_ratio(pts[(sc, t)])
        if rt and (scenarios is None or sc in scenarios):
            got.append((sc, t, rt[0]))
    if not got:
        return []
    lo, hi = min(got, key=lambda g: g[2]), max(got, key=lambda g: g[2])
    measured = (f'medians of the paired ratios from {lo[2]:.2f} ({lo[0]}, {thread_count(lo[1])}) to '
                f'{hi[2]:.2f} ({hi[0]}, {thread_count(hi[1])}), {len(got)} points')
    below = defaultdict(list)
    for sc, t, v in got:
        if v < minimum:
            below[sc].append(f'{t} ({v:.3f})')
    if not below:
        return [f'| {goal} | {measured} | met |']
    names = '; '.join(f'{sc} at {", ".join(ts)} threads' for sc, ts in below.items())
    why = ''.join(f'; {", ".join(hit)}: {text}' for scs, text in US_WHY
                  if (hit := [sc for sc in scs if sc in below]))
    return [f'| {goal} | {measured} | not met, below {minimum:.1f}x in {names}{why} |']


def objpool_userspace(rows, results):
    out = ['## Pool benchmark in userspace (tools/testing/objpool)', '']
    if 'mode' not in rows[0]:
        return out + ['(old CSV format: rerun `BENCHES=objpool-userspace make bench`)']
    pts = us_points(rows)
    npairs = max((len(p['rate'].get('objpool', {})) for p in pts.values()), default=0)
    out += ['Scenario matrix on the host\'s real cores (2 cores, threads above 2 oversubscribed; '
            'no guest): lib/objpool.c unmodified, upstream\'s objpool of Linux 6.12 and freelist.h of '
            'the base built from their sources against the same shims, and a per-CPU floor (no sharing, '
            'no stealing). Series measured: ' + ', '.join(f'`{s}`' for s in us_series(rows)) + '. '
            'Command: `BENCHES=objpool-userspace make bench`.', '',
            'Pairs/s count successful pop+push pairs only (misses/s in the exhausted rows), '
            f'medians over the runs ({npairs} of objpool and upstream, 3 of the others). objpool/upstream is the median (min-max) of the ratios of {npairs} '
            'paired A/B runs (the two alternate, A/B then B/A). Counters come from one more run of '
            'each pool with counting on (off in the throughput runs), per successful pair (per miss in '
            'the exhausted rows): spills are calls of __objpool_push_slow(), steals objects a pop took from '
            'another CPU\'s ring (__objpool_pop_slow() returning one; for upstream, a pop that walked past '
            'its own ring), avail writes set_bit()/clear_bit() on the cache line of the pool\'s avail '
            'bitmap. Upstream has no spill and no avail bitmap. The series label names the host\'s CPU '
            '(since 2026-11-25) and ends with its load average when the run started: the machine is '
            'shared and absolute rates move with it, and runs on two machines do not compare; compare '
            'the ratios of the same run.', '']
    for name, what in US_SCENARIOS.items():
        if any(k[0] == name for k in pts):
            out.append(f'- {name}: {what}')
    out += ['', '| scenario | threads | objpool | upstream | freelist | percpu-floor | objpool/upstream '
            '| objpool spills / steals / avail writes per pair | upstream steals per pair |',
            '|---|---|---|---|---|---|---|---|---|']
    series = defaultdict(list)
    for (sc, t) in us_order(pts):
        pt = pts[(sc, t)]
        cells = []
        for pool in US_POOLS:
            v = list(pt['rate'].get(pool, {}).values())
            cells.append(fmt(statistics.median(v)) if v else '-')
        rt = us_ratio(pt)
        ratio = ratio_cell(rt)
        if rt:
            series[sc].append((t, rt[0]))
        label = sc + (' (misses/s)' if sc.endswith('exhausted') else '')
        out.append(f'| {label} | {t} | ' + ' | '.join(cells) + f' | {ratio} | '
                   f'{us_counts(pt["count"].get("objpool"))} | '
                   f'{us_per(pt["count"].get("upstream"), "steals")} |')
    plot(os.path.join(results, 'objpool-userspace-ratio.png'),
         'objpool / upstream objpool, userspace (host)', 'ratio (median of A/B pairs)',
         {k: v for k, v in series.items() if len(v) > 1})
    out += ['', '![objpool/upstream](objpool-userspace-ratio.png)', '']
    out += objpool_userspace_before_after(rows, results)
    return out


def objpool_userspace_before_after(rows, results):
    """The review's tables: online far below possible, and an exhausted pool,
    for the series of objpool-userspace-before.csv and of this run."""
    sets = []
    path = os.path.join(results, 'objpool-userspace-before.csv')
    if os.path.exists(path):
        before = read(path)
        if before and 'mode' in before[0]:
            sets.append(('before', before))
    pool_of = lambda rs: {x.split(';')[0].split(' lib/objpool.c ')[-1] for x in us_series(rs)}
    if not sets or pool_of(sets[0][1]) != pool_of(rows):
        sets.append(('after' if sets else 'this run', rows))
    out = ['### Online far below possible, and an exhausted pool', '',
           'The rows of the matrix the review asked for, for each series measured: '
           '`results/objpool-userspace-before.csv` holds the run before the pool rewrite, '
           '`results/objpool-userspace.csv` the last run, shown as "after" when it measured another '
           'lib/objpool.c (the series label names this repository\'s commit and the blob of '
           'lib/objpool.c, then the host\'s CPU where recorded and its load average when the run started). After a change of the pool, `BENCHES=objpool-userspace make bench` '
           'adds the after rows; `cp results/objpool-userspace.csv results/objpool-userspace-before.csv` '
           'makes the last run the new baseline. Counters per successful pair (per miss when exhausted).', '',
           '| series | scenario | threads | objpool | upstream | objpool/upstream '
           '| objpool spills / steals / avail writes per pair | upstream steals per pair |',
           '|---|---|---|---|---|---|---|---|']
    for label, rs in sets:
        pts = us_points(rs)
        name = f'{label}: `{", ".join(us_series(rs))}`'
        for (sc, t) in sorted(pts):
            if not (sc.startswith('sparse-') or sc == 'exhausted' and t == 2):
                continue
            pt = pts[(sc, t)]
            med = {p: statistics.median(pt['rate'][p].values()) for p in ('objpool', 'upstream') if pt['rate'].get(p)}
            rt = us_ratio(pt)
            out.append(f'| {name} | {sc} | {t} | ' + ' | '.join(fmt(med[p]) if p in med else '-' for p in ('objpool', 'upstream'))
                       + f' | {ratio_cell(rt)}'
                       + f' | {us_counts(pt["count"].get("objpool"))} | {us_per(pt["count"].get("upstream"), "steals")} |')
    return out


def layout_goals(rows):
    """The layout goal: no cache line written by two CPUs' own hits."""
    by = defaultdict(list)
    for r in rows:
        by[r['pool']].append(r)
    ours = by.get('objpool', [])
    if not ours:
        return []
    worst = max(int(r['shared_lines']) for r in ours)
    ctl = ', '.join(f'{p} up to {max(int(r["shared_lines"]) for r in rs)}'
                    for p, rs in sorted(by.items()) if p != 'objpool')
    goal = ('no cache line written by the own-share pops and pushes of two CPUs '
            '(2, 8, 96 CPUs; 2 and 8 objects per CPU; 48, 56, 200 bytes)')
    measured = f'objpool: {worst} at worst over {len(ours)} points' + (f'; {ctl}' if ctl else '')
    return [f'| {goal} | {measured} | {"met" if worst == 0 else "not met"} |']


def layout(rows):
    """Shared cache lines per point, one column per pool."""
    pools = sorted({r['pool'] for r in rows}, key=lambda p: (p != 'objpool', p))
    pts = defaultdict(dict)
    for r in rows:
        pts[(int(r['cpus']), int(r['per_cpu']), int(r['obj_size']))][r['pool']] = r['shared_lines']
    out = ['## Layout: cache lines that two CPUs\' own hits both write', '',
           '| CPUs | objects per CPU | object bytes | ' + ' | '.join(pools) + ' |',
           '|---|---|---|' + '---|' * len(pools)]
    for k in sorted(pts):
        out.append(f'| {k[0]} | {k[1]} | {k[2]} | ' +
                   ' | '.join(pts[k].get(p, '-') for p in pools) + ' |')
    out += ['', 'Counted in userspace (objpool_test -L): each CPU in turn pops and pushes '
            'its own objects while the shim logs the line of every store the pool makes and '
            'of each object popped. Deterministic; the freelist, one head for all CPUs, '
            'is the check\'s positive control.']
    return out


# The CSVs of results/ that goals are read from, each with its goal rows.
GOALS = [('layout.csv', layout_goals),
         ('real-load-icount.csv', icount_goals),
         ('real-load-icount-6.12.csv', functools.partial(icount_goals, base="with 6.12's objpool")),
         ('objpool-module-icount.csv', pool_icount_goals),
         ('objpool-module-icount.csv', pool_upstream_goals),
         ('memory.csv', functools.partial(memory_goals, against="6.1's freelist")),
         ('memory-6.12.csv', functools.partial(memory_goals, against="6.12's objpool")),
         ('objpool-userspace.csv', functools.partial(
             us_goal, goal='objpool does at least 1.0x upstream\'s pairs/s (misses/s when exhausted) '
                           'in every scenario (userspace, 2 cores)', minimum=1.0)),
         ('objpool-userspace.csv', functools.partial(
             us_goal, goal='objpool does at least 1.1x upstream\'s pairs/s in the balanced scenario '
                           '(userspace, 2 cores)', minimum=1.1, scenarios=('balanced',)))]


def number(v):
    try:
        return float(v)
    except ValueError:
        return None


def generic(name, rows):
    """A benchmark with no section of its own: its numeric columns as
    'median (min-max)' over the rows that agree on every other column
    but 'run' (the boot)."""
    # A row with more fields than the header has them under None: left out.
    cols = [c for c in rows[0] if c is not None and c != 'run']
    numeric = [c for c in cols if all(number(r[c]) is not None for r in rows)]
    keys = [c for c in cols if c not in numeric]
    groups = defaultdict(list)
    for r in rows:
        groups[tuple(r[k] for k in keys)].append(r)
    out = [f'## {name}', '',
           f'results/{name}.csv as make bench wrote it (no section of scripts/report.py '
           'renders it yet): median (min-max) over the runs of each row.', '',
           '| ' + ' | '.join(keys + numeric) + ' | runs |',
           '|' + '---|' * (len(keys) + len(numeric) + 1)]
    for key, group in groups.items():
        out.append('| ' + ' | '.join(list(key) + [cell([number(r[c]) for r in group])
                                                  for c in numeric]) + f' | {len(group)} |')
    return out


L612 = 'Linux 6.12 (series-6.12, against upstream\'s objpool): '
SECTIONS = [('build-boot-times.csv', build_boot_times), ('real-load-icount.csv', real_load_icount),
            ('real-load.csv', real_load), ('perf-stat.csv', perf_stat),
            ('memory.csv', memory), ('objpool-module-icount.csv', objpool_module_icount),
            ('objpool-module.csv', objpool_module),
            ('objpool-userspace.csv', objpool_userspace),
            ('layout.csv', layout),
            ('real-load-icount-6.12.csv', functools.partial(
                real_load_icount, title=L612 + 'instructions per call under QEMU icount',
                bench='real-load-icount-6.12')),
            ('memory-6.12.csv', functools.partial(
                memory, title=L612 + 'memory of the instance pools at scale'))]


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
        fn = getattr(section, 'func', section)
        args = (rows, results) if 'results' in inspect.signature(fn).parameters else (rows,)
        md += section(*args) + ['']
    # Read by a section above without a line of their own.
    known = {name for name, _ in SECTIONS} | {'objpool-userspace-before.csv'}
    for name in sorted(os.listdir(results)):
        if name.endswith('.csv') and name not in known:
            rows = read(os.path.join(results, name))
            if rows:
                md += generic(name[:-4], rows) + ['']
    with open(os.path.join(results, 'summary.md.tmp'), 'w') as f:
        f.write('\n'.join(md) + '\n')
    os.replace(os.path.join(results, 'summary.md.tmp'), os.path.join(results, 'summary.md'))


if __name__ == '__main__':
    main()

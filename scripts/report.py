#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the CSV files of a benchmark run into PNG plots and summary.md.

usage: report.py RESULTS_DIR

Every table states the guest type (TCG or KVM) and the vCPU count next to
its numbers; medians are quoted with their min-max spread over repeats.
Cells stay short; the prose of the summary, what each table measures and
how, is in scripts/report-text.txt (text()), printed under the tables.
A section is one function of CSV rows returning Markdown lines, listed in
SECTIONS (and GOALS for its rows of the goals table).
"""
import csv
import functools
import inspect
import os
import re
import statistics
import textwrap
import sys
from collections import defaultdict


TEXT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'report-text.txt')


@functools.lru_cache(maxsize=None)
def text_blocks():
    """{KEY: text} of scripts/report-text.txt, the summary's prose."""
    blocks, key = {}, None
    with open(TEXT_FILE) as f:
        for line in f.read().splitlines():
            if line.startswith('@@ '):
                key = line[3:].strip()
                blocks[key] = []
            elif key is not None:
                blocks[key].append(line)
    return {k: '\n'.join(v).strip('\n') for k, v in blocks.items()}


def wrap(paragraph):
    """A paragraph (a list of lines) wrapped at 72 columns; a list ('- ' or
    '1. ' items) item by item."""
    items = []
    for line in paragraph:
        if re.match(r'(- |\d+\. )', line) or not items:
            items.append(line)
        else:
            items[-1] += ' ' + line.strip()
    out = []
    for item in items:
        m = re.match(r'(- |\d+\. )?', item)
        out += textwrap.wrap(item, 72, subsequent_indent=' ' * len(m.group(0)),
                             break_long_words=False, break_on_hyphens=False) or ['']
    return out


def text(key, raw=False, **values):
    """Block KEY of report-text.txt, its {NAME}s filled from VALUES, as
    lines ending with an empty one; each paragraph wrapped unless RAW."""
    try:
        block = text_blocks()[key]
    except KeyError:
        sys.exit(f'report.py: no block "@@ {key}" in {TEXT_FILE}: add it')
    try:
        block = block.format(**values)
    except KeyError as e:
        sys.exit(f'report.py: block "@@ {key}" of {TEXT_FILE} uses {{{e.args[0]}}}, '
                 'which its section does not give')
    if raw:
        return block.split('\n') + ['']
    out = []
    for para in re.split(r'\n\s*\n', block):
        out += wrap(para.split('\n')) + ['']
    return out


def inline(key, **values):
    """Block KEY as one line, to go inside another block."""
    return ' '.join(text(key, raw=True, **values)).strip()


def table(head, rows):
    """A Markdown table: the heading cells HEAD, then ROWS of cells."""
    out = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    return out + ['| ' + ' | '.join(str(c) for c in r) + ' |' for r in rows]


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
            + [''] + text('build-boot-times'))


def real_load(rows, results):
    data = defaultdict(list)
    for r in rows:
        data[(r['kernel'], r['row'], int(r['threads']))].append(float(r['calls_per_sec']))
    accel = {r['kernel']: r['accel'].upper() for r in rows}
    vcpus = rows[0]['vcpus']
    kernels = sorted({k for k, _, _ in data})
    probes = [p for p in ('native', 'kprobe', 'kretprobe', 'fprobe') if any(p == q for _, q, _ in data)]
    threads = sorted({t for _, _, t in data})
    guests = "/".join(sorted(set(accel.values())))
    cells = []
    for p in probes:
        for t in threads:
            v = {k: data.get((k, p, t)) for k in ('base', 'patched')}
            txt = [cell(v[k]) if v[k] else '-' for k in ('base', 'patched')]
            ratio = (f'{statistics.median(v["patched"]) / statistics.median(v["base"]):.3f}'
                     if all(v.values()) else '-')
            cells.append([p, t, txt[0], txt[1], ratio])
    out = (['## Real load: syscall-loop calls/s', '']
           + table(['row', 'threads', 'base', 'patched', 'patched/base'], cells)
           + [''] + text('real-load', accel=guests, vcpus=vcpus) + text('real-load-scaling'))
    eff = []
    for p in probes:
        eff.append([p])
        for k in ('base', 'patched'):
            one, two = data.get((k, p, 1)), data.get((k, p, 2))
            eff[-1].append(f'{statistics.median(two) / (2 * statistics.median(one)):.2f}' if one and two else '-')
    out += table(['row', 'base', 'patched'], eff)
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
    cells = []
    for a, t in sorted({(a, t) for a, t, _ in data}, key=lambda k: (k[0] != 'x86_64', k)):
        v = {k: data.get((a, t, k)) for k in ('base', 'patched')}
        txt = [cell(v[k]) if v[k] else '-' for k in ('base', 'patched')]
        runs = '/'.join(str(len(v[k])) if v[k] else '0' for k in ('base', 'patched'))
        ratio = (f'{statistics.median(v["patched"]) / statistics.median(v["base"]):.3f}'
                 if all(v.values()) else '-')
        cells.append([a, t, runs, txt[0], txt[1], ratio])
    return ([f'## perf stat on a kretprobe: indicative only: QEMU {accel} wall clock '
             f'on a {hosts}-core host', '']
            + table(['arch', 'threads', 'runs', 'base', 'patched', 'patched/base'], cells)
            + [''] + text('perf-stat', accel=accel, vcpus=vcpus, hosts=hosts))


# The pools of lib/test_objpool.ko's rows, in table order: upstream is
# upstream's objpool of Linux 6.12 running the same loop
# (guest/modules/upobjpool_bench_main.c).
POOL_IMPLS = ['objpool', 'upstream', 'freelist', 'percpu']
# The case of the one row guest/bench/pool-modules.sh prints for a pool
# whose module did not build.
NOT_BUILT = 'not built'


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
    return text('not-built', missing=', '.join(missing))


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
    what = inline('objpool-module-ops' if legacy else 'objpool-module-pairs')
    intro = (['## Pool benchmark in the kernel (lib/test_objpool.ko)', '']
             + text('objpool-module-lead', accel=accel, what=what) + not_built_note(rows))
    out = []
    ratios = []
    for case in sorted({k[0] for k in data}):
        unit = 'ns per failed pop' if case == 'empty' else ('ops/s' if legacy else 'pairs/s')
        for irq in sorted({k[1] for k in data if k[0] == case}):
            series = defaultdict(list)
            rows_ = []
            for vcpus, threads in points:
                cells = []
                for impl in impls:
                    v = data.get((case, irq, impl, vcpus, threads))
                    if v:
                        cells.append(cell(v))
                        series[impl].append((threads if vcpus > 1 else 1, statistics.median(v)))
                    else:
                        cells.append('-')
                rows_.append([vcpus, threads] + cells)
            out += [f'### {case}, irq={irq} ({unit})', ''] + table(['vCPUs', 'threads'] + impls, rows_) + ['']

            def ratio(a, b, vcpus, threads):
                va, vb = data.get((case, irq, a, vcpus, threads)), data.get((case, irq, b, vcpus, threads))
                return f'{statistics.median(va) / statistics.median(vb):.2f}' if va and vb else '-'
            note = ' (ns ratio: below 1 is cheaper)' if case == 'empty' else ''
            ratios.append([f'{case}{note}', irq] + [ratio(*c) for c in POOL_RATIOS])
            plot(os.path.join(results, f'objpool-module-{case}-irq{irq}.png'),
                 f'test_objpool {case} irq={irq}, {accel}', unit, series)
            out += [f'![{case} irq={irq}](objpool-module-{case}-irq{irq}.png)', '']
    head = ['case', 'irq'] + [f'{a}/{b} ({v} vCPU{"s" * (v > 1)}, {t} thread{"s" * (t > 1)})'
                              for a, b, v, t in POOL_RATIOS]
    return (intro + ['### Ratios', ''] + table(head, ratios) + ['']
            + text('objpool-module', pool_peers=inline('pool-peers')) + out)


def memory(rows, title='Memory of the instance pools at scale'):
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    r0 = rows[0]
    possible = int(r0['possible'])
    runs = len({r.get('run', '1') for r in rows})
    samples = ('one sample per kernel' if runs == 1 else
               f'{runs} boots per kernel, median (min-max), ratio and bytes/object of the medians')
    cells = []
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
        cells.append([probe, funcs, objs, kcell(k['base']), kcell(k['patched']), ratio, per, m, target, full])
    return ([f'## {title}', '']
            + table(['probe', 'functions', 'objects', 'base', 'patched', 'patched/base',
                     'patched bytes/object', 'pool metadata (patched)', 'target', 'one ring per CPU'], cells)
            + [''] + text('memory', accel=accel, vcpus=r0['vcpus'], possible=possible, samples=samples))

def icount_note():
    return inline('icount-note')


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
    out = [f'## {title}', ''] + text('icount-lead')
    for arch in arches:
        rws = [p for p in ('native', 'kprobe', 'kretprobe', 'fprobe')
               if any(k[0] == arch and k[1] == p for k in data)]
        cells = []
        for p in rws:
            runs_, ipc, spr = [], [], []
            for k in ('base', 'patched'):
                runs = data.get((arch, p, k), {})
                v = [runs[i] for i in sorted(runs)]
                runs_.append(' / '.join(f'{1e9 / x:.1f}' for x in v) or '-')
                if v:
                    ipc.append(statistics.mean(1e9 / x for x in v))
                    spr.append(f'{(max(v) - min(v)) / statistics.mean(v) * 100:.4f}%')
                else:
                    ipc.append(None)
                    spr.append('-')
            i = [f'{x:.1f}' if x is not None else '-' for x in ipc]
            d = f'{ipc[1] - ipc[0]:+.1f} ({(ipc[1] / ipc[0] - 1) * 100:+.2f}%)' if None not in ipc else '-'
            cells.append([p, runs_[0], runs_[1], i[0], i[1], d, f'{spr[0]} / {spr[1]}'])
        out += [f'### {arch}', ''] + table(
            ['row', 'base, each run', 'patched, each run', 'base insns/call', 'patched insns/call',
             'patched - base', 'spread base / patched'], cells) + ['']
    clock = '; '.join(f'{a}: clocksource {"/".join(sorted(clocks[a]))}, '
                      f'{min(ratios[a]):.4f}-{max(ratios[a]):.4f} ns per instruction' for a in arches)
    return out + ['### Method', ''] + text('icount', bench=bench, icount_note=icount_note(), clocks=clock)


def icount_goals(rows, base='base', probes=('kretprobe', 'fprobe'), limit=0):
    """Goal rows: a probe hit costs at most LIMIT instructions more patched
    than BASE."""
    data = icount_runs(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        for p in probes:
            b, q = data.get((arch, p, 'base')), data.get((arch, p, 'patched'))
            if not b or not q:
                continue
            ib = [1e9 / x for x in b.values()]
            iq = [1e9 / x for x in q.values()]
            d = statistics.mean(iq) - statistics.mean(ib)
            noise = max(max(ib) - min(ib), max(iq) - min(iq))
            if d <= limit:
                verdict = 'met' if limit <= 0 else f'met, {d:+.1f} insns per hit'
            elif d <= limit + noise:
                verdict = f'met within the runs\' spread ({d:+.1f}, spread {noise:.1f})'
            else:
                verdict = f'not met, {d:+.1f} insns per hit'
            bound = 'no more instructions' if limit <= 0 else f'at most {limit} instructions more'
            out.append((f'{p} hit, {arch}: {bound} patched than {base} (icount)',
                        f'{statistics.mean(ib):.1f} base, {statistics.mean(iq):.1f} patched '
                        f'({d:+.1f}; {len(ib)} + {len(iq)} runs)', verdict))
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
    why = None
    if d <= 0:
        verdict = 'met'
    elif min(b) <= max(p) and min(p) <= max(b):
        verdict = f'met within the boots\' spread ({d / 1024:+.2f} MiB)'
    else:
        meta = [int(r['meta_bytes']) for r in fp if r['kernel'] == 'patched' and r.get('meta_bytes')]
        if meta:
            why = (f'the pool\'s rings, padding and metadata are {meta[0] / 2**20:.2f} MiB '
                   '(pointer slots, each online CPU\'s share rounded up to a power of two), less '
                   'the slab rounding that packing the objects saves')
        verdict = f'not met, {d / 1024:+.2f} MiB'
    example = (f'the fprobe example: {r0["functions"]} functions, {int(r0["objects"]):,} objects, '
               f'{r0["possible"]} possible CPUs, {r0["vcpus"]} online')
    return [(f'fprobe example: no more memory patched than with {against}',
             f'{mb / 1024:.2f} MiB base, {mp / 1024:.2f} MiB patched (medians, {len(b)} + {len(p)} boots)',
             verdict, example + (f'; {why}' if why else ''))]


def kretprobe_memory_goals(rows, against):
    """Goal row: the default kretprobes take no more memory patched than base."""
    kp = [r for r in rows if r['probe'].startswith('kretprobe default')]
    b = [int(r['delta_kb']) for r in kp if r['kernel'] == 'base']
    p = [int(r['delta_kb']) for r in kp if r['kernel'] == 'patched']
    if not b or not p:
        return []
    r0 = kp[0]
    mb, mp = statistics.median(b), statistics.median(p)
    verdict = 'met' if mp <= mb else f'not met, {(mp - mb) / 1024:+.2f} MiB'
    return [(f'{r0["functions"]} kretprobes of default maxactive, {r0["possible"]} possible CPUs: '
             f'less memory patched than with {against}',
             f'{mb / 1024:.2f} MiB base, {mp / 1024:.2f} MiB patched (medians, {len(b)} + {len(p)} boots)',
             verdict)]


def fix_cost_goals(rows, series, limit=2.0):
    """Goal rows: the fix adds at most LIMIT instructions to a kretprobe hit."""
    data = icount_runs(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        b, q = data.get((arch, 'kretprobe', 'base')), data.get((arch, 'kretprobe', 'patched'))
        if not b or not q:
            continue
        ib = statistics.mean(1e9 / x for x in b.values())
        iq = statistics.mean(1e9 / x for x in q.values())
        d = iq - ib
        out.append((f'{series}: a kretprobe hit at most {limit:+.0f} instructions over the unfixed pool, {arch}',
                    f'{ib:.1f} unfixed, {iq:.1f} fixed ({d:+.1f}; {len(b)} + {len(q)} boots)',
                    'met' if d <= limit else f'not met, {d:+.1f}'))
    return out


def suite_goals(rows, series):
    """Goal rows of the fix series that are test outcomes (suite-verdicts.sh)."""
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        got = {(r['suite'], r['depth'], r['case']): r['status'] for r in rows if r['arch'] == arch}
        unfixed = got.get(('objpool-nmi-unfixed', '0', 'unfixed_push_fails'), 'did not run')
        out.append((f'{series}: the KUnit reproducer fails on the unfixed push, {arch}',
                    f'objpool-nmi-unfixed: {unfixed}', 'met' if unfixed == 'ok' else 'not met'))
        fixed = got.get(('kunit-objpool', '1', 'objpool_test_nmi'), 'did not run')
        out.append((f'{series}: the KUnit reproducer passes with the fix, {arch}',
                    f'objpool_test_nmi: {fixed}', 'met' if fixed == 'ok' else 'not met'))
        up = [st for (su, depth, _), st in got.items() if su == 'upstream-test-objpool' and depth == '0']
        bad = len([st for st in up if st != 'ok'])
        out.append((f'{series}: upstream\'s lib/test_objpool.c passes with the fix, {arch}',
                    f'{len(up) - bad} of {len(up)} cases ok',
                    'met' if up and not bad else 'not met'))
    return out


def suite_verdicts(rows, title):
    cells = [[r['arch'], r['suite'], r['case'], r['status']] for r in rows if r['depth'] == '0'
             or (r['suite'] == 'kunit-objpool' and r['depth'] == '1')]
    return [f'## {title}', ''] + table(['arch', 'suite', 'case', 'status'], cells) + [''] + text('suite-verdicts')


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
    out = (['## Instructions per pool operation under QEMU icount: lib/test_objpool.ko', '']
           + text('objpool-module-icount-lead') + not_built_note(rows))
    for arch in arches:
        possibles = sorted({k[2] for k in data if k[0] == arch})
        hdr = ['impl'] + [f'pair, {p} possible' for p in possibles] + \
              [f'failed pop, {p} possible' for p in possibles]
        if len(possibles) > 1:
            hdr.append(f'failed pop {possibles[-1]} / {possibles[0]} possible')
        rows_ = []
        for impl in impls:
            cells = [runs(data[(arch, impl, p)]['pair']) for p in possibles] + \
                    [runs(data[(arch, impl, p)]['miss']) for p in possibles]
            if len(possibles) > 1:
                lo, hi = data[(arch, impl, possibles[0])]['miss'], data[(arch, impl, possibles[-1])]['miss']
                cells.append(f'{statistics.mean(hi.values()) / statistics.mean(lo.values()):.2f}'
                             if lo and hi else '-')
            rows_.append([impl] + cells)
        out += [f'### {arch}', ''] + table(hdr, rows_) + ['']
    return out + ['### Method', ''] + text('objpool-module-icount', icount_note=icount_note(),
                                          pool_peers=inline('pool-peers'))


def pool_icount_goals(rows):
    data = pool_icount(rows)
    out = []
    for arch in arch_order(k[0] for k in data):
        lo, hi = data.get((arch, 'objpool', 2)), data.get((arch, 'objpool', 96))
        if not lo or not hi or not lo['miss'] or not hi['miss']:
            continue
        a, b = statistics.mean(lo['miss'].values()), statistics.mean(hi['miss'].values())
        verdict = 'met' if b <= 2 * a else f'not met, {b / a:.2f}x'
        out.append((f'empty-pool pop, {arch}: at 96 possible CPUs at most 2x its cost at 2 (icount)',
                    f'{a:.1f} insns at 2, {b:.1f} at 96 ({b / a:.2f}x)', verdict))
    return out


def pool_upstream_goals(rows):
    """Goal rows: our pop+push pair costs fewer instructions than upstream's, per arch."""
    data = pool_icount(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        goal = f'pop+push, {arch}: fewer instructions than upstream\'s (icount)'
        if not_built(rows, arch):
            out.append((goal, 'upstream\'s module did not build', 'not measured'))
            continue
        diffs = []
        for p in sorted({k[2] for k in data if k[0] == arch}):
            ours, up = data.get((arch, 'objpool', p)), data.get((arch, 'upstream', p))
            if ours and up and ours['pair'] and up['pair']:
                a, b = statistics.mean(ours['pair'].values()), statistics.mean(up['pair'].values())
                diffs.append((a - b, f'{a:.1f} vs {b:.1f} at {p} possible'))
        if not diffs:
            continue
        worst = max(d for d, _ in diffs)
        verdict = (f'met, {-worst:.1f} fewer per pair' if worst < 0 else
                   f'not met, {worst:+.1f} per pair')
        out.append((goal, 'objpool vs upstream: ' + ', '.join(m for _, m in diffs), verdict))
    return out


def goals(results):
    """The goals section: one row per goal with its measured verdict."""
    out = []
    for name, rows_goals in GOALS:
        path = os.path.join(results, name)
        rows = read(path) if os.path.exists(path) else []
        if rows:
            fn = getattr(rows_goals, 'func', rows_goals)
            out += (rows_goals(rows, results) if 'results' in inspect.signature(fn).parameters
                    else rows_goals(rows))
    if not out:
        return []
    cells, notes = [], []
    for goal, measured, verdict, *note in out:
        if note:
            notes.append(f'{len(notes) + 1}. {note[0]}.')
            verdict += f' (note {len(notes)})'
        cells.append([goal, measured, verdict])
    return (['## Goals', ''] + text('goals') + table(['goal', 'measured', 'verdict'], cells) + ['']
            + (['Notes:', ''] + wrap(notes) + [''] if notes else []) + text('goals-notes', icount_note=icount_note()))


US_POOLS = ['objpool', 'upstream', 'freelist', 'percpu-floor']
def us_scenarios():
    """{scenario: what it does}, in table order (report-text.txt)."""
    return dict(line.split(': ', 1) for line in text('us-scenarios', raw=True) if line)


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
    """The (scenario, threads) keys of PTS in us_scenarios() order, then by threads."""
    order = list(us_scenarios())
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
US_WHY = [(('migrating', 'sparse-migrating'), 'us-why-migrating')]


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
    measured = (f'{lo[2]:.2f} ({lo[0]}, {thread_count(lo[1])}) to '
                f'{hi[2]:.2f} ({hi[0]}, {thread_count(hi[1])}), {len(got)} points')
    below = defaultdict(list)
    for sc, t, v in got:
        if v < minimum:
            below[sc].append(f'{thread_count(t)} ({v:.3f})')
    if not below:
        return [(goal, measured, 'met')]
    names = '; '.join(f'{sc} at {", ".join(ts)}' for sc, ts in below.items())
    why = '; '.join(f'{", ".join(hit)}: ' + inline(key) for scs, key in US_WHY
                    if (hit := [sc for sc in scs if sc in below]))
    return [(goal, measured, f'not met: {names}') + ((why,) if why else ())]


def objpool_userspace(rows, results):
    out = ['## Pool benchmark in userspace (tools/testing/objpool)', '']
    if 'mode' not in rows[0]:
        return out + text('objpool-userspace-old')
    pts = us_points(rows)
    npairs = max((len(p['rate'].get('objpool', {})) for p in pts.values()), default=0)
    cells = []
    series = defaultdict(list)
    for (sc, t) in us_order(pts):
        pt = pts[(sc, t)]
        rates = []
        for pool in US_POOLS:
            v = list(pt['rate'].get(pool, {}).values())
            rates.append(fmt(statistics.median(v)) if v else '-')
        rt = us_ratio(pt)
        if rt:
            series[sc].append((t, rt[0]))
        label = sc + (' (misses/s)' if sc.endswith('exhausted') else '')
        cells.append([label, t] + rates + [ratio_cell(rt), us_counts(pt['count'].get('objpool')),
                                           us_per(pt['count'].get('upstream'), 'steals')])
    plot(os.path.join(results, 'objpool-userspace-ratio.png'),
         'objpool / upstream objpool, userspace (host)', 'ratio (median of A/B pairs)',
         {k: v for k, v in series.items() if len(v) > 1})
    out += text('objpool-userspace-lead')
    out += table(['scenario', 'threads'] + US_POOLS + [
        'objpool/upstream', 'objpool spills / steals / avail writes per pair', 'upstream steals per pair'], cells)
    out += ['', '![objpool/upstream](objpool-userspace-ratio.png)', '']
    out += text('objpool-userspace', npairs=npairs, series=', '.join(us_series(rows)))
    out += wrap([f'- {name}: {what}' for name, what in us_scenarios().items() if any(k[0] == name for k in pts)])
    out += ['']
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
    cells = []
    for label, rs in sets:
        pts = us_points(rs)
        for (sc, t) in sorted(pts):
            if not (sc.startswith('sparse-') or sc == 'exhausted' and t == 2):
                continue
            pt = pts[(sc, t)]
            med = {p: statistics.median(pt['rate'][p].values()) for p in ('objpool', 'upstream') if pt['rate'].get(p)}
            rt = us_ratio(pt)
            cells.append([label, sc, t] + [fmt(med[p]) if p in med else '-' for p in ('objpool', 'upstream')]
                         + [ratio_cell(rt), us_counts(pt['count'].get('objpool')),
                            us_per(pt['count'].get('upstream'), 'steals')])
    names = ', '.join(f'{label} is "{", ".join(us_series(rs))}"' for label, rs in sets)
    return (['### Online far below possible, and an exhausted pool', '']
            + table(['series', 'scenario', 'threads', 'objpool', 'upstream', 'objpool/upstream',
                     'objpool spills / steals / avail writes per pair', 'upstream steals per pair'], cells)
            + [''] + text('before-after', series=names))


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
    goal = 'layout: no cache line written by two CPUs\' own pops and pushes'
    measured = f'objpool {worst} at worst ({len(ours)} points)' + (f'; {ctl}' if ctl else '')
    return [(goal, measured, 'met' if worst == 0 else 'not met')]


def layout(rows):
    """Shared cache lines per point, one column per pool."""
    pools = sorted({r['pool'] for r in rows}, key=lambda p: (p != 'objpool', p))
    pts = defaultdict(dict)
    for r in rows:
        pts[(int(r['cpus']), int(r['per_cpu']), int(r['obj_size']))][r['pool']] = r['shared_lines']
    cells = [list(k) + [pts[k].get(p, '-') for p in pools] for k in sorted(pts)]
    return (['## Layout: cache lines that two CPUs\' own hits both write', '']
            + table(['CPUs', 'objects per CPU', 'object bytes'] + pools, cells) + [''] + text('layout'))


# kretprobe instances without a pool (config/benches, nolock-*): each row
# names its kind (guest/bench/pool-kind.sh) and the series state it was
# built from (the 'series' column).
NOLOCK_KINDS = [('objpool', 'fixed objpool (series-7.2)'),
                ('rfc-pool', "RFC's pool (series-7.2-rfc)"),
                ('kmalloc_nolock', 'kmalloc_nolock() per hit')]
NOLOCK_TITLE = 'kretprobe instances without a pool: kmalloc_nolock() against the fixed objpool and the RFC (Linux 7.2)'


def nolock_hits(rows):
    """{(arch, pool): [(kretprobe insns/call, native insns/call, kprobe
    insns/call) per boot]}"""
    boots = defaultdict(dict)
    for r in rows:
        boots[(r['arch'], r['pool'], r['run'], r.get('series', ''))][r['row']] = 1e9 / float(r['calls_per_vsec'])
    out = defaultdict(list)
    for (arch, pool, _, _), rr in sorted(boots.items()):
        if 'kretprobe' in rr and 'native' in rr:
            out[(arch, pool)].append((rr['kretprobe'], rr['native'], rr.get('kprobe')))
    return out


def nolock_states(*tables):
    """The series states of the rows, for the text."""
    st = sorted({r.get('series') or '?' for rows in tables for r in rows})
    return ', '.join(f'`{x}`' for x in st)


def nolock_memory(rows):
    """{(probe, pool): [delta KiB per boot]}"""
    out = defaultdict(list)
    for r in rows:
        out[(r['probe'], r['pool'])].append(int(r['delta_kb']))
    return out


def nolock_exhaust(rows):
    """{(arch, maxactive, round): {pool: (hits, nmissed, returns, expected)}}"""
    out = defaultdict(dict)
    for r in rows:
        out[(r['arch'], int(r['maxactive']), r['round'], r['sleepers'])][r['pool']] = (
            int(r['hits']), int(r['nmissed']), int(r['returns']), int(r['expected_nmissed']))
    return out


def nolock_load(results):
    """The rows of nolock-icount, nolock-memory and nolock-exhaust.csv.  A
    pool kind that nolock-icount or nolock-memory lacks on an arch is taken
    from the RFC's lines on the same config (real-load-icount-7.2-rfc.csv,
    memory-7.2-rfc.csv: base is the fixed objpool, patched the RFC), its
    'series' column naming that CSV."""
    def load(name):
        path = os.path.join(results, name)
        return read(path) if os.path.exists(path) else []

    def prefixed(prefix):
        return [r for name in sorted(os.listdir(results))
                if name == prefix + '.csv' or (name.startswith(prefix + '-') and name.endswith('.csv'))
                for r in load(name)]
    ic, mem, ex = prefixed('nolock-icount'), prefixed('nolock-memory'), prefixed('nolock-exhaust')
    kinds = {'base': 'objpool', 'patched': 'rfc-pool'}
    if ic:
        have = {(r['arch'], r['pool']) for r in ic}
        ic = ic + [dict(r, pool=kinds[r['kernel']], series='real-load-icount-7.2-rfc.csv')
                   for r in load('real-load-icount-7.2-rfc.csv')
                   if (r['arch'], kinds[r['kernel']]) not in have]
    if mem:
        have = {r['pool'] for r in mem}
        mem = mem + [dict(r, pool=kinds[r['kernel']], series='memory-7.2-rfc.csv')
                     for r in load('memory-7.2-rfc.csv') if r['probe'].startswith('kretprobe')
                     and kinds[r['kernel']] not in have]
    return ic, mem, ex


def nolock(results):
    """The section: three tables, one per CSV, each optional."""
    ic, mem, ex = nolock_load(results)
    if not (ic or mem or ex):
        return []
    out = [f'## {NOLOCK_TITLE}', ''] + text('nolock-lead', states=nolock_states(ic, mem, ex))
    if ic:
        hits = nolock_hits(ic)
        series = defaultdict(set)
        for r in ic:
            series[(r['arch'], r['pool'])].add(r.get('series') or '?')
        for arch in arch_order(r['arch'] for r in ic):
            ref = hits.get((arch, 'objpool'))
            ref_hit = statistics.median(k - n for k, n, _ in ref) if ref else None
            cells = []
            for pool, label in NOLOCK_KINDS:
                v = hits.get((arch, pool))
                if not v:
                    cells.append([label, 'not measured', '-', '-', '-', '-', 0])
                    continue
                hit = [k - n for k, n, _ in v]
                kp = [p for _, _, p in v if p is not None]
                d = f'{statistics.median(hit) - ref_hit:+.1f}' if ref_hit is not None else '-'
                f1 = lambda x: f'{x:.1f}'
                cells.append([label, cell([k for k, _, _ in v], f1), cell([n for _, n, _ in v], f1),
                              cell(kp, f1) if kp else '-', cell(hit, f1), d,
                              f'{len(v)} ({", ".join(sorted(series.get((arch, pool), [])))})'])
            out += [f'### Instructions per kretprobe hit, {arch} (icount)', ''] + table(
                ['instances', 'kretprobe insns/call', 'native insns/call', 'kprobe insns/call (control)',
                 'hit (kretprobe - native)', 'hit - fixed objpool', 'boots (series)'], cells) + ['']
        out += text('nolock-icount', icount_note=icount_note())
    if mem:
        m = nolock_memory(mem)
        probes = list(dict.fromkeys(r['probe'] for r in mem))
        objs = {r['probe']: r['objects'] for r in mem}
        cells = [[p, objs[p]] + [cell(m[(p, pool)], lambda x: f'{x / 1024:.2f}') + ' MiB'
                                 if m.get((p, pool)) else '-' for pool, _ in NOLOCK_KINDS] for p in probes]
        r0 = mem[0]
        out += ['### Memory at registration, 96 possible CPUs (x86_64)', ''] + table(
            ['probes', 'instances (maxactive)'] + [label for _, label in NOLOCK_KINDS], cells) + ['']
        out += text('nolock-memory', accel=r0['accel'].upper(), vcpus=r0['vcpus'], possible=r0['possible'],
                    boots=len({r['run'] for r in mem}))
    if ex:
        e = nolock_exhaust(ex)
        for arch in arch_order(r['arch'] for r in ex):
            cells = []
            for (a, mx, rnd, n), by in sorted(e.items()):
                if a != arch:
                    continue
                exp = next(iter(by.values()))[3]
                cells.append([mx, n, rnd, exp] + [
                    f'{by[pool][1]} missed, {by[pool][0]} hit, {by[pool][2]} returns' if pool in by else '-'
                    for pool, _ in NOLOCK_KINDS])
            out += [f'### Running out: missed, hit (an instance taken) and returns traced, {arch}', ''] + table(
                ['maxactive', 'sleepers', 'round', 'expected nmissed'] + [label for _, label in NOLOCK_KINDS],
                cells) + ['']
        out += text('nolock-exhaust')
    return out + text('nolock-outcome', summary=nolock_summary(ic, mem, ex))


def nolock_summary(ic, mem, ex):
    """One sentence per measurement, from the medians."""
    parts = []
    hits = nolock_hits(ic)
    for arch in arch_order(r['arch'] for r in ic):
        med = {pool: statistics.median(k - n for k, n, _ in hits[(arch, pool)])
               for pool, _ in NOLOCK_KINDS if hits.get((arch, pool))}
        if len(med) == 3:
            parts.append(f'A hit on {arch} costs {med["kmalloc_nolock"]:.1f} instructions with kmalloc_nolock(), '
                         f'{med["objpool"]:.1f} with the fixed objpool and {med["rfc-pool"]:.1f} with the RFC\'s '
                         f'pool ({med["kmalloc_nolock"] - med["rfc-pool"]:+.1f} for kmalloc_nolock() against the RFC).')
    m = nolock_memory(mem)
    for probe in dict.fromkeys(r['probe'] for r in mem):
        v = {pool: statistics.median(m[(probe, pool)]) / 1024 for pool, _ in NOLOCK_KINDS if m.get((probe, pool))}
        if len(v) == 3:
            parts.append(f'At {mem[0]["possible"]} possible CPUs, {probe} take {v["objpool"]:.2f} MiB with the '
                         f'fixed objpool, {v["rfc-pool"]:.2f} MiB with the RFC\'s pool and '
                         f'{v["kmalloc_nolock"]:.2f} MiB with kmalloc_nolock() until they are hit.')
    e = nolock_exhaust(ex)
    if e:
        exact = {pool: all(by[pool][1] == by[pool][3] for by in e.values() if pool in by)
                 for pool, _ in NOLOCK_KINDS}
        ran = {pool for by in e.values() for pool in by}
        same = [label for pool, label in NOLOCK_KINDS if pool in ran and exact[pool]]
        parts.append(f'Running out, exactly sleepers - maxactive hits missed with: {", ".join(same) or "none"}.')
    return ' '.join(parts) or 'no numbers yet.'


def nolock_goals(rows, results):
    """Goal rows of the instructions per hit (nolock_load's rows)."""
    rows = nolock_load(results)[0]
    out = []
    hits = nolock_hits(rows)
    for arch in arch_order(r['arch'] for r in rows):
        nl = hits.get((arch, 'kmalloc_nolock'))
        if not nl:
            continue
        hn = statistics.median(k - n for k, n, _ in nl)
        for pool, label in NOLOCK_KINDS[:2]:
            v = hits.get((arch, pool))
            if not v:
                continue
            hp = statistics.median(k - n for k, n, _ in v)
            d = hp - hn
            out.append((f'kretprobe hit, {arch}: the {label} fewer instructions than kmalloc_nolock() per hit',
                        f'{hp:.1f} against {hn:.1f} insns per hit over native ({d:+.1f}; medians of '
                        f'{len(v)} + {len(nl)} boots)', 'met' if d < 0 else f'not met, {d:+.1f}'))
    return out


def nolock_memory_goals(rows, results):
    rows = nolock_load(results)[1]
    m = nolock_memory(rows)
    out = []
    for probe in dict.fromkeys(r['probe'] for r in rows):
        nl = m.get((probe, 'kmalloc_nolock'))
        rfc = m.get((probe, 'rfc-pool'))
        if not nl or not rfc:
            continue
        a, b = statistics.median(rfc), statistics.median(nl)
        # A boot that measured a negative cost saw the rest of the kernel
        # free more than the probes took: that row measures nothing.
        noise = [v for v in rfc + nl if v < 0]
        verdict = ('no verdict: a boot measured ' + ', '.join(f'{v:.0f}' for v in noise) + ' KiB'
                   if noise else 'met' if a <= b else f'not met, {(a - b) / 1024:+.2f} MiB')
        out.append((f'{probe}, {rows[0]["possible"]} possible CPUs: the RFC\'s pool no more memory than '
                    'kmalloc_nolock() per hit',
                    f'{a / 1024:.2f} against {b / 1024:.2f} MiB at registration (medians)', verdict))
    return out


def nolock_exhaust_goals(rows, results):
    rows = nolock_load(results)[2]
    e = nolock_exhaust(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        for pool, label in NOLOCK_KINDS:
            got = [(k, by[pool]) for k, by in e.items() if k[0] == arch and pool in by]
            if not got:
                continue
            bad = [f'maxactive {k[1]} round {k[2]}: {v[1]} missed, {v[3]} expected' for k, v in got
                   if v[1] != v[3] or v[2] != v[0]]
            out.append((f'running out, {arch}: the {label} misses exactly sleepers - maxactive',
                        f'{len(got) - len(bad)} of {len(got)} rounds exact',
                        'met' if not bad else 'not met: ' + '; '.join(bad)))
    return out


# The CSVs of results/ that goals are read from, each with its goal rows.
GOALS = [('layout.csv', layout_goals),
         ('real-load-icount.csv', functools.partial(icount_goals, base="with 6.1's freelist", limit=20)),
         ('real-load-icount-7.2-rfc.csv', functools.partial(icount_goals, base="with 7.2's fixed objpool",
                                                           probes=('kretprobe',))),
         ('objpool-module-icount.csv', pool_icount_goals),
         ('objpool-module-icount.csv', pool_upstream_goals),
         ('memory.csv', functools.partial(memory_goals, against="6.1's freelist")),
         ('memory-7.2-rfc.csv', functools.partial(kretprobe_memory_goals, against="7.2's fixed objpool")),
         ('suite-verdicts-7.2.csv', functools.partial(suite_goals, series='7.2 fix')),
         ('real-load-icount-7.2.csv', functools.partial(fix_cost_goals, series='7.2 fix')),
         ('suite-verdicts-6.12.csv', functools.partial(suite_goals, series='6.12 backport')),
         ('real-load-icount-6.12.csv', functools.partial(fix_cost_goals, series='6.12 backport')),
         ('nolock-icount.csv', nolock_goals),
         ('nolock-memory.csv', nolock_memory_goals),
         ('nolock-exhaust.csv', nolock_exhaust_goals),
         ('objpool-userspace.csv', functools.partial(
             us_goal, goal='userspace, every scenario: objpool at least 1.0x upstream', minimum=1.0)),
         ('objpool-userspace.csv', functools.partial(
             us_goal, goal='userspace, balanced: objpool at least 1.1x upstream', minimum=1.1,
             scenarios=('balanced',)))]


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
    cells = [list(key) + [cell([number(r[c]) for r in group]) for c in numeric] + [len(group)]
             for key, group in groups.items()]
    return [f'## {name}', ''] + table(keys + numeric + ['runs'], cells) + [''] + text('generic', name=name)


L72F = 'Linux 7.2, the fix (series-7.2, against the unfixed push): '
L612 = 'Linux 6.12, the backport (series-6.12, against the unfixed push): '
L72R = 'Linux 7.2, the RFC (series-7.2-rfc, against the fixed upstream pool): '
SECTIONS = [('build-boot-times.csv', build_boot_times), ('real-load-icount.csv', real_load_icount),
            ('real-load.csv', real_load), ('perf-stat.csv', perf_stat),
            ('memory.csv', memory), ('objpool-module-icount.csv', objpool_module_icount),
            ('objpool-module.csv', objpool_module),
            ('objpool-userspace.csv', objpool_userspace),
            ('layout.csv', layout),
            ('real-load-icount-7.2.csv', functools.partial(
                real_load_icount, title=L72F + 'instructions per call under QEMU icount',
                bench='real-load-icount-7.2')),
            ('suite-verdicts-7.2.csv', functools.partial(suite_verdicts, title=L72F + 'test outcomes')),
            ('real-load-icount-6.12.csv', functools.partial(
                real_load_icount, title=L612 + 'instructions per call under QEMU icount',
                bench='real-load-icount-6.12')),
            ('suite-verdicts-6.12.csv', functools.partial(suite_verdicts, title=L612 + 'test outcomes')),
            ('real-load-icount-7.2-rfc.csv', functools.partial(
                real_load_icount, title=L72R + 'instructions per call under QEMU icount',
                bench='real-load-icount-7.2-rfc')),
            ('memory-7.2-rfc.csv', functools.partial(
                memory, title=L72R + 'memory of kretprobe pools at scale')),
            ('nolock-icount.csv', lambda rows, results: nolock(results))]


def main():
    results = sys.argv[1]
    md = ['# Benchmark results', ''] + text('intro')
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
        md += section(*args)
        if md[-1] != '':
            md.append('')
    # Read by a section above without a line of their own.
    known = {name for name, _ in SECTIONS} | {'objpool-userspace-before.csv'}
    known |= {n for n in os.listdir(results) if n.startswith('nolock-')}
    for name in sorted(os.listdir(results)):
        if name.endswith('.csv') and name not in known:
            rows = read(os.path.join(results, name))
            if rows:
                md += generic(name[:-4], rows)
    with open(os.path.join(results, 'summary.md.tmp'), 'w') as f:
        f.write('\n'.join(md) + '\n')
    os.replace(os.path.join(results, 'summary.md.tmp'), os.path.join(results, 'summary.md'))


if __name__ == '__main__':
    main()

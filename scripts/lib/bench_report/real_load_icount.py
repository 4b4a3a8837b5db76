# SPDX-License-Identifier: GPL-2.0
"""real-load-icount (guest/bench/real-load-icount.sh): instructions per
syscall with no probe, a kprobe, a kretprobe, an fprobe under QEMU
icount, 6.1's freelist (unpatched) and the pool (patched), x86_64 and
arm64.  The
sections and goals of the other series' icount lines
(real_load_icount_7_2_rfc.py, fix_cost()) are this module's with their
own title."""
import statistics
import types
from collections import defaultdict

from .core import KERNELS_6_1, KERNELS_FIX, Prose, arch_order, icount_note, table

CSV = 'real-load-icount.csv'
PROSE = Prose(__file__, {
    'icount-lead': '''
syscall-loop getppid(), 1 thread, 1 vCPU, QEMU TCG with `-icount
shift=0,sleep=off`; instructions per call of each boot, {unpatched} and
{patched} bench kernels (same config).
''',
    'icount': '''
The guest clock advances 1 ns per guest instruction (`make vm
ICOUNT=1`), so instructions per call = 1e9 / calls per virtual second
(the loop, the syscall, the probe and the timer ticks that land in the
loop; results/{bench}.csv has the calls). Each run is a separate boot;
spread = (max - min) / mean of the runs. The native row has no probe
and the kprobe row never touches the instance pool: they are the
controls, and should not differ between the kernels. {icount_note}
Regenerate with `BENCHES={bench} make bench` (its boots, arches and run
length are its lines in config/benches).

Guest clock check (guest/bench/icount-clock.sh: a loop of known
instruction count, timed with CLOCK_MONOTONIC): {clocks}.
''',
})


def icount_runs(rows):
    """{(arch, row, kernel): {run: calls per virtual second}}"""
    data = defaultdict(dict)
    for r in rows:
        data[(r['arch'], r['row'], r['kernel'])][int(r['run'])] = float(r['calls_per_vsec'])
    return data


def section(rows, results, title='Instructions per call under QEMU icount: real load',
            bench='real-load-icount', kernels=KERNELS_6_1):
    data = icount_runs(rows)
    arches = arch_order(r['arch'] for r in rows)
    clocks = defaultdict(set)
    ratios = defaultdict(list)
    for r in rows:
        clocks[r['arch']].add(r['clocksource'])
        ratios[r['arch']].append(float(r['ns_per_insn']))
    out = [f'## {title}', ''] + PROSE.text('icount-lead', **kernels._asdict())
    for arch in arches:
        probes = [p for p in ('native', 'kprobe', 'kretprobe', 'fprobe')
                  if any(k[0] == arch and k[1] == p for k in data)]
        cells = []
        for p in probes:
            each_run, per_call, spreads = [], [], []
            for k in kernels._fields:
                runs = data.get((arch, p, k), {})
                v = [runs[i] for i in sorted(runs)]
                each_run.append(' / '.join(f'{1e9 / x:.1f}' for x in v) or '-')
                if v:
                    per_call.append(statistics.mean(1e9 / x for x in v))
                    spreads.append(f'{(max(v) - min(v)) / statistics.mean(v) * 100:.4f}%')
                else:
                    per_call.append(None)
                    spreads.append('-')
            i = [f'{x:.1f}' if x is not None else '-' for x in per_call]
            d = (f'{per_call[1] - per_call[0]:+.1f} ({(per_call[1] / per_call[0] - 1) * 100:+.2f}%)'
                 if None not in per_call else '-')
            cells.append([p, each_run[0], each_run[1], i[0], i[1], d, f'{spreads[0]} / {spreads[1]}'])
        out += [f'### {arch}', ''] + table(
            ['row'] + kernels.each_run() + [f'{k} insns/call' for k in kernels]
            + [kernels.difference(), f'spread {kernels.unpatched} / {kernels.patched}'], cells) + ['']
    clock = '; '.join(f'{a}: clocksource {"/".join(sorted(clocks[a]))}, '
                      f'{min(ratios[a]):.4f}-{max(ratios[a]):.4f} ns per instruction' for a in arches)
    return out + ['### Method', ''] + PROSE.text('icount', bench=bench, icount_note=icount_note(), clocks=clock)


def hit_cost_goals(rows, reference, probes=('kretprobe', 'fprobe'), limit=0):
    """Goal rows: a probe hit costs at most LIMIT instructions more patched
    than with REFERENCE, the unpatched kernel's pool, which each row names."""
    data = icount_runs(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        for p in probes:
            b, q = data.get((arch, p, 'unpatched')), data.get((arch, p, 'patched'))
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
            out.append((f'{p} hit, {arch}: {bound} patched than with {reference} (icount)',
                        f'{statistics.mean(ib):.1f} with {reference}, {statistics.mean(iq):.1f} patched '
                        f'({d:+.1f}; {len(ib)} + {len(iq)} runs)', verdict))
    return out


def kretprobe_means(rows):
    """(arch, unpatched insns per hit, patched insns per hit, unpatched
    boots, patched boots) of each arch, x86_64 first, that has kretprobe rows of
    both kernels: the mean over each kernel's boots."""
    data = icount_runs(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        b, q = data.get((arch, 'kretprobe', 'unpatched')), data.get((arch, 'kretprobe', 'patched'))
        if b and q:
            out.append((arch, statistics.mean(1e9 / x for x in b.values()),
                        statistics.mean(1e9 / x for x in q.values()), len(b), len(q)))
    return out


def fix_cost_goals(rows, series, limit=2.0):
    """Goal rows of a fix series: the fix adds at most LIMIT instructions
    to a kretprobe hit."""
    out = []
    for arch, ib, iq, nb, nq in kretprobe_means(rows):
        d = iq - ib
        out.append((f'{series}: a kretprobe hit at most {limit:+.0f} instructions over the unfixed pool, {arch}',
                    f'{ib:.1f} unfixed, {iq:.1f} fixed ({d:+.1f}; {nb} + {nq} boots)',
                    'met' if d <= limit else f'not met, {d:+.1f}'))
    return out


def goal(rows, results):
    return hit_cost_goals(rows, reference=KERNELS_6_1.unpatched, limit=20)


GOALS = [(CSV, goal)]


def fix_cost(bench, title, series):
    """The benchmark of a fix series' cost (real-load-icount-7.2, -6.12):
    unpatched (unfixed) against patched (fixed), at most +2 instructions a
    hit; BENCH names its CSV, TITLE prefixes its section, SERIES its goals."""
    csv = bench + '.csv'
    return types.SimpleNamespace(
        CSV=csv,
        section=lambda rows, results: section(rows, results, bench=bench,
                                              title=title + 'instructions per call under QEMU icount',
                                              kernels=KERNELS_FIX),
        GOALS=[(csv, lambda rows, results: fix_cost_goals(rows, series=series))])

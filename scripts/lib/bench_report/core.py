# SPDX-License-Identifier: GPL-2.0
"""What every benchmark module of the report shares: its prose (Prose),
Markdown tables, 'median (min-max)' cells, number formats and plots.

Every table states the guest type (TCG or KVM) and the vCPU count next to
its numbers; medians are quoted with their min-max spread over repeats.
Cells stay short; what a table measures and how is its module's prose,
printed under the table.
"""
import csv
import os
import re
import statistics
import sys
import textwrap
from typing import NamedTuple


class Prose:
    """Blocks of the summary's prose, {KEY: text}.  {NAME} in a block is a
    value its section fills in; write {{ and }} for a literal brace.  Each
    paragraph is wrapped at 72 columns when printed."""

    def __init__(self, owner, blocks):
        self.owner = owner
        self.blocks = {k: v.strip('\n') for k, v in blocks.items()}

    def text(self, key, raw=False, **values):
        """Block KEY, its {NAME}s filled from VALUES, as lines ending with
        an empty one; each paragraph wrapped unless RAW."""
        try:
            block = self.blocks[key]
        except KeyError:
            sys.exit(f'report.py: no prose block "{key}" in {self.owner}: add it')
        try:
            block = block.format(**values)
        except KeyError as e:
            sys.exit(f'report.py: prose block "{key}" of {self.owner} uses {{{e.args[0]}}}, '
                     'which its section does not give')
        if raw:
            return block.split('\n') + ['']
        out = []
        for para in re.split(r'\n\s*\n', block):
            out += wrap(para.split('\n')) + ['']
        return out

    def inline(self, key, **values):
        """Block KEY as one line, to go inside another block."""
        return ' '.join(self.text(key, raw=True, **values)).strip()


# The prose of the summary as a whole, and what several sections quote.
PROSE = Prose('scripts/lib/bench_report/core.py', {
    'intro': '''
Produced by `make bench` (scripts/lib/report.py from the CSV files of
results/); see README.md for what each number means. Each table is
followed by what it measures and how.
''',
    'icount-note': '''
icount counts executed guest instructions, not time: cache misses,
cache-line contention and memory ordering cost nothing here, so these
numbers are the single-thread instruction cost only, not a speed on real
hardware.
''',
    'goals': '''
Each goal, what was measured and the verdict; the sections below have
the tables the numbers come from.
''',
    'goals-notes': '''
{icount_note}
''',
    'generic': '''
results/{name}.csv as make bench wrote it (no section of
scripts/lib/report.py renders it yet): median (min-max) over the runs of
each row.
''',
})


class Kernels(NamedTuple):
    """What a section's tables call the two kernels of its CSV's kernel
    column: 'unpatched' (the benchmarked series' base kernel, or its
    parent series' head) and 'patched' (with the series)."""
    unpatched: str
    patched: str

    def each_run(self):
        return [f'{self.unpatched}, each run', f'{self.patched}, each run']

    def difference(self):
        return f'{self.patched} - {self.unpatched}'

    def ratio(self):
        return f'{self.patched} / {self.unpatched}'


# The two kernels of each series' benchmarks.
KERNELS_6_1 = Kernels("6.1's freelist", 'series-6.1')
KERNELS_FIX = Kernels('unfixed', 'fixed')
KERNELS_RFC_7_2 = Kernels("7.2's fixed objpool", 'RFC')

# The title prefixes of the sections of the series other than 6.1's.
FIX_7_2 = 'Linux 7.2, the fix (series-7.2, against the unfixed push): '
BACKPORT_6_12 = 'Linux 6.12, the backport (series-6.12, against the unfixed push): '
RFC_7_2 = 'Linux 7.2, the RFC (series-7.2-rfc, against the fixed upstream pool): '


def icount_note():
    return PROSE.inline('icount-note')


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


def table(head, rows):
    """A Markdown table: the heading cells HEAD, then ROWS of cells."""
    out = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    return out + ['| ' + ' | '.join(str(c) for c in r) + ' |' for r in rows]


def read(path):
    """The rows of a CSV file, as dicts."""
    with open(path) as f:
        return list(csv.DictReader(f))


def read_if(results, name):
    """The rows of RESULTS/NAME, none if it does not exist."""
    path = os.path.join(results, name)
    return read(path) if os.path.exists(path) else []


def spread(values):
    """(median, min, max) of VALUES."""
    return statistics.median(values), min(values), max(values)


def cell(values, f=None):
    """'median (min-max)' of VALUES, each written with F (fmt by default)."""
    return span(spread(values), f)


def span(stats, f=None):
    """'median (min-max)' of a (median, min, max, ...) tuple."""
    f = f or fmt
    return f'{f(stats[0])} ({f(stats[1])}-{f(stats[2])})'


def fmt(v):
    """V with a k or M suffix, 2 decimals below 1000."""
    if v >= 1e6:
        return f'{v / 1e6:.2f}M'
    if v >= 1e3:
        return f'{v / 1e3:.1f}k'
    return f'{v:.2f}'


def number(v):
    """V as a float, None if it is not a number."""
    try:
        return float(v)
    except ValueError:
        return None


def arch_order(arches):
    """ARCHES once each, x86_64 first."""
    return sorted(set(arches), key=lambda a: (a != 'x86_64', a))


def thread_count(t):
    return f'{t} thread' + 's' * (t != 1)


def plot(path, title, ylabel, series):
    """A PNG at PATH of SERIES, {label: [(threads, y), ...]}, threads on a
    log2 axis."""
    try:
        import matplotlib
    except ImportError:
        sys.exit(f'report: {sys.executable} has no matplotlib for the plots: '
                 'make deps installs python3-matplotlib for /usr/bin/python3; '
                 'put /usr/bin first on PATH or pip install matplotlib')
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

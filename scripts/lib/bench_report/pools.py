# SPDX-License-Identifier: GPL-2.0
"""What the two benchmarks of lib/test_objpool.ko (objpool_module.py,
objpool_module_icount.py) share: its pools, in table order, and the
rows of pools whose module did not build."""
from .core import Prose

# upstream is upstream's objpool of Linux 6.12 running the same loop
# (guest/modules/upstream_objpool_bench_main.c).
POOL_IMPLS = ['objpool', 'upstream', 'freelist', 'percpu']
# The case of the one row guest/bench/pool-modules.sh prints for a pool
# whose module did not build.
NOT_BUILT = 'not built'

PROSE = Prose(__file__, {
    'pool-peers': '''
Pools: objpool (this series), upstream (upstream's objpool of Linux
6.12, extracted from Debian's linux-source-6.12 at build time and never
committed, running the same lib/test_objpool.c loop:
guest/modules/upstream_objpool_bench_main.c), freelist (a copy of the lock-free
list objpool replaces) and percpu (a per-CPU stack under
local_irq_save(): the floor).
''',
    'not-built': '''
Not measured: {missing}: the guest had no module for it (make bench's
log names the modules that did not build; see
build/SERIES/ARCH-bench/guest-modules/build.log).
''',
})


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
    return PROSE.text('not-built', missing=', '.join(missing))


def pool_peers():
    return PROSE.inline('pool-peers')

# SPDX-License-Identifier: GPL-2.0
"""claim-icount-arm64: what the pop's release claim saves a kretprobe hit
on arm64 against a fully ordered one, on 6.1.  Its unpatched kernels are the
6.1 series' patched ones (the claim a cmpxchg_release()); its patched
kernels add bench-kernels/6.1-fullclaim's patch, which makes the claim a fully
ordered cmpxchg again (bench-kernels/6.1-fullclaim/series.env)."""
from . import real_load_icount
from .core import Kernels

CSV = 'claim-icount-arm64.csv'
TITLE = ('Linux 6.1, the pop\'s claim (series-6.1, release, against '
         'bench-kernels/6.1-fullclaim, fully ordered): instructions per call under QEMU icount')
KERNELS = Kernels('release claim', 'full claim')


def section(rows, results):
    return real_load_icount.section(rows, results, title=TITLE, bench='claim-icount-arm64', kernels=KERNELS)


def goal(rows, results):
    """One row per arch: the series' kretprobe hit (unpatched, release claim)
    costs no more instructions than with the fully ordered claim
    (patched); the measured column says how many fewer."""
    out = []
    for arch, i_rel, i_full, n_rel, n_full in real_load_icount.kretprobe_means(rows):
        saved = i_full - i_rel
        out.append((f'6.1: the pop\'s release claim, a kretprobe hit no more instructions than '
                    f'with a fully ordered claim, {arch} (icount: a barrier counts as one)',
                    f'{i_rel:.1f} release, {i_full:.1f} fully ordered ({saved:.1f} saved; '
                    f'{n_rel} + {n_full} boots)',
                    f'met, {saved:.1f} fewer per hit' if saved >= 0 else f'not met, {-saved:.1f} more'))
    return out


GOALS = [(CSV, goal)]

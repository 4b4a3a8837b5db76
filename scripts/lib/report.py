#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the CSV files of a benchmark run into PNG plots and summary.md.

usage: report.py RESULTS_DIR

Writes RESULTS_DIR/summary.md (a goals table, then one section per
benchmark whose CSV is there) and the plots the sections draw, beside
the CSVs.  Each benchmark is a module of scripts/lib/bench_report/ declaring
its CSV, its section, its goals and its prose; see that package's
__init__.py for how to add one.
"""
import os
import sys

import bench_report


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip(), file=sys.stderr if len(sys.argv) != 2 else sys.stdout)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    results = sys.argv[1]
    if not os.path.isdir(results):
        sys.exit(f'report.py: no directory {results}: give the directory of the CSV files (results/ or a copy)')
    bench_report.write_summary(results)


if __name__ == '__main__':
    main()

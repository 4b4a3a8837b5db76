# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/barrier_tags.py (its own --self-test, run with
the other tools' before any gate; the barriers gate runs it again)."""
import contextlib
import io
import unittest

import barrier_tags


class BarrierTags(unittest.TestCase):
    def test_self_test(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertTrue(barrier_tags.self_test())
        self.assertIn('ok   barrier_tags self-test', out.getvalue())

    def test_a_litmus_read_maps_to_the_pool_code_it_stands_for(self):
        # Passes wrongly: a mapping that accepts any ordering (the relaxed
        # form must not match a release requirement).
        pattern = barrier_tags.requirement('r1 = cmpxchg_release(head, 0, 1);', [])[0]
        self.assertRegex('try_cmpxchg_release(&ring->head, &head, head + 1)', pattern)
        self.assertNotRegex('try_cmpxchg_relaxed(&ring->head, &head, head + 1)', pattern)


if __name__ == '__main__':
    unittest.main()

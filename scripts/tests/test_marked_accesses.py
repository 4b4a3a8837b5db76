# SPDX-License-Identifier: GPL-2.0
"""Self-tests of scripts/lib/marked_accesses.py (the marked-accesses gate's
parser) on small made-up sources and lists."""
import os
import tempfile
import unittest

import marked_accesses

LIST = """\
# a made-up list
field head ->head\\b -- read and written by every CPU
field slot ->slots\\s*\\[ -- published by pushes
field rings ->rings\\b -- the per-CPU pointers
marked READ_ONCE 0 -- one load
marked WRITE_ONCE 0 -- one store
marked smp_load_acquire 0 -- acquire
marked try_cmpxchg* 0 -- atomic
marked atomic_* & -- atomic
except setup head -- before publication
"""


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.list = os.path.join(self.tmp.name, 'list')
        with open(self.list, 'w', encoding='utf-8') as f:
            f.write(LIST)
        self.fields, self.marked, _ = marked_accesses.read_list(self.list)

    def access(self, code):
        """The accesses of CODE: [(field, function, expression, marked)]."""
        return [(a[0], a[2], a[3], a[4])
                for a in marked_accesses.accesses(code, self.fields, self.marked)]

    def check(self, header, source):
        for rel, text in zip(marked_accesses.FILES, (header, source)):
            path = os.path.join(self.tmp.name, 'src', rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
        return marked_accesses.check(self.list, os.path.join(self.tmp.name, 'src'))


class Accesses(Base):
    def test_a_plain_read_is_plain(self):
        self.assertEqual(self.access('int f(struct r *r)\n{\n\treturn r->head;\n}\n'),
                         [('head', 'f', 'r->head', False)])

    def test_marked_forms_are_marked(self):
        code = ('void f(struct r *r, u32 h)\n{\n'
                '\th = READ_ONCE(r->head);\n'
                '\tWRITE_ONCE(r->head, h);\n'
                '\ttry_cmpxchg_release(&r->head, &h, h + 1);\n'
                '\tx = smp_load_acquire(&r->slots[h & r->mask]);\n'
                '\ty = READ_ONCE(*per_cpu_ptr(p->rings, 1));\n'
                '\tatomic_long_inc(&(r->head));\n'
                '}\n')
        self.assertEqual([a[3] for a in self.access(code)], [True] * 6)
        self.assertIn(('slot', 'f', '&r->slots[h & r->mask]', True), self.access(code))

    def test_a_value_argument_of_a_marked_form_is_plain(self):
        # Passes wrongly: a check that accepts any argument of WRITE_ONCE().
        self.assertEqual(self.access('void f(void)\n{\n\tWRITE_ONCE(x, r->head);\n}\n'),
                         [('head', 'f', 'r->head', False)])

    def test_an_unmarked_call_or_an_operand_is_plain(self):
        code = ('void f(void)\n{\n\tg(&r->head);\n'
                '\ty = READ_ONCE(r->tail) - r->head;\n'
                '\tz = *per_cpu_ptr(p->rings, 1);\n}\n')
        self.assertEqual([(a[2], a[3]) for a in self.access(code)],
                         [('&r->head', False), ('r->head', False),
                          ('*per_cpu_ptr(p->rings, 1)', False)])

    def test_a_binary_and_is_no_address_of(self):
        self.assertEqual(self.access('void f(void)\n{\n\tatomic_add(x & r->head, &v);\n}\n'),
                         [('head', 'f', 'r->head', False)])

    def test_comments_and_strings_are_no_access(self):
        code = ('/* r->head */\n#define H(r) ((r)->head)\n'
                'void f(void)\n{\n\tpr_info("r->head");\n}\n')
        self.assertEqual(self.access(code), [])


class Check(Base):
    def test_an_exception_passes_a_plain_access_in_its_function_only(self):
        res = self.check('void setup(struct r *r)\n{\n\tr->head = 0;\n}\n',
                         'void pop(struct r *r)\n{\n\tr->slots[READ_ONCE(r->head)] = 0;\n'
                         '\tREAD_ONCE(*per_cpu_ptr(p->rings, 0));\n}\n')
        failed = [(n, t) for ok, n, t in res if not ok]
        self.assertEqual(failed, [('field/slot', 'lib/objpool.c:3 in pop: '
                                   'r->slots[READ_ONCE(r->head)] (plain access)')])
        self.assertIn((True, 'except/setup/head', 'before publication'), res)
        self.assertIn((True, 'field/head', '1 marked, 1 excepted'), res)

    def test_a_plain_access_outside_the_excepted_function_fails(self):
        res = self.check('void other(struct r *r)\n{\n\tr->head = 0;\n}\n',
                         'void f(void)\n{\n\tREAD_ONCE(r->slots[0]);\n'
                         '\tREAD_ONCE(*per_cpu_ptr(p->rings, 0));\n}\n')
        failed = [(n, t) for ok, n, t in res if not ok]
        self.assertIn(('field/head', 'include/linux/objpool.h:3 in other: '
                       'r->head (plain access)'), failed)
        # The exception of setup() no longer used: stale, it fails too.
        self.assertIn(('except/setup/head',
                       'unused: no plain access to it in that function'), failed)

    def test_a_field_never_accessed_fails(self):
        res = self.check('void setup(struct r *r)\n{\n\tr->head = 0;\n}\n',
                         'void f(void)\n{\n\tREAD_ONCE(r->slots[0]);\n}\n')
        self.assertIn((False, 'field/rings', 'no access found: is its regex stale?'), res)

    def test_an_entry_without_a_reason_is_refused(self):
        with open(self.list, 'a', encoding='utf-8') as f:
            f.write('except f head\n')
        with self.assertRaises(marked_accesses.ListError):
            marked_accesses.read_list(self.list)


class RepositoryList(unittest.TestCase):
    def test_the_repository_list_reads(self):
        top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        fields, marked, excepts = marked_accesses.read_list(
            os.path.join(top, 'config', 'marked-accesses'))
        self.assertIn('rings', fields)
        self.assertIn(('READ_ONCE', '0'), marked)
        self.assertTrue(excepts)


if __name__ == '__main__':
    unittest.main()

// SPDX-License-Identifier: GPL-2.0
/*
 * The pool benchmark of the tree this is built against (lib/test_objpool.c,
 * included below, not a copy) with its "objpool" implementation running on
 * upstream's objpool of Linux 6.12 instead of the tree's: the same pair
 * loop, owner tags and checks, on the other pool.  Kbuild extracts
 * upstream's include/linux/objpool.h and lib/objpool.c from Debian's
 * linux-source-6.12 at build time and renames their symbols to
 * upstream_objpool_*; nothing of upstream is in this repository.
 *
 * Load it with impls=1.  It prints its results as impl=objpool, like
 * test_objpool.ko; guest/bench relabels them impl=upstream.
 */
#include "upstream_objpool.h"

/*
 * The tree's <linux/objpool.h> is skipped (its include guard is taken) and
 * the names test_objpool.c uses are upstream's, whose API is the same.
 */
#define _LINUX_OBJPOOL_H
#define objpool_head		upstream_objpool_head
#define objpool_init		upstream_objpool_init
#define objpool_pop		upstream_objpool_pop
#define objpool_push		upstream_objpool_push
#define objpool_fini		upstream_objpool_fini
#define objpool_drop		upstream_objpool_drop
#define OBJPOOL_NR_OBJECT_MAX	UPSTREAM_OBJPOOL_NR_OBJECT_MAX

#include "test_objpool.c"

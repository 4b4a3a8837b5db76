// SPDX-License-Identifier: GPL-2.0
/*
 * The fix series' objpool KUnit case (lib/tests/objpool_kunit.c, on 6.12
 * lib/objpool_kunit.c; copied unchanged as objpool_unfixed_case.c,
 * guest/modules/Kbuild, so that it has the exposure of the "after" run)
 * on the pool of the unpatched base: objpool_unfixed.h is the base's objpool.h
 * (guest/modules/Kbuild), included before the case includes
 * <linux/objpool.h>, which its include guard then skips.  The case must
 * fail here (guest/suites/objpool-nmi-unfixed.sh).
 *
 * Also the source of each objpool_mut_NAME_kunit.ko (guest/modules/Kbuild):
 * the same case on a mutant of the fixed pool, whose header Kbuild names
 * in OBJPOOL_VARIANT_H; each must fail there too.
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/printk.h>

/* The base's WARN_ON_ONCE(tail - head > nr_objs), counted. */
static atomic_t objpool_unfixed_warnings = ATOMIC_INIT(0);
#define objpool_unfixed_warn(cond) ({					\
	bool __warn = (cond);						\
	if (unlikely(__warn))						\
		atomic_inc(&objpool_unfixed_warnings);			\
	__warn;								\
})

#ifdef OBJPOOL_VARIANT_H
#include OBJPOOL_VARIANT_H
#else
#include "objpool_unfixed.h"
#endif
#include "objpool_unfixed_case.c"

static void __exit objpool_unfixed_exit(void)
{
	pr_info(KBUILD_MODNAME ": the reservation loop's warning condition held %d times\n",
		atomic_read(&objpool_unfixed_warnings));
}
module_exit(objpool_unfixed_exit);

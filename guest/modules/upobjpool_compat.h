/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What upstream's lib/objpool.c (Linux 6.12) needs and 6.1 does not export
 * to modules, for the upobjpool_nmi positive control; Kbuild renames the
 * call.  The node and alignment hints do not matter to the control.
 */
#include <linux/vmalloc.h>

static inline void *upobjpool_vmalloc_node(unsigned long size,
					   unsigned long align, gfp_t gfp,
					   int node, const void *caller)
{
	return __vmalloc(size, gfp);
}

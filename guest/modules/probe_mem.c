// SPDX-License-Identifier: GPL-2.0
/*
 * probe_mem: register one fprobe on every function matching a filter, with
 * empty handlers and the default nr_maxactive, so that the memory of its
 * rethook pool can be measured from /proc/meminfo around insmod/rmmod.
 *
 * usage: insmod probe_mem.ko filter='p*'
 */
#include <linux/fprobe.h>
#include <linux/module.h>
#include <linux/rethook.h>
#include <linux/version.h>

/*
 * With this series' objpool (OBJPOOL_LAP_BIT is its own), the pool reports
 * its metadata; upstream's objpool (6.12's base) has no such count.
 */
#ifdef OBJPOOL_LAP_BIT
#define PROBE_MEM_OBJPOOL
#endif

static char filter[64] = "vfs_*";
module_param_string(filter, filter, sizeof(filter), 0444);
MODULE_PARM_DESC(filter, "glob of the functions to probe");

/* The handlers' signature of the bases the harness runs: 6.1 and 6.12. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
static int probe_mem_entry(struct fprobe *fp, unsigned long ip,
			   unsigned long ret_ip, struct pt_regs *regs, void *data)
{
	return 0;
}

static void probe_mem_exit(struct fprobe *fp, unsigned long ip,
			   unsigned long ret_ip, struct pt_regs *regs, void *data)
{
}
#else
static void probe_mem_entry(struct fprobe *fp, unsigned long ip,
			    struct pt_regs *regs, void *data)
{
}

#define probe_mem_exit probe_mem_entry
#endif

static struct fprobe probe = {
	.entry_handler = probe_mem_entry,
	.exit_handler = probe_mem_exit,
};

static int __init probe_mem_init(void)
{
	int ret = register_fprobe(&probe, filter, NULL);

	if (ret)
		pr_err("probe_mem: register_fprobe(%s) failed: %d\n", filter, ret);
	else
		pr_info("probe_mem: fprobe on %s registered\n", filter);
#ifdef PROBE_MEM_OBJPOOL
	if (!ret)
		pr_info("probe_mem: pool nr_objs=%d obj_size=%d meta_bytes=%zu\n",
			probe.rethook->pool.nr_objs, probe.rethook->pool.obj_size,
			probe.rethook->pool.meta_bytes);
#endif
	return ret;
}

static void __exit probe_mem_cleanup(void)
{
	unregister_fprobe(&probe);
}

module_init(probe_mem_init);
module_exit(probe_mem_cleanup);
MODULE_DESCRIPTION("fprobe pool memory probe for the objpool benchmarks");
MODULE_LICENSE("GPL");

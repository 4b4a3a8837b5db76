// SPDX-License-Identifier: GPL-2.0
/*
 * Positive control of the objpool KUnit suite's NMI case: the same stress
 * (lib/objpool_nmi_stress.h of the tree this is built against, not a copy)
 * run on upstream's objpool of Linux 6.12.  Kbuild extracts upstream's
 * include/linux/objpool.h and lib/objpool.c from Debian's linux-source-6.12
 * at build time and renames their symbols to upobjpool_*; nothing of
 * upstream is in this repository.
 *
 * Upstream's push reserves a ring position, writes the entry, then
 * publishes a per-ring counter; an NMI that pushes and pops between the
 * reservation and the publication exposes an entry not yet written and then
 * sees the counter moved backwards.  The stress must catch that: a double
 * hand-out, a foreign pointer, a lost object, or a livelock (the stress's
 * STALL line, an RCU stall or a hard lockup report).
 *
 * Loading runs the stress once and prints one "upobjpool_nmi: RESULT" line,
 * then stays loaded until rmmod (a failed load would make busybox's insmod
 * retry with init_module() and run it twice).  With three or more online
 * CPUs the first one is kept free of workers, so that the loading thread
 * can report a livelock of the others.
 */
#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/sched.h>
#include "upobjpool.h"

#define ONS_HEAD		struct upobjpool_head
#define ONS_INIT		upobjpool_init
#define ONS_POP			upobjpool_pop
#define ONS_PUSH		upobjpool_push
#define ONS_FINI		upobjpool_fini
#include "objpool_nmi_stress.h"

static unsigned int min_landings = 32;
module_param(min_landings, uint, 0444);
MODULE_PARM_DESC(min_landings, "NMIs to land inside pop and inside push on each CPU (32)");

static unsigned int objs_per_cpu = 2;
module_param(objs_per_cpu, uint, 0444);
MODULE_PARM_DESC(objs_per_cpu, "objects per worker CPU (2)");

#ifdef ONS_SUPPORTED
static int __init upobjpool_nmi_init(void)
{
	struct ons_run *run;
	unsigned long in_pop = 0, in_push = 0, nmis = 0;
	int cpu, spare = -1, ret;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	cpus_read_lock();
	cpumask_copy(&run->cpus, cpu_online_mask);
	if (cpumask_weight(&run->cpus) >= 3) {
		spare = cpumask_first(&run->cpus);
		cpumask_clear_cpu(spare, &run->cpus);
		set_cpus_allowed_ptr(current, cpumask_of(spare));
	}
	if (cpumask_weight(&run->cpus) < 2) {
		cpus_read_unlock();
		pr_info("upobjpool_nmi: RESULT skipped: needs two online CPUs\n");
		kfree(run);
		return 0;
	}
	run->nr_objs = objs_per_cpu * cpumask_weight(&run->cpus);
	run->min_landings = min_landings;
	run->max_nmis = 512 * (unsigned long)min_landings;
	pr_info("upobjpool_nmi: upstream objpool, %d objects, workers on CPUs %*pbl, loader on CPU %d\n",
		run->nr_objs, cpumask_pr_args(&run->cpus), spare);
	ret = ons_run(run);
	cpus_read_unlock();
	if (ret) {
		pr_info("upobjpool_nmi: RESULT skipped: cannot run the stress: %d\n",
			ret);
		kfree(run);
		return 0;
	}

	for_each_cpu(cpu, &run->cpus) {
		struct ons_cpu *c = per_cpu_ptr(&ons_cpus, cpu);

		pr_info("upobjpool_nmi: CPU %d: %lu loops, %lu NMIs handled, %lu inside a pop, %lu inside a push\n",
			cpu, c->loops, c->nmis, c->in_pop, c->in_push);
		nmis += c->nmis;
		in_pop += c->in_pop;
		in_push += c->in_push;
	}
	if (atomic_read(&run->errors) || run->dups ||
	    run->drained != run->nr_objs)
		pr_info("upobjpool_nmi: RESULT pool failed: %s (object %u, owner %d, tag %d); final drain %d of %d objects, %d duplicates; %lu NMIs, %lu inside a pop, %lu inside a push\n",
			ons_why(run), run->bad_index, run->bad_owner,
			run->bad_tag, run->drained, run->nr_objs, run->dups,
			nmis, in_pop, in_push);
	else
		pr_info("upobjpool_nmi: RESULT pool passed: %lu NMIs, %lu inside a pop, %lu inside a push, every object back once\n",
			nmis, in_pop, in_push);
	kfree(run);
	return 0;
}
#else
static int __init upobjpool_nmi_init(void)
{
	pr_info("upobjpool_nmi: RESULT skipped: NMI IPIs are x86 only (with ACPI)\n");
	return 0;
}
#endif

static void __exit upobjpool_nmi_exit(void)
{
}

module_init(upobjpool_nmi_init);
module_exit(upobjpool_nmi_exit);
MODULE_DESCRIPTION("NMI stress on upstream's objpool (positive control)");
MODULE_LICENSE("GPL");

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel API that 7.2's include/linux/objpool.h and lib/objpool.c
 * use, in userspace: one thread is one CPU (op_cpu), interrupts do not
 * exist (a push runs to its end, or is preempted and resumed: no push
 * nests in another), and the ordering primitives are the compiler's
 * atomics with the LKMM's meaning on this host.  Harness code of the
 * pop-order gate (scripts/gates/pop-order.sh), never part of a series.
 */
#ifndef POP_ORDER_SHIM_H
#define POP_ORDER_SHIM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
typedef unsigned int gfp_t;
typedef struct { int refs; } refcount_t;

#define GFP_KERNEL		1u
#define GFP_ATOMIC		2u
#define __GFP_ZERO		4u
#define __packed		__attribute__((__packed__))
#undef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define EXPORT_SYMBOL_GPL(s)
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((typeof(x))(a) - 1))
#define struct_size(p, member, n) \
	(sizeof(*(p)) + (size_t)(n) * sizeof((p)->member[0]))

#define barrier()		__asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define try_cmpxchg_acquire(p, oldp, new)				\
	__atomic_compare_exchange_n((p), (oldp), (new), false,		\
				    __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)
#define try_cmpxchg_release(p, oldp, new)				\
	__atomic_compare_exchange_n((p), (oldp), (new), false,		\
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED)

/* The reservation loop's warning: counted, not printed. */
extern int op_warnings;
#define WARN_ON_ONCE(c)	({ bool __w = (c); if (__w) __atomic_add_fetch(&op_warnings, 1, __ATOMIC_RELAXED); __w; })

/* No interrupts in userspace. */
#define raw_local_irq_save(f)		((f) = 0)
#define raw_local_irq_restore(f)	((void)(f))

/* The CPUs: op_nr_cpus threads, each one CPU for the pool. */
extern int op_nr_cpus;
extern __thread int op_cpu;
#define nr_cpu_ids		op_nr_cpus
#define num_possible_cpus()	op_nr_cpus
#define cpu_possible(c)		((c) < op_nr_cpus)
#define cpu_to_node(c)		0
#define raw_smp_processor_id()	op_cpu
/* 6.12's pop walks the CPUs with cpumask_next_wrap() */
#define cpu_possible_mask	NULL
static inline int cpumask_next_wrap(int n, const void *mask, int start,
				    bool wrap)
{
	return (n + 1) % op_nr_cpus;
}
#define for_each_possible_cpu_wrap(cpu, start)				\
	for (int __n = 0; __n < op_nr_cpus &&				\
	     ((cpu) = ((start) + __n) % op_nr_cpus, 1); __n++)

static inline void *kzalloc(size_t size, gfp_t gfp) { return calloc(1, size); }
static inline void *kmalloc_node(size_t size, gfp_t gfp, int node) { return malloc(size); }
static inline void *__vmalloc_node(size_t size, size_t align, gfp_t gfp,
				   int node, const void *caller) { return malloc(size); }
static inline void kfree(const void *p) { free((void *)p); }
static inline void kvfree(const void *p) { free((void *)p); }

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	unsigned long r = 1;

	while (r < n)
		r <<= 1;
	return r;
}

static inline void refcount_set(refcount_t *r, int n)
{
	__atomic_store_n(&r->refs, n, __ATOMIC_RELAXED);
}
static inline bool refcount_sub_and_test(int n, refcount_t *r)
{
	return __atomic_sub_fetch(&r->refs, n, __ATOMIC_ACQ_REL) == 0;
}
static inline bool refcount_dec_and_test(refcount_t *r)
{
	return refcount_sub_and_test(1, r);
}

/*
 * Between the two loads of a pop (scripts/pop-order/variant.py puts it
 * there): a few hundred cycles, so that a push on another CPU lands
 * between them often enough to count in seconds.  The same in every
 * variant.
 */
static inline void op_window(void)
{
	for (int i = 0; i < 64; i++)
		__asm__ __volatile__("" ::: "memory");
}

/*
 * variant.py's weak kind. A relaxed load of last lets the pop's entry
 * load go first, as a weakly ordered CPU may: the entry at the pop's
 * @head is read, then the window, then last, and the pop's entry load of
 * that position gets the value read early. An acquire load of last keeps
 * the entry load after it. Per thread: one pop at a time.
 */
extern __thread bool op_early;
extern __thread uint32_t op_early_pos;
extern __thread void *op_early_obj;
#define op_last_relaxed(slot, head) ({					\
	op_early_obj = READ_ONCE((slot)->entries[(head) & (slot)->mask]); \
	op_early_pos = (head);						\
	op_early = true;						\
	op_window();							\
	READ_ONCE((slot)->last);					\
})
#define op_last_acquire(slot) ({					\
	uint32_t __last = smp_load_acquire(&(slot)->last);		\
									\
	op_early = false;						\
	op_window();							\
	__last;								\
})
#define op_entry(slot, head) ({						\
	void *__obj = op_early && op_early_pos == (head) ? op_early_obj : \
		      READ_ONCE((slot)->entries[(head) & (slot)->mask]);	\
									\
	op_early = false;						\
	__obj;								\
})

#endif

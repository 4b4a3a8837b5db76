// SPDX-License-Identifier: GPL-2.0
/*
 * Pops and pushes on a kernel objpool from threads, each thread one CPU
 * of the pool, and counts what a pop that reads an entry before the
 * `last` that covers it does: objects handed out twice, objects lost.
 * Harness code of scripts/gates/pop-order.sh, built against one variant
 * of the base's or the series' include/linux/objpool.h (pop-order.py).
 *
 * usage: stress CPUS SECONDS
 * Prints one line: "pops N doubles N foreign N lost N dups N warnings N".
 */
#include <linux/objpool.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int op_warnings;
int op_nr_cpus;
__thread int op_cpu;
__thread bool op_early;
__thread uint32_t op_early_pos;
__thread void *op_early_obj;

struct op_obj {
	unsigned int	index;
	int		owner;		/* 0: in the pool */
};

static struct objpool_head pool;
static struct op_obj **objs;
static int nr_objs, nr_init;
static int stop;
static unsigned long doubles, foreign, changed, pops;

static int objinit(void *ptr, void *context)
{
	struct op_obj *obj = ptr;

	obj->index = nr_init;
	objs[nr_init++] = obj;
	return 0;
}

/* The object a pop returned, claimed for @tag; NULL if it is taken. */
static struct op_obj *claim(void *ptr, int tag)
{
	struct op_obj *obj = ptr;
	int zero = 0;

	if (!obj)
		return NULL;
	if (obj->index >= (unsigned int)nr_objs || objs[obj->index] != obj) {
		__atomic_add_fetch(&foreign, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	if (!__atomic_compare_exchange_n(&obj->owner, &zero, tag, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		/* its holder pushes it back; this one must not */
		__atomic_add_fetch(&doubles, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	return obj;
}

static void *worker(void *arg)
{
	int tag = (int)(long)arg + 1;
	struct op_obj *held[3];
	unsigned long i, n_pops = 0;

	op_cpu = tag - 1;
	for (i = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED); i++) {
		int k, n = 0;

		for (k = 0; k < 1 + (int)(i % 3); k++) {
			held[n] = claim(objpool_pop(&pool), tag);
			n_pops++;
			if (held[n])
				n++;
		}
		while (n--) {
			int t = tag;

			if (!__atomic_compare_exchange_n(&held[n]->owner, &t, 0,
							 false, __ATOMIC_ACQ_REL,
							 __ATOMIC_ACQUIRE)) {
				__atomic_add_fetch(&changed, 1, __ATOMIC_RELAXED);
				continue;
			}
			objpool_push(held[n], &pool);
		}
	}
	__atomic_add_fetch(&pops, n_pops, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t threads[64];
	unsigned char *seen;
	struct op_obj *obj;
	int cpus, seconds, i, unique = 0, dups = 0;

	if (argc != 3 || (cpus = atoi(argv[1])) < 2 || cpus > 64 ||
	    (seconds = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: %s CPUS(2-64) SECONDS\n", argv[0]);
		return 2;
	}
	op_nr_cpus = cpus;
	/* one object per CPU: slots run empty, pops take from other CPUs */
	nr_objs = cpus;
	objs = calloc(nr_objs, sizeof(*objs));
	seen = calloc(nr_objs, 1);
	if (!objs || !seen ||
	    objpool_init(&pool, nr_objs, sizeof(struct op_obj), GFP_KERNEL,
			 NULL, objinit, NULL)) {
		fprintf(stderr, "objpool_init failed\n");
		return 2;
	}
	for (i = 0; i < cpus; i++)
		pthread_create(&threads[i], NULL, worker, (void *)(long)i);
	sleep(seconds);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < cpus; i++)
		pthread_join(threads[i], NULL);

	/* every object once: what a stale entry skipped is lost */
	op_cpu = 0;
	while ((obj = objpool_pop(&pool))) {
		if (obj->index >= (unsigned int)nr_objs || objs[obj->index] != obj)
			foreign++;
		else if (seen[obj->index]++)
			dups++;
		else
			unique++;
	}
	printf("pops %lu doubles %lu foreign %lu lost %d dups %d changed %lu warnings %d\n",
	       pops, doubles, foreign, nr_objs - unique, dups, changed,
	       op_warnings);
	return 0;
}

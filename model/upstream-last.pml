/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Positive control for tools/testing/objpool/model/objpool-ring.pml:
 * a Promela model of upstream objpool's publication (Linux 6.7+), under
 * the same NMI-like nesting, where spin must find the bugs. Written from
 * the description in the project's background notes ("Publication"),
 * not from upstream's code, and kept out of the series.
 *
 * Each CPU owns a ring of C = 2 slots holding object indexes, with
 * free-running @head, @tail and @last. A push (to its own CPU's ring
 * only) reads @tail, reserves position t by cmpxchg on @tail (retrying
 * with the value the failed cmpxchg returned), writes the slot, then
 * publishes by storing t + 1 into @last. A pop reads @head and @last:
 * equal means empty (it tries the other CPU's ring, then returns NULL);
 * @last behind @head, or more than NOBJ ahead, means they disagree and
 * it reads @head again and retries; otherwise it reads the slot and
 * claims it by cmpxchg on @head, and on failure retries with the
 * returned @head. Every ring holds every object (capacity = NOBJ = 2).
 *
 * Nesting and the bound are those of objpool-ring.pml: a CPU is one
 * process with a stack of DEPTH contexts, only the top one runs, and a
 * new pop or push may start on top between any two steps; each CPU
 * starts at most OPS operations.
 *
 * Properties, as in objpool-ring.pml: a claim must return a published
 * object (status IN, set when its push writes the slot), and with LIVE
 * the LTL property "done" (both CPUs finish) is checked with pan -a -f
 * (weak fairness, so that a cycle is only reported when every CPU that
 * can run does run). With LIVE the claim's assertion is left out, so
 * that the search reports the spin rather than the stale entry that
 * precedes it.
 *
 * What spin finds (scripts/gates/model.sh runs both searches):
 *  - stale entry: a push on CPU 0 reserves position t; an NMI push
 *    reserves t + 1, writes it and stores @last = t + 2; a pop (here
 *    another NMI on CPU 0) sees @last ahead of @head = t, reads slot t,
 *    which the interrupted push has not written, and claims it.
 *  - endless spin: after that, another pop takes t + 1, the interrupted
 *    push writes t and stores @last = t + 1, behind @head = t + 2: every
 *    later pop of ring 0 retries forever unless a push to ring 0 comes,
 *    and none does when the spinning pop is CPU 0's own.
 *
 * FIXED: the push of the 7.2 series' fix instead (series-7.2, patch 1),
 * where spin must find neither: after writing its slot a push reads
 * @last and, only when it equals its own position t, stores t + 1 in a
 * step of its own (no atomic check-and-store: another context may run
 * between the two); it then reads @tail and, while @tail differs from
 * the @last it stored, reads @last again and, if unchanged, stores the
 * @tail it read.  A push that finds @last below t stores nothing.
 */

#ifndef NOBJ
#define NOBJ	2
#endif
#ifndef DEPTH
#define DEPTH	2
#endif
#ifndef OPS
#define OPS	4
#endif

#define NCPU	2
#define C	2
#define MASK	1
#define NONE	NOBJ

#define OUT	0
#define PUSHING	1
#define IN	2
#define NOTOBJ	3

byte head[NCPU];
byte tail[NCPU];
byte last[NCPU];
byte entries[NCPU * C];

byte status[NOBJ + 1];
byte ndone;

typedef ctx {
	byte pc;
	byte r;
	byte h;
	byte l;
	byte t;
	byte e;
	byte idx;
	byte n;
};

#define POP_HEAD	1
#define POP_LAST	2
#define POP_ENTRY	3
#define POP_CLAIM	4
#define PUSH_TAIL	5
#define PUSH_CAS	6
#define PUSH_STORE	7
#define PUSH_LAST	8
#define PUSH_PUB	9
#define PUSH_RETAIL	10
#define PUSH_RELAST	11
#define PUSH_WALK	12

#define K	k[d - 1]
#define STEP(X)	:: d_step { d > 0 && K.pc == X ->
#define END_STEP	}

#define DONE	\
	K.pc = 0; K.r = 0; K.h = 0; K.l = 0; K.t = 0; K.e = 0; K.idx = 0; \
	K.n = 0; \
	d--

#define START_PUSH(o)	\
	:: d_step { d < DEPTH && ops > 0 && status[o] == OUT -> \
		status[o] = PUSHING; \
		d++; ops--; \
		K.pc = PUSH_TAIL; K.r = c; K.idx = o \
	}

proctype cpu(byte c)
{
	ctx k[DEPTH];
	byte d;
	byte ops = OPS;

	do
	:: d_step { d < DEPTH && ops > 0 ->
		d++; ops--;
		K.pc = POP_HEAD; K.r = c
	}
	START_PUSH(0)
#if NOBJ > 1
	START_PUSH(1)
#endif
#if NOBJ > 2
	START_PUSH(2)
#endif

	STEP(POP_HEAD)
		K.h = head[K.r];
		K.pc = POP_LAST
	END_STEP
	STEP(POP_LAST)
		K.l = last[K.r];
		if
		:: K.l == K.h ->
			if
			:: K.n == 0 -> K.n = 1; K.r = 1 - c; K.pc = POP_HEAD
			:: else -> DONE
			fi
		:: K.l != K.h && (K.l < K.h || K.l - K.h > NOBJ) ->
			K.pc = POP_HEAD
		:: else -> K.pc = POP_ENTRY
		fi
	END_STEP
	STEP(POP_ENTRY)
		K.e = entries[K.r * C + (K.h & MASK)];
		K.pc = POP_CLAIM
	END_STEP
	STEP(POP_CLAIM)
		if
		:: head[K.r] == K.h ->
			head[K.r]++;
#ifndef LIVE
			assert(status[K.e] == IN);
#endif
			status[K.e] = OUT;
			DONE
		:: else -> K.h = head[K.r]; K.pc = POP_LAST
		fi
	END_STEP

	STEP(PUSH_TAIL)
		K.t = tail[K.r];
		K.pc = PUSH_CAS
	END_STEP
	STEP(PUSH_CAS)
		if
		:: tail[K.r] == K.t -> tail[K.r]++; K.pc = PUSH_STORE
		:: else -> K.t = tail[K.r]
		fi
	END_STEP
	STEP(PUSH_STORE)
		entries[K.r * C + (K.t & MASK)] = K.idx;
		status[K.idx] = IN;
		K.pc = PUSH_LAST
	END_STEP
#ifndef FIXED
	STEP(PUSH_LAST)
		last[K.r] = K.t + 1;
		DONE
	END_STEP
#else
	STEP(PUSH_LAST)
		if
		:: last[K.r] == K.t -> K.pc = PUSH_PUB
		:: else -> DONE
		fi
	END_STEP
	STEP(PUSH_PUB)
		last[K.r] = K.t + 1;
		K.l = K.t + 1;
		K.pc = PUSH_RETAIL
	END_STEP
	STEP(PUSH_RETAIL)
		K.t = tail[K.r];
		if
		:: K.t == K.l -> DONE
		:: else -> K.pc = PUSH_RELAST
		fi
	END_STEP
	STEP(PUSH_RELAST)
		if
		:: last[K.r] == K.l -> K.pc = PUSH_WALK
		:: else -> DONE
		fi
	END_STEP
	STEP(PUSH_WALK)
		last[K.r] = K.t;
		K.l = K.t;
		K.pc = PUSH_RETAIL
	END_STEP
#endif

	:: d == 0 -> break
	od;
	ndone++
}

init {
	byte r, e, o;

	d_step {
		r = 0;
		do
		:: r == NOBJ + 1 -> break
		:: else -> status[r] = NOTOBJ; r++
		od;
		o = 0;
		r = 0;
		do
		:: r == NCPU -> break
		:: else ->
			e = 0;
			do
			:: e == C -> break
			:: else ->
				if
				:: o < NOBJ && e < NOBJ / NCPU + (r < NOBJ % NCPU -> 1 : 0) ->
					entries[r * C + e] = o;
					status[o] = IN;
					o++;
					tail[r]++
				:: else -> entries[r * C + e] = NONE
				fi;
				e++
			od;
			last[r] = tail[r];
			r++
		od;
		r = 0; e = 0; o = 0
	}
	atomic {
		run cpu(0);
		run cpu(1)
	}
	ndone == NCPU
}

#ifdef LIVE
ltl done { <> (ndone == NCPU) }
#endif

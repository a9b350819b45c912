// The chains every stage of the latency lesson follows, in one place so that the stages agree.
//
// next[] holds next[i] = i (the lesson fills it with iota). A step loads next[i] and turns the value
// into the next index with a linear congruential step, (v * A + C) mod W, W = mask + 1 a power of
// two. With A % 4 == 1 and C odd the step visits all W indices before it repeats (a full period),
// in an order no cache line or prefetcher can guess, and the address of each load is known only
// once the previous load has returned: the loads form a dependent chain.
//
// Chain c starts at index (c * 2654435761) mod W (an odd multiplier: distinct chains start at
// distinct places while c < W). A chase of `steps` steps adds up every index it visits; each stage
// writes the total over all its chains, so a skipped or repeated step changes the answer.
#pragma once

#define CHAIN_A 1664525u
#define CHAIN_C 1013904223u

__device__ __forceinline__ unsigned chain_start(unsigned c, unsigned mask)
{
	return (c * 2654435761u) & mask;
}

__device__ __forceinline__ unsigned chain_step(unsigned v, unsigned mask)
{
	return (v * CHAIN_A + CHAIN_C) & mask;
}

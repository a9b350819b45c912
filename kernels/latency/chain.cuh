// The chains every stage of the latency lesson follows, in one place so that the stages agree.
//
// next[] is one random cycle through its W = 2^log2_elems indices (the lesson fills it with
// init: cycle, drawn afresh from each run's seed): next[i] is the index that follows i, so a step loads
// next[i] and goes there. From any start a chain visits every index once before it repeats, each step
// to an index far from the last (no cache line or prefetcher can guess it, and no formula gives it
// without the seed), and the address of each load is known only once the previous load has returned:
// the loads form a dependent chain. A stage whose working set W = mask + 1 is smaller than the buffer
// (LOG2_WS) masks the value: the first W elements of next[], each masked with W - 1, are one cycle
// through [0, W) too (lessons/README.md, "A random cycle: init: cycle").
//
// Chain c starts at index (c * 2654435761) mod W (an odd multiplier: distinct chains start at
// distinct places while c < W). A chase of `steps` steps adds up every index it visits; each stage
// writes the total over all its chains, so a skipped or repeated step changes the answer.
#pragma once

__device__ __forceinline__ unsigned chain_start(unsigned c, unsigned mask)
{
	return (c * 2654435761u) & mask;
}

// The index after the one whose element held v: v itself, kept inside the working set.
__device__ __forceinline__ unsigned chain_step(unsigned v, unsigned mask)
{
	return v & mask;
}

// seg_walk: the order in which the clusters of a persistent Hopper GEMM take their work, shared by the
// tensorcore lesson's wgmma_cluster.cu and precision_gemm's tc.cuh. The includer defines GROUP_M,
// ORDER (0 grouped, 1 Hilbert) and STREAMK (0 or 1) first.
#ifndef CC_SEG_WALK_CUH
#define CC_SEG_WALK_CUH

// The work of one cluster, in order: segments (a super-tile of CM*BM x BN and a range of its k-steps);
// producer and consumers walk the same list. Position p of the order is a super-tile (pos_to_tile).
// Without STREAMK every segment is a whole super-tile: cluster c takes positions c, c + G, ... With
// STREAMK (and a linear order: grouped, or a Hilbert square with no cell outside), the positions that
// fill whole rounds go the same way, and the rest (fewer than G super-tiles) are cut into k-steps,
// U = rest * ksteps "units", cluster c taking units [U c / G, U (c+1) / G): a super-tile of the rest is
// then shared by 2 or more clusters, each computing part of its k-sum. A run that reaches into a
// second super-tile takes that one's part (from k = 0) first and the end of the earlier one after:
// every cluster then starts at k = 0 or a few k-steps past it, and all of them walk k about together,
// so the slices of A and B loaded at one time overlap in L2 as in the full rounds. (Taken in the run's
// own order, the parts started at every k, the loads no longer overlapped, and at 4096 x 4096 x 8192
// BF16 on an H100 the split round took twice as long: 0.82x cuBLAS, against 0.99x in this order.)
// The part that reaches the super-tile's last k-step adds the others. Stream-K needs U >= G (no
// cluster without work) and waits across clusters, so every cluster of the grid must be resident at
// once: the grid is capped at what fits (CLUSTERS, sm_count / CM).
struct seg_walk {
	int tiles_m2, tiles_n, dim, G, ksteps, full, next;
	int u, u_end, U;   // units of the split rest (32-bit: registers are what the consumers lack)
	bool linear;
	__device__ seg_walk(int cluster, int clusters, int tm2, int tn, int kt) : tiles_m2(tm2), tiles_n(tn), G(clusters), ksteps(kt), next(cluster)
	{
		dim = 1;
		while (dim < tm2 || dim < tn) dim *= 2;
		const int P = tm2 * tn;
		linear = ORDER == 0 || (dim == tm2 && dim == tn);
		full = P;
#if STREAMK
		// Only when every cluster gets at least one k-step of the rest (a range never empty), and the
		// units, with a tile's worth to spare, count in 32 bits.
		if (linear && P > G && P % G && (long long)(P % G) * ksteps >= G && (long long)(P % G) * ksteps < (1ll << 30))
			full = P / G * G;
#endif
		U = (P - full) * ksteps;
		u = (int)((long long)U * cluster / G);
		u_end = (int)((long long)U * (cluster + 1) / G);
	}
	__device__ __forceinline__ void pos_to_tile(int p, int &tm2, int &tn) const
	{
#if ORDER == 1
		// Hilbert curve: cell p of a dim x dim square to (x, y), two bits of p per level.
		int x = 0, y = 0, t = p;
		for (int s = 1; s < dim; s *= 2) {
			int rx = 1 & (t / 2), ry = 1 & (t ^ rx);
			if (ry == 0) {
				if (rx == 1) { x = s - 1 - x; y = s - 1 - y; }
				int tmp = x; x = y; y = tmp;
			}
			x += s * rx; y += s * ry;
			t /= 4;
		}
		tm2 = x; tn = y;
#else
		// Grouped: down GROUP_M super-rows, then right.
		int per_group = GROUP_M * tiles_n, first = (p / per_group) * GROUP_M;
		int rows = min(tiles_m2 - first, GROUP_M), r = p % per_group;
		tm2 = first + r % rows;
		tn = r / rows;
#endif
	}
	// The cluster whose run holds unit v of the split part: the last c with U c / G <= v.
	__device__ __forceinline__ int owner(int v) const { return (int)min((long long)G - 1, ((long long)(v + 1) * G - 1) / U); }
	// The next segment: super-tile (tm2, tn), k-steps [kt0, kt1), q = its index among the split
	// super-tiles (-1 for a whole one); false when there is none. A run's parts come last super-tile
	// first: kt0 = 0 for all but a run's last part.
	__device__ __forceinline__ bool get(int &tm2, int &tn, int &kt0, int &kt1, int &q)
	{
		kt0 = 0; kt1 = ksteps; q = -1;
		if (!linear) {
			// A Hilbert curve over a square with cells outside the grid: walk the cells, skip those.
			for (; next < dim * dim; next += G) {
				pos_to_tile(next, tm2, tn);
				if (tm2 < tiles_m2 && tn < tiles_n) { next += G; return true; }
			}
			return false;
		}
		if (next < full) { pos_to_tile(next, tm2, tn); next += G; return true; }
		if (u >= u_end) return false;
		int s0 = u, s1 = min(u_end, (u / ksteps + 1) * ksteps);
		if (s1 < u_end) { s0 = (u_end - 1) / ksteps * ksteps; s1 = u_end; u_end = s0; }   // the later part first
		else u = s1;
		q = s0 / ksteps;
		kt0 = s0 % ksteps;
		kt1 = kt0 + (s1 - s0);
		pos_to_tile(full + q, tm2, tn);
		return true;
	}
};

#endif

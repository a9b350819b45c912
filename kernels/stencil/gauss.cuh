// Shared by the stencil stages: a 2D Gaussian blur of a single-channel FP32 image, width x height,
// rows packed one after another (pixel (x, y) at y * width + x), borders clamped to the edge (a tap
// that falls outside the image reads the nearest edge pixel, as NPP_BORDER_REPLICATE does).
//
// The radius r (taps 2r + 1 in each direction) is a kernel argument. Each kernel switches on it once,
// to a copy of its body compiled for that radius (a template over R), so the tap loops have a length
// the compiler knows and unrolls: the switch is the same for every thread, so it costs one branch.
#pragma once
#define RMAX 8   // the largest radius the lesson allows (its parameter R's max)

// A kernel gets the registers that its hungriest radius needs. Unrolled in both directions, the 2D
// sums at r = 8 would need 80 to 150 registers and cut the occupancy of every radius, so the 2D
// stages unroll only the taps of one row and leave the loop over rows rolled; launch bounds asking for
// 1024 resident threads per SM cap every kernel at 64 registers (none spills).
#define GAUSS_MIN_BLOCKS(threads) ((threads) >= 1024 ? 1 : 1024 / (threads))

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

// Calls F<r>(args...) for r in 1..RMAX; another r does nothing (the lesson's range forbids it).
#define GAUSS_DISPATCH(r, F, ...)                          \
	switch (r) {                                           \
	case 1: F<1>(__VA_ARGS__); break;                      \
	case 2: F<2>(__VA_ARGS__); break;                      \
	case 3: F<3>(__VA_ARGS__); break;                      \
	case 4: F<4>(__VA_ARGS__); break;                      \
	case 5: F<5>(__VA_ARGS__); break;                      \
	case 6: F<6>(__VA_ARGS__); break;                      \
	case 7: F<7>(__VA_ARGS__); break;                      \
	case 8: F<8>(__VA_ARGS__); break;                      \
	default: break;                                        \
	}

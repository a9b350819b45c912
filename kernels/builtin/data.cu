// Built-in kernels the worker uses on every lesson's buffers: seeded random fill, iota, constant, a
// seeded random cycle, and an element-wise comparison with a reference. Compiled by NVRTC like the
// lesson kernels.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "cycle.h"

typedef unsigned long long u64;

// splitmix64: a fast, well-mixed hash of (seed, index); the same inputs give the same data.
__device__ __forceinline__ u64 mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

// Uniform in [0, 1) with 53 random bits.
__device__ __forceinline__ double unit(u64 seed, u64 i) { return (mix(seed ^ mix(i)) >> 11) * (1.0 / 9007199254740992.0); }

template <typename T> __device__ __forceinline__ T from_double(double v) { return (T)v; }
template <> __device__ __forceinline__ __half from_double<__half>(double v) { return __double2half(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_double<__nv_bfloat16>(double v) { return __double2bfloat16(v); }
template <typename T> __device__ __forceinline__ double to_double(T v) { return (double)v; }
template <> __device__ __forceinline__ double to_double<__half>(__half v) { return (double)__half2float(v); }
template <> __device__ __forceinline__ double to_double<__nv_bfloat16>(__nv_bfloat16 v) { return (double)__bfloat162float(v); }

// mode 0: random in [a, b] (integers: every whole number in [a, b] equally likely), except that a
// share hot of the elements (drawn from a second stream of the same seed) are a; 1: iota; 2: constant a;
// 3: the index after i on a cycle through all n indices keyed by seed (cycle.h; n a power of two, at
// most 2^32, which the plan checks).
template <typename T, bool INTEGER>
__device__ void fill(T *p, long long n, u64 seed, double a, double b, int mode, double hot)
{
	const cycle_key key = cycle_key_of(seed);
	const int L = n > 1 ? 63 - __clzll(n) : 0;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
		double v;
		if (mode == 1) v = (double)i;
		else if (mode == 2) v = a;
		else if (mode == 3) v = (double)cycle_next((unsigned)i, L, &key);
		else if (hot > 0 && unit(seed ^ 0x5851f42d4c957f2dULL, (u64)i) < hot) v = a;
		else if (INTEGER) v = a + floor(unit(seed, (u64)i) * (b - a + 1.0));
		else v = a + unit(seed, (u64)i) * (b - a);
		p[i] = from_double<T>(v);
	}
}

// The column indices of a CSR matrix, drawn as csrgen_cols (src/core/csrgen.c) draws them: nonzero k of
// row r (of len) is one draw of splitmix64 in the slice [k cols / len, (k + 1) cols / len), the stream
// of row r starting at seed ^ r * 0xd1342543de82ef95: the same numbers for the same seed. Each element
// finds its row by a binary search of row_ptr; whatever row_ptr holds, only col[0..n) is written.
extern "C" __global__ void csr_cols_fill(int *col, long long n, const int *row_ptr, long long rows, long long cols, u64 seed)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
		long long lo = 0, hi = rows;   // the last row r with row_ptr[r] <= i
		while (hi - lo > 1) {
			const long long mid = lo + (hi - lo) / 2;
			if (row_ptr[mid] <= i) lo = mid;
			else hi = mid;
		}
		const long long len = (long long)row_ptr[lo + 1] - row_ptr[lo], k = i - row_ptr[lo];
		const long long a = len > 0 ? k * cols / len : 0, b = len > 0 ? (k + 1) * cols / len : 0;
		if (k < 0 || k >= len || b <= a) { col[i] = 0; continue; }   // not a valid row pointer
		const u64 s = seed ^ ((u64)lo * 0xd1342543de82ef95ULL);
		col[i] = (int)(a + (long long)(mix(s + (u64)k * 0x9e3779b97f4a7c15ULL) % (u64)(b - a)));
	}
}

struct cmp_result {
	u64 bad, nans, first_bad, max_abs_bits, max_rel_bits, unwritten;
	double sq_err, sq_ref;   // sums of (out - ref)^2 and ref^2 over the elements that are not NaN
};

// Whether every byte of v is the poison byte the worker writes before a run (never written since).
template <typename T> __device__ __forceinline__ bool is_poison(const T &v, unsigned char poison)
{
	const unsigned char *b = (const unsigned char *)&v;
	for (int i = 0; i < (int)sizeof(T); i++)
		if (b[i] != poison) return false;
	return true;
}

// Non-negative doubles order like their bit patterns, so atomicMax on the bits is a max on the values.
__device__ __forceinline__ void max_bits(u64 *dst, double v) { atomicMax(dst, (u64)__double_as_longlong(v)); }

// A reference hidden from a learner's kernel is kept XORed with a keyed stream of the index; the key
// (fresh for every hiding) lives on the host and reaches the device only as the compare kernel's
// argument. XOR twice restores: the same function scrambles and unscrambles. Key 0: plain.
// The key goes in at three rounds of the mixer, each with the key turned another way: with one round
// (mix(key ^ mix(i))) undoing mix gave the key from a single element a kernel knew and could read
// hidden, and with it the whole reference; now nothing short of trying keys is known to undo it.
__device__ __forceinline__ u64 rotl(u64 x, int r) { return (x << r) | (x >> (64 - r)); }
template <typename T> __device__ __forceinline__ T keyed(T v, u64 key, u64 i)
{
	if (!key) return v;
	u64 m = mix(mix(mix(i ^ key) + rotl(key, 21)) ^ rotl(key, 42));
	unsigned char *b = (unsigned char *)&v;
	for (int k = 0; k < (int)sizeof(T); k++) b[k] ^= (unsigned char)(m >> (8 * (k % 8)));
	return v;
}

template <typename T>
__device__ void scramble(T *p, long long n, u64 key)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
		p[i] = keyed(p[i], key, (u64)i);
}

template <typename T>
__device__ void compare(const T *out, const T *ref, long long n, double abs_tol, double rel_tol, int exact, int poison, u64 key, cmp_result *res)
{
	u64 bad = 0, nans = 0, first = ~0ULL, unwritten = 0;
	double max_abs = 0, max_rel = 0, sq_err = 0, sq_ref = 0;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
		double o = to_double<T>(out[i]), r = to_double<T>(keyed(ref[i], key, (u64)i));
		double d = fabs(o - r);
		bool is_nan = isnan(o) || isnan(r);
		bool wrong = is_nan || (exact ? !(o == r) : !(d <= abs_tol + rel_tol * fabs(r)));
		if (is_nan) nans++;
		if (wrong) { bad++; if ((u64)i < first) first = (u64)i; }
		if (wrong && is_poison(out[i], (unsigned char)poison)) unwritten++;
		if (!is_nan) {
			sq_err += d * d;
			sq_ref += r * r;
			if (d > max_abs) max_abs = d;
			if (fabs(r) > (isinf(abs_tol) ? 0 : abs_tol) && fabs(r) > 0 && d / fabs(r) > max_rel) max_rel = d / fabs(r);
		}
	}
	for (int o = 16; o > 0; o >>= 1) {
		bad += __shfl_down_sync(0xffffffffu, bad, o);
		nans += __shfl_down_sync(0xffffffffu, nans, o);
		unwritten += __shfl_down_sync(0xffffffffu, unwritten, o);
		u64 f = __shfl_down_sync(0xffffffffu, first, o);
		first = f < first ? f : first;
		max_abs = fmax(max_abs, __shfl_down_sync(0xffffffffu, max_abs, o));
		max_rel = fmax(max_rel, __shfl_down_sync(0xffffffffu, max_rel, o));
		sq_err += __shfl_down_sync(0xffffffffu, sq_err, o);
		sq_ref += __shfl_down_sync(0xffffffffu, sq_ref, o);
	}
	if ((threadIdx.x & 31) == 0) {
		if (bad) atomicAdd(&res->bad, bad);
		if (nans) atomicAdd(&res->nans, nans);
		if (unwritten) atomicAdd(&res->unwritten, unwritten);
		if (first != ~0ULL) atomicMin(&res->first_bad, first);
		max_bits(&res->max_abs_bits, max_abs);
		max_bits(&res->max_rel_bits, max_rel);
		if (sq_err > 0) atomicAdd(&res->sq_err, sq_err);
		if (sq_ref > 0) atomicAdd(&res->sq_ref, sq_ref);
	}
}

#define TYPES(X) X(f32, float, false) X(f64, double, false) X(f16, __half, false) X(bf16, __nv_bfloat16, false) \
	X(i32, int, true) X(u32, unsigned, true) X(i64, long long, true) X(u64, unsigned long long, true) \
	X(i8, signed char, true) X(u8, unsigned char, true)
#define ENTRIES(name, T, INTEGER) \
	extern "C" __global__ void fill_##name(T *p, long long n, u64 seed, double a, double b, int mode, double hot) \
	{ fill<T, INTEGER>(p, n, seed, a, b, mode, hot); } \
	extern "C" __global__ void compare_##name(const T *out, const T *ref, long long n, double abs_tol, double rel_tol, int exact, int poison, u64 key, cmp_result *res) \
	{ compare<T>(out, ref, n, abs_tol, rel_tol, exact, poison, key, res); } \
	extern "C" __global__ void scramble_##name(T *p, long long n, u64 key) \
	{ scramble<T>(p, n, key); }
TYPES(ENTRIES)

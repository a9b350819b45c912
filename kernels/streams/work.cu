// The streams lesson's kernel: y[i] = f(x[i]) for the elements [offset, offset + count) of x and y,
// f being iters steps of a slowly shrinking rotation of the point (x, 0):
//   (u, v) <- (c u - s v, s u + c v),   c = 0.9999 cos 0.05, s = 0.9999 sin 0.05
// and y = u + v. Four floating-point instructions (6 flops: two multiplies, two fused multiply-adds)
// per step, no memory traffic inside the loop: the lesson sets iters so that the kernel takes a
// little longer than each copy over PCIe (3.4 ms against 2.5 ms on the H100 box), so that a
// pipeline can hide both copies under it.
//
// Each stage runs the same kernel, whole or on chunks, so every stage computes the same bits.
//
// Tunables (-D): BLOCK (threads per block).
extern "C" __global__ void __launch_bounds__(BLOCK)
work(const float *__restrict__ x, float *__restrict__ y, long long offset, long long count, int iters)
{
	long long i = blockIdx.x * (long long)BLOCK + threadIdx.x;
	if (i >= count) return;
	i += offset;
	const float c = 0.99865f, s = 0.049974f;
	float u = x[i], v = 0.0f;
	for (int k = 0; k < iters; k++) {
		float t = c * u - s * v;
		v = s * u + c * v;
		u = t;
	}
	y[i] = u + v;
}

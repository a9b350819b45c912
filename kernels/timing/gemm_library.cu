// Stages burst and sustained: their one step is a library call, cuBLAS's BF16 GEMM on the tensor cores
// (library: cublas_gemm_bf16, lessons/README.md "Library steps"), and cuBLAS picks and launches its own
// kernel. A stage still names a kernel file and entry of its own: this one, which neither stage
// launches (so they show no occupancy or registers of ours). What the two stages compare is the same
// library kernel over ten repetitions and over thousands, with the SM clock and the board's power read
// beside each repetition (NVML).
extern "C" __global__ void not_launched(float *unused)
{
	(void)unused;
}

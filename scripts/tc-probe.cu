// How many clusters of 2 (and 4) CTAs of the wgmma stages' shape the GPU keeps resident at once.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void __launch_bounds__(384, 1) k384() {}
int main()
{
	int sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	cudaFuncSetAttribute(k384, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);
	cudaFuncSetAttribute(k384, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
	int smems[] = { 148528, 197696, 205888, 100000 };
	for (int cs : { 1, 2, 4 })
		for (int sm : smems) {
			cudaLaunchConfig_t cfg = {};
			cfg.gridDim = dim3(cs * 16); cfg.blockDim = dim3(384); cfg.dynamicSmemBytes = sm;
			cudaLaunchAttribute at; at.id = cudaLaunchAttributeClusterDimension;
			at.val.clusterDim.x = cs; at.val.clusterDim.y = 1; at.val.clusterDim.z = 1;
			cfg.attrs = &at; cfg.numAttrs = 1;
			int n = -1; cudaError_t e = cudaOccupancyMaxActiveClusters(&n, k384, &cfg);
			printf("probe: sms %d cluster %d smem %d -> max active clusters %d (%s)\n", sms, cs, sm, n, cudaGetErrorString(e));
		}
	return 0;
}

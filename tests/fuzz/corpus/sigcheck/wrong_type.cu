extern "C" __global__ void k(const double *x, int *idx, int n) {}

/* worker_main: see worker_main.h. */
#include "worker_main.h"
#include <stdio.h>
#include <stdlib.h>
#include "arch.h"
#include "gpu.h"
#include "util.h"

/* A worker started by hand or over ssh finds its data from where it is installed. */
int worker_main(int argc, char **argv)
{
	char *root = getenv("CUDACLIMB_BUILTIN_ROOT") && getenv("CUDACLIMB_ARCH_TABLE") ? NULL : data_root();
	if (root) {
		char *builtin = xasprintf("%s/kernels", root), *arch = xasprintf("%s/assets/arch.yaml", root);
		setenv("CUDACLIMB_BUILTIN_ROOT", builtin, 0);
		setenv("CUDACLIMB_ARCH_TABLE", arch, 0);
		free(builtin);
		free(arch);
		free(root);
	}
	const char *table = getenv("CUDACLIMB_ARCH_TABLE");
	char err[512];
	if (table && arch_load(table, err, sizeof err)) fprintf(stderr, "cudaclimb worker: %s\n", err);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	return gpu_worker_main(stdin, stdout, argc > 2 ? atoi(argv[2]) : -1);
}

/* worker_main: see worker_main.h. */
#include "worker_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include "arch.h"
#include "gpu.h"
#include "util.h"
#include "worker_stdout.h"

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
	/* Under the lab service's judge the learner's source is compiled under a bound on address space
	 * (RLIMIT_AS, soft); the worker runs only cudaclimb's own host code, and CUDA reserves address
	 * space in proportion to the GPU's memory, so it lifts the soft bound to the hard one. */
	struct rlimit as;
	if (getenv("CUDACLIMB_JUDGE") && getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != as.rlim_max) {
		as.rlim_cur = as.rlim_max;
		setrlimit(RLIMIT_AS, &as);
	}
	const char *table = getenv("CUDACLIMB_ARCH_TABLE");
	char err[512];
	if (table && arch_load(table, err, sizeof err)) fprintf(stderr, "cudaclimb worker: %s\n", err);
	/* The protocol leaves on a descriptor of its own (worker_stdout.h): what a kernel prints can never
	 * put a line into it. */
	FILE *po = worker_stdout_apart(err, sizeof err);
	if (!po) {
		fprintf(stderr, "cudaclimb worker: %s\n", err);
		return 1;
	}
	setvbuf(po, NULL, _IOFBF, 1 << 16);
	return gpu_worker_main(stdin, po, argc > 2 ? atoi(argv[2]) : -1);
}

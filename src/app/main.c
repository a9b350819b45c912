/* cudaclimb: climb CUDA kernel optimisation ladders on a real GPU. */
#include <string.h>
#include "cli.h"
#include "worker_main.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "__worker")) return worker_main(argc, argv);
	return cli_main(argc, argv);
}

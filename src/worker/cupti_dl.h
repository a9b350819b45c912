/* cupti_dl: where libcupti is looked for, for the two modules that dlopen it (counters.cpp and
 * hotspots.cpp), so that a missing CUPTI is a message, not a failure to start. C++ only. */
#ifndef CC_CUPTI_DL_H
#define CC_CUPTI_DL_H
#include <dlfcn.h>
#include <cstdlib>
#include <string>
#include <vector>

/* The first libcupti that opens: the loader's search (libcupti.so.13, libcupti.so), then $CUDA_HOME's
 * and /usr/local/cuda's lib64 and extras/CUPTI/lib64. NULL when none does; the caller says why. */
static inline void *cupti_dlopen(void)
{
	std::vector<std::string> paths = {"libcupti.so.13", "libcupti.so"};
	const char *home = getenv("CUDA_HOME");
	for (const char *dir : {home, "/usr/local/cuda"}) {
		if (!dir || !*dir)
			continue;
		paths.push_back(std::string(dir) + "/lib64/libcupti.so");
		paths.push_back(std::string(dir) + "/extras/CUPTI/lib64/libcupti.so");
	}
	for (const std::string &p : paths)
		if (void *lib = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL))
			return lib;
	return nullptr;
}
#endif

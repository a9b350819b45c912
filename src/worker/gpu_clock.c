/* gpu_clock: the SM clock and the board's power read through NVML, opened with dlopen so that a
 * machine without it (or a driver that refuses it) gives a reason instead of a failure to start. Only
 * the few NVML calls used here are declared, by their documented C signatures. */
#include <dlfcn.h>
#include <string.h>
#include "gpu.h"
#include "util.h"

typedef int nvml_ret;                         /* nvmlReturn_t: 0 is NVML_SUCCESS */
typedef struct nvml_device *nvml_device;      /* nvmlDevice_t: an opaque handle */
enum { NVML_CLOCK_SM_ID = 1 };                /* nvmlClockType_t: GRAPHICS 0, SM 1, MEM 2, VIDEO 3 */

static struct {
	int tried, ok;
	char why[160];
	void *lib;
	nvml_device dev;
	nvml_ret (*get_clock)(nvml_device, int, unsigned *);
	nvml_ret (*get_power)(nvml_device, unsigned *);   /* nvmlDeviceGetPowerUsage: milliwatts; NULL when absent */
	const char *(*error_string)(nvml_ret);
} nv;

/* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as NVML names devices, from the 32 hex digits of uuid. */
static int nvml_uuid(const char *uuid, char *out, size_t n)
{
	if (strlen(uuid) != 32 || n < 41) return -1;
	static const int groups[] = { 8, 4, 4, 4, 12 };
	size_t o = (size_t)snprintf(out, n, "GPU");
	for (int g = 0, i = 0; g < 5; i += groups[g++]) o += (size_t)snprintf(out + o, n - o, "-%.*s", groups[g], uuid + i);
	return 0;
}

static const char *err_text(nvml_ret r)
{
	static char num[32];
	if (nv.error_string) return nv.error_string(r);
	strfmt(num, sizeof num, "error %d", r);
	return num;
}

int gpu_clock_open(const device_info *d, int cuda_dev, char *why, size_t n)
{
	if (nv.tried) { strfmt(why, n, "%s", nv.why); return nv.ok ? 0 : -1; }
	nv.tried = 1;
	nvml_ret (*init)(void);
	nvml_ret (*by_uuid)(const char *, nvml_device *);
	nvml_ret (*by_bus)(const char *, nvml_device *);
	nv.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!nv.lib) { strfmt(nv.why, sizeof nv.why, "no SM clock: NVML (libnvidia-ml.so.1) cannot be loaded"); goto out; }
	*(void **)&init = dlsym(nv.lib, "nvmlInit_v2");
	*(void **)&by_uuid = dlsym(nv.lib, "nvmlDeviceGetHandleByUUID");
	*(void **)&by_bus = dlsym(nv.lib, "nvmlDeviceGetHandleByPciBusId_v2");
	*(void **)&nv.get_clock = dlsym(nv.lib, "nvmlDeviceGetClockInfo");
	*(void **)&nv.get_power = dlsym(nv.lib, "nvmlDeviceGetPowerUsage");
	*(void **)&nv.error_string = dlsym(nv.lib, "nvmlErrorString");
	if (!init || !by_uuid || !nv.get_clock) { strfmt(nv.why, sizeof nv.why, "no SM clock: this NVML lacks nvmlInit_v2, nvmlDeviceGetHandleByUUID or nvmlDeviceGetClockInfo"); goto out; }
	nvml_ret r = init();
	if (r) { strfmt(nv.why, sizeof nv.why, "no SM clock: nvmlInit: %s", err_text(r)); goto out; }
	/* The CUDA device's own: by its UUID, else by its PCI bus id (the indices of the two may differ). */
	char id[64];
	r = nvml_uuid(d->uuid, id, sizeof id) ? -1 : by_uuid(id, &nv.dev);
	if (r && by_bus && cudaDeviceGetPCIBusId(id, sizeof id, cuda_dev) == cudaSuccess) r = by_bus(id, &nv.dev);
	cudaGetLastError();
	if (r) { strfmt(nv.why, sizeof nv.why, "no SM clock: NVML does not find this GPU (uuid %s): %s", d->uuid, err_text(r)); goto out; }
	unsigned mhz = 0;
	if ((r = nv.get_clock(nv.dev, NVML_CLOCK_SM_ID, &mhz)) || !mhz) {
		strfmt(nv.why, sizeof nv.why, "no SM clock: nvmlDeviceGetClockInfo: %s", r ? err_text(r) : "it answers 0 MHz");
		goto out;
	}
	nv.ok = 1;
out:
	strfmt(why, n, "%s", nv.why);
	return nv.ok ? 0 : -1;
}

int gpu_clock_sm_mhz(void)
{
	unsigned mhz = 0;
	if (!nv.ok || nv.get_clock(nv.dev, NVML_CLOCK_SM_ID, &mhz) || !mhz) return -1;
	return (int)mhz;
}

double gpu_clock_power_w(char *why, size_t n)
{
	unsigned mw = 0;
	nvml_ret r = !nv.ok ? -1 : !nv.get_power ? -2 : nv.get_power(nv.dev, &mw);
	if (!r && mw) return mw / 1000.0;
	if (why && n)
		strfmt(why, n, "no power: %s", r == -1 ? (nv.why[0] ? nv.why : "NVML is not open") : r == -2 ? "this NVML lacks nvmlDeviceGetPowerUsage"
		                                 : r ? err_text(r) : "nvmlDeviceGetPowerUsage answers 0 mW");
	return -1;
}

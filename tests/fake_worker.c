/* A stand-in for `cudaclimb __worker` that speaks the worker protocol (src/worker.h) with no GPU and
 * misbehaves on request, so that the engine's handling of a worker can be tested anywhere: run
 * cudaclimb with CUDACLIMB_WORKER=this and CC_FAKE set to
 *   ok        a device, and every run right (1 ms)       fault    a run faults, then the worker exits
 *   hang      a run never answers                         garbage  a run answers with noise
 *   garbled   a result with a field that does not parse   die      exits in the middle of a result
 *   version   greets with another protocol version        nohello  never greets
 *   fault-once  the first run in CC_FAKE_STATE's life faults, later ones (fresh workers) are right */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "result.h"
#include "worker.h"

static void device(void)
{
	device_info d;
	memset(&d, 0, sizeof d);
	d.present = 1;
	snprintf(d.name, sizeof d.name, "Fake GPU");
	snprintf(d.arch, sizeof d.arch, "sm_90");
	snprintf(d.uuid, sizeof d.uuid, "fake0");
	d.cc = 90; d.sm_count = 132; d.warp_size = 32; d.max_threads_per_block = 1024; d.max_threads_per_sm = 2048;
	d.max_blocks_per_sm = 32; d.regs_per_sm = 65536; d.regs_per_block = 65536; d.smem_per_block_optin = 232448;
	d.smem_per_sm = 233472; d.l2_bytes = 50 << 20; d.bw_theoretical_gbps = 3352; d.bw_attainable_gbps = 3000; d.fp32_gflops = 66908;
	puts("device");
	field_write_kv(stdout, device_info_fields, device_info_nfields, &d);
	puts("end");
}

static void result(run_status st, const char *msg)
{
	run_result r;
	run_result_init(&r);
	r.status = st;
	snprintf(r.message, sizeof r.message, "%s", msg);
	if (st == RUN_OK) { r.reps = 10; r.ms_median = r.ms_min = r.ms_max = 1.0; r.checked = r.passed = 1; }
	puts("result");
	field_write_kv(stdout, run_result_fields, run_result_nfields, &r);
	puts("end");
}

int main(void)
{
	const char *mode = getenv("CC_FAKE") ? getenv("CC_FAKE") : "ok", *state = getenv("CC_FAKE_STATE");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "version")) printf("hello 999\n");
	else if (strcmp(mode, "nohello")) printf("hello %d\n", WORKER_PROTOCOL);
	else printf("ready\n");
	char line[4096];
	while (fgets(line, sizeof line, stdin)) {
		if (!strcmp(line, "device\n")) { while (fgets(line, sizeof line, stdin) && strcmp(line, "end\n")) {} device(); continue; }
		if (strcmp(line, "run\n")) continue;
		while (fgets(line, sizeof line, stdin) && strcmp(line, "end\n")) {}
		printf("phase running\n");
		if (!strcmp(mode, "fault-once") && state) {
			if (access(state, F_OK) != 0) {
				FILE *f = fopen(state, "w");
				if (f) fclose(f);
				result(RUN_FAULT, "the kernel failed: an illegal memory access was encountered (cudaErrorIllegalAddress)");
				return 3;
			}
			result(RUN_OK, "");
		} else if (!strcmp(mode, "fault")) {
			result(RUN_FAULT, "the kernel failed: an illegal memory access was encountered (cudaErrorIllegalAddress)");
			return 3;
		} else if (!strcmp(mode, "hang")) {
			for (;;) pause();
		} else if (!strcmp(mode, "garbage")) {
			printf("\x01\x02 zzz noise\n");
		} else if (!strcmp(mode, "garbled")) {
			printf("result\nstatus ok\nms_median not-a-number\nend\n");
		} else if (!strcmp(mode, "die")) {
			printf("result\nstatus ok\n");
			fflush(stdout);
			return 9;
		} else {
			result(RUN_OK, "");
		}
	}
	return 0;
}

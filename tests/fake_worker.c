/* A stand-in for `cudaclimb __worker` that speaks the worker protocol (src/runner/runner_worker.h) with no GPU and
 * misbehaves on request, so that the engine's handling of a worker can be tested anywhere: run
 * cudaclimb with CUDACLIMB_WORKER=this and CC_FAKE set to
 *   ok        a device, and every run right (1 ms)       fault    a run faults, then the worker exits
 *   hang      a run never answers                         garbage  a run answers with noise
 *   garbled   a result with a field that does not parse   die      exits in the middle of a result
 *   version   greets with another protocol version        nohello  never greets
 *   fault-once  the first run in CC_FAKE_STATE's life faults, later ones (fresh workers) are right
 *   echo      like ok, with a message that says what the request carried: each plan (src/lesson/plan_wire.h;
 *             the pair's too), its size and its kernel launches as ENTRY GRID/BLOCK (a library call: NAME 0,0,0/0,0,0), and each blob of code, its size and
 *             whether it is an ELF image (code as bytes, not paths)
 * CC_FAKE_ARCH=sm_80 (say) describes a GPU of that architecture. A request with "hotspots 1" gets the
 * samples in the file CC_FAKE_HOTSPOTS names (the text form of src/worker/hotspots.h), or without it the
 * note CC_FAKE_HOTSPOTS_NOTE (or one of its own) saying why there are none. A result of a stage's
 * run lists its plan's steps ("step" lines), each taking 0.25 ms one after the other. With
 * CC_FAKE_NAME set, an ok result's message says it ("ran by NAME"), for tests of several workers;
 * CC_FAKE_FAULT_GPU=N makes the worker started for GPU N ("__worker N") fault on every run; CC_FAKE_RATIO=R
 * gives an ok result a timed pair at speed ratio R (so that a try passes when R is at least its bar); CC_FAKE_TIME_BY=NAME
 * times an ok run of a plan with the integer variable NAME (a tunable) at 64/NAME ms (BLOCK=256: 0.25 ms). A plan with
 * a "timing" line (a stage's own timing method) gets a result whose timing field is "plan: " and that line's words.
 * CC_FAKE_TIME_AT="A=64,B=4" times an ok run as a landscape over the plan's integer variables (tunables): 1 ms at
 * that setting, 0.1 ms more for each step of two away on each variable named (|log2(value/target)| x 0.1 ms);
 * CC_FAKE_TIME_TRAP="A=4,B=16" adds a second, worse valley (0.1 ms above the best at its floor), the
 * time being the lower of the two: a local search that starts near the trap must leave it to find the best. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "result.h"
#include "util.h"
#include "runner_worker.h"

static void device(void)
{
	device_info d;
	memset(&d, 0, sizeof d);
	const char *arch = getenv("CC_FAKE_ARCH") ? getenv("CC_FAKE_ARCH") : "sm_90";
	d.present = 1;
	snprintf(d.name, sizeof d.name, "Fake GPU");
	snprintf(d.arch, sizeof d.arch, "%s", arch);
	snprintf(d.uuid, sizeof d.uuid, "fake0");
	d.cc = atoi(arch + 3); d.sm_count = 132; d.warp_size = 32; d.max_threads_per_block = 1024; d.max_threads_per_sm = 2048;
	d.max_blocks_per_sm = 32; d.regs_per_sm = 65536; d.regs_per_block = 65536; d.smem_per_block_optin = 232448;
	d.smem_per_sm = 233472; d.l2_bytes = 50 << 20; d.bw_theoretical_gbps = 3352; d.bw_attainable_gbps = 3000; d.fp32_gflops = 66908;
	puts("device");
	field_write_kv(stdout, device_info_fields, device_info_nfields, &d);
	puts("end");
}

static int hot_wanted;          /* the request asked for a hotspot pass */
static int pair_baseline;       /* the request's pair_plan is a baseline's (its result's pair says "baseline") */
static run_result planned;      /* the steps of the request's plan */
static double planned_ms;       /* CC_FAKE_TIME_BY, CC_FAKE_TIME_AT: the run's time from the plan's variables; 0: 1 ms */

/* |log2(r)|, exact at powers of two and straight between them (no libm: the tests build this with cc alone). */
static double steps2(double r)
{
	double n = 0;
	if (r < 1) r = 1 / r;
	while (r >= 2) { r /= 2; n++; }
	return n + (r - 1);
}

/* 1 + 0.1 x the sum over "NAME=TARGET,..." of |log2(value / target)|, value the plan's "var NAME i VALUE". */
static double valley(const char *text, const char *spec)
{
	double ms = 1;
	for (const char *p = spec; p && *p;) {
		size_t k = strcspn(p, ",");
		char name[64], var[96];
		double target = 0;
		const char *eq = memchr(p, '=', k);
		if (eq && (size_t)(eq - p) < sizeof name) {
			snprintf(name, sizeof name, "%.*s", (int)(eq - p), p);
			target = atof(eq + 1);
			snprintf(var, sizeof var, "\nvar %s i ", name);
			const char *v = strstr(text, var);
			double value = v ? atof(v + strlen(var)) : 0;
			if (value > 0 && target > 0) ms += 0.1 * steps2(value / target);
		}
		p += k + (p[k] == ',');
	}
	return ms;
}

/* The plan's steps (src/lesson/plan_wire.h: "memset BUFFER VALUE", "launch ENTRY GX GY GZ BX BY BZ SHARED
 * NARGS STREAM PDL"), timed 0.25 ms each, one after the other. */
static void plan_steps(const char *text)
{
	int stage = strstr(text, "\nstage -1\n") ? -1 : 0;
	planned.nsteps = 0;
	const char *by = getenv("CC_FAKE_TIME_BY");
	char var[96];
	snprintf(var, sizeof var, "\nvar %s i ", by ? by : "");
	const char *v = by ? strstr(text, var) : NULL;
	planned_ms = v && atof(v + strlen(var)) > 0 ? 64.0 / atof(v + strlen(var)) : 0;
	const char *at = getenv("CC_FAKE_TIME_AT"), *trap = getenv("CC_FAKE_TIME_TRAP");
	if (at) planned_ms = valley(text, at);
	if (at && trap && valley(text, trap) + 0.1 < planned_ms) planned_ms = valley(text, trap) + 0.1;
	/* a stage's own timing (plan_wire.h "timing ..."): its words as the plan sent them, where the real
	 * worker writes stage_timing_text's ("plan: host 0 -1 1 flush median") */
	const char *tm = strstr(text, "\ntiming ");
	planned.timing[0] = 0;
	if (tm) snprintf(planned.timing, sizeof planned.timing, "plan: %.*s", (int)strcspn(tm + 8, "\n"), tm + 8);
	for (const char *p = strchr(text, '\n'); stage >= 0 && p && planned.nsteps < RUN_MAX_STEPS; p = strchr(p + 1, '\n')) {
		run_step s;
		run_step_init(&s);
		unsigned long long shared;
		if (sscanf(p + 1, "launch %63s %u %u %u %u %u %u %llu", s.entry, &s.grid[0], &s.grid[1], &s.grid[2], &s.block[0], &s.block[1],
		           &s.block[2], &shared) == 8) {
			strcpy(s.kind, "launch");
			s.dynamic_smem = (int64_t)shared;
		} else if (sscanf(p + 1, "memset %63s", s.entry) == 1) {
			strcpy(s.kind, "memset");
		} else continue;
		s.start_ms = 0.25 * planned.nsteps;
		s.end_ms = s.start_ms + 0.25;
		s.ms_median = 0.25;
		planned.steps[planned.nsteps++] = s;
	}
}

static void result(run_status st, const char *msg)
{
	run_result r;
	run_result_init(&r);
	r.status = st;
	snprintf(r.message, sizeof r.message, "%s", msg);
	if (st == RUN_OK) { r.reps = 10; r.ms_median = r.ms_min = r.ms_max = planned_ms > 0 ? planned_ms : 1.0; r.checked = r.passed = 1; }
	const char *ratio = getenv("CC_FAKE_RATIO");   /* a timed pair at this speed ratio (a try passes at >= its bar) */
	if (st == RUN_OK && ratio) {
		r.pair_ratio = r.pair_ratio_p20 = r.pair_ratio_p80 = atof(ratio);
		r.pair_ms_median = r.pair_ratio > 0 ? r.ms_median * r.pair_ratio : 0;
		if (pair_baseline) snprintf(r.pair, sizeof r.pair, "baseline");
	}
	const char *hot = getenv("CC_FAKE_HOTSPOTS"), *note = getenv("CC_FAKE_HOTSPOTS_NOTE");
	char *samples = st == RUN_OK && hot_wanted && hot ? file_read(hot, NULL) : NULL;
	if (st == RUN_OK && hot_wanted && !samples)
		snprintf(r.hotspots_note, sizeof r.hotspots_note, "%s", note ? note : "the fake worker samples nothing (CC_FAKE_HOTSPOTS names a file of samples)");
	const char *name = getenv("CC_FAKE_NAME");
	if (st == RUN_OK && name && !*msg) snprintf(r.message, sizeof r.message, "ran by %s", name);
	memcpy(r.steps, planned.steps, sizeof r.steps);
	if (st == RUN_OK) memcpy(r.timing, planned.timing, sizeof r.timing);
	r.nsteps = st == RUN_OK ? planned.nsteps : 0;
	puts("result");
	field_write_kv(stdout, run_result_fields, run_result_nfields, &r);
	for (int i = 0; i < r.nsteps; i++) run_step_write(stdout, &r, i);
	if (samples) {
		rtrim(samples);
		fputs("hotspots ", stdout);
		field_escape(stdout, samples);
		putchar('\n');
		free(samples);
	}
	puts("end");
}

/* Reads a request up to its "end", blobs skipped whole (their bytes may hold anything); what it
 * carried into what. 0 when the input ended. */
static int read_request(char *what, size_t n)
{
	char line[4096];
	size_t k = 0;
	what[0] = 0;
	hot_wanted = pair_baseline = 0;
	planned.nsteps = 0;
	while (fgets(line, sizeof line, stdin)) {
		if (!strcmp(line, "end\n")) return 1;
		if (!strcmp(line, "hotspots 1\n")) hot_wanted = 1;
		char key[32];
		unsigned long len;
		if (sscanf(line, "%31s %lu", key, &len) < 2 ||
		    (strcmp(key, "plan") && strcmp(key, "ref_plan") && strcmp(key, "cubin") && strcmp(key, "ref_cubin") && strcmp(key, "pair_cubin") &&
		     strcmp(key, "pair_plan"))) continue;
		char *data = malloc(len + 1);
		if (!data || fread(data, 1, len, stdin) != len || getchar() != '\n') { free(data); return 0; }
		data[len] = 0;
		if (!strcmp(key, "plan")) plan_steps(data);
		if (!strcmp(key, "pair_plan")) pair_baseline = strstr(data, "\nstage -1\n") != NULL;
		if (!strcmp(key, "plan") || !strcmp(key, "ref_plan") || !strcmp(key, "pair_plan")) {
			k += (size_t)snprintf(what + k, k < n ? n - k : 0, "%s %lu bytes%s", key, len, strncmp(data, "plan 2\n", 7) ? " (not a plan)" : "");
			for (const char *p = strstr(data, "\nlaunch "); p; p = strstr(p + 1, "\nlaunch ")) {
				char entry[64];
				unsigned g[3], b[3];
				if (sscanf(p + 8, "%63s %u %u %u %u %u %u", entry, &g[0], &g[1], &g[2], &b[0], &b[1], &b[2]) == 7)
					k += (size_t)snprintf(what + k, k < n ? n - k : 0, " %s %u,%u,%u/%u,%u,%u", entry, g[0], g[1], g[2], b[0], b[1], b[2]);
			}
			k += (size_t)snprintf(what + k, k < n ? n - k : 0, "; ");
		} else k += (size_t)snprintf(what + k, k < n ? n - k : 0, "%s %lu bytes%s; ", key, len, len > 4 && !memcmp(data, "\x7f" "ELF", 4) ? " ELF" : "");
		free(data);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = getenv("CC_FAKE") ? getenv("CC_FAKE") : "ok", *state = getenv("CC_FAKE_STATE");
	const char *gpu = argc > 2 ? argv[2] : "-1", *faulty = getenv("CC_FAKE_FAULT_GPU");
	if (faulty && !strcmp(faulty, gpu)) mode = "fault";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "version")) printf("hello 999\n");
	else if (strcmp(mode, "nohello")) printf("hello %d\n", WORKER_PROTOCOL);
	else printf("ready\n");
	char line[4096], what[1024];
	while (fgets(line, sizeof line, stdin)) {
		if (!strcmp(line, "device\n")) { while (fgets(line, sizeof line, stdin) && strcmp(line, "end\n")) {} device(); continue; }
		if (strcmp(line, "run\n")) continue;
		if (!read_request(what, sizeof what)) return 2;
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
		} else if (!strcmp(mode, "echo")) {
			result(RUN_OK, what);
		} else {
			result(RUN_OK, "");
		}
	}
	return 0;
}

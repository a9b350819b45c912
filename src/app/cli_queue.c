/* cli_queue: `cudaclimb queue [init] [N|UUID...]`, the GPU queues' folders (src/worker/gpulock.c):
 * their state, or (root) making them root's and sticky for a lab, so that no user can own one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_cmd.h"
#include "course.h"
#include "gpu.h"
#include "labwire.h"
#include "util.h"

#define MAX_GPUS 64

/* The GPUs named by operands (an index or a UUID) and --gpu, else every GPU here, into uuids;
 * labels[i] says which ("GPU 0", "GPU 5f3e..."). The count, or -(exit code) with a message. */
static int queue_gpus(cli *c, int first, char (*uuids)[40], char (*labels)[48])
{
	char all[MAX_GPUS][40], why[300];
	int nall = -2, n = 0;   /* -2: not asked yet */
	int want[MAX_GPUS], nwant = 0;
	for (int i = 0; i < c->eo.ngpus && nwant < MAX_GPUS; i++) want[nwant++] = c->eo.gpus[i];
	for (int i = first; i < c->nargs; i++) {
		const char *a = c->args[i];
		char *end;
		long g = strtol(a, &end, 10);
		if (end != a && !*end && g >= 0 && g < MAX_GPUS) { if (nwant < MAX_GPUS) want[nwant++] = (int)g; continue; }
		if (gpulock_uuid_norm(a, uuids[n], sizeof uuids[n])) {
			char shown[80];
			size_t k = 0;
			for (const char *p = a; *p && k + 1 < sizeof shown; p++) shown[k++] = *p < 0x20 || *p == 0x7f ? '?' : *p;
			shown[k] = 0;
			return -cli_usage_error("queue: '%s' is neither a GPU's number nor its UUID (32 hex digits, or nvidia-smi's GPU-...)", shown);
		}
		if (n < MAX_GPUS) { strfmt(labels[n], sizeof labels[n], "GPU %.32s", uuids[n]); n++; }
	}
	if (nwant || n == 0) nall = gpu_list_uuids(all, MAX_GPUS, why, sizeof why);
	if ((nwant || n == 0) && nall < 0) {
		fprintf(stderr, "cudaclimb: queue: %s; name the GPUs by UUID (cudaclimb queue init UUID...)\n", why);
		return -EXIT_NO_GPU;
	}
	if (!nwant && n == 0) for (int i = 0; i < nall; i++) { strfmt(uuids[n], 40, "%s", all[i]); strfmt(labels[n], 48, "GPU %d", i); n++; }
	for (int i = 0; i < nwant && n < MAX_GPUS; i++) {
		if (want[i] >= nall) { fprintf(stderr, "cudaclimb: queue: no GPU %d: this machine has %d\n", want[i], nall); return -EXIT_USAGE; }
		strfmt(uuids[n], 40, "%s", all[want[i]]);
		strfmt(labels[n], 48, "GPU %d", want[i]);
		n++;
	}
	return n;
}

/* The lab service's socket for this command: the course's (--course, $CUDACLIMB_COURSE), else
 * $CUDACLIMB_SERVICE; NULL when runs use the queue folders. A new string. */
static char *service_of(cli *c)
{
	const char *cd = c->eo.course_dir ? c->eo.course_dir : getenv("CUDACLIMB_COURSE");
	if (cd && *cd) {
		char err[512];
		course *co = course_load(cd, err, sizeof err);
		char *sock = co && co->service_socket ? xstrdup(co->service_socket) : NULL;
		course_free(co);
		if (sock) return sock;
	}
	return labwire_service() ? xstrdup(labwire_service()) : NULL;
}

/* The lab service's own view of its queues ("status"): one line each, then the judge. */
static int service_status(const char *sock)
{
	char why[1024], line[LABWIRE_LINE_MAX] = "";
	int fd = labwire_connect(sock, why, sizeof why);
	if (fd < 0) { fputs("cudaclimb: queue: ", stderr); fput_clean(stderr, why); fputc('\n', stderr); return EXIT_FAILED; }
	labwire_reader r = { .fd = fd };
	int k = labwire_send(fd, "status\n", 7, 5000) ? -1 : 0;
	printf("lab service at %s:\n", sock);
	while (!k && (k = labwire_read_line(&r, line, sizeof line, 10000)) == 1 && strcmp(line, "end")) {
		if (!strncmp(line, "line ", 5)) { fputs("  ", stdout); fput_clean(stdout, line + 5); putchar('\n'); }
		k = 0;
	}
	close(fd);
	if (strcmp(line, "end")) { fprintf(stderr, "cudaclimb: queue: the lab service did not answer in full\n"); return EXIT_FAILED; }
	return EXIT_OK;
}

int cmd_queue(cli *c)
{
	int init = c->nargs > 1 && !strcmp(c->args[1], "init");
	char *sock = init ? NULL : service_of(c);
	if (sock) { int rc = service_status(sock); free(sock); return rc; }
	if (init && geteuid() != 0) {
		fprintf(stderr, "cudaclimb: queue init makes the GPU queue folders root's, so it needs root: sudo cudaclimb queue init "
		        "(a folder you made would be yours, and other users' runs would refuse it)\n");
		return EXIT_USAGE;
	}
	char uuids[MAX_GPUS][40], labels[MAX_GPUS][48];
	int n = queue_gpus(c, init ? 2 : 1, uuids, labels);
	if (n < 0) return -n;
	int code = EXIT_OK;
	for (int i = 0; i < n; i++) {
		char line[1200];
		int rc = init ? gpulock_init(uuids[i], line, sizeof line) : gpulock_status(uuids[i], line, sizeof line);
		printf("%s: ", labels[i]);
		fput_clean(stdout, line);
		putchar('\n');
		if (rc) code = EXIT_FAILED;
	}
	return code;
}

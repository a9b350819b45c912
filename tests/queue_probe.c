/* The GPU queue (src/worker/gpulock.c) without a GPU, for tests/cli/queue.sh: queue as this process's
 * user, hold the "GPU" for HOLD_MS, and append one line to LOG (opened O_APPEND, one write):
 * "run TICKET_CTIME_NS START_NS END_NS PID UID". Notes go to stderr.
 * Usage: queue_probe UUID HOLD_MS LOG    (the queue folder is under $CUDACLIMB_LOCK_DIR)
 *        queue_probe pick UUID...         prints the index gpulock_pick chooses, then each queue's length
 *        queue_probe hog UUID SECONDS     a hostile holder: queues, then holds the GPU for SECONDS,
 *                                         refreshing its start mark (touched, made again) every 100 ms
 *        queue_probe init UUID | status UUID   gpulock_init / gpulock_status, their line on stdout
 * Exit: 0 served in the queue, 5 refused (the queue could not be used safely: nothing was run and
 * no line written; why on stderr). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "gpu.h"

static long long ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void note(void *ctx, const char *text)
{
	(void)ctx;
	fprintf(stderr, "%d: %s\n", (int)getpid(), text);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "pick")) {
		int lens[16], n = argc - 2 < 16 ? argc - 2 : 16;
		int best = gpulock_pick((const char *const *)argv + 2, n, lens);
		printf("%d", best);
		for (int i = 0; i < n; i++) printf(" %d", lens[i]);
		printf("\n");
		return 0;
	}
	char why[1024], line[1024];
	if (argc == 3 && (!strcmp(argv[1], "init") || !strcmp(argv[1], "status"))) {
		int rc = !strcmp(argv[1], "init") ? gpulock_init(argv[2], line, sizeof line) : gpulock_status(argv[2], line, sizeof line);
		printf("%s\n", line);
		return rc ? 1 : 0;
	}
	if (argc == 4 && !strcmp(argv[1], "hog")) {
		if (gpulock_acquire(argv[2], 1, note, NULL, why, sizeof why)) { fprintf(stderr, "%s\n", why); return 5; }
		char mark[1200];
		const char *t = gpulock_ticket(), *slash = strrchr(t, '/');
		snprintf(mark, sizeof mark, "%.*s/s-%s", (int)(slash - t), t, slash + 1);
		fprintf(stderr, "%d: hog holds %s\n", (int)getpid(), t);
		for (long long end = ns() + atoll(argv[3]) * 1000000000LL, k = 0; ns() < end; k++) {
			if (k % 2) { unlink(mark); close(open(mark, O_WRONLY | O_CREAT | O_EXCL, 0644)); }
			else utimes(mark, NULL);     /* a new change time either way */
			struct timespec w = { 0, 100000000L };
			nanosleep(&w, NULL);
		}
		gpulock_release();
		return 0;
	}
	if (argc != 4) { fprintf(stderr, "usage: queue_probe UUID HOLD_MS LOG\n"); return 2; }
	if (gpulock_acquire(argv[1], atoi(argv[2]) / 1000.0, note, NULL, why, sizeof why)) {
		fprintf(stderr, "%d: refused: %s\n", (int)getpid(), why);
		return 5;
	}
	int queued = 1;
	long long start = ns(), ctime = 0;
	struct stat st;
	if (queued && gpulock_ticket() && stat(gpulock_ticket(), &st) == 0) ctime = st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec;
	struct timespec hold = { atoi(argv[2]) / 1000, (atoi(argv[2]) % 1000) * 1000000L };
	nanosleep(&hold, NULL);
	long long end = ns();
	gpulock_release();
	int n = snprintf(line, sizeof line, "run %lld %lld %lld %d %d\n", ctime, start, end, (int)getpid(), (int)getuid());
	int fd = open(argv[3], O_WRONLY | O_APPEND);
	if (fd < 0 || write(fd, line, (size_t)n) != n) return 3;
	close(fd);
	return 0;
}

/* The lab service's clients without a GPU, for tests/attack/service.sh:
 *   lease_probe lease SOCKET UUID HOLD_MS LOG   a lease (src/worker/gpulease.c), held HOLD_MS, then one line
 *                                              "run START_NS END_NS PID UID" appended to LOG; exit 5 refused
 *   lease_probe hog SOCKET UUID SECONDS         holds a lease SECONDS and never says done (the cap's test)
 *   lease_probe conns SOCKET N SECONDS          opens N connections and keeps them SECONDS; prints how many
 *                                              the service kept open
 *   lease_probe send SOCKET SECONDS             sends standard input as it is, then prints what comes back
 *                                              for SECONDS (or until the service closes)
 *   lease_probe submit SOCKET COURSE LESSON/STAGE FILE   ex_submit's path, waiting for the verdict
 * Notes go to stderr. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "course.h"
#include "exercise.h"
#include "gpulease.h"
#include "labwire.h"

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

static void sleep_ms(long ms)
{
	struct timespec w = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&w, NULL);
}

int main(int argc, char **argv)
{
	char why[2048], line[LABWIRE_LINE_MAX];
	if (argc == 6 && !strcmp(argv[1], "lease")) {
		if (gpulease_acquire(argv[2], argv[3], atoi(argv[4]) / 1000.0, note, NULL, why, sizeof why)) {
			fprintf(stderr, "%d: refused: %s\n", (int)getpid(), why);
			return 5;
		}
		long long start = ns();
		sleep_ms(atol(argv[4]));
		long long end = ns();
		gpulease_release();
		int n = snprintf(line, sizeof line, "run %lld %lld %d %d\n", start, end, (int)getpid(), (int)getuid());
		int fd = open(argv[5], O_WRONLY | O_APPEND);
		if (fd < 0 || write(fd, line, (size_t)n) != n) return 3;
		close(fd);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "hog")) {
		if (gpulease_acquire(argv[2], argv[3], 1, note, NULL, why, sizeof why)) { fprintf(stderr, "refused: %s\n", why); return 5; }
		fprintf(stderr, "%d: hog holds the GPU\n", (int)getpid());
		sleep_ms(atol(argv[4]) * 1000);
		gpulease_release();
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "conns")) {
		int n = atoi(argv[3]), open_ = 0;
		int *fds = calloc((size_t)n, sizeof *fds);
		for (int i = 0; i < n; i++) fds[i] = labwire_connect(argv[2], why, sizeof why);
		sleep_ms(500);
		for (int i = 0; i < n; i++) {
			if (fds[i] < 0) continue;
			labwire_reader r = { .fd = fds[i] };
			if (labwire_read_line(&r, line, sizeof line, 0) < 0) open_++;   /* nothing said, still open: kept */
		}
		printf("%d\n", open_);
		fflush(stdout);
		sleep_ms(atol(argv[4]) * 1000);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "send")) {
		int fd = labwire_connect(argv[2], why, sizeof why);
		if (fd < 0) { fprintf(stderr, "%s\n", why); return 5; }
		char buf[65536];
		ssize_t k;
		while ((k = read(0, buf, sizeof buf)) > 0) if (labwire_send(fd, buf, (size_t)k, 5000)) break;
		labwire_reader r = { .fd = fd };
		int got;
		while ((got = labwire_read_line(&r, line, sizeof line, atoi(argv[3]) * 1000)) == 1) printf("%s\n", line);
		printf(got == 0 ? "[closed]\n" : "[open]\n");
		return 0;
	}
	if (argc == 6 && !strcmp(argv[1], "submit")) {
		char lid[80], sid[80];
		const char *slash = strchr(argv[4], '/');
		if (!slash) return 2;
		snprintf(lid, sizeof lid, "%.*s", (int)(slash - argv[4]), argv[4]);
		snprintf(sid, sizeof sid, "%s", slash + 1);
		course co = { .id = argv[3], .service_socket = argv[2] };
		lesson l;
		lesson_stage s;
		memset(&l, 0, sizeof l);
		memset(&s, 0, sizeof s);
		l.id = lid;
		s.id = sid;
		char said[4096] = "";
		int rc = ex_submit(&co, &l, &s, argv[5], 1, said, sizeof said, why, sizeof why);
		printf("%s\n", rc ? why : said);
		return rc ? 1 : 0;
	}
	fprintf(stderr, "usage: see tests/lease_probe.c\n");
	return 2;
}

/* worker_stdout: see worker_stdout.h. Descriptor 1 is a pipe that a thread of the worker empties as
 * it fills: a kernel may print up to the printf buffer (1 MiB by default) at every launch while the
 * worker's own thread waits in CUDA, so a pipe nobody read would stop the runtime's write, and the
 * worker with it; a file would grow without bound (a kernel printing in every one of a thousand timed
 * launches). The thread keeps the first WORKER_STDOUT_MAX bytes of a request and counts the rest. */
#include "worker_stdout.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include "fmt.h"
#include "util.h"

static int rd = -1;                       /* the pipe's end we read */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char kept[WORKER_STDOUT_MAX + 1];
static size_t nkept;
static long long dropped;

/* Reads what the pipe holds now (rd is non-blocking). Under mu. 0 at the pipe's end or on an error. */
static int take(void)
{
	char buf[4096];
	for (;;) {
		ssize_t k = read(rd, buf, sizeof buf);
		if (k < 0 && errno == EINTR) continue;
		if (k < 0) return errno == EAGAIN;
		if (k == 0) return 0;
		size_t room = WORKER_STDOUT_MAX - nkept, n = (size_t)k < room ? (size_t)k : room;
		memcpy(kept + nkept, buf, n);
		nkept += n;
		dropped += k - (ssize_t)n;
	}
}

static void *reader(void *arg)
{
	(void)arg;
	for (;;) {
		struct pollfd p = { rd, POLLIN, 0 };
		if (poll(&p, 1, -1) < 0 && errno != EINTR) return NULL;
		pthread_mutex_lock(&mu);
		int more = take();
		pthread_mutex_unlock(&mu);
		if (!more) return NULL;
	}
}

FILE *worker_stdout_apart(char *err, size_t errlen)
{
	fflush(stdout);
	int proto = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3), p[2] = { -1, -1 };
	FILE *po = proto >= 0 ? fdopen(proto, "w") : NULL;
	if (!po || pipe2(p, O_CLOEXEC) != 0 || dup2(p[1], STDOUT_FILENO) < 0) {
		strfmt(err, errlen, "cannot set the protocol's descriptor apart: %s", strerror(errno));
		if (po) fclose(po); else if (proto >= 0) close(proto);
		if (p[0] >= 0) { close(p[0]); close(p[1]); }
		return NULL;
	}
	close(p[1]);
	rd = p[0];
	fcntl(rd, F_SETFL, O_NONBLOCK);
	pthread_t t;
	if (pthread_create(&t, NULL, reader, NULL) != 0) {
		/* Nobody to empty the pipe: what is printed is lost rather than let into the protocol. */
		close(rd);
		rd = -1;
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) { dup2(null, STDOUT_FILENO); close(null); }
		return po;
	}
	pthread_detach(t);
	return po;
}

void worker_stdout_drain(void)
{
	fflush(stdout);
	if (rd < 0) return;
	pthread_mutex_lock(&mu);
	take();                               /* what the thread has not read yet */
	if (nkept) {
		kept[nkept] = 0;
		for (size_t i = 0; i < nkept; i++)     /* a NUL printed is shown, not an end */
			if (!kept[i]) kept[i] = '?';
		fput_clean(stderr, kept);
		if (kept[nkept - 1] != '\n') fputc('\n', stderr);
	}
	if (dropped)
		fprintf(stderr, "cudaclimb worker: %lld more bytes printed by the kernels, not shown\n", dropped);
	fflush(stderr);
	nkept = 0;
	dropped = 0;
	pthread_mutex_unlock(&mu);
}

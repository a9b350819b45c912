/* gpulock: an advisory lock per GPU (flock on a file named by the GPU's UUID, in $CUDACLIMB_LOCK_DIR
 * or /tmp), so that timed runs of different processes and users never overlap. The file holds who
 * has it, for the message others see while they wait. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "gpu.h"
#include "util.h"

static int lock_fd = -1;

int gpulock_acquire(const char *uuid, void (*note)(void *ctx, const char *text), void *ctx)
{
	if (lock_fd < 0) {
		const char *dir = getenv("CUDACLIMB_LOCK_DIR");
		char path[512];
		strfmt(path, sizeof path, "%s/cudaclimb-gpu-%s.lock", dir && *dir ? dir : "/tmp", uuid);
		mode_t old = umask(0);
		lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
		umask(old);
		if (lock_fd < 0) return -1;
	}
	if (flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
		char who[256] = "another process";
		ssize_t n = pread(lock_fd, who, sizeof who - 1, 0);
		if (n > 0) { who[n] = 0; rtrim(who); }
		char msg[320];
		strfmt(msg, sizeof msg, "waiting for the GPU: in use by %s", who);
		if (note) note(ctx, msg);
		while (flock(lock_fd, LOCK_EX) != 0)
			if (errno != EINTR) return -1;
	}
	struct passwd *pw = getpwuid(getuid());
	char stamp[32];
	time_t t = time(NULL);
	strftime(stamp, sizeof stamp, "%H:%M:%S", localtime(&t));
	char me[256];
	strfmt(me, sizeof me, "%s (pid %ld) since %s\n", pw ? pw->pw_name : "?", (long)getppid(), stamp);
	if (ftruncate(lock_fd, 0) == 0 && pwrite(lock_fd, me, strlen(me), 0) < 0) { /* the message is best effort */ }
	return 0;
}

void gpulock_release(void)
{
	if (lock_fd >= 0) flock(lock_fd, LOCK_UN);
}

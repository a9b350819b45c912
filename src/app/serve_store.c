/* serve_store: the lab service's verdicts, one file per student in the course's store folder, which
 * only the service writes and the course's staff read (serve.h). A record is appended in one write
 * and fsynced before the student is told, so a service killed at any moment loses no verdict it
 * gave; a line cut short by a kill is not a record, and the report drops it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "results.h"
#include "serve.h"
#include "util.h"

int serve_store_ready(const course *co, char *why, size_t wn)
{
	const char *dir = co->service_store;
	struct stat st;
	if (lstat(dir, &st) != 0 && errno == ENOENT) {
		if (mkdir(dir, 0750) != 0) { strfmt(why, wn, "cannot make the store %s: %s", dir, strerror(errno)); return -1; }
		if (chmod(dir, 02750)) {}
		if (lstat(dir, &st) != 0) { strfmt(why, wn, "the store %s: %s", dir, strerror(errno)); return -1; }
	}
	if (!S_ISDIR(st.st_mode)) { strfmt(why, wn, "the store %s is not a folder", dir); return -1; }
	if (st.st_uid != geteuid()) {
		strfmt(why, wn, "the store %s belongs to uid %lu, not to the service (uid %lu): sudo install -d -o %lu -g STAFF -m 2750 %s",
		       dir, (unsigned long)st.st_uid, (unsigned long)geteuid(), (unsigned long)geteuid(), dir);
		return -1;
	}
	if (st.st_mode & 0022) { strfmt(why, wn, "the store %s is writable by others (mode %04o): chmod 2750 it", dir, (unsigned)(st.st_mode & 07777)); return -1; }
	return 0;
}

static char *store_file(const course *co, unsigned uid)
{
	char user[64];
	results_owner_name(uid, user, sizeof user);
	for (char *p = user; *p; p++) if (!(*p == '-' || *p == '_' || *p == '.' || (*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z'))) *p = '_';
	return xasprintf("%s/%u-%s.jsonl", co->service_store, uid, user);
}

int serve_store_append(const course *co, unsigned uid, const char *line, char *why, size_t wn)
{
	char *path = store_file(co, uid);
	int fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		strfmt(why, wn, "cannot append to %s: %s", path, fd < 0 ? strerror(errno) : "not a file of the service's own");
		if (fd >= 0) close(fd);
		free(path);
		return -1;
	}
	size_t n = strlen(line);
	char *buf = xmalloc(n + 1);
	memcpy(buf, line, n);
	buf[n] = '\n';
	ssize_t w = write(fd, buf, n + 1);   /* one write: O_APPEND keeps it whole */
	int bad = w != (ssize_t)(n + 1) || fsync(fd) != 0;
	if (bad) strfmt(why, wn, "cannot append to %s: %s", path, w < 0 ? strerror(errno) : "a short write");
	close(fd);
	free(buf);
	free(path);
	return bad ? -1 : 0;
}

int serve_store_has(const course *co, unsigned uid, const char *job)
{
	char *path = store_file(co, uid);
	size_t len;
	char *buf = file_read_max(path, RESULTS_FILE_MAX, FILE_NOFOLLOW, &len);
	free(path);
	if (!buf) return 0;
	char *key = xasprintf(", \"job\": \"%s\"}\n", job);
	int found = strstr(buf, key) != NULL;
	free(key);
	free(buf);
	return found;
}

/* serve_store: the lab service's verdicts, one file per student in the course's store folder, which
 * only the service writes and the course's staff read (serve.h). A record is appended in one write
 * and fsynced before the student is told, so a service killed at any moment loses no verdict it
 * gave; a line cut short by a kill is not a record, and the report drops it. */
#include <errno.h>
#include <stdint.h>
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

/* uid's n-th file in co's store: "UID-USER.jsonl", then "UID-USER.N.jsonl" (the names the report reads). */
static char *store_file(const course *co, unsigned uid, int n)
{
	char user[64];
	results_owner_name(uid, user, sizeof user);
	for (char *p = user; *p; p++) if (!(*p == '-' || *p == '_' || *p == '.' || (*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z'))) *p = '_';
	return n ? xasprintf("%s/%u-%s.%d.jsonl", co->service_store, uid, user, n) : xasprintf("%s/%u-%s.jsonl", co->service_store, uid, user);
}

/* uid's n-th file opened for appending (made, 0640, when missing): fd, or -1 with errno; -2 when it is
 * there and is not a regular file of the service's own with one link. */
static int open_store(const char *path, struct stat *st)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640);
	if (fd < 0) return -1;
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_uid != geteuid() || st->st_nlink != 1) { close(fd); return -2; }
	return fd;
}

/* The lines of the file at path, counted up to max. */
static long count_lines(const char *path, long max)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) return max;
	char buf[65536];
	long n = 0;
	ssize_t r;
	while (n < max && ((r = read(fd, buf, sizeof buf)) > 0 || (r < 0 && errno == EINTR)))
		for (ssize_t i = 0; i < r; i++) n += buf[i] == '\n';
	close(fd);
	return n;
}

#define RECORD_MIN 200   /* bytes: no record is shorter (its keys alone are), so a smaller file has room for more records */

/* Whether uid's file path has room for need more bytes and one more record (missing: yes), within the
 * report's caps on a file (RESULTS_FILE_MAX bytes, RESULTS_RECORDS_MAX records). */
static int has_room(const char *path, size_t need)
{
	struct stat st;
	if (lstat(path, &st) != 0) return errno == ENOENT;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size + need > RESULTS_FILE_MAX) return 0;
	return st.st_size < (off_t)RESULTS_RECORDS_MAX * RECORD_MIN || count_lines(path, RESULTS_RECORDS_MAX) < RESULTS_RECORDS_MAX;
}

int serve_store_room(const course *co, unsigned uid)
{
	int room = 0;
	for (int n = 0; n < RESULTS_FILES_PER_UID && !room; n++) {
		char *path = store_file(co, uid, n);
		room = has_room(path, RESULTS_LINE_MAX);
		free(path);
	}
	return room;
}

int serve_store_append(const course *co, unsigned uid, const char *line, char *why, size_t wn)
{
	size_t n = strlen(line);
	/* the first of uid's files with room for the line: none is ever past the report's cap on a file */
	for (int k = 0; k < RESULTS_FILES_PER_UID; k++) {
		char *path = store_file(co, uid, k);
		if (!has_room(path, n + 1)) { free(path); continue; }
		struct stat st;
		int fd = open_store(path, &st);
		if (fd < 0) {
			strfmt(why, wn, "cannot append to %s: %s", path, fd == -1 ? strerror(errno) : "not a file of the service's own");
			free(path);
			return -1;
		}
		if ((uint64_t)st.st_size + n + 1 > RESULTS_FILE_MAX) { close(fd); free(path); continue; }   /* grew meanwhile */
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
	strfmt(why, wn, "uid %u's records fill the store: %d files of %d MiB, all the report reads of a student (move the oldest out of %s to make room)", uid,
	       RESULTS_FILES_PER_UID, RESULTS_FILE_MAX >> 20, co->service_store);
	return -1;
}

/* Whether the file at path holds key, read in pieces (any size: a file an older service let grow past
 * the report's cap too). */
static int file_holds(const char *path, const char *key)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) return 0;
	size_t kl = strlen(key), have = 0;
	char buf[65536 + 256];
	int found = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof buf - 1 - have);
		if (r < 0 && errno == EINTR) continue;
		if (r <= 0) break;
		have += (size_t)r;
		buf[have] = 0;
		if (memmem(buf, have, key, kl)) { found = 1; break; }
		if (have >= kl) { memmove(buf, buf + have - (kl - 1), kl - 1); have = kl - 1; }   /* a key cut across two reads */
	}
	close(fd);
	return found;
}

int serve_store_has(const course *co, unsigned uid, const char *job, int64_t received)
{
	char *key = xasprintf(", \"job\": \"%s\"}\n", job);
	int found = 0;
	for (int n = 0; n < RESULTS_FILES_PER_UID && !found; n++) {
		char *path = store_file(co, uid, n);
		struct stat st;
		/* the record is appended after the job was received: a file not changed since cannot hold it */
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && (int64_t)st.st_mtim.tv_sec >= received) found = file_holds(path, key);
		free(path);
	}
	free(key);
	return found;
}
